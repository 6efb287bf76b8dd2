//! The two public JSON documents the project exchanges: the stroke log
//! (`carrom-strokes`, what happened on the board) and the board log
//! (`carrom-boardlog`, what the laws make of it). Both are versioned and read
//! strictly: a bad field is a [`ContractError`] naming its JSON path.

mod boardlog;
mod error;
mod strokes;

pub use boardlog::{
    Alert, AlertKind, BoardEntry, BoardLog, BoardResult, GameEntry, MatchEntry, OnBoard,
    QueenState, SideEntry, StrokeEntry, BOARD_LOG_FORMAT, BOARD_LOG_VERSION,
};
pub use error::ContractError;

/// The stroke log's file name in an output folder (`carrom batch`, `carrom
/// live`), where `carrom report` looks for it.
pub const STROKE_LOG_FILE: &str = "strokes.json";
/// The board log's file name in an output folder.
pub const BOARD_LOG_FILE: &str = "boardlog.json";
pub use strokes::{
    Event, FoulCall, MatchSetup, OverboardPiece, PocketedPiece, RuleSet, Stage, Stroke, StrokeLog,
    STROKE_LOG_FORMAT, STROKE_LOG_VERSION,
};
