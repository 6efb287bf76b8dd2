//! Review tool: the top view and the foreground against the empty board at
//! chosen frames of a clip, side by side as PNGs, to see why a piece is or
//! is not found.
//!
//! Usage: `foreground CLIP CAMERA_JSON OUT_DIR FRAME...`; writes
//! `OUT_DIR/frame-N.png` (top view left, foreground right). With
//! `CROP="X Y W"` it also writes `frame-N-crop.png`: the W-pixel square at
//! (X, Y) of both halves, six times larger, to see a piece's rim.

use std::path::PathBuf;

use anyhow::{bail, Context};
use opencv::core::{self, Mat, MatTraitConst, Vector};
use opencv::imgcodecs;
use opencv::imgproc;

use carrom::detect::FrameReader;
use carrom::live::CameraModel;
use carrom::strokes::{ClipTracker, SessionOptions};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 4 {
        bail!("usage: foreground CLIP CAMERA_JSON OUT_DIR FRAME...");
    }
    let camera = CameraModel::load(&PathBuf::from(&args[1]))?;
    let out = PathBuf::from(&args[2]);
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let mut wanted: Vec<u64> = args[3..]
        .iter()
        .map(|a| {
            a.parse()
                .with_context(|| format!("not a frame number: {a}"))
        })
        .collect::<anyhow::Result<_>>()?;
    wanted.sort_unstable();
    let mut reader = FrameReader::open(&PathBuf::from(&args[0]))?;
    let mut tracker = ClipTracker::new(&camera, &SessionOptions::default())?;
    let mut frame = carrom::detect::Frame::empty();
    let mut index = 0u64;
    while let Some(&next) = wanted.first() {
        if !reader.read_into(&mut frame)? {
            break;
        }
        tracker.push(&frame)?;
        if index == next {
            wanted.remove(0);
            let mut mask = Mat::default();
            imgproc::cvt_color(
                tracker.detector().foreground(),
                &mut mask,
                imgproc::COLOR_GRAY2BGR,
                0,
            )?;
            let mut pair = Mat::default();
            let views: Vector<Mat> = Vector::from_iter([tracker.rectified().image.clone(), mask]);
            core::hconcat(&views, &mut pair)?;
            let path = out.join(format!("frame-{index}.png"));
            imgcodecs::imwrite(&path, &pair, &Vector::new())?;
            // CROP="x y w": that square of both halves, six times larger.
            if let Ok(crop) = std::env::var("CROP") {
                let v: Vec<i32> = crop
                    .split_whitespace()
                    .filter_map(|t| t.parse().ok())
                    .collect();
                if let [x, y, w] = v[..] {
                    let side = pair.cols() / 2;
                    let mut halves = Vec::new();
                    for dx in [0, side] {
                        let roi = Mat::roi(&pair, core::Rect::new(x + dx, y, w, w))?;
                        let mut big = Mat::default();
                        imgproc::resize(
                            &roi,
                            &mut big,
                            core::Size::new(w * 6, w * 6),
                            0.0,
                            0.0,
                            imgproc::INTER_NEAREST,
                        )?;
                        halves.push(big);
                    }
                    let mut both = Mat::default();
                    core::hconcat(&Vector::<Mat>::from_iter(halves), &mut both)?;
                    imgcodecs::imwrite(
                        out.join(format!("frame-{index}-crop.png")),
                        &both,
                        &Vector::new(),
                    )?;
                }
            }
            let threshold = tracker
                .detector()
                .background()
                .map(|b| (b.threshold(), b.gain()));
            eprintln!("wrote {} (threshold, gain: {threshold:?})", path.display());
        }
        index += 1;
    }
    Ok(())
}
