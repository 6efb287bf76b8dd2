//! A bumped board: a simulated clip whose frames turn by 2° and shift by a
//! few pixels from a still moment on, played by `carrom live` with a
//! calibration from `carrom calibrate`. The drift check must notice, refit
//! and log it, save the refitted calibration beside the logs (close to the
//! bumped camera), and scoring must go on; the same clip unbumped must raise
//! no drift at all.

mod live_common;

use std::path::Path;

use carrom::calibrate::Calibration;
use nalgebra::Point2;
use opencv::core::{Mat, Point2f, Size, BORDER_REPLICATE};
use opencv::prelude::*;
use opencv::{imgproc, videoio};
use serde_json::Value;

use live_common::{events_of, run_ok, sim_clip, strokes_of};

/// When the board is bumped, seconds into the clip (between its two strokes).
const BUMP_T: f64 = 3.8;
/// The bump: turned by this many degrees about the image centre, then
/// shifted by this many pixels.
const BUMP_DEGREES: f64 = 2.0;
const BUMP_SHIFT_PX: (f64, f64) = (4.0, 2.0);

/// Where the bump moves an image pixel, as `warp_affine` with
/// `get_rotation_matrix_2d` moves it (a positive angle turns the picture
/// anticlockwise on the screen).
fn bumped(point: Point2<f64>, width: f64, height: f64) -> Point2<f64> {
    let (sin, cos) = BUMP_DEGREES.to_radians().sin_cos();
    let (cx, cy) = (width / 2.0, height / 2.0);
    let (x, y) = (point.x - cx, point.y - cy);
    Point2::new(
        cx + cos * x + sin * y + BUMP_SHIFT_PX.0,
        cy - sin * x + cos * y + BUMP_SHIFT_PX.1,
    )
}

/// The largest distance, in pixels, between where `fitted` and the camera
/// `before` moved by the bump see points of the playing surface (a 100 mm
/// grid).
fn worst_px_off_bumped_camera(fitted: &Calibration, before: &Calibration) -> f64 {
    let (width, height) = (before.image_width, before.image_height);
    let mut worst: f64 = 0.0;
    for i in -3..=3 {
        for j in -3..=3 {
            let board = Point2::new(100.0 * f64::from(i), 100.0 * f64::from(j));
            let (Some(seen), Some(fit)) =
                (before.board_to_image(board), fitted.board_to_image(board))
            else {
                continue;
            };
            let want = bumped(seen, f64::from(width), f64::from(height));
            worst = worst.max((fit - want).norm());
        }
    }
    worst
}

/// Writes the clip as MJPEG twice: `plain.avi` as it is and `bumped.avi`
/// turned by `degrees` and shifted by `(dx, dy)` px from `BUMP_T` on, so the
/// two differ only by the bump.
fn write_plain_and_bumped(clip: &Path, degrees: f64, dx: f64, dy: f64) {
    let mut capture = videoio::VideoCapture::from_file(clip.to_str().unwrap(), videoio::CAP_ANY)
        .expect("OpenCV opens the clip");
    let fps = capture.get(videoio::CAP_PROP_FPS).unwrap();
    let width = capture.get(videoio::CAP_PROP_FRAME_WIDTH).unwrap() as i32;
    let height = capture.get(videoio::CAP_PROP_FRAME_HEIGHT).unwrap() as i32;
    let size = Size::new(width, height);
    let fourcc = videoio::VideoWriter::fourcc('M', 'J', 'P', 'G').unwrap();
    let writer = |name: &str| {
        let path = clip.with_file_name(name);
        let writer =
            videoio::VideoWriter::new_def(path.to_str().unwrap(), fourcc, fps, size).unwrap();
        assert!(writer.is_opened().unwrap(), "OpenCV cannot write MJPG here");
        writer
    };
    let (mut plain, mut bumped) = (writer("plain.avi"), writer("bumped.avi"));
    let centre = Point2f::new(width as f32 / 2.0, height as f32 / 2.0);
    let mut turn = imgproc::get_rotation_matrix_2d(centre, degrees, 1.0).unwrap();
    *turn.at_2d_mut::<f64>(0, 2).unwrap() += dx;
    *turn.at_2d_mut::<f64>(1, 2).unwrap() += dy;
    let mut image = Mat::default();
    let mut moved = Mat::default();
    let mut index = 0;
    while capture.read(&mut image).unwrap() && !image.empty() {
        plain.write(&image).unwrap();
        if index as f64 / fps >= BUMP_T {
            imgproc::warp_affine(
                &image,
                &mut moved,
                &turn,
                size,
                imgproc::INTER_LINEAR,
                BORDER_REPLICATE,
                opencv::core::Scalar::default(),
            )
            .unwrap();
            bumped.write(&moved).unwrap();
        } else {
            bumped.write(&image).unwrap();
        }
        index += 1;
    }
    plain.release().unwrap();
    bumped.release().unwrap();
}

