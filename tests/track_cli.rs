//! `carrom track` and `carrom score` driven as a user would: on a synthetic
//! clip drawn from the ICF template, and on broken input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use carrom::geometry::spec::{
    BASE_BAND_FAR_EDGE_FROM_CENTRE_MM, BASE_BAND_NEAR_EDGE_FROM_CENTRE_MM,
};
use carrom::geometry::{pocket_centre, Piece, PlacedPiece, Pocket};
use carrom::sim::camera::{Camera, CameraPose, Intrinsics, Shake};
use carrom::template::{draw_board, draw_pieces, TemplateOptions};
use nalgebra::Point2;
use opencv::core::{Mat, Scalar, Size, Vec2f, CV_32FC2};
use opencv::prelude::*;
use opencv::{core, imgproc, videoio};

const FPS: f64 = 30.0;
const WIDTH: u32 = 640;
const HEIGHT: u32 = 480;

fn carrom(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_carrom"))
        .args(args)
        .output()
        .unwrap()
}

/// Runs `carrom` and fails the test, with its stderr, unless it succeeds.
fn carrom_ok(args: &[&str]) -> Output {
    let run = carrom(args);
    assert!(
        run.status.success(),
        "carrom {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&run.stderr)
    );
    run
}

/// A camera straight above the board, the whole board in view.
fn overhead_camera(width: u32) -> Camera {
    let (w, h) = (f64::from(width), f64::from(width) * 0.75);
    let intrinsics = Intrinsics {
        width,
        height: h as u32,
        fx: 0.95 * w,
        fy: 0.95 * w,
        cx: w / 2.0,
        cy: h / 2.0,
        k1: 0.0,
        k2: 0.0,
    };
    let pose = CameraPose {
        position_mm: [0.0, 0.0, 1800.0 * 640.0 / w * (w / 640.0)],
        aim_mm: [0.0, 0.0],
        tilt_deg: 0.0,
        tilt_azimuth_deg: 0.0,
        roll_deg: 0.0,
    };
    Camera::new(intrinsics, pose, Shake::NONE).unwrap()
}

/// Where a striker rests on south's base lines, touching both.
fn south_placement() -> Point2<f64> {
    Point2::new(
        0.0,
        -(BASE_BAND_NEAR_EDGE_FROM_CENTRE_MM + BASE_BAND_FAR_EDGE_FROM_CENTRE_MM) / 2.0,
    )
}

/// The scene at frame `i`: two pieces at rest, a white rolling into the SW
/// pocket and the striker, placed on south's base lines, struck at frame 15
/// into the NE pocket.
fn scene(i: u32) -> Vec<PlacedPiece> {
    let at = |piece, x, y| PlacedPiece {
        piece,
        centre: Point2::new(x, y),
    };
    let mut pieces = vec![
        at(Piece::Black, 150.0, -60.0),
        at(Piece::Queen, -120.0, 140.0),
    ];
    let glide =
        |from: Point2<f64>, to: Point2<f64>, start: u32, frames: u32| -> Option<Point2<f64>> {
            if i < start {
                Some(from)
            } else if i < start + frames {
                Some(from + (to - from) * (f64::from(i - start) / f64::from(frames)))
            } else {
                None
            }
        };
    if let Some(p) = glide(south_placement(), pocket_centre(Pocket::Ne), 15, 9) {
        pieces.push(PlacedPiece {
            piece: Piece::Striker,
            centre: p,
        });
    }
    if let Some(p) = glide(
        Point2::new(-200.0, -150.0),
        pocket_centre(Pocket::Sw),
        18,
        6,
    ) {
        pieces.push(PlacedPiece {
            piece: Piece::White,
            centre: p,
        });
    }
    pieces
}

