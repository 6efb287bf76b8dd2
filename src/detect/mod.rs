//! Finding the discs on the board: from a decoded camera frame to a typed list
//! of carrommen, Queen and striker positions in board millimetres.
//!
//! The stage runs in three steps, each its own module:
//!
//! - [`video`]: decoded frames ([`Frame`]) with errors that name the file and frame;
//! - [`yuv`]: the decoder's Y'CbCr 4:2:0 planes, converted to BGR over the
//!   board's part of the frame only;
//! - [`unchanged`]: whether a frame shows anything new since the last one
//!   looked at in full (a still board's frames are not warped again);
//! - [`topview`]: the frame warped to a top view of the board ([`Rectified`])
//!   through remap tables precomputed from a [`BoardCamera`];
//! - [`prior`]: the empty board predicted from the ICF drawing and a frame,
//!   so a first frame with pieces and a hand still gives a clean model;
//! - [`refine`]: a resting piece's centre fitted again on the camera frame,
//!   finer than the top view's pixels;
//! - [`background`] and [`discs`]: an adaptive model of the empty board, the
//!   foreground against it, and discs found in it by their ICF sizes and
//!   classified by the [`colours`] models ([`Detections`]); hands are the
//!   large blobs reaching in from the band round the surface (`blobs`); a
//!   piece whose face matches the wood shows only its rim, whose enclosed
//!   hole is filled first (`rims`);
//! - second looks where the foreground misses a piece: one at rest, against
//!   the board kept from when it was lost or from the start (`faint`), and
//!   one in motion, where its track's course leads ([`moving`]);
//! - pieces in flight over the frame, leaving the board ([`flight`]).

pub mod background;
mod blobs;
pub mod colours;
pub mod discs;
mod faint;
pub mod flight;
pub mod moving;
pub mod prior;
pub mod refine;
mod rims;
pub mod shake;
pub mod symmetry;
pub mod topview;
pub mod unchanged;
pub mod video;
pub mod yuv;

use nalgebra::{Point2, Point3};

use crate::geometry::spec::CARROMMAN_THICKNESS;
use crate::geometry::{Piece, Seat};

pub use background::Background;
pub use colours::{ColourModels, ColourSample};
pub use discs::{DetectError, Detector, DetectorOptions, KnownDisc};
pub use topview::{BoardCamera, Rectified, TopView, TopViewError};
pub use video::{Decoder, Frame, FrameReader, VideoError};

/// One disc seen in one frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Detection {
    /// Centre, board mm.
    pub centre: Point2<f64>,
    /// Radius measured in the image, mm.
    pub radius_mm: f64,
    /// The most likely piece.
    pub piece: Piece,
    /// The carromman its colour is nearest: what a disc taken for the
    /// striker by its size is if it is not the striker (a blurred carromman).
    pub by_colour: Piece,
    /// How far the colour is from the chosen class relative to the next best,
    /// 0 (ambiguous) to 1 (clear).
    pub confidence: f64,
    /// The colour's squared distances (in the models' spreads) from each
    /// piece's model, white, black, Queen and striker, where the disc's
    /// colour was read over its face; `None` where it was not.
    pub colour_distances: Option<[f64; 4]>,
}

impl Detection {
    /// Whether the disc's colour rules out `piece`: outside that piece's
    /// model, and several times as far from it as from the nearest model.
    /// The confidence compares only the two nearest carromman kinds: a
    /// pale striker with red rings reads as an uncertain white, between
    /// white and the Queen, yet is plainly no black.
    pub fn colour_rules_out(&self, piece: Piece) -> bool {
        let (Some(distances), Some(own)) =
            (self.colour_distances, self.colour_distance_from(piece))
        else {
            return false;
        };
        let nearest = distances.iter().copied().fold(f64::INFINITY, f64::min);
        own >= RULED_OUT_MIN_DISTANCE && RULED_OUT_RATIO * nearest <= own
    }

    /// Whether the disc's colour is nearest the striker's model: its
    /// colour, not only its size, says striker.
    pub fn coloured_as_the_striker(&self) -> bool {
        match (
            self.colour_distances,
            self.colour_distance_from(Piece::Striker),
        ) {
            (Some(distances), Some(own)) => distances.iter().all(|&d| own <= d),
            _ => false,
        }
    }

    /// The colour's squared distance (in the model's spreads) from
    /// `piece`'s model, where the colour was read.
    pub fn colour_distance_from(&self, piece: Piece) -> Option<f64> {
        self.colour_distances
            .map(|distances| distances[ColourModels::slot(piece)])
    }
}

