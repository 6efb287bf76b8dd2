//! The stroke log (`carrom-strokes`, version 1): what happened on the board,
//! stroke by stroke, as the vision pipeline (or a person) saw it.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::ContractError;
use crate::geometry::{Piece, Pocket, Seat};

/// The `format` value of a stroke log.
pub const STROKE_LOG_FORMAT: &str = "carrom-strokes";
/// The stroke-log version this program reads and writes.
pub const STROKE_LOG_VERSION: u32 = 1;

/// A whole stroke log: the match it belongs to and every stroke, in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StrokeLog {
    /// Always [`STROKE_LOG_FORMAT`].
    pub format: String,
    /// Always [`STROKE_LOG_VERSION`].
    pub version: u32,
    /// Who plays, where they sit and under which laws.
    #[serde(rename = "match")]
    pub match_setup: MatchSetup,
    /// Every stroke of the match in the order played, across boards and games.
    pub strokes: Vec<Stroke>,
}

/// Singles (two players) or doubles (two pairs, partners sitting opposite).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Event {
    Singles,
    Doubles,
}

/// Which body of laws scores the match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RuleSet {
    /// International Carrom Federation laws, umpired.
    #[default]
    Icf,
    /// European Carrom Confederation laws for self-umpired games.
    Ecc,
}

/// The stage of the tournament, which decides how a game ends (ICF 56, 60).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// Up to and including the pre-quarter-finals: 25 points or eight boards.
    #[default]
    League,
    /// Quarter-finals on: a game goes on until a player reaches 25.
    Knockout,
}

/// The match a stroke log belongs to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchSetup {
    pub event: Event,
    #[serde(default)]
    pub rules: RuleSet,
    /// Every player's name, once each: two for singles, four for doubles.
    pub players: Vec<String>,
    /// Who sits where at the start of the match.
    pub seats: BTreeMap<Seat, String>,
    /// The player who breaks the first board of the first game.
    pub first_breaker: String,
    #[serde(default)]
    pub stage: Stage,
    /// Whether the beneficiary demands every extra point the ICF laws give
    /// "if demanded" (102–112). Added field; default `false`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub demand_extra_points: bool,
    /// ECC 39–41: the game is time-limited (50 minutes, then 7 to finish the
    /// board). Needs `t` on every stroke. Added field; default `false`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub time_limit: bool,
}

impl MatchSetup {
    /// The seats players sit at.
    pub fn seated(&self) -> Vec<Seat> {
        self.seats.keys().copied().collect()
    }

    /// The seat of the player who breaks first, if one is seated.
    pub fn breaker_seat(&self) -> Option<Seat> {
        self.seats
            .iter()
            .find_map(|(&seat, player)| (*player == self.first_breaker).then_some(seat))
    }
}

/// An umpire's call attached to a stroke (ICF 62–64).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FoulCall {
    /// ICF 64: a violation during or after the first stroke of the turn.
    Foul,
    /// ICF 63: a violation before the first stroke of the turn, or by a
    /// player not having the turn.
    Technical,
}

/// One stroke: where it was played from and what it did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stroke {
    /// The seat the striker was played from.
    pub seat: Seat,
    /// Seconds from the start of the recording when the striker started moving.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub t: Option<f64>,
    /// Whether the striker touched any carromman or the Queen (ICF 44–45).
    /// Required: it decides whether a break was made, and the reader never guesses.
    pub touched: bool,
    /// Every piece that went into a pocket, in the order seen.
    #[serde(default)]
    pub pocketed: Vec<PocketedPiece>,
    /// Every piece that left the playing surface other than into a pocket.
    #[serde(default)]
    pub overboard: Vec<OverboardPiece>,
    /// An umpire's finding that the stroke was improper.
    #[serde(default)]
    pub improper: bool,
    /// An umpire's call attached to the stroke.
    #[serde(default)]
    pub foul: Option<FoulCall>,
    /// The seat of the player the foul is called against. Added field; default:
    /// the striker's seat. A foul against another seat is a technical foul (ICF 63(b)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub foul_by: Option<Seat>,
    /// Free-form data a producer wants to keep (e.g. vision positions); the
    /// laws ignore it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra: Option<serde_json::Value>,
}

