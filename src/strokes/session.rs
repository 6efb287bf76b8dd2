//! A clip in, a stroke log out: the stages composed in one direction,
//! `Frame → Rectified → Detections → Tracks → strokes`, with decoding and
//! the warp to the top view on their own thread so they overlap the vision
//! work, and the rules engine alongside to check the pieces seen before
//! each stroke against the laws.

use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc};
use std::thread;

use nalgebra::Point2;
use opencv::core::{Mat, Point, Scalar};
use opencv::imgproc;
use opencv::prelude::*;
use thiserror::Error;

use super::flights::FrameWatch;
use super::machine::{SeenCount, SeenStroke, StrokeMachine, StrokeMachineOptions, VisionNote};
use super::prints::{CameraLook, PrintAudit};
use super::tracks_out::{TracksWriteError, TracksWriter};
use crate::contract::{
    Event, MatchSetup, RuleSet, Stage, StrokeLog, STROKE_LOG_FORMAT, STROKE_LOG_VERSION,
};
use crate::detect::colours::ColourModelError;
use crate::detect::flight::{frame_shows_a_black, FrameSighting};
use crate::detect::shake::{ShakeMeter, Shift};
use crate::detect::unchanged::UnchangedFrames;
use crate::detect::{
    BoardCamera, ColourModels, DetectError, Detection, Detections, Detector, DetectorOptions,
    Frame, FrameReader, Occluder, OcclusionCause, Rectified, TopView, TopViewError, VideoError,
};
use crate::geometry::spec::POCKET_RADIUS_MM;
use crate::geometry::{nearest_pocket, seat_markings, take_piece, Piece, Seat};
use crate::rules::Engine;
use crate::sim::video::{ClipWriter, VideoError as WriterError};
use crate::track::{TrackEvent, TrackFrame, Tracker, TrackerOptions};

/// Frames decoded ahead of the vision work: enough to ride out the second
/// or so in which a stroke's frames cost the vision thread more than the
/// decoder takes to make them, so neither waits on the other while the two
/// cores have work (four left a core idle a tenth of the time), and few
/// enough that memory stays flat (each holds a camera frame and its top
/// view: about 3 MB at 720p).
const DECODE_AHEAD: usize = 16;

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
    /// The tracks file could not be written.
    #[error(transparent)]
    Tracks(#[from] TracksWriteError),
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
    /// Write every frame's tracks here as JSON Lines.
    pub tracks: Option<PathBuf>,
    /// Decode on a thread of its own, ahead of the vision work. Faster for
    /// one clip; a batch that already keeps every core busy with clips turns
    /// it off, since handing frames between threads costs CPU time it needs.
    pub decode_ahead: bool,
    /// Pass over frames that show nothing new since the last one looked at
    /// in full (see [`crate::detect::unchanged`]): they are not warped or
    /// searched, and the last frame's discs stand for theirs. Off, every
    /// frame is looked at in full (slower; for comparison).
    pub pass_over_unchanged: bool,
}

