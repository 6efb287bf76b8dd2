//! One board under the laws: the pieces, dues and Queen, and the pure
//! function that applies one stroke to them (ICF 44–45, 48, 63–66, 69–116).
//!
//! The board knows colours, not players: the engine tells it which colour
//! struck and each colour's game score, and maps colours back to sides.

use crate::contract::{Alert, AlertKind, FoulCall, OnBoard, QueenState, RuleSet, Stroke};
use crate::geometry::Piece;

use super::numbers::{
    BREAK_CHANCES, CARROMMEN_PER_COLOUR, LATE_FIXED_AWARD, MAX_BOARD_POINTS,
    QUEEN_CREDIT_MAX_SCORE, QUEEN_POINTS,
};

/// A carromman colour; the breaker's side has white (ICF 43).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Colour {
    White,
    Black,
}

impl Colour {
    pub(crate) fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    fn index(self) -> usize {
        match self {
            Colour::White => 0,
            Colour::Black => 1,
        }
    }

    pub(crate) fn piece(self) -> Piece {
        match self {
            Colour::White => Piece::White,
            Colour::Black => Piece::Black,
        }
    }

    fn name(self) -> &'static str {
        self.piece().name()
    }
}

/// Where the Queen is, and who has pocketed or covered her.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Queen {
    OnBoard,
    /// Pocketed by this colour; the next stroke must cover her.
    PendingCover(Colour),
    Covered(Colour),
}

/// Everything the laws need to know about the match to judge one stroke.
#[derive(Debug, Clone, Copy)]
pub(crate) struct StrokeContext {
    /// The colour of the side that struck.
    pub striker: Colour,
    /// Whether the striker is the one who pocketed a pending Queen (only they may cover her).
    pub striker_pocketed_pending_queen: bool,
    /// Each colour's game score before this board (index: white, black).
    pub scores: [u32; 2],
    pub rules: RuleSet,
    pub demand_extra_points: bool,
    /// The colour a foul on this stroke is called against, when not the striker's.
    pub foul_against_other: Option<Colour>,
}

/// How a board ended.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Finish {
    /// `None` only for a board stopped by the ECC time limit with equal coins.
    pub winner: Option<Colour>,
    pub coins: u32,
    pub queen: u32,
    pub extra: u32,
    pub laws: Vec<&'static str>,
    pub note: String,
}

impl Finish {
    /// The board's total, capped by ICF 55.
    pub(crate) fn points(&self) -> u32 {
        (self.coins + self.queen + self.extra).min(MAX_BOARD_POINTS)
    }
}

/// What the laws decided about one stroke.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct StrokeOutcome {
    pub turn_continues: bool,
    pub returned: Vec<Piece>,
    pub laws: Vec<&'static str>,
    pub notes: Vec<String>,
    pub alerts: Vec<Alert>,
    pub finish: Option<Finish>,
}

/// The state of one board: pieces on the board, pieces kept in the pockets,
/// dues owed, the Queen and the break.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Board {
    on_board: [u32; 2],
    kept: [u32; 2],
    owed: [u32; 2],
    /// Whether a carromman of this colour has been pocketed and kept this board
    /// (ICF 92; dues taken out later do not undo it, ICF 95(c)).
    ever_pocketed: [bool; 2],
    queen: Queen,
    break_pending: bool,
    break_misses: u32,
    finished: bool,
}

/// The pieces a stroke moved, after checking them against the board.
#[derive(Debug, Default)]
struct Moved {
    white: u32,
    black: u32,
    queen: bool,
    striker: bool,
    overboard: Vec<Piece>,
    striker_overboard: bool,
    put_back_late: Vec<Piece>,
}

impl Moved {
    fn of(&self, colour: Colour) -> u32 {
        match colour {
            Colour::White => self.white,
            Colour::Black => self.black,
        }
    }
}

impl Default for Board {
    fn default() -> Self {
        Board::new()
    }
}

impl Board {
    /// A board arranged for the break (ICF 41).
    pub(crate) fn new() -> Board {
        Board {
            on_board: [CARROMMEN_PER_COLOUR; 2],
            kept: [0; 2],
            owed: [0; 2],
            ever_pocketed: [false; 2],
            queen: Queen::OnBoard,
            break_pending: true,
            break_misses: 0,
            finished: false,
        }
    }

