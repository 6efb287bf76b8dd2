//! Law-by-law tests: each case names the clause it checks, sets up a board,
//! plays one stroke and states what the clause says must follow.

use super::board::{Board, Colour, Queen, StrokeContext};
use crate::contract::{FoulCall, OverboardPiece, PocketedPiece, RuleSet, Stroke};
use crate::geometry::{Piece, Seat};

/// A stroke from a compact spec: `w b q x` pocket white/black/Queen/striker,
/// `late:w` a white that fell late, `over:b` a black overboard, `over:x` the
/// striker overboard, `-` not touched, `!` improper, `F` foul, `T` technical.
pub(super) fn stroke(seat: Seat, spec: &str) -> Stroke {
    let mut s = Stroke {
        seat,
        t: None,
        touched: true,
        pocketed: Vec::new(),
        overboard: Vec::new(),
        improper: false,
        foul: None,
        foul_by: None,
        extra: None,
    };
    let piece = |c: &str| match c {
        "w" => Piece::White,
        "b" => Piece::Black,
        "q" => Piece::Queen,
        "x" => Piece::Striker,
        other => panic!("bad piece {other} in test spec"),
    };
    for token in spec.split_whitespace() {
        match token {
            "-" => s.touched = false,
            "!" => s.improper = true,
            "F" => s.foul = Some(FoulCall::Foul),
            "T" => s.foul = Some(FoulCall::Technical),
            _ => {
                if let Some(p) = token.strip_prefix("over:") {
                    s.overboard.push(OverboardPiece {
                        piece: piece(p),
                        t: None,
                    });
                } else if let Some(p) = token.strip_prefix("late:") {
                    s.pocketed.push(PocketedPiece {
                        piece: piece(p),
                        pocket: None,
                        t: None,
                        late: true,
                    });
                } else {
                    s.pocketed.push(PocketedPiece {
                        piece: piece(token),
                        pocket: None,
                        t: None,
                        late: false,
                    });
                }
            }
        }
    }
    s
}

struct Case {
    name: &'static str,
    board: Board,
    /// Game scores before the board: white, black.
    scores: [u32; 2],
    spec: &'static str,
    rules: RuleSet,
    demand: bool,
    /// Turn continues after the stroke.
    continues: bool,
    /// Pieces put back, sorted.
    returned: &'static [Piece],
    owed: [u32; 2],
    queen: Queen,
    /// The clause that must be cited.
    law: &'static str,
    /// Board result: winner and points, when the stroke ends the board.
    finish: Option<(Colour, u32)>,
}

const W: Piece = Piece::White;
const B: Piece = Piece::Black;
const Q: Piece = Piece::Queen;
use Colour::{Black as BLACK, White as WHITE};

fn base(name: &'static str, board: Board, spec: &'static str, law: &'static str) -> Case {
    let queen = board.queen();
    Case {
        name,
        board,
        scores: [0, 0],
        spec,
        rules: RuleSet::Icf,
        demand: false,
        continues: false,
        returned: &[],
        owed: [0, 0],
        queen,
        law,
        finish: None,
    }
}

fn mid() -> Board {
    Board::arranged(5, 6, Queen::OnBoard)
}

