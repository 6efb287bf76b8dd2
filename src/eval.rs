//! Measures what the pipeline recognised against ground truth: strokes are
//! aligned by time, then compared field by field (seat, pocketed pieces,
//! pockets, overboard pieces, `touched`), and finished boards by result.
//!
//! Alignment is a monotone matching (strokes happen in order) that pairs a
//! truth stroke with a recognised one only when their start times are within
//! a tolerance, found by dynamic programming so that one early or late stroke
//! cannot shift every later pairing.

use serde::Serialize;

use crate::contract::{BoardEntry, BoardLog, MatchSetup, Stroke, StrokeLog};
use crate::geometry::{Piece, Pocket};
use crate::sim::scene::{FrameTruth, PieceState};

/// How strokes are paired.
#[derive(Debug, Clone, Copy)]
pub struct EvalOptions {
    /// The largest difference in start time, in seconds, at which a recognised
    /// stroke can still be the same stroke as a truth stroke.
    pub time_tolerance_s: f64,
}

impl Default for EvalOptions {
    fn default() -> Self {
        // A stroke's start is a single frame event; a second covers any
        // tracker latency while staying below the few seconds between strokes.
        EvalOptions {
            time_tolerance_s: 1.0,
        }
    }
}

/// One field of a stroke that can be right or wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StrokeField {
    Seat,
    Pocketed,
    Pockets,
    Overboard,
    Touched,
}

impl StrokeField {
    pub const ALL: [StrokeField; 5] = [
        StrokeField::Seat,
        StrokeField::Pocketed,
        StrokeField::Pockets,
        StrokeField::Overboard,
        StrokeField::Touched,
    ];

    fn name(self) -> &'static str {
        match self {
            StrokeField::Seat => "seat",
            StrokeField::Pocketed => "pocketed",
            StrokeField::Pockets => "pockets",
            StrokeField::Overboard => "overboard",
            StrokeField::Touched => "touched",
        }
    }
}

/// A truth stroke and the recognised stroke paired with it.
#[derive(Debug, Clone, Serialize)]
pub struct StrokeMatch {
    /// Index in the truth log.
    pub truth: usize,
    /// Index in the recognised log.
    pub got: usize,
    /// Start-time difference, recognised minus truth, in seconds (0 where
    /// either has no time).
    pub dt: f64,
    /// The fields that differ; empty when the stroke is exactly right.
    pub wrong: Vec<StrokeField>,
}

/// A finished truth board compared with the recognised one of the same game
/// and number.
#[derive(Debug, Clone, Serialize)]
pub struct BoardComparison {
    pub game: u32,
    pub board: u32,
    pub truth: String,
    /// `None` where the recognised log has no finished board of that number.
    pub got: Option<String>,
    pub right: bool,
}

/// Everything `carrom eval` reports.
#[derive(Debug, Clone, Serialize)]
pub struct EvalReport {
    pub truth_strokes: usize,
    pub got_strokes: usize,
    pub matched: Vec<StrokeMatch>,
    /// Truth strokes with no recognised counterpart.
    pub missed: Vec<usize>,
    /// Recognised strokes that match no truth stroke.
    pub extra: Vec<usize>,
    /// Matched strokes with every field right.
    pub exactly_right: usize,
    /// `exactly_right / (truth strokes + extra strokes)`: missed and extra
    /// strokes both count against it, so a tracker cannot score well by
    /// reporting too many or too few strokes.
    pub exact_fraction: f64,
    /// For each field, how many matched strokes had it right.
    pub field_right: Vec<(StrokeField, usize)>,
    /// Present when both board logs were given.
    pub boards: Option<Vec<BoardComparison>>,
}

impl EvalReport {
    /// Finished truth boards whose recognised result matches.
    pub fn boards_right(&self) -> Option<(usize, usize)> {
        self.boards.as_ref().map(|boards| {
            (
                boards.iter().filter(|board| board.right).count(),
                boards.len(),
            )
        })
    }

    /// Whether the recognised logs agree with the truth in every respect measured.
    pub fn is_perfect(&self) -> bool {
        self.missed.is_empty()
            && self.extra.is_empty()
            && self.exactly_right == self.truth_strokes
            && self
                .boards_right()
                .is_none_or(|(right, total)| right == total)
    }

