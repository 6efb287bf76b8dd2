//! The ICF markings as edge samples the fit can look for: points in board mm
//! with a normal and the kind of edge expected across it (the frame's step
//! from light plywood to dark wood, or a dark painted band).

use nalgebra::{Point2, Vector2};

use crate::geometry::spec::{
    ARROW_ARC_DIAMETER_MM, BASE_CIRCLE_RADIUS_MM, CENTRE_CIRCLE_RADIUS_MM,
    CIRCLE_LINE_THICKNESS_MM, HALF_SURFACE_MM, OUTER_CIRCLE_RADIUS_MM, POCKET_CENTRE_OFFSET_MM,
    POCKET_RADIUS_MM,
};
use crate::geometry::{arrow, seat_markings, Pocket, Seat, Stroke};

/// Which marking a sample belongs to (for weighting and for reports).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MarkingGroup {
    /// The edge between the playing surface and the frame.
    SurfaceEdge,
    /// The two base lines of a seat.
    BaseLine,
    /// The rims of the base circles.
    BaseCircle,
    /// The arrow shafts.
    Arrow,
    /// The rim of the red centre circle.
    CentreCircle,
    /// The outer circle.
    OuterCircle,
}

/// What the image should show across a sample, along its normal.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum EdgeKind {
    /// Light on the negative side of the normal, dark on the positive side;
    /// `reach_mm` is how far the dark side stays uniformly dark.
    Step {
        /// Width of the uniformly dark side, mm.
        reach_mm: f64,
    },
    /// A dark painted band of this width centred on the sample, light on both
    /// sides.
    Band {
        /// Full width of the paint, mm.
        width_mm: f64,
    },
}

/// One point of the model where the image should show an edge.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MarkingSample {
    /// Board point on the edge (or the band's centre line), mm.
    pub board: Point2<f64>,
    /// Unit normal to the edge, board coordinates.
    pub normal: Vector2<f64>,
    /// The edge expected across the normal.
    pub kind: EdgeKind,
    /// The marking the point belongs to.
    pub group: MarkingGroup,
}

/// How far the frame's dark wood is trusted to stay dark beyond the surface
/// edge, mm: real frames carry bevels and varnish highlights further out.
const FRAME_STEP_REACH_MM: f64 = 8.0;

/// Clearance kept from features that would disturb a sample (pocket holes,
/// where a line meets a circle), mm.
const CLEARANCE_MM: f64 = 4.0;

/// The part of an arrow shaft clear of its decorations: the arc round its tail
/// and the head, mm from each end.
const ARROW_HEAD_CLEARANCE_MM: f64 = 20.0;

/// Model edge samples every `spacing_mm` along every marking.
pub fn marking_samples(spacing_mm: f64) -> Vec<MarkingSample> {
    let spacing = spacing_mm.max(0.5);
    let mut samples = Vec::new();
    surface_edges(spacing, &mut samples);
    for seat in Seat::TURN_ORDER {
        seat_samples(seat, spacing, &mut samples);
    }
    for pocket in Pocket::ALL {
        let shaft = arrow(pocket);
        let start = ARROW_ARC_DIAMETER_MM / 2.0 + CLEARANCE_MM;
        let end = shaft.length() - ARROW_HEAD_CLEARANCE_MM;
        stroke_samples(
            &shaft,
            start,
            end,
            spacing,
            MarkingGroup::Arrow,
            &mut samples,
        );
    }
    let ring_width = CIRCLE_LINE_THICKNESS_MM;
    circle_band(
        Point2::origin(),
        OUTER_CIRCLE_RADIUS_MM - ring_width / 2.0,
        ring_width,
        spacing,
        MarkingGroup::OuterCircle,
        &mut samples,
    );
    circle_step(
        Point2::origin(),
        CENTRE_CIRCLE_RADIUS_MM,
        (0.0, std::f64::consts::TAU),
        spacing,
        MarkingGroup::CentreCircle,
        &mut samples,
    );
    samples
}

fn surface_edges(spacing: f64, samples: &mut Vec<MarkingSample>) {
    // Stop short of the pocket holes and the frame's curved corners round them.
    let reach = POCKET_CENTRE_OFFSET_MM - POCKET_RADIUS_MM - CLEARANCE_MM;
    let count = (2.0 * reach / spacing).floor() as usize;
    for seat in Seat::TURN_ORDER {
        // South's edge is y = -HALF_SURFACE_MM with the frame below it.
        let outward = rotate(Vector2::new(0.0, -1.0), seat);
        let along = Vector2::new(-outward.y, outward.x);
        for i in 0..=count {
            let t = -reach + i as f64 * spacing;
            samples.push(MarkingSample {
                board: Point2::from(outward * HALF_SURFACE_MM + along * t),
                normal: outward,
                kind: EdgeKind::Step {
                    reach_mm: FRAME_STEP_REACH_MM,
                },
                group: MarkingGroup::SurfaceEdge,
            });
        }
    }
}

