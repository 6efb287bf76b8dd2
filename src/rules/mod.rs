//! The ICF (and ECC) laws as a pure function: `state × stroke → (state,
//! decision)`. [`Engine`] takes strokes one at a time, so the vision tracker,
//! the physics simulator and `carrom rules` all drive the same code; every
//! decision names the law clauses it applied.

mod board;
mod engine;
mod error;
pub mod numbers;
#[cfg(test)]
mod tests;

pub use engine::{Engine, StrokeDecision};
pub use error::RulesError;

use crate::contract::{BoardLog, StrokeLog};

/// Scores a whole stroke log; stops at the first stroke the laws cannot place.
pub fn score(log: &StrokeLog) -> Result<BoardLog, RulesError> {
    let mut engine = Engine::new(&log.match_setup)?;
    for stroke in &log.strokes {
        engine.play(stroke)?;
    }
    Ok(engine.board_log())
}
