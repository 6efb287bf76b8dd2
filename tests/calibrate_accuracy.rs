//! Accuracy of the calibration on frames of known cameras: each marking point
//! is carried through the truth camera into the image and back through the
//! fitted calibration, and the distance from where it started is the error.
//!
//! The quick test runs on every `cargo test`; the benchmark
//! (`scripts/bench-calibrate.sh`) runs a range of seeds at 720p and 1080p.

use std::time::Instant;

use carrom::calibrate::synthetic::{marking_points, render, SceneOptions, TruthCamera};
use carrom::calibrate::{calibrate_frame, CalibrateOptions, Calibration, Rectifier};
use carrom::geometry::{break_arrangement, Seat};
use carrom::sim::camera::Camera;
use carrom::sim::render::{Appearance, Renderer};
use carrom::sim::scene::{FrameTruth, PieceState, PieceTruth};
use opencv::core::Mat;
use rand::rngs::StdRng;
use rand::SeedableRng;

/// Which picture of the board the camera takes.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Look {
    /// The calibration's own painting of the ICF model: exact markings only.
    Plain,
    /// The simulator's renderer: random plywood, frame wall in perspective,
    /// centre designs, brand text, lamps, noise, and the break arrangement.
    Realistic,
}

/// A frame of the board for a seed, with the camera's truth.
fn frame_for(seed: u64, width: u32, height: u32, look: Look) -> Result<(TruthCamera, Mat), String> {
    match look {
        Look::Plain => {
            let truth = TruthCamera::generated(seed, width, height).map_err(|e| e.to_string())?;
            let scene = SceneOptions {
                seed,
                ..SceneOptions::default()
            };
            let frame = render(&truth, &scene).map_err(|e| e.to_string())?;
            Ok((truth, frame))
        }
        Look::Realistic => {
            // Seeded as the renderer's own benchmark seeds them: camera, then look.
            let mut rng = StdRng::seed_from_u64(seed);
            let camera = Camera::random(&mut rng, width, height).map_err(|e| e.to_string())?;
            let look = Appearance::random(&mut rng);
            let mut renderer = Renderer::new(&look, &camera).map_err(|e| e.to_string())?;
            let pieces = break_arrangement(Seat::South)
                .iter()
                .enumerate()
                .map(|(id, placed)| PieceTruth {
                    id: id as u8,
                    kind: placed.piece,
                    x: placed.centre.x,
                    y: placed.centre.y,
                    vx: 0.0,
                    vy: 0.0,
                    z: 0.0,
                    state: PieceState::OnBoard,
                    pocket: None,
                })
                .collect();
            let truth = FrameTruth {
                frame: 0,
                t: 0.0,
                pieces,
                hands: Vec::new(),
            };
            let frame = renderer.render_new(&truth).map_err(|e| e.to_string())?;
            Ok((TruthCamera::from_sim(&camera), frame))
        }
    }
}