impl Default for SessionOptions {
    fn default() -> SessionOptions {
        SessionOptions {
            px_per_mm: 0.5,
            detector: DetectorOptions::default(),
            tracker: TrackerOptions::default(),
            machine: StrokeMachineOptions::default(),
            overlay: None,
            tracks: None,
            decode_ahead: true,
            pass_over_unchanged: true,
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
    /// Of those, the frames passed over as unchanged (see
    /// [`SessionOptions::pass_over_unchanged`]).
    pub passed_over: u64,
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

/// The match a clip shows when none is given and strokes are seen played
/// from all sides: doubles, the players at `first_seat` and across from it
/// partners, who breaks.
pub fn default_doubles_setup(first_seat: Seat) -> MatchSetup {
    let seats: Vec<Seat> = std::iter::successors(Some(first_seat), |seat| Some(seat.next()))
        .take(Seat::TURN_ORDER.len())
        .collect();
    MatchSetup {
        event: Event::Doubles,
        players: seats.iter().map(|s| s.name().to_string()).collect(),
        seats: seats.iter().map(|&s| (s, s.name().to_string())).collect(),
        ..default_setup(first_seat)
    }
}

/// The match `assumed` (the default singles, none given) turned doubles,
/// where it leaves `played` empty though a stroke was surely played from
/// there (see [`StrokeMachine::seat_surely_played`]); `None` where it seats
/// a player there already, or is not singles.
pub fn doubles_if_played_from(assumed: &MatchSetup, played: Seat) -> Option<MatchSetup> {
    if assumed.event != Event::Singles || assumed.seated().contains(&played) {
        return None;
    }
    Some(default_doubles_setup(assumed.breaker_seat()?))
}

/// The alert that says the match assumed was taken as doubles, by `played`.
pub fn taken_as_doubles(played: Seat, doubles: &MatchSetup) -> String {
    let breaker = doubles.breaker_seat().unwrap_or(played);
    format!(
        "the stroke was played from {}, where the singles match assumed has nobody (its striker seen placed there, or strokes read as from there before): the match is taken as doubles, {} and {} partners (give the match to say who sits where)",
        played.name(),
        breaker.name(),
        breaker.opposite().name()
    )
}

/// Camera pixels converted to BGR round those the top view samples: room
/// for the table moved by a shaken camera (the shake meter finds shifts of
/// a few pixels, [`crate::detect::shake::SEARCH_PX`] at a jolt).
const CONVERTED_MARGIN_PX: i32 = 32;

/// The margin (camera pixels) round the board's part of the frame that is
/// watched for changes: a hand reaching in shows before it covers the
/// top view's edge.
const UNCHANGED_MARGIN_PX: i32 = 8;

/// Tracks a whole clip seen through `camera` and returns its stroke log.
pub fn track_clip(
    video: &Path,
    camera: &dyn BoardCamera,
    setup: Option<MatchSetup>,
    options: &SessionOptions,
) -> Result<ClipOutcome, SessionError> {
    let mut reader = FrameReader::open(video)?;
    let fps = reader.fps();
    let mut clip_tracker =
        ClipTracker::new(camera, options).map_err(|error| error.with_video(video))?;
    // Only the board (and what a shaken camera's moved table may reach) is
    // looked at in BGR; the shake meter reads the decoder's luma.
    reader.convert_only(Some(
        clip_tracker.top_view().source_region(CONVERTED_MARGIN_PX),
    ));
    let mut overlay = match &options.overlay {
        Some(path) => {
            // Video encoders want even sizes; the last odd row and column go.
            let side = (clip_tracker.top_view().frame().side_px() as u32) & !1;
            Some(Overlay::create(path, fps, side)?)
        }
        None => None,
    };

    let mut tracks_out = match &options.tracks {
        Some(path) => Some(TracksWriter::create(path)?),
        None => None,
    };

    let mut referee = Referee::new(setup);
    let mut failure = None;
    let prep = clip_tracker.frame_prep();
    let mut decoded = if options.decode_ahead {
        Decoding::Ahead(DecodeAhead::start(reader, prep))
    } else {
        Decoding::Inline(Box::new((reader, prep, None)))
    };
    while let Some(received) = decoded.next_frame() {
        let mut prepared = match received {
            Ok(prepared) => prepared,
            Err(DecodeError::Video(error)) => {
                failure = Some(SessionError::Video(error));
                break;
            }
            Err(DecodeError::Stage(error)) => {
                failure = Some(error.with_video(video));
                break;
            }
        };
        let step = clip_tracker.push_prepared(&mut prepared);
        decoded.recycle(prepared);
        let step = match step {
            Ok(step) => step,
            Err(error) => {
                failure = Some(error.with_video(video));
                break;
            }
        };
        if let Some(seat) = step.struck {
            let machine = clip_tracker.machine();
            let number = machine.finished().len();
            if machine
                .seat_surely_played()
                .is_some_and(|played| referee.seats_everyone_for(played, number, step.tracks.t))
            {
                clip_tracker.machine_mut().restore_seats_read();
            }
            let in_turn = referee.on_strike(seat, clip_tracker.machine().finished(), &step.tracks);
            if let Some(count) = referee.laws_count() {
                clip_tracker.laws_count_at_strike(count, &step.tracks);
            }
            // The laws' turn order is the best guess at a seat nothing seen
            // showed; the machine takes it only for such a stroke.
            if let Some(in_turn) = in_turn {
                let seated = referee.seated();
                clip_tracker
                    .machine_mut()
                    .struck_in_turn_among(in_turn, &seated);
            }
        }
        if let Some(out) = tracks_out.as_mut() {
            let machine = clip_tracker.machine();
            if let Err(error) = out.write(
                &step.tracks,
                clip_tracker.tracker().tentative(),
                machine.in_motion(),
                machine.finished().len(),
            ) {
                failure = Some(error.into());
                break;
            }
        }
        if let Some(overlay) = overlay.as_mut() {
            let machine = clip_tracker.machine();
            if let Err(error) = overlay.draw(
                clip_tracker.rectified(),
                &step.tracks,
                machine.finished().len(),
                machine.in_motion(),
            ) {
                failure = Some(error);
                break;
            }
        }
    }
    decoded.stop();
    if let Some(out) = tracks_out {
        if let Err(error) = out.finish() {
            failure.get_or_insert(error.into());
        }
    }
    if let Some(overlay) = overlay {
        if let Err(error) = overlay.finish() {
            failure.get_or_insert(error);
        }
    }
    let frames = clip_tracker.frames();
    let passed_over = clip_tracker.frames_passed_over();
    let mut seen = clip_tracker.finish();
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
        passed_over,
        failure,
    })
}

/// Where the frames come from: decoded and warped to the top view ahead, on
/// a thread of their own, or on demand on the caller's thread (see
/// [`SessionOptions::decode_ahead`]).
enum Decoding {
    Ahead(DecodeAhead),
    /// The reader, the first stage, and the last frame handed back, whose
    /// buffers the next frame reuses.
    Inline(Box<(FrameReader, FramePrep, Option<Prepared>)>),
}

/// Why a frame could not be decoded or warped.
enum DecodeError {
    Video(VideoError),
    Stage(StageError),
}

impl Decoding {
    /// The next frame in order, a read error that ended the clip, or `None`
    /// at its end (after an error, too).
    fn next_frame(&mut self) -> Option<Result<Prepared, DecodeError>> {
        match self {
            Decoding::Ahead(ahead) => ahead.frames.recv().ok(),
            Decoding::Inline(inline) => {
                let (reader, prep, spare) = &mut **inline;
                let prepared = spare.take().unwrap_or_else(|| prep.empty_prepared());
                prep.read_and_prepare(reader, prepared)
            }
        }
    }

    fn recycle(&mut self, prepared: Prepared) {
        match self {
            Decoding::Ahead(ahead) => ahead.recycle(prepared),
            Decoding::Inline(inline) => inline.2 = Some(prepared),
        }
    }

