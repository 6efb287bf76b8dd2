//! `carrom sim` end to end: the truth it writes is complete, consistent with
//! the laws, and the same for the same seed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use carrom::contract::{BoardLog, StrokeLog};
use carrom::geometry::Piece;
use carrom::sim::play::{frame_on_board, read_tracks, BOARD_LOG_FILE, STROKES_FILE, TRACKS_FILE};
use carrom::sim::scene::{FrameTruth, PieceState};

/// Carrommen, Queen and striker.
const PIECES: usize = 20;

fn carrom(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_carrom"))
        .args(args)
        .output()
        .expect("the carrom binary runs")
}

/// Runs `carrom sim --no-video` into a fresh directory and returns it.
fn simulate(temp: &Path, name: &str, extra: &[&str]) -> PathBuf {
    let out = temp.join(name);
    let out_arg = out.to_str().expect("temp paths are UTF-8");
    let mut args = vec!["sim", "--out", out_arg, "--no-video"];
    args.extend_from_slice(extra);
    let output = carrom(&args);
    assert!(
        output.status.success(),
        "carrom sim failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    out
}

fn tracks(dir: &Path) -> Vec<FrameTruth> {
    read_tracks(&dir.join(TRACKS_FILE)).expect("tracks are readable")
}

#[test]
fn every_piece_is_accounted_for_in_every_frame() {
    let temp = tempfile::tempdir().unwrap();
    let dir = simulate(
        temp.path(),
        "clip",
        &["--seed", "11", "--max-seconds", "40"],
    );
    let frames = tracks(&dir);
    assert!(frames.len() > 100);
    for frame in &frames {
        let states = [
            PieceState::OnBoard,
            PieceState::Pocketed,
            PieceState::OffBoard,
            PieceState::InHand,
            PieceState::Airborne,
        ];
        let total: usize = states.iter().map(|&s| frame.count(s)).sum();
        assert_eq!(total, PIECES, "frame {}", frame.frame);
        assert_eq!(frame.pieces.len(), PIECES, "frame {}", frame.frame);
        let count = |kind: Piece| frame.pieces.iter().filter(|p| p.kind == kind).count();
        assert_eq!(
            (count(Piece::White), count(Piece::Black)),
            (9, 9),
            "frame {}",
            frame.frame
        );
        assert_eq!(
            (count(Piece::Queen), count(Piece::Striker)),
            (1, 1),
            "frame {}",
            frame.frame
        );
        for piece in &frame.pieces {
            assert_eq!(
                piece.pocket.is_some(),
                piece.state == PieceState::Pocketed,
                "frame {} piece {}",
                frame.frame,
                piece.id
            );
        }
    }
    assert!(frames.last().unwrap().t <= 40.0);
}

#[test]
fn the_truth_board_log_is_what_the_laws_make_of_the_truth_strokes() {
    let temp = tempfile::tempdir().unwrap();
    let dir = simulate(
        temp.path(),
        "clip",
        &["--seed", "12", "--skill", "1", "--boards", "1"],
    );
    let strokes = StrokeLog::from_path(&dir.join(STROKES_FILE)).unwrap();
    let written = BoardLog::from_path(&dir.join(BOARD_LOG_FILE)).unwrap();
    let rescored = carrom::rules::score(&strokes).unwrap();
    assert_eq!(
        serde_json::to_value(&rescored).unwrap(),
        serde_json::to_value(&written).unwrap()
    );
    assert!(
        written.boards[0].result.is_some(),
        "a skilled board is played to its finish"
    );
    // And `carrom rules` on the written stroke log writes the same document.
    let strokes_path = dir.join(STROKES_FILE);
    let rules = carrom(&["rules", strokes_path.to_str().unwrap()]);
    assert!(rules.status.success());
    assert_eq!(
        String::from_utf8_lossy(&rules.stdout),
        std::fs::read_to_string(dir.join(BOARD_LOG_FILE)).unwrap()
    );
}

#[test]
fn the_laws_and_the_physics_agree_on_what_is_on_the_board_before_each_stroke() {
    let temp = tempfile::tempdir().unwrap();
    for (seed, event) in [("13", "singles"), ("14", "doubles"), ("15", "singles")] {
        let dir = simulate(
            temp.path(),
            seed,
            &[
                "--seed",
                seed,
                "--event",
                event,
                "--skill",
                "0.5",
                "--boards",
                "2",
                "--max-seconds",
                "240",
            ],
        );
        let strokes = StrokeLog::from_path(&dir.join(STROKES_FILE)).unwrap();
        let log = BoardLog::from_path(&dir.join(BOARD_LOG_FILE)).unwrap();
        let frames = tracks(&dir);
        let mut checked = 0;
        for board in &log.boards {
            // The last stroke of a finished board is followed by a new board.
            let open = board.strokes.len() - usize::from(board.result.is_some());
            for entry in &board.strokes[..open] {
                // The clip's last stroke has no next one to look before.
                let Some(next) = strokes.strokes.get(entry.index + 1) else {
                    continue;
                };
                let next_t = next.t.unwrap();
                let before_next = frames
                    .iter()
                    .rev()
                    .find(|f| f.t < next_t)
                    .expect("frames before every stroke");
                assert_eq!(
                    frame_on_board(before_next),
                    entry.on_board,
                    "seed {seed}: before stroke {}",
                    entry.index + 1
                );
                checked += 1;
            }
        }
        assert!(checked > 5, "seed {seed}: only {checked} strokes checked");
    }
}

#[test]
fn the_same_seed_gives_the_same_truth() {
    let temp = tempfile::tempdir().unwrap();
    let args = ["--seed", "16", "--max-seconds", "30", "--fps", "60"];
    let first = simulate(temp.path(), "first", &args);
    let second = simulate(temp.path(), "second", &args);
    for file in [STROKES_FILE, BOARD_LOG_FILE, TRACKS_FILE, "camera.json"] {
        let a = std::fs::read(first.join(file)).unwrap();
        let b = std::fs::read(second.join(file)).unwrap();
        assert!(a == b, "{file} differs between two runs of one seed");
    }
    let other = simulate(
        temp.path(),
        "other",
        &["--seed", "17", "--max-seconds", "30", "--fps", "60"],
    );
    assert_ne!(
        std::fs::read(first.join(TRACKS_FILE)).unwrap(),
        std::fs::read(other.join(TRACKS_FILE)).unwrap()
    );
    // 60 frames a second.
    let frames = tracks(&first);
    assert!((frames[60].t - 1.0).abs() < 1e-6);
}

#[test]
fn bad_options_and_unwritable_directories_are_clear_errors() {
    let temp = tempfile::tempdir().unwrap();
    let blocker = temp.path().join("a-file");
    std::fs::write(&blocker, "not a directory").unwrap();
    let inside_file = blocker.join("clip");
    let out = temp.path().join("out");
    let out = out.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["sim", "--out", inside_file.to_str().unwrap(), "--no-video"],
            "output directory",
        ),
        (vec!["sim", "--out", out, "--no-video", "--fps", "0"], "fps"),
        (
            vec!["sim", "--out", out, "--no-video", "--skill", "1.5"],
            "skill",
        ),
        (
            vec!["sim", "--out", out, "--no-video", "--max-seconds=-3"],
            "max-seconds",
        ),
        (
            vec!["sim", "--out", out, "--no-video", "--boards", "0"],
            "boards",
        ),
        (
            vec!["sim", "--out", out, "--no-video", "--width", "4"],
            "width",
        ),
        (
            vec!["sim", "--out", out, "--no-video", "--event", "triples"],
            "event",
        ),
    ];
    for (args, mention) in cases {
        let output = carrom(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?} succeeded");
        assert!(stderr.contains(mention), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn strikers_are_placed_legally_and_returned_pieces_inside_the_outer_circle() {
    use carrom::geometry::spec::{OUTER_CIRCLE_RADIUS_MM, STRIKER_RADIUS_MM};
    use carrom::geometry::striker_placement;
    use nalgebra::Point2;

    let temp = tempfile::tempdir().unwrap();
    let dir = simulate(
        temp.path(),
        "clip",
        &["--seed", "18", "--skill", "0.2", "--max-seconds", "120"],
    );
    let strokes = StrokeLog::from_path(&dir.join(STROKES_FILE)).unwrap();
    let frames = tracks(&dir);
    let mut returned_seen = 0;
    for (index, stroke) in strokes.strokes.iter().enumerate() {
        let t = stroke.t.unwrap();
        let at_strike = frames
            .iter()
            .find(|f| (f.t - t).abs() < 1e-3)
            .expect("a frame at the moment of each strike (stroke times are to the ms)");
        let striker = at_strike
            .pieces
            .iter()
            .find(|p| p.kind == Piece::Striker)
            .unwrap();
        assert_eq!(striker.state, PieceState::OnBoard, "stroke {index}");
        let centre = Point2::new(striker.x, striker.y);
        assert!(
            striker_placement(stroke.seat, centre, STRIKER_RADIUS_MM).is_legal(),
            "stroke {index}: striker at {centre:?} is not legal for {}",
            stroke.seat
        );
        // Every frame in which a piece is held has a hand over the board.
        // Pieces that come back onto the board between strikes come back
        // inside the outer circle.
        let Some(next) = strokes.strokes.get(index + 1) else {
            continue;
        };
        let window: Vec<&FrameTruth> = frames
            .iter()
            .filter(|f| f.t > t && f.t < next.t.unwrap())
            .collect();
        for pair in window.windows(2) {
            for (was, now) in pair[0].pieces.iter().zip(&pair[1].pieces) {
                let back = now.kind != Piece::Striker
                    && now.state == PieceState::OnBoard
                    && was.state != PieceState::OnBoard;
                if back {
                    returned_seen += 1;
                    let distance = now.x.hypot(now.y);
                    assert!(
                        distance <= OUTER_CIRCLE_RADIUS_MM,
                        "stroke {index}: piece {} returned {distance:.1} mm from the centre",
                        now.id
                    );
                }
            }
        }
    }
    for frame in &frames {
        if frame.count(PieceState::InHand) > 0 && frame.t > 0.0 {
            assert!(
                !frame.hands.is_empty(),
                "frame {}: a piece held by no hand",
                frame.frame
            );
        }
    }
    assert!(
        returned_seen > 0,
        "this seed returns pieces; the check above ran on none"
    );
}
