//! Play: simulated players who follow the turn the laws give, set the striker
//! down legally on their base lines, aim with ghost-ball geometry and a
//! seeded error, and strike. What goes back on the board afterwards is the
//! rules engine's decision, never the simulator's.
//!
//! The result is the whole truth of a clip: one [`FrameTruth`] per video
//! frame (pieces and hands), the stroke log of what really happened and the
//! board log the laws make of it.

use std::collections::BTreeMap;
use std::f64::consts::{FRAC_PI_2, PI};
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use nalgebra::{Point2, Vector2};
use rand::RngExt;
use rand_pcg::Pcg64Mcg;
use thiserror::Error;

use crate::contract::{
    BoardLog, ContractError, Event as MatchEvent, MatchSetup, OnBoard, OverboardPiece,
    PocketedPiece, QueenState, RuleSet, Stage, Stroke, StrokeLog, STROKE_LOG_FORMAT,
    STROKE_LOG_VERSION,
};
use crate::geometry::spec::{
    BASE_CIRCLE_CENTRE_ALONG_MM, BASE_CIRCLE_CENTRE_DEPTH_MM, BASE_CIRCLE_RADIUS_MM,
    FRAME_WIDTH_MM, HALF_SURFACE_MM, OUTER_CIRCLE_RADIUS_MM,
};
use crate::geometry::{
    break_arrangement, pocket_centre, rotate_to_seat, rotate_vector_to_seat, segment_distance,
    striker_placement, Piece, Pocket, Seat,
};
use crate::rules::{Engine, RulesError};
use crate::sim::physics::{self, Event, PhysicsConfig, PhysicsError, Table, STRIKER_ID};
use crate::sim::scene::{FrameTruth, HandTruth, PieceState, PieceTruth};
use crate::sim::{seeded_rng, Stream};

/// How long each part of a stroke takes, s: unhurried club play.
mod pace {
    /// A hand reaches from off the board to the striker.
    pub const REACH_S: f64 = 0.6;
    /// The striker is carried to the base line.
    pub const CARRY_S: f64 = 0.6;
    /// The striker is lowered onto the board (or lifted off it).
    pub const SET_DOWN_S: f64 = 0.25;
    /// The hand draws back behind the striker and steadies the aim.
    pub const AIM_S: f64 = 0.7;
    /// The finger flicks forward to the striker.
    pub const FLICK_S: f64 = 0.06;
    /// The hand leaves the board after the strike.
    pub const WITHDRAW_S: f64 = 0.5;
    /// Everyone looks at the board once everything has stopped.
    pub const SETTLE_S: f64 = 0.4;
    /// A hand brings one returned piece to its spot.
    pub const RETURN_PIECE_S: f64 = 0.9;
    /// Between boards: the pieces are gathered up ...
    pub const GATHER_S: f64 = 0.8;
    /// ... and set out again for the break, under a hand.
    pub const ARRANGE_S: f64 = 1.0;
    /// Longest the discs may keep moving after a strike (a safety net: the
    /// friction stops everything within a few seconds).
    pub const MAX_MOTION_S: f64 = 30.0;
}

/// Height a held piece is carried at, mm.
const CARRY_HEIGHT_MM: f64 = 12.0;
/// How far the fingertip draws back behind the striker's edge to aim, mm.
const AIM_DRAWBACK_MM: f64 = 30.0;
/// How far beyond the frame a hand waits off the board, mm.
const HAND_REST_BEYOND_FRAME_MM: f64 = 120.0;
/// Base-line positions tried for the striker, per side of the centre.
const STRIKER_SPOTS_PER_SIDE: i32 = 12;
/// Extra distance a target is sent beyond the pocket centre so it drops, mm.
const POCKET_OVERSHOOT_MM: f64 = 120.0;
/// The sharpest cut a player attempts: cosine of the largest cut angle.
const MIN_CUT_COSINE: f64 = 0.3;
/// How far backwards (towards the player) a player will flick: the smallest
/// cosine between the shot and the seat's forward direction.
const MIN_FORWARD_COSINE: f64 = -0.2;
/// Fraction of the maximum speed for a break.
const BREAK_SPEED_FRACTION: f64 = 0.95;
/// Aim error of the least skilled player (skill 0) and of the best (skill 1), degrees.
const AIM_ERROR_DEG: (f64, f64) = (3.0, 0.25);
/// Relative speed error at skill 0 and at skill 1.
const SPEED_ERROR: (f64, f64) = (0.12, 0.02);
/// Most frames one clip may have (keeps frame numbers in `u32`, and memory sane).
const MAX_FRAMES: usize = 10_000_000;

/// Resolution of positions in the frame truth, mm: far finer than any camera
/// sees, and it keeps `truth.tracks.jsonl` small.
const POSITION_STEP_MM: f64 = 0.01;
/// Resolution of velocities in the frame truth, mm/s.
const VELOCITY_STEP_MM_S: f64 = 0.1;
/// Resolution of hand angles in the frame truth, rad.
const ANGLE_STEP_RAD: f64 = 1e-4;
/// Resolution of frame times, s.
const TIME_STEP_S: f64 = 1e-6;

