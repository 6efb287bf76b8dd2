//! The arrangement of the nineteen pieces for the break (ICF 41 a).
//!
//! The law: the Queen occupies the centre circle; the first row around her
//! alternates black and white; "in the second row, three white C/m will form
//! the shape 'Y' with the white C/m in the first row"; the remaining places
//! are filled alternately; all are "in compact round, touching each other,
//! within the outer circle".
//!
//! Read geometrically: touching equal discs packed compactly around a centre
//! disc form two hexagonal rings, six pieces at one diameter from the Queen
//! and twelve in the second ring, six of them straight behind the first-row
//! pieces (two diameters out, "corners") and six in the hollows between two
//! first-row pieces (√3 diameters out, "edges"). Each first-row white, with
//! the two second-row pieces in the hollows on either side of it, makes a Y
//! whose stem runs back to the Queen; so those six hollow places are white,
//! which leaves the six corners black, and the second row then alternates
//! black and white all round, as the law asks. Counting: 3 + 6 = 9 whites,
//! 3 + 6 = 9 blacks.
//!
//! Orientation, which the law leaves open: one first-row white lies straight
//! across the Queen from the breaker, so that from the breaker's seat its Y
//! reads upright (arms away from the player, the red Queen as its foot), and
//! a first-row black faces the breaker with a black corner piece behind it.

use nalgebra::{Point2, Vector2};
use serde::{Deserialize, Serialize};

use super::names::{Piece, Seat};
use super::seat::rotate_to_seat;
use super::spec::{CARROMMAN_DIAMETER_MM, PIECES_AT_BREAK};

/// A piece at a position on the board (board mm).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PlacedPiece {
    /// Which piece.
    pub piece: Piece,
    /// Its centre, board mm.
    pub centre: Point2<f64>,
}

