//! `carrom sim` with video: the clip has one picture per frame of truth, at
//! the requested size, and the same seed gives the same bytes.

use std::path::Path;
use std::process::Command;

use opencv::prelude::*;
use opencv::videoio::{self, VideoCapture};

use carrom::sim::play::{read_tracks, TRACKS_FILE};

fn render(out: &Path, seed: &str) {
    let output = Command::new(env!("CARGO_BIN_EXE_carrom"))
        .args(["sim", "--seed", seed, "--max-seconds", "6"])
        .args(["--width", "160", "--height", "96", "--out"])
        .arg(out)
        .output()
        .expect("the carrom binary runs");
    assert!(
        output.status.success(),
        "carrom sim failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn the_clip_matches_the_truth_and_the_seed() {
    let temp = tempfile::tempdir().unwrap();
    let first = temp.path().join("first");
    let second = temp.path().join("second");
    render(&first, "21");
    render(&second, "21");

    let clip = first.join("clip.mp4");
    let bytes = std::fs::read(&clip).unwrap();
    assert!(!bytes.is_empty());
    assert!(
        bytes == std::fs::read(second.join("clip.mp4")).unwrap(),
        "the same seed gave different clip bytes"
    );

    let frames = read_tracks(&first.join(TRACKS_FILE)).unwrap();
    let mut capture = VideoCapture::from_file(clip.to_str().unwrap(), videoio::CAP_ANY).unwrap();
    assert!(capture.is_opened().unwrap());
    let mut image = Mat::default();
    let mut decoded = 0;
    while capture.read(&mut image).unwrap() {
        let size = image.size().unwrap();
        assert_eq!((size.width, size.height), (160, 96));
        decoded += 1;
    }
    assert_eq!(decoded, frames.len());
}