/// What to play.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayConfig {
    /// Seed for every choice and every bit of physics chance.
    pub seed: u64,
    /// Frames per second of the truth (and the video).
    pub fps: u32,
    /// Boards to finish before stopping.
    pub boards: u32,
    /// Longest clip, s: play stops before a stroke that would end later.
    pub max_seconds: f64,
    /// Players' skill, 0 (wild) to 1 (expert): scales the aim and speed error.
    pub skill: f64,
    /// Singles (south v north) or doubles (all four seats).
    pub event: MatchEvent,
    /// Physical constants.
    pub physics: PhysicsConfig,
}

impl Default for PlayConfig {
    fn default() -> Self {
        PlayConfig {
            seed: 0,
            fps: 30,
            boards: 1,
            max_seconds: 600.0,
            skill: 0.8,
            event: MatchEvent::Singles,
            physics: PhysicsConfig::default(),
        }
    }
}

/// The truth of a simulated clip.
#[derive(Debug, Clone, PartialEq)]
pub struct Simulation {
    /// One per video frame, at `t = frame / fps`.
    pub frames: Vec<FrameTruth>,
    /// What really happened, stroke by stroke.
    pub strokes: StrokeLog,
    /// What the laws make of `strokes`.
    pub board_log: BoardLog,
    /// Boards played to their finish.
    pub boards_finished: u32,
}

/// The stroke log of what really happened, in a clip directory.
pub const STROKES_FILE: &str = "truth.strokes.json";
/// The rules engine's board log of [`STROKES_FILE`], in a clip directory.
pub const BOARD_LOG_FILE: &str = "truth.boardlog.json";
/// One [`FrameTruth`] per line, in frame order, in a clip directory.
pub const TRACKS_FILE: &str = "truth.tracks.jsonl";

/// Why the truth of a clip could not be written or read.
#[derive(Debug, Error)]
pub enum TruthError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("{path}: cannot encode a frame: {source}")]
    Encode {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    #[error("{path} line {line}: not a frame of truth: {source}")]
    BadLine {
        path: PathBuf,
        line: usize,
        #[source]
        source: serde_json::Error,
    },
    #[error(transparent)]
    Contract(#[from] ContractError),
}

impl Simulation {
    /// Writes [`STROKES_FILE`], [`BOARD_LOG_FILE`] and [`TRACKS_FILE`] into
    /// `dir`, which must exist.
    pub fn write_truth(&self, dir: &Path) -> Result<(), TruthError> {
        let strokes_path = dir.join(STROKES_FILE);
        let mut text = self.strokes.to_json()?;
        text.push('\n');
        std::fs::write(&strokes_path, text).map_err(|source| TruthError::Io {
            path: strokes_path,
            source,
        })?;
        self.board_log.write_to_path(&dir.join(BOARD_LOG_FILE))?;
        write_tracks(&dir.join(TRACKS_FILE), &self.frames)
    }
}

/// Writes frames as JSON lines.
pub fn write_tracks(path: &Path, frames: &[FrameTruth]) -> Result<(), TruthError> {
    let io_error = |source| TruthError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut out = BufWriter::new(File::create(path).map_err(io_error)?);
    for frame in frames {
        serde_json::to_writer(&mut out, frame).map_err(|source| TruthError::Encode {
            path: path.to_path_buf(),
            source,
        })?;
        out.write_all(b"\n").map_err(io_error)?;
    }
    out.flush().map_err(io_error)
}

/// Reads a [`TRACKS_FILE`] back.
pub fn read_tracks(path: &Path) -> Result<Vec<FrameTruth>, TruthError> {
    let io_error = |source| TruthError::Io {
        path: path.to_path_buf(),
        source,
    };
    let reader = BufReader::new(File::open(path).map_err(io_error)?);
    let mut frames = Vec::new();
    for (index, line) in reader.lines().enumerate() {
        let line = line.map_err(io_error)?;
        if line.trim().is_empty() {
            continue;
        }
        let frame = serde_json::from_str(&line).map_err(|source| TruthError::BadLine {
            path: path.to_path_buf(),
            line: index + 1,
            source,
        })?;
        frames.push(frame);
    }
    Ok(frames)
}

/// Why a simulation could not be played.
#[derive(Debug, Error)]
pub enum PlayError {
    #[error("fps must be between 1 and 240, not {0}")]
    BadFps(u32),
    #[error("skill must be between 0 and 1, not {0}")]
    BadSkill(f64),
    #[error("max-seconds must be a positive number of seconds, not {0}")]
    BadDuration(f64),
    #[error("boards must be at least 1")]
    NoBoards,
    #[error("the clip would have more than {MAX_FRAMES} frames")]
    TooLong,
    #[error("the physics refused a move: {0}")]
    Physics(#[from] PhysicsError),
    #[error("the rules engine refused stroke {index}: {source}")]
    Rules {
        index: usize,
        #[source]
        source: RulesError,
    },
    #[error("nowhere legal and free on the {seat} base lines for the striker")]
    NoStrikerSpot { seat: Seat },
    #[error("no free spot to put a returned {piece} back")]
    NoRoom { piece: Piece },
    #[error("no {piece} off the board to put back after stroke {index}")]
    NothingToReturn { index: usize, piece: Piece },
    #[error(
        "after stroke {index} the laws say {laws:?} is on the board but the physics has {physics:?}"
    )]
    Disagreement {
        index: usize,
        laws: OnBoard,
        physics: OnBoard,
    },
}