    fn stop(self) {
        if let Decoding::Ahead(ahead) = self {
            ahead.stop();
        }
    }
}

/// A clip decoded and warped to the top view on its own thread, a few
/// frames ahead of the vision work; used frames come back for reuse. The
/// warp runs there because the frame is still in that core's cache, and
/// because it leaves the vision thread less to do.
struct DecodeAhead {
    frames: mpsc::Receiver<Result<Prepared, DecodeError>>,
    recycle: mpsc::Sender<Prepared>,
    decoder: thread::JoinHandle<()>,
}

impl DecodeAhead {
    fn start(mut reader: FrameReader, mut prep: FramePrep) -> DecodeAhead {
        let (frames_tx, frames) = mpsc::sync_channel::<Result<Prepared, DecodeError>>(DECODE_AHEAD);
        let (recycle, recycle_rx) = mpsc::channel::<Prepared>();
        let decoder = thread::spawn(move || {
            // The vision work is the critical path, and this thread and the
            // decoder's are ahead of it anyway: they yield to it for a core
            // (their threads share the priority of the thread that opens the
            // decoder, so it is opened again here).
            lower_this_threads_priority();
            if let Err(error) = reader.reopen_decoder_here() {
                let _ = frames_tx.send(Err(DecodeError::Video(error)));
                return;
            }
            loop {
                let prepared = recycle_rx
                    .try_recv()
                    .unwrap_or_else(|_| prep.empty_prepared());
                let Some(result) = prep.read_and_prepare(&mut reader, prepared) else {
                    return;
                };
                let failed = result.is_err();
                if frames_tx.send(result).is_err() || failed {
                    return;
                }
            }
        });
        DecodeAhead {
            frames,
            recycle,
            decoder,
        }
    }

    fn recycle(&self, prepared: Prepared) {
        // The decoder may have finished; a failed send only means no reuse.
        let _ = self.recycle.send(prepared);
    }

    /// Stops decoding (at the clip's end, or early when the channel closes).
    fn stop(self) {
        drop(self.frames);
        let _ = self.decoder.join();
    }
}

/// How much lower than the vision thread's the decoding thread's priority
/// is (`nice` steps; raising it back would need privileges, lowering does
/// not). Measured on 2 cores: the whole run 4–6 % shorter.
const DECODING_NICENESS: i32 = 10;

/// Lowers the calling thread's scheduling priority by
/// [`DECODING_NICENESS`] (Linux gives each thread its own nice value); a
/// refusal only leaves it as it was.
fn lower_this_threads_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: plain system calls on the calling thread's own id.
    unsafe {
        let thread = libc::gettid();
        let now = libc::getpriority(libc::PRIO_PROCESS, thread as libc::id_t);
        libc::setpriority(
            libc::PRIO_PROCESS,
            thread as libc::id_t,
            (now + DECODING_NICENESS).min(19),
        );
    }
}

/// A frame through the first stage: the camera's shift measured and the
/// frame warped to the top view.
pub struct Prepared {
    /// The camera frame.
    pub frame: Frame,
    /// How far the camera's image had moved since the first frame.
    pub shift: Shift,
    /// The frame in the top view; not warped, and holding nothing of this
    /// frame, where it is `unchanged`.
    pub rectified: Rectified,
    /// Nothing in the board's part of the frame changed since the last
    /// frame warped ([`UnchangedFrames`]).
    pub unchanged: bool,
}

/// What the first stage made of a frame: the camera's shift, and whether
/// the frame showed nothing new (then it was not warped).
#[derive(Debug, Clone, Copy)]
pub struct PrepOutcome {
    /// How far the camera's image had moved since the first frame.
    pub shift: Shift,
    /// Nothing in the board's part of the frame changed since the last
    /// frame warped: the top view was left as it was.
    pub unchanged: bool,
}

/// The first stage of every frame (see [`Prepared`]); it keeps the shake
/// meter's state from frame to frame, so one prep sees every frame in order.
pub struct FramePrep {
    top_view: Arc<TopView>,
    shake: ShakeMeter,
    /// `None` where every frame is to be warped.
    unchanged: Option<UnchangedFrames>,
}

impl FramePrep {
    /// The first stage for frames warped to `top_view`; frames that show
    /// nothing new are left unwarped where `pass_over_unchanged`.
    fn new(top_view: Arc<TopView>, pass_over_unchanged: bool) -> FramePrep {
        let unchanged = pass_over_unchanged
            .then(|| UnchangedFrames::new(top_view.source_region(UNCHANGED_MARGIN_PX)));
        FramePrep {
            top_view,
            shake: ShakeMeter::new(),
            unchanged,
        }
    }

    /// Buffers for one frame.
    pub fn empty_prepared(&self) -> Prepared {
        Prepared {
            frame: Frame::empty(),
            shift: Shift::NONE,
            rectified: self.top_view.empty_rectified(),
            unchanged: false,
        }
    }

    /// Measures `frame`'s shift and, unless it shows nothing new, warps it
    /// into `out`.
    pub fn prepare(
        &mut self,
        frame: &Frame,
        out: &mut Rectified,
    ) -> Result<PrepOutcome, StageError> {
        let shift = self.shake.measure_frame(frame).map_err(|source| {
            StageError::TopView(TopViewError::OpenCv {
                action: "measuring the camera's shake",
                source,
            })
        })?;
        let unchanged = self
            .unchanged
            .as_mut()
            .is_some_and(|watch| watch.is_unchanged(frame, shift));
        if !unchanged {
            self.top_view
                .rectify_shifted(frame, shift, out)
                .map_err(StageError::TopView)?;
        }
        Ok(PrepOutcome { shift, unchanged })
    }

