//! One file per subcommand: each parses its arguments, calls the library and
//! prints. No pipeline logic lives here.

pub mod board;
pub mod calibrate;
pub mod eval;
pub mod rules;
pub mod score;
pub mod sim;
pub mod track;