/// Plays a match by the laws until `config.boards` boards are finished, the
/// match is over, or the next stroke would run past `config.max_seconds`.
pub fn simulate(config: &PlayConfig) -> Result<Simulation, PlayError> {
    config.validate()?;
    let setup = match_setup(config);
    let engine = Engine::new(&setup).map_err(|source| PlayError::Rules { index: 0, source })?;
    let mut match_play = MatchPlay {
        config: config.clone(),
        rng: seeded_rng(config.seed, Stream::Play),
        recorder: Recorder {
            table: Table::with_full_set(
                config.physics.clone(),
                seeded_rng(config.seed, Stream::Physics).random(),
            ),
            fps: f64::from(config.fps),
            frames: Vec::new(),
            events: Vec::new(),
        },
        engine,
        strokes: Vec::new(),
    };
    let boards_finished = match_play.run()?;
    Ok(Simulation {
        frames: match_play.recorder.frames,
        board_log: match_play.engine.board_log(),
        strokes: StrokeLog {
            format: STROKE_LOG_FORMAT.to_owned(),
            version: STROKE_LOG_VERSION,
            match_setup: setup,
            strokes: match_play.strokes,
        },
        boards_finished,
    })
}

impl PlayConfig {
    /// Checks the settings (frame rate, skill, duration, boards).
    pub fn validate(&self) -> Result<(), PlayError> {
        let config = self;
        if !(1..=240).contains(&config.fps) {
            return Err(PlayError::BadFps(config.fps));
        }
        if !(0.0..=1.0).contains(&config.skill) {
            return Err(PlayError::BadSkill(config.skill));
        }
        if !(config.max_seconds.is_finite() && config.max_seconds > 0.0) {
            return Err(PlayError::BadDuration(config.max_seconds));
        }
        if config.boards == 0 {
            return Err(PlayError::NoBoards);
        }
        if config.max_seconds * f64::from(config.fps) > MAX_FRAMES as f64 {
            return Err(PlayError::TooLong);
        }
        Ok(())
    }
}

/// The players: singles sit south and north (opposite, as ICF singles are
/// played); doubles partners sit opposite. The first breaker is drawn by seed.
fn match_setup(config: &PlayConfig) -> MatchSetup {
    let mut rng = seeded_rng(config.seed, Stream::Setup);
    let seated: Vec<(Seat, &str)> = match config.event {
        MatchEvent::Singles => vec![(Seat::South, "Asha"), (Seat::North, "Ben")],
        MatchEvent::Doubles => vec![
            (Seat::South, "Asha"),
            (Seat::East, "Ben"),
            (Seat::North, "Chitra"),
            (Seat::West, "Dev"),
        ],
    };
    let first_breaker = seated[rng.random_range(0..seated.len())].1.to_owned();
    MatchSetup {
        event: config.event,
        rules: RuleSet::Icf,
        players: seated.iter().map(|(_, name)| (*name).to_owned()).collect(),
        seats: seated
            .iter()
            .map(|(seat, name)| (*seat, (*name).to_owned()))
            .collect::<BTreeMap<_, _>>(),
        first_breaker,
        stage: Stage::League,
        demand_extra_points: false,
        time_limit: false,
    }
}

/// The physics table and the frames recorded from it. Frame `k` shows the
/// table at `t = k / fps`; the physics then runs on to the next frame time.
struct Recorder {
    table: Table,
    fps: f64,
    frames: Vec<FrameTruth>,
    /// Physics events since the last [`Recorder::take_events`].
    events: Vec<Event>,
}

impl Recorder {
    /// Time of the next frame.
    fn now(&self) -> f64 {
        self.frames.len() as f64 / self.fps
    }

    fn emit(&mut self, hands: Vec<HandTruth>) -> Result<(), PlayError> {
        if self.frames.len() >= MAX_FRAMES {
            return Err(PlayError::TooLong);
        }
        let frame = u32::try_from(self.frames.len()).map_err(|_| PlayError::TooLong)?;
        let pieces = self
            .table
            .truth()
            .into_iter()
            .map(|p| PieceTruth {
                x: round_to(p.x, POSITION_STEP_MM),
                y: round_to(p.y, POSITION_STEP_MM),
                vx: round_to(p.vx, VELOCITY_STEP_MM_S),
                vy: round_to(p.vy, VELOCITY_STEP_MM_S),
                z: round_to(p.z, POSITION_STEP_MM),
                ..p
            })
            .collect();
        let hands = hands
            .into_iter()
            .map(|h| HandTruth {
                x: round_to(h.x, POSITION_STEP_MM),
                y: round_to(h.y, POSITION_STEP_MM),
                arm_angle: round_to(h.arm_angle, ANGLE_STEP_RAD),
            })
            .collect();
        self.frames.push(FrameTruth {
            frame,
            t: round_to(self.now(), TIME_STEP_S),
            pieces,
            hands,
        });
        let events = self.table.advance(1.0 / self.fps);
        self.events.extend(events);
        Ok(())
    }

    /// Frames over `duration` s; `pose` gets the eased progress (0, 1] of each
    /// frame and may move held pieces before it returns the hands to draw.
    fn animate(
        &mut self,
        duration: f64,
        mut pose: impl FnMut(&mut Table, f64) -> Result<Vec<HandTruth>, PlayError>,
    ) -> Result<(), PlayError> {
        let count = (duration * self.fps).round().max(1.0) as u32;
        for i in 1..=count {
            let linear = f64::from(i) / f64::from(count);
            let eased = linear * linear * (3.0 - 2.0 * linear);
            let hands = pose(&mut self.table, eased)?;
            self.emit(hands)?;
        }
        Ok(())
    }

    fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }
}

/// The state of a match being played.
struct MatchPlay {
    config: PlayConfig,
    rng: Pcg64Mcg,
    recorder: Recorder,
    engine: Engine,
    strokes: Vec<Stroke>,
}

/// Where the striker goes and how it is sent.
#[derive(Debug, Clone, Copy)]
struct Shot {
    spot: Point2<f64>,
    velocity: Vector2<f64>,
}

impl MatchPlay {
    /// Plays strokes until a stop condition; returns the boards finished.
    fn run(&mut self) -> Result<u32, PlayError> {
        let mut boards_finished = 0;
        let Some(first) = self.engine.next_seat() else {
            return Ok(0);
        };
        self.set_out_board(first)?;
        while let Some(seat) = self.engine.next_seat() {
            // Play the stroke on copies, and keep it only if it ends in time.
            let saved = (
                self.recorder.table.clone(),
                self.recorder.frames.len(),
                self.rng.clone(),
                self.engine.clone(),
            );
            let finished_before = finished_boards(&self.engine.board_log());
            let stroke = self.play_stroke(seat)?;
            let index = self.strokes.len();
            self.engine
                .play(&stroke)
                .map_err(|source| PlayError::Rules { index, source })?;
            let log = self.engine.board_log();
            let board_over = finished_boards(&log) > finished_before;
            if !board_over {
                self.put_back_returned(index, seat)?;
                self.check_agreement(index)?;
            }
            if self.recorder.now() > self.config.max_seconds {
                let (table, frames, rng, engine) = saved;
                self.recorder.table = table;
                self.recorder.frames.truncate(frames);
                self.recorder.events.clear();
                self.rng = rng;
                self.engine = engine;
                break;
            }
            self.strokes.push(stroke);
            if board_over {
                boards_finished += 1;
                if boards_finished >= self.config.boards || self.engine.is_match_over() {
                    break;
                }
                if let Some(breaker) = self.engine.next_seat() {
                    self.set_out_board(breaker)?;
                }
            }
        }
        Ok(boards_finished)
    }

    /// Gathers every piece and sets out the break arrangement for `breaker`,
    /// with the striker in the breaker's hand.
    fn set_out_board(&mut self, breaker: Seat) -> Result<(), PlayError> {
        let rest = hand_rest(breaker);
        let ids: Vec<u8> = self.recorder.table.discs().iter().map(|d| d.id).collect();
        if self.recorder.frames.is_empty() {
            for &id in &ids {
                self.recorder.table.hold(id, rest, CARRY_HEIGHT_MM)?;
            }
        } else {
            // Pieces leave the board into the players' hands.
            self.recorder.animate(pace::GATHER_S, |table, _| {
                for &id in &ids {
                    let at = table.disc(id)?.position;
                    table.hold(id, at, CARRY_HEIGHT_MM)?;
                }
                Ok(vec![hand_at(Point2::origin(), breaker)])
            })?;
        }
        let mut unplaced: Vec<u8> = ids.iter().copied().filter(|&id| id != STRIKER_ID).collect();
        for placed in break_arrangement(breaker) {
            let (kind, spot) = (placed.piece, placed.centre);
            let position = unplaced
                .iter()
                .position(|&id| self.recorder.table.disc(id).map(|d| d.kind) == Ok(kind))
                .ok_or(PlayError::NoRoom { piece: kind })?;
            let id = unplaced.remove(position);
            self.recorder.table.place(id, spot)?;
        }
        self.recorder
            .table
            .hold(STRIKER_ID, rest, CARRY_HEIGHT_MM)?;
        self.recorder.animate(pace::ARRANGE_S, |_, _| {
            Ok(vec![hand_at(Point2::origin(), breaker)])
        })?;
        Ok(())
    }

    /// Brings the striker to the base line, aims, strikes and records the
    /// stroke once everything is still.
    fn play_stroke(&mut self, seat: Seat) -> Result<Stroke, PlayError> {
        let shot = if self.engine.is_break_pending() {
            self.break_shot(seat)?
        } else {
            self.aimed_shot(seat)?
        };
        self.bring_striker(seat, shot.spot)?;

        let aim = shot.velocity.normalize();
        let radius = self.recorder.table.disc(STRIKER_ID)?.radius;
        let above = shot.spot;
        let drawn_back = shot.spot - aim * (radius + AIM_DRAWBACK_MM);
        let touching = shot.spot - aim * radius;
        self.recorder.animate(pace::AIM_S, |_, p| {
            Ok(vec![hand_at(lerp(above, drawn_back, p), seat)])
        })?;
        self.recorder.animate(pace::FLICK_S, |_, p| {
            Ok(vec![hand_at(lerp(drawn_back, touching, p), seat)])
        })?;

        self.recorder.take_events();
        let t = self.recorder.now();
        self.recorder.table.strike(STRIKER_ID, shot.velocity)?;
        let rest = hand_rest(seat);
        let withdraw_frames = (pace::WITHDRAW_S * self.recorder.fps).round().max(1.0);
        let mut frame = 0.0;
        while !self.recorder.table.is_at_rest() {
            if self.recorder.now() - t > pace::MAX_MOTION_S {
                break;
            }
            frame += 1.0;
            let hands = if frame <= withdraw_frames {
                vec![hand_at(lerp(touching, rest, frame / withdraw_frames), seat)]
            } else {
                Vec::new()
            };
            self.recorder.emit(hands)?;
        }
        self.recorder
            .animate(pace::SETTLE_S, |_, _| Ok(Vec::new()))?;
        let events = self.recorder.take_events();
        Ok(stroke_from_events(&self.recorder.table, seat, t, &events))
    }