    /// Reads the next frame into `prepared`'s buffers and prepares it;
    /// `None` at the clip's end.
    fn read_and_prepare(
        &mut self,
        reader: &mut FrameReader,
        mut prepared: Prepared,
    ) -> Option<Result<Prepared, DecodeError>> {
        match reader.read_into(&mut prepared.frame) {
            Ok(true) => {
                let outcome = self.prepare(&prepared.frame, &mut prepared.rectified);
                // The stages after read the BGR image only: the decoder gets
                // its buffer back now rather than when the frame is reused
                // (frames wait in the queue ahead of the vision work).
                prepared.frame.release_planes();
                Some(
                    outcome
                        .map(|PrepOutcome { shift, unchanged }| Prepared {
                            shift,
                            unchanged,
                            ..prepared
                        })
                        .map_err(DecodeError::Stage),
                )
            }
            Ok(false) => None,
            Err(error) => Some(Err(DecodeError::Video(error))),
        }
    }
}

/// One frame's worth of vision: the tracks, and the seat that struck if a
/// stroke began on this frame.
#[derive(Debug, Clone)]
pub struct FrameStep {
    /// Every track after this frame.
    pub tracks: TrackFrame,
    /// The seat whose strike the stroke machine saw begin on this frame.
    pub struck: Option<Seat>,
}

/// The frame loop's body, shared by [`track_clip`] and `carrom live`: frames
/// pushed one at a time go `Frame → Rectified → Detections → Tracks →
/// strokes`. The caller owns the iteration (a decoded file, or a camera that
/// may drop out) and what happens at each strike.
pub struct ClipTracker {
    options: SessionOptions,
    top_view: Arc<TopView>,
    /// The first stage, for frames pushed whole ([`ClipTracker::push`]).
    prep: FramePrep,
    detector: Detector,
    tracker: Tracker,
    machine: StrokeMachine,
    rectified: Rectified,
    /// The camera image's shift since the first frame (a bumped camera),
    /// as of the last frame.
    shift: Shift,
    /// Frames pushed since the tracker last started (the first seeds it).
    since_seed: u64,
    frames: u64,
    /// Frames passed over as unchanged since the first.
    passed_over: u64,
    /// The latest frame in which the pieces of a stroke under way all lay
    /// still, with the camera's shift then: where the pieces' outlines are
    /// looked for should the clip end there (copied only while a stroke
    /// settles, a few frames a stroke).
    settled: Option<(u64, Shift, Mat)>,
    /// Resting tracks over never-seen board looked for on the camera frame.
    prints: PrintAudit,
    /// The sides of the frame to look over for pieces in flight.
    watch: FrameWatch,
    /// One kind for each piece the laws counted on the board at the last
    /// strike beyond those followed then, not found since.
    unseen: Vec<Piece>,
    /// Whether the break arrangement was seen set out: only then do the
    /// laws' counts, which start from it, count the pieces on this board.
    break_seen: bool,
}

impl ClipTracker {
    /// The stages for frames seen through `camera`.
    pub fn new(
        camera: &dyn BoardCamera,
        options: &SessionOptions,
    ) -> Result<ClipTracker, StageError> {
        let (top_view, detector) = Self::stages_for(camera, options)?;
        let rectified = top_view.empty_rectified();
        let mut machine = StrokeMachine::new(options.machine);
        machine.see_from(camera.viewpoint());
        let top_view = Arc::new(top_view);
        Ok(ClipTracker {
            options: options.clone(),
            prep: FramePrep::new(Arc::clone(&top_view), options.pass_over_unchanged),
            top_view,
            detector,
            tracker: Tracker::new(options.tracker),
            machine,
            rectified,
            shift: Shift::NONE,
            since_seed: 0,
            unseen: Vec::new(),
            break_seen: false,
            frames: 0,
            passed_over: 0,
            settled: None,
            prints: PrintAudit::default(),
            watch: FrameWatch::default(),
        })
    }

    fn stages_for(
        camera: &dyn BoardCamera,
        options: &SessionOptions,
    ) -> Result<(TopView, Detector), StageError> {
        let top_view = TopView::new(camera, options.px_per_mm).map_err(StageError::TopView)?;
        let models = ColourModels::shipped().map_err(StageError::Models)?;
        let detector = Detector::new(top_view.frame(), models, options.detector)
            .map_err(StageError::Detect)?;
        Ok((top_view, detector))
    }

    /// Runs one frame through every stage.
    pub fn push(&mut self, frame: &Frame) -> Result<FrameStep, StageError> {
        let PrepOutcome { shift, unchanged } = self.prep.prepare(frame, &mut self.rectified)?;
        self.push_rectified(frame, shift, unchanged)
    }

    /// A first stage of its own, for another thread to run every frame
    /// through before [`ClipTracker::push_prepared`] (the frames then do
    /// not go through [`ClipTracker::push`]).
    pub fn frame_prep(&self) -> FramePrep {
        FramePrep::new(Arc::clone(&self.top_view), self.options.pass_over_unchanged)
    }

    /// Runs a frame through the first stage already ([`FramePrep`]) through
    /// the rest; its top view is swapped with the last frame's, whose buffer
    /// `prepared` then holds for reuse.
    pub fn push_prepared(&mut self, prepared: &mut Prepared) -> Result<FrameStep, StageError> {
        // An unchanged frame's buffer holds nothing of it: the last top
        // view stays.
        if !prepared.unchanged {
            std::mem::swap(&mut self.rectified, &mut prepared.rectified);
        }
        self.push_rectified(&prepared.frame, prepared.shift, prepared.unchanged)
    }

    /// Whether a frame the first stage found unchanged is passed over: not
    /// while a stroke is under way (pieces may fly off the frame's edge, and
    /// the strike's frames are read closely), nor for the tracker's first.
    fn passes_over_unchanged(&self) -> bool {
        self.since_seed > 0 && !self.machine.in_motion()
    }