    pub(crate) fn on_board(&self) -> OnBoard {
        OnBoard {
            white: self.on_board[0],
            black: self.on_board[1],
            queen: self.queen == Queen::OnBoard,
        }
    }

    pub(crate) fn owed(&self, colour: Colour) -> u32 {
        self.owed[colour.index()]
    }

    #[cfg(test)]
    pub(crate) fn kept(&self, colour: Colour) -> u32 {
        self.kept[colour.index()]
    }

    pub(crate) fn queen(&self) -> Queen {
        self.queen
    }

    pub(crate) fn queen_state(&self) -> QueenState {
        match self.queen {
            Queen::OnBoard => QueenState::OnBoard,
            Queen::PendingCover(_) => QueenState::PendingCover,
            Queen::Covered(_) => QueenState::Covered,
        }
    }

    pub(crate) fn is_break_pending(&self) -> bool {
        self.break_pending
    }

    pub(crate) fn is_finished(&self) -> bool {
        self.finished
    }

    /// ECC 41: play stopped by the final bell; the side with fewer carrommen
    /// left wins by the difference, the Queen not counted.
    pub(crate) fn stop_by_time(&mut self) -> Finish {
        self.finished = true;
        let (white, black) = (self.on_board[0], self.on_board[1]);
        let winner = match white.cmp(&black) {
            std::cmp::Ordering::Less => Some(Colour::White),
            std::cmp::Ordering::Greater => Some(Colour::Black),
            std::cmp::Ordering::Equal => None,
        };
        Finish {
            winner,
            coins: white.abs_diff(black),
            queen: 0,
            extra: 0,
            laws: vec!["ECC 41"],
            note: format!(
                "stopped by the final bell with {white} white and {black} black left: the difference counts, the Queen does not"
            ),
        }
    }

    /// Applies one stroke. The board must not be finished.
    pub(crate) fn play(&mut self, stroke: &Stroke, ctx: &StrokeContext) -> StrokeOutcome {
        let mut out = StrokeOutcome {
            turn_continues: false,
            returned: Vec::new(),
            laws: Vec::new(),
            notes: Vec::new(),
            alerts: Vec::new(),
            finish: None,
        };
        let moved = self.read_moves(stroke, ctx, &mut out);
        out.returned.extend(moved.put_back_late.iter().copied());
        out.returned.extend(moved.overboard.iter().copied());
        if !moved.overboard.is_empty() {
            out.laws.push("ICF 65(a)");
            out.notes.push(format!(
                "{} jumped off: placed at the centre",
                list(&moved.overboard)
            ));
        }
        if moved.striker_overboard {
            out.laws.push("ICF 116");
            out.notes.push("striker jumped off the board".to_owned());
        }

        let striker_fouled =
            stroke.foul == Some(FoulCall::Foul) && ctx.foul_against_other.is_none();
        if self.break_pending {
            let touched_pieces =
                moved.white + moved.black > 0 || moved.queen || !moved.overboard.is_empty();
            if !stroke.touched && touched_pieces {
                out.alerts.push(Alert {
                    kind: AlertKind::TouchedContradicted,
                    message: "touched is false but carrommen moved off the board; the break is taken as made".to_owned(),
                });
            }
            if !(stroke.touched || touched_pieces) {
                self.missed_break(&moved, stroke.improper || striker_fouled, &mut out);
                self.technical_fouls(stroke, ctx, &mut out);
                self.settle_dues(&mut out);
                return out;
            }
            self.break_pending = false;
            self.break_misses = 0;
            out.laws.push("ICF 44");
            out.notes.push("break made".to_owned());
            if stroke.improper || striker_fouled {
                self.faulty_break(&moved, ctx.striker, striker_fouled, &mut out);
                self.technical_fouls(stroke, ctx, &mut out);
                self.settle_dues(&mut out);
                return out;
            }
        }

        let fouled = stroke.improper || striker_fouled;
        if let Some(finish) = self.finishing_stroke(&moved, ctx, fouled) {
            self.finished = true;
            let me = ctx.striker;
            self.take_off(me, moved.of(me));
            self.take_off(me.other(), moved.of(me.other()));
            if moved.queen && self.queen == Queen::OnBoard && finish.winner == Some(me) {
                self.queen = Queen::Covered(me);
            }
            if let Queen::PendingCover(by) = self.queen {
                self.queen = Queen::Covered(by);
            }
            out.laws.extend(finish.laws.iter().copied());
            out.notes.push(finish.note.clone());
            out.finish = Some(finish);
            return out;
        }
        self.ordinary_stroke(&moved, ctx, fouled, &mut out);
        self.technical_fouls(stroke, ctx, &mut out);
        self.settle_dues(&mut out);
        self.finish_if_cleared(ctx, &mut out);
        out
    }