    /// A readable summary, one fact a line.
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        let percent = |part: usize, whole: usize| {
            if whole == 0 {
                100.0
            } else {
                100.0 * part as f64 / whole as f64
            }
        };
        text.push_str(&format!(
            "strokes: {} in truth, {} recognised: {} found, {} missed, {} extra\n",
            self.truth_strokes,
            self.got_strokes,
            self.matched.len(),
            self.missed.len(),
            self.extra.len()
        ));
        text.push_str(&format!(
            "exactly right: {} ({:.1}% of truth + extra strokes)\n",
            self.exactly_right,
            100.0 * self.exact_fraction
        ));
        for (field, right) in &self.field_right {
            text.push_str(&format!(
                "  {:<10} right in {}/{} found strokes ({:.1}%)\n",
                field.name(),
                right,
                self.matched.len(),
                percent(*right, self.matched.len())
            ));
        }
        for stroke in &self.matched {
            if !stroke.wrong.is_empty() {
                let fields: Vec<&str> = stroke.wrong.iter().map(|field| field.name()).collect();
                text.push_str(&format!(
                    "  truth stroke {} (recognised {}): wrong {}\n",
                    stroke.truth,
                    stroke.got,
                    fields.join(", ")
                ));
            }
        }
        for index in &self.missed {
            text.push_str(&format!("  truth stroke {index}: missed\n"));
        }
        for index in &self.extra {
            text.push_str(&format!("  recognised stroke {index}: extra\n"));
        }
        if let Some(boards) = &self.boards {
            let right = boards.iter().filter(|board| board.right).count();
            text.push_str(&format!(
                "boards: {right}/{} finished boards with the right result ({:.1}%)\n",
                boards.len(),
                percent(right, boards.len())
            ));
            for board in boards.iter().filter(|board| !board.right) {
                text.push_str(&format!(
                    "  game {} board {}: truth {}, recognised {}\n",
                    board.game,
                    board.board,
                    board.truth,
                    board.got.as_deref().unwrap_or("no finished board")
                ));
            }
        }
        text
    }
}

/// Compares recognised strokes (and, optionally, board logs) with the truth.
pub fn evaluate(
    truth: &StrokeLog,
    got: &StrokeLog,
    boards: Option<(&BoardLog, &BoardLog)>,
    options: EvalOptions,
) -> EvalReport {
    let pairs = align(&truth.strokes, &got.strokes, options.time_tolerance_s);
    let mut truth_paired = vec![false; truth.strokes.len()];
    let mut got_paired = vec![false; got.strokes.len()];
    let mut matched = Vec::with_capacity(pairs.len());
    for (t, g) in pairs {
        truth_paired[t] = true;
        got_paired[g] = true;
        let (truth_stroke, got_stroke) = (&truth.strokes[t], &got.strokes[g]);
        matched.push(StrokeMatch {
            truth: t,
            got: g,
            dt: match (truth_stroke.t, got_stroke.t) {
                (Some(a), Some(b)) => b - a,
                _ => 0.0,
            },
            wrong: wrong_fields(truth_stroke, got_stroke),
        });
    }
    let unpaired = |paired: &[bool]| -> Vec<usize> {
        paired
            .iter()
            .enumerate()
            .filter(|(_, paired)| !**paired)
            .map(|(index, _)| index)
            .collect()
    };
    let missed = unpaired(&truth_paired);
    let extra = unpaired(&got_paired);
    let exactly_right = matched.iter().filter(|m| m.wrong.is_empty()).count();
    let denominator = truth.strokes.len() + extra.len();
    let exact_fraction = if denominator == 0 {
        1.0
    } else {
        exactly_right as f64 / denominator as f64
    };
    let field_right = StrokeField::ALL
        .iter()
        .map(|field| {
            let right = matched.iter().filter(|m| !m.wrong.contains(field)).count();
            (*field, right)
        })
        .collect();
    EvalReport {
        truth_strokes: truth.strokes.len(),
        got_strokes: got.strokes.len(),
        matched,
        missed,
        extra,
        exactly_right,
        exact_fraction,
        field_right,
        boards: boards.map(|(truth_boards, got_boards)| {
            compare_boards(
                (truth_boards, &truth.match_setup),
                (got_boards, &got.match_setup),
            )
        }),
    }
}