/// The break arrangement for a breaker at `breaker`: the Queen first, then
/// the first row, then the second row (see the module documentation for the
/// reading of ICF 41 a). Pieces have the nominal carromman diameter.
pub fn break_arrangement(breaker: Seat) -> [PlacedPiece; PIECES_AT_BREAK] {
    let d = CARROMMAN_DIAMETER_MM;
    let at = |distance: f64, degrees: f64| {
        let angle = degrees.to_radians();
        Point2::origin() + Vector2::new(angle.cos(), angle.sin()) * distance
    };
    let queen = PlacedPiece {
        piece: Piece::Queen,
        centre: Point2::origin(),
    };
    let mut pieces = [queen; PIECES_AT_BREAK];
    // For south, straight across the Queen is +y (90°); the first row sits
    // every 60° from there, whites at 90°, 210° and 330°.
    for k in 0..6 {
        let degrees = 90.0 + 60.0 * k as f64;
        let first_row_colour = if k % 2 == 0 {
            Piece::White
        } else {
            Piece::Black
        };
        pieces[1 + k] = PlacedPiece {
            piece: first_row_colour,
            centre: at(d, degrees),
        };
        // Behind each first-row piece: a black corner.
        pieces[7 + 2 * k] = PlacedPiece {
            piece: Piece::Black,
            centre: at(2.0 * d, degrees),
        };
        // In the hollow 30° further round: a white, an arm of a Y.
        pieces[8 + 2 * k] = PlacedPiece {
            piece: Piece::White,
            centre: at(3.0_f64.sqrt() * d, degrees + 30.0),
        };
    }
    pieces.map(|placed| PlacedPiece {
        centre: rotate_to_seat(placed.centre, breaker),
        ..placed
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::board::{disc_inside_outer_circle, outer_circle};
    use crate::geometry::seat::rotate_from_seat;
    use crate::geometry::spec::{BLACK_CARROMMEN, CARROMMAN_RADIUS_MM, WHITE_CARROMMEN};

    const TOUCH_SLACK_MM: f64 = 1e-6;

    fn touching(a: &PlacedPiece, b: &PlacedPiece) -> bool {
        ((a.centre - b.centre).norm() - CARROMMAN_DIAMETER_MM).abs() < TOUCH_SLACK_MM
    }

    #[test]
    fn counts_match_the_law() {
        for seat in Seat::TURN_ORDER {
            let pieces = break_arrangement(seat);
            let count = |p: Piece| pieces.iter().filter(|x| x.piece == p).count();
            assert_eq!(count(Piece::White), WHITE_CARROMMEN);
            assert_eq!(count(Piece::Black), BLACK_CARROMMEN);
            assert_eq!(count(Piece::Queen), 1);
            assert_eq!(count(Piece::Striker), 0);
        }
    }

    #[test]
    fn queen_at_the_centre_and_all_within_the_outer_circle() {
        for seat in Seat::TURN_ORDER {
            let pieces = break_arrangement(seat);
            let queen = pieces.iter().find(|p| p.piece == Piece::Queen);
            assert_eq!(queen.map(|q| q.centre), Some(Point2::origin()));
            for p in &pieces {
                assert!(
                    disc_inside_outer_circle(p.centre, CARROMMAN_RADIUS_MM),
                    "{p:?} outside {:?}",
                    outer_circle()
                );
            }
        }
    }

    #[test]
    fn compact_without_overlaps() {
        for seat in Seat::TURN_ORDER {
            let pieces = break_arrangement(seat);
            for (i, a) in pieces.iter().enumerate() {
                let mut neighbours = 0;
                for (j, b) in pieces.iter().enumerate() {
                    if i == j {
                        continue;
                    }
                    let distance = (a.centre - b.centre).norm();
                    assert!(
                        distance >= CARROMMAN_DIAMETER_MM - TOUCH_SLACK_MM,
                        "{a:?} overlaps {b:?}"
                    );
                    if touching(a, b) {
                        neighbours += 1;
                    }
                }
                assert!(neighbours >= 3, "{a:?} touches only {neighbours}");
            }
        }
    }

    #[test]
    fn first_row_alternates_and_each_white_heads_a_y() {
        for seat in Seat::TURN_ORDER {
            let pieces = break_arrangement(seat);
            let queen = pieces[0];
            let first_row: Vec<&PlacedPiece> = pieces
                .iter()
                .filter(|p| p.piece != Piece::Queen && touching(p, &queen))
                .collect();
            assert_eq!(first_row.len(), 6);
            for a in &first_row {
                let same_colour_neighbours = first_row
                    .iter()
                    .filter(|b| touching(a, b) && b.piece == a.piece)
                    .count();
                assert_eq!(same_colour_neighbours, 0, "first row must alternate: {a:?}");
            }
            for white in first_row.iter().filter(|p| p.piece == Piece::White) {
                let stem = (white.centre - queen.centre).normalize();
                let arms: Vec<&PlacedPiece> = pieces
                    .iter()
                    .filter(|p| {
                        p.piece == Piece::White
                            && touching(p, white)
                            && !first_row.iter().any(|f| f.centre == p.centre)
                    })
                    .collect();
                assert_eq!(arms.len(), 2, "a Y needs two arms");
                // The arms spread symmetrically about the stem, away from the Queen.
                let a0 = arms[0].centre - white.centre;
                let a1 = arms[1].centre - white.centre;
                assert!((a0.dot(&stem) - a1.dot(&stem)).abs() < 1e-9);
                assert!(a0.dot(&stem) > 0.0);
                assert!((a0 + a1).normalize().dot(&stem) > 1.0 - 1e-9);
            }
        }
    }

    #[test]
    fn the_breaker_sees_an_upright_y_across_the_queen() {
        for seat in Seat::TURN_ORDER {
            let pieces = break_arrangement(seat);
            let across = Point2::new(0.0, CARROMMAN_DIAMETER_MM);
            let facing = Point2::new(0.0, -CARROMMAN_DIAMETER_MM);
            let colour_at = |south_point: Point2<f64>| {
                pieces
                    .iter()
                    .find(|p| (rotate_from_seat(p.centre, seat) - south_point).norm() < 1e-9)
                    .map(|p| p.piece)
            };
            assert_eq!(colour_at(across), Some(Piece::White), "{seat}");
            assert_eq!(colour_at(facing), Some(Piece::Black), "{seat}");
        }
    }
}