    /// Counts what the stroke moved, ignoring (with an alert) pieces the laws
    /// say are not on the board, and putting back late pieces under ECC.
    fn read_moves(&self, stroke: &Stroke, ctx: &StrokeContext, out: &mut StrokeOutcome) -> Moved {
        let mut moved = Moved::default();
        let mut available = self.on_board;
        let mut queen_available = self.queen == Queen::OnBoard;
        let mut take = |piece: Piece, moved_what: &str, out: &mut StrokeOutcome| -> bool {
            let ok = match piece {
                Piece::White => available[0] > 0,
                Piece::Black => available[1] > 0,
                Piece::Queen => queen_available,
                Piece::Striker => true,
            };
            if ok {
                match piece {
                    Piece::White => available[0] -= 1,
                    Piece::Black => available[1] -= 1,
                    Piece::Queen => queen_available = false,
                    Piece::Striker => {}
                }
            } else {
                out.alerts.push(Alert {
                    kind: AlertKind::PieceNotOnBoard,
                    message: format!(
                        "a {piece} was reported {moved_what} but none is on the board; ignored"
                    ),
                });
            }
            ok
        };
        for pocketed in &stroke.pocketed {
            if !take(pocketed.piece, "pocketed", out) {
                continue;
            }
            if pocketed.late && pocketed.piece != Piece::Striker {
                match ctx.rules {
                    RuleSet::Ecc => {
                        moved.put_back_late.push(pocketed.piece);
                        out.laws.push(if pocketed.piece == Piece::Queen {
                            "ECC 103"
                        } else {
                            "ECC 53"
                        });
                        out.notes.push(format!(
                            "{} fell after the stroke: put back",
                            pocketed.piece
                        ));
                        continue;
                    }
                    RuleSet::Icf => {
                        out.laws.push(if pocketed.piece == Piece::Queen {
                            "ICF 113"
                        } else {
                            "ICF 71"
                        });
                    }
                }
            }
            match pocketed.piece {
                Piece::White => moved.white += 1,
                Piece::Black => moved.black += 1,
                Piece::Queen => moved.queen = true,
                Piece::Striker => moved.striker = true,
            }
        }
        for jumped in &stroke.overboard {
            if jumped.piece == Piece::Striker {
                moved.striker_overboard = true;
            } else if take(jumped.piece, "overboard", out) {
                moved.overboard.push(jumped.piece);
            }
        }
        moved
    }

    /// ICF 45: a break stroke that touched nothing.
    fn missed_break(&mut self, moved: &Moved, improper: bool, out: &mut StrokeOutcome) {
        if improper || moved.striker {
            self.break_misses = 0;
            out.laws.push("ICF 45(c)");
            out.notes.push(if moved.striker {
                "striker pocketed at the break without touching: turn lost, no due".to_owned()
            } else {
                "improper break stroke: turn lost, no penalty".to_owned()
            });
            return;
        }
        self.break_misses += 1;
        if self.break_misses < BREAK_CHANCES {
            out.turn_continues = true;
            out.laws.push("ICF 45(a)");
            out.notes.push(format!(
                "break not made (chance {} of {BREAK_CHANCES}): breaks again",
                self.break_misses
            ));
        } else {
            self.break_misses = 0;
            out.laws.push("ICF 45(b)");
            out.notes.push(format!(
                "break not made in {BREAK_CHANCES} chances: the right to break passes on, colours unchanged"
            ));
        }
    }

