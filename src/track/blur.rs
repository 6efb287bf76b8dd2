//! One fast piece seen as two discs. A striker crossing the board at a
//! metre or more a second leaves a streak longer than its diameter, and the
//! detector can find a disc at each end of it. The second disc starts a
//! track of its own that runs in step with the first, and at the next
//! collision either may take the piece struck: both then go in together,
//! or the striker's track is lost and a "white" comes to rest in its place
//! (clip 3253: the striker and a white pocketed for one white). Two pieces
//! do not slide on in step, one on the other's course within a blur's span
//! of it: the one struck runs off faster than the one that struck it. So a
//! younger track that has never lain still, moving in step with an older
//! one over a frame, is that piece's blur, and is dropped at once (the
//! second disc is found in some frames of the streak and not others: in
//! clip 3253 in step for one frame, unseen the next, then found again);
//! while the older one keeps its speed, the discs found on that side of it
//! along its course are its blur too and start no track. (Pieces that lay
//! still are never taken so: in the break, neighbours run out in line at
//! much the same speed; clip 3437.)

use nalgebra::{Point2, Vector2};

use super::TrackId;
use crate::geometry::spec::CARROMMAN_RADIUS_MM;

/// The shortest step (mm) of a frame at which a piece leaves a streak long
/// enough to be found twice: a carromman's radius (about 0.5 m/s at 30 fps).
const LEAST_STEP_MM: f64 = CARROMMAN_RADIUS_MM;

/// Largest difference (mm) between the two discs' steps over a frame: the
/// detector's two centres wander along the streak.
const STEP_SLACK_MM: f64 = 0.75 * CARROMMAN_RADIUS_MM;

/// Farthest (mm) the second disc lies from the first one's course.
const ASIDE_MM: f64 = 0.5 * CARROMMAN_RADIUS_MM;

/// Longest time (s) between two sightings compared as one step (two frames
/// at 30 fps): across a gap the steps say nothing of a streak.
const LONGEST_STEP_S: f64 = 0.07;

/// One disc's move from one sighting to the next.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Step {
    /// Where it was seen before, board mm.
    pub from: Point2<f64>,
    /// Where it is seen now, board mm.
    pub to: Point2<f64>,
    /// Its radius, mm.
    pub radius_mm: f64,
}

impl Step {
    fn motion(&self) -> Vector2<f64> {
        self.to - self.from
    }

    /// Whether the step is long enough to leave a streak that can be found
    /// twice.
    pub fn leaves_a_streak(&self) -> bool {
        self.motion().norm() >= LEAST_STEP_MM
    }

    /// Where a disc of `radius_mm` at `at` lies on this step's streak:
    /// within [`ASIDE_MM`] of its course and within a step and both radii
    /// of where it ends. Returns the side (`true`: ahead), or `None` off the
    /// streak or for a step too short to leave one.
    fn side_on_streak(&self, at: Point2<f64>, radius_mm: f64) -> Option<bool> {
        let motion = self.motion();
        let length = motion.norm();
        if length < LEAST_STEP_MM {
            return None;
        }
        let apart = at - self.to;
        let along = apart.dot(&motion) / length;
        let aside = (apart.norm_squared() - along * along).max(0.0).sqrt();
        (aside <= ASIDE_MM && apart.norm() <= length + self.radius_mm + radius_mm)
            .then_some(along >= 0.0)
    }
}

/// Whether `other` moved in step with `piece` between two sightings `dt`
/// seconds apart, lying on `piece`'s streak: two discs found on one blurred
/// piece. Returns the side of `piece` it lay on (`true`: ahead), or `None`.
pub(crate) fn in_step(piece: &Step, other: &Step, dt: f64) -> Option<bool> {
    if dt <= 0.0 || dt > LONGEST_STEP_S || (piece.motion() - other.motion()).norm() > STEP_SLACK_MM
    {
        return None;
    }
    piece.side_on_streak(other.to, other.radius_mm)
}

/// A piece seen twice on its blur: its track, and the side of it its blur's
/// second disc lay on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Blurred {
    pub id: TrackId,
    pub ahead: bool,
}

impl Blurred {
    /// Whether a disc of `radius_mm` at `at` is this piece's blur again, the
    /// piece having made `step` this frame.
    pub fn takes(&self, step: &Step, at: Point2<f64>, radius_mm: f64) -> bool {
        step.side_on_streak(at, radius_mm) == Some(self.ahead)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(from: (f64, f64), to: (f64, f64), radius_mm: f64) -> Step {
        Step {
            from: Point2::new(from.0, from.1),
            to: Point2::new(to.0, to.1),
            radius_mm,
        }
    }

    #[test]
    fn two_discs_on_one_streak_move_in_step_and_a_struck_piece_does_not() {
        // Clip 3253: the striker's streak found at (134, -89) and, 40 mm
        // behind on its course, at (116, -124).
        let head = step((120.0, -120.0), (134.0, -89.0), 20.6);
        let tail = step((103.0, -152.0), (116.0, -124.0), 15.9);
        assert_eq!(in_step(&head, &tail, 1.0 / 30.0), Some(false));
        assert_eq!(in_step(&tail, &head, 1.0 / 30.0), Some(true));
        // The piece it struck runs off ahead of it, faster.
        let struck = step((150.0, -60.0), (175.0, -5.0), 15.9);
        assert_eq!(in_step(&head, &struck, 1.0 / 30.0), None);
        // Beside its course is another piece.
        let beside = step((140.0, -130.0), (154.0, -99.0), 15.9);
        assert_eq!(in_step(&head, &beside, 1.0 / 30.0), None);
        // Slow, or across a gap of frames, nothing is said.
        let slow_head = step((130.0, -98.0), (134.0, -89.0), 20.6);
        let slow_tail = step((112.0, -133.0), (116.0, -124.0), 15.9);
        assert_eq!(in_step(&slow_head, &slow_tail, 1.0 / 30.0), None);
        assert_eq!(in_step(&head, &tail, 0.1), None);
    }

    #[test]
    fn a_piece_seen_twice_takes_discs_on_its_streak_on_that_side_only() {
        let blurred = Blurred {
            id: TrackId(7),
            ahead: false,
        };
        let head = step((120.0, -120.0), (134.0, -89.0), 20.6);
        assert!(blurred.takes(&head, Point2::new(118.0, -122.0), 15.9));
        assert!(!blurred.takes(&head, Point2::new(150.0, -54.0), 15.9));
        assert!(!blurred.takes(&head, Point2::new(60.0, -250.0), 15.9));
    }
}
