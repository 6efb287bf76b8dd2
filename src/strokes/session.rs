//! A clip in, a stroke log out: the stages composed in one direction,
//! `Frame → Rectified → Detections → Tracks → strokes`, with decoding on its
//! own thread so it overlaps the vision work, and the rules engine alongside
//! to check the pieces seen before each stroke against the laws.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread;

use opencv::core::{Mat, Point, Scalar};
use opencv::imgproc;
use opencv::prelude::*;
use thiserror::Error;

use super::machine::{SeenCount, SeenStroke, StrokeMachine, StrokeMachineOptions, VisionNote};
use crate::contract::{
    Event, MatchSetup, RuleSet, Stage, StrokeLog, STROKE_LOG_FORMAT, STROKE_LOG_VERSION,
};
use crate::detect::colours::ColourModelError;
use crate::detect::{
    BoardCamera, ColourModels, DetectError, Detector, DetectorOptions, Frame, FrameReader,
    Rectified, TopView, TopViewError, VideoError,
};
use crate::geometry::Seat;
use crate::rules::Engine;
use crate::sim::video::{ClipWriter, VideoError as WriterError};
use crate::track::{TrackEvent, TrackFrame, Tracker, TrackerOptions};

/// Frames decoded ahead of the vision work: enough to ride out a slow frame,
/// few enough that memory stays flat.
const DECODE_AHEAD: usize = 4;

