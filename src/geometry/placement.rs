//! Whether the striker is placed legally for a stroke from a seat (ICF 130):
//! touching both base lines, covering a base circle fully or not at all, and
//! clear of the arrows.

use nalgebra::Point2;
use serde::{Deserialize, Serialize};

use super::board::{arrow, disc_on_playing_surface};
use super::names::{Pocket, Seat};
use super::seat::seat_markings;
use super::shapes::Circle;

/// The verdict on a striker placement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "placement", content = "reason")]
pub enum Placement {
    /// The striker may be struck from here.
    Legal,
    /// The striker may not be struck from here, for this reason.
    Illegal(IllegalPlacement),
}

impl Placement {
    /// Whether the placement is legal.
    pub fn is_legal(self) -> bool {
        self == Placement::Legal
    }
}

/// Why a striker placement breaks ICF 130. When several apply, the first in
/// this order is reported, from the grossest to the finest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IllegalPlacement {
    /// The striker is not wholly on the plywood (over the frame or a hole).
    OffPlayingSurface,
    /// The striker touches neither of the seat's base lines: it is not at
    /// this seat's base lines at all.
    OutsideBaseLines,
    /// The striker touches only one of the two base lines (ICF 130 a).
    NotTouchingBothBaseLines,
    /// The striker covers part of a base circle but not all of it
    /// (ICF 130 b: from the base circle it must cover the circle fully).
    PartlyCoversBaseCircle,
    /// The striker touches an arrow (ICF 130 b).
    TouchesArrow,
}

impl IllegalPlacement {
    /// The law this reason comes from, for messages and logs.
    pub fn law(self) -> &'static str {
        match self {
            IllegalPlacement::OffPlayingSurface => "ICF 130",
            IllegalPlacement::OutsideBaseLines | IllegalPlacement::NotTouchingBothBaseLines => {
                "ICF 130(a)"
            }
            IllegalPlacement::PartlyCoversBaseCircle | IllegalPlacement::TouchesArrow => {
                "ICF 130(b)"
            }
        }
    }
}

