//! Each seat's markings (two base lines, two base circles, the zone where the
//! striker is placed) and the quarter-turns that carry the south seat's
//! geometry to the other three.
//!
//! Everything seat-related is described once, for south (the bottom edge,
//! `y < 0`), and rotated: east is a quarter-turn counter-clockwise from south
//! (+x side), north a half-turn (+y), west three quarters (−x).

use nalgebra::{Point2, Vector2};

use super::names::{Pocket, Seat};
use super::shapes::{Circle, Stroke};
use super::spec::{
    BASE_BAND_FAR_EDGE_FROM_CENTRE_MM, BASE_BAND_NEAR_EDGE_FROM_CENTRE_MM,
    BASE_CIRCLE_CENTRE_ALONG_MM, BASE_CIRCLE_CENTRE_DEPTH_MM, BASE_CIRCLE_RADIUS_MM,
    BASE_CIRCLE_RED_DIAMETER_MM, INNER_BASE_LINE_THICKNESS_MM, OUTER_BASE_LINE_THICKNESS_MM,
};

/// Maps a vector given relative to the south seat to the same vector for
/// `seat` (an exact quarter-turn, no rounding).
pub fn rotate_vector_to_seat(v: Vector2<f64>, seat: Seat) -> Vector2<f64> {
    match seat {
        Seat::South => v,
        Seat::East => Vector2::new(-v.y, v.x),
        Seat::North => Vector2::new(-v.x, -v.y),
        Seat::West => Vector2::new(v.y, -v.x),
    }
}

/// Maps a point given relative to the south seat (board centre as origin) to
/// the corresponding point for `seat`: e.g. south's base-line middle
/// `(0, -y)` goes to east's `(y, 0)`.
pub fn rotate_to_seat(point: Point2<f64>, seat: Seat) -> Point2<f64> {
    Point2::from(rotate_vector_to_seat(point.coords, seat))
}

/// The inverse of [`rotate_to_seat`]: where a board point lies as seen from
/// `seat`, expressed in the south seat's frame.
pub fn rotate_from_seat(point: Point2<f64>, seat: Seat) -> Point2<f64> {
    let back = match seat {
        Seat::South => Seat::South,
        Seat::East => Seat::West,
        Seat::North => Seat::North,
        Seat::West => Seat::East,
    };
    rotate_to_seat(point, back)
}

/// The two pockets at the ends of a seat's side: (left, right) as the player
/// sitting there sees them.
pub fn seat_pockets(seat: Seat) -> (Pocket, Pocket) {
    match seat {
        Seat::South => (Pocket::Sw, Pocket::Se),
        Seat::East => (Pocket::Se, Pocket::Ne),
        Seat::North => (Pocket::Ne, Pocket::Nw),
        Seat::West => (Pocket::Nw, Pocket::Sw),
    }
}

/// The markings a player strikes from (ICF A.4).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeatMarkings {
    /// Whose markings these are.
    pub seat: Seat,
    /// The thick base line nearer the player (ICF: the "lower" line).
    pub outer_line: Stroke,
    /// The thin base line nearer the board centre (the "upper" line).
    pub inner_line: Stroke,
    /// The base circles closing both lines, left then right as the player
    /// sees them; each has the line-spacing diameter.
    pub base_circles: [Circle; 2],
    /// The red discs inside the base circles, same order.
    pub red_discs: [Circle; 2],
    /// Where a striker may be placed, roughly: see [`BaseLineZone`].
    pub zone: BaseLineZone,
}

/// The rectangle covered by a seat's base-line figure: between the outer
/// edges of its two base lines, and from the outer rim of one base circle to
/// the other's. A legally placed striker always has its centre inside it
/// (law 130 needs both lines touched, which with a striker of at most
/// 41.3 mm over a 31.8 mm band holds only with the centre in the band).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BaseLineZone {
    /// Whose zone this is.
    pub seat: Seat,
    /// The four corners in board mm, in order around the rectangle.
    pub corners: [Point2<f64>; 4],
}