    /// Every stage after the top view: `self.rectified` holds `frame`'s,
    /// or where the first stage found it `unchanged`, the last frame's,
    /// which stands for this one's if it is passed over; if not, the frame
    /// is warped now.
    fn push_rectified(
        &mut self,
        frame: &Frame,
        shift: Shift,
        unchanged: bool,
    ) -> Result<FrameStep, StageError> {
        let passed_over = unchanged && self.passes_over_unchanged();
        if passed_over {
            self.top_view.stamp(frame, &mut self.rectified);
        } else if unchanged {
            self.top_view
                .rectify_shifted(frame, shift, &mut self.rectified)
                .map_err(StageError::TopView)?;
        }
        self.shift = shift;
        let watched = if self.machine.in_motion() {
            self.watch.sides()
        } else {
            Vec::new()
        };
        let (tracks, break_set_out, over_the_frame) = process_frame(
            &self.rectified,
            &mut self.detector,
            &mut self.tracker,
            self.since_seed == 0,
            passed_over,
            &watched,
            &mut self.unseen,
        )?;
        self.since_seed += 1;
        self.frames += 1;
        self.passed_over += u64::from(passed_over);
        if break_set_out {
            self.break_seen = true;
            // Pieces lying in the break arrangement: whatever seemed to move
            // before was the board being set out, not a stroke.
            self.machine.setting_out_seen();
        }
        let struck = self.machine.push(&tracks);
        if self.machine.in_motion() {
            self.watch.after(&tracks);
        } else {
            self.watch.clear();
        }
        if !watched.is_empty() {
            let flying = self.watch.in_flight(tracks.t, over_the_frame);
            let black_luma = self.detector.black_luma();
            let hiding_blacks: Vec<Seat> = watched
                .iter()
                .copied()
                .filter(|&side| {
                    self.detector
                        .frame_luma(side)
                        .is_some_and(|luma| !frame_shows_a_black(luma, black_luma))
                })
                .collect();
            self.machine
                .over_the_frame(tracks.t, &watched, &hiding_blacks, &flying);
        }
        if self.machine.in_motion() {
            self.prints.in_the_stroke(&tracks);
        } else {
            self.prints.between_strokes(&tracks);
        }
        if self.machine.settling() {
            let look = CameraLook {
                image: &frame.image,
                top_view: &self.top_view,
                shift,
                rectified: &self.rectified,
            };
            let prints = self
                .prints
                .audit(&look, &tracks, &mut self.detector, &mut self.tracker)
                .map_err(StageError::Detect)?;
            for print in prints {
                self.machine
                    .print_dropped(tracks.t, print.piece, print.alert());
            }
            let mut image = self
                .settled
                .take()
                .map(|(_, _, image)| image)
                .unwrap_or_default();
            frame.image.copy_to(&mut image).map_err(|source| {
                StageError::TopView(TopViewError::OpenCv {
                    action: "keeping the frame the pieces settled in",
                    source,
                })
            })?;
            self.settled = Some((frame.index, shift, image));
        }
        let viewpoint = self.machine.viewpoint();
        let striker_measured = self.machine.striker_measured_mm();
        if let Some(rest) = self.machine.rest_taken_on(frame.index) {
            rest.refine(
                &frame.image,
                &self.top_view,
                shift,
                viewpoint,
                striker_measured,
            );
            self.machine.outlines_looked_at(frame.index);
        }
        Ok(FrameStep { tracks, struck })
    }

    /// The detector: its empty-board model and last foreground, for review.
    pub fn detector(&self) -> &Detector {
        &self.detector
    }

    /// The tracker: the pieces followed, and the discs not yet taken for pieces.
    pub fn tracker(&self) -> &Tracker {
        &self.tracker
    }

    /// The stroke machine: strokes finished so far and whether one is under way.
    pub fn machine(&self) -> &StrokeMachine {
        &self.machine
    }

    /// The stroke machine, to tell it whose turn the laws say it is.
    pub fn machine_mut(&mut self) -> &mut StrokeMachine {
        &mut self.machine
    }

    /// The last frame's top view.
    pub fn rectified(&self) -> &Rectified {
        &self.rectified
    }

    /// The mapping from the camera image to the top view.
    pub fn top_view(&self) -> &TopView {
        &self.top_view
    }

    /// How far the last frame's image had moved since the first (camera shake).
    pub fn shift(&self) -> Shift {
        self.shift
    }

    /// Frames pushed in all.
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// Of those, the frames passed over as unchanged.
    pub fn frames_passed_over(&self) -> u64 {
        self.passed_over
    }

    /// The laws' count of the pieces on the board as a stroke is struck, with
    /// the tracks then: the machine compares its counts with it, and, once
    /// the break arrangement was seen (a clip begun mid-board has no count
    /// of its own to go by), the pieces it counts beyond those followed are
    /// looked for while the board is still (see [`look_again_for_lost_pieces`]).
    pub fn laws_count_at_strike(&mut self, count: SeenCount, tracks: &TrackFrame) {
        self.unseen.clear();
        if self.break_seen {
            let seen = SeenCount::of(&tracks.tracks);
            for (piece, laws, followed) in [
                (Piece::White, count.white, seen.white),
                (Piece::Black, count.black, seen.black),
                (Piece::Queen, u32::from(count.queen), u32::from(seen.queen)),
            ] {
                let beyond = laws.saturating_sub(followed) as usize;
                self.unseen.extend(std::iter::repeat_n(piece, beyond));
            }
        }
        self.machine.laws_count_at_strike(count);
    }

