//! `carrom report` writes one self-contained page with the score card, one
//! board drawing per stroke, the decisions with their laws and thumbnails.

mod live_common;

use std::path::Path;

use live_common::{run_ok, sim_clip};

fn board_log_strokes(path: &Path) -> Vec<serde_json::Value> {
    let log: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    log["boards"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|b| b["strokes"].as_array().unwrap().clone())
        .collect()
}

#[test]
fn a_scored_match_page_has_the_score_card_and_a_board_per_stroke() {
    let dir = tempfile::tempdir().unwrap();
    let strokes =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/strokes/singles-match.strokes.json");
    let boards = dir.path().join("match.boardlog.json");
    run_ok(&[
        "rules",
        &strokes.to_string_lossy(),
        "-o",
        &boards.to_string_lossy(),
    ]);
    let html = dir.path().join("match.html");
    run_ok(&[
        "report",
        &boards.to_string_lossy(),
        "--html",
        &html.to_string_lossy(),
    ]);
    let page = std::fs::read_to_string(&html).unwrap();

    let entries = board_log_strokes(&boards);
    assert!(!entries.is_empty());
    assert_eq!(page.matches("<svg class=\"board\"").count(), entries.len());
    // The score card is the one `report::scorecard` makes, one block per game.
    let log: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&boards).unwrap()).unwrap();
    assert!(page.contains("id=\"scorecard\""));
    for game in log["games"].as_array().unwrap() {
        assert!(
            page.contains(&format!("GAME {}", game["game"])),
            "game {game}"
        );
    }
    // Every decision is there with its laws.
    for entry in &entries {
        let laws: Vec<&str> = entry["laws"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap())
            .collect();
        assert!(
            page.contains(&laws.join(", ")),
            "laws of stroke {}",
            entry["index"]
        );
        assert!(page.contains(&format!("id=\"stroke-{}\"", entry["index"])));
    }
    // Self-contained: nothing is fetched from elsewhere.
    assert!(!page.contains("src=\"http"));
    assert!(!page.contains("href=\"http"));
}

#[test]
fn a_batch_output_with_its_video_gets_thumbnails() {
    let dir = tempfile::tempdir().unwrap();
    let clip = sim_clip(dir.path(), "clip", 3, 6.0);
    let out = dir.path().join("live");
    run_ok(&[
        "live",
        "--camera",
        &clip.to_string_lossy(),
        "--out",
        &out.to_string_lossy(),
    ]);
    let html = dir.path().join("report.html");
    let report = || {
        run_ok(&[
            "report",
            &out.to_string_lossy(),
            "--html",
            &html.to_string_lossy(),
        ]);
        std::fs::read_to_string(&html).unwrap()
    };
    // A file played is never dropped or bumped: no session events.
    assert!(!report().contains("Session events"));
    // The session's events as `carrom live` journals them from a camera.
    let events = [
        r#"{"t":12.5,"kind":"dropout","message":"camera 0 stopped sending frames"}"#,
        r#"{"t":14.0,"kind":"recalibrated","message":"the board moved 9.1 px; refitted","file":"calibration-1.json"}"#,
    ];
    std::fs::write(out.join("events.jsonl"), events.join("\n") + "\n").unwrap();
    let page = report();
    assert!(page.contains("<h2>Session events</h2>"));
    for needle in [
        "camera 0 stopped sending frames",
        "the board moved 9.1 px; refitted",
        "calibration-1.json",
        "12.5 s",
    ] {
        assert!(page.contains(needle), "{needle} missing");
    }
    let entries = board_log_strokes(&out.join("boardlog.json"));
    assert!(
        !entries.is_empty(),
        "the clip should have a recognised stroke"
    );
    assert_eq!(
        page.matches("src=\"data:image/jpeg;base64,").count(),
        entries.len()
    );
    assert_eq!(page.matches("<svg class=\"board\"").count(), entries.len());
    // Live output has the pieces where the camera saw them, not a tally.
    assert!(!page.contains("not their places"));
}