    /// ICF 45(c) and 47: an improper break, or one called a foul, loses the turn.
    fn faulty_break(
        &mut self,
        moved: &Moved,
        me: Colour,
        called_foul: bool,
        out: &mut StrokeOutcome,
    ) {
        let opp = me.other();
        self.pocket_kept(opp, moved.of(opp));
        if moved.of(opp) > 0 {
            out.notes
                .push(format!("{} {} stay pocketed", moved.of(opp), opp.name()));
        }
        let own = moved.of(me);
        out.returned
            .extend(std::iter::repeat_n(me.piece(), own as usize));
        if moved.queen {
            out.returned.push(Piece::Queen);
        }
        if called_foul {
            out.laws.extend(["ICF 47", "ICF 64(a)"]);
            out.notes.push(
                "break called a foul: own pieces and Queen taken out, one penalty carromman"
                    .to_owned(),
            );
            self.owed[me.index()] += 1;
        } else {
            out.laws.push("ICF 45(c)");
            out.notes.push(
                "improper break stroke: turn lost, own pieces and Queen taken out, no penalty"
                    .to_owned(),
            );
        }
    }

    /// ICF 63: technical fouls cost one carromman and leave the turn alone.
    fn technical_fouls(&mut self, stroke: &Stroke, ctx: &StrokeContext, out: &mut StrokeOutcome) {
        if let Some(offender) = ctx.foul_against_other {
            if stroke.foul.is_some() {
                self.owed[offender.index()] += 1;
                out.laws.push("ICF 63(b)");
                out.notes.push(format!(
                    "technical foul against {}: one penalty carromman",
                    offender.name()
                ));
            }
        } else if stroke.foul == Some(FoulCall::Technical) {
            self.owed[ctx.striker.index()] += 1;
            out.laws.push("ICF 63(a)");
            out.notes
                .push("technical foul: one penalty carromman, turn unaffected".to_owned());
        }
    }

    fn pocket_kept(&mut self, colour: Colour, count: u32) {
        self.take_off(colour, count);
        if count > 0 {
            self.ever_pocketed[colour.index()] = true;
        }
    }

    fn take_off(&mut self, colour: Colour, count: u32) {
        let i = colour.index();
        // read_moves never lets more pieces leave than are on the board.
        let count = count.min(self.on_board[i]);
        self.on_board[i] -= count;
        self.kept[i] += count;
    }