    /// The hand fetches the striker (from the board, or from off the board if
    /// it was pocketed or jumped) and sets it down at `spot`.
    fn bring_striker(&mut self, seat: Seat, spot: Point2<f64>) -> Result<(), PlayError> {
        let rest = hand_rest(seat);
        let striker = self.recorder.table.disc(STRIKER_ID)?.clone();
        let pick_from = if striker.state == PieceState::OnBoard {
            let at = striker.position;
            self.recorder.animate(pace::REACH_S, |_, p| {
                Ok(vec![hand_at(lerp(rest, at, p), seat)])
            })?;
            self.recorder.animate(pace::SET_DOWN_S, |table, p| {
                table.hold(STRIKER_ID, at, CARRY_HEIGHT_MM * p)?;
                Ok(vec![hand_at(at, seat)])
            })?;
            at
        } else {
            self.recorder
                .table
                .hold(STRIKER_ID, rest, CARRY_HEIGHT_MM)?;
            rest
        };
        self.recorder.animate(pace::CARRY_S, |table, p| {
            let at = lerp(pick_from, spot, p);
            table.hold(STRIKER_ID, at, CARRY_HEIGHT_MM)?;
            Ok(vec![hand_at(at, seat)])
        })?;
        self.recorder.animate(pace::SET_DOWN_S, |table, p| {
            table.hold(STRIKER_ID, spot, CARRY_HEIGHT_MM * (1.0 - p))?;
            Ok(vec![hand_at(spot, seat)])
        })?;
        self.recorder.table.place(STRIKER_ID, spot)?;
        Ok(())
    }

    /// A break: from the middle of the base line, hard at the centre.
    fn break_shot(&mut self, seat: Seat) -> Result<Shot, PlayError> {
        let spots = self.striker_spots(seat)?;
        let spot = spots
            .iter()
            .copied()
            .min_by(|a, b| base_line_offset(*a, seat).total_cmp(&base_line_offset(*b, seat)))
            .ok_or(PlayError::NoStrikerSpot { seat })?;
        let aim = (Point2::origin() - spot).normalize();
        let speed = self.config.physics.max_strike_speed * BREAK_SPEED_FRACTION;
        Ok(self.with_error(spot, aim, speed))
    }

    /// The easiest pocketing shot at one of the player's pieces (or the Queen
    /// once the player has pocketed a piece), by ghost-ball aiming.
    fn aimed_shot(&mut self, seat: Seat) -> Result<Shot, PlayError> {
        let spots = self.striker_spots(seat)?;
        let log = self.engine.board_log();
        let own = own_colour(&log, seat);
        let laws = self.engine.on_board();
        let own_left = match own {
            Piece::White => laws.white,
            _ => laws.black,
        };
        let queen_open = laws.queen
            && own_left < u32::from(physics::CARROMMEN_PER_COLOUR)
            && current_queen(&log) == Some(QueenState::OnBoard);
        let table = &self.recorder.table;
        let striker = table.disc(STRIKER_ID)?;
        let targets: Vec<&physics::Disc> = table
            .discs()
            .iter()
            .filter(|d| d.state == PieceState::OnBoard && d.id != STRIKER_ID)
            .filter(|d| d.kind == own || (queen_open && d.kind == Piece::Queen))
            // With one piece left, pocketing it before the Queen loses the
            // board (ICF 107): go for the Queen first.
            .filter(|d| !(queen_open && own_left == 1) || d.kind == Piece::Queen)
            .collect();
        let forward = rotate_vector_to_seat(Vector2::new(0.0, 1.0), seat);
        let mut best: Option<(f64, Point2<f64>, Vector2<f64>, f64)> = None;
        for target in &targets {
            for pocket in Pocket::ALL {
                for &spot in &spots {
                    let Some(plan) =
                        plan_pot(table, &self.config.physics, striker, target, pocket, spot)
                    else {
                        continue;
                    };
                    if plan.direction.dot(&forward) < MIN_FORWARD_COSINE {
                        continue;
                    }
                    if best.as_ref().is_none_or(|b| plan.difficulty < b.0) {
                        best = Some((plan.difficulty, spot, plan.direction, plan.speed));
                    }
                }
            }
        }
        let (spot, aim, speed) = match best {
            Some((_, spot, aim, speed)) => (spot, aim, speed),
            None => {
                // No clear pot: knock the nearest own piece towards the far side.
                let spot = spots[spots.len() / 2];
                let aim = targets
                    .iter()
                    .map(|d| d.position - spot)
                    .filter(|v| v.norm() > 0.0)
                    .min_by(|a, b| a.norm().total_cmp(&b.norm()))
                    .map_or(forward, |v| v.normalize());
                (spot, aim, 0.5 * self.config.physics.max_strike_speed)
            }
        };
        Ok(self.with_error(spot, aim, speed))
    }