impl BaseLineZone {
    /// The zone's least and greatest corner (board mm): the zone is square
    /// to the board's sides, so this is the zone itself.
    pub fn bounds(&self) -> (Point2<f64>, Point2<f64>) {
        let first = self.corners[0];
        self.corners
            .iter()
            .fold((first, first), |(min, max), c| (min.inf(c), max.sup(c)))
    }

    /// Whether a board point lies in the zone (edges included).
    pub fn contains(&self, point: Point2<f64>) -> bool {
        let local = rotate_from_seat(point, self.seat);
        let half_length = BASE_CIRCLE_CENTRE_ALONG_MM + BASE_CIRCLE_RADIUS_MM;
        local.x.abs() <= half_length
            && -local.y >= BASE_BAND_FAR_EDGE_FROM_CENTRE_MM
            && -local.y <= BASE_BAND_NEAR_EDGE_FROM_CENTRE_MM
    }
}

/// The base lines, base circles and zone of a seat, in board mm.
pub fn seat_markings(seat: Seat) -> SeatMarkings {
    let outer_y = -(BASE_BAND_NEAR_EDGE_FROM_CENTRE_MM - OUTER_BASE_LINE_THICKNESS_MM / 2.0);
    let inner_y = -(BASE_BAND_FAR_EDGE_FROM_CENTRE_MM + INNER_BASE_LINE_THICKNESS_MM / 2.0);
    // The lines run between the base-circle centres: the circles' rims close
    // them, and their outer edges are tangent to the circles there.
    let end = BASE_CIRCLE_CENTRE_ALONG_MM;
    let line = |y: f64, thickness: f64| Stroke {
        start: rotate_to_seat(Point2::new(-end, y), seat),
        end: rotate_to_seat(Point2::new(end, y), seat),
        thickness,
    };
    let circle_at = |sign: f64, radius: f64| {
        Circle::new(
            rotate_to_seat(Point2::new(sign * end, -BASE_CIRCLE_CENTRE_DEPTH_MM), seat),
            radius,
        )
    };
    let half_length = BASE_CIRCLE_CENTRE_ALONG_MM + BASE_CIRCLE_RADIUS_MM;
    let corner = |x: f64, depth: f64| rotate_to_seat(Point2::new(x, -depth), seat);
    SeatMarkings {
        seat,
        outer_line: line(outer_y, OUTER_BASE_LINE_THICKNESS_MM),
        inner_line: line(inner_y, INNER_BASE_LINE_THICKNESS_MM),
        base_circles: [
            circle_at(-1.0, BASE_CIRCLE_RADIUS_MM),
            circle_at(1.0, BASE_CIRCLE_RADIUS_MM),
        ],
        red_discs: [
            circle_at(-1.0, BASE_CIRCLE_RED_DIAMETER_MM / 2.0),
            circle_at(1.0, BASE_CIRCLE_RED_DIAMETER_MM / 2.0),
        ],
        zone: BaseLineZone {
            seat,
            corners: [
                corner(-half_length, BASE_BAND_NEAR_EDGE_FROM_CENTRE_MM),
                corner(half_length, BASE_BAND_NEAR_EDGE_FROM_CENTRE_MM),
                corner(half_length, BASE_BAND_FAR_EDGE_FROM_CENTRE_MM),
                corner(-half_length, BASE_BAND_FAR_EDGE_FROM_CENTRE_MM),
            ],
        },
    }
}