fn cases() -> Vec<Case> {
    let covered_w = Queen::Covered(WHITE);
    let covered_b = Queen::Covered(BLACK);
    let pending_w = Queen::PendingCover(WHITE);
    vec![
        Case {
            continues: true,
            ..base(
                "ICF 48: own carromman pocketed, turn continues",
                mid(),
                "w",
                "ICF 48",
            )
        },
        Case {
            ..base(
                "ICF 48: only the opponent's carromman, turn passes",
                mid(),
                "b",
                "ICF 48",
            )
        },
        Case {
            returned: &[W],
            ..base("ICF 72(a): striker alone, one due", mid(), "x", "ICF 72(a)")
        },
        Case {
            owed: [1, 0],
            ..base(
                "ICF 72(c): due owed while none pocketed",
                Board::arranged(9, 6, Queen::OnBoard),
                "x",
                "ICF 72(c)",
            )
        },
        Case {
            returned: &[W, W],
            ..base(
                "ICF 72(b): improper, striker alone: due and penalty",
                mid(),
                "! x",
                "ICF 72(b)",
            )
        },
        Case {
            continues: true,
            returned: &[W, W],
            ..base(
                "ICF 73: own carromman with the striker",
                mid(),
                "w x",
                "ICF 73",
            )
        },
        Case {
            returned: &[W],
            ..base(
                "ICF 74: opponent's carromman with the striker",
                mid(),
                "b x",
                "ICF 74",
            )
        },
        Case {
            continues: true,
            returned: &[W, W],
            ..base(
                "ICF 75: own and opponent's with the striker",
                mid(),
                "w b x",
                "ICF 75",
            )
        },
        Case {
            returned: &[W],
            ..base(
                "ICF 76: improper, opponent's carromman stays out, penalty",
                mid(),
                "! b",
                "ICF 76",
            )
        },
        Case {
            returned: &[W, W],
            ..base(
                "ICF 77(a): improper, own carromman back with a penalty",
                mid(),
                "! w",
                "ICF 77(a)",
            )
        },
        Case {
            returned: &[W, W, W],
            ..base(
                "ICF 77(b): improper, own with striker: due and penalty",
                mid(),
                "! w x",
                "ICF 77(b)",
            )
        },
        Case {
            returned: &[B],
            ..base(
                "ICF 78(a): opponent's due taken out when his carromman is pocketed",
                Board::arranged(5, 9, Queen::OnBoard).owing(BLACK, 1, false),
                "b",
                "ICF 78(a)",
            )
        },
        Case {
            continues: true,
            returned: &[W],
            ..base(
                "ICF 63(a): technical foul, penalty, turn goes on",
                mid(),
                "T w",
                "ICF 63(a)",
            )
        },
        Case {
            returned: &[W],
            ..base(
                "ICF 64(a): foul, one penalty, turn lost",
                mid(),
                "F",
                "ICF 64(a)",
            )
        },
        Case {
            returned: &[W, W, Q],
            ..base(
                "ICF 64(b): foul while pocketing: pocketed plus one",
                mid(),
                "F w q",
                "ICF 64(b)",
            )
        },
        Case {
            returned: &[B],
            ..base(
                "ICF 65(a): overboard carromman back at the centre",
                mid(),
                "over:b",
                "ICF 65(a)",
            )
        },
        Case {
            continues: true,
            ..base(
                "ICF 116: striker off the board, own pocketed, turn continues",
                mid(),
                "w over:x",
                "ICF 116",
            )
        },
        Case {
            returned: &[Q],
            ..base(
                "ICF 95(a): Queen before any own carromman",
                Board::arranged(9, 6, Queen::OnBoard),
                "q",
                "ICF 95(a)",
            )
        },
        Case {
            returned: &[Q],
            owed: [1, 0],
            ..base(
                "ICF 95(b): Queen while a due is owed",
                Board::arranged(9, 6, Queen::OnBoard).owing(WHITE, 1, true),
                "q",
                "ICF 95(b)",
            )
        },
        Case {
            continues: true,
            queen: pending_w,
            ..base(
                "ICF 95(c): dues recovered, all nine on board, Queen may be pocketed",
                Board::arranged(9, 6, Queen::OnBoard).owing(WHITE, 0, true),
                "q",
                "ICF 92",
            )
        },
        Case {
            returned: &[Q],
            owed: [1, 0],
            ..base(
                "ICF 95(d): Queen with striker while all nine on board",
                Board::arranged(9, 6, Queen::OnBoard),
                "q x",
                "ICF 95(d)",
            )
        },
        Case {
            continues: true,
            queen: covered_w,
            ..base(
                "ICF 92: Queen covered by the next stroke",
                Board::arranged(5, 6, pending_w),
                "w",
                "ICF 92",
            )
        },
        Case {
            returned: &[Q],
            queen: Queen::OnBoard,
            ..base(
                "ICF 96: Queen not covered goes back",
                Board::arranged(5, 6, pending_w),
                "",
                "ICF 96",
            )
        },
        Case {
            continues: true,
            queen: covered_w,
            ..base(
                "ICF 97(a): Queen and own carromman together: covered",
                mid(),
                "q w",
                "ICF 97(a)",
            )
        },
        Case {
            continues: true,
            queen: pending_w,
            ..base(
                "ICF 97(b): all nine on board, Queen and one carromman: still to cover",
                Board::arranged(9, 6, Queen::OnBoard),
                "q w",
                "ICF 97(b)",
            )
        },
        Case {
            continues: true,
            queen: covered_w,
            ..base(
                "ICF 97(b): all nine on board, Queen and two carrommen: covered",
                Board::arranged(9, 6, Queen::OnBoard),
                "q w w",
                "ICF 97(a)",
            )
        },
        Case {
            continues: true,
            returned: &[W, W, Q],
            ..base(
                "ICF 98(a): Queen, own carromman and striker",
                mid(),
                "q w x",
                "ICF 98(a)",
            )
        },
        Case {
            returned: &[W, W, W, Q],
            ..base(
                "ICF 98(b): the same by an improper stroke",
                mid(),
                "! q w x",
                "ICF 77(b)",
            )
        },
        Case {
            continues: true,
            returned: &[W, Q],
            ..base("ICF 99(a): Queen and striker", mid(), "q x", "ICF 99(a)")
        },
        Case {
            returned: &[W, W, Q],
            ..base(
                "ICF 99(b): Queen and striker, improper",
                mid(),
                "! q x",
                "ICF 99(b)",
            )
        },
        Case {
            returned: &[W, Q],
            queen: Queen::OnBoard,
            ..base(
                "ICF 100(a): covering, striker alone",
                Board::arranged(5, 6, pending_w),
                "x",
                "ICF 100(a)",
            )
        },
        Case {
            returned: &[W, W, Q],
            queen: Queen::OnBoard,
            ..base(
                "ICF 100(b): covering, striker alone, improper",
                Board::arranged(5, 6, pending_w),
                "! x",
                "ICF 100(b)",
            )
        },
        Case {
            continues: true,
            returned: &[W, W],
            queen: pending_w,
            ..base(
                "ICF 101(a): covering, own with striker: cover again next stroke",
                Board::arranged(5, 6, pending_w),
                "w x",
                "ICF 101(a)",
            )
        },
        Case {
            returned: &[W, W, W, Q],
            queen: Queen::OnBoard,
            ..base(
                "ICF 101(b): covering, own with striker, improper",
                Board::arranged(5, 6, pending_w),
                "! w x",
                "ICF 101(b)",
            )
        },
        // End of board (52–55, 102–112). Scores are before the board: [white, black].
        Case {
            queen: covered_w,
            finish: Some((WHITE, 6 + 3)),
            ..base(
                "ICF 52(a), 53(a): last carromman, Queen covered: opponent's coins and Queen",
                Board::arranged(1, 6, covered_w),
                "w",
                "ICF 52(a)",
            )
        },
        Case {
            scores: [22, 0],
            queen: covered_w,
            finish: Some((WHITE, 6)),
            ..base(
                "ICF 54: no Queen points from 22",
                Board::arranged(1, 6, covered_w),
                "w",
                "ICF 52(a)",
            )
        },
        Case {
            scores: [21, 0],
            queen: covered_w,
            finish: Some((WHITE, 9)),
            ..base(
                "ICF 52(b)(i): Queen counts at 21",
                Board::arranged(1, 6, covered_w),
                "w",
                "ICF 52(a)",
            )
        },
        Case {
            queen: covered_b,
            finish: Some((WHITE, 6)),
            ..base(
                "ICF 53(c): Queen covered by the loser counts for nobody",
                Board::arranged(1, 6, covered_b),
                "w",
                "ICF 52(a)",
            )
        },
        Case {
            queen: covered_w,
            finish: Some((BLACK, 4)),
            ..base(
                "ICF 52(a): pocketing the opponent's last carromman gives him the board",
                Board::arranged(4, 1, covered_w),
                "b",
                "ICF 52(a)",
            )
        },
        Case {
            queen: covered_w,
            finish: Some((WHITE, 6 + 3)),
            ..base(
                "ICF 92: covering with the last carromman wins with the Queen",
                Board::arranged(1, 6, pending_w),
                "w",
                "ICF 92",
            )
        },
        Case {
            finish: Some((WHITE, 3)),
            ..base(
                "ICF 102(a): covering with both last carrommen",
                Board::arranged(1, 1, pending_w),
                "w b",
                "ICF 102(a)",
            )
        },
        Case {
            scores: [22, 0],
            finish: Some((WHITE, 1)),
            ..base(
                "ICF 102(a): from 22 the win is by 1",
                Board::arranged(1, 1, pending_w),
                "w b",
                "ICF 102(a)",
            )
        },
        Case {
            demand: true,
            finish: Some((BLACK, 3 + 1)),
            ..base(
                "ICF 102(b): improperly: the opponent wins 3, plus 1 if demanded",
                Board::arranged(1, 1, pending_w),
                "! w b",
                "ICF 102(b)",
            )
        },
        Case {
            finish: Some((BLACK, 4 + 3)),
            ..base(
                "ICF 103(a): covering, pockets the opponent's last",
                Board::arranged(4, 1, pending_w),
                "b",
                "ICF 103(a)",
            )
        },
        Case {
            scores: [0, 22],
            finish: Some((BLACK, 4)),
            ..base(
                "ICF 103(a): opponent at 22: coins only",
                Board::arranged(4, 1, pending_w),
                "b",
                "ICF 103(a)",
            )
        },
        Case {
            demand: true,
            finish: Some((BLACK, 4 + 3 + 1)),
            ..base(
                "ICF 103(b): improperly, plus 1 if demanded",
                Board::arranged(4, 1, pending_w),
                "! b",
                "ICF 103(b)",
            )
        },
        Case {
            queen: covered_w,
            finish: Some((WHITE, 3)),
            ..base(
                "ICF 104(a): Queen with both last carrommen",
                Board::arranged(1, 1, Queen::OnBoard),
                "q w b",
                "ICF 104(a)",
            )
        },
        Case {
            demand: true,
            finish: Some((BLACK, 3 + 1)),
            ..base(
                "ICF 104(b): the same improperly",
                Board::arranged(1, 1, Queen::OnBoard),
                "! q w b",
                "ICF 104(b)",
            )
        },
        Case {
            finish: Some((BLACK, 3)),
            ..base(
                "ICF 105(a): both last carrommen, Queen on the board",
                Board::arranged(1, 1, Queen::OnBoard),
                "w b",
                "ICF 105(a)",
            )
        },
        Case {
            scores: [0, 23],
            finish: Some((BLACK, 1)),
            ..base(
                "ICF 105(a): opponent at 23: 1 point",
                Board::arranged(1, 1, Queen::OnBoard),
                "w b",
                "ICF 105(a)",
            )
        },
        Case {
            demand: false,
            finish: Some((BLACK, 3)),
            ..base(
                "ICF 105(b): improper, extra point not demanded",
                Board::arranged(1, 1, Queen::OnBoard),
                "! w b",
                "ICF 105(b)",
            )
        },
        Case {
            finish: Some((BLACK, 4 + 3)),
            ..base(
                "ICF 106(a): opponent's last with the Queen on the board",
                Board::arranged(4, 1, Queen::OnBoard),
                "b",
                "ICF 106(a)",
            )
        },
        Case {
            demand: true,
            finish: Some((BLACK, 4 + 3 + 1)),
            ..base(
                "ICF 106(b): improperly, plus 1 if demanded",
                Board::arranged(4, 1, Queen::OnBoard),
                "! b",
                "ICF 106(b)",
            )
        },
        Case {
            finish: Some((BLACK, 3)),
            ..base(
                "ICF 107(a): own last leaving the Queen",
                Board::arranged(1, 5, Queen::OnBoard),
                "w",
                "ICF 107(a)",
            )
        },
        Case {
            scores: [0, 22],
            finish: Some((BLACK, 1)),
            ..base(
                "ICF 107(a): opponent at 22: loses by one",
                Board::arranged(1, 5, Queen::OnBoard),
                "w",
                "ICF 107(a)",
            )
        },
        Case {
            demand: true,
            finish: Some((BLACK, 3 + 1)),
            ..base(
                "ICF 107(b): improperly, plus 1 if demanded",
                Board::arranged(1, 5, Queen::OnBoard),
                "! w",
                "ICF 107(b)",
            )
        },
        Case {
            demand: true,
            finish: Some((BLACK, 3 + 1)),
            ..base(
                "ICF 108(a): own last with striker leaving the Queen",
                Board::arranged(1, 5, Queen::OnBoard),
                "w x",
                "ICF 108(a)",
            )
        },
        Case {
            finish: Some((BLACK, 3)),
            ..base(
                "ICF 108(a): striker point only if demanded",
                Board::arranged(1, 5, Queen::OnBoard),
                "w x",
                "ICF 108(a)",
            )
        },
        Case {
            demand: true,
            finish: Some((BLACK, 3 + 2)),
            ..base(
                "ICF 108(b): improperly, two if demanded",
                Board::arranged(1, 5, Queen::OnBoard),
                "! w x",
                "ICF 108(b)",
            )
        },
        Case {
            demand: true,
            finish: Some((BLACK, 3 + 1)),
            ..base(
                "ICF 109(a): Queen, both last and striker",
                Board::arranged(1, 1, Queen::OnBoard),
                "q w b x",
                "ICF 109(a)",
            )
        },
        Case {
            demand: true,
            finish: Some((BLACK, 3 + 2)),
            ..base(
                "ICF 109(b): the same improperly",
                Board::arranged(1, 1, Queen::OnBoard),
                "! q w b x",
                "ICF 109(b)",
            )
        },
        Case {
            demand: true,
            finish: Some((BLACK, 1 + 1)),
            ..base(
                "ICF 110(a): both last with striker, Queen covered by him",
                Board::arranged(1, 1, covered_w),
                "w b x",
                "ICF 110(a)",
            )
        },
        Case {
            demand: true,
            finish: Some((BLACK, 1 + 2)),
            ..base(
                "ICF 110(b): the same improperly",
                Board::arranged(1, 1, covered_w),
                "! w b x",
                "ICF 110(b)",
            )
        },
        Case {
            demand: true,
            finish: Some((BLACK, 4 + 3 + 1)),
            ..base(
                "ICF 111(a): opponent's last with striker, Queen on the board",
                Board::arranged(4, 1, Queen::OnBoard),
                "b x",
                "ICF 111(a)",
            )
        },
        Case {
            demand: true,
            scores: [0, 22],
            finish: Some((BLACK, 4 + 1)),
            ..base(
                "ICF 111(a): opponent at 22: coins only",
                Board::arranged(4, 1, Queen::OnBoard),
                "b x",
                "ICF 111(a)",
            )
        },
        Case {
            demand: true,
            finish: Some((BLACK, 4 + 3 + 2)),
            ..base(
                "ICF 111(b): the same improperly",
                Board::arranged(4, 1, Queen::OnBoard),
                "! b x",
                "ICF 111(b)",
            )
        },
        Case {
            demand: true,
            finish: Some((BLACK, 3 + 1)),
            ..base(
                "ICF 112(a): both last with striker, Queen covered by the opponent",
                Board::arranged(1, 1, covered_b),
                "w b x",
                "ICF 112(a)",
            )
        },
        Case {
            demand: true,
            scores: [0, 22],
            finish: Some((BLACK, 1 + 1)),
            ..base(
                "ICF 112(a): opponent at 22 gets one",
                Board::arranged(1, 1, covered_b),
                "w b x",
                "ICF 112(a)",
            )
        },
        Case {
            demand: true,
            finish: Some((BLACK, 3 + 2)),
            ..base(
                "ICF 112(b): the same improperly",
                Board::arranged(1, 1, covered_b),
                "! w b x",
                "ICF 112(b)",
            )
        },
        Case {
            demand: true,
            finish: Some((BLACK, 12)),
            ..base(
                "ICF 55: at most 12 points a board (8 + 3 + 2 demanded)",
                Board::arranged(8, 1, Queen::OnBoard),
                "! b x",
                "ICF 55",
            )
        },
        Case {
            finish: Some((WHITE, 1)),
            ..base(
                "interpretation: both last, Queen covered by the opponent, proper: wins by one",
                Board::arranged(1, 1, covered_b),
                "w b",
                "ICF 52(a)",
            )
        },
        Case {
            queen: covered_w,
            finish: Some((WHITE, 3)),
            ..base(
                "interpretation: both last, Queen covered by him: wins as 102(a)",
                Board::arranged(1, 1, covered_w),
                "w b",
                "ICF 102(a)",
            )
        },
        // ICF 69(b), 71, 113 count late pieces; ECC 53, 55, 103 put them back.
        Case {
            continues: true,
            ..base(
                "ICF 71: a carromman falling late counts",
                mid(),
                "late:w",
                "ICF 71",
            )
        },
        Case {
            rules: RuleSet::Ecc,
            returned: &[W],
            ..base(
                "ECC 55: a carromman falling late is put back",
                mid(),
                "late:w",
                "ECC 53",
            )
        },
        Case {
            rules: RuleSet::Ecc,
            returned: &[Q],
            ..base(
                "ECC 103: the Queen falling late is put back",
                mid(),
                "late:q",
                "ECC 103",
            )
        },
        Case {
            rules: RuleSet::Ecc,
            finish: Some((BLACK, 3 + 1)),
            ..base(
                "ECC 98: striker point given without a demand",
                Board::arranged(1, 5, Queen::OnBoard),
                "w x",
                "ICF 108(a)",
            )
        },
    ]
}

