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
                "ICF 98(b)",
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

// ---- The match around the boards: turns, breakers, games, sides (engine level).

mod engine {
    use std::collections::BTreeMap;

    use super::stroke;
    use crate::contract::{AlertKind, Event, MatchSetup, RuleSet, Stage, Stroke};
    use crate::geometry::Seat;
    use crate::rules::{Engine, RulesError};

    fn singles(stage: Stage) -> MatchSetup {
        MatchSetup {
            event: Event::Singles,
            rules: RuleSet::Icf,
            players: vec!["Asha".into(), "Ben".into()],
            seats: BTreeMap::from([(Seat::South, "Asha".into()), (Seat::North, "Ben".into())]),
            first_breaker: "Asha".into(),
            stage,
            demand_extra_points: false,
            time_limit: false,
        }
    }

    fn doubles() -> MatchSetup {
        MatchSetup {
            event: Event::Doubles,
            players: vec!["Asha".into(), "Ben".into(), "Cleo".into(), "Dev".into()],
            seats: BTreeMap::from([
                (Seat::South, "Asha".into()),
                (Seat::East, "Ben".into()),
                (Seat::North, "Cleo".into()),
                (Seat::West, "Dev".into()),
            ]),
            ..singles(Stage::League)
        }
    }

    fn play_all(engine: &mut Engine, strokes: &[Stroke]) {
        for s in strokes {
            engine.play(s).expect("a legal stroke");
        }
    }

    /// Singles: `winner` wins the next board by 12 (clears and covers the
    /// Queen); if the other player is to break, he misses three times first.
    fn win12(engine: &mut Engine, winner: &str) {
        let breaker = engine.next_seat().expect("match not over");
        let seat = engine.seat_of_player(winner).expect("winner sits");
        let mut strokes = Vec::new();
        let colour = if breaker == seat {
            "w"
        } else {
            strokes.extend([
                stroke(breaker, "-"),
                stroke(breaker, "-"),
                stroke(breaker, "-"),
            ]);
            "b"
        };
        strokes.push(stroke(seat, colour));
        strokes.push(stroke(seat, &format!("q {colour}")));
        strokes.extend((0..7).map(|_| stroke(seat, colour)));
        play_all(engine, &strokes);
    }

    /// Singles: `winner` wins the next board by `k` coins: the loser covers the
    /// Queen and leaves `k`, the winner clears.
    fn win_by(engine: &mut Engine, winner: &str, k: usize) {
        let breaker = engine.next_seat().expect("match not over");
        let seat = engine.seat_of_player(winner).expect("winner sits");
        let loser = seat.opposite();
        let (loser_colour, winner_colour) = if breaker == loser {
            ("w", "b")
        } else {
            ("b", "w")
        };
        let mut strokes = Vec::new();
        if breaker == seat {
            strokes.push(stroke(seat, ""));
        }
        strokes.push(stroke(loser, loser_colour));
        strokes.push(stroke(loser, &format!("q {loser_colour}")));
        strokes.extend((0..7 - k).map(|_| stroke(loser, loser_colour)));
        strokes.push(stroke(loser, ""));
        strokes.extend((0..9).map(|_| stroke(seat, winner_colour)));
        play_all(engine, &strokes);
    }

    fn last_result_points(engine: &Engine) -> (Option<String>, u32) {
        let log = engine.board_log();
        let result = log
            .boards
            .last()
            .and_then(|b| b.result.clone())
            .expect("board finished");
        (result.winner, result.points)
    }

    #[test]
    fn icf_48_49_turn_passes_to_the_opponent_in_singles_and_to_the_right_in_doubles() {
        let mut engine = Engine::new(&singles(Stage::League)).unwrap();
        assert_eq!(engine.next_seat(), Some(Seat::South));
        engine.play(&stroke(Seat::South, "")).unwrap();
        assert_eq!(engine.next_seat(), Some(Seat::North));

        let mut engine = Engine::new(&doubles()).unwrap();
        for (seat, next) in [
            (Seat::South, Seat::East),
            (Seat::East, Seat::North),
            (Seat::North, Seat::West),
            (Seat::West, Seat::South),
        ] {
            engine.play(&stroke(seat, "")).unwrap();
            assert_eq!(engine.next_seat(), Some(next), "after {seat}");
        }
    }

