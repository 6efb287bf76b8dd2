//! Review tool: measures each frame's camera shake with the tracker's
//! [`ShakeMeter`] and, for a simulated clip (whose camera.json holds the
//! shake it rendered), compares it with the truth.
//!
//! Usage: `shake CLIP CAMERA_JSON [--frames]`; prints per clip: frames, the
//! mean time a measure takes, the error against the truth (mean, 95th
//! percentile, worst) on shaken and on still frames; `--frames` prints every
//! frame where either says the image moved.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context};

use carrom::detect::shake::ShakeMeter;
use carrom::detect::{Frame, FrameReader};
use carrom::sim::camera::Camera;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        bail!("usage: shake CLIP CAMERA_JSON [--frames]");
    }
    let every = args.iter().any(|a| a == "--frames");
    let text = std::fs::read_to_string(&args[1]).with_context(|| format!("reading {}", args[1]))?;
    let camera: Option<Camera> = serde_json::from_str(&text).ok();
    let mut reader = FrameReader::open(&PathBuf::from(&args[0]))?;
    let mut frame = Frame::empty();
    let mut meter = ShakeMeter::new();
    let (mut shaken, mut still) = (Vec::new(), Vec::new());
    let mut spent = 0.0;
    let mut frames = 0u32;
    while reader.read_into(&mut frame)? {
        let started = Instant::now();
        let shift = meter.measure(&frame.image)?;
        spent += started.elapsed().as_secs_f64();
        let truth = camera
            .as_ref()
            .map(|c| c.shake().offset(frame.index as u32));
        if let Some(truth) = truth {
            let error = (shift.dx - truth.x).hypot(shift.dy - truth.y);
            if truth.norm() > 0.0 {
                shaken.push(error);
            } else {
                still.push(error);
            }
            if every && (truth.norm() > 0.0 || shift.length() > 0.2) {
                println!(
                    "frame {:4}: measured ({:6.2}, {:6.2}) truth ({:6.2}, {:6.2})",
                    frame.index, shift.dx, shift.dy, truth.x, truth.y
                );
            }
        } else if every && shift.length() > 0.2 {
            println!(
                "frame {:4}: measured ({:6.2}, {:6.2})",
                frame.index, shift.dx, shift.dy
            );
        }
        frames += 1;
    }
    let summary = |errors: &mut Vec<f64>| -> String {
        if errors.is_empty() {
            return "none".into();
        }
        errors.sort_by(f64::total_cmp);
        let mean = errors.iter().sum::<f64>() / errors.len() as f64;
        let p95 = errors[(errors.len() * 95 / 100).min(errors.len() - 1)];
        let worst = errors[errors.len() - 1];
        format!(
            "{} frames, mean {mean:.2} px, p95 {p95:.2}, worst {worst:.2}",
            errors.len()
        )
    };
    println!(
        "{}: {frames} frames, {:.3} ms a frame; shaken: {}; still: {}",
        args[0],
        1000.0 * spent / f64::from(frames.max(1)),
        summary(&mut shaken),
        summary(&mut still)
    );
    Ok(())
}