/// Pairs strokes in order, each pair within `tolerance` seconds, maximising
/// the number of pairs and, among those, minimising the total time error.
/// Strokes without a time are paired by order alone.
fn align(truth: &[Stroke], got: &[Stroke], tolerance: f64) -> Vec<(usize, usize)> {
    let (n, m) = (truth.len(), got.len());
    // cost[i][j]: best (unpaired count, time error) for truth[i..] and got[j..].
    // Skipping a stroke costs one unpaired stroke; pairing costs its time error,
    // so pairs always beat skips and time error only breaks ties.
    let mut cost = vec![vec![(0usize, 0.0f64); m + 1]; n + 1];
    for i in (0..=n).rev() {
        for j in (0..=m).rev() {
            if i == n || j == m {
                cost[i][j] = ((n - i) + (m - j), 0.0);
                continue;
            }
            let skip_truth = (cost[i + 1][j].0 + 1, cost[i + 1][j].1);
            let skip_got = (cost[i][j + 1].0 + 1, cost[i][j + 1].1);
            let mut best = min_cost(skip_truth, skip_got);
            if let Some(error) = pair_error(&truth[i], &got[j], tolerance) {
                let (unpaired, time_error) = cost[i + 1][j + 1];
                best = min_cost(best, (unpaired, time_error + error));
            }
            cost[i][j] = best;
        }
    }
    let mut pairs = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        let here = cost[i][j];
        if let Some(error) = pair_error(&truth[i], &got[j], tolerance) {
            let (unpaired, time_error) = cost[i + 1][j + 1];
            if unpaired == here.0 && (time_error + error - here.1).abs() < 1e-9 {
                pairs.push((i, j));
                i += 1;
                j += 1;
                continue;
            }
        }
        if (cost[i + 1][j].0 + 1, cost[i + 1][j].1) == here {
            i += 1;
        } else {
            j += 1;
        }
    }
    pairs
}

fn min_cost(a: (usize, f64), b: (usize, f64)) -> (usize, f64) {
    if (b.0, b.1) < (a.0, a.1) {
        b
    } else {
        a
    }
}

/// The time error of pairing two strokes, or `None` if they are too far apart.
fn pair_error(truth: &Stroke, got: &Stroke, tolerance: f64) -> Option<f64> {
    match (truth.t, got.t) {
        (Some(a), Some(b)) => {
            let error = (a - b).abs();
            (error <= tolerance).then_some(error)
        }
        _ => Some(0.0),
    }
}

fn wrong_fields(truth: &Stroke, got: &Stroke) -> Vec<StrokeField> {
    let mut wrong = Vec::new();
    if truth.seat != got.seat {
        wrong.push(StrokeField::Seat);
    }
    if sorted_pieces(truth) != sorted_pieces(got) {
        wrong.push(StrokeField::Pocketed);
    }
    if sorted_pockets(truth) != sorted_pockets(got) {
        wrong.push(StrokeField::Pockets);
    }
    if sorted_overboard(truth) != sorted_overboard(got) {
        wrong.push(StrokeField::Overboard);
    }
    if truth.touched != got.touched {
        wrong.push(StrokeField::Touched);
    }
    wrong
}

fn sorted_pieces(stroke: &Stroke) -> Vec<Piece> {
    let mut pieces: Vec<Piece> = stroke.pocketed.iter().map(|p| p.piece).collect();
    pieces.sort();
    pieces
}

fn sorted_pockets(stroke: &Stroke) -> Vec<(Piece, Option<Pocket>)> {
    let mut pockets: Vec<_> = stroke
        .pocketed
        .iter()
        .map(|p| (p.piece, p.pocket))
        .collect();
    pockets.sort();
    pockets
}

fn sorted_overboard(stroke: &Stroke) -> Vec<Piece> {
    let mut pieces: Vec<Piece> = stroke.overboard.iter().map(|p| p.piece).collect();
    pieces.sort();
    pieces
}

