//! A network camera that drops out mid-match: the test serves a simulated
//! clip as an HTTP MJPEG stream (what many IP cameras send) at its real
//! speed, cuts the connection while the board is still, refuses connections
//! for a while, then streams the rest. `carrom live` must log the drop-out
//! and the reconnection with the gap, and score the strokes on either side
//! of the gap as it does from the file (the gap falls where nothing moves,
//! so no stroke is in it). The reader falls behind the stream whenever the
//! machine is busy; the strokes must not depend on that.

mod live_common;

use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::thread;
use std::time::{Duration, Instant};

use opencv::core::{Mat, Vector};
use opencv::prelude::*;
use opencv::{imgcodecs, videoio};
use serde_json::Value;

use live_common::{carrom, events_of, run, sim_clip, strokes_of};

/// How long the camera refuses connections after the drop.
const GAP: Duration = Duration::from_millis(1500);
/// Still frames wanted on each side of the cut.
const STILL_MARGIN: usize = 4;

/// The clip's frames as JPEG images, and its frame rate.
fn jpeg_frames(clip: &Path) -> (Vec<Vec<u8>>, f64) {
    let mut capture = videoio::VideoCapture::from_file(clip.to_str().unwrap(), videoio::CAP_ANY)
        .expect("OpenCV opens the clip");
    let fps = capture.get(videoio::CAP_PROP_FPS).unwrap();
    let mut frames = Vec::new();
    let mut image = Mat::default();
    while capture.read(&mut image).unwrap() && !image.empty() {
        let mut jpeg = Vector::<u8>::new();
        imgcodecs::imencode(".jpg", &image, &mut jpeg, &Vector::new()).unwrap();
        frames.push(jpeg.to_vec());
    }
    (frames, fps)
}

/// The longest run of frames in `truth.tracks.jsonl` where no piece moves
/// (a hand may be over the board, reaching for the striker), after the
/// first stroke: `(first, end)`.
fn still_stretch(truth_tracks: &Path, first_stroke_t: f64) -> (usize, usize) {
    let text = std::fs::read_to_string(truth_tracks).unwrap();
    let still: Vec<bool> = text
        .lines()
        .map(|line| {
            let frame: Value = serde_json::from_str(line).unwrap();
            let nothing_moves = frame["pieces"].as_array().unwrap().iter().all(|p| {
                p["vx"].as_f64() == Some(0.0)
                    && p["vy"].as_f64() == Some(0.0)
                    && p["z"].as_f64() == Some(0.0)
            });
            nothing_moves && frame["t"].as_f64().unwrap() > first_stroke_t
        })
        .collect();
    let mut best = (0, 0);
    let mut start = None;
    for (i, &s) in still.iter().chain([&false]).enumerate() {
        match (s, start) {
            (true, None) => start = Some(i),
            (false, Some(from)) => {
                if i - from > best.1 - best.0 {
                    best = (from, i);
                }
                start = None;
            }
            _ => {}
        }
    }
    best
}

/// Where to cut the stream: in the still stretch after the first stroke,
/// once the tracker has also seen that stroke come to rest (it wants a few
/// still frames to be sure, [`STILL_MARGIN`] more here), so the stroke is
/// over on both sides of the comparison.
fn cut_frame(truth_tracks: &Path, reference: &[Value]) -> usize {
    let first_t = reference
        .first()
        .and_then(|s| s["t"].as_f64())
        .expect("the clip should have a recognised stroke");
    let (still_from, still_to) = still_stretch(truth_tracks, first_t);
    let rested_at = reference
        .iter()
        .filter_map(|s| s["extra"]["vision"]["rest"]["frame"].as_u64())
        .filter(|&frame| (frame as usize) < still_to)
        .max()
        .unwrap_or(0) as usize;
    let from = still_from.max(rested_at) + STILL_MARGIN;
    let to = still_to.saturating_sub(STILL_MARGIN);
    assert!(
        from < to,
        "the clip has no still stretch to cut in: frames {still_from}..{still_to}, the stroke before it at rest at frame {rested_at}"
    );
    (from + to) / 2
}

