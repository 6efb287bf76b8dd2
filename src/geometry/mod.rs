//! The ICF board as data and queries, in board millimetres: origin at the
//! centre of the playing surface, +x east, +y north. South is the bottom edge
//! of the rectified top view.
//!
//! Every ICF figure the program uses is named once here (see `spec`), never
//! repeated as a literal elsewhere.

mod names;
pub mod spec;

pub use names::{Piece, Pocket, Seat};