    /// The shot as the player's hand really sends it: the aim and speed with
    /// a seeded error that shrinks with skill.
    fn with_error(&mut self, spot: Point2<f64>, aim: Vector2<f64>, speed: f64) -> Shot {
        let skill = self.config.skill;
        let angle_sd = (AIM_ERROR_DEG.0 + (AIM_ERROR_DEG.1 - AIM_ERROR_DEG.0) * skill).to_radians();
        let speed_sd = SPEED_ERROR.0 + (SPEED_ERROR.1 - SPEED_ERROR.0) * skill;
        let angle = aim.y.atan2(aim.x) + angle_sd * gaussian(&mut self.rng);
        let max = self.config.physics.max_strike_speed;
        let speed = (speed * (1.0 + speed_sd * gaussian(&mut self.rng))).clamp(0.05 * max, max);
        Shot {
            spot,
            velocity: Vector2::new(angle.cos(), angle.sin()) * speed,
        }
    }

    /// Legal, free striker positions on the seat's base lines, centre first
    /// outwards.
    fn striker_spots(&self, seat: Seat) -> Result<Vec<Point2<f64>>, PlayError> {
        let table = &self.recorder.table;
        let radius = table.disc(STRIKER_ID)?.radius;
        // The middle of the band between the two base lines, from one base
        // circle's rim to the other's.
        let depth = BASE_CIRCLE_CENTRE_DEPTH_MM;
        let reach = BASE_CIRCLE_CENTRE_ALONG_MM + BASE_CIRCLE_RADIUS_MM - radius;
        let step = reach / f64::from(STRIKER_SPOTS_PER_SIDE);
        let spots: Vec<Point2<f64>> = (0..=STRIKER_SPOTS_PER_SIDE)
            .flat_map(|k| {
                let x = step * f64::from(k);
                if k == 0 {
                    vec![x]
                } else {
                    vec![x, -x]
                }
            })
            .map(|x| rotate_to_seat(Point2::new(x, -depth), seat))
            .filter(|spot| striker_placement(seat, *spot, radius).is_legal())
            .filter(|spot| table.is_free(spot, radius, Some(STRIKER_ID)))
            .collect();
        if spots.is_empty() {
            return Err(PlayError::NoStrikerSpot { seat });
        }
        Ok(spots)
    }

    /// Puts back what the laws return after stroke `index`: the Queen and
    /// jumped pieces at the centre, dues inside the outer circle.
    fn put_back_returned(&mut self, index: usize, seat: Seat) -> Result<(), PlayError> {
        let returned = self.engine.returned_last().to_vec();
        let rest = hand_rest(seat);
        for piece in returned {
            let table = &self.recorder.table;
            let candidates = |state: PieceState| {
                table
                    .discs()
                    .iter()
                    .find(|d| d.kind == piece && d.state == state)
                    .map(|d| (d.id, d.radius))
            };
            let jumped = candidates(PieceState::OffBoard);
            let (id, radius, target) = match (piece, jumped) {
                (Piece::Queen, _) | (_, Some(_)) => {
                    let (id, radius) = jumped
                        .or_else(|| candidates(PieceState::Pocketed))
                        .ok_or(PlayError::NothingToReturn { index, piece })?;
                    (id, radius, Point2::origin())
                }
                _ => {
                    let (id, radius) = candidates(PieceState::Pocketed)
                        .ok_or(PlayError::NothingToReturn { index, piece })?;
                    let angle = self.rng.random_range(0.0..std::f64::consts::TAU);
                    let reach = OUTER_CIRCLE_RADIUS_MM - radius;
                    let distance = reach * self.rng.random_range(0.0f64..1.0).sqrt();
                    (id, radius, Point2::new(angle.cos(), angle.sin()) * distance)
                }
            };
            let limit = OUTER_CIRCLE_RADIUS_MM - radius;
            let spot = self
                .recorder
                .table
                .free_spot_near(target, radius, 2.0 * limit)
                .filter(|s| s.coords.norm() <= limit)
                .or_else(|| {
                    self.recorder
                        .table
                        .free_spot_near(Point2::origin(), radius, limit)
                })
                .ok_or(PlayError::NoRoom { piece })?;
            self.recorder.table.hold(id, rest, CARRY_HEIGHT_MM)?;
            self.recorder.animate(pace::RETURN_PIECE_S, |table, p| {
                let at = lerp(rest, spot, p);
                table.hold(id, at, CARRY_HEIGHT_MM * (1.0 - p * 0.8))?;
                Ok(vec![hand_at(at, seat)])
            })?;
            self.recorder.table.place(id, spot)?;
            self.recorder.animate(pace::SET_DOWN_S, |_, p| {
                Ok(vec![hand_at(lerp(spot, rest, p), seat)])
            })?;
        }
        Ok(())
    }

    /// The physics must have on the board exactly what the laws say.
    fn check_agreement(&self, index: usize) -> Result<(), PlayError> {
        let laws = self.engine.on_board();
        let physics = physical_on_board(&self.recorder.table);
        if laws != physics {
            return Err(PlayError::Disagreement {
                index,
                laws,
                physics,
            });
        }
        Ok(())
    }
}

/// The carrommen and Queen lying on the table.
pub fn physical_on_board(table: &Table) -> OnBoard {
    count_on_board(table.discs().iter().map(|d| (d.kind, d.state)))
}

