//! One file per subcommand: each parses its arguments, calls the library and
//! prints. No pipeline logic lives here.

pub mod batch;
pub mod board;
pub mod calibrate;
pub mod eval;
pub mod live;
pub mod report;
pub mod rules;
pub mod score;
pub mod sim;
pub mod track;
