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

/// A stroke that [`score_recognised`] left out, and why the laws refused it.
#[derive(Debug)]
pub struct SkippedStroke {
    /// Index in the stroke log.
    pub index: usize,
    pub reason: RulesError,
}

/// Scores a stroke log that vision recognised. A stroke the laws cannot place
/// (from a seat nobody sits at, or after the match is decided) is left out and
/// reported rather than ending the scoring: one misread stroke must not lose
/// the rest of a match. A hand-written log goes through [`score`], which
/// stops at such a stroke, because there it is a mistake to correct.
pub fn score_recognised(log: &StrokeLog) -> Result<(BoardLog, Vec<SkippedStroke>), RulesError> {
    let mut engine = Engine::new(&log.match_setup)?;
    let mut skipped = Vec::new();
    for (index, stroke) in log.strokes.iter().enumerate() {
        // `play` checks a stroke before it changes anything, so a refused
        // stroke leaves the engine as it was.
        if let Err(reason) = engine.play(stroke) {
            skipped.push(SkippedStroke { index, reason });
        }
    }
    Ok((engine.board_log(), skipped))
}
