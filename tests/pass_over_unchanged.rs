//! Frames that show nothing new are passed over (not warped or searched;
//! the last frame's discs stand for theirs). That must find the strokes
//! that looking at every frame finds, with the pieces where they were.

use std::path::Path;

use carrom::contract::StrokeLog;
use carrom::live::CameraModel;
use carrom::strokes::{track_clip, ClipOutcome, SessionOptions};

fn track(dir: &Path, pass_over_unchanged: bool) -> ClipOutcome {
    let camera = CameraModel::load(&dir.join("camera.json")).expect("fixture camera");
    let options = SessionOptions {
        pass_over_unchanged,
        ..SessionOptions::default()
    };
    let outcome = track_clip(&dir.join("clip.mp4"), &camera, None, &options)
        .expect("the fixture clip tracks");
    assert!(outcome.failure.is_none(), "{:?}", outcome.failure);
    outcome
}

/// Each stroke's seat, touch, and pieces pocketed (with pockets) and off
/// the board: what `carrom eval` calls a stroke exactly right.
fn events(log: &StrokeLog) -> Vec<String> {
    log.strokes
        .iter()
        .map(|stroke| {
            let pocketed: Vec<String> = stroke
                .pocketed
                .iter()
                .map(|p| format!("{:?} in {:?}", p.piece, p.pocket))
                .collect();
            let overboard: Vec<String> = stroke
                .overboard
                .iter()
                .map(|p| format!("{:?}", p.piece))
                .collect();
            format!(
                "{:?} touched {} pocketed {pocketed:?} overboard {overboard:?}",
                stroke.seat, stroke.touched
            )
        })
        .collect()
}

#[test]
fn passing_over_unchanged_frames_finds_the_strokes_every_frame_finds() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/jump");
    let every = track(&dir, false);
    let passing = track(&dir, true);
    assert_eq!(every.passed_over, 0);
    assert_eq!(passing.frames, every.frames);
    // The clip's board lies untouched for a second or two between strokes.
    assert!(
        passing.passed_over * 10 > every.frames,
        "only {} of {} frames passed over",
        passing.passed_over,
        every.frames
    );
    let found = events(&passing.log);
    assert!(
        found.iter().any(|e| e.contains("overboard [\"")),
        "{found:?}"
    );
    assert_eq!(found, events(&every.log));
    for (a, b) in passing.log.strokes.iter().zip(&every.log.strokes) {
        let (a, b) = (a.t.expect("strike time"), b.t.expect("strike time"));
        assert!((a - b).abs() < 0.1, "strike at {a} s against {b} s");
    }
}