    #[test]
    fn icf_49a_breaks_alternate_and_each_game_starts_as_the_law_says() {
        let mut engine = Engine::new(&singles(Stage::League)).unwrap();
        win12(&mut engine, "Asha");
        assert_eq!(engine.next_seat(), Some(Seat::North), "board 2: Ben breaks");
        win12(&mut engine, "Asha");
        win12(&mut engine, "Asha");
        let log = engine.board_log();
        assert_eq!(log.games[0].winner.as_deref(), Some("Asha"));
        assert_eq!(
            log.boards
                .iter()
                .map(|b| b.breaker.as_str())
                .collect::<Vec<_>>(),
            ["Asha", "Ben", "Asha"]
        );
        // ICF 58: sides changed; ICF 49(a)(ii): Ben breaks first in game 2.
        assert_eq!(engine.seat_of_player("Ben"), Some(Seat::South));
        assert_eq!(engine.next_seat(), Some(Seat::South));
        win12(&mut engine, "Ben");
        win12(&mut engine, "Ben");
        win12(&mut engine, "Ben");
        // ICF 49(a)(iii): game 3 starts with Asha, who is back at south.
        assert_eq!(engine.seat_of_player("Asha"), Some(Seat::South));
        assert_eq!(engine.next_seat(), Some(Seat::South));
        let breakers: Vec<String> = engine
            .board_log()
            .boards
            .iter()
            .filter(|b| b.game == 2)
            .map(|b| b.breaker.clone())
            .collect();
        assert_eq!(breakers, ["Ben", "Asha", "Ben"]);
    }

    #[test]
    fn icf_49b_59_doubles_break_passes_right_and_players_move_right_after_a_game() {
        let mut engine = Engine::new(&doubles()).unwrap();
        let mut breakers = Vec::new();
        for _ in 0..5 {
            let seat = engine.next_seat().unwrap();
            breakers.push(seat);
            let mut strokes = vec![stroke(seat, "w"), stroke(seat, "q w")];
            strokes.extend((0..7).map(|_| stroke(seat, "w")));
            play_all(&mut engine, &strokes);
        }
        assert_eq!(
            breakers,
            [
                Seat::South,
                Seat::East,
                Seat::North,
                Seat::West,
                Seat::South
            ]
        );
        let log = engine.board_log();
        assert_eq!(
            log.games[0].winner.as_deref(),
            Some("Asha & Cleo"),
            "three boards of 12 against two"
        );
        assert_eq!(log.games[0].points["Ben & Dev"], 24);
        assert_eq!(engine.seat_of_player("Asha"), Some(Seat::East));
        assert_eq!(engine.seat_of_player("Dev"), Some(Seat::South));
        // Game 2 starts with the player who broke second in game 1: Ben, now at north.
        assert_eq!(engine.next_seat(), Some(Seat::North));
    }

