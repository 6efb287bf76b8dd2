//! Makes a still clip of a photograph: the same frame repeated, so that
//! `carrom calibrate`, `carrom track` and the review examples can be tried on
//! a real board photographed once. The image is cropped by a pixel where a
//! side is odd (video encoders want even sizes).
//!
//! Usage: `still-clip PHOTO OUT.mp4 [FRAMES]` (default 60 frames at 30 fps).

use std::path::PathBuf;

use anyhow::{bail, Context};
use opencv::core::{Mat, Rect};
use opencv::imgcodecs;
use opencv::prelude::*;

use carrom::sim::video::ClipWriter;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (photo, out, frames) = match args.as_slice() {
        [photo, out] => (photo, out, 60),
        [photo, out, frames] => (
            photo,
            out,
            frames
                .parse::<u32>()
                .with_context(|| format!("FRAMES must be a whole number, not {frames:?}"))?,
        ),
        _ => bail!("usage: still-clip PHOTO OUT.mp4 [FRAMES]"),
    };
    let image = imgcodecs::imread(photo, imgcodecs::IMREAD_COLOR)
        .with_context(|| format!("cannot read {photo}"))?;
    if image.empty() {
        bail!("{photo} is not an image OpenCV can read");
    }
    let (width, height) = (image.cols() & !1, image.rows() & !1);
    let even = Mat::roi(&image, Rect::new(0, 0, width, height))?.try_clone()?;
    let mut writer = ClipWriter::create(&PathBuf::from(out), 30.0, (width as u32, height as u32))
        .with_context(|| format!("cannot write {out}"))?;
    for _ in 0..frames {
        writer.write(&even)?;
    }
    let written = writer.finish()?;
    println!("{out}: {written} frames of {width}x{height}");
    Ok(())
}