/// Who struck each stroke: the part of a stroke a restarted tracker still
/// reads the same (times and details of the stroke across the refit may move).
fn seats(strokes: &[Value]) -> Vec<String> {
    strokes
        .iter()
        .map(|s| s["seat"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn a_bumped_board_is_recalibrated_and_scoring_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let clip = sim_clip(dir.path(), "clip", 3, 10.0);
    write_plain_and_bumped(&clip, BUMP_DEGREES, BUMP_SHIFT_PX.0, BUMP_SHIFT_PX.1);
    let calibration = clip.with_file_name("board.calibration.json");
    run_ok(&[
        "calibrate",
        &clip.to_string_lossy(),
        "--out",
        &calibration.to_string_lossy(),
    ]);

    let live = |name: &str| {
        let out = dir.path().join(format!("out-{name}"));
        run_ok(&[
            "live",
            "--camera",
            &clip.with_file_name(format!("{name}.avi")).to_string_lossy(),
            "--calibration",
            &calibration.to_string_lossy(),
            "--drift-every",
            "0.3",
            "--out",
            &out.to_string_lossy(),
        ]);
        (
            strokes_of(&out.join("strokes.json")),
            events_of(&out.join("events.jsonl")),
            out,
        )
    };
    let (plain_strokes, plain_events, plain_out) = live("plain");
    let (bumped_strokes, bumped_events, bumped_out) = live("bumped");

    assert!(
        plain_events.iter().all(|e| e["kind"] != "recalibrated"),
        "the unbumped board was refitted: {plain_events:?}"
    );
    let refits: Vec<&Value> = bumped_events
        .iter()
        .filter(|e| e["kind"] == "recalibrated")
        .collect();
    assert_eq!(refits.len(), 1, "events: {bumped_events:?}");
    let at = refits[0]["t"].as_f64().unwrap();
    assert!(
        (BUMP_T..BUMP_T + 2.0).contains(&at),
        "refitted at {at:.2} s for a bump at {BUMP_T} s"
    );

    // The refit is saved beside the logs, named in its event, and sees the
    // board where the bumped camera does; the calibration it replaced does not.
    let file = refits[0]["file"]
        .as_str()
        .unwrap_or_else(|| panic!("the recalibration names no file: {:?}", refits[0]));
    assert!(
        refits[0]["message"]
            .as_str()
            .is_some_and(|message| message.contains(file)),
        "{:?}",
        refits[0]
    );
    let refitted = Calibration::load(&bumped_out.join(file)).expect("the saved refit loads");
    let original = Calibration::load(&calibration).unwrap();
    // The bumped camera: the calibration fitted before the bump, moved by
    // it (the calibration names the board's sides its own way, so it is
    // compared with itself, not with the simulator's camera).
    let (refit_off, original_off) = (
        worst_px_off_bumped_camera(&refitted, &original),
        worst_px_off_bumped_camera(&original, &original),
    );
    eprintln!("refit {refit_off:.2} px off the bumped camera, the calibration before it {original_off:.2} px");
    assert!(
        refit_off < 0.5 && original_off > 4.0,
        "the refit is up to {refit_off:.2} px off the bumped camera, the original calibration {original_off:.2} px"
    );
    let saved_without_a_bump: Vec<_> = std::fs::read_dir(&plain_out)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("calibration-"))
        .collect();
    assert!(saved_without_a_bump.is_empty(), "{saved_without_a_bump:?}");
    assert!(!plain_strokes.is_empty());
    assert_eq!(
        seats(&bumped_strokes),
        seats(&plain_strokes),
        "bumped {bumped_strokes:?}, plain {plain_strokes:?}"
    );
    assert!(
        bumped_strokes
            .iter()
            .any(|s| s["t"].as_f64().is_some_and(|t| t > at)),
        "no stroke scored after the refit: {bumped_strokes:?}"
    );
}
