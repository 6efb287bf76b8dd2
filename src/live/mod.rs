//! Scoring at the table as play goes on: frames from a camera, stream or
//! file go through the same stages as `carrom track`
//! (`Frame → Rectified → Detections → Tracks → strokes`), but every stroke is
//! journaled and scored the moment it ends, so the scoreboard follows the
//! match and a crash loses nothing already scored (see [`journal`]).
//!
//! The frames go through the same [`ClipTracker`] as `carrom track`; the
//! session owns what happens around it: drop-outs, drift and the journal.

pub mod clock;
pub mod journal;
pub mod server;
pub mod source;
pub mod view;

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use nalgebra::{Point2, Point3};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::calibrate::{self, CalibrateError, Calibration, CALIBRATION_FORMAT};
use crate::contract::{
    BoardLog, MatchSetup, Stroke, StrokeLog, STROKE_LOG_FORMAT, STROKE_LOG_VERSION,
};
use crate::detect::{BoardCamera, Frame};
use crate::geometry::Seat;
use crate::report::html::PiecePosition;
use crate::rules::Engine;
use crate::sim::camera::Camera;
use crate::strokes::machine::{SeenCount, SeenStroke};
use crate::strokes::session::{default_setup, doubles_if_played_from, taken_as_doubles};
use crate::strokes::{ClipTracker, SessionOptions, StageError};
use crate::track::TrackFrame;
use clock::Timing;
use journal::{
    read_journal, recalibration_file, recalibrations, write_atomically, AppendLog, EventRecord,
    JournalError, PositionsRecord, StrokeRecord, EVENTS_FILE, JOURNAL_FILE, POSITIONS_FILE,
    SESSION_FILE,
};
use source::{FrameSource, Read, SourceError, SourceSpec};
pub use view::LiveView;

// The stroke log and board log, rewritten after every stroke.
pub use crate::contract::{BOARD_LOG_FILE as BOARDS_FILE, STROKE_LOG_FILE as STROKES_FILE};
/// A replayed file stroke that starts this close to (or before) the last
/// journaled one is the same stroke seen again after a restart.
const DUPLICATE_SLACK_S: f64 = 0.5;
/// How often the board drawing is refreshed between strokes, seconds.
const BOARD_REFRESH_S: f64 = 1.0;
/// A piece moving faster than this (mm/s) keeps the drift check off: one
/// sliding over the markings the check samples would read as the markings
/// moving.
const DRIFT_CHECK_MAX_SPEED_MM_S: f64 = 40.0;
/// First and longest wait between reconnection attempts.
const RECONNECT_FIRST_WAIT: Duration = Duration::from_millis(250);
const RECONNECT_LONGEST_WAIT: Duration = Duration::from_secs(5);