    #[test]
    fn a_recognised_stroke_from_an_empty_seat_is_left_out_and_the_rest_scored() {
        use crate::contract::StrokeLog;
        let mut log: StrokeLog = r#"{"format": "carrom-strokes", "version": 1,
            "match": {"event": "singles", "players": ["Asha", "Ben"],
                      "seats": {"south": "Asha", "north": "Ben"}, "first_breaker": "Asha"},
            "strokes": []}"#
            .parse()
            .unwrap();
        log.strokes = vec![
            stroke(Seat::South, "w"),
            stroke(Seat::West, "b"), // misread: nobody sits at west
            stroke(Seat::South, "w"),
        ];
        assert!(matches!(
            crate::rules::score(&log),
            Err(RulesError::SeatWithoutPlayer { index: 1, .. })
        ));
        let (boards, skipped) = crate::rules::score_recognised(&log).unwrap();
        assert_eq!(skipped.len(), 1);
        assert_eq!(skipped[0].index, 1);
        assert!(matches!(
            skipped[0].reason,
            RulesError::SeatWithoutPlayer {
                seat: Seat::West,
                ..
            }
        ));
        let board = &boards.boards[0];
        assert_eq!(board.strokes.len(), 2, "the two real strokes are scored");
        assert_eq!(board.strokes[1].on_board.white, 7);
    }

    #[test]
    fn icf_51_stroke_out_of_turn_is_an_alert_and_play_goes_on_from_it() {
        let mut engine = Engine::new(&singles(Stage::League)).unwrap();
        engine.play(&stroke(Seat::South, "")).unwrap();
        let decision = engine.play(&stroke(Seat::South, "w")).unwrap();
        assert!(decision
            .alerts
            .iter()
            .any(|a| a.kind == AlertKind::OutOfTurn));
        assert!(decision.laws.iter().any(|l| l == "ICF 51"));
        assert_eq!(decision.player, "Asha");
        assert_eq!(
            engine.next_seat(),
            Some(Seat::South),
            "Asha pocketed her own: next turn as per the laws"
        );
    }

    #[test]
    fn icf_56b_league_tie_after_eight_boards_calls_an_extra_board_by_toss() {
        let mut engine = Engine::new(&singles(Stage::League)).unwrap();
        for board in 0..8 {
            let winner = if board % 2 == 0 { "Ben" } else { "Asha" };
            win_by(&mut engine, winner, 3);
        }
        let log = engine.board_log();
        assert_eq!(log.games[0].points["Asha"], 12);
        assert_eq!(log.games[0].points["Ben"], 12);
        assert_eq!(log.games[0].winner, None);
        // The toss went to Ben: he breaks from north although Asha would be next.
        assert_eq!(engine.next_seat(), Some(Seat::South));
        let mut strokes = vec![stroke(Seat::North, "w"), stroke(Seat::North, "q w")];
        strokes.extend((0..7).map(|_| stroke(Seat::North, "w")));
        play_all(&mut engine, &strokes);
        let log = engine.board_log();
        let extra = log.boards.last().unwrap();
        assert!(extra.extra_board);
        assert_eq!(extra.breaker, "Ben");
        assert_eq!(log.games[0].winner.as_deref(), Some("Ben"));
        assert!(
            extra.strokes.iter().all(|s| s.alerts.is_empty()),
            "the toss decides: no out-of-turn alert"
        );
    }

    #[test]
    fn icf_56a_knockout_game_goes_on_past_eight_boards() {
        let mut engine = Engine::new(&singles(Stage::Knockout)).unwrap();
        for board in 0..8 {
            let winner = if board % 2 == 0 { "Ben" } else { "Asha" };
            win_by(&mut engine, winner, 3);
        }
        win_by(&mut engine, "Ben", 3);
        let log = engine.board_log();
        assert_eq!(log.boards.len(), 9);
        assert!(!log.boards[8].extra_board);
        assert_eq!(log.games[0].points["Ben"], 15);
        assert_eq!(log.games[0].winner, None);
    }

    #[test]
    fn icf_52_54_queen_stops_counting_from_22() {
        let mut engine = Engine::new(&singles(Stage::League)).unwrap();
        win12(&mut engine, "Asha");
        win_by(&mut engine, "Asha", 7);
        win_by(&mut engine, "Asha", 3);
        assert_eq!(engine.board_log().games[0].points["Asha"], 22);
        win12(&mut engine, "Asha");
        assert_eq!(
            last_result_points(&engine),
            (Some("Asha".into()), 9),
            "9 coins, no Queen at 22"
        );
    }

    fn reach_third_game(stage: Stage) -> Engine {
        let mut engine = Engine::new(&singles(stage)).unwrap();
        for winner in ["Asha", "Asha", "Asha", "Ben", "Ben", "Ben"] {
            win12(&mut engine, winner);
        }
        assert_eq!(engine.board_log().games.len(), 3);
        engine
    }

    #[test]
    fn icf_60a_league_third_game_changes_sides_after_the_fourth_board() {
        let mut engine = reach_third_game(Stage::League);
        assert_eq!(engine.seat_of_player("Asha"), Some(Seat::South));
        for winner in ["Asha", "Ben", "Asha"] {
            win_by(&mut engine, winner, 2);
        }
        assert_eq!(
            engine.seat_of_player("Asha"),
            Some(Seat::South),
            "6 points, three boards: no change yet"
        );
        win_by(&mut engine, "Ben", 2);
        assert_eq!(
            engine.seat_of_player("Asha"),
            Some(Seat::North),
            "after the fourth board"
        );
        win_by(&mut engine, "Ben", 2);
        assert_eq!(
            engine.seat_of_player("Asha"),
            Some(Seat::North),
            "only once"
        );
    }

    #[test]
    fn icf_60b_knockout_third_game_changes_sides_only_at_13() {
        let mut engine = reach_third_game(Stage::Knockout);
        for winner in ["Asha", "Ben", "Asha", "Ben", "Asha", "Ben"] {
            win_by(&mut engine, winner, 2);
        }
        assert_eq!(
            engine.seat_of_player("Asha"),
            Some(Seat::South),
            "six boards, 6–6"
        );
        win12(&mut engine, "Asha");
        assert_eq!(
            engine.seat_of_player("Asha"),
            Some(Seat::North),
            "18 points: change"
        );
    }

    #[test]
    fn icf_57_match_is_best_of_three_and_nothing_may_follow() {
        let mut engine = Engine::new(&singles(Stage::League)).unwrap();
        for winner in ["Asha", "Asha", "Asha", "Asha", "Asha", "Asha"] {
            win12(&mut engine, winner);
        }
        assert!(engine.is_match_over());
        assert_eq!(engine.next_seat(), None);
        let log = engine.board_log();
        assert_eq!(log.match_result.winner.as_deref(), Some("Asha"));
        assert_eq!(log.match_result.games["Asha"], 2);
        let error = engine.play(&stroke(Seat::North, "")).unwrap_err();
        assert_eq!(
            error,
            RulesError::AfterMatchOver {
                index: 63,
                winner: "Asha".into()
            }
        );
        assert!(error.to_string().starts_with("strokes[63]"));
    }

    #[test]
    fn bad_setups_and_seats_are_typed_errors_naming_the_field() {
        let mut setup = doubles();
        setup.players.truncate(2);
        assert!(matches!(
            Engine::new(&setup),
            Err(RulesError::Setup {
                field: "players",
                ..
            })
        ));

        let mut setup = singles(Stage::League);
        setup.seats.insert(Seat::North, "Zed".into());
        let error = Engine::new(&setup).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("match.seats: north: \"Zed\" is not one of the players"),
            "{error}"
        );

        let mut setup = singles(Stage::League);
        setup.seats = BTreeMap::from([(Seat::South, "Asha".into()), (Seat::East, "Ben".into())]);
        assert!(matches!(
            Engine::new(&setup),
            Err(RulesError::Setup { field: "seats", .. })
        ));

        let mut setup = singles(Stage::League);
        setup.first_breaker = "Cleo".into();
        assert!(matches!(
            Engine::new(&setup),
            Err(RulesError::Setup {
                field: "first_breaker",
                ..
            })
        ));

        let mut engine = Engine::new(&singles(Stage::League)).unwrap();
        engine.play(&stroke(Seat::South, "")).unwrap();
        let error = engine.play(&stroke(Seat::East, "")).unwrap_err();
        assert!(matches!(
            error,
            RulesError::SeatWithoutPlayer {
                index: 1,
                seat: Seat::East,
                ..
            }
        ));
        assert!(
            error
                .to_string()
                .starts_with("strokes[1].seat: nobody sits at east"),
            "{error}"
        );
    }

    fn timed(s: Stroke, minutes: f64) -> Stroke {
        Stroke {
            t: Some(minutes * 60.0),
            ..s
        }
    }

    #[test]
    fn ecc_39_41_time_limit_ends_the_game() {
        let mut setup = singles(Stage::League);
        setup.rules = RuleSet::Ecc;
        setup.time_limit = true;
        let mut engine = Engine::new(&setup).unwrap();
        assert_eq!(
            engine.play(&stroke(Seat::South, "")),
            Err(RulesError::MissingTime { index: 0 })
        );

        // Board 1: Asha clears by minute 51 (the first bell rang during it): 12, game over.
        let mut engine = Engine::new(&setup).unwrap();
        let first = engine.play(&timed(stroke(Seat::South, "w"), 0.0)).unwrap();
        assert_eq!(
            first.laws,
            ["ECC 23", "ECC 28"],
            "ECC decisions cite the ECC laws"
        );
        let mut strokes = vec![timed(stroke(Seat::South, "q w"), 1.0)];
        strokes.extend((0..7).map(|i| timed(stroke(Seat::South, "w"), 45.0 + f64::from(i))));
        play_all(&mut engine, &strokes);
        let log = engine.board_log();
        assert_eq!(
            log.games[0].winner.as_deref(),
            Some("Asha"),
            "no board starts after the first bell"
        );

        // Game 2: the final bell stops a board: fewer coins left wins the difference.
        let game2_start = 60.0;
        let ben = engine.next_seat().unwrap();
        let asha = ben.opposite();
        let mut strokes = vec![
            timed(stroke(ben, "w"), game2_start),
            timed(stroke(ben, "w"), game2_start + 1.0),
            timed(stroke(ben, ""), game2_start + 2.0),
        ];
        strokes.push(timed(stroke(asha, ""), game2_start + 40.0));
        play_all(&mut engine, &strokes);
        // Ben has 7 whites left, Asha 9 blacks; the bell at 57 minutes stops play.
        let error = engine.play(&timed(stroke(ben, "w"), game2_start + 58.0));
        assert!(
            error.is_ok(),
            "the stroke after the bell starts game 3: {error:?}"
        );
        let log = engine.board_log();
        let stopped = log
            .boards
            .iter()
            .find(|b| b.game == 2)
            .unwrap()
            .result
            .clone()
            .unwrap();
        assert_eq!(
            (stopped.winner.as_deref(), stopped.points),
            (Some("Ben"), 2)
        );
        assert!(stopped.laws.iter().any(|l| l == "ECC 41"));
        assert_eq!(log.games[1].winner.as_deref(), Some("Ben"));
    }
}