/// A piece that went into a pocket.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PocketedPiece {
    pub piece: Piece,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pocket: Option<Pocket>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub t: Option<f64>,
    /// The piece fell only after the stroke had ended (while the striker was
    /// removed, or from resting at the pocket's mouth: ICF 69(b), 71, 113 count
    /// it; ECC 53, 55, 103 put it back). Added field; default `false`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub late: bool,
}

/// A piece that jumped off the playing surface.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OverboardPiece {
    pub piece: Piece,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub t: Option<f64>,
}

fn is_false(value: &bool) -> bool {
    !*value
}

impl StrokeLog {
    /// Reads and checks a stroke log file.
    pub fn from_path(path: &Path) -> Result<StrokeLog, ContractError> {
        let text = std::fs::read_to_string(path).map_err(|source| ContractError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        text.parse()
    }

    /// The log as pretty JSON.
    pub fn to_json(&self) -> Result<String, ContractError> {
        serde_json::to_string_pretty(self).map_err(ContractError::Write)
    }
}

impl std::str::FromStr for StrokeLog {
    type Err = ContractError;

    /// Reads a stroke log from JSON text: checks `format` and `version` first,
    /// then every field, reporting the JSON path of the first bad one.
    fn from_str(text: &str) -> Result<StrokeLog, ContractError> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(ContractError::Syntax)?;
        check_header(&value, STROKE_LOG_FORMAT, STROKE_LOG_VERSION)?;
        read_with_path(text)
    }
}

/// Checks the `format` and `version` fields of a document before anything else,
/// so a board log given where a stroke log is expected says so plainly.
pub(super) fn check_header(
    value: &serde_json::Value,
    format: &'static str,
    version: u32,
) -> Result<(), ContractError> {
    let found_format = value.get("format");
    if found_format.and_then(|f| f.as_str()) != Some(format) {
        return Err(ContractError::WrongFormat {
            expected: format,
            found: found_format.map_or_else(|| "no format field".to_owned(), |f| f.to_string()),
        });
    }
    let found_version = value.get("version");
    if found_version.and_then(|v| v.as_u64()) != Some(u64::from(version)) {
        return Err(ContractError::WrongVersion {
            format,
            expected: version,
            found: found_version.map_or_else(|| "missing".to_owned(), |v| v.to_string()),
        });
    }
    Ok(())
}

/// Deserializes `text`, turning serde's error into one naming the JSON path.
pub(super) fn read_with_path<T: serde::de::DeserializeOwned>(
    text: &str,
) -> Result<T, ContractError> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
        let path = error.path().to_string();
        let inner = error.into_inner();
        let position = format!(" at line {} column {}", inner.line(), inner.column());
        let raw = inner.to_string();
        let bare = raw.strip_suffix(&position).unwrap_or(&raw);
        let noun = path
            .rsplit('.')
            .next()
            .map(|last| last.split('[').next().unwrap_or(last))
            .unwrap_or("value");
        ContractError::Field {
            message: format!(
                "{} (line {}, column {})",
                explain_unknown_variant(bare, noun),
                inner.line(),
                inner.column()
            ),
            path,
        }
    })
}

