//! Input the laws cannot score: a bad match setup or a stroke that cannot be
//! placed in the match.

use crate::geometry::Seat;

/// Why the engine refused a match setup or a stroke. Every variant names the
/// field (and, for strokes, the stroke index) so a person can fix the log.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RulesError {
    /// The `match` block is inconsistent (wrong player count, seats that do not
    /// match the players, partners not opposite, unknown first breaker ...).
    #[error("match.{field}: {message}")]
    Setup {
        field: &'static str,
        message: String,
    },
    /// A stroke was played from a seat where nobody sits.
    #[error("strokes[{index}].seat: nobody sits at {seat} (players sit at {occupied})")]
    SeatWithoutPlayer {
        index: usize,
        seat: Seat,
        occupied: String,
    },
    /// A stroke came after the match was decided.
    #[error("strokes[{index}]: the match is already over ({winner} won); no stroke may follow")]
    AfterMatchOver { index: usize, winner: String },
    /// The ECC time limit is on but the stroke has no time.
    #[error("strokes[{index}].t: missing; the ECC time limit (match.time_limit) needs the time of every stroke")]
    MissingTime { index: usize },
}