/// Judges a striker of radius `striker_radius` (mm) resting at `centre`
/// (board mm) for a stroke from `seat`, by ICF 130.
///
/// The base circle's outline (31.8 mm) is what must be covered fully, as the
/// law says "the Base Circle"; touching its rim from outside is not covering
/// it. Every arrow is checked, though only the two at the seat's corners can
/// be reached from its base lines.
pub fn striker_placement(seat: Seat, centre: Point2<f64>, striker_radius: f64) -> Placement {
    use IllegalPlacement::*;
    let striker = Circle::new(centre, striker_radius);
    let markings = seat_markings(seat);
    let verdict = if !disc_on_playing_surface(centre, striker_radius) {
        Some(OffPlayingSurface)
    } else {
        let touches_outer = markings.outer_line.touches_disc(&striker);
        let touches_inner = markings.inner_line.touches_disc(&striker);
        if !touches_outer && !touches_inner {
            Some(OutsideBaseLines)
        } else if !(touches_outer && touches_inner) {
            Some(NotTouchingBothBaseLines)
        } else if markings
            .base_circles
            .iter()
            .any(|circle| striker.overlaps_disc(circle) && !striker.contains_disc(circle))
        {
            Some(PartlyCoversBaseCircle)
        } else if Pocket::ALL
            .into_iter()
            .any(|pocket| arrow(pocket).touches_disc(&striker))
        {
            Some(TouchesArrow)
        } else {
            None
        }
    };
    verdict.map_or(Placement::Legal, Placement::Illegal)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::seat::rotate_to_seat;
    use crate::geometry::spec::{
        BASE_CIRCLE_CENTRE_ALONG_MM, BASE_CIRCLE_CENTRE_DEPTH_MM, BASE_CIRCLE_RADIUS_MM,
        HALF_SURFACE_MM, STRIKER_DIAMETER, STRIKER_RADIUS_MM,
    };

    /// Cases given for south (the player's right is +x); each is checked for
    /// every seat by rotating the point.
    fn south_cases() -> Vec<(&'static str, Point2<f64>, Placement)> {
        use IllegalPlacement::*;
        use Placement::*;
        let along = BASE_CIRCLE_CENTRE_ALONG_MM;
        let depth = BASE_CIRCLE_CENTRE_DEPTH_MM;
        let r = STRIKER_RADIUS_MM;
        // How far the striker centre may stray from a base-circle centre and
        // still cover it fully.
        let cover_slack = r - BASE_CIRCLE_RADIUS_MM;
        vec![
            ("middle of the base lines", Point2::new(0.0, -depth), Legal),
            ("left of middle", Point2::new(-120.0, -depth), Legal),
            (
                "just clear of the right base circle",
                Point2::new(along - BASE_CIRCLE_RADIUS_MM - r - 0.1, -depth),
                Legal,
            ),
            (
                "covering the right base circle",
                Point2::new(along, -depth),
                Legal,
            ),
            (
                "covering the left base circle",
                Point2::new(-along, -depth),
                Legal,
            ),
            (
                "covering the circle, shifted away from the arrow",
                Point2::new(along - 0.7 * cover_slack, -depth),
                Legal,
            ),
            (
                "half over the right base circle",
                Point2::new(along - 20.0, -depth),
                Illegal(PartlyCoversBaseCircle),
            ),
            (
                "touching the left base circle's rim from inside the band",
                Point2::new(-along + BASE_CIRCLE_RADIUS_MM + r - 1.0, -depth),
                Illegal(PartlyCoversBaseCircle),
            ),
            (
                "covering the circle, shifted onto the arrow",
                Point2::new(along + 0.7 * cover_slack, -depth + 0.7 * cover_slack),
                Illegal(TouchesArrow),
            ),
            (
                "pushed towards the centre: only the inner line",
                Point2::new(0.0, -depth + 25.0),
                Illegal(NotTouchingBothBaseLines),
            ),
            (
                "pulled towards the player: only the outer line",
                Point2::new(0.0, -depth - 28.0),
                Illegal(NotTouchingBothBaseLines),
            ),
            (
                "at the board centre",
                Point2::new(0.0, 0.0),
                Illegal(OutsideBaseLines),
            ),
            (
                "beyond the right base circle",
                Point2::new(along + BASE_CIRCLE_RADIUS_MM + r + 5.0, -depth),
                Illegal(OutsideBaseLines),
            ),
            (
                "over the frame",
                Point2::new(0.0, -HALF_SURFACE_MM + r - 2.0),
                Illegal(OffPlayingSurface),
            ),
        ]
    }

    #[test]
    fn placements_are_judged_alike_from_every_seat() {
        for seat in Seat::TURN_ORDER {
            for (what, south_point, expected) in south_cases() {
                let point = rotate_to_seat(south_point, seat);
                assert_eq!(
                    striker_placement(seat, point, STRIKER_RADIUS_MM),
                    expected,
                    "{seat}: {what} at {point:?}"
                );
            }
        }
    }

    #[test]
    fn a_legal_spot_for_one_seat_is_illegal_for_the_others() {
        let south_spot = Point2::new(0.0, -BASE_CIRCLE_CENTRE_DEPTH_MM);
        for seat in Seat::TURN_ORDER {
            let spot = rotate_to_seat(south_spot, seat);
            for other in Seat::TURN_ORDER {
                assert_eq!(
                    striker_placement(other, spot, STRIKER_RADIUS_MM).is_legal(),
                    other == seat
                );
            }
        }
    }

    #[test]
    fn the_smallest_striker_can_still_touch_both_lines() {
        let r = STRIKER_DIAMETER.min / 2.0;
        let spot = Point2::new(50.0, -BASE_CIRCLE_CENTRE_DEPTH_MM);
        assert_eq!(striker_placement(Seat::South, spot, r), Placement::Legal);
    }

    proptest::proptest! {
        /// The verdict depends only on where the striker is relative to the
        /// seat, so every seat judges the rotated point as south judges it.
        #[test]
        fn verdicts_are_the_same_for_every_seat(
            x in -HALF_SURFACE_MM..HALF_SURFACE_MM,
            y in -HALF_SURFACE_MM..HALF_SURFACE_MM,
            radius in STRIKER_DIAMETER.min / 2.0..=STRIKER_DIAMETER.max / 2.0,
        ) {
            let south_point = Point2::new(x, y);
            let south_verdict = striker_placement(Seat::South, south_point, radius);
            for seat in Seat::TURN_ORDER {
                let verdict = striker_placement(seat, rotate_to_seat(south_point, seat), radius);
                proptest::prop_assert_eq!(verdict, south_verdict);
            }
        }
    }

    #[test]
    fn reasons_cite_law_130() {
        assert_eq!(IllegalPlacement::TouchesArrow.law(), "ICF 130(b)");
        assert_eq!(
            IllegalPlacement::NotTouchingBothBaseLines.law(),
            "ICF 130(a)"
        );
        let json = serde_json::to_string(&Placement::Illegal(IllegalPlacement::TouchesArrow))
            .expect("a unit enum always serialises");
        assert_eq!(json, r#"{"placement":"illegal","reason":"touches_arrow"}"#);
    }
}
