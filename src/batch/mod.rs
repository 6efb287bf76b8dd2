//! Many clips scored at once: finding the clips, sharing them out between
//! machines (`--shard i/n`) and threads, scoring each on its own so that one
//! bad clip never stops the others, and summing the outcome up in a table.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::Instant;

use serde::Serialize;
use thiserror::Error;

use crate::contract::{BoardLog, ContractError, StrokeLog};
use crate::eval::{evaluate, EvalOptions};
use crate::live::CameraModel;
use crate::report::html::result_in_words;
use crate::rules::{self, RulesError};
use crate::strokes::{track_clip, SessionError, SessionOptions};

/// The file names that mark a video clip.
const VIDEO_EXTENSIONS: [&str; 6] = ["mp4", "avi", "mkv", "mov", "m4v", "webm"];
/// The camera beside a clip: a simulator camera (as `carrom sim` writes it)
/// or a calibration from `carrom calibrate`.
pub const CAMERA_FILE: &str = "camera.json";
// The truth files the simulator writes beside a clip turn on the accuracy
// columns; the recognised logs go to each clip's output folder.
pub use crate::contract::{BOARD_LOG_FILE as BOARDS_FILE, STROKE_LOG_FILE as STROKES_FILE};
pub use crate::sim::play::{
    BOARD_LOG_FILE as TRUTH_BOARDS_FILE, STROKES_FILE as TRUTH_STROKES_FILE,
};

