//! `carrom calibrate` driven as a user would: synthetic frames of known
//! cameras written to a temporary directory, the real binary run on them.

use std::path::Path;
use std::process::{Command, Output};

use carrom::calibrate::synthetic::{marking_points, render, SceneOptions, TruthCamera};
use carrom::calibrate::{Calibration, SouthSide};
use nalgebra::Point2;

fn carrom(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_carrom"))
        .args(args)
        .output()
        .expect("the carrom binary runs")
}

fn write_frame(dir: &Path, seed: u64) -> (TruthCamera, String) {
    let truth = TruthCamera::generated(seed, 640, 480).unwrap();
    let frame = render(
        &truth,
        &SceneOptions {
            seed,
            ..SceneOptions::default()
        },
    )
    .expect("render");
    let path = dir.join(format!("frame-{seed}.png"));
    opencv::imgcodecs::imwrite_def(path.to_str().expect("utf-8 path"), &frame).expect("write");
    (truth, path.to_string_lossy().into_owned())
}

fn worst_error_mm(truth: &TruthCamera, calibration: &Calibration) -> f64 {
    marking_points()
        .into_iter()
        .filter_map(|board| {
            let image = truth.board_to_image(board)?;
            let back = calibration.image_to_board(image).ok()?;
            Some((back - board).norm())
        })
        .fold(0.0, f64::max)
}

#[test]
fn calibrates_a_frame_and_writes_json_and_overlay() {
    let dir = tempfile::tempdir().unwrap();
    let (truth, frame) = write_frame(dir.path(), 1004);
    let out = dir.path().join("cal").join("board.json");
    let overlay = dir.path().join("overlay.png");
    let south = truth.south_side().to_string();
    let result = carrom(&[
        "calibrate",
        &frame,
        "--out",
        out.to_str().unwrap(),
        "--overlay",
        overlay.to_str().unwrap(),
        "--south",
        &south,
    ]);
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(result.status.success(), "{stderr}");
    assert!(stderr.contains("residual median"), "{stderr}");
    let calibration = Calibration::load(&out).expect("the written calibration loads");
    assert_eq!(calibration.south, truth.south_side());
    assert_eq!(
        (calibration.image_width, calibration.image_height),
        (640, 480)
    );
    assert!(calibration.residuals.median_mm < 0.5);
    let worst = worst_error_mm(&truth, &calibration);
    assert!(worst < 1.5, "worst marking error {worst:.3} mm");
    let png = std::fs::read(&overlay).expect("overlay written");
    assert_eq!(&png[1..4], b"PNG");
}