/// Errors (mm) of every marking point the truth camera sees.
fn errors(truth: &TruthCamera, calibration: &Calibration) -> Vec<f64> {
    marking_points()
        .into_iter()
        .filter_map(|board| {
            let image = truth.board_to_image(board)?;
            let back = calibration.image_to_board(image).ok()?;
            Some((back - board).norm())
        })
        .collect()
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Prefix of the error for a seed whose frame the simulator could not make
/// (its random camera is refused): not a calibration failure.
const NO_FRAME: &str = "no frame";

struct Outcome {
    median_mm: f64,
    max_mm: f64,
    seconds: f64,
}

fn calibrate_seed(seed: u64, width: u32, height: u32, look: Look) -> Result<Outcome, String> {
    let (truth, frame) =
        frame_for(seed, width, height, look).map_err(|e| format!("{NO_FRAME}: {e}"))?;
    let options = CalibrateOptions {
        south: truth.south_side(),
        corners: None,
        source: format!("synthetic seed {seed}"),
    };
    let start = Instant::now();
    let calibration = calibrate_frame(&frame, &options).map_err(|e| e.to_string())?;
    let seconds = start.elapsed().as_secs_f64();
    let mut e = errors(&truth, &calibration);
    if e.is_empty() {
        return Err("no marking point in view".into());
    }
    let max_mm = e.iter().cloned().fold(0.0, f64::max);
    Ok(Outcome {
        median_mm: median(&mut e),
        max_mm,
        seconds,
    })
}

#[test]
fn random_cameras_are_recovered_within_a_millimetre() {
    // Tuning seeds (1000–1019), small frames to keep the test fast.
    for seed in [1000, 1007, 1013] {
        let outcome = calibrate_seed(seed, 800, 600, Look::Plain)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(
            outcome.median_mm <= 0.5 && outcome.max_mm <= 1.5,
            "seed {seed}: median {:.3} mm, max {:.3} mm",
            outcome.median_mm,
            outcome.max_mm
        );
    }
}

/// A tilted camera sees the frame's wall hide a strip of the surface, and
/// shadows darken its rim: the surface edge shows inside its ICF place. The
/// fit uses the edge's shape, not its place, so the lens is not bent towards
/// barrel by it and the markings' points stay within the 1.5 mm target.
#[test]
fn a_surface_edge_shown_inside_its_place_does_not_bend_the_lens() {
    use carrom::geometry::spec::HALF_SURFACE_MM;
    use nalgebra::Point2;
    use opencv::core::{Point, Scalar, Vector};
    use opencv::imgproc;
    const HIDDEN_MM: f64 = 2.5;
    for seed in [1002, 1011] {
        let truth = TruthCamera::generated(seed, 800, 600).expect("camera");
        let mut frame = render(
            &truth,
            &SceneOptions {
                seed,
                ..SceneOptions::default()
            },
        )
        .expect("frame");
        // The frame's dark wood over a strip along two adjacent sides, drawn
        // through the truth camera (the strip bends with the lens).
        let h = HALF_SURFACE_MM;
        for (along, inward) in [((1.0, 0.0), (0.0, 1.0)), ((0.0, 1.0), (1.0, 0.0))] {
            let edge = |t: f64, depth: f64| {
                let (ax, ay): (f64, f64) = along;
                let (ix, iy): (f64, f64) = inward;
                Point2::new(
                    -h * (ix + ax) + t * ax + depth * ix,
                    -h * (iy + ay) + t * ay + depth * iy,
                )
            };
            let mut outline: Vec<Point2<f64>> =
                (0..=74).map(|i| edge(i as f64 * 20.0, 0.0)).collect();
            outline.extend((0..=74).rev().map(|i| edge(i as f64 * 20.0, HIDDEN_MM)));
            let polygon: Vector<Point> = outline
                .iter()
                .map(|b| {
                    let p = truth.board_to_image(*b).expect("in front of the camera");
                    Point::new(p.x.round() as i32, p.y.round() as i32)
                })
                .collect();
            let polygons: Vector<Vector<Point>> = std::iter::once(polygon).collect();
            imgproc::fill_poly_def(&mut frame, &polygons, Scalar::new(28.0, 46.0, 84.0, 0.0))
                .expect("draw the strip");
        }
        let options = CalibrateOptions {
            south: truth.south_side(),
            corners: None,
            source: format!("synthetic seed {seed}, edge hidden"),
        };
        let calibration =
            calibrate_frame(&frame, &options).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let e = errors(&truth, &calibration);
        let max = e.iter().cloned().fold(0.0, f64::max);
        // 2.5 mm hidden on two sides moved the worst point 5.3–5.7 mm when
        // the edge had to lie on its ICF place; the target is 1.5 mm.
        assert!(max <= 1.5, "seed {seed}: max {max:.3} mm");
    }
}

/// The benchmark: `cargo test --release --test calibrate_accuracy -- --ignored --nocapture`.
/// Seeds from `CALIBRATE_BENCH_SEEDS` (`first..last`, default 4000..4050,
/// the last held-out range reported).
#[test]
#[ignore = "benchmark: run through scripts/bench-calibrate.sh"]
fn benchmark() {
    let seeds = std::env::var("CALIBRATE_BENCH_SEEDS").unwrap_or_else(|_| "4000..4050".into());
    let (first, last) = seeds
        .split_once("..")
        .and_then(|(a, b)| Some((a.parse::<u64>().ok()?, b.parse::<u64>().ok()?)))
        .expect("CALIBRATE_BENCH_SEEDS is first..last");
    let mut failures = Vec::new();
    // `CALIBRATE_BENCH_LOOK=realistic|plain` runs one kind of frame only.
    let looks: Vec<Look> = match std::env::var("CALIBRATE_BENCH_LOOK").as_deref() {
        Ok("realistic") => vec![Look::Realistic],
        Ok("plain") => vec![Look::Plain],
        _ => vec![Look::Plain, Look::Realistic],
    };
    for look in looks {
        let (mut medians, mut maxima, mut times) = (vec![], vec![], vec![]);
        let mut skipped = 0;
        for seed in first..last {
            match calibrate_seed(seed, 1280, 720, look) {
                Ok(o) => {
                    println!(
                        "{look:?} seed {seed}: median {:.3} mm, max {:.3} mm, {:.2} s",
                        o.median_mm, o.max_mm, o.seconds
                    );
                    medians.push(o.median_mm);
                    maxima.push(o.max_mm);
                    times.push(o.seconds);
                }
                Err(e) if e.starts_with(NO_FRAME) => {
                    println!("{look:?} seed {seed}: SKIPPED {e}");
                    skipped += 1;
                }
                Err(e) => {
                    println!("{look:?} seed {seed}: FAILED {e}");
                    failures.push((look, seed));
                }
            }
        }
        let total = last - first - skipped;
        let worst_max = maxima.iter().cloned().fold(0.0, f64::max);
        let worst_median = medians.iter().cloned().fold(0.0, f64::max);
        println!(
            "{look:?} 720p, seeds {first}..{last} ({skipped} without a frame): success {}/{total} ({:.0}%), median of medians \
             {:.3} mm, worst median {:.3} mm, worst max {:.3} mm, median time {:.2} s",
            medians.len(),
            100.0 * medians.len() as f64 / total as f64,
            if medians.is_empty() {
                f64::NAN
            } else {
                median(&mut medians.clone())
            },
            worst_median,
            worst_max,
            if times.is_empty() {
                f64::NAN
            } else {
                median(&mut times.clone())
            },
        );
    }

    // Speed at 1080p: calibrate one frame.
    let (truth, frame) = frame_for(first, 1920, 1080, Look::Realistic).expect("1080p frame");
    let options = CalibrateOptions {
        south: truth.south_side(),
        ..CalibrateOptions::default()
    };
    let start = Instant::now();
    let calibration = calibrate_frame(&frame, &options).expect("1080p calibration");
    println!("1080p calibrate: {:.3} s", start.elapsed().as_secs_f64());

    // Speed of rectification at 720p, 1 px/mm top view.
    let (truth, frame) = frame_for(first, 1280, 720, Look::Realistic).expect("720p frame");
    let options = CalibrateOptions {
        south: truth.south_side(),
        ..CalibrateOptions::default()
    };
    let calibration_720 = calibrate_frame(&frame, &options).expect("720p calibration");
    let rectifier = Rectifier::new(&calibration_720, 1.0).expect("rectifier");
    let mut top = opencv::core::Mat::default();
    rectifier.rectify_into(&frame, &mut top).expect("warm-up");
    // Each frame timed alone: the median is robust to other work on the machine.
    let mut frame_ms: Vec<f64> = (0..200)
        .map(|_| {
            let start = Instant::now();
            rectifier.rectify_into(&frame, &mut top).expect("rectify");
            1000.0 * start.elapsed().as_secs_f64()
        })
        .collect();
    let fastest = frame_ms.iter().cloned().fold(f64::INFINITY, f64::min);
    println!(
        "720p rectify to {}x{} px: median {:.3} ms, fastest {:.3} ms per frame",
        rectifier.side_px(),
        rectifier.side_px(),
        median(&mut frame_ms),
        fastest
    );
    drop(calibration);
    assert!(failures.is_empty(), "failed seeds: {failures:?}");
}

/// Writes the benchmark frames as PNG for inspection with `carrom calibrate`:
/// `CALIBRATE_DUMP_DIR=/tmp/frames cargo test --release --test calibrate_accuracy dump -- --ignored`.
#[test]
#[ignore = "tool: writes frames for inspection"]
fn dump_frames() {
    let dir = std::env::var("CALIBRATE_DUMP_DIR").expect("CALIBRATE_DUMP_DIR");
    let seeds = std::env::var("CALIBRATE_BENCH_SEEDS").unwrap_or_else(|_| "1000..1020".into());
    let (first, last) = seeds
        .split_once("..")
        .and_then(|(a, b)| Some((a.parse::<u64>().ok()?, b.parse::<u64>().ok()?)))
        .expect("CALIBRATE_BENCH_SEEDS is first..last");
    for seed in first..last {
        for look in [Look::Plain, Look::Realistic] {
            let (truth, frame) = frame_for(seed, 1280, 720, look).expect("frame");
            let path = format!(
                "{dir}/{look:?}-seed-{seed}-south-{}.png",
                truth.south_side()
            )
            .to_lowercase();
            opencv::imgcodecs::imwrite_def(&path, &frame).expect("write");
        }
    }
}

/// Where the worst marking points of each seed lie and how the fitted lens
/// differs from the truth:
/// `CALIBRATE_BENCH_SEEDS=1000..1020 cargo test --release --test calibrate_accuracy diagnose -- --ignored --nocapture`.
#[test]
#[ignore = "tool: prints the worst points of each seed"]
fn diagnose() {
    use carrom::calibrate::model::marking_samples;
    let seeds = std::env::var("CALIBRATE_BENCH_SEEDS").unwrap_or_else(|_| "1000..1020".into());
    let (first, last) = seeds
        .split_once("..")
        .and_then(|(a, b)| Some((a.parse::<u64>().ok()?, b.parse::<u64>().ok()?)))
        .expect("CALIBRATE_BENCH_SEEDS is first..last");
    let look = match std::env::var("CALIBRATE_BENCH_LOOK").as_deref() {
        Ok("plain") => Look::Plain,
        _ => Look::Realistic,
    };
    for seed in first..last {
        let Ok((truth, frame)) = frame_for(seed, 1280, 720, look) else {
            continue;
        };
        let options = CalibrateOptions {
            south: truth.south_side(),
            corners: None,
            source: String::new(),
        };
        let calibration = match calibrate_frame(&frame, &options) {
            Ok(c) => c,
            Err(e) => {
                println!("seed {seed}: FAILED {e}");
                continue;
            }
        };
        let mut rows: Vec<(f64, String)> = marking_samples(10.0)
            .into_iter()
            .filter_map(|s| {
                let image = truth.board_to_image(s.board)?;
                let back = calibration.image_to_board(image).ok()?;
                let e = back - s.board;
                let (t, c) = (truth.lens, calibration.lens);
                let r = ((image.x - t.cx) / t.fx).hypot((image.y - t.cy) / t.fy);
                let edge = (image.x.min(1279.0 - image.x)).min(image.y.min(719.0 - image.y));
                let _ = c;
                Some((
                    e.norm(),
                    format!(
                        "{:?} board ({:.0},{:.0}) img ({:.0},{:.0}) r {:.2} border {:.0}px err ({:+.2},{:+.2})",
                        s.group, s.board.x, s.board.y, image.x, image.y, r, edge, e.x, e.y
                    ),
                ))
            })
            .collect();
        rows.sort_by(|a, b| b.0.total_cmp(&a.0));
        let (t, c) = (truth.lens, calibration.lens);
        // Pixel-space distortion: k1/f², k2/f⁴ × 640² and 640⁴ for scale.
        let s = 640.0f64;
        println!(
            "seed {seed}: max {:.3} mm | truth k1 {:+.4} k2 {:+.4} c ({:.1},{:.1}) f {:.0}/{:.0} | fit k1 {:+.4} k2 {:+.4} c ({:.1},{:.1}) f {:.0} | resid med {:.3} max {:.3} mm",
            rows[0].0,
            t.k1 * (s / t.fx).powi(2),
            t.k2 * (s / t.fx).powi(4),
            t.cx,
            t.cy,
            t.fx,
            t.fy,
            c.k1 * (s / c.fx).powi(2),
            c.k2 * (s / c.fx).powi(4),
            c.cx,
            c.cy,
            c.fx,
            calibration.residuals.median_mm,
            calibration.residuals.max_mm,
        );
        for (e, text) in rows.iter().take(4) {
            println!("    {e:.3} mm {text}");
        }
        // The worst point of each marking group.
        let mut per_group = std::collections::BTreeMap::<String, f64>::new();
        for (e, text) in &rows {
            let group = text.split(' ').next().unwrap_or("").to_string();
            let worst = per_group.entry(group).or_insert(0.0);
            *worst = worst.max(*e);
        }
        println!("    per group: {per_group:.2?}");
    }
}

/// How far from the truth the edge search finds each marking group: the
/// search is run at the truth camera, and the signed offsets (mm, positive
/// along the sample's normal, i.e. outward for the surface edge) are
/// summarised per group and per board side:
/// `CALIBRATE_BENCH_SEEDS=1000..1020 cargo test --release --test calibrate_accuracy edge_bias -- --ignored --nocapture`.
#[test]
#[ignore = "tool: edge-search bias at the truth camera"]
fn edge_bias() {
    use carrom::calibrate::fine::{residuals, search_edges, FitState};
    use carrom::calibrate::gray::GrayImage;
    use carrom::calibrate::model::{marking_samples, MarkingGroup};
    use std::collections::BTreeMap;
    let seeds = std::env::var("CALIBRATE_BENCH_SEEDS").unwrap_or_else(|_| "1000..1020".into());
    let (first, last) = seeds
        .split_once("..")
        .and_then(|(a, b)| Some((a.parse::<u64>().ok()?, b.parse::<u64>().ok()?)))
        .expect("CALIBRATE_BENCH_SEEDS is first..last");
    let look = match std::env::var("CALIBRATE_BENCH_LOOK").as_deref() {
        Ok("plain") => Look::Plain,
        _ => Look::Realistic,
    };
    let samples = marking_samples(3.0);
    for seed in first..last {
        let Ok((truth, frame)) = frame_for(seed, 1280, 720, look) else {
            continue;
        };
        let image = GrayImage::from_frame(&frame, 0.7).expect("grey");
        let mut lens = truth.lens;
        lens.fy = lens.fx;
        let state = FitState::new(&truth.homography, &lens, (1280, 720)).expect("state");
        let (_, found) = search_edges(&image, &state, &samples, 3.0, 2.5);
        let r = residuals(&state, &samples, &found);
        let mut groups: BTreeMap<String, Vec<f64>> = BTreeMap::new();
        for (f, r) in found.iter().zip(&r) {
            let s = samples[f.sample];
            let mm = -r / f.px_per_mm;
            let key = if s.group == MarkingGroup::SurfaceEdge {
                // Which side of the board, and is it the side towards the camera?
                format!("edge n=({:+.0},{:+.0})", s.normal.x, s.normal.y)
            } else {
                format!("{:?}", s.group)
            };
            groups.entry(key).or_default().push(mm);
        }
        let mut line = format!("seed {seed}:");
        for (k, mut v) in groups {
            v.sort_by(f64::total_cmp);
            line += &format!(" {k} {:+.2}({})", v[v.len() / 2], v.len());
        }
        println!("{line}");
    }
}
