//! Decodes a clip and does nothing else: the baseline that
//! `scripts/bench-track.sh` compares `carrom track` with. Prints the frame
//! count.
//!
//! By default it decodes with OpenCV (`VideoCapture::read`, every frame
//! converted whole to BGR), the baseline the speed target names.
//! `--ffmpeg` decodes as `carrom track` does instead: FFmpeg's decoder
//! called directly, no frame converted (`FrameReader::convert_only` with an
//! empty region), to show what the decoding itself costs.

use std::path::PathBuf;

use carrom::detect::{Decoder, Frame, FrameReader};
use opencv::core::Rect;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args_os().skip(1);
    let usage = || anyhow::anyhow!("usage: decode-only VIDEO [--ffmpeg]");
    let path: PathBuf = args.next().map(PathBuf::from).ok_or_else(usage)?;
    let decoder = match args.next() {
        None => Decoder::OpenCv,
        Some(flag) if flag == "--ffmpeg" => Decoder::Ffmpeg,
        Some(_) => return Err(usage()),
    };
    let mut reader = FrameReader::open_with(&path, decoder)?;
    if decoder == Decoder::Ffmpeg {
        reader.convert_only(Some(Rect::new(0, 0, 0, 0)));
    }
    let mut frame = Frame::empty();
    let mut frames = 0u64;
    while reader.read_into(&mut frame)? {
        frames += 1;
    }
    println!("{frames}");
    Ok(())
}