/// The carrommen and Queen lying on the board in a frame of truth.
pub fn frame_on_board(frame: &FrameTruth) -> OnBoard {
    count_on_board(frame.pieces.iter().map(|p| (p.kind, p.state)))
}

fn count_on_board(pieces: impl Iterator<Item = (Piece, PieceState)>) -> OnBoard {
    let mut on_board = OnBoard {
        white: 0,
        black: 0,
        queen: false,
    };
    for (kind, state) in pieces {
        if state != PieceState::OnBoard {
            continue;
        }
        match kind {
            Piece::White => on_board.white += 1,
            Piece::Black => on_board.black += 1,
            Piece::Queen => on_board.queen = true,
            Piece::Striker => {}
        }
    }
    on_board
}

/// A pot worked out by ghost-ball aiming.
struct PotPlan {
    direction: Vector2<f64>,
    speed: f64,
    difficulty: f64,
}

/// Ghost-ball aiming: the striker must arrive where it touches `target` on
/// the line from the pocket through the target. `None` where the cut is too
/// fine, a path is blocked, or the shot needs more than full force.
fn plan_pot(
    table: &Table,
    physics: &PhysicsConfig,
    striker: &physics::Disc,
    target: &physics::Disc,
    pocket: Pocket,
    spot: Point2<f64>,
) -> Option<PotPlan> {
    let to_pocket = pocket_centre(pocket) - target.position;
    let pocket_distance = to_pocket.norm();
    let line = to_pocket / pocket_distance;
    let ghost = target.position - line * (striker.radius + target.radius);
    let half = HALF_SURFACE_MM;
    if ghost.x.abs() + striker.radius > half || ghost.y.abs() + striker.radius > half {
        return None;
    }
    let approach = ghost - spot;
    let approach_distance = approach.norm();
    if approach_distance < 1e-6 {
        return None;
    }
    let direction = approach / approach_distance;
    let cut = direction.dot(&line);
    if cut < MIN_CUT_COSINE {
        return None;
    }
    let others = table
        .discs()
        .iter()
        .filter(|d| d.state == PieceState::OnBoard && d.id != target.id && d.id != striker.id);
    for other in others {
        if segment_distance(other.position, spot, ghost) < striker.radius + other.radius
            || segment_distance(other.position, target.position, pocket_centre(pocket))
                < target.radius + other.radius
        {
            return None;
        }
    }
    let decel = physics.friction_deceleration;
    let needed_after = (2.0 * decel * (pocket_distance + POCKET_OVERSHOOT_MM)).sqrt();
    let transfer =
        (1.0 + physics.piece_restitution) * striker.mass / (striker.mass + target.mass) * cut;
    let at_contact = needed_after / transfer;
    let speed = (at_contact * at_contact + 2.0 * decel * approach_distance).sqrt();
    if speed > physics.max_strike_speed {
        return None;
    }
    Some(PotPlan {
        direction,
        speed,
        difficulty: (approach_distance + pocket_distance) / (cut * cut),
    })
}

/// The stroke as the contract records it, from the physics events between
/// the strike (at `t`) and rest.
fn stroke_from_events(table: &Table, seat: Seat, t: f64, events: &[Event]) -> Stroke {
    let kind_of = |id: u8| table.disc(id).map(|d| d.kind).unwrap_or(Piece::Striker);
    let touched = events.iter().any(|e| {
        matches!(e, Event::Contact { a, b, .. }
            if (*a == STRIKER_ID) != (*b == STRIKER_ID))
    });
    let pocketed = events
        .iter()
        .filter_map(|e| match *e {
            Event::Pocketed { t, id, pocket } => Some(PocketedPiece {
                piece: kind_of(id),
                pocket: Some(pocket),
                t: Some(round_ms(t)),
                late: false,
            }),
            _ => None,
        })
        .collect();
    let overboard = events
        .iter()
        .filter_map(|e| match *e {
            Event::Jumped { t, id } => Some(OverboardPiece {
                piece: kind_of(id),
                t: Some(round_ms(t)),
            }),
            _ => None,
        })
        .collect();
    Stroke {
        seat,
        t: Some(round_ms(t)),
        touched,
        pocketed,
        overboard,
        improper: false,
        foul: None,
        foul_by: None,
        extra: None,
    }
}

/// Times in the stroke log to the millisecond: finer is noise.
fn round_ms(t: f64) -> f64 {
    round_to(t, 1e-3)
}

/// `value` to the nearest multiple of `step` (a power of ten), without a
/// negative zero. Dividing by the inverse step gives the double nearest the
/// decimal, so the JSON shows `10.633`, not `10.633000000000001`.
fn round_to(value: f64, step: f64) -> f64 {
    let per_unit = (1.0 / step).round();
    (value * per_unit).round() / per_unit + 0.0
}

fn finished_boards(log: &BoardLog) -> usize {
    log.boards.iter().filter(|b| b.result.is_some()).count()
}

fn current_queen(log: &BoardLog) -> Option<QueenState> {
    log.boards
        .last()
        .and_then(|b| b.strokes.last())
        .map(|s| s.queen)
        .or(Some(QueenState::OnBoard))
}

