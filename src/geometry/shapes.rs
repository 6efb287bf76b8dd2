//! The two shapes every ICF marking is made of: circles and straight strokes
//! of a given thickness, with the distance queries the board model needs.

use nalgebra::{Point2, Vector2};
use serde::{Deserialize, Serialize};

/// A circle (or disc) in board millimetres.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Circle {
    /// Centre, board mm.
    pub centre: Point2<f64>,
    /// Radius, mm.
    pub radius: f64,
}

impl Circle {
    /// A circle of the given centre and radius.
    pub fn new(centre: Point2<f64>, radius: f64) -> Circle {
        Circle { centre, radius }
    }

    /// Whether `point` lies inside the disc or on its rim.
    pub fn contains_point(&self, point: Point2<f64>) -> bool {
        (point - self.centre).norm() <= self.radius
    }

    /// Whether the whole of `other` lies within this disc (rims may touch).
    pub fn contains_disc(&self, other: &Circle) -> bool {
        (other.centre - self.centre).norm() + other.radius <= self.radius + GEOMETRY_EPSILON_MM
    }

    /// Whether the two discs share some area (touching rims do not count).
    pub fn overlaps_disc(&self, other: &Circle) -> bool {
        (other.centre - self.centre).norm() < self.radius + other.radius - GEOMETRY_EPSILON_MM
    }
}

/// A straight stroke of paint: a segment between two points, drawn with a
/// thickness (flat ends, as a ruled line is drawn).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Stroke {
    /// One end of the centre line, board mm.
    pub start: Point2<f64>,
    /// The other end of the centre line, board mm.
    pub end: Point2<f64>,
    /// Full thickness of the stroke, mm.
    pub thickness: f64,
}

impl Stroke {
    /// Length of the centre line, mm.
    pub fn length(&self) -> f64 {
        (self.end - self.start).norm()
    }

    /// Unit vector from `start` to `end`; zero for a degenerate stroke.
    pub fn direction(&self) -> Vector2<f64> {
        let along = self.end - self.start;
        let length = along.norm();
        if length > 0.0 {
            along / length
        } else {
            Vector2::zeros()
        }
    }

    /// Distance from `point` to the painted area (the rectangle of the
    /// stroke), zero when the point lies on the paint.
    pub fn distance_to(&self, point: Point2<f64>) -> f64 {
        let along = self.end - self.start;
        let length = along.norm();
        let offset = point - self.start;
        if length == 0.0 {
            return (offset.norm() - self.thickness / 2.0).max(0.0);
        }
        let unit = along / length;
        let beyond_ends = {
            let t = offset.dot(&unit);
            if t < 0.0 {
                -t
            } else if t > length {
                t - length
            } else {
                0.0
            }
        };
        let across = (offset.x * unit.y - offset.y * unit.x).abs();
        let beyond_sides = (across - self.thickness / 2.0).max(0.0);
        beyond_ends.hypot(beyond_sides)
    }

    /// Whether a disc touches or overlaps the paint.
    pub fn touches_disc(&self, disc: &Circle) -> bool {
        self.distance_to(disc.centre) <= disc.radius
    }
}

/// Distance from `point` to the segment `a`–`b` (to `a` when they coincide).
pub fn segment_distance(point: Point2<f64>, a: Point2<f64>, b: Point2<f64>) -> f64 {
    let ab = b - a;
    let length_sq = ab.norm_squared();
    if length_sq == 0.0 {
        return (point - a).norm();
    }
    let along = ((point - a).dot(&ab) / length_sq).clamp(0.0, 1.0);
    (point - (a + ab * along)).norm()
}

/// Slack for comparisons of derived lengths, mm: far below anything a camera
/// can see, far above floating-point noise.
pub const GEOMETRY_EPSILON_MM: f64 = 1e-6;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segment_distance_is_to_the_nearest_point_of_the_segment() {
        let (a, b) = (Point2::new(0.0, 0.0), Point2::new(10.0, 0.0));
        assert_eq!(segment_distance(Point2::new(5.0, 3.0), a, b), 3.0);
        assert_eq!(segment_distance(Point2::new(13.0, 4.0), a, b), 5.0);
        assert_eq!(segment_distance(Point2::new(-3.0, 4.0), a, b), 5.0);
        assert_eq!(segment_distance(Point2::new(3.0, 4.0), a, a), 5.0);
    }

    #[test]
    fn stroke_distance_measures_from_the_paint_edge() {
        let stroke = Stroke {
            start: Point2::new(0.0, 0.0),
            end: Point2::new(10.0, 0.0),
            thickness: 2.0,
        };
        assert!((stroke.distance_to(Point2::new(5.0, 4.0)) - 3.0).abs() < 1e-12);
        assert_eq!(stroke.distance_to(Point2::new(5.0, 0.5)), 0.0);
        // Beyond an end: measured from the corner of the flat end.
        assert!((stroke.distance_to(Point2::new(13.0, 5.0)) - 5.0).abs() < 1e-12);
        assert!((stroke.distance_to(Point2::new(-2.0, 0.0)) - 2.0).abs() < 1e-12);
    }

    #[test]
    fn disc_containment_and_overlap() {
        let big = Circle::new(Point2::new(0.0, 0.0), 10.0);
        let inside = Circle::new(Point2::new(3.0, 0.0), 7.0);
        let straddling = Circle::new(Point2::new(9.0, 0.0), 3.0);
        let tangent_outside = Circle::new(Point2::new(13.0, 0.0), 3.0);
        assert!(big.contains_disc(&inside));
        assert!(!big.contains_disc(&straddling));
        assert!(big.overlaps_disc(&straddling));
        assert!(!big.overlaps_disc(&tangent_outside));
        assert!(big.contains_point(Point2::new(0.0, 10.0)));
        assert!(!big.contains_point(Point2::new(0.0, 10.1)));
    }
}