/// Why clips could not be found, or one clip could not be scored.
#[derive(Debug, Error)]
pub enum BatchError {
    /// A glob pattern is malformed.
    #[error("bad pattern {pattern:?}: {source}")]
    Pattern {
        pattern: String,
        source: glob::PatternError,
    },
    /// An input names nothing.
    #[error("{} is neither a clip, a folder nor a pattern that matches a file", path.display())]
    NoSuchInput { path: PathBuf },
    /// A folder could not be listed.
    #[error("cannot list {}: {source}", path.display())]
    List {
        path: PathBuf,
        source: std::io::Error,
    },
    /// `--shard` is not `i/n` with 1 ≤ i ≤ n.
    #[error("shard {0:?} is not i/n with 1 <= i <= n (e.g. 2/8)")]
    Shard(String),
    /// The camera model beside a clip is missing or broken.
    #[error("cannot read the camera {}: {reason}", path.display())]
    Camera { path: PathBuf, reason: String },
    /// The vision failed on the clip.
    #[error(transparent)]
    Track(#[from] SessionError),
    /// The laws refused the recognised strokes.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// A log could not be read or written.
    #[error(transparent)]
    Contract(#[from] ContractError),
    /// An output folder could not be made.
    #[error("cannot create {}: {source}", path.display())]
    Output {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// One machine's share of a sorted clip list: clips number `index`,
/// `index + count`, … (counted from 1), so shards are equal to within one clip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// This shard, from 1 to `count`.
    pub index: usize,
    /// How many shards the list is cut into.
    pub count: usize,
}

impl FromStr for Shard {
    type Err = BatchError;

    fn from_str(text: &str) -> Result<Shard, BatchError> {
        let bad = || BatchError::Shard(text.to_owned());
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = index.trim().parse().map_err(|_| bad())?;
        let count: usize = count.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// This shard's clips out of the whole sorted list.
    pub fn select<T: Clone>(&self, all: &[T]) -> Vec<T> {
        all.iter()
            .skip(self.index - 1)
            .step_by(self.count)
            .cloned()
            .collect()
    }
}

/// Every clip named by `inputs` (clips, folders searched to any depth, glob
/// patterns), sorted and without repeats, so every machine sees one list.
pub fn find_clips(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, BatchError> {
    let mut clips = BTreeSet::new();
    for input in inputs {
        if input.is_dir() {
            collect_videos(input, &mut clips)?;
        } else if input.is_file() {
            clips.insert(input.clone());
        } else {
            let pattern = input.to_string_lossy();
            let paths = glob::glob(&pattern).map_err(|source| BatchError::Pattern {
                pattern: pattern.to_string(),
                source,
            })?;
            let before = clips.len();
            // Unreadable entries are skipped: they are not clips we can score.
            clips.extend(paths.filter_map(Result::ok).filter(|p| p.is_file()));
            if clips.len() == before {
                return Err(BatchError::NoSuchInput {
                    path: input.clone(),
                });
            }
        }
    }
    Ok(clips.into_iter().collect())
}

fn collect_videos(dir: &Path, into: &mut BTreeSet<PathBuf>) -> Result<(), BatchError> {
    let list_error = |source| BatchError::List {
        path: dir.to_path_buf(),
        source,
    };
    for entry in std::fs::read_dir(dir).map_err(list_error)? {
        let path = entry.map_err(list_error)?.path();
        if path.is_dir() {
            collect_videos(&path, into)?;
        } else if is_video(&path) {
            into.insert(path);
        }
    }
    Ok(())
}

fn is_video(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| VIDEO_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

/// A short name for each clip, unique in the list: its path without the
/// folders all clips share and without the extension, `/` written as `__`
/// (`runs/7/clip.mp4`, `runs/8/clip.mp4` → `7__clip`, `8__clip`).
pub fn clip_names(clips: &[PathBuf]) -> Vec<String> {
    let shared = shared_prefix_len(clips);
    clips
        .iter()
        .map(|clip| {
            let parts: Vec<String> = clip
                .with_extension("")
                .components()
                .skip(shared)
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            parts.join("__")
        })
        .collect()
}

fn shared_prefix_len(clips: &[PathBuf]) -> usize {
    let Some(first) = clips.first() else {
        return 0;
    };
    // A clip's own name is never part of the shared prefix.
    let limit = clips
        .iter()
        .map(|c| c.components().count().saturating_sub(1))
        .min()
        .unwrap_or(0);
    let mut shared = 0;
    for (depth, part) in first.components().enumerate().take(limit) {
        if clips
            .iter()
            .all(|c| c.components().nth(depth) == Some(part))
        {
            shared = depth + 1;
        } else {
            break;
        }
    }
    shared
}

/// How a batch runs.
#[derive(Debug, Clone)]
pub struct BatchOptions {
    /// Clips scored at the same time.
    pub jobs: usize,
    /// Each clip's logs go into a folder of this one, named by [`clip_names`].
    pub out: PathBuf,
    /// The vision settings for every clip.
    pub session: SessionOptions,
    /// The camera (a calibration or a simulator camera) for clips without
    /// their own [`CAMERA_FILE`] beside them: many recordings of one table.
    pub calibration: Option<PathBuf>,
}

/// Accuracy of one clip against the truth beside it (as `carrom eval`).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ClipAccuracy {
    /// Truth strokes.
    pub truth_strokes: usize,
    /// Recognised strokes with every field right.
    pub exactly_right: usize,
    /// `carrom eval`'s exact fraction (missed and extra strokes count against it).
    pub exact_fraction: f64,
    /// Finished truth boards whose recognised result matches, and their number.
    pub boards_right: Option<(usize, usize)>,
}

/// One row of the batch summary.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ClipSummary {
    /// The clip.
    pub clip: PathBuf,
    /// Its short name, and the name of its output folder.
    pub name: String,
    /// Boards finished.
    pub boards: usize,
    /// The score in words (`south 7 – north 0, board 2 in progress`).
    pub result: String,
    /// Strokes recognised.
    pub strokes: usize,
    /// Alerts raised by the laws and the vision.
    pub alerts: usize,
    /// Seconds spent on the clip.
    pub seconds: f64,
    /// Present where a truth stroke log sits beside the clip.
    pub accuracy: Option<ClipAccuracy>,
    /// Why the clip could not be scored (fully); `None` when it was.
    pub error: Option<String>,
}

impl ClipSummary {
    /// The row of a clip not scored yet: nothing counted, no error.
    fn unscored(clip: &Path, name: &str) -> ClipSummary {
        ClipSummary {
            clip: clip.to_path_buf(),
            name: name.to_owned(),
            boards: 0,
            result: String::new(),
            strokes: 0,
            alerts: 0,
            seconds: 0.0,
            accuracy: None,
            error: None,
        }
    }

    /// Whether the clip was scored to its end.
    pub fn ok(&self) -> bool {
        self.error.is_none()
    }
}

/// Scores every clip, `options.jobs` at a time, calling `on_done` as each
/// finishes (from worker threads). A clip that fails is summed up with its
/// error and the others go on. The rows come back in the order of `clips`.
///
/// Each worker takes the next clip from one shared queue, longest (largest
/// file) first, so the batch does not wait at the end on one worker's long
/// clip while the other sits idle.
pub fn run_batch(
    clips: &[PathBuf],
    options: &BatchOptions,
    on_done: &(dyn Fn(&ClipSummary) + Sync),
) -> Vec<ClipSummary> {
    let names = clip_names(clips);
    let mut order: Vec<usize> = (0..clips.len()).collect();
    // An unreadable size sorts last; the clip's own error comes when it is scored.
    order.sort_by_key(|&i| std::cmp::Reverse(std::fs::metadata(&clips[i]).map_or(0, |m| m.len())));
    let next = AtomicUsize::new(0);
    let rows: Mutex<Vec<Option<ClipSummary>>> = Mutex::new(vec![None; clips.len()]);
    let worker = || {
        while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
            let summary = score_one(&clips[i], &names[i], options);
            on_done(&summary);
            // No code panics while holding the lock, so a poisoned one is still whole.
            let mut rows = rows.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            rows[i] = Some(summary);
        }
    };
    thread::scope(|scope| {
        for _ in 1..options.jobs.clamp(1, clips.len().max(1)) {
            scope.spawn(worker);
        }
        worker();
    });
    rows.into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .into_iter()
        .zip(clips.iter().zip(&names))
        .map(|(row, (clip, name))| {
            // Only a worker that panicked leaves a clip without its row.
            row.unwrap_or_else(|| ClipSummary {
                error: Some("the worker scoring this clip stopped".into()),
                ..ClipSummary::unscored(clip, name)
            })
        })
        .collect()
}

fn score_one(clip: &Path, name: &str, options: &BatchOptions) -> ClipSummary {
    let started = Instant::now();
    let mut summary = ClipSummary::unscored(clip, name);
    if let Err(error) = score_into(clip, &options.out.join(name), options, &mut summary) {
        summary.error = Some(error_chain(&error));
    }
    summary.seconds = started.elapsed().as_secs_f64();
    summary
}

fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let _ = write!(text, ": {cause}");
        source = cause.source();
    }
    text
}

/// Tracks one clip, applies the laws, writes both logs into `out` and fills
/// in the summary; the strokes recognised before a failure are still written.
fn score_into(
    clip: &Path,
    out: &Path,
    options: &BatchOptions,
    summary: &mut ClipSummary,
) -> Result<(), BatchError> {
    let camera = camera_for(clip, options.calibration.as_deref())?;
    let outcome = track_clip(clip, &camera, None, &options.session)?;
    std::fs::create_dir_all(out).map_err(|source| BatchError::Output {
        path: out.to_path_buf(),
        source,
    })?;
    let strokes_text = outcome.log.to_json()?;
    let strokes_path = out.join(STROKES_FILE);
    std::fs::write(&strokes_path, strokes_text + "\n").map_err(|source| BatchError::Output {
        path: strokes_path,
        source,
    })?;
    let (boards, skipped) = rules::score_recognised(&outcome.log)?;
    boards.write_to_path(&out.join(BOARDS_FILE))?;
    summary.strokes = outcome.log.strokes.len();
    summary.boards = boards.boards.iter().filter(|b| b.result.is_some()).count();
    summary.result = result_in_words(&boards);
    // A stroke the laws refused is a vision error the user must look at.
    summary.alerts = count_alerts(&outcome.log, &boards) + skipped.len();
    summary.accuracy = accuracy_against_truth(clip, &outcome.log, &boards)?;
    match outcome.failure {
        Some(failure) => Err(failure.into()),
        None => Ok(()),
    }
}

/// The clip's own camera file, else the batch's `--calibration`.
fn camera_for(clip: &Path, shared: Option<&Path>) -> Result<CameraModel, BatchError> {
    let beside = clip.with_file_name(CAMERA_FILE);
    let path = match shared {
        Some(shared) if !beside.exists() => shared.to_path_buf(),
        _ => beside,
    };
    CameraModel::load(&path).map_err(|error| BatchError::Camera {
        reason: error.to_string(),
        path,
    })
}

/// Alerts the laws raised plus the vision's own notes on the strokes.
pub fn count_alerts(strokes: &StrokeLog, boards: &BoardLog) -> usize {
    let from_laws: usize = boards
        .boards
        .iter()
        .flat_map(|b| &b.strokes)
        .map(|s| s.alerts.len())
        .sum();
    let from_vision: usize = strokes
        .strokes
        .iter()
        .filter_map(|s| s.extra.as_ref())
        .filter_map(|extra| extra.pointer("/vision/alerts"))
        .filter_map(|alerts| alerts.as_array())
        .map(Vec::len)
        .sum();
    from_laws + from_vision
}

fn accuracy_against_truth(
    clip: &Path,
    got: &StrokeLog,
    got_boards: &BoardLog,
) -> Result<Option<ClipAccuracy>, BatchError> {
    let truth_path = clip.with_file_name(TRUTH_STROKES_FILE);
    if !truth_path.is_file() {
        return Ok(None);
    }
    let truth = StrokeLog::from_path(&truth_path)?;
    let truth_boards_path = clip.with_file_name(TRUTH_BOARDS_FILE);
    let truth_boards = if truth_boards_path.is_file() {
        Some(BoardLog::from_path(&truth_boards_path)?)
    } else {
        None
    };
    let report = evaluate(
        &truth,
        got,
        truth_boards.as_ref().map(|t| (t, got_boards)),
        EvalOptions::default(),
    );
    Ok(Some(ClipAccuracy {
        truth_strokes: report.truth_strokes,
        exactly_right: report.exactly_right,
        exact_fraction: report.exact_fraction,
        boards_right: report.boards_right(),
    }))
}

/// The summary as an aligned text table, one row per clip and a total row.
pub fn summary_table(rows: &[ClipSummary]) -> String {
    let header = [
        "clip", "boards", "strokes", "alerts", "seconds", "accuracy", "result",
    ];
    let mut table: Vec<[String; 7]> = vec![header.map(str::to_owned)];
    for row in rows {
        table.push([
            row.name.clone(),
            row.boards.to_string(),
            row.strokes.to_string(),
            row.alerts.to_string(),
            format!("{:.1}", row.seconds),
            accuracy_cell(row.accuracy.as_ref()),
            match &row.error {
                Some(error) => format!("FAILED: {error}"),
                None => row.result.clone(),
            },
        ]);
    }
    let widths: Vec<usize> = (0..header.len())
        .map(|c| {
            table
                .iter()
                .map(|r| r[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in &table {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (cell, width))| {
                // The last column is free text: no padding after it.
                if c + 1 == header.len() {
                    cell.clone()
                } else {
                    format!("{cell:<width$}")
                }
            })
            .collect();
        let _ = writeln!(out, "{}", cells.join("  "));
    }
    let failed = rows.iter().filter(|r| !r.ok()).count();
    let seconds: f64 = rows.iter().map(|r| r.seconds).sum();
    let _ = writeln!(
        out,
        "{} clips, {} scored, {failed} failed, {seconds:.1} s of work",
        rows.len(),
        rows.len() - failed
    );
    out
}

fn accuracy_cell(accuracy: Option<&ClipAccuracy>) -> String {
    match accuracy {
        None => "-".to_owned(),
        Some(a) => {
            let boards = match a.boards_right {
                Some((right, total)) => format!(", boards {right}/{total}"),
                None => String::new(),
            };
            format!(
                "{:.0}% ({}/{}){boards}",
                100.0 * a.exact_fraction,
                a.exactly_right,
                a.truth_strokes
            )
        }
    }
}

/// The summary as CSV (RFC 4180 quoting), one row per clip.
pub fn summary_csv(rows: &[ClipSummary]) -> String {
    let mut out = String::from(
        "clip,boards,result,strokes,alerts,seconds,exact_fraction,exactly_right,truth_strokes,boards_right,boards_truth,error\n",
    );
    for row in rows {
        let accuracy = row.accuracy.as_ref();
        let optional = |value: Option<String>| value.unwrap_or_default();
        let fields = [
            row.clip.display().to_string(),
            row.boards.to_string(),
            row.result.clone(),
            row.strokes.to_string(),
            row.alerts.to_string(),
            format!("{:.3}", row.seconds),
            optional(accuracy.map(|a| format!("{:.4}", a.exact_fraction))),
            optional(accuracy.map(|a| a.exactly_right.to_string())),
            optional(accuracy.map(|a| a.truth_strokes.to_string())),
            optional(
                accuracy
                    .and_then(|a| a.boards_right)
                    .map(|b| b.0.to_string()),
            ),
            optional(
                accuracy
                    .and_then(|a| a.boards_right)
                    .map(|b| b.1.to_string()),
            ),
            row.error.clone().unwrap_or_default(),
        ];
        let quoted: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
        let _ = writeln!(out, "{}", quoted.join(","));
    }
    out
}

fn csv_field(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_list() {
        let all: Vec<usize> = (0..10).collect();
        let mut seen = Vec::new();
        for index in 1..=3 {
            let shard: Shard = format!("{index}/3").parse().unwrap();
            seen.extend(shard.select(&all));
        }
        seen.sort_unstable();
        assert_eq!(seen, all);
        let second: Shard = "2/3".parse().unwrap();
        assert_eq!(second.select(&all), vec![1, 4, 7]);
    }

    #[test]
    fn bad_shards_are_refused() {
        for text in ["0/3", "4/3", "1", "a/b", "1/0", ""] {
            assert!(text.parse::<Shard>().is_err(), "{text:?} accepted");
        }
    }

    #[test]
    fn clip_names_drop_the_shared_folders_and_stay_unique() {
        let clips = vec![
            PathBuf::from("/data/runs/7/clip.mp4"),
            PathBuf::from("/data/runs/8/clip.mp4"),
        ];
        assert_eq!(clip_names(&clips), vec!["7__clip", "8__clip"]);
        let single = vec![PathBuf::from("/data/match.mp4")];
        assert_eq!(clip_names(&single), vec!["match"]);
    }

    #[test]
    fn folders_are_searched_for_videos_only() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("a/b")).unwrap();
        for name in ["a/b/clip.mp4", "a/x.MKV", "a/notes.txt", "camera.json"] {
            std::fs::write(dir.path().join(name), b"").unwrap();
        }
        let clips = find_clips(&[dir.path().to_path_buf()]).unwrap();
        let names: Vec<_> = clips
            .iter()
            .map(|c| c.strip_prefix(dir.path()).unwrap().to_path_buf())
            .collect();
        assert_eq!(
            names,
            vec![PathBuf::from("a/b/clip.mp4"), PathBuf::from("a/x.MKV")]
        );
        let pattern = dir.path().join("a/*/clip.mp4");
        assert_eq!(find_clips(&[pattern]).unwrap().len(), 1);
        assert!(find_clips(&[dir.path().join("nothing-*.mp4")]).is_err());
    }

    #[test]
    fn csv_quotes_what_needs_quoting() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a, b"), "\"a, b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }
}