/// The seat whose base-line zone contains `point` (e.g. where a striker is
/// resting), if any. Zones of different seats do not overlap.
pub fn seat_at(point: Point2<f64>) -> Option<Seat> {
    Seat::TURN_ORDER
        .into_iter()
        .find(|&seat| seat_markings(seat).zone.contains(point))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::spec::{BASE_LINE_SPACING_MM, HALF_SURFACE_MM};

    #[test]
    fn a_zones_bounds_are_its_corners_extremes() {
        for seat in Seat::TURN_ORDER {
            let zone = seat_markings(seat).zone;
            let (min, max) = zone.bounds();
            assert!(min.x < max.x && min.y < max.y, "{seat:?}");
            for c in zone.corners {
                assert!(c.x == min.x || c.x == max.x, "{seat:?} {c:?}");
                assert!(c.y == min.y || c.y == max.y, "{seat:?} {c:?}");
            }
            assert!(zone.contains(nalgebra::center(&min, &max)), "{seat:?}");
        }
    }

    #[test]
    fn rotation_sends_south_to_each_side() {
        let south_mid = Point2::new(0.0, -HALF_SURFACE_MM);
        assert_eq!(rotate_to_seat(south_mid, Seat::South), south_mid);
        assert_eq!(
            rotate_to_seat(south_mid, Seat::East),
            Point2::new(HALF_SURFACE_MM, 0.0)
        );
        assert_eq!(
            rotate_to_seat(south_mid, Seat::North),
            Point2::new(0.0, HALF_SURFACE_MM)
        );
        assert_eq!(
            rotate_to_seat(south_mid, Seat::West),
            Point2::new(-HALF_SURFACE_MM, 0.0)
        );
    }

    #[test]
    fn rotation_keeps_the_players_left_and_right() {
        // South's right hand is +x (SE); east's right hand is +y (NE).
        for seat in Seat::TURN_ORDER {
            let right = rotate_to_seat(Point2::new(300.0, -300.0), seat);
            let (_, right_pocket) = seat_pockets(seat);
            let (sx, sy) = right_pocket.corner_signs();
            assert_eq!((right.x.signum(), right.y.signum()), (sx, sy), "{seat}");
        }
    }

    #[test]
    fn rotate_from_seat_undoes_rotate_to_seat() {
        let p = Point2::new(12.5, -200.25);
        for seat in Seat::TURN_ORDER {
            assert_eq!(rotate_from_seat(rotate_to_seat(p, seat), seat), p);
        }
    }

    #[test]
    fn base_lines_are_parallel_to_their_side_and_spaced_by_the_law() {
        for seat in Seat::TURN_ORDER {
            let m = seat_markings(seat);
            let side = rotate_vector_to_seat(Vector2::new(1.0, 0.0), seat);
            assert!((m.outer_line.direction() - side).norm() < 1e-12);
            assert!((m.inner_line.direction() - side).norm() < 1e-12);
            // Outer edge of the outer line to outer edge of the inner line.
            let centre_gap = (m.outer_line.start - m.inner_line.start).norm();
            let edge_gap = centre_gap
                + OUTER_BASE_LINE_THICKNESS_MM / 2.0
                + INNER_BASE_LINE_THICKNESS_MM / 2.0;
            assert!((edge_gap - BASE_LINE_SPACING_MM).abs() < 1e-9);
            // The outer line is the one nearer the player's frame edge.
            let frame_mid = rotate_to_seat(Point2::new(0.0, -HALF_SURFACE_MM), seat);
            assert!(m.outer_line.distance_to(frame_mid) < m.inner_line.distance_to(frame_mid));
        }
    }

    #[test]
    fn base_circles_touch_both_lines_of_their_seat() {
        for seat in Seat::TURN_ORDER {
            let m = seat_markings(seat);
            for circle in m.base_circles {
                // The rim reaches the outer edge of each line exactly.
                for line in [m.outer_line, m.inner_line] {
                    let to_centre_line = line.distance_to(circle.centre) + line.thickness / 2.0;
                    let outer_edge = to_centre_line + line.thickness / 2.0;
                    assert!((outer_edge - circle.radius).abs() < 1e-9, "{seat}");
                }
            }
        }
    }

    #[test]
    fn zones_are_disjoint_and_found_by_seat_at() {
        for seat in Seat::TURN_ORDER {
            let middle = rotate_to_seat(Point2::new(0.0, -BASE_CIRCLE_CENTRE_DEPTH_MM), seat);
            assert_eq!(seat_at(middle), Some(seat));
            for circle in seat_markings(seat).base_circles {
                assert_eq!(seat_at(circle.centre), Some(seat));
            }
        }
        assert_eq!(seat_at(Point2::origin()), None);
        // The corner between two zones belongs to neither.
        let corner = Point2::new(BASE_CIRCLE_CENTRE_DEPTH_MM, -BASE_CIRCLE_CENTRE_DEPTH_MM);
        assert_eq!(seat_at(corner), None);
    }
}