    /// After a gap in the frames: closes the stroke machine (a stroke under
    /// way ends as last seen) and returns its strokes; the tracks are
    /// forgotten and the next frame seeds new ones for a new machine.
    pub fn restart(&mut self) -> Vec<SeenStroke> {
        self.tracker = Tracker::new(self.options.tracker);
        self.prep.shake.reset();
        if let Some(watch) = self.prep.unchanged.as_mut() {
            watch.reset();
        }
        self.since_seed = 0;
        let mut machine = StrokeMachine::new(self.options.machine);
        machine.see_from(self.machine.viewpoint());
        let machine = std::mem::replace(&mut self.machine, machine);
        finish_machine(machine, self.settled.take(), &self.top_view)
    }

    /// The camera moved and was refitted: frames now map through `camera`.
    /// The strokes seen so far stay; the tracks start again from the next frame.
    pub fn remap(&mut self, camera: &dyn BoardCamera) -> Result<(), StageError> {
        let (top_view, detector) = Self::stages_for(camera, &self.options)?;
        self.rectified = top_view.empty_rectified();
        self.top_view = Arc::new(top_view);
        self.prep = self.frame_prep();
        self.detector = detector;
        self.machine.see_from(camera.viewpoint());
        self.tracker = Tracker::new(self.options.tracker);
        self.since_seed = 0;
        Ok(())
    }

    /// Closes a stroke still under way and returns every stroke seen.
    pub fn finish(self) -> Vec<SeenStroke> {
        finish_machine(self.machine, self.settled, &self.top_view)
    }
}

/// Closes `machine`'s stroke under way; one judged at rest in the frame of
/// `settled` (its index, the camera's shift, the image) has its pieces
/// placed by their outlines there, as a stroke coming to rest mid-clip does.
fn finish_machine(
    machine: StrokeMachine,
    settled: Option<(u64, Shift, Mat)>,
    top_view: &TopView,
) -> Vec<SeenStroke> {
    let viewpoint = machine.viewpoint();
    let striker_measured = machine.striker_measured_mm();
    let mut strokes = machine.finish();
    let rest = strokes
        .last_mut()
        .and_then(|stroke| stroke.vision.rest.as_mut());
    if let (Some(rest), Some((index, shift, image))) = (rest, settled) {
        if rest.frame == index && rest.refined == 0 {
            rest.refine(&image, top_view, shift, viewpoint, striker_measured);
        }
    }
    strokes
}

/// A stage failure before the clip's name is attached.
#[derive(Debug, Error)]
pub enum StageError {
    /// A frame could not be rectified.
    #[error("cannot rectify the frames: {0}")]
    TopView(TopViewError),
    /// Detection failed.
    #[error("cannot find the pieces: {0}")]
    Detect(DetectError),
    /// The shipped colour models are broken.
    #[error(transparent)]
    Models(ColourModelError),
}

impl StageError {
    fn with_video(self, video: &Path) -> SessionError {
        let video = video.to_path_buf();
        match self {
            StageError::TopView(source) => SessionError::TopView { video, source },
            StageError::Detect(source) => SessionError::Detect { video, source },
            StageError::Models(source) => SessionError::Models(source),
        }
    }
}

/// One frame through detection and tracking, with a look over the frame's
/// `watched` sides for pieces in flight off the board; a frame
/// `passed_over` as unchanged takes the last frame's discs.
fn process_frame(
    rectified: &Rectified,
    detector: &mut Detector,
    tracker: &mut Tracker,
    first: bool,
    passed_over: bool,
    watched: &[Seat],
    unseen: &mut Vec<Piece>,
) -> Result<(TrackFrame, bool, Vec<FrameSighting>), StageError> {
    let known = tracker.known_discs();
    let detections = if passed_over {
        detector.repeat(rectified, &known)
    } else {
        detector.detect(rectified, &known)
    }
    .map_err(StageError::Detect)?;
    if first || detections.break_arrangement {
        detector.forget_board_for_search();
        detector.forget_start_board();
        unseen.clear();
        return Ok((
            tracker.seed(&detections),
            detections.break_arrangement,
            Vec::new(),
        ));
    }
    let over_the_frame = if watched.is_empty() {
        Vec::new()
    } else {
        detector
            .look_over_the_frame(rectified, watched, &detections.occluders)
            .map_err(StageError::Detect)?
    };
    let mut tracks = tracker.update(&detections);
    detector.keep_start_board();
    look_again_for_pieces_in_motion(rectified, &detections, detector, tracker, &mut tracks)?;
    look_again_for_lost_pieces(
        rectified,
        &detections,
        detector,
        tracker,
        &mut tracks,
        unseen,
    )?;
    Ok((tracks, false, over_the_frame))
}

/// A piece in motion the detector missed this frame (a white over light
/// wood and the base lines) is looked for where its track's course leads,
/// away from the other discs followed and the hands, before its track is
/// given up.
fn look_again_for_pieces_in_motion(
    rectified: &Rectified,
    detections: &Detections,
    detector: &Detector,
    tracker: &mut Tracker,
    tracks: &mut TrackFrame,
) -> Result<(), StageError> {
    let unseen = tracker.unseen_in_motion();
    if unseen.is_empty() {
        return Ok(());
    }
    let accounted: Vec<(Point2<f64>, f64)> = tracker
        .tracks()
        .chain(tracker.tentative())
        .filter(|track| track.seen_this_frame())
        .map(|track| (track.position, track.radius_mm()))
        .collect();
    let hands: Vec<Occluder> = detections
        .occluders
        .iter()
        .filter(|o| o.cause == OcclusionCause::Hand)
        .copied()
        .collect();
    let Some(mut look) = detector
        .look_for_moving(rectified, &accounted, &hands)
        .map_err(StageError::Detect)?
    else {
        return Ok(());
    };
    for (id, sought) in unseen {
        // One disc is one piece: twin tracks of a blurred piece do not both
        // follow it.
        if let Some(detection) = look.find(&sought) {
            if tracker.sighted_in_motion(id, &detection, tracks) {
                look.claim(detection.centre, detection.radius_mm);
            }
        }
    }
    Ok(())
}

