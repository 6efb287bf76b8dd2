//! Strokes read off the tracks, and a whole clip turned into a stroke log.
//!
//! - [`flights`]: departures over the frame squared with the discs seen
//!   flying over it, and which sides of the frame to watch;
//! - [`machine`]: the stroke state machine (placement, strike, motion, rest,
//!   pocketings, pieces off the board, late pocketings);
//! - [`prints`]: resting tracks over never-seen board that are the board's
//!   own print, not pieces;
//! - [`session`]: the pipeline over a clip, frame reader to stroke log, with
//!   the rules engine alongside to check what is seen against the laws;
//! - [`tracks_out`]: every frame's tracks as JSON Lines, for review.

pub mod flights;
pub mod machine;
pub mod prints;
pub mod session;
pub mod tracks_out;

pub use machine::{StrokeMachine, StrokeMachineOptions, VisionNote};
pub use session::{
    track_clip, ClipOutcome, ClipTracker, FramePrep, FrameStep, Prepared, SessionError,
    SessionOptions, StageError,
};