/// A colour this many squared spreads from a piece's model (one spread) is
/// outside it. The models' spreads are wide (the shipped ones span many
/// boards): black and white lie 3 to 4 apart.
const RULED_OUT_MIN_DISTANCE: f64 = 1.0;

/// How many times nearer another model must be for a colour to rule a
/// piece out (squared distances).
const RULED_OUT_RATIO: f64 = 4.0;

/// An axis-aligned box in board mm where pieces cannot be seen this frame
/// (under a hand, or where the empty board has not been seen yet).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Occluder {
    /// South-west corner, board mm.
    pub min: Point2<f64>,
    /// North-east corner, board mm.
    pub max: Point2<f64>,
    /// Why nothing can be seen there.
    pub cause: OcclusionCause,
    /// For a hand: the side of the board its arm comes in over, which is
    /// the seat of the player it belongs to.
    pub enters_from: Option<Seat>,
}

/// Why an [`Occluder`] hides pieces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OcclusionCause {
    /// A hand or arm reaching in from the board's edge.
    Hand,
    /// The empty board there has not been seen yet (under the break cluster).
    UnknownBackground,
}

impl Occluder {
    /// Whether a board point lies in the box, grown by `margin_mm`.
    pub fn covers(&self, point: Point2<f64>, margin_mm: f64) -> bool {
        point.x >= self.min.x - margin_mm
            && point.x <= self.max.x + margin_mm
            && point.y >= self.min.y - margin_mm
            && point.y <= self.max.y + margin_mm
    }
}

/// Everything the detector saw in one frame.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Detections {
    /// The frame's index in the clip.
    pub index: u64,
    /// Seconds from the start of the clip.
    pub t: f64,
    /// The discs found.
    pub discs: Vec<Detection>,
    /// Regions where pieces may be present but cannot be seen.
    pub occluders: Vec<Occluder>,
    /// Whether `discs` is the break arrangement (ICF 41) recognised in this
    /// frame: every piece is known, so the tracker starts afresh from them.
    pub break_arrangement: bool,
    /// Tags of the resting known discs found still in place (see
    /// [`KnownDisc`]).
    pub still_there: Vec<u32>,
    /// Tags of the known discs that lie where they came to rest but have long
    /// stopped looking as they did then: the piece left, and what holds the
    /// track there is the board's drawing (see [`discs::RestLooks`]).
    pub looks_changed: Vec<u32>,
}

impl Detections {
    /// Whether a board point is hidden (under a hand or unknown background).
    pub fn is_occluded(&self, point: Point2<f64>, margin_mm: f64) -> bool {
        self.occluders.iter().any(|o| o.covers(point, margin_mm))
    }

    /// Whether a board point is under a hand (not merely unknown background).
    pub fn is_under_a_hand(&self, point: Point2<f64>, margin_mm: f64) -> bool {
        self.occluders
            .iter()
            .any(|o| o.cause == OcclusionCause::Hand && o.covers(point, margin_mm))
    }

    /// The seats whose players' arms are over the board in this frame.
    pub fn hand_seats(&self) -> Vec<Seat> {
        self.occluders
            .iter()
            .filter_map(|o| o.enters_from)
            .collect()
    }

    /// Whether a hand is over the board in this frame.
    pub fn hand_present(&self) -> bool {
        self.occluders
            .iter()
            .any(|o| o.cause == OcclusionCause::Hand)
    }

    /// Whether a hand over the board in this frame lies within `margin_mm`
    /// of a board point (its arm's box grown by that much).
    pub fn hand_near(&self, at: Point2<f64>, margin_mm: f64) -> bool {
        self.occluders
            .iter()
            .any(|o| o.cause == OcclusionCause::Hand && o.covers(at, margin_mm))
    }
}

/// A 720p camera over the board as the simulator places one: a metre up,
/// off the centre, tilted and rolled, with its lens's distortion.
#[cfg(test)]
pub(crate) fn test_camera() -> crate::sim::camera::Camera {
    use crate::sim::camera::{Camera, CameraPose, Intrinsics, Shake};
    let intrinsics = Intrinsics {
        width: 1280,
        height: 720,
        fx: 520.0,
        fy: 523.0,
        cx: 636.0,
        cy: 368.0,
        k1: 0.042,
        k2: 0.017,
    };
    let pose = CameraPose {
        position_mm: [110.0, 35.0, 1030.0],
        aim_mm: [3.0, 16.0],
        tilt_deg: 6.0,
        tilt_azimuth_deg: 10.0,
        roll_deg: 126.0,
    };
    Camera::new(intrinsics, pose, Shake::NONE).expect("a valid camera")
}