/// Why a live session stopped.
#[derive(Debug, Error)]
pub enum LiveError {
    #[error(transparent)]
    Journal(#[from] JournalError),
    #[error(transparent)]
    Source(#[from] SourceError),
    /// The camera or stream stayed away longer than allowed.
    #[error("{source_name} has delivered no frame for {seconds:.0} s; giving up")]
    GaveUp { source_name: String, seconds: f64 },
    #[error(transparent)]
    Vision(#[from] StageError),
    #[error("the session file {} does not fit: {reason}", path.display())]
    Session { path: PathBuf, reason: String },
    #[error("cannot create {}: {source}", path.display())]
    Output {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot encode a document: {0}")]
    Encode(#[from] crate::contract::ContractError),
}

/// How the camera maps the board: a simulator camera model, or a
/// calibration from `carrom calibrate`, which can also be checked for drift
/// and refitted when the board is bumped.
#[derive(Debug, Clone)]
pub enum CameraModel {
    Simulated(Camera),
    Calibrated(Calibration),
}

impl CameraModel {
    /// Reads either kind of file, telling them apart by the calibration's `format`.
    pub fn load(path: &Path) -> Result<CameraModel, CalibrateError> {
        let text = std::fs::read_to_string(path).map_err(|source| CalibrateError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let parse_error = |source| CalibrateError::Parse {
            path: path.to_path_buf(),
            source,
        };
        let value: serde_json::Value = serde_json::from_str(&text).map_err(parse_error)?;
        if value.get("format").and_then(|f| f.as_str()) == Some(CALIBRATION_FORMAT) {
            Calibration::load(path).map(CameraModel::Calibrated)
        } else {
            serde_json::from_value(value)
                .map(CameraModel::Simulated)
                .map_err(parse_error)
        }
    }
}

impl BoardCamera for CameraModel {
    fn image_point(&self, board: Point2<f64>) -> Option<Point2<f64>> {
        match self {
            CameraModel::Simulated(camera) => camera.image_point(board),
            CameraModel::Calibrated(calibration) => calibration.board_to_image(board),
        }
    }

    fn image_size(&self) -> (u32, u32) {
        match self {
            CameraModel::Simulated(camera) => camera.image_size(),
            CameraModel::Calibrated(c) => (c.image_width, c.image_height),
        }
    }

    fn viewpoint(&self) -> Option<Point3<f64>> {
        match self {
            CameraModel::Simulated(camera) => camera.viewpoint(),
            CameraModel::Calibrated(c) => c.viewpoint(),
        }
    }
}

/// Where a camera or stream session in `out` has refitted a bumped board,
/// its latest refit (`calibration-<n>.json`) when that is newer than
/// `given`: the board stays where it was bumped to across a restart, while
/// a calibration made after the refit wins. A file is replayed from its
/// start, where `given` fits, and is refitted again at the bump.
pub fn calibration_to_carry_on(
    source: &SourceSpec,
    given: &Path,
    out: &Path,
) -> Result<Option<PathBuf>, JournalError> {
    if source.is_file() {
        return Ok(None);
    }
    let Some((_, latest)) = recalibrations(out)?.pop() else {
        return Ok(None);
    };
    let modified = |path: &Path| {
        std::fs::metadata(path)
            .and_then(|m| m.modified())
            .map_err(|source| JournalError::Io {
                path: path.to_path_buf(),
                source,
            })
    };
    Ok((modified(&latest)? >= modified(given)?).then_some(latest))
}

/// `session.json`: what the session watches, when it began and the match,
/// so a restart carries on with the same clock and players.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionInfo {
    pub source: SourceSpec,
    /// When the session first began, seconds since 1970 (camera stroke
    /// times count from here).
    pub started_unix: f64,
    /// The match, once known (given, or the default at the first stroke).
    pub setup: Option<MatchSetup>,
    /// Whether `setup` is only that default (no match given), which the
    /// strokes seen may still turn into doubles.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub setup_assumed: bool,
}

impl SessionInfo {
    /// The video file watched, if it is one.
    pub fn video_file(&self) -> Option<PathBuf> {
        match &self.source {
            SourceSpec::File(path) => Some(path.clone()),
            _ => None,
        }
    }
}

/// How a live session runs.
#[derive(Debug, Clone)]
pub struct LiveOptions {
    pub source: SourceSpec,
    /// Play a file at its real speed.
    pub realtime: bool,
    /// Where the journal and documents go; a folder with a journal is resumed.
    pub out: PathBuf,
    /// The vision settings.
    pub session: SessionOptions,
    /// Give up on a camera or stream after this long without frames.
    pub reconnect_for: Duration,
    /// Check a calibration for drift this often (session seconds) while the
    /// board is still.
    pub drift_check_every_s: f64,
}

/// What a finished session did.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionSummary {
    /// Strokes in the journal at the end.
    pub strokes: usize,
    /// Of which journaled by an earlier run.
    pub resumed: usize,
    /// Frames processed by this run.
    pub frames: u64,
}

fn now_unix() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// The match as journaled so far and everything the outside sees of it.
struct Scoreboard {
    out: PathBuf,
    info: SessionInfo,
    strokes: Vec<Stroke>,
    journal: AppendLog,
    positions: AppendLog,
    events: AppendLog,
    view: LiveView,
}

impl Scoreboard {
    fn open(options: &LiveOptions, setup: Option<MatchSetup>) -> Result<Scoreboard, LiveError> {
        let out = options.out.clone();
        std::fs::create_dir_all(&out).map_err(|source| LiveError::Output {
            path: out.clone(),
            source,
        })?;
        let session_path = out.join(SESSION_FILE);
        let info = match std::fs::read_to_string(&session_path) {
            Ok(text) => {
                let mut info: SessionInfo =
                    serde_json::from_str(&text).map_err(|e| LiveError::Session {
                        path: session_path.clone(),
                        reason: e.to_string(),
                    })?;
                if info.source != options.source {
                    return Err(LiveError::Session {
                        path: session_path,
                        reason: format!(
                            "it records another source ({:?}); use a new --out",
                            info.source
                        ),
                    });
                }
                if setup.is_some() && info.setup.is_none() {
                    info.setup = setup;
                }
                info
            }
            Err(_) => SessionInfo {
                source: options.source.clone(),
                started_unix: now_unix(),
                setup,
                setup_assumed: false,
            },
        };
        let strokes = read_journal(&out.join(JOURNAL_FILE))?;
        let board = Scoreboard {
            journal: AppendLog::open(&out.join(JOURNAL_FILE))?,
            positions: AppendLog::open(&out.join(POSITIONS_FILE))?,
            events: AppendLog::open(&out.join(EVENTS_FILE))?,
            view: LiveView::new(&options.source),
            out,
            info,
            strokes,
        };
        board.save_info()?;
        Ok(board)
    }

    fn save_info(&self) -> Result<(), LiveError> {
        let text = serde_json::to_string_pretty(&self.info).map_err(JournalError::Encode)?;
        write_atomically(&self.out.join(SESSION_FILE), text.as_bytes())?;
        Ok(())
    }

    fn session_seconds(&self) -> f64 {
        (now_unix() - self.info.started_unix).max(0.0)
    }

    fn event(&mut self, t: f64, kind: &str, message: String) -> Result<(), LiveError> {
        self.append_event(EventRecord {
            t,
            kind: kind.to_owned(),
            message,
            file: None,
            timing: None,
        })
    }

    /// Logs an event and shows it on the page among the alerts.
    fn append_event(&mut self, record: EventRecord) -> Result<(), LiveError> {
        self.view.note_event(&record.kind, &record.message);
        self.events.append(&record)?;
        Ok(())
    }

    /// Logs how a camera's or stream's run of frames was timed (nothing for
    /// a file), so a reader that fell behind shows in the log.
    fn timing_event(&mut self, source: &FrameSource) -> Result<(), LiveError> {
        let Some(summary) = source.clock_summary() else {
            return Ok(());
        };
        let how = match summary.timing {
            Timing::SourceStamps => "by the source's timestamps".to_owned(),
            Timing::Arrivals => format!("by arrival at a measured {:.2} fps", summary.fps),
        };
        // For the log only: how frames were timed is no alert for the umpire.
        self.events.append(&EventRecord {
            t: self.session_seconds(),
            kind: "timing".into(),
            message: format!(
                "{} frames timed {how}; read up to {:.2} s late, scored up to {:.2} s late",
                summary.frames, summary.max_behind_s, summary.max_waiting_s
            ),
            file: None,
            timing: Some(summary),
        })?;
        Ok(())
    }

    /// Saves a refitted calibration beside the logs as the next
    /// `calibration-<n>.json`, for checking it and for a restart to carry on
    /// with; returns its file name.
    fn save_recalibration(&mut self, calibration: &Calibration) -> Result<String, LiveError> {
        let n = recalibrations(&self.out)?
            .last()
            .map_or(1, |(latest, _)| latest + 1);
        let name = recalibration_file(n);
        let text = serde_json::to_string_pretty(calibration).map_err(JournalError::Encode)?;
        write_atomically(&self.out.join(&name), (text + "\n").as_bytes())?;
        Ok(name)
    }

    /// Journals stroke `index` (new, or amending an earlier record) and
    /// where the pieces now lie.
    fn record(
        &mut self,
        index: usize,
        stroke: Stroke,
        pieces: Option<Vec<PiecePosition>>,
    ) -> Result<(), LiveError> {
        if self.info.setup.is_none() {
            self.info.setup = Some(default_setup(stroke.seat));
            self.info.setup_assumed = true;
            self.save_info()?;
        }
        self.journal.append(&StrokeRecord {
            index,
            stroke: stroke.clone(),
        })?;
        if index < self.strokes.len() {
            self.strokes[index] = stroke;
        } else {
            self.strokes.push(stroke);
        }
        if let Some(pieces) = pieces {
            self.positions.append(&PositionsRecord {
                index,
                pieces: pieces.clone(),
            })?;
            self.view.set_pieces(pieces);
        }
        self.publish_documents()
    }

    /// As `carrom track` does with no match given: the singles match
    /// assumed turned doubles where a stroke (struck at `t`) was surely
    /// played from a seat it leaves empty (see
    /// [`doubles_if_played_from`]). Whether it changed.
    fn seat_everyone_for(&mut self, played: Seat, t: f64) -> Result<bool, LiveError> {
        let Some(doubles) = self
            .info
            .setup
            .as_ref()
            .filter(|_| self.info.setup_assumed)
            .and_then(|setup| doubles_if_played_from(setup, played))
        else {
            return Ok(false);
        };
        let message = taken_as_doubles(played, &doubles);
        self.info.setup = Some(doubles);
        self.info.setup_assumed = false;
        self.save_info()?;
        self.event(t, "match", message)?;
        self.publish_documents()?;
        Ok(true)
    }

    /// Scores the journal and rewrites both documents and the view.
    fn publish_documents(&mut self) -> Result<(), LiveError> {
        let Some(setup) = self.info.setup.clone() else {
            return Ok(());
        };
        let log = StrokeLog {
            format: STROKE_LOG_FORMAT.to_string(),
            version: STROKE_LOG_VERSION,
            match_setup: setup.clone(),
            strokes: self.strokes.clone(),
        };
        write_atomically(
            &self.out.join(STROKES_FILE),
            (log.to_json()? + "\n").as_bytes(),
        )?;
        let (boards, next_seat, refusal) = score_so_far(&setup, &self.strokes);
        if let Some(boards) = &boards {
            write_atomically(
                &self.out.join(BOARDS_FILE),
                (boards.to_json()? + "\n").as_bytes(),
            )?;
        }
        self.view
            .set_match(&setup, &log, boards.as_ref(), next_seat, refusal);
        Ok(())
    }
}

/// The board log of `strokes` under `setup`, the seat to strike next and,
/// where the laws refuse a stroke, why (the log then stops before it).
fn score_so_far(
    setup: &MatchSetup,
    strokes: &[Stroke],
) -> (
    Option<BoardLog>,
    Option<crate::geometry::Seat>,
    Option<String>,
) {
    let mut engine = match Engine::new(setup) {
        Ok(engine) => engine,
        Err(error) => {
            return (
                None,
                None,
                Some(format!("the match is not playable: {error}")),
            )
        }
    };
    for (index, stroke) in strokes.iter().enumerate() {
        if let Err(error) = engine.play(stroke) {
            return (
                Some(engine.board_log()),
                engine.next_seat(),
                Some(format!("the laws refuse stroke {index}: {error}")),
            );
        }
    }
    (Some(engine.board_log()), engine.next_seat(), None)
}

fn pieces_of(tracks: &TrackFrame) -> Vec<PiecePosition> {
    tracks
        .tracks
        .iter()
        .filter(|t| t.confirmed && !t.hidden)
        .map(|t| PiecePosition {
            piece: t.piece,
            x: t.position.x,
            y: t.position.y,
        })
        .collect()
}

/// This run's strokes and where each went in the match.
struct RunStrokes {
    /// The strokes as last journaled, by this run's numbering.
    seen: Vec<SeenStroke>,
    /// Strokes of stroke machines closed by a drop-out: the current
    /// machine's stroke `i` is this run's stroke `base + i`.
    base: usize,
    /// Each one's index in the match, `None` for a replayed duplicate.
    index: Vec<Option<usize>>,
    /// Alerts raised at the strike of this run's stroke number.
    alerts: Vec<(usize, String)>,
}

/// Runs a live session until the file ends, the camera gives up, or the
/// process is stopped. `publish` is called with the view whenever it changes.
pub fn run_session(
    options: &LiveOptions,
    camera: CameraModel,
    setup: Option<MatchSetup>,
    publish: &mut dyn FnMut(&LiveView),
) -> Result<SessionSummary, LiveError> {
    let mut board = Scoreboard::open(options, setup)?;
    let resumed = board.strokes.len();
    // Strokes of a replayed file up to here are already in the journal.
    let resume_t = board.strokes.iter().rev().find_map(|s| s.t);
    if resumed > 0 {
        board.event(
            board.session_seconds(),
            "resumed",
            format!("carrying on after {resumed} journaled strokes"),
        )?;
        board.publish_documents()?;
    }
    board.view.status = "starting".into();
    publish(&board.view);

    let mut camera = camera;
    let mut vision = ClipTracker::new(&camera, &options.session)?;
    let mut source = FrameSource::open(&options.source, options.realtime, board.session_seconds())?;
    if let (true, Some(t)) = (options.source.is_file(), resume_t) {
        source.catch_up_to(t);
    }
    let mut run = RunStrokes {
        seen: Vec::new(),
        base: 0,
        index: Vec::new(),
        alerts: Vec::new(),
    };
    let mut frame = Frame::empty();
    let mut frames = 0;
    let mut last_board_refresh = f64::NEG_INFINITY;
    let mut last_drift_check = 0.0;
    // Where the pieces were last seen, for a stroke the source's end closes.
    let mut last_tracks: Option<TrackFrame> = None;
    board.view.status = "watching".into();
    publish(&board.view);
    loop {
        let t = match source.read(&mut frame.image)? {
            Read::Frame { t } => t,
            Read::End => break,
            Read::Dropout { lost_at } => {
                // The stroke under way ends as last seen; play in the gap is not seen.
                let closed = vision.restart();
                let last_pieces = last_tracks.take().as_ref().map(pieces_of);
                if sync_strokes_final(
                    &mut board,
                    &closed,
                    last_pieces,
                    &mut run,
                    resume_t,
                    options.source.is_file(),
                )? {
                    publish(&board.view);
                }
                run.base = run.seen.len();
                board.timing_event(&source)?;
                source = reconnect(options, lost_at, &mut board, publish)?;
                continue;
            }
        };
        frame.index = frames;
        frame.t = t;
        frames += 1;
        let step = vision.push(&frame)?;
        let tracks = step.tracks;
        last_tracks = Some(tracks.clone());
        if step.struck.is_some() {
            let played = vision.machine().seat_surely_played();
            if let Some(played) = played {
                if board.seat_everyone_for(played, t)? {
                    // The seats handed to the player in turn go back to the
                    // strokes journaled with them.
                    vision.machine_mut().restore_seats_read();
                    sync_strokes_final(
                        &mut board,
                        vision.machine().finished(),
                        None,
                        &mut run,
                        resume_t,
                        options.source.is_file(),
                    )?;
                }
            }
            let run_index = run.base + vision.machine().finished().len();
            compare_before_strike(&board, &tracks, run_index, &mut run);
            if let Some(on_board) = board.view.on_board {
                vision.laws_count_at_strike(on_board.into(), &tracks);
            }
            // As `carrom track` does: a seat nothing seen showed is the
            // one whose turn it is.
            if let (Some(in_turn), false) = (board.view.next_seat, board.strokes.is_empty()) {
                let seated = board
                    .info
                    .setup
                    .as_ref()
                    .map(MatchSetup::seated)
                    .unwrap_or_default();
                vision.machine_mut().struck_in_turn_among(in_turn, &seated);
            }
        }
        let changed = sync_strokes(
            &mut board,
            vision.machine().finished(),
            &tracks,
            &mut run,
            resume_t,
            options.source.is_file(),
        )?;
        let at_rest = !vision.machine().in_motion() && !tracks.hand_present;
        if changed {
            publish(&board.view);
        } else if at_rest && t - last_board_refresh >= BOARD_REFRESH_S {
            board.view.set_pieces(pieces_of(&tracks));
            last_board_refresh = t;
            publish(&board.view);
        }
        // A hand over the board hides only some of the markings (the check
        // takes their median), and players' hands are over it most of the
        // time: only moving pieces keep the check off. The pieces
        // themselves, not the stroke: a bumped camera makes resting pieces
        // seem to jump, which keeps a stroke from closing for seconds.
        let still = !tracks
            .tracks
            .iter()
            .any(|track| track.confirmed && track.speed() >= DRIFT_CHECK_MAX_SPEED_MM_S);
        if still && t - last_drift_check >= options.drift_check_every_s {
            last_drift_check = t;
            if let Some(refitted) = check_drift(&camera, &frame, t, &mut board)? {
                camera = refitted;
                // The strokes seen so far stay; only the mapping changed.
                vision.remap(&camera)?;
                publish(&board.view);
            }
        }
    }
    let finished = vision.finish();
    let last_pieces = last_tracks.as_ref().map(pieces_of);
    if sync_strokes_final(
        &mut board,
        &finished,
        last_pieces,
        &mut run,
        resume_t,
        options.source.is_file(),
    )? {
        publish(&board.view);
    }
    board.view.status = "finished".into();
    publish(&board.view);
    Ok(SessionSummary {
        strokes: board.strokes.len(),
        resumed,
        frames,
    })
}

/// Before a stroke, the pieces the camera sees should be those the laws
/// left on the board; a difference is an alert for the umpire.
fn compare_before_strike(
    board: &Scoreboard,
    tracks: &TrackFrame,
    run_index: usize,
    run: &mut RunStrokes,
) {
    let Some(expected) = board.view.on_board else {
        return;
    };
    let seen = SeenCount::of(&tracks.tracks);
    if (seen.white, seen.black, seen.queen) != (expected.white, expected.black, expected.queen) {
        run.alerts.push((
            run_index,
            format!(
                "before this stroke the laws have {} white, {} black{}, but {} white, {} black{} are seen",
                expected.white,
                expected.black,
                if expected.queen { " and the Queen" } else { "" },
                seen.white,
                seen.black,
                if seen.queen { " and the Queen" } else { "" }
            ),
        ));
    }
}

/// The contract stroke of a seen stroke, with this run's alerts for it
/// added to its `extra.vision.alerts`.
fn contract_stroke(seen: &SeenStroke, run_index: usize, run: &RunStrokes) -> Stroke {
    let mut stroke = seen.clone().into_stroke();
    let t = stroke.t.unwrap_or(0.0);
    let notes: Vec<serde_json::Value> = run
        .alerts
        .iter()
        .filter(|(i, _)| *i == run_index)
        .map(|(_, message)| serde_json::json!({"t": t, "message": message}))
        .collect();
    if !notes.is_empty() {
        let extra = stroke
            .extra
            .get_or_insert_with(|| serde_json::json!({"vision": {}}));
        if let Some(vision) = extra.get_mut("vision").and_then(|v| v.as_object_mut()) {
            let alerts = vision
                .entry("alerts")
                .or_insert_with(|| serde_json::Value::Array(Vec::new()));
            if let Some(list) = alerts.as_array_mut() {
                list.extend(notes);
            }
        }
    }
    stroke
}

/// Journals strokes that have ended since the last frame, and the last
/// stroke again if a late pocketing changed it. Returns whether anything did.
fn sync_strokes(
    board: &mut Scoreboard,
    finished: &[SeenStroke],
    tracks: &TrackFrame,
    run: &mut RunStrokes,
    resume_t: Option<f64>,
    replaying_file: bool,
) -> Result<bool, LiveError> {
    let mut changed = false;
    // Only the last journaled stroke can still change.
    if let Some(last) = run.seen.len().checked_sub(1) {
        let now = last.checked_sub(run.base).and_then(|i| finished.get(i));
        if let Some(now) = now.filter(|now| **now != run.seen[last]) {
            run.seen[last] = now.clone();
            if let Some(index) = run.index[last] {
                let stroke = contract_stroke(now, last, run);
                board.record(index, stroke, Some(pieces_of(tracks)))?;
            }
            changed = true;
        }
    }
    while run.seen.len() < run.base + finished.len() {
        let run_index = run.seen.len();
        let seen = finished[run_index - run.base].clone();
        let stroke = contract_stroke(&seen, run_index, run);
        let duplicate = replaying_file
            && matches!((stroke.t, resume_t), (Some(t), Some(last)) if t <= last + DUPLICATE_SLACK_S);
        let index = if duplicate {
            None
        } else {
            let index = board.strokes.len();
            board.record(index, stroke, Some(pieces_of(tracks)))?;
            Some(index)
        };
        run.seen.push(seen);
        run.index.push(index);
        changed = true;
    }
    Ok(changed)
}

/// The same when the stroke machine is closed (at the end of the source or a
/// drop-out) with a stroke still under way; the pieces are where the last
/// frame showed them.
fn sync_strokes_final(
    board: &mut Scoreboard,
    finished: &[SeenStroke],
    last_pieces: Option<Vec<PiecePosition>>,
    run: &mut RunStrokes,
    resume_t: Option<f64>,
    replaying_file: bool,
) -> Result<bool, LiveError> {
    let mut changed = false;
    for (machine_index, seen) in finished.iter().enumerate() {
        let run_index = run.base + machine_index;
        let stroke = contract_stroke(seen, run_index, run);
        match run.seen.get(run_index) {
            Some(old) if old == seen => {}
            Some(_) => {
                run.seen[run_index] = seen.clone();
                if let Some(index) = run.index[run_index] {
                    board.record(index, stroke, last_pieces.clone())?;
                    changed = true;
                }
            }
            None => {
                let duplicate = replaying_file
                    && matches!((stroke.t, resume_t), (Some(t), Some(last)) if t <= last + DUPLICATE_SLACK_S);
                let index = if duplicate {
                    None
                } else {
                    let index = board.strokes.len();
                    board.record(index, stroke, last_pieces.clone())?;
                    changed = true;
                    Some(index)
                };
                run.seen.push(seen.clone());
                run.index.push(index);
            }
        }
    }
    Ok(changed)
}

/// Waits for a camera or stream that stopped delivering at `lost_at`
/// (session seconds: the frames read before it may have been scored since)
/// to come back, logging the gap.
fn reconnect(
    options: &LiveOptions,
    lost_at: f64,
    board: &mut Scoreboard,
    publish: &mut dyn FnMut(&LiveView),
) -> Result<FrameSource, LiveError> {
    board.event(
        lost_at,
        "dropout",
        "the camera delivered no frame; reconnecting".into(),
    )?;
    board.view.status = "reconnecting".into();
    publish(&board.view);
    let mut wait = RECONNECT_FIRST_WAIT;
    loop {
        std::thread::sleep(wait);
        let now = board.session_seconds();
        let gap = now - lost_at;
        match FrameSource::open(&options.source, options.realtime, now) {
            Ok(source) => {
                board.event(
                    now,
                    "reconnected",
                    format!(
                        "frames again after a gap of {gap:.1} s (strokes in the gap are not seen)"
                    ),
                )?;
                board.view.status = "watching".into();
                publish(&board.view);
                return Ok(source);
            }
            Err(_) if gap < options.reconnect_for.as_secs_f64() => {
                wait = (wait * 2).min(RECONNECT_LONGEST_WAIT);
            }
            Err(_) => {
                return Err(LiveError::GaveUp {
                    source_name: format!("{:?}", options.source),
                    seconds: gap,
                })
            }
        }
    }
}

/// Checks a calibration against a still frame and refits it when the board
/// or camera has moved. A simulator camera cannot drift.
fn check_drift(
    camera: &CameraModel,
    frame: &Frame,
    t: f64,
    board: &mut Scoreboard,
) -> Result<Option<CameraModel>, LiveError> {
    let CameraModel::Calibrated(calibration) = camera else {
        return Ok(None);
    };
    let report = match calibration.drift_check(&frame.image) {
        Ok(report) => report,
        Err(error) => {
            board.event(t, "drift", format!("drift check failed: {error}"))?;
            return Ok(None);
        }
    };
    if !report.drifted {
        return Ok(None);
    }
    match calibrate::refit(calibration, &frame.image) {
        Ok(refitted) => {
            let file = board.save_recalibration(&refitted)?;
            board.append_event(EventRecord {
                t,
                kind: "recalibrated".into(),
                message: format!(
                    "the board moved (markings {:.1} px off, contrast {:.0}%); recalibrated, saved as {file}",
                    report.median_shift_px,
                    100.0 * report.contrast_ratio
                ),
                file: Some(file),
                timing: None,
            })?;
            Ok(Some(CameraModel::Calibrated(refitted)))
        }
        Err(error) => {
            board.event(
                t,
                "drift",
                format!("the board moved and refitting failed: {error}"),
            )?;
            Ok(None)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// As `carrom track`: with no match given, a stroke surely played from
    /// a seat the singles assumed at the first stroke leaves empty makes
    /// the match doubles, once, and a restart carries that on.
    #[test]
    fn a_stroke_surely_played_from_an_empty_seat_makes_the_assumed_match_doubles() {
        let dir = tempfile::tempdir().unwrap();
        let options = LiveOptions {
            source: SourceSpec::File("match.mp4".into()),
            realtime: false,
            out: dir.path().to_path_buf(),
            session: SessionOptions::default(),
            reconnect_for: Duration::from_secs(1),
            drift_check_every_s: 60.0,
        };
        let mut board = Scoreboard::open(&options, None).unwrap();
        // As a stroke log spells it: the break, from west.
        let break_shot: Stroke =
            serde_json::from_str(r#"{"seat": "west", "t": 2.6, "touched": true}"#).unwrap();
        board.record(0, break_shot, None).unwrap();
        assert!(board.info.setup_assumed);
        assert!(!board.seat_everyone_for(Seat::East, 6.5).unwrap());
        assert!(board.seat_everyone_for(Seat::South, 6.5).unwrap());
        let setup = board.info.setup.clone().unwrap();
        assert_eq!(setup.event, crate::contract::Event::Doubles);
        assert_eq!(setup.seats[&Seat::West], setup.first_breaker);
        assert!(!board.info.setup_assumed);
        assert!(!board.seat_everyone_for(Seat::North, 9.0).unwrap());
        let events = journal::read_events(&dir.path().join(EVENTS_FILE)).unwrap();
        assert!(events
            .iter()
            .any(|e| e.kind == "match" && e.message.contains("taken as doubles")));
        drop(board);
        let reopened = Scoreboard::open(&options, None).unwrap();
        assert_eq!(reopened.info.setup, Some(setup));
        assert!(!reopened.info.setup_assumed);
    }

    #[test]
    fn a_restarted_camera_carries_on_with_a_newer_refit_only() {
        let dir = tempfile::tempdir().unwrap();
        let given = dir.path().join("board.calibration.json");
        let out = dir.path().join("out");
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(&given, "{}").unwrap();
        let camera = SourceSpec::Camera(0);
        assert_eq!(
            calibration_to_carry_on(&camera, &given, &out).unwrap(),
            None
        );

        let old = std::time::SystemTime::now() - Duration::from_secs(60);
        std::fs::File::options()
            .write(true)
            .open(&given)
            .and_then(|f| f.set_modified(old))
            .unwrap();
        let refit = out.join(recalibration_file(1));
        std::fs::write(&refit, "{}").unwrap();
        assert_eq!(
            calibration_to_carry_on(&camera, &given, &out).unwrap(),
            Some(refit.clone())
        );
        // A file is replayed from its start, where the given calibration fits.
        let file = SourceSpec::File("match.mp4".into());
        assert_eq!(calibration_to_carry_on(&file, &given, &out).unwrap(), None);
        // A calibration made after the refit wins.
        std::fs::File::options()
            .write(true)
            .open(&refit)
            .and_then(|f| f.set_modified(old - Duration::from_secs(60)))
            .unwrap();
        assert_eq!(
            calibration_to_carry_on(&camera, &given, &out).unwrap(),
            None
        );
    }
}
