//! `carrom board` run as a user runs it: it writes a PNG of the right size, and
//! refuses bad arguments with a message instead of a panic.

use std::path::Path;
use std::process::{Command, Output};

fn carrom_board(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_carrom"))
        .arg("board")
        .args(args)
        .output()
        .expect("the carrom binary runs")
}

/// Width and height from a PNG's IHDR chunk.
fn png_size(path: &Path) -> (u32, u32) {
    let bytes = std::fs::read(path).expect("the PNG was written");
    assert_eq!(
        &bytes[..8],
        b"\x89PNG\r\n\x1a\n",
        "not a PNG: {}",
        path.display()
    );
    assert_eq!(&bytes[12..16], b"IHDR");
    let be =
        |at: usize| u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    (be(16), be(20))
}

fn assert_refused(output: &Output, expected_in_message: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "should fail; stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "panicked: {stderr}");
    assert!(
        stderr.contains(expected_in_message),
        "stderr should mention {expected_in_message:?}: {stderr}"
    );
}

/// The whole board (surface plus two frames) in mm, as the library states it.
fn board_side_px(px_per_mm: f64) -> u32 {
    let side_mm = carrom::geometry::spec::BOARD_OUTER_SIDE_MM;
    (side_mm * px_per_mm).ceil() as u32
}

#[test]
fn writes_a_png_of_the_whole_board_at_the_default_scale() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("board.png");
    let output = carrom_board(&["--png", path.to_str().expect("utf-8 temp path")]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let side = board_side_px(1.0);
    assert_eq!(png_size(&path), (side, side));
    // Default scale: a bit under 900 px, frame included.
    assert!((850..900).contains(&side));
}

#[test]
fn scale_and_arrangement_options_are_honoured() {
    let dir = tempfile::tempdir().expect("temp dir");
    let plain = dir.path().join("plain.png");
    let arranged = dir.path().join("arranged.PNG");
    let plain_run = carrom_board(&[
        "--png",
        plain.to_str().expect("utf-8"),
        "--px-per-mm",
        "0.5",
    ]);
    assert!(
        plain_run.status.success(),
        "{}",
        String::from_utf8_lossy(&plain_run.stderr)
    );
    let arranged_run = carrom_board(&[
        "--png",
        arranged.to_str().expect("utf-8"),
        "--px-per-mm",
        "0.5",
        "--breaker",
        "west",
    ]);
    assert!(
        arranged_run.status.success(),
        "{}",
        String::from_utf8_lossy(&arranged_run.stderr)
    );
    let side = board_side_px(0.5);
    assert_eq!(png_size(&plain), (side, side));
    assert_eq!(png_size(&arranged), (side, side));
    // Pieces were drawn: the files differ.
    let plain_bytes = std::fs::read(&plain).expect("written");
    let arranged_bytes = std::fs::read(&arranged).expect("written");
    assert_ne!(plain_bytes, arranged_bytes);
}

#[test]
fn bad_scales_are_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("board.png");
    let path = path.to_str().expect("utf-8");
    for scale in ["0", "-2", "1000", "NaN"] {
        let output = carrom_board(&["--png", path, "--px-per-mm", scale]);
        assert_refused(&output, "--px-per-mm");
    }
    let output = carrom_board(&["--png", path, "--px-per-mm", "lots"]);
    assert_refused(&output, "lots");
    assert!(!Path::new(path).exists(), "nothing is written on refusal");
}

#[test]
fn unwritable_paths_are_refused_naming_the_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = dir.path().join("no-such-dir").join("board.png");
    let output = carrom_board(&[
        "--png",
        missing.to_str().expect("utf-8"),
        "--px-per-mm",
        "0.2",
    ]);
    assert_refused(&output, "no-such-dir");

    let not_png = dir.path().join("board.jpg");
    let output = carrom_board(&["--png", not_png.to_str().expect("utf-8")]);
    assert_refused(&output, "board.jpg");
    assert!(!not_png.exists());
}

#[test]
fn unknown_seats_are_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("board.png");
    let output = carrom_board(&[
        "--png",
        path.to_str().expect("utf-8"),
        "--breaker",
        "northeast",
    ]);
    assert_refused(&output, "northeast");
}