// ---- Properties over random stroke sequences.

mod properties {
    use std::collections::BTreeMap;

    use proptest::prelude::*;

    use super::super::board::{Colour, Queen};
    use crate::contract::{
        Event, FoulCall, MatchSetup, OverboardPiece, PocketedPiece, RuleSet, Stage, Stroke,
    };
    use crate::geometry::{Piece, Seat};
    use crate::rules::numbers::{CARROMMEN_PER_COLOUR, MAX_BOARD_POINTS};
    use crate::rules::{Engine, RulesError};

    /// A stroke described before the engine says whose turn it is.
    #[derive(Debug, Clone)]
    struct RandomStroke {
        follow_turn: bool,
        seat: usize,
        touched: bool,
        pocketed: Vec<(u8, bool)>,
        overboard: Vec<u8>,
        improper: bool,
        foul: Option<bool>,
        t_step: f64,
    }

    fn piece(code: u8) -> Piece {
        match code % 7 {
            0..=2 => Piece::White,
            3..=5 => Piece::Black,
            _ => Piece::Queen,
        }
    }

    fn random_stroke() -> impl Strategy<Value = RandomStroke> {
        (
            prop::bool::weighted(0.95),
            0usize..4,
            prop::bool::weighted(0.9),
            prop::collection::vec((any::<u8>(), prop::bool::weighted(0.05)), 0..4),
            prop::collection::vec(any::<u8>(), 0..2),
            prop::bool::weighted(0.05),
            prop::option::weighted(0.05, any::<bool>()),
            0.0f64..400.0,
        )
            .prop_map(
                |(follow_turn, seat, touched, pocketed, overboard, improper, foul, t_step)| {
                    RandomStroke {
                        follow_turn,
                        seat,
                        touched,
                        pocketed,
                        overboard,
                        improper,
                        foul,
                        t_step,
                    }
                },
            )
    }