/// The colour the player at `seat` plays on the current board: white for the
/// breaker's side (ICF 43); in doubles the breaker's partner sits opposite.
fn own_colour(log: &BoardLog, seat: Seat) -> Piece {
    let Some(board) = log.boards.last() else {
        return Piece::White;
    };
    let white_players: Vec<&String> = log
        .sides
        .iter()
        .find(|side| side.name == board.white)
        .map(|side| side.players.iter().collect())
        .unwrap_or_default();
    let white_seat = board
        .strokes
        .iter()
        .find(|s| white_players.contains(&&s.player))
        .map(|s| s.seat);
    let partners = log.event == MatchEvent::Doubles;
    match white_seat {
        Some(white) if white == seat || (partners && white.opposite() == seat) => Piece::White,
        Some(_) => Piece::Black,
        None => Piece::White,
    }
}

/// How far a base-line spot is from the middle of the line.
fn base_line_offset(spot: Point2<f64>, seat: Seat) -> f64 {
    let along = rotate_vector_to_seat(Vector2::new(1.0, 0.0), seat);
    spot.coords.dot(&along).abs()
}

/// Where a player's hand waits, off the board on their side.
fn hand_rest(seat: Seat) -> Point2<f64> {
    let distance = HALF_SURFACE_MM + FRAME_WIDTH_MM + HAND_REST_BEYOND_FRAME_MM;
    rotate_to_seat(Point2::new(0.0, -distance), seat)
}

/// The hand of the player at `seat` with its fingertip at `at`.
fn hand_at(at: Point2<f64>, seat: Seat) -> HandTruth {
    let arm_angle = match seat {
        Seat::South => -FRAC_PI_2,
        Seat::East => 0.0,
        Seat::North => FRAC_PI_2,
        Seat::West => PI,
    };
    HandTruth {
        x: at.x,
        y: at.y,
        arm_angle,
    }
}

fn lerp(from: Point2<f64>, to: Point2<f64>, progress: f64) -> Point2<f64> {
    from + (to - from) * progress
}

/// A standard normal draw (Box–Muller), so the aim error is bell-shaped.
fn gaussian(rng: &mut Pcg64Mcg) -> f64 {
    let u: f64 = rng.random_range(f64::EPSILON..1.0);
    let v: f64 = rng.random_range(0.0..1.0);
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn short(seed: u64, max_seconds: f64) -> Simulation {
        simulate(&PlayConfig {
            seed,
            max_seconds,
            ..PlayConfig::default()
        })
        .unwrap()
    }

    #[test]
    fn every_frame_accounts_for_every_piece() {
        let sim = short(1, 40.0);
        assert!(!sim.strokes.strokes.is_empty());
        for frame in &sim.frames {
            assert_eq!(frame.pieces.len(), physics::FULL_SET);
            let total: usize = [
                PieceState::OnBoard,
                PieceState::InHand,
                PieceState::Airborne,
                PieceState::Pocketed,
                PieceState::OffBoard,
            ]
            .into_iter()
            .map(|s| frame.count(s))
            .sum();
            assert_eq!(total, physics::FULL_SET);
            let strikers = frame
                .pieces
                .iter()
                .filter(|p| p.kind == Piece::Striker)
                .count();
            assert_eq!(strikers, 1);
        }
        let last = sim.frames.last().unwrap();
        assert!(last.t <= 40.0);
    }

    #[test]
    fn frames_are_evenly_timed_and_numbered() {
        let sim = short(2, 20.0);
        for (i, frame) in sim.frames.iter().enumerate() {
            assert_eq!(frame.frame as usize, i);
            // Frame times are stored to the microsecond.
            assert!((frame.t - i as f64 / 30.0).abs() <= 1e-6);
        }
    }

    #[test]
    fn a_full_board_is_played_to_its_finish() {
        let config = PlayConfig {
            seed: 3,
            skill: 1.0,
            ..PlayConfig::default()
        };
        let sim = simulate(&config).unwrap();
        assert_eq!(
            sim.boards_finished,
            1,
            "{} strokes",
            sim.strokes.strokes.len()
        );
        let board = &sim.board_log.boards[0];
        assert!(board.result.is_some());
        assert_eq!(board.strokes.len(), sim.strokes.strokes.len());
    }

    #[test]
    fn the_same_seed_gives_the_same_truth() {
        let first = short(4, 25.0);
        let second = short(4, 25.0);
        assert_eq!(first, second);
        let other = short(5, 25.0);
        assert_ne!(first.frames, other.frames);
    }

    #[test]
    fn bad_settings_are_refused() {
        let bad = [
            PlayConfig {
                fps: 0,
                ..PlayConfig::default()
            },
            PlayConfig {
                skill: 1.5,
                ..PlayConfig::default()
            },
            PlayConfig {
                max_seconds: f64::NAN,
                ..PlayConfig::default()
            },
            PlayConfig {
                boards: 0,
                ..PlayConfig::default()
            },
        ];
        for config in bad {
            assert!(simulate(&config).is_err());
        }
    }

    #[test]
    fn doubles_uses_all_four_seats() {
        let sim = simulate(&PlayConfig {
            seed: 6,
            max_seconds: 60.0,
            event: MatchEvent::Doubles,
            ..PlayConfig::default()
        })
        .unwrap();
        let seats: std::collections::BTreeSet<Seat> =
            sim.strokes.strokes.iter().map(|s| s.seat).collect();
        assert!(seats.len() >= 3, "{seats:?}");
    }
}