/// Each finished truth board against the recognised board of the same
/// number. Winners are compared by the seats their players sat in at the
/// start of the match (from each stroke log's `match`): a log scored
/// without the players' names (`south`, `carrom score` with no `--match`)
/// and one with them (`Asha`) agree when the same side won.
fn compare_boards(
    (truth, truth_setup): (&BoardLog, &MatchSetup),
    (got, got_setup): (&BoardLog, &MatchSetup),
) -> Vec<BoardComparison> {
    // (what must agree, what is shown)
    let describe = |log: &BoardLog, setup: &MatchSetup, board: &BoardEntry| {
        board.result.as_ref().map(|result| {
            let winner = result.winner.as_deref();
            let seats = winner.map_or_else(String::new, |side| seats_of(log, setup, side));
            let tally = format!(
                "wins {} (coins {}, queen {})",
                result.points, result.coins, result.queen
            );
            let shown = match winner {
                Some(side) if !seats.is_empty() && seats != side => {
                    format!("{side} ({seats}) {tally}")
                }
                _ => format!("{} {tally}", winner.unwrap_or("nobody")),
            };
            let key = if seats.is_empty() {
                format!("{} {tally}", winner.unwrap_or("nobody"))
            } else {
                format!("{seats} {tally}")
            };
            (key, shown)
        })
    };
    truth
        .boards
        .iter()
        .filter_map(|board| describe(truth, truth_setup, board).map(|text| (board, text)))
        .map(|(board, (truth_key, truth_text))| {
            let got_result = got
                .boards
                .iter()
                .find(|other| other.game == board.game && other.board == board.board)
                .and_then(|other| describe(got, got_setup, other));
            BoardComparison {
                game: board.game,
                board: board.board,
                right: got_result
                    .as_ref()
                    .is_some_and(|(key, _)| *key == truth_key),
                truth: truth_text,
                got: got_result.map(|(_, shown)| shown),
            }
        })
        .collect()
}

/// The seats (`north+south` style, sorted) the players of `side` sat in at
/// the start of the match; empty when the log does not say.
fn seats_of(log: &BoardLog, setup: &MatchSetup, side: &str) -> String {
    let players: Vec<&str> = log
        .sides
        .iter()
        .find(|entry| entry.name == side)
        .map_or_else(
            || vec![side],
            |entry| entry.players.iter().map(String::as_str).collect(),
        );
    let mut seats: Vec<String> = setup
        .seats
        .iter()
        .filter(|(_, player)| players.contains(&player.as_str()))
        .map(|(seat, _)| seat.to_string())
        .collect();
    seats.sort();
    seats.join("+")
}

/// How far the rest positions a stroke log reports lie from the truth.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct RestError {
    /// Strokes with a rest snapshot.
    pub strokes: usize,
    /// Carrommen and Queens paired with a truth piece.
    pub pieces: usize,
    /// Seen pieces with no truth piece of their kind within
    /// [`REST_PAIR_LIMIT_MM`]: tracking mistakes (a ghost, a wrong colour),
    /// not position errors.
    pub unpaired: usize,
    /// Of the paired pieces, those the snapshot marks `no_outline` (no
    /// disc outline found on the camera frame): real pieces the look missed.
    pub paired_without_outline: usize,
    /// Of the unpaired pieces, those marked `no_outline`: the ghosts (prints,
    /// shadows) the look tells from pieces.
    pub unpaired_without_outline: usize,
    /// Distances summed over the pairs, mm.
    pub sum_mm: f64,
    /// The largest, mm.
    pub max_mm: f64,
}

impl RestError {
    /// The mean distance, mm (0 with nothing paired).
    pub fn mean_mm(&self) -> f64 {
        if self.pieces == 0 {
            0.0
        } else {
            self.sum_mm / self.pieces as f64
        }
    }
}

/// A seen piece farther than this (mm) from every truth piece of its kind
/// is unpaired.
pub const REST_PAIR_LIMIT_MM: f64 = 20.0;

/// Why rest positions could not be measured.
#[derive(Debug, thiserror::Error)]
pub enum RestErrorFailure {
    /// A stroke's `extra.vision.rest` is not a rest snapshot.
    #[error("stroke {stroke}: extra.vision.rest is malformed: {source}")]
    Malformed {
        /// Index of the stroke in the log.
        stroke: usize,
        /// The decoding failure.
        source: serde_json::Error,
    },
    /// A snapshot names a frame the truth does not have.
    #[error("stroke {stroke}: frame {frame} is past the truth's end")]
    PastTruth {
        /// Index of the stroke in the log.
        stroke: usize,
        /// The frame.
        frame: u64,
    },
}