/// An image as a camera moved by `(dx, dy)` pixels would see it: what was
/// at `p` is at `p + (dx, dy)`, the edges carried on. For the tests of
/// what follows a camera's shake.
#[cfg(test)]
pub(crate) fn test_shifted(image: &opencv::core::Mat, dx: f64, dy: f64) -> opencv::core::Mat {
    use opencv::prelude::*;
    let matrix =
        opencv::core::Mat::from_slice_2d(&[[1.0, 0.0, dx], [0.0, 1.0, dy]]).expect("a 2x3 matrix");
    let mut out = opencv::core::Mat::default();
    opencv::imgproc::warp_affine(
        image,
        &mut out,
        &matrix,
        image.size().expect("an image's size"),
        opencv::imgproc::INTER_LINEAR,
        opencv::core::BORDER_REPLICATE,
        opencv::core::Scalar::all(0.0),
    )
    .expect("OpenCV's warp");
    out
}

/// Pseudo-random bytes from a seed (xorshift; no generator crate needed),
/// for tests that compare a fast path with a reference over varied pixels.
#[cfg(test)]
pub(crate) fn test_noise(len: usize, seed: u64) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect()
}

/// A board of uniform wood with a little noise, as a top view.
#[cfg(test)]
pub(crate) fn test_wood(side: usize, seed: u64) -> Vec<u8> {
    let noise = test_noise(side * side * 3, seed);
    (0..side * side * 3)
        .map(|i| {
            let base = [150u8, 180, 200][i % 3];
            base.saturating_add(noise[i] % 5)
        })
        .collect()
}

/// Paints a disc of one BGR colour into a top view.
#[cfg(test)]
pub(crate) fn test_paint_disc(
    bgr: &mut [u8],
    side: usize,
    column: f64,
    row: f64,
    radius: f64,
    colour: [u8; 3],
) {
    for i in background::disc_pixels(side, side, column, row, radius) {
        bgr[3 * i..3 * i + 3].copy_from_slice(&colour);
    }
}

/// A white carromman as the simulator draws one on light wood at 0.5 px/mm:
/// a face ten levels lighter than the wood (under the 22-level foreground
/// floor) inside a darker rim a pixel and a half wide.
#[cfg(test)]
pub(crate) fn test_paint_white(bgr: &mut [u8], side: usize, column: f64, row: f64) {
    test_paint_disc(bgr, side, column, row, 7.9, [120, 145, 160]);
    test_paint_disc(bgr, side, column, row, 6.4, [162, 192, 212]);
}

/// How high (mm) above the board a disc's body seen from above stands on
/// average: half a carromman's thickness (ICF B, 7–9 mm).
const DISC_LIFT_MM: f64 = CARROMMAN_THICKNESS.nominal / 2.0;

/// Where a disc found at `seen` (board mm, through the board plane's
/// mapping) stands on the board. Its body stands off the board, so from
/// the camera at `viewpoint` (board mm, z its height) it is seen a little
/// farther out from the point below the camera than it lies: about 1 mm at
/// 300 mm out with the camera 1.2 m up, an error in every rest position.
pub fn stand_on_the_board(seen: Point2<f64>, viewpoint: Point3<f64>) -> Point2<f64> {
    if viewpoint.z <= DISC_LIFT_MM {
        return seen;
    }
    let below = Point2::new(viewpoint.x, viewpoint.y);
    below + (seen - below) * ((viewpoint.z - DISC_LIFT_MM) / viewpoint.z)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_disc_seen_off_the_point_below_the_camera_stands_nearer_it() {
        let camera = Point3::new(100.0, 0.0, 1200.0);
        // 300 mm out, 4 mm up: seen 1 mm too far out.
        let on_board = stand_on_the_board(Point2::new(400.0, 0.0), camera);
        assert!(
            (on_board - Point2::new(399.0, 0.0)).norm() < 1e-9,
            "{on_board}"
        );
        // Straight below the camera nothing moves.
        assert_eq!(
            stand_on_the_board(Point2::new(100.0, 0.0), camera),
            Point2::new(100.0, 0.0)
        );
    }
}
