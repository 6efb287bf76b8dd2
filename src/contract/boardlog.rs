//! The board log (`carrom-boardlog`, version 1): what the laws make of a
//! stroke log, stroke by stroke, board by board, game by game.
//!
//! Scores, dues and winners are kept per *side*: in singles a side is one
//! player and is named by the player's name; in doubles a side is a pair and is
//! named "A & B" (partners in the order of `match.players`), listed in `sides`.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::strokes::{check_header, read_with_path};
use super::{ContractError, Event, RuleSet, Stage};
use crate::geometry::{Piece, Seat};

/// The `format` value of a board log.
pub const BOARD_LOG_FORMAT: &str = "carrom-boardlog";
/// The board-log version this program writes.
pub const BOARD_LOG_VERSION: u32 = 1;

/// The whole scored match so far.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoardLog {
    /// Always [`BOARD_LOG_FORMAT`].
    pub format: String,
    /// Always [`BOARD_LOG_VERSION`].
    pub version: u32,
    pub event: Event,
    pub rules: RuleSet,
    pub stage: Stage,
    /// The two sides, in the order of `match.players` (added field).
    pub sides: Vec<SideEntry>,
    /// Every board begun, in order; the last one may be in progress.
    pub boards: Vec<BoardEntry>,
    /// Every game begun, in order; the last one may be in progress (`winner` null).
    pub games: Vec<GameEntry>,
    /// The match result so far.
    #[serde(rename = "match")]
    pub match_result: MatchEntry,
}

/// One side of the match: a player in singles, a pair in doubles.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideEntry {
    pub name: String,
    pub players: Vec<String>,
}

/// One board: who broke, every stroke and how it ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoardEntry {
    /// The game, counted from 1.
    pub game: u32,
    /// The board within the game, counted from 1.
    pub board: u32,
    /// The player who broke (and so had the white carrommen, ICF 43).
    pub breaker: String,
    /// The side playing white (added field).
    pub white: String,
    /// Whether this is an extra board after a tie (ICF 56(b); added field).
    #[serde(default)]
    pub extra_board: bool,
    pub strokes: Vec<StrokeEntry>,
    /// `null` while the board is in progress.
    pub result: Option<BoardResult>,
}

/// What the laws decided about one stroke.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StrokeEntry {
    /// The stroke's position in the stroke log, counted from 0.
    pub index: usize,
    /// The player who struck.
    pub player: String,
    /// The seat the stroke was played from (added field).
    pub seat: Seat,
    /// Whether the same player strikes next.
    pub turn_continues: bool,
    /// Every piece put back on the board after this stroke.
    pub returned: Vec<Piece>,
    /// Dues and penalties still owed by each side after this stroke.
    pub dues_outstanding: BTreeMap<String, u32>,
    pub queen: QueenState,
    /// The player who covered the Queen, once covered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queen_covered_by: Option<String>,
    /// What the laws say is on the board once this stroke and its placings are done.
    pub on_board: OnBoard,
    /// The law clauses that decided the outcome, e.g. `ICF 72(a)`.
    pub laws: Vec<String>,
    /// A readable account of the decision.
    pub note: String,
    /// Things an umpire should look at, which did not stop the scoring (added field).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alerts: Vec<Alert>,
}

/// Where the Queen is, as far as the laws are concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QueenState {
    OnBoard,
    /// Pocketed; the same player must cover it with the next stroke.
    PendingCover,
    Covered,
}

/// The pieces on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct OnBoard {
    pub white: u32,
    pub black: u32,
    pub queen: bool,
}

/// Something the engine noticed that the laws let play go on with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Alert {
    pub kind: AlertKind,
    pub message: String,
}

/// The kinds of [`Alert`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AlertKind {
    /// ICF 51: a stroke from a seat whose turn it was not; allowed and scored.
    OutOfTurn,
    /// A piece reported pocketed or overboard that the laws say is not on the board; ignored.
    PieceNotOnBoard,
    /// `touched: false` but carrommen were pocketed; the stroke is taken as touching.
    TouchedContradicted,
}

/// How a finished board was scored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoardResult {
    /// The winning side; `null` only for a board stopped by the ECC time limit with equal coins.
    pub winner: Option<String>,
    /// Points for the loser's carrommen left on the board.
    pub coins: u32,
    /// Points for the Queen (or the fixed 3/1 awards of ICF 102–112 that replace them).
    pub queen: u32,
    /// Further points the laws give (ICF 110, and the "if demanded" points; added field).
    #[serde(default)]
    pub extra: u32,
    /// The board's total, at most 12 (ICF 55).
    pub points: u32,
    pub laws: Vec<String>,
    /// A readable account of the result (added field).
    #[serde(default)]
    pub note: String,
    /// Each side's game score after this board (added field).
    #[serde(default)]
    pub game_points: BTreeMap<String, u32>,
}

/// One game's score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameEntry {
    pub game: u32,
    pub points: BTreeMap<String, u32>,
    /// Boards finished in this game.
    pub boards: u32,
    /// `null` while the game is in progress.
    pub winner: Option<String>,
}

/// The match result so far.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchEntry {
    /// `null` until a side has won two games (ICF 57).
    pub winner: Option<String>,
    /// Games won by each side.
    pub games: BTreeMap<String, u32>,
}

impl BoardLog {
    /// The log as pretty JSON, as `carrom rules` writes it.
    pub fn to_json(&self) -> Result<String, ContractError> {
        serde_json::to_string_pretty(self).map_err(ContractError::Write)
    }

    /// Writes the log as pretty JSON to `path`.
    pub fn write_to_path(&self, path: &Path) -> Result<(), ContractError> {
        let mut text = self.to_json()?;
        text.push('\n');
        std::fs::write(path, text).map_err(|source| ContractError::Io {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Reads a board log file (e.g. to render it again).
    pub fn from_path(path: &Path) -> Result<BoardLog, ContractError> {
        let text = std::fs::read_to_string(path).map_err(|source| ContractError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        text.parse()
    }
}

impl std::str::FromStr for BoardLog {
    type Err = ContractError;

    fn from_str(text: &str) -> Result<BoardLog, ContractError> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(ContractError::Syntax)?;
        check_header(&value, BOARD_LOG_FORMAT, BOARD_LOG_VERSION)?;
        read_with_path(text)
    }
}