    fn setup(doubles: bool, ecc: bool, knockout: bool, demand: bool) -> MatchSetup {
        let (event, players, seats) = if doubles {
            (
                Event::Doubles,
                vec![
                    "A".to_owned(),
                    "B".to_owned(),
                    "C".to_owned(),
                    "D".to_owned(),
                ],
                BTreeMap::from([
                    (Seat::South, "A".to_owned()),
                    (Seat::East, "B".to_owned()),
                    (Seat::North, "C".to_owned()),
                    (Seat::West, "D".to_owned()),
                ]),
            )
        } else {
            (
                Event::Singles,
                vec!["A".to_owned(), "B".to_owned()],
                BTreeMap::from([(Seat::South, "A".to_owned()), (Seat::North, "B".to_owned())]),
            )
        };
        MatchSetup {
            event,
            rules: if ecc { RuleSet::Ecc } else { RuleSet::Icf },
            players,
            seats,
            first_breaker: "A".to_owned(),
            stage: if knockout {
                Stage::Knockout
            } else {
                Stage::League
            },
            demand_extra_points: demand,
            time_limit: ecc,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

        #[test]
        fn laws_hold_over_random_matches(
            doubles in any::<bool>(),
            ecc in any::<bool>(),
            knockout in any::<bool>(),
            demand in any::<bool>(),
            strokes in prop::collection::vec(random_stroke(), 0..400),
        ) {
            let mut engine = Engine::new(&setup(doubles, ecc, knockout, demand)).unwrap();
            let mut t = 0.0;
            let mut last_points: BTreeMap<(u32, String), u32> = BTreeMap::new();
            let mut last_games: BTreeMap<String, u32> = BTreeMap::new();
            for random in strokes {
                t += random.t_step;
                let seat = match (random.follow_turn, engine.next_seat()) {
                    (true, Some(seat)) => seat,
                    _ => Seat::TURN_ORDER[random.seat],
                };
                let stroke = Stroke {
                    seat,
                    t: Some(t),
                    touched: random.touched,
                    pocketed: random.pocketed.iter().map(|&(code, late)| PocketedPiece {
                        piece: if code % 11 == 0 { Piece::Striker } else { piece(code) },
                        pocket: None,
                        t: None,
                        late,
                    }).collect(),
                    overboard: random.overboard.iter().map(|&code| OverboardPiece { piece: piece(code), t: None }).collect(),
                    improper: random.improper,
                    foul: random.foul.map(|f| if f { FoulCall::Foul } else { FoulCall::Technical }),
                    foul_by: None,
                    extra: None,
                };
                let decision = match engine.play(&stroke) {
                    Ok(decision) => decision.clone(),
                    Err(RulesError::SeatWithoutPlayer { .. }) => continue,
                    Err(RulesError::AfterMatchOver { .. }) => break,
                    Err(other) => return Err(TestCaseError::fail(format!("unexpected error {other}"))),
                };
                prop_assert!(!decision.laws.is_empty(), "a decision without a law: {decision:?}");
                let board = engine.board();
                for colour in [Colour::White, Colour::Black] {
                    prop_assert_eq!(board.accounted(colour), CARROMMEN_PER_COLOUR, "pieces conserved");
                }
                prop_assert_eq!(engine.on_board(), board.on_board());
                prop_assert_eq!(board.on_board().queen, board.queen() == Queen::OnBoard);
                let log = engine.board_log();
                for entry in &log.boards {
                    if let Some(result) = &entry.result {
                        prop_assert!(result.points <= MAX_BOARD_POINTS, "board over 12: {result:?}");
                        prop_assert!(!result.laws.is_empty());
                    }
                }
                for game in &log.games {
                    for (side, &points) in &game.points {
                        let before = last_points.insert((game.game, side.clone()), points).unwrap_or(0);
                        prop_assert!(points >= before, "score went down");
                    }
                }
                for (side, &games) in &log.match_result.games {
                    let before = last_games.insert(side.clone(), games).unwrap_or(0);
                    prop_assert!(games >= before, "games won went down");
                }
            }
        }
    }
}
