//! carrom-vision: watches a carrom board through an overhead camera and keeps
//! the score by the laws of the International Carrom Federation.
//!
//! The modules mirror the pipeline, and data flows one way through them:
//!
//! `geometry` → `template` → `calibrate` → `detect` → `track` → `strokes`
//! → `rules` → `report`
//!
//! - [`geometry`]: the ICF board as data and queries, in board millimetres.
//! - [`template`]: the exact ICF top view as an image (what `carrom board` draws).
//! - [`calibrate`]: finds the board in a frame and fits the ICF model: pixels ↔ board mm.
//! - [`detect`]: decoded frames warped to the top view, and the discs found in them.
//! - [`track`]: identities for the discs from frame to frame, through hands and collisions.
//! - [`strokes`]: strokes (seat, strike, pocketings) read off the tracks; a clip in, a stroke log out.
//! - [`contract`]: the two public JSON documents, the stroke log and the board log.
//! - [`rules`]: the ICF (and ECC) laws as a pure function `state × stroke → decision`.
//! - [`report`]: board logs rendered for people: text, score card, SoL.
//! - [`eval`]: recognised strokes and boards measured against ground truth.
//! - [`live`]: scoring at the table as play goes on, with a scoreboard page.
//! - [`batch`]: many clips scored in parallel and summed up.
//! - [`sim`]: a physics simulator and renderer that make footage with ground truth.

pub mod batch;
pub mod calibrate;
pub mod contract;
pub mod detect;
pub mod eval;
pub mod geometry;
pub mod live;
pub mod report;
pub mod rules;
pub mod sim;
pub mod strokes;
pub mod template;
pub mod track;