/// Sends `frames` as a multipart MJPEG response, one every `1/fps` s.
fn stream(mut client: TcpStream, frames: &[Vec<u8>], fps: f64) -> std::io::Result<()> {
    let mut request = [0u8; 4096];
    let _ = std::io::Read::read(&mut client, &mut request)?;
    client.write_all(
        b"HTTP/1.0 200 OK\r\nContent-Type: multipart/x-mixed-replace; boundary=frame\r\n\r\n",
    )?;
    let started = Instant::now();
    for (i, jpeg) in frames.iter().enumerate() {
        let due = started + Duration::from_secs_f64(i as f64 / fps);
        if let Some(wait) = due.checked_duration_since(Instant::now()) {
            thread::sleep(wait);
        }
        client.write_all(
            format!(
                "--frame\r\nContent-Type: image/jpeg\r\nContent-Length: {}\r\n\r\n",
                jpeg.len()
            )
            .as_bytes(),
        )?;
        client.write_all(jpeg)?;
        client.write_all(b"\r\n")?;
    }
    Ok(())
}

/// The camera: frames before `cut` on the first connection, none for
/// [`GAP`], the rest on the next connection, then nothing ever again.
fn serve_with_dropout(listener: TcpListener, frames: Vec<Vec<u8>>, fps: f64, cut: usize) {
    thread::spawn(move || {
        let mut served = 0;
        let mut back_at = None;
        for client in listener.incoming() {
            let Ok(client) = client else { continue };
            match served {
                0 => {
                    let _ = stream(client, &frames[..cut], fps);
                    back_at = Some(Instant::now() + GAP);
                    served = 1;
                }
                1 if back_at.is_some_and(|at| Instant::now() >= at) => {
                    let _ = stream(client, &frames[cut..], fps);
                    served = 2;
                }
                // Down: the connection is closed before any answer.
                _ => drop(client),
            }
        }
    });
}

/// A stroke without its times (the stream's are session seconds, the
/// file's are clip seconds) and the vision's notes: who struck, what went
/// where, whether anything was touched.
fn without_times(stroke: &Value) -> Value {
    let mut stroke = stroke.clone();
    if let Some(object) = stroke.as_object_mut() {
        object.remove("t");
        object.remove("extra");
    }
    for list in ["pocketed", "overboard"] {
        if let Some(items) = stroke[list].as_array_mut() {
            for item in items {
                if let Some(object) = item.as_object_mut() {
                    object.remove("t");
                }
            }
        }
    }
    stroke
}

