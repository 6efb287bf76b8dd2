//! Board logs rendered for people: a readable stroke-by-stroke account
//! ([`text`]), the ICF score card ([`scorecard`]) and the boards as the SoL
//! tournament manager records them ([`sol`]); [`html`] makes a match page.

pub mod html;

use std::fmt::Write as _;

use serde::Serialize;

use crate::contract::{BoardEntry, BoardLog, ContractError};

/// One line per stroke (who played, what the laws decided, which laws), a line
/// per finished board with the running game score, and the match result.
pub fn text(log: &BoardLog) -> String {
    let mut out = String::new();
    for board in &log.boards {
        let extra = if board.extra_board {
            " (extra board)"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "Game {} board {}{extra}: {} breaks, {} plays white",
            board.game, board.board, board.breaker, board.white
        );
        for stroke in &board.strokes {
            let ends_board = board.result.is_some()
                && Some(stroke.index) == board.strokes.last().map(|s| s.index);
            let turn = match (ends_board, stroke.turn_continues) {
                (true, _) => "board ends",
                (false, true) => "plays again",
                (false, false) => "turn passes",
            };
            let returned = if stroke.returned.is_empty() {
                String::new()
            } else {
                let names: Vec<&str> = stroke.returned.iter().map(|p| p.name()).collect();
                format!("; back on the board: {}", names.join(", "))
            };
            let _ = writeln!(
                out,
                "  #{:<3} {:<6} {} — {turn}{returned} [{}]",
                stroke.index,
                stroke.seat.name(),
                stroke.note,
                stroke.laws.join(", ")
            );
            for alert in &stroke.alerts {
                let _ = writeln!(out, "        ALERT: {}", alert.message);
            }
        }
        match &board.result {
            Some(result) => {
                let winner = result.winner.as_deref().unwrap_or("nobody");
                let scores = side_points(log, &result.game_points);
                let _ = writeln!(
                    out,
                    "  => {winner} wins the board: {} points ({} coins, {} Queen, {} extra) [{}]; game score: {}",
                    result.points,
                    result.coins,
                    result.queen,
                    result.extra,
                    result.laws.join(", "),
                    scores
                );
            }
            None => {
                let _ = writeln!(out, "  => board in progress");
            }
        }
    }
    for game in &log.games {
        let scores = side_points(log, &game.points);
        let _ = writeln!(
            out,
            "Game {}: {} after {} boards — {}",
            game.game,
            scores,
            game.boards,
            game.winner
                .as_deref()
                .map_or_else(|| "in progress".to_owned(), |w| format!("won by {w}"))
        );
    }
    let games: Vec<String> = log
        .sides
        .iter()
        .map(|s| {
            format!(
                "{} {}",
                s.name,
                log.match_result.games.get(&s.name).copied().unwrap_or(0)
            )
        })
        .collect();
    let _ = writeln!(
        out,
        "Match: {} — {}",
        games.join(", "),
        log.match_result
            .winner
            .as_deref()
            .map_or_else(|| "in progress".to_owned(), |w| format!("won by {w}"))
    );
    out
}

/// The ICF score card: for each game, one row per board with the breaker and,
/// for each side, the coins and Queen points won and the running total.
pub fn scorecard(log: &BoardLog) -> String {
    let mut out = String::new();
    let names: Vec<&str> = log.sides.iter().map(|s| s.name.as_str()).collect();
    for game in &log.games {
        let _ = writeln!(out, "GAME {}", game.game);
        let mut header = format!("{:>5}  {:<14}", "Board", "Breaker");
        for name in &names {
            let _ = write!(header, " | {:<24}", format!("{name}: coins queen total"));
        }
        let _ = writeln!(out, "{header}");
        let mut totals = vec![0u32; names.len()];
        for board in log.boards.iter().filter(|b| b.game == game.game) {
            let mut row = format!("{:>5}  {:<14}", board_label(board), board.breaker);
            for (i, name) in names.iter().enumerate() {
                let (coins, queen, points) = match &board.result {
                    Some(r) if r.winner.as_deref() == Some(*name) => {
                        (r.coins, r.queen + r.extra, r.points)
                    }
                    _ => (0, 0, 0),
                };
                totals[i] += points;
                let _ = write!(row, " | {coins:>5} {queen:>5} {:>5}      ", totals[i]);
            }
            let _ = writeln!(out, "{row}");
        }
        let winner = game.winner.as_deref().unwrap_or("in progress");
        let _ = writeln!(
            out,
            "Game {} total: {} — winner: {winner}",
            game.game,
            score_pair(&names, &game.points)
        );
        let _ = writeln!(out);
    }
    let _ = writeln!(
        out,
        "MATCH: games {} — winner: {}",
        score_pair(&names, &log.match_result.games),
        log.match_result.winner.as_deref().unwrap_or("in progress")
    );
    out
}

