//! What the live, batch and report tests share: the binary, and small
//! simulated clips made on the spot in a temporary folder.

#![allow(dead_code)] // each test binary uses a different part

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `carrom` binary under test.
pub fn carrom() -> Command {
    Command::new(env!("CARGO_BIN_EXE_carrom"))
}

/// Runs `carrom ARGS` and returns its output, failing the test with the
/// command's stderr if it cannot be started.
pub fn run(args: &[&str]) -> Output {
    carrom()
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run carrom {args:?}: {e}"))
}

/// Like [`run`], and the command must succeed.
pub fn run_ok(args: &[&str]) -> Output {
    let output = run(args);
    assert!(
        output.status.success(),
        "carrom {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// A small, short simulated clip (clip.mp4, camera.json, truth files) in
/// `dir/name`: 480×270 keeps rendering and tracking to a few seconds.
pub fn sim_clip(dir: &Path, name: &str, seed: u64, seconds: f64) -> PathBuf {
    let out = dir.join(name);
    let out_text = out.to_string_lossy().into_owned();
    run_ok(&[
        "sim",
        "--seed",
        &seed.to_string(),
        "--out",
        &out_text,
        "--max-seconds",
        &seconds.to_string(),
        "--width",
        "480",
        "--height",
        "270",
    ]);
    out.join("clip.mp4")
}

/// The strokes of a stroke log (`strokes.json`) as JSON values.
pub fn strokes_of(path: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        let listing: Vec<_> = path
            .parent()
            .and_then(|dir| std::fs::read_dir(dir).ok())
            .map(|entries| entries.flatten().map(|e| e.file_name()).collect())
            .unwrap_or_default();
        panic!(
            "cannot read {}: {e}; the folder holds {listing:?}",
            path.display()
        )
    });
    let log: serde_json::Value = serde_json::from_str(&text).expect("a JSON stroke log");
    log["strokes"].as_array().cloned().unwrap_or_default()
}

/// The lines of a JSON-lines log (`events.jsonl`); none where it is missing.
pub fn events_of(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}
