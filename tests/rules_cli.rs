//! `carrom rules` end to end: the hand-written fixtures in every format, and
//! bad stroke logs that must fail cleanly, naming the file, stroke and field.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/strokes")
        .join(name)
}

fn carrom(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_carrom"))
        .args(args)
        .output()
        .expect("the carrom binary runs")
}

fn rules(file: &Path, format: &str) -> String {
    let out = carrom(&[
        "rules",
        file.to_str().expect("utf-8 path"),
        "--format",
        format,
    ]);
    assert!(
        out.status.success(),
        "carrom rules failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

fn json(file: &Path, format: &str) -> Value {
    serde_json::from_str(&rules(file, format)).expect("JSON output")
}

/// (winner, points) of every finished board.
fn board_results(log: &Value) -> Vec<(String, u64)> {
    log["boards"]
        .as_array()
        .expect("boards")
        .iter()
        .map(|b| {
            (
                b["result"]["winner"].as_str().unwrap_or("").to_owned(),
                b["result"]["points"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

#[test]
fn singles_match_board_log_has_the_hand_counted_results() {
    let log = json(&fixture("singles-match.strokes.json"), "json");
    assert_eq!(log["format"], "carrom-boardlog");
    assert_eq!(log["version"], 1);
    let expected: Vec<(String, u64)> = [
        ("Asha", 12),
        ("Ben", 12),
        ("Asha", 12),
        ("Asha", 3),
        ("Ben", 12),
        ("Asha", 12),
        ("Ben", 12),
        ("Ben", 6),
        ("Asha", 12),
        ("Asha", 2),
        ("Asha", 12),
    ]
    .iter()
    .map(|(w, p)| ((*w).to_owned(), *p))
    .collect();
    assert_eq!(board_results(&log), expected);
    let games: Vec<(u64, u64, &str)> = log["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["points"]["Asha"].as_u64().unwrap(),
                g["points"]["Ben"].as_u64().unwrap(),
                g["winner"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(games, [(27, 12, "Asha"), (12, 30, "Ben"), (26, 0, "Asha")]);
    assert_eq!(log["match"]["winner"], "Asha");
    assert_eq!(log["match"]["games"]["Asha"], 2);
    assert_eq!(log["match"]["games"]["Ben"], 1);
    // The contract's per-stroke fields are all there.
    let first = &log["boards"][0]["strokes"][0];
    for field in [
        "index",
        "player",
        "turn_continues",
        "returned",
        "dues_outstanding",
        "queen",
        "on_board",
        "laws",
        "note",
    ] {
        assert!(!first[field].is_null(), "stroke field {field} missing");
    }
    // Game 2, board 4: the striker due of ICF 72(a) put one white back.
    let due = log["boards"][7]["strokes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| {
            s["laws"]
                .as_array()
                .unwrap()
                .iter()
                .any(|l| l == "ICF 72(a)")
        });
    assert_eq!(
        due.expect("a 72(a) stroke")["returned"],
        serde_json::json!(["white"])
    );
    // Every stroke cites a law and no alert was raised.
    for board in log["boards"].as_array().unwrap() {
        for stroke in board["strokes"].as_array().unwrap() {
            assert!(!stroke["laws"].as_array().unwrap().is_empty());
            assert!(
                stroke.get("alerts").is_none(),
                "unexpected alert at stroke {}",
                stroke["index"]
            );
        }
    }
}

#[test]
fn singles_match_text_scorecard_and_sol_show_the_same_numbers() {
    let file = fixture("singles-match.strokes.json");
    let text = rules(&file, "text");
    assert!(
        text.contains("Asha wins the board: 3 points (3 coins, 0 Queen, 0 extra)"),
        "{text}"
    );
    assert!(
        text.contains("Game 1: Asha 27, Ben 12 after 4 boards — won by Asha"),
        "{text}"
    );
    assert!(
        text.contains("Game 2: Asha 12, Ben 30 after 4 boards — won by Ben"),
        "{text}"
    );
    assert!(
        text.contains("Match: Asha 2, Ben 1 — won by Asha"),
        "{text}"
    );

    let card = rules(&file, "scorecard");
    assert!(
        card.contains("Game 1 total: Asha 27 – Ben 12 — winner: Asha"),
        "{card}"
    );
    assert!(
        card.contains("Game 3 total: Asha 26 – Ben 0 — winner: Asha"),
        "{card}"
    );
    assert!(
        card.contains("MATCH: games Asha 2 – Ben 1 — winner: Asha"),
        "{card}"
    );

    let sol = json(&file, "sol");
    assert_eq!(
        (
            sol["player1"].as_str(),
            sol["games1"].as_u64(),
            sol["games2"].as_u64()
        ),
        (Some("Asha"), Some(2), Some(1))
    );
    assert_eq!(sol["winner"], "1");
    let game2 = &sol["games"][1];
    assert_eq!(
        (
            game2["score1"].as_u64(),
            game2["score2"].as_u64(),
            game2["breaker"].as_str()
        ),
        (Some(12), Some(30), Some("2"))
    );
    let board4 = &sol["games"][0]["boards"][3];
    assert_eq!(
        (
            board4["coins1"].as_u64(),
            board4["coins2"].as_u64(),
            board4["queen"].as_str()
        ),
        (Some(3), Some(0), Some(""))
    );
    assert_eq!(sol["games"][0]["boards"][0]["queen"], "1");
}

#[test]
fn doubles_game_scores_by_pair() {
    let file = fixture("doubles-game.strokes.json");
    let log = json(&file, "json");
    let expected: Vec<(String, u64)> = [
        ("Asha & Cleo", 12),
        ("Asha & Cleo", 4),
        ("Ben & Dev", 12),
        ("Ben & Dev", 12),
        ("Asha & Cleo", 12),
    ]
    .iter()
    .map(|(w, p)| ((*w).to_owned(), *p))
    .collect();
    assert_eq!(board_results(&log), expected);
    let breakers: Vec<&str> = log["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["breaker"].as_str().unwrap())
        .collect();
    assert_eq!(breakers, ["Asha", "Ben", "Cleo", "Dev", "Asha"]);
    assert_eq!(log["games"][0]["points"]["Asha & Cleo"], 28);
    assert_eq!(log["games"][0]["points"]["Ben & Dev"], 24);
    assert_eq!(log["games"][0]["winner"], "Asha & Cleo");
    assert!(log["match"]["winner"].is_null());
    assert_eq!(log["match"]["games"]["Asha & Cleo"], 1);

    let text = rules(&file, "text");
    assert!(
        text.contains("Game 1: Asha & Cleo 28, Ben & Dev 24 after 5 boards — won by Asha & Cleo"),
        "{text}"
    );
    let card = rules(&file, "scorecard");
    assert!(
        card.contains("Game 1 total: Asha & Cleo 28 – Ben & Dev 24"),
        "{card}"
    );
    let sol = json(&file, "sol");
    assert_eq!(
        (
            sol["games"][0]["score1"].as_u64(),
            sol["games"][0]["score2"].as_u64()
        ),
        (Some(28), Some(24))
    );
    assert_eq!(sol["winner"], "");
}

#[test]
fn output_option_writes_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("board.json");
    let out = carrom(&[
        "rules",
        fixture("doubles-game.strokes.json").to_str().unwrap(),
        "-o",
        target.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    let log: Value = serde_json::from_str(&std::fs::read_to_string(&target).unwrap()).unwrap();
    assert_eq!(log["games"][0]["winner"], "Asha & Cleo");
}

/// Writes a variant of the singles fixture and runs `carrom rules` on it.
fn broken(edit: impl FnOnce(&mut Value)) -> (PathBuf, Output, tempfile::TempDir) {
    let mut log: Value = serde_json::from_str(
        &std::fs::read_to_string(fixture("singles-match.strokes.json")).unwrap(),
    )
    .unwrap();
    edit(&mut log);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.strokes.json");
    std::fs::write(&path, serde_json::to_string_pretty(&log).unwrap()).unwrap();
    let out = carrom(&["rules", path.to_str().unwrap()]);
    (path, out, dir)
}

fn assert_fails_naming(edit: impl FnOnce(&mut Value), needles: &[&str]) {
    let (path, out, _dir) = broken(edit);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "should fail");
    assert_eq!(
        out.status.code(),
        Some(1),
        "a clean failure, not a crash: {stderr}"
    );
    assert!(
        stderr.contains(path.to_str().unwrap()),
        "names the file: {stderr}"
    );
    for needle in needles {
        assert!(stderr.contains(needle), "expected {needle:?} in: {stderr}");
    }
}

#[test]
fn unknown_piece_is_named_with_stroke_and_field() {
    assert_fails_naming(
        |log| log["strokes"][3]["pocketed"][0]["piece"] = "red".into(),
        &["strokes[3].pocketed[0].piece", "unknown piece \"red\""],
    );
}

#[test]
fn missing_field_is_named() {
    assert_fails_naming(
        |log| {
            log["strokes"][5].as_object_mut().unwrap().remove("touched");
        },
        &["strokes[5]", "missing field `touched`"],
    );
}

#[test]
fn seat_with_no_player_is_named() {
    assert_fails_naming(
        |log| log["strokes"][9]["seat"] = "east".into(),
        &["strokes[9].seat", "nobody sits at east"],
    );
}

#[test]
fn strokes_after_the_match_is_decided_are_refused() {
    assert_fails_naming(
        |log| {
            let extra = serde_json::json!({"seat": "south", "touched": true});
            log["strokes"].as_array_mut().unwrap().push(extra);
        },
        &["strokes[120]", "match is already over"],
    );
}

#[test]
fn wrong_format_and_bad_setup_are_refused() {
    assert_fails_naming(
        |log| log["format"] = "carrom-boardlog".into(),
        &["format", "carrom-strokes"],
    );
    assert_fails_naming(
        |log| log["match"]["event"] = "doubles".into(),
        &["match.players", "doubles needs 4 players"],
    );
}