/// A piece lost from sight may lie still where it barely differs from the
/// board (a white on light wood): the board is kept from the moment it was
/// lost, and once nothing moves, the detector looks for it against that
/// board, away from the hands over it (`occluders`): the next player's arm
/// reaching for the striker must not keep the pieces lost until it leaves.
///
/// Less often, against the board kept from the start: the resting tracks
/// where it shows bare board are lost (a pale piece knocked off its spot
/// unseen leaves its track holding the spot), and the pieces of the
/// `unseen` kinds (counted by the laws at the last strike beyond those
/// followed) and those lost lately that the kept board did not show are
/// looked for. With nothing to look for, the start board takes in what the
/// model has seen bare since.
fn look_again_for_lost_pieces(
    rectified: &Rectified,
    detections: &Detections,
    detector: &mut Detector,
    tracker: &mut Tracker,
    tracks: &mut TrackFrame,
    unseen: &mut Vec<Piece>,
) -> Result<(), StageError> {
    // A piece at rest stays where it is: a look every few frames finds it
    // as surely as one every frame, for a fraction of the time. Pieces long
    // unfollowed are as long at rest: they are looked for, resting tracks
    // checked and the start board filled in less often still.
    let look = rectified.index.is_multiple_of(LOOK_AGAIN_EVERY_FRAMES) && all_still(tracker);
    let long_look = look && rectified.index.is_multiple_of(LONG_LOOK_EVERY_FRAMES);
    let hand_present = detections.hand_present();
    if long_look && !hand_present {
        let resting: Vec<(u32, Point2<f64>)> = tracker
            .tracks()
            .filter(|track| {
                track.piece != Piece::Striker
                    && nearest_pocket(track.position).1 > BARE_CHECK_POCKET_CLEARANCE_MM
            })
            .map(|track| (track.id.0, track.position))
            .collect();
        let bare = detector
            .bare_under(rectified, &resting)
            .map_err(StageError::Detect)?;
        tracker.drop_bare(&bare, tracks);
    }
    let missing = tracker.missing();
    if missing.is_empty() {
        detector.forget_board_for_search();
    } else {
        let lost_now: Vec<Point2<f64>> = tracks
            .events
            .iter()
            .filter_map(|event| match *event {
                TrackEvent::Vanished { last_seen, .. } => Some(last_seen),
                _ => None,
            })
            .collect();
        if !lost_now.is_empty() {
            detector.keep_board_for_search(&lost_now);
            return Ok(());
        }
    }
    if !look {
        return Ok(());
    }
    if missing.is_empty() && unseen.is_empty() {
        if long_look && !hand_present {
            detector.fill_in_start_board();
        }
        return Ok(());
    }
    let mut accounted: Vec<(Point2<f64>, f64)> = tracker
        .tracks()
        .chain(tracker.tentative())
        .map(|track| (track.position, track.radius_mm()))
        .collect();
    let covered = not_searched(&detections.occluders);
    // The striker is no carromman the search can find by colour.
    let mut still_missing: Vec<Piece> = missing
        .iter()
        .map(|&(piece, _)| piece)
        .filter(|&piece| piece != Piece::Striker)
        .collect();
    if !missing.is_empty() {
        let found = detector
            .search_faint(rectified, &accounted, &covered, &missing)
            .map_err(StageError::Detect)?;
        // Discs the tracker takes for none of the lost are dropped here: the
        // kept board is younger than the start board, and may differ from
        // the bare board for other reasons than a piece.
        tracker.refind(&found, tracks);
        for detection in &found {
            take_piece(&mut still_missing, detection.piece);
            accounted.push((detection.centre, detection.radius_mm));
        }
    }
    if !long_look {
        return Ok(());
    }
    // Against the start board, the pieces lost lately the kept board did
    // not show are looked for too: with every other piece the laws count
    // followed or wanted, one of their kind found there is one of them.
    let wanted: Vec<Piece> = unseen.iter().chain(&still_missing).copied().collect();
    if wanted.is_empty() {
        return Ok(());
    }
    let found = detector
        .search_unseen(rectified, &accounted, &covered, &wanted)
        .map_err(StageError::Detect)?;
    let (long_unseen, lost_lately): (Vec<Detection>, Vec<Detection>) = found
        .into_iter()
        .partition(|detection| take_piece(unseen, detection.piece));
    tracker.adopt(&long_unseen, tracks);
    let not_lost = tracker.refind(&lost_lately, tracks);
    tracker.adopt(&not_lost, tracks);
    Ok(())
}

/// Whether every piece followed, and every disc not yet taken for one,
/// lies still.
fn all_still(tracker: &Tracker) -> bool {
    tracker
        .tracks()
        .chain(tracker.tentative())
        .all(|track| track.speed() < STILL_MM_S)
}

/// A resting track nearer a pocket's centre than this (mm) is not checked
/// against the start board: lost there, it would be taken as pocketed.
const BARE_CHECK_POCKET_CLEARANCE_MM: f64 = 3.0 * POCKET_RADIUS_MM;

/// Where [`look_again_for_lost_pieces`] does not look: under the hands, and
/// along the base lines of each hand's seat, where its player sets the
/// striker down (a pale striker there passes for a lost white).
fn not_searched(occluders: &[Occluder]) -> Vec<Occluder> {
    let lines = occluders.iter().filter_map(|o| {
        let (min, max) = seat_markings(o.enters_from?).zone.bounds();
        Some(Occluder { min, max, ..*o })
    });
    occluders.iter().copied().chain(lines).collect()
}

