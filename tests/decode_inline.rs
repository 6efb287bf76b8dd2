//! Decoding on the vision thread (as `carrom batch` does with several jobs)
//! must give exactly the strokes that decoding ahead on a thread of its own
//! gives: the frames are the same, only who decodes them differs.

use std::path::Path;

use carrom::live::CameraModel;
use carrom::strokes::{track_clip, SessionOptions};

#[test]
fn decoding_inline_gives_the_same_strokes_as_decoding_ahead() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/jump");
    let camera = CameraModel::load(&dir.join("camera.json")).expect("fixture camera");
    let track = |decode_ahead| {
        let options = SessionOptions {
            decode_ahead,
            ..SessionOptions::default()
        };
        let outcome = track_clip(&dir.join("clip.mp4"), &camera, None, &options)
            .expect("the fixture clip tracks");
        assert!(outcome.failure.is_none(), "{:?}", outcome.failure);
        (
            outcome.frames,
            serde_json::to_string(&outcome.log).expect("encodes"),
        )
    };
    let (ahead_frames, ahead) = track(true);
    let (inline_frames, inline) = track(false);
    assert!(ahead_frames > 100, "only {ahead_frames} frames decoded");
    assert_eq!(inline_frames, ahead_frames);
    assert!(ahead.contains("\"pocketed\""), "{ahead}");
    assert_eq!(inline, ahead);
}