/// Rewrites serde's "unknown variant `red`, expected one of `white`, …" as
/// `unknown piece "red" (expected white, black, queen or striker)`.
fn explain_unknown_variant(message: &str, noun: &str) -> String {
    let Some(rest) = message.strip_prefix("unknown variant `") else {
        return message.to_owned();
    };
    let Some((found, expected)) = rest.split_once("`, expected one of ") else {
        return message.to_owned();
    };
    let names: Vec<&str> = expected.split(", ").map(|n| n.trim_matches('`')).collect();
    let listed = match names.split_last() {
        Some((last, [])) => (*last).to_owned(),
        Some((last, init)) => format!("{} or {last}", init.join(", ")),
        None => String::new(),
    };
    let noun = match noun {
        "seats" => "seat",
        other => other,
    };
    format!("unknown {noun} \"{found}\" (expected {listed})")
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = r#"{
      "format": "carrom-strokes", "version": 1,
      "match": {"event": "singles", "players": ["Asha", "Ben"],
                "seats": {"south": "Asha", "north": "Ben"}, "first_breaker": "Asha"},
      "strokes": [
        {"seat": "south", "t": 1.5, "touched": true,
         "pocketed": [{"piece": "white", "pocket": "ne"}, {"piece": "striker"}],
         "overboard": [{"piece": "black"}], "foul": "technical"},
        {"seat": "north", "touched": false}
      ]
    }"#;

    fn with_second_stroke(stroke: &str) -> String {
        MINIMAL.replace(r#"{"seat": "north", "touched": false}"#, stroke)
    }

    #[test]
    fn reads_the_contract_example_with_defaults() {
        let log: StrokeLog = MINIMAL.parse().unwrap();
        assert_eq!(log.match_setup.rules, RuleSet::Icf);
        assert_eq!(log.match_setup.stage, Stage::League);
        assert_eq!(log.match_setup.seats[&Seat::North], "Ben");
        assert_eq!(log.strokes.len(), 2);
        assert_eq!(log.strokes[0].pocketed[0].pocket, Some(Pocket::Ne));
        assert_eq!(log.strokes[0].foul, Some(FoulCall::Technical));
        assert!(!log.strokes[1].improper);
        assert_eq!(log.strokes[1].foul, None);
        assert!(log.strokes[1].pocketed.is_empty());
    }

    #[test]
    fn written_log_reads_back_the_same() {
        let log: StrokeLog = MINIMAL.parse().unwrap();
        let again: StrokeLog = log.to_json().unwrap().parse().unwrap();
        assert_eq!(log, again);
    }

    #[test]
    fn unknown_piece_names_stroke_index_and_field() {
        let text = with_second_stroke(
            r#"{"seat": "north", "touched": true, "pocketed": [{"piece": "red"}]}"#,
        );
        let message = text.parse::<StrokeLog>().unwrap_err().to_string();
        assert!(
            message.starts_with("strokes[1].pocketed[0].piece: unknown piece \"red\""),
            "{message}"
        );
        assert!(
            message.contains("expected white, black, queen or striker"),
            "{message}"
        );
    }

    #[test]
    fn bad_seat_and_missing_field_are_named() {
        let bad_seat = with_second_stroke(r#"{"seat": "up", "touched": true}"#);
        let message = bad_seat.parse::<StrokeLog>().unwrap_err().to_string();
        assert!(
            message.starts_with("strokes[1].seat: unknown seat \"up\""),
            "{message}"
        );

        let missing = with_second_stroke(r#"{"seat": "north"}"#);
        let message = missing.parse::<StrokeLog>().unwrap_err().to_string();
        assert!(message.starts_with("strokes[1]"), "{message}");
        assert!(message.contains("missing field `touched`"), "{message}");
    }

    #[test]
    fn wrong_format_or_version_is_refused() {
        let other = MINIMAL.replace("carrom-strokes", "carrom-boardlog");
        assert!(matches!(
            other.parse::<StrokeLog>(),
            Err(ContractError::WrongFormat { .. })
        ));
        let newer = MINIMAL.replace(r#""version": 1"#, r#""version": 2"#);
        assert!(matches!(
            newer.parse::<StrokeLog>(),
            Err(ContractError::WrongVersion { .. })
        ));
        assert!(matches!(
            "{".parse::<StrokeLog>(),
            Err(ContractError::Syntax(_))
        ));
    }
}
