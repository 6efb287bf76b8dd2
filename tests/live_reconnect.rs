//! A network camera that drops out mid-match: the test serves a simulated
//! clip as an HTTP MJPEG stream (what many IP cameras send) at its real
//! speed, cuts the connection while the board is still, refuses connections
//! for a while, then streams the rest. `carrom live` must log the drop-out
//! and the reconnection with the gap, and score as many strokes after the
//! gap as it does from the file, moving the same pieces (the gap falls where
//! nothing moves, so no stroke is in it).

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

use live_common::{run, run_ok, sim_clip, strokes_of};

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

/// The middle of the longest run of frames in `truth.tracks.jsonl` where no
/// piece moves and no hand is over the board, after the first stroke.
fn still_frame(truth_tracks: &Path, first_stroke_t: f64) -> usize {
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
            let no_hand = frame["hands"].as_array().is_none_or(Vec::is_empty);
            nothing_moves && no_hand && frame["t"].as_f64().unwrap() > first_stroke_t
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
    assert!(
        best.1 - best.0 >= 2 * STILL_MARGIN,
        "the clip has no still stretch to cut in: {best:?}"
    );
    (best.0 + best.1) / 2
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

/// What a stroke did to the pieces, without its times (the stream's are
/// session-clock seconds) and without who struck: a stream's frame times are
/// arrival times, squeezed whenever the reader falls behind (a loaded
/// machine), and the seat of a strike first seen in motion is read from the
/// striker's path, which those times bend.
fn pieces_moved(stroke: &Value) -> Value {
    let pieces = |list: &str| -> Vec<Value> {
        stroke[list]
            .as_array()
            .map(|items| {
                items
                    .iter()
                    .map(|item| serde_json::json!([item["piece"], item["pocket"]]))
                    .collect()
            })
            .unwrap_or_default()
    };
    serde_json::json!({"pocketed": pieces("pocketed"), "overboard": pieces("overboard")})
}

fn events_of(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn a_stream_that_drops_out_is_reconnected_and_no_stroke_is_lost() {
    let dir = tempfile::tempdir().unwrap();
    let clip = sim_clip(dir.path(), "clip", 3, 10.0);
    let clip_text = clip.to_string_lossy().into_owned();

    // The strokes seen from the file: what the stream must give too.
    let reference_out = dir.path().join("reference");
    run_ok(&[
        "live",
        "--camera",
        &clip_text,
        "--out",
        &reference_out.to_string_lossy(),
    ]);
    let reference = strokes_of(&reference_out.join("strokes.json"));
    let first_t = reference
        .first()
        .and_then(|s| s["t"].as_f64())
        .expect("the clip should have a recognised stroke");

    let (frames, fps) = jpeg_frames(&clip);
    let cut = still_frame(&clip.with_file_name("truth.tracks.jsonl"), first_t);
    let cut_t = cut as f64 / fps;
    assert!(
        reference.iter().any(|s| s["t"].as_f64() < Some(cut_t))
            && reference.iter().any(|s| s["t"].as_f64() > Some(cut_t)),
        "strokes on both sides of the cut at {cut_t:.2} s are needed: {reference:?}"
    );

    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/board.mjpg", listener.local_addr().unwrap());
    serve_with_dropout(listener, frames, fps, cut);
    let out = dir.path().join("stream");
    // After the second drop-out the camera never comes back: the session
    // gives up after --reconnect-for, with everything scored on disk.
    let output = run(&[
        "live",
        "--camera",
        &url,
        "--calibration",
        &clip.with_file_name("camera.json").to_string_lossy(),
        "--reconnect-for",
        "3",
        "--out",
        &out.to_string_lossy(),
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(stderr.contains("giving up"), "{stderr}");

    let events = events_of(&out.join("events.jsonl"));
    let kinds: Vec<&str> = events.iter().filter_map(|e| e["kind"].as_str()).collect();
    assert_eq!(
        kinds,
        ["dropout", "reconnected", "dropout"],
        "events: {events:?}"
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

    // No stroke is lost across the drop-out: after it come as many strokes
    // as the file has after the cut, moving the same pieces. (Before it the
    // stream may read differently from the file: its first frames arrive in
    // a burst while OpenCV probes the stream.)
    let streamed = strokes_of(&out.join("strokes.json"));
    assert!(
        streamed.iter().any(|s| s["t"].as_f64() < Some(lost_t)),
        "nothing scored before the drop-out: {streamed:?}"
    );
    let after = |strokes: &[Value], from: f64| {
        strokes
            .iter()
            .filter(|s| s["t"].as_f64() > Some(from))
            .map(pieces_moved)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        after(&streamed, back_t),
        after(&reference, cut_t),
        "the strokes after the drop-out differ from the file's: stream {streamed:?}, file {reference:?}"
    );
    assert!(out.join("boardlog.json").is_file());
}
