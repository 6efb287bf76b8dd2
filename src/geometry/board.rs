//! Where the pockets and the central markings are, and the questions asked
//! about a point or a disc on the board: is it on the plywood, in a pocket,
//! inside the outer circle.

use nalgebra::{Point2, Vector2};

use super::names::Pocket;
use super::shapes::{segment_distance, Circle, Stroke, GEOMETRY_EPSILON_MM};
use super::spec::{
    ARROW_HEAD_DIAGONAL_MM, ARROW_MAX_THICKNESS_MM, ARROW_TAIL_DIAGONAL_MM,
    CENTRE_CIRCLE_RADIUS_MM, HALF_SURFACE_MM, OUTER_CIRCLE_RADIUS_MM, POCKET_CENTRE_OFFSET_MM,
    POCKET_RADIUS_MM,
};

/// Centre of a pocket hole, board mm.
pub fn pocket_centre(pocket: Pocket) -> Point2<f64> {
    let (sx, sy) = pocket.corner_signs();
    Point2::new(sx * POCKET_CENTRE_OFFSET_MM, sy * POCKET_CENTRE_OFFSET_MM)
}

/// The hole of a pocket as a circle (nominal radius).
pub fn pocket_hole(pocket: Pocket) -> Circle {
    Circle::new(pocket_centre(pocket), POCKET_RADIUS_MM)
}

/// The pocket whose hole contains `point` (rim included), if any.
pub fn pocket_containing(point: Point2<f64>) -> Option<Pocket> {
    Pocket::ALL
        .into_iter()
        .find(|&pocket| pocket_hole(pocket).contains_point(point))
}

/// The pocket whose centre is nearest to `point`, with that distance in mm.
pub fn nearest_pocket(point: Point2<f64>) -> (Pocket, f64) {
    let distance = |pocket: Pocket| (point - pocket_centre(pocket)).norm();
    let mut best = (Pocket::ALL[0], distance(Pocket::ALL[0]));
    for pocket in Pocket::ALL.into_iter().skip(1) {
        let d = distance(pocket);
        if d < best.1 {
            best = (pocket, d);
        }
    }
    best
}

/// The pocket whose centre the straight way from `from` to `to` passes
/// within `reach_mm` of, the nearest if more than one: where a moving piece
/// may drop, though neither end of its way lies near the hole.
pub fn pocket_on_the_way(from: Point2<f64>, to: Point2<f64>, reach_mm: f64) -> Option<Pocket> {
    Pocket::ALL
        .into_iter()
        .map(|pocket| (pocket, segment_distance(pocket_centre(pocket), from, to)))
        .filter(|&(_, distance)| distance <= reach_mm)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(pocket, _)| pocket)
}

/// Whether `point` is on the plywood: inside the surface square and not in a
/// pocket hole.
pub fn on_playing_surface(point: Point2<f64>) -> bool {
    point.x.abs() <= HALF_SURFACE_MM
        && point.y.abs() <= HALF_SURFACE_MM
        && pocket_containing(point).is_none()
}

/// Whether a disc (a carromman or the striker) lies wholly on the plywood:
/// within the surface square and overlapping no pocket hole.
pub fn disc_on_playing_surface(centre: Point2<f64>, radius: f64) -> bool {
    let disc = Circle::new(centre, radius);
    let limit = HALF_SURFACE_MM - radius + GEOMETRY_EPSILON_MM;
    centre.x.abs() <= limit
        && centre.y.abs() <= limit
        && Pocket::ALL
            .into_iter()
            .all(|pocket| !pocket_hole(pocket).overlaps_disc(&disc))
}

/// The centre circle (ICF A.6), where the Queen is placed.
pub fn centre_circle() -> Circle {
    Circle::new(Point2::origin(), CENTRE_CIRCLE_RADIUS_MM)
}

/// The outer circle (ICF A.7), within which pieces are placed and arranged.
pub fn outer_circle() -> Circle {
    Circle::new(Point2::origin(), OUTER_CIRCLE_RADIUS_MM)
}

/// Whether a disc lies wholly within the outer circle (as placed pieces
/// must, ICF interpretation 9 and law 41).
pub fn disc_inside_outer_circle(centre: Point2<f64>, radius: f64) -> bool {
    outer_circle().contains_disc(&Circle::new(centre, radius))
}

/// Whether a disc covers the whole red centre circle (a piece placed there
/// sits on it fully, so nothing else can cover any of the red).
pub fn disc_covers_centre_circle(centre: Point2<f64>, radius: f64) -> bool {
    Circle::new(centre, radius).contains_disc(&centre_circle())
}

/// Unit vector from the board centre towards a pocket, along the diagonal.
pub fn diagonal_towards(pocket: Pocket) -> Vector2<f64> {
    let (sx, sy) = pocket.corner_signs();
    Vector2::new(sx, sy) / std::f64::consts::SQRT_2
}

