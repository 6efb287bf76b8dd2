//! Render speed: a 30 s 720p30 clip (900 frames) of a break with pieces
//! flying, rendered alone and then rendered and encoded to H.264, with the
//! frames per second of each. `-- --png DIR` saves sample frames of a few
//! seeds instead (for looking at the renderer's output).
//!
//! Options: `--frames N` (900), `--width W --height H` (1280x720),
//! `--seed S` (1), `--png DIR`, `--seeds N` (with `--png`: how many looks).

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use carrom::geometry::{break_arrangement, Piece, Seat};
use carrom::sim::camera::Camera;
use carrom::sim::render::{Appearance, Renderer};
use carrom::sim::scene::{FrameTruth, HandTruth, PieceState, PieceTruth};
use carrom::sim::video::ClipWriter;
use opencv::core::{Mat, Vector};
use opencv::imgcodecs;
use rand::rngs::StdRng;
use rand::SeedableRng;

struct Options {
    frames: u32,
    width: u32,
    height: u32,
    seed: u64,
    png: Option<PathBuf>,
    seeds: u64,
}

fn options() -> Result<Options> {
    let mut o = Options {
        frames: 900,
        width: 1280,
        height: 720,
        seed: 1,
        png: None,
        seeds: 6,
    };
    // `cargo test --all-targets` runs this target without `--bench`: then it is
    // a smoke test of a few frames, not the full measurement.
    if !std::env::args().any(|arg| arg == "--bench") {
        o.frames = 10;
        o.seeds = 1;
    }
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().with_context(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--frames" => o.frames = value("--frames")?.parse()?,
            "--width" => o.width = value("--width")?.parse()?,
            "--height" => o.height = value("--height")?.parse()?,
            "--seed" => o.seed = value("--seed")?.parse()?,
            "--seeds" => o.seeds = value("--seeds")?.parse()?,
            "--png" => o.png = Some(PathBuf::from(value("--png")?)),
            // cargo bench passes --bench to every bench target.
            "--bench" => {}
            other => bail!("unknown option {other}"),
        }
    }
    Ok(o)
}

/// A break: the striker flies in from south, hits the pack at 0.5 s, and the
/// pieces scatter radially and slow down over two seconds. A hand sets the
/// striker down first and is withdrawn before the shot.
fn scene(frame: u32, fps: f64) -> FrameTruth {
    let t = f64::from(frame) / fps;
    let hit = 0.5;
    let slowdown = 2.0;
    let mut pieces: Vec<PieceTruth> = break_arrangement(Seat::South)
        .iter()
        .enumerate()
        .map(|(i, placed)| {
            let id = match placed.piece {
                Piece::Queen => 0,
                _ => i as u8,
            };
            let start = placed.centre;
            let out = if start.coords.norm() > 1e-6 {
                start.coords.normalize()
            } else {
                nalgebra::Vector2::new(0.3, 1.0).normalize()
            };
            let speed0 = 1200.0 + 80.0 * (i as f64 % 5.0);
            let dt = (t - hit).clamp(0.0, slowdown);
            // v = v0 (1 - dt / T): travelled v0 (dt - dt² / 2T).
            let travelled = speed0 * (dt - dt * dt / (2.0 * slowdown));
            let speed = if t > hit && t < hit + slowdown {
                speed0 * (1.0 - dt / slowdown)
            } else {
                0.0
            };
            let position = start + out * travelled.min(300.0);
            PieceTruth {
                id,
                kind: placed.piece,
                x: position.x,
                y: position.y,
                vx: out.x * speed,
                vy: out.y * speed,
                z: 0.0,
                state: PieceState::OnBoard,
                pocket: None,
            }
        })
        .collect();
    let striker_y = if t < hit {
        -250.0 + 250.0 * (t / hit).max(0.0).powi(2) * 0.8
    } else {
        -50.0 - 200.0 * ((t - hit) / 1.0).min(1.0)
    };
    let striker_v = if t < hit {
        1600.0 * t / hit
    } else if t < hit + 1.0 {
        -200.0
    } else {
        0.0
    };
    pieces.push(PieceTruth {
        id: 19,
        kind: Piece::Striker,
        x: 0.0,
        y: striker_y,
        vx: 0.0,
        vy: striker_v,
        z: 0.0,
        state: PieceState::OnBoard,
        pocket: None,
    });
    let mut hands = Vec::new();
    if t > hit + 2.5 {
        // The next player reaches in from east for the striker.
        hands.push(HandTruth {
            x: 60.0,
            y: striker_y,
            arm_angle: 0.0,
        });
    } else if t < hit * 0.6 {
        hands.push(HandTruth {
            x: 0.0,
            y: striker_y - 30.0,
            arm_angle: -std::f64::consts::FRAC_PI_2,
        });
    }
    FrameTruth {
        frame,
        t,
        pieces,
        hands,
    }
}