    /// A stroke that does not end the board (ICF 48, 72–77, 92–101).
    fn ordinary_stroke(
        &mut self,
        moved: &Moved,
        ctx: &StrokeContext,
        fouled: bool,
        out: &mut StrokeOutcome,
    ) {
        let laws_before = out.laws.len();
        let me = ctx.striker;
        let opp = me.other();
        let own = moved.of(me);
        let theirs = moved.of(opp);
        let all_nine_before = self.on_board[me.index()] == CARROMMEN_PER_COLOUR;
        let eligible_for_queen = self.ever_pocketed[me.index()] && self.owed[me.index()] == 0;

        if theirs > 0 {
            self.pocket_kept(opp, theirs);
            out.notes
                .push(format!("{theirs} {} pocketed (stay out)", opp.name()));
        }
        let own_returned = own > 0 && (fouled || moved.striker);
        if own > 0 {
            if own_returned {
                out.returned
                    .extend(std::iter::repeat_n(me.piece(), own as usize));
                out.notes
                    .push(format!("{own} {} pocketed and taken out again", me.name()));
            } else {
                self.pocket_kept(me, own);
                out.notes.push(format!("{own} {} pocketed", me.name()));
            }
        }
        let mut penalties = 0;
        if moved.striker {
            penalties += 1;
            out.laws.push(match (fouled, own > 0, theirs > 0) {
                (true, true, _) => "ICF 77(b)",
                (true, false, _) => "ICF 72(b)",
                (false, true, true) => "ICF 75",
                (false, true, false) => "ICF 73",
                (false, false, true) => "ICF 74",
                (false, false, false) => "ICF 72(a)",
            });
            out.notes.push("striker pocketed: one due".to_owned());
        }
        if fouled {
            penalties += 1;
            if !moved.striker {
                out.laws.push(match (own > 0 || moved.queen, theirs > 0) {
                    (true, _) => "ICF 77(a)",
                    (false, true) => "ICF 76",
                    (false, false) => "ICF 64(a)",
                });
            }
            out.laws.push("ICF 64(b)");
            out.notes
                .push("improper stroke or foul: one penalty carromman, turn lost".to_owned());
        }

        let mut queen_keeps_turn = false;
        match self.queen {
            Queen::OnBoard if moved.queen => {
                let keep =
                    !fouled && !moved.striker && eligible_for_queen_with(own, eligible_for_queen);
                if fouled {
                    out.returned.push(Piece::Queen);
                    out.laws.push(match (moved.striker, own > 0) {
                        (true, true) => "ICF 98(b)",
                        (true, false) => "ICF 99(b)",
                        (false, _) => "ICF 64(b)",
                    });
                    out.notes.push("Queen taken out".to_owned());
                } else if moved.striker {
                    out.returned.push(Piece::Queen);
                    if own > 0 {
                        out.laws.push("ICF 98(a)");
                        out.notes.push(
                            "Queen, own carrommen and striker: all taken out with a due".to_owned(),
                        );
                    } else if all_nine_before {
                        out.laws.push("ICF 95(d)");
                        out.notes.push("Queen with the striker while all nine carrommen are on the board: Queen out, due, turn lost".to_owned());
                    } else {
                        queen_keeps_turn = true;
                        out.laws.push("ICF 99(a)");
                        out.notes.push(
                            "Queen with the striker: Queen out, due, turn continues".to_owned(),
                        );
                    }
                } else if !keep {
                    out.returned.push(Piece::Queen);
                    if !self.ever_pocketed[me.index()] {
                        out.laws.push("ICF 95(a)");
                        out.notes.push(
                            "Queen pocketed before any own carromman: taken out, turn lost"
                                .to_owned(),
                        );
                    } else {
                        out.laws.push("ICF 95(b)");
                        out.notes.push(
                            "Queen pocketed while a due is owed: taken out, turn lost".to_owned(),
                        );
                    }
                } else if own == 0 {
                    self.queen = Queen::PendingCover(me);
                    queen_keeps_turn = true;
                    out.laws.extend(["ICF 92", "ICF 48"]);
                    out.notes
                        .push("Queen pocketed: to be covered with the next stroke".to_owned());
                } else if own == 1 && all_nine_before {
                    self.queen = Queen::PendingCover(me);
                    out.laws.push("ICF 97(b)");
                    out.notes
                        .push("Queen with the first carromman: still to be covered".to_owned());
                } else {
                    self.queen = Queen::Covered(me);
                    out.laws.push("ICF 97(a)");
                    out.notes
                        .push("Queen pocketed with an own carromman: covered".to_owned());
                }
            }
            Queen::PendingCover(by) => {
                let covering = by == me && ctx.striker_pocketed_pending_queen;
                if covering && own > 0 && !fouled && !moved.striker {
                    self.queen = Queen::Covered(me);
                    out.laws.push("ICF 92");
                    out.notes.push("Queen covered".to_owned());
                } else if covering && own > 0 && !fouled && moved.striker {
                    out.laws.push("ICF 101(a)");
                    out.notes.push("covering stroke pocketed the striker: the Queen must be covered by the next stroke".to_owned());
                } else {
                    self.queen = Queen::OnBoard;
                    out.returned.push(Piece::Queen);
                    out.laws
                        .push(match (covering, fouled, moved.striker, own > 0) {
                            (true, true, _, true) => "ICF 101(b)",
                            (true, true, true, false) => "ICF 100(b)",
                            (true, false, true, false) => "ICF 100(a)",
                            _ => "ICF 96",
                        });
                    out.notes.push("Queen not covered: taken out".to_owned());
                }
            }
            _ => {}
        }

        self.owed[me.index()] += penalties;
        out.turn_continues = !fouled && (own > 0 || queen_keeps_turn);
        if out.turn_continues && own > 0 && !moved.striker {
            out.laws.push("ICF 48");
            out.notes.push("turn continues".to_owned());
        }
        if out.laws.len() == laws_before {
            // Nothing of the player's own went in: the turn passes (ICF 48).
            out.laws.push("ICF 48");
            out.notes.push(if own == 0 && theirs == 0 && !moved.queen {
                "nothing pocketed: turn passes".to_owned()
            } else {
                "turn passes".to_owned()
            });
        }
    }

