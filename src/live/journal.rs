//! The live session's memory on disk, made so that a crash or Ctrl-C loses
//! nothing already scored and a restart carries on from it:
//!
//! - `strokes.jsonl`: the journal, one stroke per line, appended and synced
//!   to disk as each stroke ends. A later line with the same index replaces
//!   an earlier one (a late pocketing amends the stroke); a torn last line
//!   from a crash mid-write is ignored.
//! - `positions.jsonl`: where the pieces lay after each stroke, the same way.
//! - `events.jsonl`: camera drop-outs, reconnections, recalibrations.
//! - `strokes.json`, `boardlog.json`: the two public documents, rewritten
//!   after every stroke through a temporary file and an atomic rename, so a
//!   reader never sees half a document.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::clock::ClockSummary;
use crate::contract::Stroke;
use crate::report::html::PiecePosition;

/// The stroke journal in the output folder.
pub const JOURNAL_FILE: &str = "strokes.jsonl";
/// Piece positions after each stroke.
pub const POSITIONS_FILE: &str = "positions.jsonl";
/// Drop-outs, reconnections and recalibrations.
pub const EVENTS_FILE: &str = "events.jsonl";
/// What the session watches and when it began (see [`super::SessionInfo`]).
pub const SESSION_FILE: &str = "session.json";

/// The name of the `n`-th refitted calibration (from 1) in the output
/// folder, written when a bumped board is recalibrated.
pub fn recalibration_file(n: u32) -> String {
    format!("calibration-{n}.json")
}

/// The refitted calibrations in `out`, as `(n, path)`, latest last.
pub fn recalibrations(out: &Path) -> Result<Vec<(u32, PathBuf)>, JournalError> {
    let entries = match std::fs::read_dir(out) {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(io_error(out)(error)),
    };
    let mut found = Vec::new();
    for entry in entries {
        let entry = entry.map_err(io_error(out))?;
        let name = entry.file_name();
        let number = name
            .to_str()
            .and_then(|name| name.strip_prefix("calibration-"))
            .and_then(|rest| rest.strip_suffix(".json"))
            .and_then(|n| n.parse::<u32>().ok());
        if let Some(n) = number.filter(|n| recalibration_file(*n) == name.to_string_lossy()) {
            found.push((n, entry.path()));
        }
    }
    found.sort();
    Ok(found)
}

/// Why the journal could not be read or written.
#[derive(Debug, Error)]
pub enum JournalError {
    /// A file in the output folder could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A complete journal line is not a journal record.
    #[error("{} line {line}: {source}", path.display())]
    Corrupt {
        path: PathBuf,
        line: usize,
        source: serde_json::Error,
    },
    /// A record could not be encoded.
    #[error("cannot encode a journal record: {0}")]
    Encode(serde_json::Error),
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> JournalError + '_ {
    move |source| JournalError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// One line of `strokes.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StrokeRecord {
    /// The stroke's index in the match, from 0.
    pub index: usize,
    pub stroke: Stroke,
}

/// One line of `positions.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PositionsRecord {
    /// The stroke after which the pieces lay here.
    pub index: usize,
    pub pieces: Vec<PiecePosition>,
}

/// One line of `events.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EventRecord {
    /// Session time, seconds.
    pub t: f64,
    /// `dropout`, `reconnected`, `recalibrated`, `drift`, `resumed`…
    pub kind: String,
    /// What happened, in words.
    pub message: String,
    /// A file in the output folder the event wrote (a refitted calibration).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// How a camera's or stream's frames were timed (a `timing` event, at
    /// the end of each connected run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timing: Option<ClockSummary>,
}

/// An append-only JSON-lines file, synced after every record.
pub struct AppendLog {
    path: PathBuf,
    file: File,
}

impl AppendLog {
    /// Opens (creating) `path` for appending.
    pub fn open(path: &Path) -> Result<AppendLog, JournalError> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(io_error(path))?;
        Ok(AppendLog {
            path: path.to_path_buf(),
            file,
        })
    }

    /// Appends one record as a line and waits until it is on disk.
    pub fn append<T: Serialize>(&mut self, record: &T) -> Result<(), JournalError> {
        let mut line = serde_json::to_string(record).map_err(JournalError::Encode)?;
        line.push('\n');
        // One write per record: a crash leaves at most one torn last line.
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(io_error(&self.path))
    }
}

