//! The tracks of every frame as JSON Lines (`carrom track --tracks FILE`),
//! shaped like the simulator's `truth.tracks.jsonl` so the two can be lined
//! up frame by frame when a stroke comes out wrong.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::track::{Track, TrackEvent, TrackFrame};

/// One line of the file: a frame's tracks, hands and events.
#[derive(Debug, Serialize)]
struct FrameRow {
    frame: u64,
    t: f64,
    /// Whether the stroke machine has a stroke under way after this frame.
    in_motion: bool,
    /// Strokes finished so far.
    strokes: usize,
    hand_seats: Vec<&'static str>,
    pieces: Vec<PieceRow>,
    /// Discs followed but not (yet) taken for pieces.
    tentative: Vec<PieceRow>,
    events: Vec<EventRow>,
}

#[derive(Debug, Serialize)]
struct PieceRow {
    id: u32,
    kind: &'static str,
    x: f64,
    y: f64,
    vx: f64,
    vy: f64,
    /// Under a hand, or where the board is not known yet.
    hidden: bool,
    /// Matched to a detection in this frame (not only predicted).
    seen: bool,
}

#[derive(Debug, Serialize)]
struct EventRow {
    event: &'static str,
    id: u32,
    kind: &'static str,
    x: f64,
    y: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    found_again: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    speed: Option<f64>,
}

/// Writes one line per frame; errors name the file.
pub struct TracksWriter {
    path: PathBuf,
    out: BufWriter<File>,
}

/// Why the tracks file could not be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot write the tracks file {}", path.display())]
pub struct TracksWriteError {
    /// The file.
    pub path: PathBuf,
    /// Why.
    #[source]
    pub source: std::io::Error,
}

impl TracksWriter {
    /// Creates (or truncates) the file.
    pub fn create(path: &Path) -> Result<TracksWriter, TracksWriteError> {
        let file = File::create(path).map_err(|source| TracksWriteError {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(TracksWriter {
            path: path.to_path_buf(),
            out: BufWriter::new(file),
        })
    }

    /// Appends a frame.
    pub fn write<'t>(
        &mut self,
        frame: &TrackFrame,
        tentative: impl Iterator<Item = &'t Track>,
        in_motion: bool,
        strokes: usize,
    ) -> Result<(), TracksWriteError> {
        let row = FrameRow {
            frame: frame.index,
            t: round3(frame.t),
            in_motion,
            strokes,
            hand_seats: frame.hand_seats.iter().map(|s| s.name()).collect(),
            pieces: frame.tracks.iter().map(piece_row).collect(),
            tentative: tentative.map(piece_row).collect(),
            events: frame.events.iter().map(event_row).collect(),
        };
        let io = |source| TracksWriteError {
            path: self.path.clone(),
            source,
        };
        serde_json::to_writer(&mut self.out, &row).map_err(|e| io(e.into()))?;
        self.out.write_all(b"\n").map_err(io)
    }

    /// Flushes what is buffered.
    pub fn finish(mut self) -> Result<(), TracksWriteError> {
        self.out.flush().map_err(|source| TracksWriteError {
            path: self.path.clone(),
            source,
        })
    }
}

fn piece_row(t: &Track) -> PieceRow {
    PieceRow {
        id: t.id.0,
        kind: t.piece.name(),
        x: round2(t.position.x),
        y: round2(t.position.y),
        vx: round2(t.velocity.x),
        vy: round2(t.velocity.y),
        hidden: t.hidden,
        seen: t.seen_this_frame(),
    }
}

fn event_row(event: &TrackEvent) -> EventRow {
    match *event {
        TrackEvent::Appeared {
            id,
            piece,
            at,
            found_again,
            ..
        } => EventRow {
            event: "appeared",
            id: id.0,
            kind: piece.name(),
            x: round2(at.x),
            y: round2(at.y),
            found_again: found_again.map(|f| f.0),
            speed: None,
        },
        TrackEvent::Vanished {
            id,
            piece,
            last_seen,
            speed,
            ..
        } => EventRow {
            event: "vanished",
            id: id.0,
            kind: piece.name(),
            x: round2(last_seen.x),
            y: round2(last_seen.y),
            found_again: None,
            speed: Some(round2(speed)),
        },
    }
}

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

fn round3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}