#[test]
fn south_names_the_side_and_turns_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let (_, frame) = write_frame(dir.path(), 1013);
    let load = |side: SouthSide| {
        let out = dir.path().join(format!("{side}.json"));
        let result = carrom(&[
            "calibrate",
            &frame,
            "--south",
            side.name(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(
            result.status.success(),
            "{}",
            String::from_utf8_lossy(&result.stderr)
        );
        Calibration::load(&out).unwrap()
    };
    let bottom = load(SouthSide::Bottom);
    let top = load(SouthSide::Top);
    let right = load(SouthSide::Right);
    // The board is the same; only the labels turn: half a turn between bottom
    // and top, and the south edge's middle lands nearest the named side.
    let p = Point2::new(150.0, -220.0);
    let image = bottom.board_to_image(p).unwrap();
    let in_top = top.image_to_board(image).unwrap();
    assert!(
        (in_top - Point2::new(-p.x, -p.y)).norm() < 1.0,
        "{in_top:?}"
    );
    let south_edge = Point2::new(0.0, -368.0);
    let centre = right.board_to_image(Point2::origin()).unwrap();
    let towards_south = right.board_to_image(south_edge).unwrap() - centre;
    assert!(towards_south.x > towards_south.y.abs(), "{towards_south:?}");
    assert_eq!(right.south, SouthSide::Right);

    let bad = carrom(&["calibrate", &frame, "--south", "up"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("bottom, top, left or right"));
}

#[test]
fn manual_corners_skip_the_search() {
    let dir = tempfile::tempdir().unwrap();
    let (truth, frame) = write_frame(dir.path(), 1007);
    let h = 368.3;
    let corners: Vec<String> = [(-h, -h), (h, -h), (h, h), (-h, h)]
        .iter()
        .map(|&(x, y)| {
            let p = truth.board_to_image(Point2::new(x, y)).unwrap();
            // A few pixels off, as a person clicking would be.
            format!("{:.1},{:.1}", p.x + 2.0, p.y - 1.5)
        })
        .collect();
    let out = dir.path().join("manual.json");
    let result = carrom(&[
        "calibrate",
        &frame,
        "--corners",
        &corners.join(","),
        "--south",
        truth.south_side().name(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let calibration = Calibration::load(&out).unwrap();
    assert!(worst_error_mm(&truth, &calibration) < 1.5);

    let too_few = carrom(&["calibrate", &frame, "--corners", "1,2,3"]);
    assert!(!too_few.status.success());
    assert!(String::from_utf8_lossy(&too_few.stderr).contains("expected 8 numbers"));
}

#[test]
fn an_image_without_a_board_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wall.png");
    // A grey wall with a soft light gradient and no board.
    let mut wall = opencv::core::Mat::new_rows_cols_with_default(
        240,
        320,
        opencv::core::CV_8UC3,
        opencv::core::Scalar::all(120.0),
    )
    .unwrap();
    opencv::imgproc::circle(
        &mut wall,
        opencv::core::Point::new(40, 40),
        25,
        opencv::core::Scalar::all(200.0),
        -1,
        opencv::imgproc::LINE_8,
        0,
    )
    .unwrap();
    opencv::imgcodecs::imwrite_def(path.to_str().unwrap(), &wall).unwrap();
    let result = carrom(&["calibrate", path.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert_eq!(result.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("wall.png"), "{stderr}");
    assert!(stderr.contains("--corners"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(result.stdout.is_empty());
}

#[test]
fn missing_and_corrupt_files_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nowhere.png");
    let result = carrom(&["calibrate", missing.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(!result.status.success());
    assert!(stderr.contains("nowhere.png"), "{stderr}");

    let corrupt = dir.path().join("broken.jpg");
    std::fs::write(&corrupt, b"\xff\xd8\xff\xe0 not really a jpeg").unwrap();
    let result = carrom(&["calibrate", corrupt.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(!result.status.success());
    assert!(stderr.contains("broken.jpg"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");

    let not_video = dir.path().join("notes.txt");
    std::fs::write(&not_video, "hello").unwrap();
    let result = carrom(&["calibrate", not_video.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(!result.status.success());
    assert!(stderr.contains("notes.txt"), "{stderr}");
}

#[test]
fn a_video_is_sampled_and_its_best_frame_kept() {
    use opencv::prelude::*;
    let dir = tempfile::tempdir().unwrap();
    let truth = TruthCamera::generated(1017, 640, 480).unwrap();
    let path = dir.path().join("clip.avi");
    let fourcc = opencv::videoio::VideoWriter::fourcc('M', 'J', 'P', 'G').unwrap();
    let mut writer = opencv::videoio::VideoWriter::new_def(
        path.to_str().unwrap(),
        fourcc,
        10.0,
        opencv::core::Size::new(640, 480),
    )
    .unwrap();
    assert!(writer.is_opened().unwrap(), "OpenCV cannot write MJPG here");
    for seed in 0..6 {
        let frame = render(
            &truth,
            &SceneOptions {
                seed,
                ..SceneOptions::default()
            },
        )
        .unwrap();
        writer.write(&frame).unwrap();
    }
    writer.release().unwrap();
    let out = dir.path().join("clip.json");
    let result = carrom(&[
        "calibrate",
        path.to_str().unwrap(),
        "--frames",
        "3",
        "--south",
        truth.south_side().name(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let calibration = Calibration::load(&out).unwrap();
    assert!(
        calibration.source.contains("clip.avi#frame"),
        "{}",
        calibration.source
    );
    assert!(worst_error_mm(&truth, &calibration) < 1.5);
}