fn board_label(board: &BoardEntry) -> String {
    if board.extra_board {
        format!("{}x", board.board)
    } else {
        board.board.to_string()
    }
}

fn score_pair(names: &[&str], points: &std::collections::BTreeMap<String, u32>) -> String {
    names
        .iter()
        .map(|n| format!("{n} {}", points.get(*n).copied().unwrap_or(0)))
        .collect::<Vec<_>>()
        .join(" – ")
}

/// The SoL record of a match (`carrom-sol`, version 1): sides numbered 1 and 2
/// in the order of the board log's `sides`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SolMatch {
    pub format: &'static str,
    pub version: u32,
    pub player1: String,
    pub player2: String,
    /// Games won by side 1 and side 2.
    pub games1: u32,
    pub games2: u32,
    /// "1" or "2": the match winner, "" while undecided.
    pub winner: String,
    pub games: Vec<SolGame>,
}

/// One game of a [`SolMatch`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SolGame {
    pub game: u32,
    pub score1: u32,
    pub score2: u32,
    /// "1" or "2": the side that broke the game's first board.
    pub breaker: String,
    pub boards: Vec<SolBoard>,
}

/// One finished board of a [`SolGame`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SolBoard {
    pub board: u32,
    /// Points side 1 / side 2 scored on this board other than for the Queen.
    pub coins1: u32,
    pub coins2: u32,
    /// "1" or "2": the side credited with the Queen's points; "" for none.
    pub queen: String,
}

/// The SoL record of the board log.
pub fn sol_match(log: &BoardLog) -> SolMatch {
    let name = |i: usize| log.sides.get(i).map(|s| s.name.clone()).unwrap_or_default();
    let (one, two) = (name(0), name(1));
    let number = |side: Option<&str>| match side {
        Some(s) if s == one => "1".to_owned(),
        Some(s) if s == two => "2".to_owned(),
        _ => String::new(),
    };
    let side_of_player = |player: &str| {
        log.sides
            .iter()
            .find(|s| s.players.iter().any(|p| p == player))
            .map(|s| s.name.as_str())
    };
    let games = log
        .games
        .iter()
        .map(|game| {
            let boards_of_game: Vec<&BoardEntry> =
                log.boards.iter().filter(|b| b.game == game.game).collect();
            let breaker = boards_of_game
                .first()
                .map(|b| number(side_of_player(&b.breaker)))
                .unwrap_or_default();
            let boards = boards_of_game
                .iter()
                .filter_map(|b| b.result.as_ref().map(|r| (b, r)))
                .enumerate()
                .map(|(i, (_, r))| {
                    let points_other_than_queen = r.points.saturating_sub(r.queen);
                    let winner = number(r.winner.as_deref());
                    SolBoard {
                        board: u32::try_from(i + 1).unwrap_or(u32::MAX),
                        coins1: if winner == "1" {
                            points_other_than_queen
                        } else {
                            0
                        },
                        coins2: if winner == "2" {
                            points_other_than_queen
                        } else {
                            0
                        },
                        queen: if r.queen > 0 { winner } else { String::new() },
                    }
                })
                .collect();
            SolGame {
                game: game.game,
                score1: game.points.get(&one).copied().unwrap_or(0),
                score2: game.points.get(&two).copied().unwrap_or(0),
                breaker,
                boards,
            }
        })
        .collect();
    SolMatch {
        format: "carrom-sol",
        version: 1,
        games1: log.match_result.games.get(&one).copied().unwrap_or(0),
        games2: log.match_result.games.get(&two).copied().unwrap_or(0),
        winner: number(log.match_result.winner.as_deref()),
        player1: one,
        player2: two,
        games,
    }
}

/// [`sol_match`] as pretty JSON.
pub fn sol(log: &BoardLog) -> Result<String, ContractError> {
    serde_json::to_string_pretty(&sol_match(log)).map_err(ContractError::Write)
}

/// "Asha 25, Ben 9": each side's points, in the board log's side order.
fn side_points(log: &BoardLog, points: &std::collections::BTreeMap<String, u32>) -> String {
    log.sides
        .iter()
        .map(|side| {
            format!(
                "{} {}",
                side.name,
                points.get(&side.name).copied().unwrap_or(0)
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}