    /// ICF 72(c), 78(a): dues and penalties are taken out of the pockets as soon
    /// as carrommen of that colour are there, after the stroke.
    fn settle_dues(&mut self, out: &mut StrokeOutcome) {
        for colour in [Colour::White, Colour::Black] {
            let i = colour.index();
            if self.owed[i] == 0 {
                continue;
            }
            let taken = self.owed[i].min(self.kept[i]);
            if taken > 0 {
                self.kept[i] -= taken;
                self.on_board[i] += taken;
                self.owed[i] -= taken;
                out.returned
                    .extend(std::iter::repeat_n(colour.piece(), taken as usize));
                out.laws.push("ICF 78(a)");
                out.notes
                    .push(format!("{taken} {} placed as due/penalty", colour.name()));
            }
            if self.owed[i] > 0 {
                out.laws.push("ICF 72(c)");
                out.notes.push(format!(
                    "{} {} owed until one is pocketed",
                    self.owed[i],
                    colour.name()
                ));
            }
        }
    }

    /// ICF 52(a): should an ordinary stroke have cleared a colour (it cannot
    /// by the rules above, but bad input must not leave a board that never ends).
    fn finish_if_cleared(&mut self, ctx: &StrokeContext, out: &mut StrokeOutcome) {
        for colour in [Colour::White, Colour::Black] {
            if self.on_board[colour.index()] == 0 && !self.finished {
                self.finished = true;
                let loser = colour.other();
                let queen = match self.queen {
                    Queen::Covered(by) if by == colour => queen_value(ctx.scores[colour.index()]),
                    _ => 0,
                };
                let finish = Finish {
                    winner: Some(colour),
                    coins: self.on_board[loser.index()],
                    queen,
                    extra: 0,
                    laws: vec!["ICF 52(a)", "ICF 53(a)"],
                    note: format!("{} cleared", colour.name()),
                };
                out.laws.extend(finish.laws.iter().copied());
                out.notes.push(finish.note.clone());
                out.finish = Some(finish);
            }
        }
    }

