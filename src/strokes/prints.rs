//! Prints the pieces uncovered. The board under the break arrangement is
//! never seen before the break, and the centre design printed there (which
//! the ICF drawing the empty-board model starts from lacks) shows up as
//! discs once the pieces leave it: tracks of pieces that left in a blur
//! settle on its petals and points, and are counted at rest as pieces. So
//! once the pieces of a stroke lie still, each resting track that came to
//! lie where the break arrangement lay, or over other board the model has
//! never seen empty (under the hand of the first frame), is looked for on
//! the camera frame: a piece shows a disc's outline there, a print does
//! not. A print's track is dropped without a trace (nothing left the
//! board) and the board under it is learned as it looks.

use std::collections::HashMap;

use nalgebra::{Point2, Vector2};
use opencv::core::Mat;

use crate::calibrate::gray::GrayImage;
use crate::detect::refine::fit_outline_of;
use crate::detect::shake::Shift;
use crate::detect::{DetectError, Detector, Rectified, TopView};
use crate::geometry::spec::{CARROMMAN_RADIUS_MM, STRIKER_RADIUS_MM};
use crate::geometry::Piece;
use crate::track::{Track, TrackFrame, TrackId, Tracker};

/// A resting track is looked at when at least this fraction of the board
/// under it has never been seen empty.
const UNSEEN_TO_LOOK: f64 = 0.5;

/// Tracks this near the board's centre (mm) lie where the break
/// arrangement lay (its outer pieces' edges reach 80 mm) or on its rim: the
/// centre design under it is never seen before the break, and the model's
/// view of it, learned while pieces fly off it, cannot be trusted.
const UNDER_THE_BREAK_MM: f64 = 88.0;

/// Below this speed (mm/s) a track lies still enough to be looked at.
const STILL_MM_S: f64 = 40.0;

/// A track that lay within this distance (mm) of where it lies now before
/// the stroke began never left its spot (the board under it was never
/// uncovered); one looked at and found a piece is looked at again only once
/// it has moved farther.
const MOVED_MM: f64 = 3.0;

/// A track dropped as a print: what it was taken for and where.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrintFound {
    /// The track dropped.
    pub id: TrackId,
    /// The piece it was taken for.
    pub piece: Piece,
    /// Where it lay, board mm.
    pub at: Point2<f64>,
}

/// The tracks already looked at, with where they lay then.
#[derive(Debug, Clone, Default)]
pub struct PrintAudit {
    pieces_seen: HashMap<TrackId, Point2<f64>>,
    /// Where each track lay before the stroke under way began.
    before_the_stroke: HashMap<TrackId, Point2<f64>>,
}

/// What one frame's audit looks with.
pub struct CameraLook<'a> {
    /// The camera frame.
    pub image: &'a Mat,
    /// The warp from it to the top view.
    pub top_view: &'a TopView,
    /// The camera's shift since calibration.
    pub shift: Shift,
    /// The frame's top view.
    pub rectified: &'a Rectified,
}

impl PrintAudit {
    /// Notes where the tracks of `frame`, a frame between strokes, lie: a
    /// track still lying there once the stroke after has settled never left
    /// its spot, and the board under it was never uncovered.
    pub fn between_strokes(&mut self, frame: &TrackFrame) {
        self.before_the_stroke.clear();
        self.before_the_stroke
            .extend(frame.tracks.iter().map(|t| (t.id, t.position)));
    }

    /// Looks at the resting tracks of `frame` over never-seen board (see the
    /// module's comment) and drops those that show no disc outline on the
    /// camera frame from `tracker`, teaching `detector` the board there.
    pub fn audit(
        &mut self,
        look: &CameraLook<'_>,
        frame: &TrackFrame,
        detector: &mut Detector,
        tracker: &mut Tracker,
    ) -> Result<Vec<PrintFound>, DetectError> {
        self.pieces_seen
            .retain(|id, _| frame.tracks.iter().any(|t| t.id == *id));
        let to_look_at: Vec<&Track> = frame
            .tracks
            .iter()
            .filter(|t| self.worth_a_look(t, detector))
            .collect();
        if to_look_at.is_empty() {
            return Ok(Vec::new());
        }
        let Ok(grey) = GrayImage::from_frame(look.image, 0.0) else {
            return Ok(Vec::new());
        };
        let mut prints = Vec::new();
        for track in to_look_at {
            let outline = outline_near(&grey, look, track);
            if outline {
                self.pieces_seen.insert(track.id, track.position);
                continue;
            }
            let others: Vec<(Point2<f64>, f64)> = frame
                .tracks
                .iter()
                .filter(|t| t.id != track.id && !prints.iter().any(|p: &PrintFound| p.id == t.id))
                .map(|t| (t.position, t.radius_mm()))
                .collect();
            detector.learn_board_under(
                look.rectified,
                track.position,
                track.radius_mm(),
                &others,
            )?;
            tracker.forget_print(track.id);
            prints.push(PrintFound {
                id: track.id,
                piece: track.piece,
                at: track.position,
            });
        }
        Ok(prints)
    }

    /// Whether `track` is a carromman at rest this frame that came there in
    /// the stroke and has not been looked at there, over board the model
    /// cannot vouch for.
    fn worth_a_look(&self, track: &Track, detector: &Detector) -> bool {
        let moved_from = |places: &HashMap<TrackId, Point2<f64>>| {
            places
                .get(&track.id)
                .is_none_or(|at| (at - track.position).norm() > MOVED_MM)
        };
        track.piece != Piece::Striker
            && track.seen_this_frame()
            && !track.hidden
            && track.speed() < STILL_MM_S
            && moved_from(&self.before_the_stroke)
            && moved_from(&self.pieces_seen)
            && (track.position.coords.norm() <= UNDER_THE_BREAK_MM
                || detector.unseen_board_fraction(track.position, track.radius_mm())
                    >= UNSEEN_TO_LOOK)
    }
}

/// Where round a track its piece's outline is looked for (mm from it): the
/// track's centre can lie a little off the piece, drawn by the print or a
/// neighbour beside it.
const OUTLINE_SEEDS_MM: f64 = 8.0;

/// An outline found this far (mm) from the track is still its piece's.
const OUTLINE_REACH_MM: f64 = 14.0;

/// Whether a disc's outline, of a carromman's or the striker's size (the
/// tracker may take the one for the other), shows on the camera frame near
/// the track.
fn outline_near(grey: &GrayImage, look: &CameraLook<'_>, track: &Track) -> bool {
    let seeds = std::iter::once(Vector2::zeros()).chain((0..6).map(|k| {
        let angle = f64::from(k) * std::f64::consts::FRAC_PI_3;
        Vector2::new(angle.cos(), angle.sin()) * OUTLINE_SEEDS_MM
    }));
    let at = track.position;
    seeds
        .flat_map(|seed| [CARROMMAN_RADIUS_MM, STRIKER_RADIUS_MM].map(|r| (seed, r)))
        .any(|(seed, radius_mm)| {
            fit_outline_of(grey, look.top_view, look.shift, at + seed, radius_mm)
                .is_some_and(|outline| (outline.centre - at).norm() <= OUTLINE_REACH_MM)
        })
}