/// CPU seconds this process has used (user + system), from /proc: on a busy
/// machine wall time overstates the cost, CPU time much less so.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the parenthesised command name; utime and stime are the
    // 12th and 13th of them, in clock ticks (100 per second on Linux).
    let after = stat.rsplit(')').next().unwrap_or("");
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}

fn main() -> Result<()> {
    let o = options()?;
    if let Some(dir) = &o.png {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        for seed in o.seed..o.seed + o.seeds {
            let mut rng = StdRng::seed_from_u64(seed);
            let camera = Camera::random(&mut rng, o.width, o.height)?;
            let look = Appearance::random(&mut rng);
            let started = Instant::now();
            let mut renderer = Renderer::new(&look, &camera)?;
            let setup = started.elapsed();
            let mut image = Mat::default();
            for (name, frame) in [("rest", 5u32), ("moving", 24), ("hand", 100)] {
                renderer.render(&scene(frame, 30.0), &mut image)?;
                let path = dir.join(format!("seed-{seed}-{name}.png"));
                imgcodecs::imwrite(path.to_str().context("path")?, &image, &Vector::new())?;
            }
            println!(
                "seed {seed}: setup {:.0} ms -> {}",
                setup.as_secs_f64() * 1e3,
                dir.display()
            );
        }
        return Ok(());
    }

    let mut rng = StdRng::seed_from_u64(o.seed);
    let camera = Camera::random(&mut rng, o.width, o.height)?;
    let look = Appearance::random(&mut rng);
    let started = Instant::now();
    let mut renderer = Renderer::new(&look, &camera)?;
    let setup = started.elapsed().as_secs_f64();
    let fps = 30.0;
    let mut image = Mat::default();

    let started = Instant::now();
    let cpu_before = cpu_seconds();
    for frame in 0..o.frames {
        renderer.render(&scene(frame, fps), &mut image)?;
    }
    let render_only = started.elapsed().as_secs_f64();
    let render_cpu = cpu_seconds() - cpu_before;
    let stages = renderer.stage_times();

    let dir = tempfile::tempdir()?;
    let path = dir.path().join("bench.mp4");
    let started = Instant::now();
    let cpu_before = cpu_seconds();
    let mut writer = ClipWriter::create(&path, fps, (o.width, o.height))?;
    for frame in 0..o.frames {
        renderer.render(&scene(frame, fps), &mut image)?;
        writer.write(&image)?;
    }
    let codec = writer.codec();
    writer.finish()?;
    let with_encode = started.elapsed().as_secs_f64();
    let encode_cpu = cpu_seconds() - cpu_before;
    let bytes = std::fs::metadata(&path)?.len();

    let frames = f64::from(o.frames);
    println!(
        "render bench: {}x{}, {} frames, seed {}",
        o.width, o.height, o.frames, o.seed
    );
    println!("  setup (canvas, sprites, remap table): {:.2} s", setup);
    println!(
        "  machine: {} cores, load average {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .trim()
    );
    println!(
        "  render only:     {:6.2} s  {:6.1} fps  (CPU {:.1} s)",
        render_only,
        frames / render_only,
        render_cpu
    );
    let per_frame =
        |d: std::time::Duration| d.as_secs_f64() * 1e3 / f64::from(stages.frames.max(1));
    println!(
        "    per frame: draw {:.1} ms, remap {:.1} ms, light+noise+jpeg {:.1} ms (jpeg pass: {})",
        per_frame(stages.draw),
        per_frame(stages.remap),
        per_frame(stages.finish),
        look.sensor.jpeg_quality.is_some()
    );
    println!(
        "  render + encode: {:6.2} s  {:6.1} fps  (CPU {:.1} s; {:?}, {:.1} MB)",
        with_encode,
        frames / with_encode,
        encode_cpu,
        codec,
        bytes as f64 / 1e6
    );
    Ok(())
}