/// The arrow pointing at a pocket (ICF A.5), as a stroke from its start (tail,
/// board-centre side) to its head (pocket side).
pub fn arrow(pocket: Pocket) -> Stroke {
    let towards = diagonal_towards(pocket);
    Stroke {
        start: Point2::origin() + towards * ARROW_TAIL_DIAGONAL_MM,
        end: Point2::origin() + towards * ARROW_HEAD_DIAGONAL_MM,
        thickness: ARROW_MAX_THICKNESS_MM,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::spec::{
        ARROW_CLEARANCE_FROM_POCKET_MM, ARROW_MAX_LENGTH_MM, CARROMMAN_RADIUS_MM,
        POCKET_DIAMETER_MM, STRIKER_RADIUS_MM,
    };

    #[test]
    fn pockets_sit_in_their_corners_tangent_to_the_frame() {
        for pocket in Pocket::ALL {
            let centre = pocket_centre(pocket);
            let (sx, sy) = pocket.corner_signs();
            assert_eq!(centre.x.signum(), sx);
            assert_eq!(centre.y.signum(), sy);
            // The rim reaches both frame edges and no further.
            assert!((centre.x.abs() + POCKET_RADIUS_MM - HALF_SURFACE_MM).abs() < 1e-9);
            assert!((centre.y.abs() + POCKET_RADIUS_MM - HALF_SURFACE_MM).abs() < 1e-9);
            assert_eq!(pocket_containing(centre), Some(pocket));
            assert_eq!(nearest_pocket(centre), (pocket, 0.0));
        }
        assert!((2.0 * pocket_hole(Pocket::Ne).radius - POCKET_DIAMETER_MM).abs() < 1e-12);
    }

    #[test]
    fn pocket_membership_ends_at_the_rim() {
        let centre = pocket_centre(Pocket::Sw);
        let towards_board = -diagonal_towards(Pocket::Sw);
        let just_in = centre + towards_board * (POCKET_RADIUS_MM - 0.01);
        let just_out = centre + towards_board * (POCKET_RADIUS_MM + 0.01);
        assert_eq!(pocket_containing(just_in), Some(Pocket::Sw));
        assert_eq!(pocket_containing(just_out), None);
        assert!(on_playing_surface(just_out));
        assert!(!on_playing_surface(just_in));
        assert_eq!(pocket_containing(Point2::origin()), None);
    }

    #[test]
    fn nearest_pocket_follows_the_quadrant() {
        let (pocket, distance) = nearest_pocket(Point2::new(100.0, -50.0));
        assert_eq!(pocket, Pocket::Se);
        assert!(
            (distance - (Point2::new(100.0, -50.0) - pocket_centre(Pocket::Se)).norm()).abs()
                < 1e-12
        );
        assert_eq!(nearest_pocket(Point2::new(-1.0, 1.0)).0, Pocket::Nw);
    }

    #[test]
    fn surface_is_the_square_without_the_holes() {
        assert!(on_playing_surface(Point2::origin()));
        assert!(on_playing_surface(Point2::new(HALF_SURFACE_MM, 0.0)));
        assert!(!on_playing_surface(Point2::new(HALF_SURFACE_MM + 0.1, 0.0)));
        assert!(!on_playing_surface(Point2::new(
            0.0,
            -HALF_SURFACE_MM - 0.1
        )));
    }

    #[test]
    fn disc_on_surface_needs_room_from_frame_and_holes() {
        let r = STRIKER_RADIUS_MM;
        assert!(disc_on_playing_surface(
            Point2::new(0.0, -HALF_SURFACE_MM + r),
            r
        ));
        assert!(!disc_on_playing_surface(
            Point2::new(0.0, -HALF_SURFACE_MM + r - 0.5),
            r
        ));
        // Against the frame next to a pocket: inside the square but over the hole.
        let beside_pocket = Point2::new(
            HALF_SURFACE_MM - r,
            HALF_SURFACE_MM - POCKET_RADIUS_MM * 2.0,
        );
        assert!(!disc_on_playing_surface(beside_pocket, r));
        // Further along the frame the hole is clear.
        assert!(disc_on_playing_surface(
            Point2::new(HALF_SURFACE_MM - r, 200.0),
            r
        ));
    }

    #[test]
    fn outer_and_centre_circle_queries() {
        let r = CARROMMAN_RADIUS_MM;
        assert!(disc_inside_outer_circle(Point2::origin(), r));
        assert!(disc_inside_outer_circle(
            Point2::new(OUTER_CIRCLE_RADIUS_MM - r, 0.0),
            r
        ));
        assert!(!disc_inside_outer_circle(
            Point2::new(OUTER_CIRCLE_RADIUS_MM - r + 0.5, 0.0),
            r
        ));
        // A carromman is exactly as big as the centre circle: only the centred one covers it.
        assert!(disc_covers_centre_circle(Point2::origin(), r));
        assert!(!disc_covers_centre_circle(Point2::new(1.0, 0.0), r));
        assert!(disc_covers_centre_circle(
            Point2::new(3.0, 0.0),
            STRIKER_RADIUS_MM
        ));
    }

    #[test]
    fn arrows_run_along_the_diagonals_and_stop_short_of_the_pockets() {
        for pocket in Pocket::ALL {
            let stroke = arrow(pocket);
            assert!((stroke.length() - ARROW_MAX_LENGTH_MM).abs() < 1e-9);
            assert!((stroke.direction() - diagonal_towards(pocket)).norm() < 1e-12);
            let clearance = (pocket_centre(pocket) - stroke.end).norm() - POCKET_RADIUS_MM;
            assert!((clearance - ARROW_CLEARANCE_FROM_POCKET_MM).abs() < 1e-9);
            // 45° to the sides: |x| = |y| along the whole arrow.
            assert!((stroke.start.x.abs() - stroke.start.y.abs()).abs() < 1e-9);
        }
    }
}