    /// ICF 52–53, 102–112: the stroke pockets the last carromman of either
    /// colour. Returns `None` when the laws put the pieces back and play goes on.
    fn finishing_stroke(&self, moved: &Moved, ctx: &StrokeContext, fouled: bool) -> Option<Finish> {
        let me = ctx.striker;
        let opp = me.other();
        let own_last = moved.of(me) > 0 && moved.of(me) >= self.on_board[me.index()];
        let opp_last = moved.of(opp) > 0 && moved.of(opp) >= self.on_board[opp.index()];
        if !own_last && !opp_last {
            return None;
        }
        let own_left = self.on_board[me.index()].saturating_sub(moved.of(me));
        let opp_left = self.on_board[opp.index()].saturating_sub(moved.of(opp));
        let striker = moved.striker;
        let extra = |improper_points: bool| -> u32 {
            let striker_point = u32::from(striker);
            let improper_point = u32::from(improper_points && fouled);
            match ctx.rules {
                RuleSet::Ecc => striker_point,
                RuleSet::Icf if ctx.demand_extra_points => striker_point + improper_point,
                RuleSet::Icf => 0,
            }
        };
        let score = |colour: Colour| ctx.scores[colour.index()];
        let fixed = |colour: Colour| fixed_award(score(colour));
        let queen_now = if moved.queen {
            QueenNow::PocketedNow
        } else {
            match self.queen {
                Queen::OnBoard => QueenNow::OnBoard,
                Queen::PendingCover(by) if by == me && ctx.striker_pocketed_pending_queen => {
                    QueenNow::Pending
                }
                Queen::PendingCover(_) => QueenNow::OnBoard,
                Queen::Covered(by) => QueenNow::Covered(by),
            }
        };
        let award = |winner: Colour,
                     coins: u32,
                     queen: u32,
                     extra: u32,
                     law: &'static str,
                     note: String| {
            Some(Finish {
                winner: Some(winner),
                coins,
                queen,
                extra,
                laws: vec![law],
                note,
            })
        };

        match (own_last, opp_last) {
            (true, false) => match queen_now {
                QueenNow::Covered(by) => {
                    if striker || fouled {
                        return None;
                    }
                    let queen = if by == me { queen_value(score(me)) } else { 0 };
                    award(
                        me,
                        opp_left,
                        queen,
                        0,
                        "ICF 52(a)",
                        format!("{} cleared first", me.name()),
                    )
                    .map(|f| with_law(f, "ICF 53(a)"))
                }
                QueenNow::Pending | QueenNow::PocketedNow => {
                    if striker || fouled {
                        return None;
                    }
                    let law = if queen_now == QueenNow::Pending {
                        "ICF 92"
                    } else {
                        "ICF 97(a)"
                    };
                    award(
                        me,
                        opp_left,
                        queen_value(score(me)),
                        0,
                        "ICF 52(a)",
                        format!("{} covered the Queen with the last carromman", me.name()),
                    )
                    .map(|f| with_law(with_law(f, law), "ICF 53(a)"))
                }
                QueenNow::OnBoard => {
                    let law = match (striker, fouled) {
                        (true, false) => "ICF 108(a)",
                        (true, true) => "ICF 108(b)",
                        (false, false) => "ICF 107(a)",
                        (false, true) => "ICF 107(b)",
                    };
                    award(
                        opp,
                        0,
                        fixed(opp),
                        extra(true),
                        law,
                        format!(
                            "{} pocketed the last carromman leaving the Queen: loses",
                            me.name()
                        ),
                    )
                }
            },
            (false, true) => match queen_now {
                QueenNow::Covered(by) => {
                    let queen = if by == opp {
                        queen_value(score(opp))
                    } else {
                        0
                    };
                    award(
                        opp,
                        own_left,
                        queen,
                        0,
                        "ICF 52(a)",
                        format!(
                            "{} pocketed the opponent's last carromman: the opponent wins",
                            me.name()
                        ),
                    )
                    .map(|f| with_law(f, "ICF 53(a)"))
                }
                QueenNow::Pending => {
                    let law = if fouled { "ICF 103(b)" } else { "ICF 103(a)" };
                    award(opp, own_left, queen_value(score(opp)), extra(true), law,
                        format!("{} pocketed the opponent's last carromman while covering the Queen: loses", me.name()))
                }
                QueenNow::OnBoard | QueenNow::PocketedNow => {
                    let law = match (striker, fouled) {
                        (true, false) => "ICF 111(a)",
                        (true, true) => "ICF 111(b)",
                        (false, false) => "ICF 106(a)",
                        (false, true) => "ICF 106(b)",
                    };
                    award(opp, own_left, queen_value(score(opp)), extra(true), law,
                        format!("{} pocketed the opponent's last carromman with the Queen on the board: loses", me.name()))
                }
            },
            (true, true) => {
                let both = format!("{} pocketed the last carromman of both colours", me.name());
                match queen_now {
                    QueenNow::Pending | QueenNow::PocketedNow if striker => {
                        let law = if fouled { "ICF 109(b)" } else { "ICF 109(a)" };
                        award(
                            opp,
                            0,
                            fixed(opp),
                            extra(true),
                            law,
                            format!("{both} with the Queen and the striker: loses"),
                        )
                    }
                    QueenNow::Pending => {
                        if fouled {
                            award(
                                opp,
                                0,
                                fixed(opp),
                                extra(true),
                                "ICF 102(b)",
                                format!("{both} while covering, improperly: loses"),
                            )
                        } else {
                            award(
                                me,
                                0,
                                fixed(me),
                                0,
                                "ICF 102(a)",
                                format!("{both} while covering the Queen: wins"),
                            )
                        }
                    }
                    QueenNow::PocketedNow => {
                        if fouled {
                            award(
                                opp,
                                0,
                                fixed(opp),
                                extra(true),
                                "ICF 104(b)",
                                format!("{both} and the Queen, improperly: loses"),
                            )
                        } else {
                            award(
                                me,
                                0,
                                fixed(me),
                                0,
                                "ICF 104(a)",
                                format!("{both} and the Queen: wins"),
                            )
                        }
                    }
                    QueenNow::OnBoard => {
                        let law = if fouled { "ICF 105(b)" } else { "ICF 105(a)" };
                        award(
                            opp,
                            0,
                            fixed(opp),
                            extra(true),
                            law,
                            format!("{both} with the Queen on the board: the opponent wins"),
                        )
                    }
                    QueenNow::Covered(by) if striker => {
                        if by == me {
                            let law = if fouled { "ICF 110(b)" } else { "ICF 110(a)" };
                            award(opp, 0, 0, LATE_FIXED_AWARD + extra(true), law, format!("{both} with the striker, having covered the Queen: loses by one"))
                        } else {
                            let law = if fouled { "ICF 112(b)" } else { "ICF 112(a)" };
                            award(opp, 0, fixed(opp), extra(true), law, format!("{both} with the striker, the opponent having covered the Queen: loses"))
                        }
                    }
                    QueenNow::Covered(by) => {
                        // Not written in the laws: as in 102, a proper stroke wins
                        // (3, or 1 from 22 if this side covered the Queen, else 1)
                        // and an improper one gives the opponent 3 (or 1).
                        if fouled {
                            award(
                                opp,
                                0,
                                fixed(opp),
                                extra(true),
                                "ICF 102(b)",
                                format!("{both}, improperly: loses (as ICF 102(b))"),
                            )
                        } else if by == me {
                            award(
                                me,
                                0,
                                fixed(me),
                                0,
                                "ICF 102(a)",
                                format!("{both}, having covered the Queen: wins (as ICF 102(a))"),
                            )
                        } else {
                            award(
                                me,
                                0,
                                LATE_FIXED_AWARD,
                                0,
                                "ICF 52(a)",
                                format!(
                                    "{both}, the opponent having covered the Queen: wins by one"
                                ),
                            )
                        }
                    }
                }
            }
            (false, false) => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum QueenNow {
    OnBoard,
    /// Pocketed by this very stroke.
    PocketedNow,
    /// Pocketed by the striker's previous stroke, this stroke must cover.
    Pending,
    Covered(Colour),
}

fn with_law(mut finish: Finish, law: &'static str) -> Finish {
    finish.laws.push(law);
    finish
}

/// Whether pocketing the Queen with `own` carrommen of one's own counts (ICF 92, 95, 97).
fn eligible_for_queen_with(own: u32, eligible_before: bool) -> bool {
    own > 0 || eligible_before
}

/// The Queen's credit for a side with this game score (ICF 52(b)(i), 54).
pub(crate) fn queen_value(score: u32) -> u32 {
    if score <= QUEEN_CREDIT_MAX_SCORE {
        QUEEN_POINTS
    } else {
        0
    }
}

/// The fixed award of ICF 102–112: 3 points, or 1 from 22 points on.
pub(crate) fn fixed_award(score: u32) -> u32 {
    if score <= QUEEN_CREDIT_MAX_SCORE {
        QUEEN_POINTS
    } else {
        LATE_FIXED_AWARD
    }
}

fn list(pieces: &[Piece]) -> String {
    pieces
        .iter()
        .map(|p| p.name())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
impl Board {
    /// A board after the break with `white` and `black` carrommen left, the
    /// rest pocketed and kept, and the Queen where given.
    pub(crate) fn arranged(white: u32, black: u32, queen: Queen) -> Board {
        let on_board = [white, black];
        let kept = on_board.map(|n| CARROMMEN_PER_COLOUR - n);
        Board {
            on_board,
            kept,
            owed: [0; 2],
            ever_pocketed: kept.map(|k| k > 0),
            queen,
            break_pending: false,
            break_misses: 0,
            finished: false,
        }
    }

    /// The same board with `count` dues owed by `colour` (and, as the laws
    /// allow only then, none of that colour kept in the pockets).
    pub(crate) fn owing(mut self, colour: Colour, count: u32, ever_pocketed: bool) -> Board {
        let i = colour.index();
        self.on_board[i] = CARROMMEN_PER_COLOUR;
        self.kept[i] = 0;
        self.owed[i] = count;
        self.ever_pocketed[i] = ever_pocketed;
        self
    }

    /// Pieces of a colour on the board plus kept in the pockets: always nine.
    pub(crate) fn accounted(&self, colour: Colour) -> u32 {
        self.on_board[colour.index()] + self.kept(colour)
    }
}