/// Why a clip could not be tracked to its end.
#[derive(Debug, Error)]
pub enum SessionError {
    /// Reading the clip failed.
    #[error(transparent)]
    Video(#[from] VideoError),
    /// A frame could not be rectified (e.g. a calibration for another camera).
    #[error("cannot rectify the frames of {}", video.display())]
    TopView {
        /// The clip.
        video: PathBuf,
        /// Why.
        source: TopViewError,
    },
    /// Detection failed (e.g. no board in view).
    #[error("cannot find the pieces in {}", video.display())]
    Detect {
        /// The clip.
        video: PathBuf,
        /// Why.
        source: DetectError,
    },
    /// The shipped colour models are broken.
    #[error(transparent)]
    Models(#[from] ColourModelError),
    /// The review video could not be written.
    #[error("cannot write the review video {}", path.display())]
    Overlay {
        /// The review video.
        path: PathBuf,
        /// Why.
        source: WriterError,
    },
    /// Drawing the review video failed.
    #[error("drawing the review video: {0}")]
    Drawing(#[from] opencv::Error),
}

/// How to track a clip.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionOptions {
    /// Scale of the top view, px/mm (0.5 keeps a 720p clip well ahead of real time).
    pub px_per_mm: f64,
    /// Detector tuning.
    pub detector: DetectorOptions,
    /// Tracker tuning.
    pub tracker: TrackerOptions,
    /// Stroke machine tuning.
    pub machine: StrokeMachineOptions,
    /// Write a review video of the top view with tracks and events here.
    pub overlay: Option<PathBuf>,
}

impl Default for SessionOptions {
    fn default() -> SessionOptions {
        SessionOptions {
            px_per_mm: 0.5,
            detector: DetectorOptions::default(),
            tracker: TrackerOptions::default(),
            machine: StrokeMachineOptions::default(),
            overlay: None,
        }
    }
}

/// What came of tracking a clip: the strokes recognised (always, even when
/// the clip failed part-way) and the failure, if any.
#[derive(Debug)]
pub struct ClipOutcome {
    /// The stroke log of every stroke recognised.
    pub log: StrokeLog,
    /// Frames processed.
    pub frames: u64,
    /// Why tracking stopped early, if it did.
    pub failure: Option<SessionError>,
}

/// The match a clip shows when none is given: singles between the players
/// at `first_seat` and across from it, who breaks.
pub fn default_setup(first_seat: Seat) -> MatchSetup {
    let players = vec![
        first_seat.name().to_string(),
        first_seat.opposite().name().to_string(),
    ];
    MatchSetup {
        event: Event::Singles,
        rules: RuleSet::Icf,
        seats: [
            (first_seat, players[0].clone()),
            (first_seat.opposite(), players[1].clone()),
        ]
        .into(),
        first_breaker: players[0].clone(),
        players,
        stage: Stage::League,
        demand_extra_points: false,
        time_limit: false,
    }
}

/// Tracks a whole clip seen through `camera` and returns its stroke log.
pub fn track_clip(
    video: &Path,
    camera: &dyn BoardCamera,
    setup: Option<MatchSetup>,
    options: &SessionOptions,
) -> Result<ClipOutcome, SessionError> {
    let mut reader = FrameReader::open(video)?;
    let fps = reader.fps();
    let top_view =
        TopView::new(camera, options.px_per_mm).map_err(|source| SessionError::TopView {
            video: video.to_path_buf(),
            source,
        })?;
    let mut detector = Detector::new(top_view.frame(), ColourModels::shipped()?, options.detector)
        .map_err(|source| SessionError::Detect {
            video: video.to_path_buf(),
            source,
        })?;
    let mut overlay = match &options.overlay {
        Some(path) => {
            // Video encoders want even sizes; the last odd row and column go.
            let side = (top_view.frame().side_px() as u32) & !1;
            Some(Overlay::create(path, fps, side)?)
        }
        None => None,
    };

    // Decoding runs ahead on its own thread; used frames come back for reuse.
    let (frames_tx, frames_rx) = mpsc::sync_channel::<Result<Frame, VideoError>>(DECODE_AHEAD);
    let (recycle_tx, recycle_rx) = mpsc::channel::<Frame>();
    let decoder = thread::spawn(move || loop {
        let mut frame = recycle_rx.try_recv().unwrap_or_else(|_| Frame::empty());
        match reader.read_into(&mut frame) {
            Ok(true) => {
                if frames_tx.send(Ok(frame)).is_err() {
                    return;
                }
            }
            Ok(false) => return,
            Err(error) => {
                let _ = frames_tx.send(Err(error));
                return;
            }
        }
    });

    let mut tracker = Tracker::new(options.tracker);
    let mut machine = StrokeMachine::new(options.machine);
    let mut referee = Referee::new(setup);
    let mut rectified = top_view.empty_rectified();
    let mut frames = 0;
    let mut failure = None;
    for received in frames_rx.iter() {
        let frame = match received {
            Ok(frame) => frame,
            Err(error) => {
                failure = Some(SessionError::Video(error));
                break;
            }
        };
        let step = process_frame(
            &frame,
            &top_view,
            &mut rectified,
            &mut detector,
            &mut tracker,
            frames == 0,
        );
        // The decoder may have finished; a failed send only means no reuse.
        let _ = recycle_tx.send(frame);
        let tracks = match step {
            Ok(tracks) => tracks,
            Err(error) => {
                failure = Some(error.with_video(video));
                break;
            }
        };
        frames += 1;
        if let Some(seat) = machine.push(&tracks) {
            referee.on_strike(seat, machine.finished(), &tracks);
        }
        if let Some(overlay) = overlay.as_mut() {
            if let Err(error) = overlay.draw(
                &rectified,
                &tracks,
                machine.finished().len(),
                machine.in_motion(),
            ) {
                failure = Some(error);
                break;
            }
        }
    }
    drop(frames_rx);
    // The decoder stops at the clip's end or when its channel closes.
    let _ = decoder.join();
    if let Some(overlay) = overlay {
        if let Err(error) = overlay.finish() {
            failure.get_or_insert(error);
        }
    }
    let mut seen = machine.finish();
    referee.attach_alerts(&mut seen);
    let first_seat = seen.first().map_or(Seat::South, |s| s.stroke.seat);
    let log = StrokeLog {
        format: STROKE_LOG_FORMAT.to_string(),
        version: STROKE_LOG_VERSION,
        match_setup: referee.setup.unwrap_or_else(|| default_setup(first_seat)),
        strokes: seen.into_iter().map(SeenStroke::into_stroke).collect(),
    };
    Ok(ClipOutcome {
        log,
        frames,
        failure,
    })
}

/// A stage failure before the clip's name is attached.
enum StageError {
    TopView(TopViewError),
    Detect(DetectError),
}

impl StageError {
    fn with_video(self, video: &Path) -> SessionError {
        let video = video.to_path_buf();
        match self {
            StageError::TopView(source) => SessionError::TopView { video, source },
            StageError::Detect(source) => SessionError::Detect { video, source },
        }
    }
}

fn process_frame(
    frame: &Frame,
    top_view: &TopView,
    rectified: &mut Rectified,
    detector: &mut Detector,
    tracker: &mut Tracker,
    first: bool,
) -> Result<TrackFrame, StageError> {
    top_view
        .rectify(frame, rectified)
        .map_err(StageError::TopView)?;
    let known = tracker.known_discs();
    let detections = detector
        .detect(rectified, &known)
        .map_err(StageError::Detect)?;
    Ok(if first || detections.break_arrangement {
        tracker.seed(&detections)
    } else {
        tracker.update(&detections)
    })
}

/// The rules engine run alongside the vision, to compare what it says is on
/// the board with what the camera sees before each stroke.
struct Referee {
    setup: Option<MatchSetup>,
    engine: Option<Engine>,
    played: usize,
    alerts: Vec<(usize, VisionNote)>,
}

impl Referee {
    fn new(setup: Option<MatchSetup>) -> Referee {
        Referee {
            setup,
            engine: None,
            played: 0,
            alerts: Vec::new(),
        }
    }

    /// Called when stroke number `finished.len()` has just been struck:
    /// every earlier stroke is final, so the engine plays them and its
    /// board is compared with the pieces seen now.
    fn on_strike(&mut self, seat: Seat, finished: &[SeenStroke], tracks: &TrackFrame) {
        let stroke_index = finished.len();
        let setup = self
            .setup
            .get_or_insert_with(|| default_setup(seat))
            .clone();
        if self.engine.is_none() {
            match Engine::new(&setup) {
                Ok(engine) => self.engine = Some(engine),
                Err(error) => {
                    self.alerts.push((
                        stroke_index,
                        VisionNote {
                            t: tracks.t,
                            message: format!("the match setup is not playable: {error}"),
                        },
                    ));
                    self.setup = Some(setup);
                    return;
                }
            }
        }
        let Some(engine) = self.engine.as_mut() else {
            return;
        };
        while self.played < finished.len() {
            if let Err(error) = engine.play(&finished[self.played].stroke) {
                self.alerts.push((
                    stroke_index,
                    VisionNote {
                        t: tracks.t,
                        message: format!("the laws refuse stroke {}: {error}", self.played),
                    },
                ));
                self.engine = None;
                return;
            }
            self.played += 1;
        }
        let expected = engine.on_board();
        let seen = SeenCount::of(&tracks.tracks);
        if (seen.white, seen.black, seen.queen) != (expected.white, expected.black, expected.queen)
            && self.played > 0
        {
            self.alerts.push((
                stroke_index,
                VisionNote {
                    t: tracks.t,
                    message: format!(
                        "before this stroke the laws have {} white, {} black, Queen {}, but {} white, {} black, Queen {} are seen{}",
                        expected.white, expected.black, on_off(expected.queen), seen.white, seen.black, on_off(seen.queen),
                        if expected.queen && !seen.queen { " (a Queen on the red centre circle is hard to see)" } else { "" }
                    ),
                },
            ));
        }
    }

    fn attach_alerts(&self, strokes: &mut [SeenStroke]) {
        for (index, note) in &self.alerts {
            if let Some(stroke) = strokes.get_mut(*index) {
                stroke.vision.alerts.push(note.clone());
            }
        }
    }
}

fn on_off(present: bool) -> &'static str {
    if present {
        "on the board"
    } else {
        "off"
    }
}

/// The review video: the top view with each track's identity and the
/// current stroke's number and events.
struct Overlay {
    path: PathBuf,
    writer: ClipWriter,
    canvas: Mat,
    side: i32,
    labels: Vec<(String, u32)>,
}

/// Frames an event label stays on screen.
const LABEL_FRAMES: u32 = 45;

impl Overlay {
    fn create(path: &Path, fps: f64, side: u32) -> Result<Overlay, SessionError> {
        let writer = ClipWriter::create(path, fps, (side, side)).map_err(|source| {
            SessionError::Overlay {
                path: path.to_path_buf(),
                source,
            }
        })?;
        Ok(Overlay {
            path: path.to_path_buf(),
            writer,
            canvas: Mat::default(),
            side: side as i32,
            labels: Vec::new(),
        })
    }