/// Writes the synthetic clip and its camera.json into `dir`.
fn write_clip(dir: &Path, frames: u32) -> PathBuf {
    let camera = overhead_camera(WIDTH);
    std::fs::write(
        dir.join("camera.json"),
        serde_json::to_string(&camera).unwrap(),
    )
    .unwrap();
    let template = draw_board(&TemplateOptions {
        px_per_mm: 1.0,
        arrangement_for: None,
    })
    .unwrap();
    let mut map =
        Mat::new_rows_cols_with_default(HEIGHT as i32, WIDTH as i32, CV_32FC2, Scalar::all(-1.0))
            .unwrap();
    for row in 0..HEIGHT as i32 {
        for column in 0..WIDTH as i32 {
            let board = camera
                .image_to_board(Point2::new(f64::from(column), f64::from(row)))
                .unwrap();
            let px = template.frame.board_to_px(board);
            *map.at_2d_mut::<Vec2f>(row, column).unwrap() = Vec2f::from([px.x as f32, px.y as f32]);
        }
    }
    let path = dir.join("clip.avi");
    let fourcc = videoio::VideoWriter::fourcc('M', 'J', 'P', 'G').unwrap();
    let mut writer = videoio::VideoWriter::new(
        path.to_str().unwrap(),
        fourcc,
        FPS,
        Size::new(WIDTH as i32, HEIGHT as i32),
        true,
    )
    .unwrap();
    for i in 0..frames {
        let mut top = template.image.clone();
        draw_pieces(&mut top, &template.frame, &scene(i)).unwrap();
        let mut image = Mat::default();
        imgproc::remap(
            &top,
            &mut image,
            &map,
            &core::no_array(),
            imgproc::INTER_LINEAR,
            core::BORDER_CONSTANT,
            Scalar::all(0.0),
        )
        .unwrap();
        writer.write(&image).unwrap();
    }
    writer.release().unwrap();
    path
}

fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Writes the 60-frame clip of `write_clip` into `dir`, runs `carrom track`
/// on it with `extra` arguments and returns the stroke log's path.
fn track_the_clip(dir: &Path, extra: &[&str]) -> PathBuf {
    let clip = write_clip(dir, 60);
    let out = dir.join("got.strokes.json");
    let mut args = vec!["track", clip.to_str().unwrap(), "-o", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    carrom_ok(&args);
    out
}

#[test]
fn track_recognises_the_stroke_and_its_pocketings() {
    let dir = tempfile::tempdir().unwrap();
    let overlay = dir.path().join("review.avi");
    let out = track_the_clip(dir.path(), &["--overlay", overlay.to_str().unwrap()]);
    let log = read_json(&out);
    let strokes = log["strokes"].as_array().unwrap();
    assert_eq!(strokes.len(), 1, "{log:#}");
    let stroke = &strokes[0];
    assert_eq!(stroke["seat"], "south");
    assert_eq!(stroke["touched"], true, "the white moved during the stroke");
    let t = stroke["t"].as_f64().unwrap();
    assert!((t - 14.0 / FPS).abs() <= 1.0 / FPS + 1e-9, "strike at {t}");
    let pocketed: Vec<(String, String)> = stroke["pocketed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["piece"].as_str().unwrap().to_string(),
                p["pocket"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(
        pocketed.contains(&("striker".into(), "ne".into())),
        "{pocketed:?}"
    );
    assert!(
        pocketed.contains(&("white".into(), "sw".into())),
        "{pocketed:?}"
    );
    assert!(std::fs::metadata(&overlay).unwrap().len() > 0);
}

#[test]
fn tracks_lists_every_frame_with_the_pieces_and_their_events() {
    let dir = tempfile::tempdir().unwrap();
    let tracks = dir.path().join("got.tracks.jsonl");
    track_the_clip(dir.path(), &["--tracks", tracks.to_str().unwrap()]);
    let rows: Vec<serde_json::Value> = std::fs::read_to_string(&tracks)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(rows.len(), 60);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row["frame"], i as u64, "{row}");
        assert!(
            row["pieces"].is_array() && row["tentative"].is_array(),
            "{row}"
        );
    }
    // The stroke is under way in some frames and over by the last.
    assert!(rows.iter().any(|row| row["in_motion"] == true));
    assert_eq!(rows[59]["strokes"], 1, "{}", rows[59]);
    // The white is seen going: it vanished by the SW pocket.
    let sw = pocket_centre(Pocket::Sw);
    let white_went_in = rows
        .iter()
        .flat_map(|row| row["events"].as_array().unwrap().iter())
        .any(|e| {
            let (x, y) = (e["x"].as_f64().unwrap(), e["y"].as_f64().unwrap());
            e["event"] == "vanished" && e["kind"] == "white" && (x - sw.x).hypot(y - sw.y) < 60.0
        });
    assert!(white_went_in);
}

/// The stroke of `write_clip`, in a stroke log read from `path`: one stroke
/// from south that put the white in the SW pocket.
fn assert_the_clips_stroke(path: &Path) {
    let log = read_json(path);
    let strokes = log["strokes"].as_array().unwrap();
    assert_eq!(strokes.len(), 1, "{log:#}");
    assert_eq!(strokes[0]["seat"], "south", "{log:#}");
    let white_in_sw = strokes[0]["pocketed"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["piece"] == "white" && p["pocket"] == "sw");
    assert!(white_in_sw, "{log:#}");
}

#[test]
fn a_calibration_from_carrom_calibrate_or_auto_tracks_like_the_camera_file() {
    let dir = tempfile::tempdir().unwrap();
    let clip = write_clip(dir.path(), 60);
    let calibration = dir.path().join("board.calibration.json");
    carrom_ok(&[
        "calibrate",
        clip.to_str().unwrap(),
        "--out",
        calibration.to_str().unwrap(),
    ]);
    for (given, out) in [
        (calibration.to_str().unwrap(), "from-file.strokes.json"),
        ("auto", "auto.strokes.json"),
    ] {
        let out = dir.path().join(out);
        carrom_ok(&[
            "track",
            clip.to_str().unwrap(),
            "--calibration",
            given,
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_the_clips_stroke(&out);
    }
}

/// Known regression (README, Known limits): since the empty board is predicted
/// from the ICF drawing, a striker resting on the base-line ink is not found
/// before it moves, so its placement is never judged. Run with `--ignored`.
#[test]
#[ignore = "known regression: a striker at rest on the base-line ink is not detected"]
fn the_placement_of_the_striker_is_judged_before_the_strike() {
    let dir = tempfile::tempdir().unwrap();
    let clip = write_clip(dir.path(), 60);
    let out = dir.path().join("got.strokes.json");
    carrom_ok(&["track", clip.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    let log = read_json(&out);
    let stroke = &log["strokes"][0];
    assert_eq!(stroke["extra"]["vision"]["placement"]["placement"], "legal");
}

#[test]
fn score_prints_the_board_and_writes_the_board_log() {
    let dir = tempfile::tempdir().unwrap();
    let clip = write_clip(dir.path(), 60);
    let boards = dir.path().join("got.boardlog.json");
    let run = carrom_ok(&[
        "score",
        clip.to_str().unwrap(),
        "-o",
        boards.to_str().unwrap(),
    ]);
    let log = read_json(&boards);
    assert_eq!(log["format"], "carrom-boardlog");
    assert_eq!(
        log["boards"][0]["strokes"].as_array().map(Vec::len),
        Some(1)
    );
    assert!(!run.stdout.is_empty());
}

#[test]
fn a_file_that_is_not_a_video_fails_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let clip = dir.path().join("match.mp4");
    std::fs::write(&clip, b"not a video").unwrap();
    std::fs::write(
        dir.path().join("camera.json"),
        serde_json::to_string(&overhead_camera(WIDTH)).unwrap(),
    )
    .unwrap();
    let run = carrom(&["track", clip.to_str().unwrap()]);
    assert!(!run.status.success());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("match.mp4"), "{stderr}");
}

#[test]
fn a_missing_video_is_named_before_its_calibration() {
    let dir = tempfile::tempdir().unwrap();
    let clip = dir.path().join("no-such-match.mp4");
    for command in ["track", "score"] {
        let run = carrom(&[command, clip.to_str().unwrap()]);
        assert!(!run.status.success());
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(
            stderr.contains("no-such-match.mp4 does not exist"),
            "{command}: {stderr}"
        );
    }
}

#[test]
fn a_truncated_video_fails_naming_the_frame_and_keeps_the_strokes() {
    let dir = tempfile::tempdir().unwrap();
    let clip = write_clip(dir.path(), 90);
    let bytes = std::fs::read(&clip).unwrap();
    // Keep the header (with its frame count) and about two thirds of the frames.
    std::fs::write(&clip, &bytes[..bytes.len() * 2 / 3]).unwrap();
    let out = dir.path().join("got.strokes.json");
    let run = carrom(&["track", clip.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(!run.status.success());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("clip.avi") && stderr.contains("frame"),
        "{stderr}"
    );
    let log = read_json(&out);
    assert_eq!(log["strokes"].as_array().map(Vec::len), Some(1), "{log:#}");
}

#[test]
fn a_calibration_for_another_camera_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let clip = write_clip(dir.path(), 5);
    let other = dir.path().join("other.json");
    std::fs::write(
        &other,
        serde_json::to_string(&overhead_camera(1280)).unwrap(),
    )
    .unwrap();
    let run = carrom(&[
        "track",
        clip.to_str().unwrap(),
        "--calibration",
        other.to_str().unwrap(),
    ]);
    assert!(!run.status.success());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("frame 0") && stderr.contains("another camera"),
        "{stderr}"
    );
}