fn rotate(v: Vector2<f64>, seat: Seat) -> Vector2<f64> {
    crate::geometry::rotate_vector_to_seat(v, seat)
}

fn seat_samples(seat: Seat, spacing: f64, samples: &mut Vec<MarkingSample>) {
    let markings = seat_markings(seat);
    // The lines run from circle centre to circle centre: sample only between
    // the circles' rims.
    let clear = BASE_CIRCLE_RADIUS_MM + CLEARANCE_MM;
    for line in [markings.outer_line, markings.inner_line] {
        let end = line.length() - clear;
        stroke_samples(&line, clear, end, spacing, MarkingGroup::BaseLine, samples);
    }
    // Each base circle's rim is clear of the lines only on the side facing
    // away from them (the lines meet the rim tangentially at ±90°).
    let along = markings.outer_line.direction();
    for (circle, away) in markings.base_circles.iter().zip([-along, along]) {
        let facing = away.y.atan2(away.x);
        let half_span = 55f64.to_radians();
        circle_step(
            circle.centre,
            circle.radius,
            (facing - half_span, facing + half_span),
            spacing,
            MarkingGroup::BaseCircle,
            samples,
        );
    }
}

fn stroke_samples(
    stroke: &Stroke,
    from: f64,
    to: f64,
    spacing: f64,
    group: MarkingGroup,
    samples: &mut Vec<MarkingSample>,
) {
    if to <= from {
        return;
    }
    let along = stroke.direction();
    let normal = Vector2::new(-along.y, along.x);
    let count = ((to - from) / spacing).floor() as usize;
    for i in 0..=count {
        let t = from + i as f64 * spacing;
        samples.push(MarkingSample {
            board: stroke.start + along * t,
            normal,
            kind: EdgeKind::Band {
                width_mm: stroke.thickness,
            },
            group,
        });
    }
}

fn circle_band(
    centre: Point2<f64>,
    radius: f64,
    width: f64,
    spacing: f64,
    group: MarkingGroup,
    samples: &mut Vec<MarkingSample>,
) {
    let count = (std::f64::consts::TAU * radius / spacing).ceil().max(8.0) as usize;
    for i in 0..count {
        let angle = std::f64::consts::TAU * i as f64 / count as f64;
        let outward = Vector2::new(angle.cos(), angle.sin());
        samples.push(MarkingSample {
            board: centre + outward * radius,
            normal: outward,
            kind: EdgeKind::Band { width_mm: width },
            group,
        });
    }
}

/// A circle rim with paint inside: light outside, dark inside, so the normal
/// points inward.
fn circle_step(
    centre: Point2<f64>,
    radius: f64,
    (from, to): (f64, f64),
    spacing: f64,
    group: MarkingGroup,
    samples: &mut Vec<MarkingSample>,
) {
    let count = ((to - from) * radius / spacing).ceil().max(4.0) as usize;
    for i in 0..count {
        let angle = from + (to - from) * (i as f64 + 0.5) / count as f64;
        let outward = Vector2::new(angle.cos(), angle.sin());
        samples.push(MarkingSample {
            board: centre + outward * radius,
            normal: -outward,
            kind: EdgeKind::Step {
                reach_mm: CIRCLE_LINE_THICKNESS_MM,
            },
            group,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{on_playing_surface, pocket_containing};

    #[test]
    fn samples_cover_every_marking_and_avoid_the_pockets() {
        let samples = marking_samples(5.0);
        for group in [
            MarkingGroup::SurfaceEdge,
            MarkingGroup::BaseLine,
            MarkingGroup::BaseCircle,
            MarkingGroup::Arrow,
            MarkingGroup::CentreCircle,
            MarkingGroup::OuterCircle,
        ] {
            assert!(
                samples.iter().filter(|s| s.group == group).count() >= 4,
                "{group:?}"
            );
        }
        for s in &samples {
            assert!((s.normal.norm() - 1.0).abs() < 1e-12);
            assert!(on_playing_surface(s.board), "{s:?}");
            assert_eq!(pocket_containing(s.board), None);
        }
    }

    #[test]
    fn surface_edge_normals_point_into_the_frame() {
        for s in marking_samples(10.0)
            .iter()
            .filter(|s| s.group == MarkingGroup::SurfaceEdge)
        {
            let beyond = s.board + s.normal * 1.0;
            assert!(!on_playing_surface(beyond));
        }
    }
}