/// Reads a JSON-lines file, the last record per index winning. A missing
/// file is empty; an unterminated last line (a write cut short) is dropped.
fn read_lines<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<Vec<T>, JournalError> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(io_error(path)(error)),
    };
    let mut reader = BufReader::new(file);
    let mut records = Vec::new();
    let mut line = String::new();
    let mut number = 0;
    loop {
        line.clear();
        let read = reader.read_line(&mut line).map_err(io_error(path))?;
        if read == 0 {
            break;
        }
        number += 1;
        if !line.ends_with('\n') {
            break;
        }
        if line.trim().is_empty() {
            continue;
        }
        let record = serde_json::from_str(&line).map_err(|source| JournalError::Corrupt {
            path: path.to_path_buf(),
            line: number,
            source,
        })?;
        records.push(record);
    }
    Ok(records)
}

/// The strokes in a journal, by index (the last record for an index wins).
/// Indexes must run 0, 1, 2… without gaps; a gap ends the usable journal.
pub fn read_journal(path: &Path) -> Result<Vec<Stroke>, JournalError> {
    let records: Vec<StrokeRecord> = read_lines(path)?;
    let mut strokes: Vec<Stroke> = Vec::new();
    for record in records {
        match record.index.cmp(&strokes.len()) {
            std::cmp::Ordering::Less => strokes[record.index] = record.stroke,
            std::cmp::Ordering::Equal => strokes.push(record.stroke),
            // A record from beyond a gap cannot be placed; the strokes before it stand.
            std::cmp::Ordering::Greater => break,
        }
    }
    Ok(strokes)
}

/// The session's events (drop-outs, reconnections, recalibrations, frame
/// timing), in the order they happened.
pub fn read_events(path: &Path) -> Result<Vec<EventRecord>, JournalError> {
    read_lines(path)
}

/// The piece positions after each stroke, by stroke index.
pub fn read_positions(path: &Path) -> Result<Vec<Option<Vec<PiecePosition>>>, JournalError> {
    let records: Vec<PositionsRecord> = read_lines(path)?;
    let mut out: Vec<Option<Vec<PiecePosition>>> = Vec::new();
    for record in records {
        if out.len() <= record.index {
            out.resize(record.index + 1, None);
        }
        out[record.index] = Some(record.pieces);
    }
    Ok(out)
}

/// Replaces `path` with `contents` so that readers see the old file or the
/// new one, never a mixture: write a temporary file, sync it, rename it.
pub fn write_atomically(path: &Path, contents: &[u8]) -> Result<(), JournalError> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    let temporary = PathBuf::from(temporary);
    let mut file = File::create(&temporary).map_err(io_error(&temporary))?;
    file.write_all(contents)
        .and_then(|()| file.sync_data())
        .map_err(io_error(&temporary))?;
    std::fs::rename(&temporary, path).map_err(io_error(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stroke(t: f64) -> Stroke {
        serde_json::from_value(serde_json::json!({"seat": "south", "t": t, "touched": true}))
            .unwrap()
    }

    #[test]
    fn later_records_amend_earlier_ones_and_a_torn_line_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(JOURNAL_FILE);
        let mut log = AppendLog::open(&path).unwrap();
        for (index, t) in [(0, 1.0), (1, 2.0), (1, 2.5)] {
            log.append(&StrokeRecord {
                index,
                stroke: stroke(t),
            })
            .unwrap();
        }
        drop(log);
        // A crash in the middle of the next write.
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(br#"{"index":2,"stroke":{"se"#).unwrap();
        let strokes = read_journal(&path).unwrap();
        let times: Vec<_> = strokes.iter().map(|s| s.t).collect();
        assert_eq!(times, vec![Some(1.0), Some(2.5)]);
    }

    #[test]
    fn a_garbled_complete_line_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(JOURNAL_FILE);
        std::fs::write(&path, "not json\n").unwrap();
        let message = read_journal(&path).unwrap_err().to_string();
        assert!(message.contains("line 1"), "{message}");
    }

    #[test]
    fn refitted_calibrations_are_found_in_number_order() {
        let dir = tempfile::tempdir().unwrap();
        for name in [
            recalibration_file(10),
            recalibration_file(2),
            "calibration-02.json".into(),
            "calibration-x.json".into(),
            "board.calibration.json".into(),
        ] {
            std::fs::write(dir.path().join(name), "{}").unwrap();
        }
        let found: Vec<u32> = recalibrations(dir.path())
            .unwrap()
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        assert_eq!(found, vec![2, 10]);
        assert!(recalibrations(&dir.path().join("absent"))
            .unwrap()
            .is_empty());
    }

    #[test]
    fn atomic_writes_leave_no_temporary_behind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("boardlog.json");
        write_atomically(&path, b"one").unwrap();
        write_atomically(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
