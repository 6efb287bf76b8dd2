//! `carrom live` killed mid-clip and started again with the same `--out`
//! loses no stroke and repeats none.

mod live_common;

use std::process::Stdio;
use std::time::{Duration, Instant};

use live_common::{carrom, run_ok, sim_clip, strokes_of};

/// Longest wait for the first stroke to be journaled while playing in real time.
const FIRST_STROKE_TIMEOUT: Duration = Duration::from_secs(30);

fn complete_journal_lines(path: &std::path::Path) -> usize {
    std::fs::read_to_string(path)
        .map(|text| text.matches('\n').count())
        .unwrap_or(0)
}

#[test]
fn a_killed_session_resumes_without_losing_or_repeating_strokes() {
    let dir = tempfile::tempdir().unwrap();
    let clip = sim_clip(dir.path(), "clip", 3, 10.0);
    let clip_text = clip.to_string_lossy().into_owned();

    // The whole clip in one go: the strokes a restart must end up with.
    let reference_out = dir.path().join("reference");
    run_ok(&[
        "live",
        "--camera",
        &clip_text,
        "--out",
        &reference_out.to_string_lossy(),
    ]);
    let reference = strokes_of(&reference_out.join("strokes.json"));
    assert!(
        !reference.is_empty(),
        "the clip should have a recognised stroke"
    );

    // The same clip in real time, killed (no chance to tidy up) as soon as
    // the first stroke is journaled.
    let out = dir.path().join("live");
    let out_text = out.to_string_lossy().into_owned();
    let mut child = carrom()
        .args([
            "live",
            "--camera",
            &clip_text,
            "--realtime",
            "--out",
            &out_text,
        ])
        .stderr(Stdio::null())
        .spawn()
        .expect("carrom live starts");
    let journal = out.join("strokes.jsonl");
    let started = Instant::now();
    while complete_journal_lines(&journal) == 0 {
        assert!(
            started.elapsed() < FIRST_STROKE_TIMEOUT,
            "no stroke journaled within {FIRST_STROKE_TIMEOUT:?}"
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "carrom live ended early"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // What was scored before the kill is on disk in the journal (the two
    // documents are rebuilt from it; a kill may land between the two).
    let before_restart: Vec<serde_json::Value> = std::fs::read_to_string(&journal)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap()["stroke"].clone())
        .collect();
    assert!(!before_restart.is_empty());
    assert_eq!(before_restart[..], reference[..before_restart.len()]);

    // Restart on the same folder and play the rest.
    let output = run_ok(&["live", "--camera", &clip_text, "--out", &out_text]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!("{} carried over", before_restart.len())),
        "{stderr}"
    );
    let after = strokes_of(&out.join("strokes.json"));
    assert!(out.join("boardlog.json").is_file());
    assert_eq!(
        after, reference,
        "the resumed session differs from an uninterrupted one"
    );
    let events = std::fs::read_to_string(out.join("events.jsonl")).unwrap();
    assert!(events.contains("\"resumed\""), "{events}");
}