/// [`look_again_for_lost_pieces`] looks on every this many frames.
const LOOK_AGAIN_EVERY_FRAMES: u64 = 5;

/// [`look_again_for_lost_pieces`] looks for pieces the laws count but no
/// track follows, or fills in the start board, on every this many frames.
const LONG_LOOK_EVERY_FRAMES: u64 = 15;

/// Below this speed (mm/s) every piece counts as still for
/// [`look_again_for_lost_pieces`].
const STILL_MM_S: f64 = 40.0;

/// The rules engine run alongside the vision, to compare what it says is on
/// the board with what the camera sees before each stroke.
struct Referee {
    setup: Option<MatchSetup>,
    /// Whether the setup is only assumed (none was given), and may be
    /// changed by what is seen.
    assumed: bool,
    engine: Option<Engine>,
    played: usize,
    alerts: Vec<(usize, VisionNote)>,
}

impl Referee {
    fn new(setup: Option<MatchSetup>) -> Referee {
        Referee {
            assumed: setup.is_none(),
            setup,
            engine: None,
            played: 0,
            alerts: Vec::new(),
        }
    }

    /// Where the singles match assumed (none given) leaves `played` empty
    /// though stroke `number` (struck at `t`) was surely played from there
    /// (see [`StrokeMachine::seat_surely_played`]): the match is doubles,
    /// played from all four seats, and the laws start again from the first
    /// stroke with it. Whether it changed.
    fn seats_everyone_for(&mut self, played: Seat, number: usize, t: f64) -> bool {
        let Some(doubles) = self
            .setup
            .as_ref()
            .filter(|_| self.assumed)
            .and_then(|setup| doubles_if_played_from(setup, played))
        else {
            return false;
        };
        let message = taken_as_doubles(played, &doubles);
        self.setup = Some(doubles);
        self.assumed = false;
        self.engine = None;
        self.played = 0;
        self.alerts.push((number, VisionNote { t, message }));
        true
    }

    /// Called when stroke number `finished.len()` has just been struck:
    /// every earlier stroke is final, so the engine plays them and its
    /// board is compared with the pieces seen now. Returns the seat whose
    /// turn it is by the laws, once a stroke has been played.
    fn on_strike(
        &mut self,
        seat: Seat,
        finished: &[SeenStroke],
        tracks: &TrackFrame,
    ) -> Option<Seat> {
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
                    return None;
                }
            }
        }
        let engine = self.engine.as_mut()?;
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
                return None;
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
        (self.played > 0).then(|| engine.next_seat()).flatten()
    }

    /// The pieces the laws have on the board after the strokes played so
    /// far, once the engine keeps the score.
    fn laws_count(&self) -> Option<SeenCount> {
        Some(self.engine.as_ref()?.on_board().into())
    }

    /// The seats players sit at, once the match is set up.
    fn seated(&self) -> Vec<Seat> {
        self.setup
            .as_ref()
            .map(MatchSetup::seated)
            .unwrap_or_default()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::OcclusionCause;
    use crate::geometry::spec::{
        BASE_BAND_FAR_EDGE_FROM_CENTRE_MM, BASE_BAND_NEAR_EDGE_FROM_CENTRE_MM,
    };

    #[test]
    fn a_stroke_surely_played_from_a_seat_the_assumed_singles_leaves_empty_makes_it_doubles() {
        let mut referee = Referee::new(None);
        referee.setup = Some(default_setup(Seat::West));
        assert!(!referee.seats_everyone_for(Seat::East, 1, 6.5));
        assert!(referee.seats_everyone_for(Seat::South, 1, 6.5));
        let setup = referee.setup.clone().unwrap();
        assert_eq!(setup.event, Event::Doubles);
        assert_eq!(setup.seated().len(), 4);
        assert_eq!(setup.players.len(), 4);
        assert_eq!(setup.seats[&Seat::West], setup.first_breaker);
        assert!(Engine::new(&setup).is_ok());
        assert_eq!(referee.alerts.len(), 1);
        assert_eq!(referee.alerts[0].0, 1);
        assert!(referee.alerts[0].1.message.contains("taken as doubles"));
        // Once only, and never over a match given.
        assert!(!referee.seats_everyone_for(Seat::North, 2, 9.0));
        let mut given = Referee::new(Some(default_setup(Seat::South)));
        assert!(!given.seats_everyone_for(Seat::East, 1, 6.5));
        assert_eq!(given.setup.unwrap().event, Event::Singles);
    }

    #[test]
    fn the_look_again_skips_hands_and_the_base_lines_of_their_seats() {
        let hand = Occluder {
            min: Point2::new(-60.0, 150.0),
            max: Point2::new(20.0, 370.0),
            cause: OcclusionCause::Hand,
            enters_from: Some(Seat::North),
        };
        let unknown = Occluder {
            min: Point2::new(100.0, -50.0),
            max: Point2::new(150.0, 0.0),
            cause: OcclusionCause::UnknownBackground,
            enters_from: None,
        };
        let skipped = not_searched(&[hand, unknown]);
        assert_eq!(skipped.len(), 3, "{skipped:?}");
        assert_eq!(&skipped[..2], &[hand, unknown]);
        let lines = skipped[2];
        // North's band, from one base circle's rim to the other's.
        assert!((lines.min.y - BASE_BAND_FAR_EDGE_FROM_CENTRE_MM).abs() < 1e-9);
        assert!((lines.max.y - BASE_BAND_NEAR_EDGE_FROM_CENTRE_MM).abs() < 1e-9);
        assert!(lines.min.x < -230.0 && lines.max.x > 230.0, "{lines:?}");
        assert_eq!(lines.cause, OcclusionCause::Hand);
    }
}
