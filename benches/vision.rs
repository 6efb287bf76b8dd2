//! Per-frame cost of the vision stages on frames decoded beforehand (so
//! decoding does not blur the figures): the remap to the top view and the
//! whole `ClipTracker::push`, each with OpenCV's default thread count and
//! with one thread, as the median over several passes of milliseconds per
//! frame.
//!
//! `cargo bench --bench vision -- CLIP CAMERA_JSON [FRAMES] [PASSES]`
//! (FRAMES: 150, PASSES: 5); run by `cargo test` without arguments, it makes
//! one short pass over `fixtures/jump`. Every pass of the pipeline starts a fresh
//! tracker, and the stroke count of each pass is printed so a change that
//! alters the results shows.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use carrom::detect::background::{self, Background};
use carrom::detect::prior::InkMap;
use carrom::detect::{Frame, FrameReader, TopView};
use carrom::live::CameraModel;
use carrom::strokes::{ClipTracker, SessionOptions};
use opencv::prelude::*;

fn fastest(values: Vec<f64>) -> f64 {
    values.into_iter().fold(f64::INFINITY, f64::min)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() -> Result<()> {
    let benching = std::env::args().any(|a| a == "--bench");
    let mut args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if !benching && args.is_empty() {
        // `cargo test --all-targets` runs this target without `--bench` or
        // arguments: a short pass over a fixture proves the bench still runs.
        let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/jump");
        args = vec![
            format!("{fixture}/clip.mp4"),
            format!("{fixture}/camera.json"),
            "10".into(),
            "1".into(),
        ];
    }
    let clip = PathBuf::from(
        args.first()
            .context("usage: vision CLIP CAMERA_JSON [FRAMES] [PASSES]")?,
    );
    let camera_path = PathBuf::from(
        args.get(1)
            .context("usage: vision CLIP CAMERA_JSON [FRAMES] [PASSES]")?,
    );
    let limit: usize = args
        .get(2)
        .map_or(Ok(150), |s| s.parse())
        .context("FRAMES")?;
    let passes: usize = args.get(3).map_or(Ok(5), |s| s.parse()).context("PASSES")?;
    let camera = CameraModel::load(&camera_path)
        .with_context(|| format!("cannot read {}", camera_path.display()))?;
    let mut reader =
        FrameReader::open(&clip).with_context(|| format!("cannot open {}", clip.display()))?;
    let mut frames = Vec::new();
    loop {
        let mut frame = Frame::empty();
        if frames.len() == limit || !reader.read_into(&mut frame)? {
            break;
        }
        frames.push(frame);
    }
    println!("{} frames of {}", frames.len(), clip.display());
    let options = SessionOptions::default();
    background_stages(&camera, &options, &frames)?;
    let default_threads = opencv::core::get_num_threads()?;
    for threads in [default_threads, 1] {
        opencv::core::set_num_threads(threads)?;
        let mut remap = Vec::new();
        let mut push = Vec::new();
        let mut strokes = Vec::new();
        for _ in 0..passes {
            let mut tracker =
                ClipTracker::new(&camera, &options).map_err(|e| anyhow::anyhow!("{e}"))?;
            let top_view = tracker.top_view();
            let mut rectified = top_view.empty_rectified();
            let start = Instant::now();
            for frame in &frames {
                top_view.rectify(frame, &mut rectified)?;
            }
            remap.push(start.elapsed().as_secs_f64() * 1e3 / frames.len() as f64);
            let start = Instant::now();
            for frame in &frames {
                tracker.push(frame).map_err(|e| anyhow::anyhow!("{e}"))?;
            }
            push.push(start.elapsed().as_secs_f64() * 1e3 / frames.len() as f64);
            strokes.push(tracker.finish().len());
        }
        let tracker = ClipTracker::new(&camera, &options).map_err(|e| anyhow::anyhow!("{e}"))?;
        let mut rectified = tracker.top_view().empty_rectified();
        let start = Instant::now();
        for _ in 0..frames.len() {
            tracker.top_view().rectify(&frames[0], &mut rectified)?;
        }
        println!(
            "  remap of one frame again and again: {:.3} ms",
            start.elapsed().as_secs_f64() * 1e3 / frames.len() as f64
        );
        println!(
            "OpenCV threads {threads}: remap {:.3} ms/frame, whole push {:.3} ms/frame (fastest of {passes}; medians {:.3}, {:.3}), strokes {strokes:?}",
            fastest(remap.clone()),
            fastest(push.clone()),
            median(remap),
            median(push)
        );
    }
    Ok(())
}

/// The empty-board model's two passes alone, on the clip's top views (the
/// first one seeds the model with the predicted board).
fn background_stages(
    camera: &CameraModel,
    options: &SessionOptions,
    frames: &[Frame],
) -> Result<()> {
    let top_view = TopView::new(camera, options.px_per_mm)?;
    let side = top_view.frame().side_px() as usize;
    let mut views = Vec::new();
    for frame in frames {
        let mut view = top_view.empty_rectified();
        top_view.rectify(frame, &mut view)?;
        views.push(view.image.data_bytes()?.to_vec());
    }
    let first = views.first().context("no frames")?;
    let prior = InkMap::new(&top_view.frame())?.predict(first);
    let model = Background::from_frame_and_prior(first, side, side, prior);
    let busy = vec![background::FREE; side * side];
    let mut mask = vec![0u8; side * side];
    let (mut compare, mut learn) = (Vec::new(), Vec::new());
    for _ in 0..5 {
        let mut model = model.clone();
        let (mut c, mut l) = (0.0, 0.0);
        for view in &views {
            let start = Instant::now();
            model.foreground(view, &mut mask);
            let middle = Instant::now();
            model.update(view, &busy, options.detector.learning_rate);
            c += (middle - start).as_secs_f64();
            l += middle.elapsed().as_secs_f64();
        }
        compare.push(c * 1e3 / views.len() as f64);
        learn.push(l * 1e3 / views.len() as f64);
    }
    println!(
        "background ({side} px square): compare {:.3} ms/frame, learn {:.3} ms/frame (fastest of 5)",
        fastest(compare),
        fastest(learn)
    );
    Ok(())
}