/// Pairs every carromman and Queen in each stroke's rest snapshot (the
/// striker is usually back in a hand by then) with the truth pieces lying
/// on the board in that frame: same kind, nearest pairs first, none farther
/// than [`REST_PAIR_LIMIT_MM`].
pub fn rest_error(got: &StrokeLog, truth: &[FrameTruth]) -> Result<RestError, RestErrorFailure> {
    #[derive(serde::Deserialize)]
    struct Snapshot {
        frame: u64,
        pieces: Vec<Resting>,
    }
    #[derive(serde::Deserialize)]
    struct Resting {
        piece: Piece,
        x: f64,
        y: f64,
        #[serde(default)]
        no_outline: bool,
    }
    let mut total = RestError::default();
    for (index, stroke) in got.strokes.iter().enumerate() {
        let Some(rest) = stroke
            .extra
            .as_ref()
            .and_then(|extra| extra.get("vision"))
            .and_then(|vision| vision.get("rest"))
        else {
            continue;
        };
        let rest: Snapshot =
            serde_json::from_value(rest.clone()).map_err(|source| RestErrorFailure::Malformed {
                stroke: index,
                source,
            })?;
        let frame = usize::try_from(rest.frame)
            .ok()
            .and_then(|f| truth.get(f))
            .ok_or(RestErrorFailure::PastTruth {
                stroke: index,
                frame: rest.frame,
            })?;
        total.strokes += 1;
        let seen: Vec<&Resting> = rest
            .pieces
            .iter()
            .filter(|p| p.piece != Piece::Striker)
            .collect();
        let mut pairs = Vec::new();
        for (si, s) in seen.iter().enumerate() {
            for (ti, t) in frame.pieces.iter().enumerate() {
                if t.kind == s.piece && t.state == PieceState::OnBoard {
                    let d = (s.x - t.x).hypot(s.y - t.y);
                    if d <= REST_PAIR_LIMIT_MM {
                        pairs.push((d, si, ti));
                    }
                }
            }
        }
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut truth_used = vec![false; frame.pieces.len()];
        let mut seen_used = vec![false; seen.len()];
        for (d, si, ti) in pairs {
            if seen_used[si] || truth_used[ti] {
                continue;
            }
            seen_used[si] = true;
            truth_used[ti] = true;
            total.pieces += 1;
            total.sum_mm += d;
            total.max_mm = total.max_mm.max(d);
        }
        for (s, used) in seen.iter().zip(&seen_used) {
            match (used, s.no_outline) {
                (false, true) => total.unpaired_without_outline += 1,
                (true, true) => total.paired_without_outline += 1,
                _ => {}
            }
        }
        total.unpaired += seen_used.iter().filter(|used| !**used).count();
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::{OverboardPiece, PocketedPiece};
    use crate::geometry::Seat;

    /// The sample clip's truth logs, and the same board log with each
    /// player's name replaced by `rename(name)`, scored with the default
    /// match (players named by their seats).
    fn sample_boards_renamed(rename: fn(&str) -> &'static str) -> EvalReport {
        let fixture = |name: &str| {
            std::fs::read_to_string(format!(
                "{}/fixtures/board-full/{name}",
                env!("CARGO_MANIFEST_DIR")
            ))
            .expect("the sample clip's truth")
        };
        let truth: StrokeLog = fixture("truth.strokes.json").parse().expect("a stroke log");
        let truth_boards: BoardLog =
            serde_json::from_str(&fixture("truth.boardlog.json")).expect("a board log");
        let mut got = truth.clone();
        got.match_setup = serde_json::from_str(
            r#"{"event": "singles", "players": ["north", "south"],
                "seats": {"south": "south", "north": "north"}, "first_breaker": "north"}"#,
        )
        .expect("a match setup");
        let renamed = ["Asha", "Ben"]
            .into_iter()
            .fold(fixture("truth.boardlog.json"), |text, name| {
                text.replace(&format!("\"{name}\""), &format!("\"{}\"", rename(name)))
            });
        let got_boards: BoardLog = serde_json::from_str(&renamed).expect("a board log");
        evaluate(
            &truth,
            &got,
            Some((&truth_boards, &got_boards)),
            EvalOptions::default(),
        )
    }

    #[test]
    fn boards_are_compared_by_the_seats_of_the_winners_not_their_names() {
        // Asha sat south, Ben north in the sample.
        let same_side =
            sample_boards_renamed(|name| if name == "Asha" { "south" } else { "north" });
        assert_eq!(same_side.boards_right(), Some((1, 1)));
        let other_side =
            sample_boards_renamed(|name| if name == "Asha" { "north" } else { "south" });
        assert_eq!(other_side.boards_right(), Some((0, 1)));
    }

    fn stroke(seat: Seat, t: f64) -> Stroke {
        let json = format!(r#"{{"seat": "{seat}", "t": {t}, "touched": true}}"#);
        serde_json::from_str(&json).expect("a valid stroke")
    }

    fn log(strokes: Vec<Stroke>) -> StrokeLog {
        let json = r#"{"format": "carrom-strokes", "version": 1,
            "match": {"event": "singles", "players": ["A", "B"],
                      "seats": {"south": "A", "north": "B"}, "first_breaker": "A"},
            "strokes": []}"#;
        let mut log: StrokeLog = json.parse().expect("a valid log");
        log.strokes = strokes;
        log
    }

    fn truth() -> StrokeLog {
        let mut strokes: Vec<Stroke> = (0..6)
            .map(|i| {
                stroke(
                    if i % 2 == 0 { Seat::South } else { Seat::North },
                    3.0 * i as f64,
                )
            })
            .collect();
        strokes[1].pocketed.push(PocketedPiece {
            piece: Piece::Black,
            pocket: Some(Pocket::Ne),
            t: None,
            late: false,
        });
        strokes[4].overboard.push(OverboardPiece {
            piece: Piece::White,
            t: None,
        });
        log(strokes)
    }

    #[test]
    fn truth_against_itself_is_perfect() {
        let truth = truth();
        let report = evaluate(&truth, &truth, None, EvalOptions::default());
        assert!(report.is_perfect());
        assert_eq!(report.exactly_right, 6);
        assert_eq!(report.exact_fraction, 1.0);
    }

    #[test]
    fn known_edits_are_reported_exactly() {
        let truth = truth();
        let mut got = truth.clone();
        got.strokes[1].pocketed[0].pocket = Some(Pocket::Sw); // wrong pocket only
        got.strokes[2].seat = Seat::East; // wrong seat only
        got.strokes[4].overboard.clear(); // missed the jump
        got.strokes[5].touched = false;
        got.strokes.remove(3); // a missed stroke
        let mut spurious = stroke(Seat::North, 16.2);
        spurious.touched = false;
        got.strokes.push(spurious); // an extra one after the end
        for stroke in &mut got.strokes {
            stroke.t = stroke.t.map(|t| t + 0.2); // a constant latency is fine
        }
        let report = evaluate(&truth, &got, None, EvalOptions::default());
        assert_eq!(report.missed, vec![3]);
        assert_eq!(report.extra, vec![5]);
        let wrong: Vec<(usize, Vec<StrokeField>)> = report
            .matched
            .iter()
            .filter(|m| !m.wrong.is_empty())
            .map(|m| (m.truth, m.wrong.clone()))
            .collect();
        assert_eq!(
            wrong,
            vec![
                (1, vec![StrokeField::Pockets]),
                (2, vec![StrokeField::Seat]),
                (4, vec![StrokeField::Overboard]),
                (5, vec![StrokeField::Touched]),
            ]
        );
        assert_eq!(report.exactly_right, 1);
        assert!((report.exact_fraction - 1.0 / 7.0).abs() < 1e-12);
    }

    #[test]
    fn a_late_stroke_does_not_shift_the_later_pairings() {
        let truth = truth();
        let mut got = truth.clone();
        got.strokes[2].t = Some(7.5); // 1.5 s late: beyond the tolerance
        let report = evaluate(&truth, &got, None, EvalOptions::default());
        assert_eq!(report.missed, vec![2]);
        assert_eq!(report.extra, vec![2]);
        assert_eq!(report.matched.len(), 5);
        assert!(report.matched.iter().all(|m| m.truth == m.got));
    }
}