#[test]
fn every_law_case_decides_as_the_clause_says() {
    let mut failures = Vec::new();
    for mut case in cases() {
        let ctx = StrokeContext {
            striker: WHITE,
            striker_pocketed_pending_queen: matches!(
                case.board.queen(),
                Queen::PendingCover(WHITE)
            ),
            scores: case.scores,
            rules: case.rules,
            demand_extra_points: case.demand,
            foul_against_other: None,
        };
        let out = case.board.play(&stroke(Seat::South, case.spec), &ctx);
        let mut returned = out.returned.clone();
        returned.sort();
        let finish = out
            .finish
            .as_ref()
            .and_then(|f| f.winner.map(|w| (w, f.points())));
        let laws_cited = out.laws.contains(&case.law)
            || out.finish.as_ref().is_some_and(|_| case.law == "ICF 55");
        let checks = [
            ("turn_continues", out.turn_continues == case.continues),
            (
                "returned",
                case.finish.is_some() || returned == case.returned,
            ),
            (
                "owed",
                case.finish.is_some()
                    || [case.board.owed(WHITE), case.board.owed(BLACK)] == case.owed,
            ),
            (
                "queen",
                case.finish.is_some() || case.board.queen() == case.queen,
            ),
            ("law", laws_cited),
            ("finish", finish == case.finish),
            (
                "nine per colour",
                [WHITE, BLACK].iter().all(|&c| case.board.accounted(c) == 9),
            ),
        ];
        for (what, ok) in checks {
            if !ok {
                failures.push(format!(
                    "{}: {what} wrong: continues={} returned={returned:?} owed=[{}, {}] queen={:?} laws={:?} finish={finish:?}",
                    case.name, out.turn_continues, case.board.owed(WHITE), case.board.owed(BLACK), case.board.queen(), out.laws
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn break_chances_follow_icf_45() {
    let ctx = StrokeContext {
        striker: WHITE,
        striker_pocketed_pending_queen: false,
        scores: [0, 0],
        rules: RuleSet::Icf,
        demand_extra_points: false,
        foul_against_other: None,
    };
    let mut board = Board::new();
    let first = board.play(&stroke(Seat::South, "-"), &ctx);
    assert!(first.turn_continues && first.laws.contains(&"ICF 45(a)"));
    let second = board.play(&stroke(Seat::South, "-"), &ctx);
    assert!(second.turn_continues);
    let third = board.play(&stroke(Seat::South, "-"), &ctx);
    assert!(!third.turn_continues && third.laws.contains(&"ICF 45(b)"));
    assert!(
        board.is_break_pending(),
        "the condition prevails until the break is made"
    );
    let black = StrokeContext {
        striker: BLACK,
        ..ctx
    };
    let made = board.play(&stroke(Seat::North, ""), &black);
    assert!(made.laws.contains(&"ICF 44") && !board.is_break_pending());

    let mut board = Board::new();
    let striker_in = board.play(&stroke(Seat::South, "- x"), &ctx);
    assert!(!striker_in.turn_continues && striker_in.laws.contains(&"ICF 45(c)"));
    assert_eq!(board.owed(WHITE), 0, "ICF 45(c): no due at the break");

    let mut board = Board::new();
    let improper = board.play(&stroke(Seat::South, "! w b"), &ctx);
    assert!(!improper.turn_continues && improper.laws.contains(&"ICF 45(c)"));
    assert_eq!(improper.returned, vec![Piece::White]);
    assert_eq!((board.owed(WHITE), board.on_board().black), (0, 8));

    let mut board = Board::new();
    let early = board.play(&stroke(Seat::South, "F w"), &ctx);
    assert!(!early.turn_continues && early.laws.contains(&"ICF 47"));
    assert_eq!(
        board.owed(WHITE),
        1,
        "ICF 47: a foul declared, penalty owed"
    );
}

#[test]
fn technical_foul_against_the_other_side_costs_them_a_carromman() {
    let mut board = Board::arranged(5, 6, Queen::OnBoard);
    let ctx = StrokeContext {
        striker: WHITE,
        striker_pocketed_pending_queen: false,
        scores: [0, 0],
        rules: RuleSet::Icf,
        demand_extra_points: false,
        foul_against_other: Some(BLACK),
    };
    let out = board.play(&stroke(Seat::South, "T w"), &ctx);
    assert!(out.turn_continues && out.laws.contains(&"ICF 63(b)"));
    assert_eq!(out.returned, vec![Piece::Black]);
    assert_eq!(board.on_board().black, 7);
}