#[test]
fn a_stream_that_drops_out_is_reconnected_and_no_stroke_is_lost() {
    let dir = tempfile::tempdir().unwrap();
    let clip = sim_clip(dir.path(), "clip", 3, 10.0);
    let camera = clip.with_file_name("camera.json");
    let (frames, fps) = jpeg_frames(&clip);

    // The strokes seen from a file of the very JPEG images the camera will
    // send (re-encoding the clip alone changes what is seen), read at the
    // clip's frame rate: what the stream must give too.
    let jpegs = clip.with_file_name("clip.mjpeg");
    std::fs::write(&jpegs, frames.concat()).unwrap();
    let reference_out = dir.path().join("reference");
    let reference_run = carrom()
        .args(["live", "--camera", &jpegs.to_string_lossy()])
        .args(["--calibration", &camera.to_string_lossy()])
        .args(["--out", &reference_out.to_string_lossy()])
        // FFmpeg reads bare JPEGs at 25 fps unless told otherwise.
        .env("OPENCV_FFMPEG_CAPTURE_OPTIONS", format!("framerate;{fps}"))
        .output()
        .unwrap();
    assert!(
        reference_run.status.success(),
        "{}",
        String::from_utf8_lossy(&reference_run.stderr)
    );
    let reference = strokes_of(&reference_out.join("strokes.json"));
    let cut = cut_frame(&clip.with_file_name("truth.tracks.jsonl"), &reference);
    let cut_t = cut as f64 / fps;
    assert!(
        reference.iter().any(|s| s["t"].as_f64() < Some(cut_t))
            && reference.iter().any(|s| s["t"].as_f64() > Some(cut_t)),
        "strokes on both sides of the cut at {cut_t:.2} s are needed: {reference:?}"
    );

    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/board.mjpg", listener.local_addr().unwrap());
    let frame_count = frames.len();
    serve_with_dropout(listener, frames, fps, cut);
    let out = dir.path().join("stream");
    // After the second drop-out the camera never comes back: the session
    // gives up after --reconnect-for, with everything scored on disk.
    let output = run(&[
        "live",
        "--camera",
        &url,
        "--calibration",
        &camera.to_string_lossy(),
        "--reconnect-for",
        "3",
        "--out",
        &out.to_string_lossy(),
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(stderr.contains("giving up"), "{stderr}");

    let all_events = events_of(&out.join("events.jsonl"));
    // Each connected run's timing: by arrival (an MJPEG stream has no
    // timestamps) at the rate measured, which is the rate served (FFmpeg
    // declares 25 fps for it).
    let timings: Vec<&Value> = all_events
        .iter()
        .filter(|e| e["kind"] == "timing")
        .map(|e| &e["timing"])
        .collect();
    let served = [cut, frame_count - cut];
    assert_eq!(timings.len(), 2, "events: {all_events:?}");
    for (timing, served) in timings.iter().zip(served) {
        eprintln!("stream run: {timing}");
        assert_eq!(timing["timing"], "arrivals", "{timing}");
        let measured = timing["fps"].as_f64().unwrap_or_default();
        assert!(
            (measured / fps - 1.0).abs() < 0.03,
            "{measured} fps measured, {fps} served"
        );
        let got = timing["frames"].as_u64().unwrap_or_default() as usize;
        assert!(
            got.abs_diff(served) <= 1,
            "{got} frames read of {served} served"
        );
    }
    let events: Vec<&Value> = all_events
        .iter()
        .filter(|e| e["kind"] != "timing")
        .collect();
    let kinds: Vec<&str> = events.iter().filter_map(|e| e["kind"].as_str()).collect();
    assert_eq!(
        kinds,
        ["dropout", "reconnected", "dropout"],
        "events: {all_events:?}"
    );
    let (lost_t, back_t) = (events[0]["t"].as_f64(), events[1]["t"].as_f64());
    let (Some(lost_t), Some(back_t)) = (lost_t, back_t) else {
        panic!("events without times: {events:?}");
    };
    let gap = back_t - lost_t;
    assert!(
        gap >= GAP.as_secs_f64() && gap < GAP.as_secs_f64() + 5.0,
        "gap of {gap:.2} s logged for a {GAP:?} drop-out: {events:?}"
    );
    let message = events[1]["message"].as_str().unwrap_or_default();
    assert!(message.contains("gap of"), "{message}");

    // No stroke is lost or misread across the drop-out, and the stream's
    // frames are timed as the file's are (by when they were taken, not when
    // a busy reader got to them): before the drop-out and after it, the
    // stream's strokes are the file's before and after the cut.
    let streamed = strokes_of(&out.join("strokes.json"));
    let between = |strokes: &[Value], from: f64, to: f64| {
        strokes
            .iter()
            .filter(|s| s["t"].as_f64().is_some_and(|t| t > from && t < to))
            .map(without_times)
            .collect::<Vec<_>>()
    };
    let before = between(&streamed, f64::NEG_INFINITY, lost_t);
    assert!(
        !before.is_empty(),
        "nothing scored before the drop-out: {streamed:?}"
    );
    assert_eq!(
        before,
        between(&reference, f64::NEG_INFINITY, cut_t),
        "the strokes before the drop-out differ from the file's: stream {streamed:?}, file {reference:?}"
    );
    assert_eq!(
        between(&streamed, back_t, f64::INFINITY),
        between(&reference, cut_t, f64::INFINITY),
        "the strokes after the drop-out differ from the file's: stream {streamed:?}, file {reference:?}"
    );
    assert!(out.join("boardlog.json").is_file());
}