    fn draw(
        &mut self,
        view: &Rectified,
        tracks: &TrackFrame,
        strokes_done: usize,
        moving: bool,
    ) -> Result<(), SessionError> {
        view.image.copy_to(&mut self.canvas)?;
        let frame = view.frame;
        for track in &tracks.tracks {
            let px = frame.board_to_px(track.position);
            let centre = Point::new(px.x.round() as i32, px.y.round() as i32);
            let radius = (track.radius_mm() * frame.px_per_mm).round() as i32;
            let colour = if track.hidden {
                Scalar::new(0.0, 200.0, 255.0, 0.0)
            } else {
                Scalar::new(0.0, 255.0, 0.0, 0.0)
            };
            imgproc::circle(
                &mut self.canvas,
                centre,
                radius,
                colour,
                1,
                imgproc::LINE_AA,
                0,
            )?;
            let label = format!(
                "{}{}",
                track.piece.name().chars().next().unwrap_or('?'),
                track.id.0
            );
            imgproc::put_text(
                &mut self.canvas,
                &label,
                centre + Point::new(radius, -radius),
                imgproc::FONT_HERSHEY_PLAIN,
                0.7,
                colour,
                1,
                imgproc::LINE_AA,
                false,
            )?;
        }
        for event in &tracks.events {
            let text = match event {
                TrackEvent::Appeared { piece, .. } => format!("{piece} appeared"),
                TrackEvent::Vanished { piece, .. } => format!("{piece} gone"),
            };
            self.labels.push((text, LABEL_FRAMES));
        }
        let status = format!(
            "stroke {} {}",
            strokes_done + usize::from(moving),
            if moving { "in motion" } else { "" }
        );
        imgproc::put_text(
            &mut self.canvas,
            &status,
            Point::new(8, 16),
            imgproc::FONT_HERSHEY_PLAIN,
            1.0,
            Scalar::new(255.0, 255.0, 255.0, 0.0),
            1,
            imgproc::LINE_AA,
            false,
        )?;
        for (row, (text, _)) in self.labels.iter().enumerate() {
            imgproc::put_text(
                &mut self.canvas,
                text,
                Point::new(8, 32 + 14 * row as i32),
                imgproc::FONT_HERSHEY_PLAIN,
                0.9,
                Scalar::new(0.0, 255.0, 255.0, 0.0),
                1,
                imgproc::LINE_AA,
                false,
            )?;
        }
        self.labels.retain_mut(|(_, left)| {
            *left -= 1;
            *left > 0
        });
        let even = Mat::roi(
            &self.canvas,
            opencv::core::Rect::new(0, 0, self.side, self.side),
        )?;
        self.writer
            .write(&even.try_clone()?)
            .map_err(|source| SessionError::Overlay {
                path: self.path.clone(),
                source,
            })
    }

    fn finish(self) -> Result<(), SessionError> {
        let path = self.path;
        self.writer
            .finish()
            .map(|_| ())
            .map_err(|source| SessionError::Overlay { path, source })
    }
}
