//! Discs in the top view: foreground against the empty-board model, hands
//! removed as large blobs reaching in over the frame, disc centres as peaks
//! of the distance transform (which splits touching pieces at their necks),
//! refined to sub-pixel centroids and classified by size and colour.

use std::collections::HashMap;

use nalgebra::{Point2, Vector2};
use opencv::core::{self, Mat, Point, Scalar, Size, CV_32F, CV_8U};
use opencv::imgproc;
use opencv::prelude::*;
use thiserror::Error;

use super::background::{self, Background};
use super::blobs::{Blob, EdgeBlobs};
use super::colours::{ColourModels, ColourSample};
use super::faint::{FaintDisc, FaintSearch};
use super::flight::{
    empty_surface_luma, frame_luma, look_over_the_frame, FlightScratch, FrameSighting,
};
use super::moving::{find_moving, Sought};
use super::prior::InkMap;
use super::rims::{fill_rims, HoleSizes, RimScratch};
use super::topview::Rectified;
use super::{Detection, Detections, Occluder, OcclusionCause};
use crate::geometry::spec::{
    CARROMMAN_RADIUS_MM, HALF_SURFACE_MM, OUTER_CIRCLE_RADIUS_MM, POCKET_RADIUS_MM,
    STRIKER_RADIUS_MM,
};
use crate::geometry::{
    break_arrangement, disc_on_playing_surface, pocket_centre, segment_distance, take_piece, Piece,
    Pocket, Seat,
};
use crate::template::{TemplateError, TemplateFrame};

/// How much wider than a known disc the empty-board model is kept from
/// learning round it (see [`Detector::held_radius_px`]).
const HELD_RADIUS_FRACTION: f64 = 1.4;

/// The pixels (first column, first row, last column, last row) of a
/// `side`-pixel top view laid out by `frame` that `occluder`'s box covers,
/// grown by `margin_mm` on every side and clipped to the view.
fn px_box(
    frame: &TemplateFrame,
    occluder: &Occluder,
    margin_mm: f64,
    side: usize,
) -> (usize, usize, usize, usize) {
    let m = margin_mm;
    let a = frame.board_to_px(Point2::new(occluder.min.x - m, occluder.max.y + m));
    let b = frame.board_to_px(Point2::new(occluder.max.x + m, occluder.min.y - m));
    let clamp = |v: f64| (v.max(0.0) as usize).min(side - 1);
    (clamp(a.x), clamp(a.y), clamp(b.x), clamp(b.y))
}

/// How far (mm) round a hand [`Detector::search_faint`] does not look: its
/// shadow and the fingers' blur.
const FAINT_COVER_MARGIN_MM: f64 = 2.0 * CARROMMAN_RADIUS_MM;

/// Frames a disc found by [`Detector::search_faint`] must have held still...
const FAINT_STILL_FRAMES: u8 = 5;

/// ...over at least this fraction of its pixels.
const FAINT_MIN_STILL_FRACTION: f64 = 0.9;

/// A resting disc that differs from the start board by less than this (see
/// [`FaintSearch::contrast_at`]) is not there: whites on light wood measure
/// 25 to 35, the bare board a few levels at most.
const BARE_MAX_CONTRAST: f32 = 6.0;

/// How many discs beyond those wanted [`Detector::search_unseen`] reads
/// the colour of.
const UNSEEN_EXTRA_LOOKS: usize = 2;

/// [`Detector::search_unseen`] compares nothing within this (mm) of a
/// followed disc's edge: its shadow and blur...
const UNSEEN_ACCOUNTED_MARGIN_MM: f64 = 3.0;

/// ...and takes no disc overlapping one: centres at least this fraction of
/// the touching distance apart.
const UNSEEN_MIN_SEPARATION: f64 = 0.9;

/// A disc found this near (mm) where a piece of its kind was lost is that
/// piece, come to rest where it went from sight.
const STOPPED_WHERE_LOST_MM: f64 = 2.0 * CARROMMAN_RADIUS_MM;

/// Which of the `found` discs (kind, centre in board mm; strongest first)
/// are the pieces `lost` (kind, where last seen), as indices into `found`,
/// at most one a piece. A disc lying where a piece of its kind was lost
/// ([`STOPPED_WHERE_LOST_MM`]) is that piece, however faint beside one
/// elsewhere: a white that stopped on light wood went from sight where it
/// stopped. The other lost pieces take the strongest of the rest.
fn faint_discs_for_the_lost(
    found: &[(Piece, Point2<f64>)],
    lost: &[(Piece, Point2<f64>)],
) -> Vec<usize> {
    let mut where_lost: Vec<(f64, usize, usize)> = found
        .iter()
        .enumerate()
        .flat_map(|(i, &(kind, at))| {
            lost.iter()
                .enumerate()
                .filter(move |(_, &(lost_kind, lost_at))| {
                    lost_kind == kind && (at - lost_at).norm() <= STOPPED_WHERE_LOST_MM
                })
                .map(move |(j, &(_, lost_at))| ((at - lost_at).norm(), i, j))
        })
        .collect();
    where_lost.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (mut found_taken, mut lost_taken) = (vec![false; found.len()], vec![false; lost.len()]);
    let mut chosen = Vec::new();
    for (_, i, j) in where_lost {
        if !found_taken[i] && !lost_taken[j] {
            found_taken[i] = true;
            lost_taken[j] = true;
            chosen.push(i);
        }
    }
    for (i, &(kind, _)) in found.iter().enumerate() {
        if found_taken[i] {
            continue;
        }
        let still_lost = (0..lost.len()).find(|&j| !lost_taken[j] && lost[j].0 == kind);
        if let Some(j) = still_lost {
            lost_taken[j] = true;
            chosen.push(i);
        }
    }
    chosen
}

/// The two colours a frame's discs read as black fall into when they are
/// two kinds of carromman: mean features of the lighter (warmer) group and
/// of the darker.
#[derive(Debug, Clone, Copy, PartialEq)]
struct DarkSplit {
    lighter: [f64; 3],
    darker: [f64; 3],
}

/// A board has at most 9 black carrommen (ICF). Where one frame reads more
/// than [`MOST_OF_A_COLOUR`] discs over plain wood as black and hardly any
/// as white (`light`), the "whites" are a dark wood the shipped models take
/// for black (the real product photograph: dark-brown carrommen beside
/// black ones). The `dark` samples then fall in two groups by redness (the
/// cut that leaves the least scatter within them): where each holds at
/// least [`DARK_SPLIT_MIN_GROUP`] and their mean rednesses lie well apart
/// ([`DARK_SPLIT_MIN_REDNESS`], [`DARK_SPLIT_MIN_SEPARATION`]), the redder
/// group, if no darker and light enough ([`DARK_SPLIT_MIN_LIGHTER_LUMA`]),
/// is the lighter kind. None on a board whose whites are seen, or whose
/// extra "blacks" are one colour (ghosts of a dark print).
fn split_dark_pieces(dark: &[ColourSample], light: usize) -> Option<DarkSplit> {
    if dark.len() <= MOST_OF_A_COLOUR || light >= DARK_SPLIT_MAX_LIGHT {
        return None;
    }
    let mut sorted: Vec<[f64; 3]> = dark.iter().map(|s| s.features).collect();
    sorted.sort_by(|a, b| a[1].total_cmp(&b[1]));
    let mean_of = |group: &[[f64; 3]]| {
        let n = group.len() as f64;
        let mut mean = [0.0; 3];
        for features in group {
            for (m, f) in mean.iter_mut().zip(features) {
                *m += f / n;
            }
        }
        mean
    };
    // The cut that leaves the least spread of redness within the groups.
    let within = |group: &[[f64; 3]]| {
        let m = mean_of(group)[1];
        group.iter().map(|f| (f[1] - m).powi(2)).sum::<f64>()
    };
    let (cut, scatter) = (DARK_SPLIT_MIN_GROUP..=sorted.len() - DARK_SPLIT_MIN_GROUP)
        .map(|k| (k, within(&sorted[..k]) + within(&sorted[k..])))
        .min_by(|a, b| a.1.total_cmp(&b.1))?;
    let (darker, lighter) = (mean_of(&sorted[..cut]), mean_of(&sorted[cut..]));
    let gap = lighter[1] - darker[1];
    let pooled = (scatter / sorted.len() as f64).sqrt();
    (gap >= DARK_SPLIT_MIN_REDNESS
        && gap >= DARK_SPLIT_MIN_SEPARATION * pooled
        && lighter[0] >= darker[0]
        && lighter[0] >= DARK_SPLIT_MIN_LIGHTER_LUMA)
        .then_some(DarkSplit { lighter, darker })
}

/// The most carrommen of one colour a board holds (ICF: 9 white, 9 black).
const MOST_OF_A_COLOUR: usize = 9;

/// [`split_dark_pieces`] looks only at frames with fewer discs read as white
/// than this.
const DARK_SPLIT_MAX_LIGHT: usize = 3;

/// The lighter group is at least as light as the blacks the shipped models
/// were made for (their mean relative luma): a render's warm blacks
/// (0.17 of the board's luma) beside near-black specks (0.09) are one kind
/// of carromman and junk, not two kinds; the photograph's browns read 0.29.
const DARK_SPLIT_MIN_LIGHTER_LUMA: f64 = 0.25;

/// Each group of a dark split holds at least this many discs.
const DARK_SPLIT_MIN_GROUP: usize = 4;

/// The two groups' mean rednesses lie at least this far apart (the shipped
/// black model's spread of redness is 0.30)...
const DARK_SPLIT_MIN_REDNESS: f64 = 0.5;

/// ...and this many times the scatter of redness within the groups: the
/// two halves of one colour's normal scatter lie 2.7 times theirs apart.
const DARK_SPLIT_MIN_SEPARATION: f64 = 4.0;

/// The three pieces told apart by colour; the striker is told by its size.
const CARROMMAN_CLASSES: [Piece; 3] = [Piece::White, Piece::Black, Piece::Queen];

/// A distance-transform peak must reach this fraction of a carromman's radius
/// to be a disc: thin lines, specks and the edges of streaks stay below it.
const MIN_PEAK_FRACTION: f64 = 0.6;

/// Two disc centres are never closer than this fraction of a carromman's
/// diameter (touching pieces are one diameter apart).
const MIN_SEPARATION_FRACTION: f64 = 0.6;

/// Colour is sampled inside this fraction of the radius, clear of the edge
/// bevel and the turned ring.
const COLOUR_SAMPLE_FRACTION: f64 = 0.5;

/// How far round a disc, in its radii, the wood's luma is read to tell
/// whether the board under its centre is plain wood: far enough that the
/// board's drawing (a line, a base circle) is outvoted by the wood round it.
const BOARD_LUMA_REACH: f64 = 2.0;

/// The colour models learn only from discs over plain wood: where the
/// board under the centre is within this fraction of the wood's luma round
/// it. A white resting on the outer circle's line, its luma measured
/// against the ink, once read three times as bright as the board, and
/// frame after frame taught the white model that whites are, until the
/// Queen's model took the whites.
const PLAIN_WOOD_TOLERANCE: f64 = 0.15;

/// A foreground blob this many striker areas large that reaches past the
/// playing surface is a hand or an arm.
const HAND_MIN_STRIKER_AREAS: f64 = 3.0;

/// How near the playing surface's edge (mm) a blob must reach to count as
/// coming in from outside the board. Inside the edge, not past it: the frame
/// round the surface has no prediction, so a hand lying there in the first
/// frame is part of the model until it moves.
const HAND_REACH_MM: f64 = -12.0;

/// A hand's pixels this near (mm) a side of the surface show where it
/// comes in.
const HAND_ENTRY_BAND_MM: f64 = 25.0;

/// A hand's blob is at least this many carromman radii thick somewhere.
const HAND_MIN_THICKNESS_FRACTION: f64 = 1.2;

/// How far (mm) past the playing surface's edge a blob thin until closed
/// (see [`Detector::closed_thickness`]) must reach in to be an arm.
const HAND_FRAGMENTS_MIN_REACH_MM: f64 = 50.0;

/// Width (px) of the dilation that joins the parts of an arm.
const HAND_JOIN_PX: i32 = 7;

/// The longest step (px) of the 5×5 distance-transform mask, along either
/// axis.
const DISTANCE_MASK_REACH_PX: usize = 2;

/// Side (px) of the tiles the foreground is grouped by before its distance
/// transform: about half a carromman, so a piece's box is not much larger
/// than the piece.
pub(super) const FOREGROUND_TILE_PX: usize = 8;

/// A box of top-view pixels: first column, first row, end column, end row.
type PixelBox = (usize, usize, usize, usize);

/// Margin (mm) added round a hand's box: fingers cast shadows and blur.
const HAND_MARGIN_MM: f64 = 15.0;

/// How far (mm) a box from `min` to `max` (board mm) reaches in over the
/// playing surface from the side of `seat`.
fn reach_in_mm(seat: Seat, min: Point2<f64>, max: Point2<f64>) -> f64 {
    HALF_SURFACE_MM
        + match seat {
            Seat::South => max.y,
            Seat::North => -min.y,
            Seat::East => -min.x,
            Seat::West => max.x,
        }
}

/// Of the 19 break pieces, at least this many must show the expected colour
/// for the first frame to be taken as the break arrangement.
const BREAK_MATCH_MIN: usize = 17;

/// Where too few break spots show their colour by the models (a lamp or a
/// set of pieces the shipped models were not made for: clip 3445's blacks
/// read 0.33–0.56 of the board's luma, nearer the natural-wood model than
/// the black one), the arrangement is still taken when its nine lightest
/// carromman spots are exactly its whites and the darkest white is this
/// many times lighter than the lightest black. Each ring of the layout
/// holds both colours, so a print alike all round a ring (the centre
/// circle, most centre designs) cannot pass.
const BREAK_LIGHTNESS_GAP_MIN: f64 = 1.6;

/// How often (s) [`Detector::black_luma`] measures the empty surface's luma
/// again: the model follows a lamp's drift over seconds, not frames.
const SURFACE_LUMA_EVERY_S: f64 = 1.0;

/// Seconds into a clip during which a break arrangement hidden in the first
/// frame (under the hand that set it out) is still looked for.
const BREAK_SEARCH_S: f64 = 20.0;

/// A hand nearer the centre than this (mm) may still be covering the break
/// arrangement, which is then not looked for in that frame.
const BREAK_CLEAR_MM: f64 = 4.0 * 2.0 * CARROMMAN_RADIUS_MM;

/// A resting piece is still in place when at most this fraction of its
/// pixels changed since the last frame (noise flips a few).
const PRESENCE_MAX_CHANGED: f64 = 0.03;

/// A pocket hole must be darker than this fraction of the board's median luma.
const POCKET_MAX_RELATIVE_LUMA: f64 = 0.6;

/// A disc whose colour is this many times nearer the predicted empty board
/// than the learned one is a ghost.
const GHOST_RATIO: f64 = 0.4;

/// A sample adapts its class's colour model only when classified at least
/// this clearly, so markings and blurred streaks do not drag the models.
const CONFIDENT_TO_ADAPT: f64 = 0.7;

/// Why detection failed.
#[derive(Debug, Error)]
pub enum DetectError {
    /// The top view does not show a board: the pocket holes are not dark.
    #[error("frame {frame} shows no carrom board where the calibration says it is (the pockets are not dark holes): wrong calibration, or no board in view")]
    NoBoard {
        /// The frame looked at.
        frame: u64,
    },
    /// The top view is not the size the detector was made for.
    #[error("frame {frame}: top view is {got}x{got} pixels, expected {expected}x{expected}")]
    WrongSize {
        /// The frame.
        frame: u64,
        /// Its side.
        got: i32,
        /// The expected side.
        expected: i32,
    },
    /// The board drawing for the empty-board prediction failed.
    #[error("frame {frame}: cannot draw the board to predict the empty board")]
    Template {
        /// The frame.
        frame: u64,
        /// Why.
        source: TemplateError,
    },
    /// OpenCV failed.
    #[error("OpenCV failed while {action}")]
    OpenCv {
        /// What was being done.
        action: &'static str,
        /// OpenCV's error.
        source: opencv::Error,
    },
}

fn cv<T>(action: &'static str, result: opencv::Result<T>) -> Result<T, DetectError> {
    result.map_err(|source| DetectError::OpenCv { action, source })
}

/// Tuning of the detector.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DetectorOptions {
    /// Fraction of the way the empty-board model moves towards each frame
    /// where nothing covers it.
    pub learning_rate: f32,
    /// Fraction of the way a piece's colour model moves towards a confident
    /// sample of it.
    pub colour_adaptation: f64,
}

impl Default for DetectorOptions {
    fn default() -> DetectorOptions {
        DetectorOptions {
            learning_rate: 0.03,
            colour_adaptation: 0.005,
        }
    }
}

/// A disc the caller knows is there (a tracked piece), so the empty-board
/// model does not learn it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KnownDisc {
    /// Centre, board mm.
    pub centre: Point2<f64>,
    /// Radius, mm.
    pub radius_mm: f64,
    /// The piece the caller takes it for.
    pub piece: Piece,
    /// The caller's name for it, echoed in [`Detections::still_there`].
    pub tag: u32,
    /// Whether the caller holds it at rest: only such discs are checked for
    /// still being in place.
    pub at_rest: bool,
    /// Its velocity (mm/s) when last seen: where it has gone since.
    pub velocity: Vector2<f64>,
}

/// Finds discs frame after frame, keeping the empty-board model and colour
/// models up to date. Buffers are reused, so per-frame work allocates little.
pub struct Detector {
    frame: TemplateFrame,
    side: i32,
    models: ColourModels,
    options: DetectorOptions,
    background: Option<Background>,
    /// The first frame did not show the break arrangement clearly (a hand
    /// over it, say): it is looked for in the next frames.
    break_pending: bool,
    foreground: Mat,
    /// Distance transform of the opened foreground, hands removed once found.
    distance: Mat,
    /// The boxes (first column, first row, end column, end row) outside
    /// which `distance` is 0.
    distance_boxes: Vec<PixelBox>,
    /// Which tiles of the opened foreground hold any of it (see
    /// [`foreground_boxes`]); kept to spare an allocation a frame.
    foreground_tiles: Vec<bool>,
    edge_blobs: EdgeBlobs,
    busy: Vec<u8>,
    opened: Mat,
    kernel: Mat,
    grown: Mat,
    join_kernel: Mat,
    /// How much larger than its true radius a disc measures in this top
    /// view (mm), learned from the carrommen seen; see [`RadiusBiases`].
    radius_bias: RadiusBiases,
    /// The empty board kept while pieces are lost from sight; see
    /// [`Detector::search_faint`].
    faint: Option<FaintSearch>,
    /// The empty board as first seen bare; see [`Detector::search_unseen`].
    start_board: Option<FaintSearch>,
    rest_looks: RestLooks,
    /// Which top-view pixels show the playing surface's wood: on the
    /// surface and off the pocket holes (row-major).
    wood: Vec<bool>,
    /// The time (s) of the last frame looked at: how far the known discs
    /// have moved since.
    last_t: Option<f64>,
    /// The empty surface's luma (see [`empty_surface_luma`]) and the time (s) of
    /// the frame it was measured at: the model changes slowly, so it is
    /// measured again only every [`SURFACE_LUMA_EVERY_S`].
    empty_surface_luma: Option<(f64, f32)>,
    /// Whether the colour models were set apart for two dark kinds of
    /// carromman (see [`split_dark_pieces`]); it is done once.
    dark_pieces_split: bool,
    /// The holes of a piece's size in this top view (see [`fill_rims`]).
    rim_holes: HoleSizes,
    /// Which top-view pixels lie beyond the outer circle (row-major), where
    /// rims may be filled: asked of every pixel of every blob tested.
    beyond_outer_circle: Vec<bool>,
    rim_scratch: RimScratch,
    flight_scratch: FlightScratch,
    /// What the last frame looked at in full showed, for the unchanged
    /// frames after it (see [`Detector::repeat`]).
    last: Option<Detections>,
    /// Unchanged frames passed over since the last frame looked at in full.
    passed_over: u32,
}

impl Detector {
    /// A detector for top views laid out by `frame`.
    pub fn new(
        frame: TemplateFrame,
        models: ColourModels,
        options: DetectorOptions,
    ) -> Result<Detector, DetectError> {
        let side = frame.side_px();
        let kernel = cv(
            "making the opening kernel",
            imgproc::get_structuring_element(
                imgproc::MORPH_ELLIPSE,
                Size::new(3, 3),
                Point::new(-1, -1),
            ),
        )?;
        Ok(Detector {
            frame,
            side,
            models,
            options,
            background: None,
            break_pending: false,
            foreground: cv(
                "allocating the foreground",
                Mat::new_rows_cols_with_default(side, side, CV_8U, Scalar::all(0.0)),
            )?,
            distance: Mat::default(),
            distance_boxes: Vec::new(),
            foreground_tiles: Vec::new(),
            edge_blobs: hand_band(&frame),
            busy: vec![0; (side * side) as usize],
            opened: Mat::default(),
            kernel,
            grown: Mat::default(),
            join_kernel: cv(
                "making the joining kernel",
                imgproc::get_structuring_element(
                    imgproc::MORPH_ELLIPSE,
                    Size::new(HAND_JOIN_PX, HAND_JOIN_PX),
                    Point::new(-1, -1),
                ),
            )?,
            radius_bias: RadiusBiases::new(frame.px_per_mm),
            faint: None,
            start_board: None,
            rest_looks: RestLooks::default(),
            wood: wood_pixels(&frame),
            last_t: None,
            empty_surface_luma: None,
            dark_pieces_split: false,
            rim_holes: HoleSizes::at_scale(frame.px_per_mm),
            beyond_outer_circle: beyond_outer_circle(&frame),
            rim_scratch: RimScratch::default(),
            flight_scratch: FlightScratch::default(),
            last: None,
            passed_over: 0,
        })
    }

    /// The current colour models (as adapted so far).
    pub fn models(&self) -> &ColourModels {
        &self.models
    }

    /// The last frame's foreground against the empty board (255 where a
    /// pixel differs), before hands are taken out and discs found.
    pub fn foreground(&self) -> &Mat {
        &self.foreground
    }

    /// The empty-board model, once the first frame has been seen.
    pub fn background(&self) -> Option<&Background> {
        self.background.as_ref()
    }

    /// A detector whose empty-board model is `empty` (a top view of the board
    /// with no pieces), e.g. a template or a frame taken before play.
    pub fn with_empty_board(mut self, empty: &Mat) -> Result<Detector, DetectError> {
        let bytes = self.bytes_of(empty, 0)?;
        let side = self.side as usize;
        self.background = Some(Background::from_bgr(bytes, side, side));
        Ok(self)
    }

    fn bytes_of<'m>(&self, image: &'m Mat, frame: u64) -> Result<&'m [u8], DetectError> {
        let size = cv("reading the top-view size", image.size())?;
        if size.width != self.side || size.height != self.side || image.typ() != core::CV_8UC3 {
            return Err(DetectError::WrongSize {
                frame,
                got: size.width,
                expected: self.side,
            });
        }
        cv("reading the top view", image.data_bytes())
    }

    fn mm_to_px(&self, mm: f64) -> f64 {
        mm * self.frame.px_per_mm
    }

    /// Radius (px) round a known disc of `radius_mm` that the empty-board
    /// model does not learn: its shadow and blur as well.
    fn held_radius_px(&self, radius_mm: f64) -> f64 {
        self.mm_to_px(radius_mm) * HELD_RADIUS_FRACTION + 1.0
    }

    /// Finds the discs in one top view. `known` are discs the tracker holds
    /// (kept out of the empty-board model); on the first call the model is
    /// bootstrapped from the frame itself (see [`Detector::bootstrap`]).
    pub fn detect(
        &mut self,
        view: &Rectified,
        known: &[KnownDisc],
    ) -> Result<Detections, DetectError> {
        if self.background.is_none() {
            return self.bootstrap(view);
        }
        let bytes = self.bytes_of(&view.image, view.index)?;
        let side = self.side as usize;
        let frames = 1 + std::mem::take(&mut self.passed_over);
        {
            let mask = cv("writing the foreground", self.foreground.data_bytes_mut())?;
            if let Some(background) = self.background.as_mut() {
                background.stand_for_frames(frames);
                background.foreground(bytes, mask);
            }
            if let Some(background) = self.background.as_ref() {
                // The centre design, which the ICF drawing lacks, is printed
                // within the outer circle: its stars, petals and dots show
                // as rings wherever the model has not taken them in.
                let beyond = &self.beyond_outer_circle;
                let fillable = |i: usize| background.is_seen_index(i) && beyond[i];
                fill_rims(mask, side, self.rim_holes, fillable, &mut self.rim_scratch);
            }
        }
        cv(
            "cleaning the foreground",
            imgproc::morphology_ex(
                &self.foreground,
                &mut self.opened,
                imgproc::MORPH_OPEN,
                &self.kernel,
                Point::new(-1, -1),
                1,
                core::BORDER_CONSTANT,
                Scalar::all(0.0),
            ),
        )?;
        let since_s = self
            .last_t
            .map_or(0.0, |last| (view.t - last).clamp(0.0, 1.0));
        self.last_t = Some(view.t);
        let hands = self.remove_hands(bytes, known, since_s)?;
        let discs = self.find_discs(bytes, None)?;
        let still_there = self.still_there(known);
        let looks_changed = self.looks_changed(bytes, known);
        let mut occluders = hands;
        if let Some((x0, y0, x1, y1)) = self.background.as_ref().and_then(Background::unknown_box) {
            let a = self.frame.px_to_board(Point2::new(x0 as f64, y1 as f64));
            let b = self.frame.px_to_board(Point2::new(x1 as f64, y0 as f64));
            occluders.push(Occluder {
                min: a,
                max: b,
                cause: OcclusionCause::UnknownBackground,
                enters_from: None,
            });
        }
        self.learn(bytes, known, &occluders, side);
        let mut detections = Detections {
            index: view.index,
            t: view.t,
            discs,
            occluders,
            break_arrangement: false,
            still_there,
            looks_changed,
        };
        if self.break_pending {
            self.look_for_break(bytes, &mut detections);
        }
        self.last = Some(detections.clone());
        Ok(detections)
    }

    /// The discs and occluders of the last frame looked at in full, for a
    /// frame that shows nothing new since ([`crate::detect::unchanged`]);
    /// `view` holds that frame's top view under this frame's index and
    /// time. What goes by frames goes on: the resting `known` discs are
    /// still there (nothing changed over them), their looks are read
    /// again, and the next frame looked at in full stands for those passed
    /// over. Before any frame was looked at, this one is.
    pub fn repeat(
        &mut self,
        view: &Rectified,
        known: &[KnownDisc],
    ) -> Result<Detections, DetectError> {
        let Some(last) = self.last.clone() else {
            return self.detect(view, known);
        };
        let bytes = self.bytes_of(&view.image, view.index)?;
        let looks_changed = self.looks_changed(bytes, known);
        self.passed_over += 1;
        Ok(Detections {
            index: view.index,
            t: view.t,
            break_arrangement: false,
            still_there: known
                .iter()
                .filter(|disc| disc.at_rest)
                .map(|disc| disc.tag)
                .collect(),
            looks_changed,
            ..last
        })
    }

    /// The tags of the resting `known` discs still lying where they were:
    /// nothing changed over them since the last frame. A piece at rest does
    /// not leave without moving, and checking one in place is far surer than
    /// finding it afresh where pieces touch (the break cluster), where
    /// foreground peaks fall between pieces.
    fn still_there(&self, known: &[KnownDisc]) -> Vec<u32> {
        let Some(background) = self.background.as_ref() else {
            return Vec::new();
        };
        known
            .iter()
            .filter(|disc| {
                let px = self.frame.board_to_px(disc.centre);
                let radius = self.mm_to_px(disc.radius_mm);
                disc.at_rest
                    && background.changed_fraction(px.x, px.y, radius) <= PRESENCE_MAX_CHANGED
            })
            .map(|disc| disc.tag)
            .collect()
    }

    /// The tags of the `known` discs that no longer look as they did when
    /// they came to rest (see [`RestLooks`]).
    fn looks_changed(&mut self, bytes: &[u8], known: &[KnownDisc]) -> Vec<u32> {
        let Some(gain) = self.background.as_ref().map(|b| f64::from(b.gain())) else {
            return Vec::new();
        };
        let side = self.side as usize;
        let frame = &self.frame;
        self.rest_looks.update(known, |disc| {
            let px = frame.board_to_px(disc.centre);
            let radius = REST_LOOK_INNER_FRACTION * disc.radius_mm * frame.px_per_mm;
            mean_bgr(bytes, side, px.x, px.y, radius).map(|c| c / gain.max(1e-3))
        })
    }

    /// The break arrangement, once the hand that set it out has left: its
    /// pieces replace whatever was found in the cluster.
    fn look_for_break(&mut self, bytes: &[u8], detections: &mut Detections) {
        if detections.t > BREAK_SEARCH_S {
            self.break_pending = false;
            return;
        }
        let centre = Point2::origin();
        if detections
            .occluders
            .iter()
            .any(|o| o.cause == OcclusionCause::Hand && o.covers(centre, BREAK_CLEAR_MM))
        {
            return;
        }
        let side = self.side as usize;
        let board_luma = self.surface_luma(bytes, side);
        if let Some(discs) = self.match_break(bytes, side, board_luma) {
            self.predict_under(&discs);
            detections.discs = discs;
            detections.break_arrangement = true;
            self.break_pending = false;
        }
    }

    /// The empty board under pieces known to lie there is the prediction.
    fn predict_under(&mut self, discs: &[Detection]) {
        let radius = self.frame.px_per_mm * CARROMMAN_RADIUS_MM * 1.3 + 1.0;
        if let Some(background) = self.background.as_mut() {
            for disc in discs {
                let px = self.frame.board_to_px(disc.centre);
                background.predict_disc(px.x, px.y, radius);
            }
        }
    }

    /// Removes hand-sized blobs reaching in over the frame from the opened
    /// foreground and returns their boxes. Leaves the distance transform of
    /// the opened foreground, hands removed, for [`Detector::find_discs`].
    /// A blob made of the `known` discs (moved on for `since_s`) is pieces,
    /// not a hand: see [`Detector::mostly_known_discs`].
    fn remove_hands(
        &mut self,
        bytes: &[u8],
        known: &[KnownDisc],
        since_s: f64,
    ) -> Result<Vec<Occluder>, DetectError> {
        // Sleeve bands and knuckles can match the board and cut an arm in
        // pieces; blobs are joined across such gaps before they are judged.
        cv(
            "joining blobs across gaps",
            imgproc::dilate(
                &self.opened,
                &mut self.grown,
                &self.join_kernel,
                Point::new(-1, -1),
                1,
                core::BORDER_CONSTANT,
                Scalar::all(0.0),
            ),
        )?;
        // An arm is thicker than any piece; a shadow band along the frame or
        // a row of touching pieces is not.
        self.measure_thickness()?;
        let striker_area = std::f64::consts::PI * self.mm_to_px(STRIKER_RADIUS_MM).powi(2);
        let min_thickness =
            (HAND_MIN_THICKNESS_FRACTION * self.mm_to_px(CARROMMAN_RADIUS_MM)) as f32;
        let grown = cv("reading the joined foreground", self.grown.data_bytes())?;
        let distance = cv("reading blob thickness", self.distance.data_typed::<f32>())?;
        // Only blobs with a pixel in the band round the surface reach out.
        self.edge_blobs.find(grown, distance);
        let mut hands = Vec::new();
        let mut hand_blobs = Vec::new();
        for blob in self.edge_blobs.blobs() {
            if (blob.area as f64) < HAND_MIN_STRIKER_AREAS * striker_area {
                continue;
            }
            let corner_a = self
                .frame
                .px_to_board(Point2::new(blob.left as f64, (blob.bottom + 1) as f64));
            let corner_b = self
                .frame
                .px_to_board(Point2::new((blob.right + 1) as f64, blob.top as f64));
            // Where it comes in, read off its pixels once, and only for a
            // blob that needs it.
            let mut side_read = None;
            let mut enters_from =
                || *side_read.get_or_insert_with(|| self.entry_side(self.edge_blobs.pixels(blob)));
            // An arm the colour of the board shows as fragments, thick only
            // once the gaps the join bridged are filled. So does the ghost
            // of a hand the model learned: one that rested on the frame
            // lies along the edge, or looks like the empty board; the one
            // over the first frame, that set out the break still looked
            // for, is joined to the pieces it left.
            let thick = blob.thickness >= min_thickness
                || (!self.break_pending
                    && enters_from().is_some_and(|seat| {
                        reach_in_mm(seat, corner_a, corner_b) >= HAND_FRAGMENTS_MIN_REACH_MM
                    })
                    && self.closed_thickness(blob)? >= min_thickness
                    && !self.ghost_of_a_hand(bytes, blob));
            if !thick || self.mostly_known_discs(blob, known, since_s, striker_area) {
                continue;
            }
            let enters_from = enters_from();
            let margin = Vector2::new(HAND_MARGIN_MM, HAND_MARGIN_MM);
            hands.push(Occluder {
                min: corner_a - margin,
                max: corner_b + margin,
                cause: OcclusionCause::Hand,
                enters_from,
            });
            hand_blobs.push(blob.clone());
        }
        if !hand_blobs.is_empty() {
            let mask = cv("masking hands", self.opened.data_bytes_mut())?;
            let distance = cv(
                "masking hands' thickness",
                self.distance.data_typed_mut::<f32>(),
            )?;
            // Removing a whole blob leaves the distances of the others as
            // they were: a pixel's nearest background never lies across
            // another blob.
            for blob in &hand_blobs {
                for &i in self.edge_blobs.pixels(blob) {
                    mask[i] = 0;
                    distance[i] = 0.0;
                }
            }
        }
        Ok(hands)
    }

    /// Whether fewer than a striker's area of `blob`'s pixels lie off the
    /// `known` discs, each swept on along its velocity for `since_s` and
    /// grown by its shadow and the joining dilation. A striker running along
    /// the cushion past two pieces resting there joins them into a blob as
    /// large and thick as a hand reaching in; an arm always has more of it
    /// off the pieces.
    fn mostly_known_discs(
        &self,
        blob: &Blob,
        known: &[KnownDisc],
        since_s: f64,
        striker_area: f64,
    ) -> bool {
        let side = self.side as usize;
        let join = f64::from(HAND_JOIN_PX) / 2.0;
        let (left, top) = (blob.left as f64, blob.top as f64);
        let (right, bottom) = (blob.right as f64, blob.bottom as f64);
        let swept: Vec<(Point2<f64>, Point2<f64>, f64)> = known
            .iter()
            .map(|disc| {
                let from = self.frame.board_to_px(disc.centre);
                let to = self
                    .frame
                    .board_to_px(disc.centre + disc.velocity * since_s);
                (from, to, self.held_radius_px(disc.radius_mm) + join)
            })
            // Only discs whose sweep reaches the blob's box can cover it.
            .filter(|&(from, to, radius)| {
                from.x.min(to.x) - radius <= right
                    && from.x.max(to.x) + radius >= left
                    && from.y.min(to.y) - radius <= bottom
                    && from.y.max(to.y) + radius >= top
            })
            .collect();
        let covered = |i: usize| {
            let p = Point2::new((i % side) as f64, (i / side) as f64);
            swept
                .iter()
                .any(|&(from, to, radius)| segment_distance(p, from, to) <= radius)
        };
        let enough = striker_area.ceil() as usize;
        // An arm is mostly off the pieces: stop counting once it shows.
        self.edge_blobs
            .pixels(blob)
            .iter()
            .filter(|&&i| !covered(i))
            .take(enough)
            .count()
            < enough
    }

    /// The distance transform of the opened foreground into `distance`,
    /// computed only over the boxes round its clusters ([`foreground_boxes`]):
    /// a foreground pixel's nearest background pixel lies within two pixels
    /// of its cluster's box (the 5×5 mask's longest step), and no box reaches
    /// within two pixels of another's foreground, so the values are those of
    /// the whole view, and everywhere else they are 0. The pieces lie apart
    /// over the whole board: their boxes are a small part of the one round
    /// them all.
    fn measure_thickness(&mut self) -> Result<(), DetectError> {
        let size = cv("reading the foreground size", self.opened.size())?;
        let fresh = cv("reading the distance size", self.distance.size())? != size
            || self.distance.typ() != CV_32F;
        if fresh {
            self.distance = cv(
                "allocating the distance transform",
                Mat::new_rows_cols_with_default(size.height, size.width, CV_32F, Scalar::all(0.0)),
            )?;
        } else {
            // Only the last frame's boxes were written (hand pixels zeroed
            // outside them were zero already): clearing them clears them all.
            for &last in &self.distance_boxes {
                let mut last = cv(
                    "cutting out the last distance transform",
                    Mat::roi_mut(&mut self.distance, cv_rect(last)),
                )?;
                cv(
                    "clearing the distance transform",
                    last.set_to(&Scalar::all(0.0), &core::no_array()),
                )?;
            }
        }
        let side = size.width.max(0) as usize;
        let mask = cv("reading the foreground", self.opened.data_bytes())?;
        self.distance_boxes = foreground_boxes(
            mask,
            side,
            DISTANCE_MASK_REACH_PX,
            &mut self.foreground_tiles,
        );
        for &area in &self.distance_boxes {
            let source = cv(
                "cutting out the foreground",
                Mat::roi(&self.opened, cv_rect(area)),
            )?;
            let mut target = cv(
                "cutting out the distance transform",
                Mat::roi_mut(&mut self.distance, cv_rect(area)),
            )?;
            cv(
                "measuring blob thickness",
                imgproc::distance_transform(
                    &source,
                    &mut target,
                    imgproc::DIST_L2,
                    imgproc::DIST_MASK_5,
                    CV_32F,
                ),
            )?;
        }
        Ok(())
    }

    /// Whether `blob` is where the model learned a hand that has gone: the
    /// view, where the blob lies on the playing surface, looks like the
    /// predicted empty board, not the model (see
    /// [`Detector::looks_like_empty_board`]).
    fn ghost_of_a_hand(&self, bytes: &[u8], blob: &Blob) -> bool {
        let side = self.side as usize;
        let (mut sum, mut count) = (Vector2::zeros(), 0.0);
        for &i in self.edge_blobs.pixels(blob) {
            let px = Point2::new((i % side) as f64, (i / side) as f64);
            let board = self.frame.px_to_board(px);
            if board.x.abs() < HALF_SURFACE_MM && board.y.abs() < HALF_SURFACE_MM {
                sum += px.coords;
                count += 1.0;
            }
        }
        if count == 0.0 {
            return false;
        }
        let centre = sum / count;
        let radius = self.mm_to_px(CARROMMAN_RADIUS_MM);
        let seen = mean_bgr(
            bytes,
            side,
            centre.x,
            centre.y,
            COLOUR_SAMPLE_FRACTION * radius,
        );
        self.looks_like_empty_board(&seen, centre.x, centre.y, radius)
    }

    /// How thick `blob` of the joined foreground is once closed: its joined
    /// pixels shrunk back by the join (a morphological closing of the
    /// opened foreground, this blob alone), so that gaps the join bridged
    /// count as foreground. Pieces lying in a row stay a piece thick.
    fn closed_thickness(&self, blob: &Blob) -> Result<f32, DetectError> {
        let side = self.side as usize;
        // Room for the erosion to see background round the blob.
        let pad = HAND_JOIN_PX as usize;
        let (x0, y0) = (blob.left.saturating_sub(pad), blob.top.saturating_sub(pad));
        let (x1, y1) = (
            (blob.right + pad + 1).min(side),
            (blob.bottom + pad + 1).min(side),
        );
        let (width, height) = (x1 - x0, y1 - y0);
        let mut joined = vec![0u8; width * height];
        for &i in self.edge_blobs.pixels(blob) {
            let (x, y) = (i % side, i / side);
            joined[(y - y0) * width + (x - x0)] = 255;
        }
        let joined = cv(
            "copying a blob to close",
            Mat::new_rows_cols_with_data(height as i32, width as i32, &joined),
        )?;
        let mut closed = Mat::default();
        // Past the view's edge the arm goes on: no background there.
        cv(
            "closing a blob",
            imgproc::erode(
                &joined,
                &mut closed,
                &self.join_kernel,
                Point::new(-1, -1),
                1,
                core::BORDER_REPLICATE,
                Scalar::all(0.0),
            ),
        )?;
        let mut distance = Mat::default();
        cv(
            "measuring a closed blob's thickness",
            imgproc::distance_transform(
                &closed,
                &mut distance,
                imgproc::DIST_L2,
                imgproc::DIST_MASK_5,
                CV_32F,
            ),
        )?;
        let mut max = 0.0;
        cv(
            "reading a closed blob's thickness",
            core::min_max_loc(
                &distance,
                None,
                Some(&mut max),
                None,
                None,
                &core::no_array(),
            ),
        )?;
        Ok(max as f32)
    }

    /// The side of the board a hand's pixels cross most often along the
    /// surface's edge: where the arm comes in.
    fn entry_side(&self, pixels: &[usize]) -> Option<Seat> {
        let side = self.side as usize;
        let inner = HALF_SURFACE_MM - HAND_ENTRY_BAND_MM;
        let mut count = [0u32; 4];
        for &i in pixels {
            let board = self
                .frame
                .px_to_board(Point2::new((i % side) as f64, (i / side) as f64));
            for (slot, beyond) in [-board.y, board.x, board.y, -board.x].iter().enumerate() {
                if *beyond > inner {
                    count[slot] += 1;
                }
            }
        }
        let (slot, &most) = count.iter().enumerate().max_by_key(|(_, &n)| n)?;
        (most > 0).then(|| Seat::TURN_ORDER[slot])
    }

    /// Whether a disc's inner colour is much nearer the predicted empty board
    /// than the model of it: the ghost of something the model learned that
    /// has gone (a hand in the first frame), not a piece.
    fn looks_like_empty_board(&self, seen: &[f64; 3], x: f64, y: f64, radius: f64) -> bool {
        let Some(background) = self.background.as_ref() else {
            return false;
        };
        let (model, prior) = background.model_and_prior_near(x, y, COLOUR_SAMPLE_FRACTION * radius);
        let Some(prior) = prior else {
            return false;
        };
        let distance = |a: &[f64; 3]| (0..3).map(|c| (a[c] - seen[c]).abs()).fold(0.0, f64::max);
        distance(&prior) < GHOST_RATIO * distance(&model)
    }

    /// Disc centres from the distance transform of the opened foreground
    /// that [`Detector::remove_hands`] left. `board_luma` overrides the
    /// empty-board luma used for colour (when the model is not yet
    /// trustworthy).
    fn find_discs(
        &mut self,
        bytes: &[u8],
        board_luma: Option<f64>,
    ) -> Result<Vec<Detection>, DetectError> {
        let side = self.side as usize;
        let distance = cv(
            "reading the distance transform",
            self.distance.data_typed::<f32>(),
        )?;
        let min_peak = (MIN_PEAK_FRACTION * self.mm_to_px(CARROMMAN_RADIUS_MM)) as f32;
        let mut peaks = Vec::new();
        // Distances are 0 outside the boxes they were computed in.
        for &(x0, y0, x1, y1) in &self.distance_boxes {
            for y in y0.max(1)..y1.min(side - 1) {
                let row = &distance[y * side..(y + 1) * side];
                for x in x0.max(1)..x1.min(side - 1) {
                    let d = row[x];
                    if d < min_peak {
                        continue;
                    }
                    let is_peak = [-1isize, 0, 1].iter().all(|&dy| {
                        let neighbour_row = ((y as isize + dy) as usize) * side;
                        [-1isize, 0, 1]
                            .iter()
                            .all(|&dx| distance[neighbour_row + (x as isize + dx) as usize] <= d)
                    });
                    if is_peak {
                        peaks.push((d, x, y));
                    }
                }
            }
        }
        // Highest first; equal heights in reading order, whichever box
        // they were found in.
        peaks.sort_by(|a, b| b.0.total_cmp(&a.0).then((a.2, a.1).cmp(&(b.2, b.1))));
        let separation = MIN_SEPARATION_FRACTION * 2.0 * self.mm_to_px(CARROMMAN_RADIUS_MM);
        let mut accepted: Vec<(f32, f64, f64)> = Vec::new();
        for (d, x, y) in peaks {
            let (x, y) = (x as f64, y as f64);
            if accepted
                .iter()
                .all(|&(_, ax, ay)| (ax - x).hypot(ay - y) >= separation)
            {
                accepted.push((d, x, y));
            }
        }
        let mask = cv("reading the foreground", self.opened.data_bytes())?;
        // Each disc is first taken for a carromman: centred at its size and
        // classified by colour, which says how large its kind measures.
        let mut candidates = Vec::with_capacity(accepted.len());
        for (d, x, y) in accepted {
            // Anti-aliased edge pixels count as foreground, which makes up
            // for the distance falling short of the true edge.
            let radius_px = f64::from(d);
            let (cx, cy) = fit_disc(mask, side, x, y, self.mm_to_px(CARROMMAN_RADIUS_MM));
            let centre = self.frame.px_to_board(Point2::new(cx, cy));
            if centre.x.abs() > HALF_SURFACE_MM || centre.y.abs() > HALF_SURFACE_MM {
                // Off the playing surface: the frame, the table, a sleeve.
                continue;
            }
            candidates.push(DiscCandidate {
                peak: (x, y),
                centre_px: (cx, cy),
                radius_px,
                radius_mm: radius_px / self.frame.px_per_mm,
                colour: self.read_colour(bytes, board_luma, cx, cy, radius_px),
            });
        }
        self.radius_bias
            .learn(candidates.iter().map(|c| (c.radius_mm, c.colour.by_colour)));
        // Once: two dark kinds of carromman set apart, and the candidates'
        // colours read again by the models so set.
        if let Some(split) = self.dark_split_of(&candidates) {
            self.models.set_mean(Piece::White, split.lighter);
            self.models.set_mean(Piece::Black, split.darker);
            self.dark_pieces_split = true;
            for c in candidates.iter_mut() {
                let (cx, cy) = c.centre_px;
                c.colour = self.read_colour(bytes, board_luma, cx, cy, c.radius_px);
            }
        }
        let mut discs = Vec::with_capacity(candidates.len());
        for DiscCandidate {
            peak: (x, y),
            centre_px: (mut cx, mut cy),
            radius_px,
            radius_mm,
            mut colour,
        } in candidates
        {
            let is_striker = radius_mm >= self.radius_bias.striker_threshold_mm(colour.by_colour);
            if is_striker {
                // Centred again at its own size: the fit counts only the
                // foreground within the radius it is given.
                (cx, cy) = fit_disc(mask, side, x, y, self.mm_to_px(STRIKER_RADIUS_MM));
                colour = self.read_colour(bytes, board_luma, cx, cy, radius_px);
            }
            let centre = self.frame.px_to_board(Point2::new(cx, cy));
            if centre.x.abs() > HALF_SURFACE_MM || centre.y.abs() > HALF_SURFACE_MM {
                // Centred again, a striker-sized blob may fall off the surface.
                continue;
            }
            let ColourReading {
                sample,
                bgr,
                by_colour,
                confidence: colour_confidence,
                over_plain_wood,
            } = colour;
            let (piece, confidence) = if is_striker {
                (Piece::Striker, 1.0)
            } else {
                (by_colour, colour_confidence)
            };
            if self.looks_like_empty_board(&bgr, cx, cy, radius_px) {
                continue;
            }
            if confidence > CONFIDENT_TO_ADAPT && over_plain_wood {
                self.models
                    .adapt(piece, &sample, self.options.colour_adaptation);
            }
            discs.push(Detection {
                centre,
                radius_mm,
                piece,
                by_colour,
                confidence,
                colour_distances: Some(self.models.distances(&sample)),
            });
        }
        Ok(discs)
    }

    /// Two dark kinds of carromman among the carromman-sized `candidates`
    /// (see [`split_dark_pieces`]), unless the models were set apart already.
    fn dark_split_of(&self, candidates: &[DiscCandidate]) -> Option<DarkSplit> {
        if self.dark_pieces_split {
            return None;
        }
        let carrommen = candidates
            .iter()
            .filter(|c| c.radius_mm < self.radius_bias.striker_threshold_mm(c.colour.by_colour));
        let (mut dark, mut light) = (Vec::new(), 0);
        for c in carrommen {
            match c.colour.by_colour {
                Piece::Black if c.colour.over_plain_wood => dark.push(c.colour.sample),
                Piece::White => light += 1,
                _ => {}
            }
        }
        split_dark_pieces(&dark, light)
    }

    /// The colour inside the disc of `radius_px` round (cx, cy) (top-view
    /// px), against the empty board's luma there or `board_luma`, and the
    /// carromman it is nearest.
    fn read_colour(
        &self,
        bytes: &[u8],
        board_luma: Option<f64>,
        cx: f64,
        cy: f64,
        radius_px: f64,
    ) -> ColourReading {
        let lumas = self.board_lumas(cx, cy, radius_px);
        let luma = board_luma.unwrap_or_else(|| measured_against(lumas));
        let side = self.side as usize;
        let (sample, bgr, nearest) =
            sample_colour(&self.models, bytes, side, (cx, cy, radius_px), luma);
        let (by_colour, confidence) = nearest.unwrap_or((Piece::White, 0.0));
        ColourReading {
            sample,
            bgr,
            by_colour,
            confidence,
            over_plain_wood: lumas.is_some_and(on_plain_wood),
        }
    }

    /// The empty board's luma that a disc of `radius_px` at (cx, cy)
    /// (top-view px) is measured against (see [`measured_against`]).
    #[cfg(test)]
    fn board_luma_under(&self, cx: f64, cy: f64, radius_px: f64) -> f64 {
        measured_against(self.board_lumas(cx, cy, radius_px))
    }

    /// The empty board's luma under the centre of a disc of `radius_px` at
    /// (cx, cy) (top-view px), and the wood's round it.
    fn board_lumas(&self, cx: f64, cy: f64, radius_px: f64) -> Option<(f64, f64)> {
        let background = self.background.as_ref()?;
        let under = background.luma_at(cx.round().max(0.0) as usize, cy.round().max(0.0) as usize);
        Some((
            under,
            wood_luma_round(background, &self.wood, cx, cy, radius_px),
        ))
    }

    /// Learns the empty board everywhere except under hands and the pieces
    /// the tracker holds: other foreground (a ghost, a marking the drawing lacks) is
    /// learned once it holds still; see [`Background::update`].
    fn learn(&mut self, bytes: &[u8], known: &[KnownDisc], occluders: &[Occluder], side: usize) {
        self.busy.iter_mut().for_each(|b| *b = background::FREE);
        // Nothing under a hand is learned: it may hide pieces no track holds
        // yet (the break cluster under the hand that arranged it).
        for hand in occluders.iter().filter(|o| o.cause == OcclusionCause::Hand) {
            let (x0, y0, x1, y1) = px_box(&self.frame, hand, 0.0, side);
            for y in y0..=y1 {
                self.busy[y * side + x0..=y * side + x1]
                    .iter_mut()
                    .for_each(|v| *v = background::UNDER_HAND);
            }
        }
        for &KnownDisc {
            centre, radius_mm, ..
        } in known
        {
            let px = self.frame.board_to_px(centre);
            let radius_px = self.held_radius_px(radius_mm);
            mark_disc(
                &mut self.busy,
                side,
                px.x,
                px.y,
                radius_px,
                background::PIECE,
            );
        }
        if let Some(background) = self.background.as_mut() {
            background.update(bytes, &self.busy, self.options.learning_rate);
        }
    }

    /// Fraction of a disc's pixels (centre in board mm, radius mm) that
    /// have held still for at least `frames` frames: 0 before the model
    /// has seen two frames.
    pub fn still_for(&self, centre: Point2<f64>, radius_mm: f64, frames: u8) -> f64 {
        self.model_over_disc(centre, radius_mm, |model, x, y, r| {
            model.still_fraction(x, y, r, frames)
        })
    }

    /// Whether the patch of `view` round `centre` (board mm) is print that
    /// the board's design repeats round its centre (see
    /// [`super::symmetry`]).
    pub fn repeats_round_the_centre(
        &self,
        view: &Rectified,
        centre: Point2<f64>,
    ) -> Result<bool, DetectError> {
        let bytes = self.bytes_of(&view.image, view.index)?;
        Ok(super::symmetry::repeats_round_the_centre(
            &self.frame,
            bytes,
            centre,
        ))
    }

    /// Fraction of the board under a disc (centre in board mm, radius mm)
    /// that the empty-board model has never seen: 0 before it knows any.
    pub fn unseen_board_fraction(&self, centre: Point2<f64>, radius_mm: f64) -> f64 {
        self.model_over_disc(centre, radius_mm, Background::unseen_fraction)
    }

    /// What `measure` says of the empty-board model over a disc (centre in
    /// board mm, radius mm), given the disc in top-view px; 0 before there
    /// is a model.
    fn model_over_disc(
        &self,
        centre: Point2<f64>,
        radius_mm: f64,
        measure: impl Fn(&Background, f64, f64, f64) -> f64,
    ) -> f64 {
        let Some(background) = self.background.as_ref() else {
            return 0.0;
        };
        let px = self.frame.board_to_px(centre);
        measure(background, px.x, px.y, self.mm_to_px(radius_mm))
    }

    /// Takes what `view` shows round a disc (centre in board mm, radius mm,
    /// with its rim's blur) for the empty board: a print on the board that
    /// was taken for a piece, now known not to be one. Pixels of the
    /// `pieces` lying beside it (centre, radius mm) are left as they are.
    pub fn learn_board_under(
        &mut self,
        view: &Rectified,
        centre: Point2<f64>,
        radius_mm: f64,
        pieces: &[(Point2<f64>, f64)],
    ) -> Result<(), DetectError> {
        let bytes = self.bytes_of(&view.image, view.index)?;
        let px = self.frame.board_to_px(centre);
        let radius_px = self.held_radius_px(radius_mm);
        let pieces_px: Vec<(Point2<f64>, f64)> = pieces
            .iter()
            .map(|&(at, r)| (self.frame.board_to_px(at), self.held_radius_px(r)))
            .collect();
        let side = self.side as usize;
        let beside_a_piece = |i: usize| {
            let (x, y) = ((i % side) as f64, (i / side) as f64);
            pieces_px
                .iter()
                .any(|(at, r)| (at.x - x).hypot(at.y - y) <= *r)
        };
        if let Some(background) = self.background.as_mut() {
            background.take_as_board(bytes, px.x, px.y, radius_px, beside_a_piece);
        }
        Ok(())
    }

    /// Keeps the empty board as it is now, for [`Detector::search_faint`]:
    /// called when pieces are lost from sight, `lost` where they were last
    /// seen (board mm). A board already kept gains only what it lacked.
    pub fn keep_board_for_search(&mut self, lost: &[Point2<f64>]) {
        let Some(background) = self.background.as_ref() else {
            return;
        };
        let radius = self.held_radius_px(CARROMMAN_RADIUS_MM);
        let lost: Vec<(f64, f64, f64)> = lost
            .iter()
            .map(|&at| {
                let px = self.frame.board_to_px(at);
                (px.x, px.y, radius)
            })
            .collect();
        match self.faint.as_mut() {
            Some(search) => search.fill_in(background, &self.busy, &lost),
            None => self.faint = Some(FaintSearch::remember(background, &self.busy, &lost)),
        }
    }

    /// Drops the board kept for the search: no piece is missing any more.
    pub fn forget_board_for_search(&mut self) {
        self.faint = None;
    }

    /// Carrommen too close to the board's colour to show as foreground, at
    /// most one for each of `wanted` (the kind of each piece lost and where
    /// it was lost), found against the board kept when they were lost.
    /// `accounted` are the discs already followed (centre in board mm,
    /// radius mm), not looked at, nor is anywhere near `covered` (hands over
    /// the board). Where one is found, the empty-board model there goes back
    /// to the board as kept, undoing what it learned of the piece.
    pub fn search_faint(
        &mut self,
        view: &Rectified,
        accounted: &[(Point2<f64>, f64)],
        covered: &[Occluder],
        wanted: &[(Piece, Point2<f64>)],
    ) -> Result<Vec<Detection>, DetectError> {
        let bytes = self.bytes_of(&view.image, view.index)?;
        let Some(mut search) = self.faint.take() else {
            return Ok(Vec::new());
        };
        let candidates = self.faint_candidates(
            &mut search,
            bytes,
            (accounted, CARROMMAN_RADIUS_MM),
            covered,
            wanted.len(),
        );
        let kinds_and_places: Vec<(Piece, Point2<f64>)> = candidates
            .iter()
            .map(|(_, detection)| (detection.piece, detection.centre))
            .collect();
        let chosen: Vec<(FaintDisc, Detection)> =
            faint_discs_for_the_lost(&kinds_and_places, wanted)
                .into_iter()
                .map(|i| candidates[i])
                .collect();
        let discs = self.restore_found(&search, &chosen);
        self.faint = Some(search);
        Ok(discs)
    }

    /// Keeps the empty board as the model holds it now, where it is in view,
    /// for [`Detector::search_unseen`]: the frame after the pieces were
    /// first all found, when most of the surface lies bare. Kept once.
    pub fn keep_start_board(&mut self) {
        if self.start_board.is_some() {
            return;
        }
        if let Some(background) = self.background.as_ref() {
            self.start_board = Some(FaintSearch::remember(background, &self.busy, &[]));
        }
    }

    /// Takes into the start board the bare board the model shows now where
    /// the start board had none (under the pieces as they first lay). Only
    /// for when every piece on the board is followed: a piece the model
    /// learned unfollowed would join the board it is looked for against.
    pub fn fill_in_start_board(&mut self) {
        if let (Some(search), Some(background)) =
            (self.start_board.as_mut(), self.background.as_ref())
        {
            search.fill_in(background, &self.busy, &[]);
        }
    }

    /// Drops the start board: the tracker starts again (a new board set out).
    pub fn forget_start_board(&mut self) {
        self.start_board = None;
    }

    /// Which of the `resting` discs (tag and centre, board mm) show nothing
    /// against the board kept from the start: the view there is the bare
    /// board, so the piece left unseen (a pale piece on light wood, knocked
    /// off its spot) and its track only held its place. Discs where the
    /// start board was not seen bare are not judged.
    pub fn bare_under(
        &self,
        view: &Rectified,
        resting: &[(u32, Point2<f64>)],
    ) -> Result<Vec<u32>, DetectError> {
        let bytes = self.bytes_of(&view.image, view.index)?;
        let (Some(search), Some(background)) =
            (self.start_board.as_ref(), self.background.as_ref())
        else {
            return Ok(Vec::new());
        };
        Ok(resting
            .iter()
            .filter(|&&(_, centre)| {
                let px = self.frame.board_to_px(centre);
                search
                    .contrast_at(bytes, background.gain(), &self.frame, px.x, px.y)
                    .is_some_and(|contrast| contrast < BARE_MAX_CONTRAST)
            })
            .map(|&(tag, _)| tag)
            .collect())
    }

    /// Carrommen of the `wanted` kinds (one for each) that lie on the board
    /// unfollowed: the laws still count them, but the empty-board model
    /// learned them long ago, so neither the foreground nor
    /// [`Detector::search_faint`] shows them. They are looked for against
    /// the board kept from the start ([`Detector::keep_start_board`]),
    /// strongest first, away from the `accounted` discs and the `covered`
    /// hands; where one is found, the model goes back to the start board.
    pub fn search_unseen(
        &mut self,
        view: &Rectified,
        accounted: &[(Point2<f64>, f64)],
        covered: &[Occluder],
        wanted: &[Piece],
    ) -> Result<Vec<Detection>, DetectError> {
        let bytes = self.bytes_of(&view.image, view.index)?;
        let Some(mut search) = self.start_board.take() else {
            return Ok(Vec::new());
        };
        // A strong disc of another kind (a ghost, a piece that read wrong)
        // must not crowd out the one sought.
        let looked_at = wanted.len() + UNSEEN_EXTRA_LOOKS;
        // Only the followed discs themselves are left out: a piece touching
        // one would lose part of its own disc too, and be centred off it.
        let candidates = self.faint_candidates(
            &mut search,
            bytes,
            (accounted, UNSEEN_ACCOUNTED_MARGIN_MM),
            covered,
            looked_at,
        );
        let mut still_wanted = wanted.to_vec();
        let chosen: Vec<(FaintDisc, Detection)> = candidates
            .into_iter()
            .filter(|(_, detection)| {
                let clear = accounted.iter().all(|&(centre, radius_mm)| {
                    (centre - detection.centre).norm()
                        >= UNSEEN_MIN_SEPARATION * (radius_mm + CARROMMAN_RADIUS_MM)
                });
                clear && take_piece(&mut still_wanted, detection.piece)
            })
            .collect();
        let discs = self.restore_found(&search, &chosen);
        self.start_board = Some(search);
        Ok(discs)
    }

    /// Discs that differ from the board kept in `search`, still for the last
    /// frames and read as carrommen by colour, strongest first, at most
    /// `at_most` looked at (see [`FaintSearch::find`]). Nothing within
    /// `reach_mm` beyond each `accounted` disc's edge is compared.
    fn faint_candidates(
        &self,
        search: &mut FaintSearch,
        bytes: &[u8],
        (accounted, reach_mm): (&[(Point2<f64>, f64)], f64),
        covered: &[Occluder],
        at_most: usize,
    ) -> Vec<(FaintDisc, Detection)> {
        let Some(background) = self.background.as_ref() else {
            return Vec::new();
        };
        let side = self.side as usize;
        let px_per_mm = self.frame.px_per_mm;
        let exclude: Vec<(f64, f64, f64)> = accounted
            .iter()
            .map(|&(centre, radius_mm)| {
                let px = self.frame.board_to_px(centre);
                (px.x, px.y, (radius_mm + reach_mm) * px_per_mm)
            })
            .collect();
        let covered: Vec<(usize, usize, usize, usize)> = covered
            .iter()
            .map(|o| px_box(&self.frame, o, FAINT_COVER_MARGIN_MM, side))
            .collect();
        let found = search.find(
            bytes,
            background.gain(),
            &self.frame,
            &exclude,
            &covered,
            at_most,
        );
        let radius_px = CARROMMAN_RADIUS_MM * px_per_mm;
        let mut candidates = Vec::new();
        for disc in found {
            // A piece found this way lies still: a faint blur crossing the
            // board is a piece in motion the tracker will meet, or not.
            if background.still_fraction(disc.column, disc.row, radius_px, FAINT_STILL_FRAMES)
                < FAINT_MIN_STILL_FRACTION
            {
                continue;
            }
            let centre_index = (disc.row.round() as usize).min(side - 1) * side
                + (disc.column.round() as usize).min(side - 1);
            let under = search.board_at(centre_index).map_or(128.0, |bgr| {
                f64::from(bgr.iter().sum::<f32>() / 3.0 * background.gain())
            });
            // A black lying on the drawing's dark ink, measured against the
            // ink under its centre, reads as a white (clip 2374): there it
            // is measured against the wood round it. Not where the ink under
            // it is lighter than what is round it: round the centre design
            // the "wood" is mostly its dark petals.
            let round = wood_luma_round(background, &self.wood, disc.column, disc.row, radius_px);
            let luma = if under < round {
                measured_against(Some((under, round)))
            } else {
                under
            };
            let disc_px = (disc.column, disc.row, radius_px);
            let (_, _, Some((piece, confidence))) =
                sample_colour(&self.models, bytes, side, disc_px, luma)
            else {
                continue;
            };
            candidates.push((
                disc,
                Detection {
                    centre: self.frame.px_to_board(Point2::new(disc.column, disc.row)),
                    radius_mm: CARROMMAN_RADIUS_MM,
                    piece,
                    by_colour: piece,
                    confidence,
                    colour_distances: None,
                },
            ));
        }
        candidates
    }

    /// The `chosen` discs' detections, the model under each set back to the
    /// board kept in `search` (undoing what it learned of the piece).
    fn restore_found(
        &mut self,
        search: &FaintSearch,
        chosen: &[(FaintDisc, Detection)],
    ) -> Vec<Detection> {
        let held = self.held_radius_px(CARROMMAN_RADIUS_MM);
        let Some(background) = self.background.as_mut() else {
            return Vec::new();
        };
        chosen
            .iter()
            .map(|(disc, detection)| {
                background.restore_disc(disc.column, disc.row, held, |i| search.board_at(i));
                *detection
            })
            .collect()
    }

    /// Discs over the frame on `sides` of this top view, away from the hands
    /// among `occluders`: pieces in flight off the board (see
    /// [`super::flight`]); none before the empty board is known.
    pub fn look_over_the_frame(
        &mut self,
        view: &Rectified,
        sides: &[Seat],
        occluders: &[Occluder],
    ) -> Result<Vec<FrameSighting>, DetectError> {
        let Some(background) = self.background.as_ref() else {
            return Ok(Vec::new());
        };
        let bytes = self.bytes_of(&view.image, view.index)?;
        Ok(look_over_the_frame(
            background,
            bytes,
            &self.frame,
            sides,
            occluders,
            &mut self.flight_scratch,
        ))
    }

    /// The empty frame's typical luma on `side` (see
    /// [`super::flight::frame_luma`]); `None` before the empty board is
    /// known.
    pub fn frame_luma(&self, side: Seat) -> Option<f32> {
        frame_luma(self.background.as_ref()?, &self.frame, side)
    }

    /// The blacks' luma (0–255) over the empty board: the colour models'
    /// luma of a black relative to the board, times the empty surface's
    /// typical luma; `None` before the empty board is known.
    pub fn black_luma(&mut self) -> Option<f32> {
        let now = self.last_t.unwrap_or(0.0);
        let surface = match self.empty_surface_luma {
            Some((measured_t, luma)) if (now - measured_t).abs() < SURFACE_LUMA_EVERY_S => luma,
            _ => {
                let luma = empty_surface_luma(self.background.as_ref()?, &self.frame)?;
                self.empty_surface_luma = Some((now, luma));
                luma
            }
        };
        Some(surface * self.models.model(Piece::Black).mean[0] as f32)
    }

    /// A look this frame for pieces in motion the detection missed (see
    /// [`super::moving`]), away from `accounted`, the discs already followed
    /// (centre in board mm, radius mm), and from anywhere under `covered`
    /// (hands); `None` before the empty board is known.
    pub fn look_for_moving<'d>(
        &'d self,
        view: &'d Rectified,
        accounted: &[(Point2<f64>, f64)],
        covered: &[Occluder],
    ) -> Result<Option<MovingLook<'d>>, DetectError> {
        let Some(background) = self.background.as_ref() else {
            return Ok(None);
        };
        let bytes = self.bytes_of(&view.image, view.index)?;
        let side = self.side as usize;
        let usable = (0..side * side)
            .map(|i| background.is_seen_index(i))
            .collect();
        let mut look = MovingLook {
            detector: self,
            background,
            bytes,
            usable,
        };
        for &(centre, radius_mm) in accounted {
            look.claim(centre, radius_mm);
        }
        for o in covered {
            let covered_px = px_box(&self.frame, o, FAINT_COVER_MARGIN_MM, side);
            background::clear_box(&mut look.usable, side, covered_px);
        }
        Ok(Some(look))
    }

    /// The first frame: checks that a board is in view, then either finds the
    /// break arrangement (the layout the laws fix, ICF 41) and takes its
    /// pieces as seen, or, for a clip that begins mid-board, finds pieces
    /// against a median-smoothed estimate of the empty board.
    pub fn bootstrap(&mut self, view: &Rectified) -> Result<Detections, DetectError> {
        let bytes = self.bytes_of(&view.image, view.index)?;
        let side = self.side as usize;
        let board_luma = self.surface_luma(bytes, side);
        self.check_pockets(bytes, side, board_luma, view.index)?;
        let ink_map = InkMap::new(&self.frame).map_err(|source| DetectError::Template {
            frame: view.index,
            source,
        })?;
        let prior = ink_map.predict(bytes);
        self.background = Some(Background::from_frame_and_prior(bytes, side, side, prior));
        let break_discs = self.match_break(bytes, side, board_luma);
        if let Some(discs) = &break_discs {
            self.predict_under(discs);
        }
        let mut detections = self.detect(view, &[])?;
        match break_discs {
            Some(discs) => {
                detections.discs = discs;
                detections.break_arrangement = true;
            }
            // Under a hand, the arrangement may yet appear as it leaves.
            None => self.break_pending = detections.hand_present(),
        }
        // Found against a model made from this very frame, these discs
        // stand for no other: the next frame is looked at in full.
        self.last = None;
        Ok(detections)
    }

    fn surface_luma(&self, bytes: &[u8], side: usize) -> f64 {
        let mut lumas: Vec<f32> = Vec::new();
        let step = (side / 60).max(1);
        for y in (0..side).step_by(step) {
            for x in (0..side).step_by(step) {
                let board = self.frame.px_to_board(Point2::new(x as f64, y as f64));
                if board.x.abs() < HALF_SURFACE_MM && board.y.abs() < HALF_SURFACE_MM {
                    let i = 3 * (y * side + x);
                    lumas.push(bytes[i..i + 3].iter().map(|&v| f32::from(v)).sum::<f32>() / 3.0);
                }
            }
        }
        lumas.sort_by(f32::total_cmp);
        lumas.get(lumas.len() / 2).map_or(128.0, |&l| f64::from(l))
    }

    fn check_pockets(
        &self,
        bytes: &[u8],
        side: usize,
        board_luma: f64,
        frame: u64,
    ) -> Result<(), DetectError> {
        for pocket in Pocket::ALL {
            let px = self.frame.board_to_px(pocket_centre(pocket));
            let [b, g, r] = mean_bgr(
                bytes,
                side,
                px.x,
                px.y,
                0.5 * self.mm_to_px(POCKET_RADIUS_MM),
            );
            if (b + g + r) / 3.0 > POCKET_MAX_RELATIVE_LUMA * board_luma {
                return Err(DetectError::NoBoard { frame });
            }
        }
        Ok(())
    }

    fn match_break(
        &mut self,
        bytes: &[u8],
        side: usize,
        board_luma: f64,
    ) -> Option<Vec<Detection>> {
        let radius_px = self.mm_to_px(CARROMMAN_RADIUS_MM);
        let mut best: Option<(usize, Vec<Detection>)> = None;
        let mut best_by_lightness: Option<(f64, Vec<Detection>)> = None;
        for seat in Seat::TURN_ORDER {
            let mut matches = 0;
            let mut discs = Vec::new();
            let mut lightness = Vec::new();
            for placed in break_arrangement(seat) {
                let px = self.frame.board_to_px(placed.centre);
                let sample = ColourSample::from_bgr(
                    mean_bgr(bytes, side, px.x, px.y, COLOUR_SAMPLE_FRACTION * radius_px),
                    board_luma,
                );
                let (piece, confidence) = self.models.classify(&sample, &CARROMMAN_CLASSES)?;
                matches += usize::from(piece == placed.piece);
                lightness.push((placed.piece, sample.features[0]));
                discs.push(Detection {
                    centre: placed.centre,
                    radius_mm: CARROMMAN_RADIUS_MM,
                    piece: placed.piece,
                    by_colour: placed.piece,
                    confidence,
                    colour_distances: None,
                });
            }
            if let Some(gap) = whites_lighter_than_blacks(&lightness) {
                if best_by_lightness.as_ref().is_none_or(|(g, _)| gap > *g) {
                    best_by_lightness = Some((gap, discs.clone()));
                }
            }
            if best.as_ref().is_none_or(|(m, _)| matches > *m) {
                best = Some((matches, discs));
            }
        }
        best.filter(|(matches, _)| *matches >= BREAK_MATCH_MIN)
            .map(|(_, discs)| discs)
            .or_else(|| {
                best_by_lightness
                    .filter(|(gap, _)| *gap >= BREAK_LIGHTNESS_GAP_MIN)
                    .map(|(_, discs)| discs)
            })
    }
}

/// How many times lighter the darkest white spot is than the lightest
/// black one, where every white spot of `spots` (each piece the layout
/// puts there and the spot's lightness) is lighter than every black one;
/// `None` where they overlap, or one colour has no spot.
fn whites_lighter_than_blacks(spots: &[(Piece, f64)]) -> Option<f64> {
    let of = |colour: Piece| {
        spots
            .iter()
            .filter(move |(p, _)| *p == colour)
            .map(|&(_, l)| l)
    };
    let darkest_white = of(Piece::White).reduce(f64::min)?;
    let lightest_black = of(Piece::Black).reduce(f64::max)?;
    (darkest_white > lightest_black).then(|| darkest_white / lightest_black.max(1e-6))
}

/// Which pixels of a top view laid out by `frame` lie beyond the board's
/// outer circle (row-major), the centre design's disc kept out of
/// [`fill_rims`].
fn beyond_outer_circle(frame: &TemplateFrame) -> Vec<bool> {
    let side = frame.side_px() as usize;
    (0..side * side)
        .map(|i| {
            let px = Point2::new((i % side) as f64, (i / side) as f64);
            frame.px_to_board(px).coords.norm() > OUTER_CIRCLE_RADIUS_MM
        })
        .collect()
}

/// Which pixels of the top view `frame` lays out show the playing
/// surface's wood: on the surface, clear of the pocket holes' dark throats
/// and the frame by [`WOOD_MARGIN_MM`].
fn wood_pixels(frame: &TemplateFrame) -> Vec<bool> {
    let side = frame.side_px().max(0) as usize;
    (0..side * side)
        .map(|i| {
            let board = frame.px_to_board(Point2::new((i % side) as f64, (i / side) as f64));
            disc_on_playing_surface(board, WOOD_MARGIN_MM)
        })
        .collect()
}

/// How far past a pocket's rim (mm) its dark throat still shows.
const WOOD_MARGIN_MM: f64 = 3.0;

/// The band round the playing surface that a blob must reach into to come
/// from outside the board: a pixel is in it when a blob holding it has a box
/// corner past [`HAND_REACH_MM`] inside the surface's edge (the box's far
/// sides lie one pixel beyond its last pixels).
fn hand_band(frame: &TemplateFrame) -> EdgeBlobs {
    let side = frame.side_px().max(0) as usize;
    let reach = HALF_SURFACE_MM + HAND_REACH_MM;
    let outer_column = (0..side)
        .map(|x| {
            frame.px_to_board(Point2::new(x as f64, 0.0)).x < -reach
                || frame.px_to_board(Point2::new((x + 1) as f64, 0.0)).x > reach
        })
        .collect();
    let outer_row = (0..side)
        .map(|y| {
            frame.px_to_board(Point2::new(0.0, (y + 1) as f64)).y < -reach
                || frame.px_to_board(Point2::new(0.0, y as f64)).y > reach
        })
        .collect();
    EdgeBlobs::new(outer_row, outer_column)
}

/// Gaps in the foreground up to this many pixels wide are bridged when
/// centring a disc: where a piece matches the paint under it (a black piece
/// on a line, the Queen on a red circle) or shows a turned ring of nearly
/// the board's colour.
/// The striker is told from a carromman by size (ICF: up to 41.3 mm across
/// against 30.2–31.8 mm), but a disc measured by the distance transform of
/// its foreground comes out larger than it is by an amount that depends on
/// the view: anti-aliased and blurred edges, a shadow at its foot, the side
/// of a coin seen by a tilted camera. Renders and footage showed carrommen
/// measuring 17–19 mm in radius, right on a fixed threshold halfway between
/// the nominal sizes. The bias is the same for every disc in a view, and most
/// discs on a board are carrommen, so the median of the radii measured, less
/// a carromman's radius, estimates it; the threshold moves with it. It moves
/// up only from a pixel over the nominal sizes: discs measuring small are
/// partly missed (a light piece on a light board, a printed design taken for
/// pieces), which says nothing of how large a whole disc measures.
#[derive(Debug, Clone, PartialEq)]
struct RadiusBias {
    bias_mm: f64,
    floor_mm: f64,
    limit_mm: f64,
    learned: bool,
    frame: FrameMedian,
}

/// A frame must show this many discs for its median radius to be a
/// carromman's (the striker is one disc; fragments are few).
const RADIUS_BIAS_MIN_DISCS: usize = 6;
/// Weight of each frame's median in the running estimate of the bias.
const RADIUS_BIAS_WEIGHT: f64 = 0.05;
/// The bias is kept under this many px: beyond it, the top view's scale is
/// wrong and no threshold would help.
const RADIUS_BIAS_MAX_PX: f64 = 3.0;

impl RadiusBias {
    /// Before any carrommen are measured, and at least: a pixel of
    /// anti-aliased edge.
    fn new(px_per_mm: f64) -> RadiusBias {
        RadiusBias {
            bias_mm: 1.0 / px_per_mm,
            floor_mm: 1.0 / px_per_mm,
            limit_mm: RADIUS_BIAS_MAX_PX / px_per_mm,
            learned: false,
            frame: FrameMedian::new(RADIUS_BIAS_MIN_DISCS),
        }
    }

    /// Takes one frame's measured radii (mm).
    fn learn(&mut self, radii_mm: impl Iterator<Item = f64>) {
        let Some(median) = self.frame.of(radii_mm) else {
            return;
        };
        let seen = (median - CARROMMAN_RADIUS_MM).clamp(self.floor_mm, self.limit_mm);
        self.bias_mm = if self.learned {
            self.bias_mm + RADIUS_BIAS_WEIGHT * (seen - self.bias_mm)
        } else {
            seen
        };
        self.learned = true;
    }

    /// Measured radii (mm) at or above this are the striker's.
    fn striker_threshold_mm(&self) -> f64 {
        (CARROMMAN_RADIUS_MM + STRIKER_RADIUS_MM) / 2.0 + self.bias_mm
    }
}

/// The median of one frame's radii, when it shows enough discs to judge
/// by; the buffer is kept to reuse its allocation frame after frame.
#[derive(Debug, Clone, PartialEq)]
struct FrameMedian {
    min_discs: usize,
    radii: Vec<f64>,
}

impl FrameMedian {
    fn new(min_discs: usize) -> FrameMedian {
        FrameMedian {
            min_discs,
            radii: Vec::new(),
        }
    }

    fn of(&mut self, radii_mm: impl Iterator<Item = f64>) -> Option<f64> {
        self.radii.clear();
        self.radii.extend(radii_mm);
        if self.radii.len() < self.min_discs {
            return None;
        }
        let middle = self.radii.len() / 2;
        let (_, &mut median, _) = self.radii.select_nth_unstable_by(middle, f64::total_cmp);
        Some(median)
    }
}

/// The running median radius (mm) the carrommen of one colour measure.
#[derive(Debug, Clone, PartialEq)]
struct ColourSize {
    median_mm: Option<f64>,
    frame: FrameMedian,
}

impl ColourSize {
    fn new() -> ColourSize {
        ColourSize {
            median_mm: None,
            frame: FrameMedian::new(RADIUS_BIAS_MIN_OF_A_COLOUR),
        }
    }

    fn learn(&mut self, radii_mm: impl Iterator<Item = f64>) {
        if let Some(median) = self.frame.of(radii_mm) {
            self.median_mm = Some(self.median_mm.map_or(median, |running| {
                running + RADIUS_BIAS_WEIGHT * (median - running)
            }));
        }
    }
}

/// A disc's colour read round one centre: the sample, its mean BGR, and the
/// carromman it is nearest with the confidence of that.
struct ColourReading {
    sample: ColourSample,
    bgr: [f64; 3],
    by_colour: Piece,
    confidence: f64,
    /// Whether the empty board under the disc's centre is as bright as the
    /// wood round it (see [`on_plain_wood`]): only such discs teach the
    /// colour models.
    over_plain_wood: bool,
}

/// Whether the empty board's luma under a disc's centre is the wood's round
/// it (`(under, round)`, see [`Detector::board_lumas`]): the disc's luma
/// relative to the board there then measures the lamp's light, not the
/// drawing's ink.
fn on_plain_wood((under, round): (f64, f64)) -> bool {
    (under - round).abs() <= PLAIN_WOOD_TOLERANCE * round
}

/// The empty board's luma on the wood round a disc of `radius_px` at
/// (cx, cy) (top-view px; `wood` as [`Detector`] keeps it), out to
/// [`BOARD_LUMA_REACH`] radii.
fn wood_luma_round(
    background: &Background,
    wood: &[bool],
    cx: f64,
    cy: f64,
    radius_px: f64,
) -> f64 {
    background.board_luma_round(cx, cy, BOARD_LUMA_REACH * radius_px, |i| {
        wood.get(i).copied().unwrap_or(false)
    })
}

/// The empty board's luma a disc is measured against, from the luma under
/// its centre and the wood's round it (see [`Detector::board_lumas`]): the
/// former on plain wood (the lamp's light just there), else the latter. A
/// black lying on a line of the drawing (a diagonal arrow), measured
/// against the ink under its centre, reads as bright as a white, frame
/// after frame.
fn measured_against(lumas: Option<(f64, f64)>) -> f64 {
    match lumas {
        Some((under, round)) if !on_plain_wood((under, round)) => round,
        Some((under, _)) => under,
        None => 128.0,
    }
}

/// A disc found in the foreground before it is told striker or carromman.
struct DiscCandidate {
    /// The distance transform's peak (top-view px).
    peak: (f64, f64),
    /// Its centre fitted at a carromman's size (top-view px).
    centre_px: (f64, f64),
    radius_px: f64,
    radius_mm: f64,
    colour: ColourReading,
}

/// How much larger than their true size discs measure, for each colour of
/// carromman and for all of them. The foreground of a dark piece on a light
/// board takes in its shadow and its whole blurred edge, while a light one
/// matches the board at its rim: in the renders whites measured 3-4 mm
/// smaller than blacks on the same board, so one bias for all set a
/// threshold a whitish striker at rest measured under. A striker is judged
/// against the carrommen its colour is nearest.
#[derive(Debug, Clone, PartialEq)]
struct RadiusBiases {
    all: RadiusBias,
    white: ColourSize,
    black: ColourSize,
}

/// A frame must show this many discs of one colour for their median to
/// set that colour's bias.
const RADIUS_BIAS_MIN_OF_A_COLOUR: usize = 4;

/// A disc measuring this much (mm) over the carrommen of its colour is the
/// striker, whatever the threshold of all discs says.
const STRIKER_OVER_ITS_COLOUR_MM: f64 = 3.5;

/// Halfway between the nominal radii: no disc measuring under it is taken
/// for the striker, however small its colour's carrommen measure (a
/// carromman partly missed says nothing of how large a whole disc measures,
/// and touching ones merge into larger blobs).
const NOMINAL_STRIKER_THRESHOLD_MM: f64 = (CARROMMAN_RADIUS_MM + STRIKER_RADIUS_MM) / 2.0;

impl RadiusBiases {
    fn new(px_per_mm: f64) -> RadiusBiases {
        RadiusBiases {
            all: RadiusBias::new(px_per_mm),
            white: ColourSize::new(),
            black: ColourSize::new(),
        }
    }

    /// Takes one frame's discs: measured radius (mm) and nearest colour.
    fn learn(&mut self, discs: impl Iterator<Item = (f64, Piece)> + Clone) {
        self.all.learn(discs.clone().map(|(radius, _)| radius));
        self.white.learn(
            discs
                .clone()
                .filter(|&(_, colour)| colour == Piece::White)
                .map(|(radius, _)| radius),
        );
        self.black.learn(
            discs
                .filter(|&(_, colour)| colour == Piece::Black)
                .map(|(radius, _)| radius),
        );
    }

    /// Measured radii (mm) at or above this are the striker's, for a disc
    /// whose colour is nearest `colour`'s: the threshold of all discs, or
    /// lower where that colour's carrommen measure small.
    fn striker_threshold_mm(&self, colour: Piece) -> f64 {
        let own = match colour {
            Piece::White => self.white.median_mm,
            Piece::Black => self.black.median_mm,
            // One Queen, no median of her own.
            Piece::Queen | Piece::Striker => None,
        };
        let all = self.all.striker_threshold_mm();
        own.map_or(all, |median| {
            all.min(median + STRIKER_OVER_ITS_COLOUR_MM)
                .max(NOMINAL_STRIKER_THRESHOLD_MM)
        })
    }
}

const GAP_BRIDGE_PX: usize = 2;

/// An OpenCV rectangle of a [`PixelBox`].
fn cv_rect((x0, y0, x1, y1): PixelBox) -> core::Rect {
    // Boxes lie within the top view, whose side fits an i32.
    core::Rect::new(x0 as i32, y0 as i32, (x1 - x0) as i32, (y1 - y0) as i32)
}

/// Boxes round the clusters of nonzero pixels of `mask` (`side` square),
/// each grown by `margin` (within the view): tiles of
/// [`FOREGROUND_TILE_PX`] holding any nonzero pixel are grouped with their
/// neighbours (diagonal ones too), and boxes whose grown areas overlap are
/// merged until none do. So every nonzero pixel lies in one box, at least
/// `margin` inside it or at the view's edge, and no box reaches another's.
/// `tiles` is scratch space.
pub(super) fn foreground_boxes(
    mask: &[u8],
    side: usize,
    margin: usize,
    tiles: &mut Vec<bool>,
) -> Vec<PixelBox> {
    let across = side.div_ceil(FOREGROUND_TILE_PX);
    tiles.clear();
    tiles.resize(across * across, false);
    // A band of tile rows is ORed into one row first: a plain byte loop the
    // compiler vectorises, where a test per tile per pixel row did not (it
    // was 5 % of `carrom track`'s CPU).
    let whole_rows = (mask.len() / side.max(1)).min(side);
    let mut band = vec![0u8; side];
    for (tile_y, rows) in mask[..whole_rows * side]
        .chunks(FOREGROUND_TILE_PX * side.max(1))
        .enumerate()
    {
        band.fill(0);
        for row in rows.chunks_exact(side) {
            for (any, &v) in band.iter_mut().zip(row) {
                *any |= v;
            }
        }
        let tile_row = &mut tiles[tile_y * across..][..across];
        for (marked, run) in tile_row.iter_mut().zip(band.chunks(FOREGROUND_TILE_PX)) {
            *marked = run.iter().any(|&v| v != 0);
        }
    }
    let mut boxes: Vec<PixelBox> = Vec::new();
    let mut stack = Vec::new();
    for first in 0..tiles.len() {
        if !tiles[first] {
            continue;
        }
        tiles[first] = false;
        stack.push(first);
        let (mut tx0, mut ty0, mut tx1, mut ty1) = (across, across, 0, 0);
        while let Some(t) = stack.pop() {
            let (tx, ty) = (t % across, t / across);
            (tx0, ty0, tx1, ty1) = (tx0.min(tx), ty0.min(ty), tx1.max(tx), ty1.max(ty));
            for ny in ty.saturating_sub(1)..(ty + 2).min(across) {
                for nx in tx.saturating_sub(1)..(tx + 2).min(across) {
                    let n = ny * across + nx;
                    if tiles[n] {
                        tiles[n] = false;
                        stack.push(n);
                    }
                }
            }
        }
        let grow_down = |tile: usize| (tile * FOREGROUND_TILE_PX).saturating_sub(margin);
        let grow_up = |tile: usize| ((tile + 1) * FOREGROUND_TILE_PX + margin).min(side);
        boxes.push((grow_down(tx0), grow_down(ty0), grow_up(tx1), grow_up(ty1)));
    }
    let overlap = |a: &PixelBox, b: &PixelBox| a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3;
    'merging: loop {
        for i in 0..boxes.len() {
            for j in i + 1..boxes.len() {
                if overlap(&boxes[i], &boxes[j]) {
                    let b = boxes.swap_remove(j);
                    let a = &mut boxes[i];
                    *a = (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3));
                    continue 'merging;
                }
            }
        }
        break;
    }
    boxes
}

/// The centre (px) of the disc of `radius` px round (x, y): the centroid of
/// the foreground inside it, thin gaps bridged, three times over. Pixels
/// beyond the radius (touching neighbours) do not count, so pieces in a
/// cluster do not pull each other.
fn fit_disc(mask: &[u8], side: usize, x: f64, y: f64, radius: f64) -> (f64, f64) {
    let g = GAP_BRIDGE_PX;
    let at = |px: usize, py: usize| mask[py * side + px] != 0;
    let filled = |px: usize, py: usize| {
        at(px, py)
            || (px >= g && px + g < side && at(px - g, py) && at(px + g, py))
            || (py >= g && py + g < side && at(px, py - g) && at(px, py + g))
    };
    let (mut cx, mut cy) = (x, y);
    for _ in 0..3 {
        let (mut sx, mut sy, mut n) = (0.0, 0.0, 0.0);
        let r2 = radius * radius;
        let y0 = (cy - radius).floor().max(0.0) as usize;
        let y1 = ((cy + radius).ceil().max(0.0) as usize).min(side - 1);
        let x0 = (cx - radius).floor().max(0.0) as usize;
        let x1 = ((cx + radius).ceil().max(0.0) as usize).min(side - 1);
        for py in y0..=y1 {
            for px in x0..=x1 {
                let (dx, dy) = (px as f64 - cx, py as f64 - cy);
                if dx * dx + dy * dy <= r2 && filled(px, py) {
                    sx += px as f64;
                    sy += py as f64;
                    n += 1.0;
                }
            }
        }
        if n > 0.0 {
            (cx, cy) = (sx / n, sy / n);
        }
    }
    (cx, cy)
}

/// How each resting piece looked (mean BGR of its face, lamp gain removed)
/// when it came to rest, to tell when it has gone. A track whose piece left
/// in a blur can settle on a marking beneath (the printed centre design
/// under the break cluster, which the empty-board model has never seen), and
/// as nothing changes there from frame to frame it is held there for good
/// ([`Detections::still_there`]): a ghost that claims the identity of a
/// piece lost elsewhere. A face that no longer looks like the piece's, frame
/// after frame, is the drawing.
#[derive(Debug, Clone, Default)]
pub(super) struct RestLooks {
    by_tag: HashMap<u32, RestLook>,
}

#[derive(Debug, Clone, Copy)]
struct RestLook {
    centre: Point2<f64>,
    bgr: [f64; 3],
    /// Frames in a row it has looked otherwise, at rest where it came to rest.
    changed_frames: u32,
}

/// Mean of the inner part of a disc compared: its face, clear of the rim's
/// blur and of a neighbour's shadow.
const REST_LOOK_INNER_FRACTION: f64 = 0.6;

/// A face whose mean (0–255, lamp gain removed) moved this far in some
/// channel from the piece's looks no longer shows that piece: far above the
/// noise of a mean over a hundred pixels, and a white's face on light wood
/// (the closest piece and board come) differs by about 10.
const REST_LOOK_CHANGE: f64 = 40.0;

/// Frames in a row a resting piece must look otherwise to be gone: a
/// passing shadow or a blur going by lasts a few.
const REST_LOOK_FRAMES: u32 = 30;

impl RestLooks {
    /// Compares each resting disc of `known` with how it looked when it came
    /// to rest (`look` measures it now), and returns the tags of those that
    /// have looked otherwise for [`REST_LOOK_FRAMES`]. A disc that moved more
    /// than its radius came to rest somewhere new and is looked at afresh.
    fn update(&mut self, known: &[KnownDisc], look: impl Fn(&KnownDisc) -> [f64; 3]) -> Vec<u32> {
        self.by_tag
            .retain(|tag, _| known.iter().any(|d| d.tag == *tag));
        let mut changed = Vec::new();
        for disc in known.iter().filter(|d| d.at_rest) {
            let now = look(disc);
            match self.by_tag.get_mut(&disc.tag) {
                Some(rest) if (rest.centre - disc.centre).norm() <= disc.radius_mm => {
                    let difference = (0..3)
                        .map(|c| (now[c] - rest.bgr[c]).abs())
                        .fold(0.0, f64::max);
                    if difference > REST_LOOK_CHANGE {
                        rest.changed_frames += 1;
                    } else {
                        rest.changed_frames = 0;
                    }
                    if rest.changed_frames >= REST_LOOK_FRAMES {
                        changed.push(disc.tag);
                    }
                }
                _ => {
                    self.by_tag.insert(
                        disc.tag,
                        RestLook {
                            centre: disc.centre,
                            bgr: now,
                            changed_frames: 0,
                        },
                    );
                }
            }
        }
        changed
    }
}

/// One frame's look for pieces in motion ([`Detector::look_for_moving`]):
/// the pixels that may still be compared, and what to compare them with.
pub struct MovingLook<'d> {
    detector: &'d Detector,
    background: &'d Background,
    bytes: &'d [u8],
    usable: Vec<bool>,
}

impl MovingLook<'_> {
    /// The disc near where the tracker expects a piece, classified as a
    /// carromman, if one stands out there.
    pub fn find(&self, sought: &Sought) -> Option<Detection> {
        let (detector, background) = (self.detector, self.background);
        let frame = &detector.frame;
        let gain = background.gain();
        let disc = find_moving(self.bytes, background, gain, frame, &self.usable, sought)?;
        let luma = background.luma_at(disc.column as usize, disc.row as usize);
        let disc_px = (disc.column, disc.row, CARROMMAN_RADIUS_MM * frame.px_per_mm);
        let side = detector.side as usize;
        let (_, _, nearest) = sample_colour(&detector.models, self.bytes, side, disc_px, luma);
        let (piece, confidence) = nearest?;
        Some(Detection {
            centre: frame.px_to_board(Point2::new(disc.column, disc.row)),
            radius_mm: CARROMMAN_RADIUS_MM,
            piece,
            by_colour: piece,
            confidence,
            colour_distances: None,
        })
    }

    /// Takes a disc (centre in board mm, radius mm) out of the look: a disc
    /// found must clear it by a carromman's radius, as the blur of a piece in
    /// motion reaches past its disc.
    pub fn claim(&mut self, centre: Point2<f64>, radius_mm: f64) {
        let frame = &self.detector.frame;
        let side = self.detector.side as usize;
        let px = frame.board_to_px(centre);
        let clear = (radius_mm + CARROMMAN_RADIUS_MM) * frame.px_per_mm;
        for i in background::disc_pixels(side, side, px.x, px.y, clear) {
            self.usable[i] = false;
        }
    }
}

/// The colour inside a disc (centre column, row, radius in pixels) of the
/// top view `bytes`, where the empty board's luma is `board_luma`: the
/// sample, its mean BGR, and the carromman `models` find it nearest with how
/// clearly (the striker is told by size, not colour).
fn sample_colour(
    models: &ColourModels,
    bytes: &[u8],
    side: usize,
    (column, row, radius_px): (f64, f64, f64),
    board_luma: f64,
) -> (ColourSample, [f64; 3], Option<(Piece, f64)>) {
    let bgr = mean_bgr(bytes, side, column, row, COLOUR_SAMPLE_FRACTION * radius_px);
    let sample = ColourSample::from_bgr(bgr, board_luma);
    let nearest = models.classify(&sample, &CARROMMAN_CLASSES);
    (sample, bgr, nearest)
}

/// Mean BGR of the pixels within `radius` of (x, y).
fn mean_bgr(bytes: &[u8], side: usize, x: f64, y: f64, radius: f64) -> [f64; 3] {
    let radius = radius.max(1.0);
    let mut sum = [0.0; 3];
    let mut n = 0.0;
    let y0 = (y - radius).floor().max(0.0) as usize;
    let y1 = ((y + radius).ceil().max(0.0) as usize).min(side - 1);
    let x0 = (x - radius).floor().max(0.0) as usize;
    let x1 = ((x + radius).ceil().max(0.0) as usize).min(side - 1);
    // Squared distances: this runs for every piece on every frame, and
    // `hypot`'s care for overflow costs more than the rest of the loop.
    let radius_squared = radius * radius;
    for py in y0..=y1 {
        for px in x0..=x1 {
            let (dx, dy) = (px as f64 - x, py as f64 - y);
            if dx * dx + dy * dy <= radius_squared {
                let i = 3 * (py * side + px);
                for c in 0..3 {
                    sum[c] += f64::from(bytes[i + c]);
                }
                n += 1.0;
            }
        }
    }
    if n == 0.0 {
        return [0.0; 3];
    }
    sum.map(|s| s / n)
}

fn mark_disc(busy: &mut [u8], side: usize, x: f64, y: f64, radius: f64, mark: u8) {
    let y0 = (y - radius).floor().max(0.0) as usize;
    let y1 = ((y + radius).ceil().max(0.0) as usize).min(side - 1);
    let x0 = (x - radius).floor().max(0.0) as usize;
    let x1 = ((x + radius).ceil().max(0.0) as usize).min(side - 1);
    let radius_squared = radius * radius;
    for py in y0..=y1 {
        for px in x0..=x1 {
            let (dx, dy) = (px as f64 - x, py as f64 - y);
            if dx * dx + dy * dy <= radius_squared {
                busy[py * side + px] = mark;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::PlacedPiece;
    use crate::template::{colours, draw_board, draw_pieces, TemplateOptions};

    const SCALE: f64 = 0.5;

    /// One pixel at `SCALE`, and a little: the centring error of a black
    /// piece on black ink, which the empty-board model cannot see through.
    const BLACK_ON_INK_TOLERANCE_MM: f64 = 2.6;

    #[test]
    fn a_faint_disc_where_a_piece_was_lost_is_that_piece_before_a_stronger_one_elsewhere() {
        let at = |x: f64, y: f64| Point2::new(x, y);
        // Found strongest first: a white far from the lost white, a black,
        // then a white where the white stopped.
        let found = [
            (Piece::White, at(177.0, -129.0)),
            (Piece::Black, at(-40.0, 60.0)),
            (Piece::White, at(-125.0, -15.0)),
        ];
        let lost = [(Piece::White, at(-123.0, -13.0))];
        assert_eq!(faint_discs_for_the_lost(&found, &lost), vec![2]);
        // Lost where no disc lies, it takes the strongest of its kind.
        let lost = [(Piece::White, at(100.0, 200.0))];
        assert_eq!(faint_discs_for_the_lost(&found, &lost), vec![0]);
        // Two lost whites take both whites; the black is no white, and a
        // lost queen matches nothing of another kind.
        let lost = [
            (Piece::White, at(100.0, 200.0)),
            (Piece::White, at(-123.0, -13.0)),
            (Piece::Queen, at(-40.0, 60.0)),
        ];
        let mut chosen = faint_discs_for_the_lost(&found, &lost);
        chosen.sort_unstable();
        assert_eq!(chosen, vec![0, 2]);
    }

    fn empty_board() -> Mat {
        draw_board(&TemplateOptions {
            px_per_mm: SCALE,
            arrangement_for: None,
        })
        .unwrap()
        .image
    }

    fn view_of(pieces: &[PlacedPiece]) -> Rectified {
        let template = draw_board(&TemplateOptions {
            px_per_mm: SCALE,
            arrangement_for: None,
        })
        .unwrap();
        let mut image = template.image;
        draw_pieces(&mut image, &template.frame, pieces).unwrap();
        Rectified {
            index: 3,
            t: 0.1,
            image,
            frame: template.frame,
        }
    }

    fn detector() -> Detector {
        let frame = TemplateFrame::for_scale(SCALE).unwrap();
        Detector::new(
            frame,
            ColourModels::shipped().unwrap(),
            DetectorOptions::default(),
        )
        .unwrap()
    }

    /// Paints an arm (a skin-coloured quadrilateral, corners in board mm)
    /// over a top view.
    fn paint_arm(view: &mut Rectified, corners: [(f64, f64); 4]) {
        let frame = view.frame;
        let arm = core::Vector::<Point>::from_iter(corners.iter().map(|&(x, y)| {
            let p = frame.board_to_px(Point2::new(x, y));
            Point::new(p.x.round() as i32, p.y.round() as i32)
        }));
        imgproc::fill_convex_poly(
            &mut view.image,
            &arm,
            Scalar::new(90.0, 120.0, 170.0, 0.0),
            imgproc::LINE_8,
            0,
        )
        .unwrap();
    }

    /// Paints an arm the colour of the board as the foreground shows it:
    /// skin-coloured patches `patch_mm` square, `gap_mm` apart, over the box
    /// from `min` to `max` (board mm).
    fn paint_arm_in_fragments(
        view: &mut Rectified,
        min: (f64, f64),
        max: (f64, f64),
        (patch_mm, gap_mm): (f64, f64),
    ) {
        let frame = view.frame;
        let step = patch_mm + gap_mm;
        let mut y = min.1;
        while y < max.1 {
            let mut x = min.0;
            while x < max.0 {
                let a = frame.board_to_px(Point2::new(x, y + patch_mm));
                let b = frame.board_to_px(Point2::new(x + patch_mm, y));
                imgproc::rectangle(
                    &mut view.image,
                    core::Rect::new(
                        a.x.round() as i32,
                        a.y.round() as i32,
                        (b.x - a.x).round() as i32,
                        (b.y - a.y).round() as i32,
                    ),
                    Scalar::new(90.0, 120.0, 170.0, 0.0),
                    imgproc::FILLED,
                    imgproc::LINE_8,
                    0,
                )
                .unwrap();
                x += step;
            }
            y += step;
        }
    }

    fn placed(piece: Piece, x: f64, y: f64) -> PlacedPiece {
        PlacedPiece {
            piece,
            centre: Point2::new(x, y),
        }
    }

    /// Every expected piece is found once, of the right kind, within `tolerance_mm`.
    fn assert_found(found: &[Detection], expected: &[PlacedPiece], tolerance_mm: f64) {
        assert_eq!(found.len(), expected.len(), "found {found:?}");
        for want in expected {
            let nearest = found
                .iter()
                .min_by(|a, b| {
                    (a.centre - want.centre)
                        .norm()
                        .total_cmp(&(b.centre - want.centre).norm())
                })
                .unwrap();
            let error = (nearest.centre - want.centre).norm();
            assert!(
                error < tolerance_mm,
                "{want:?}: nearest {nearest:?} is {error:.2} mm off"
            );
            assert_eq!(nearest.piece, want.piece, "at {:?}", want.centre);
        }
    }

    #[test]
    fn scattered_pieces_are_found_and_told_apart() {
        let pieces = [
            placed(Piece::White, -200.0, 150.0),
            placed(Piece::Black, 120.0, -40.0),
            placed(Piece::Queen, 10.0, 230.0),
            placed(Piece::Striker, 60.0, -270.0),
            placed(Piece::White, 300.0, 300.0),
            // On the red base circle and across a base line.
            placed(Piece::Black, -230.0, -270.0),
        ];
        let mut detector = detector().with_empty_board(&empty_board()).unwrap();
        let detections = detector.detect(&view_of(&pieces), &[]).unwrap();
        // At 0.5 px/mm a black piece lying on black ink (here a base circle)
        // is centred to about a pixel.
        assert_found(&detections.discs, &pieces, BLACK_ON_INK_TOLERANCE_MM);
        assert!(detections.occluders.is_empty());
    }

    #[test]
    fn the_colour_models_learn_from_discs_over_plain_wood_only() {
        // The same white resting on plain wood, then centred on a red base
        // circle: against the circle's luma it reads far brighter than it is.
        // Models that know this drawing's white well, so its discs are
        // confident enough to learn from.
        let white = ColourSample::from_bgr(
            colours::WHITE_PIECE.map(f64::from),
            colours::SURFACE.iter().map(|&c| f64::from(c)).sum::<f64>() / 3.0,
        );
        let mut models = ColourModels::shipped().unwrap();
        models.adapt(Piece::White, &white, 1.0);
        let white_mean_after = |x: f64, y: f64| {
            let frame = TemplateFrame::for_scale(SCALE).unwrap();
            let mut detector = Detector::new(frame, models.clone(), DetectorOptions::default())
                .unwrap()
                .with_empty_board(&empty_board())
                .unwrap();
            let view = view_of(&[placed(Piece::White, x, y)]);
            // Held by the tracker, so the empty-board model does not learn it.
            let known = [KnownDisc {
                centre: Point2::new(x, y),
                radius_mm: CARROMMAN_RADIUS_MM,
                piece: Piece::White,
                tag: 1,
                at_rest: true,
                velocity: Vector2::zeros(),
            }];
            for _ in 0..20 {
                let detections = detector.detect(&view, &known).unwrap();
                assert_eq!(detections.discs.len(), 1);
                assert_eq!(detections.discs[0].piece, Piece::White);
            }
            detector.models().model(Piece::White).mean
        };
        let before = models.model(Piece::White).mean;
        assert_ne!(white_mean_after(-120.0, 150.0), before);
        let on_base_circle = (
            -crate::geometry::spec::BASE_CIRCLE_CENTRE_ALONG_MM,
            -crate::geometry::spec::BASE_CIRCLE_CENTRE_DEPTH_MM,
        );
        assert_eq!(white_mean_after(on_base_circle.0, on_base_circle.1), before);
    }

    #[test]
    fn a_piece_never_followed_is_found_against_the_board_kept_from_the_start() {
        // Clip 3336: three whites lost in the break lay unfollowed for the
        // rest of the clip, learned into the empty-board model; the laws
        // still counted them.
        let spot = Point2::new(-138.0, -186.0);
        let mut detector = detector().with_empty_board(&empty_board()).unwrap();
        detector.keep_start_board();
        let view = view_of(&[placed(Piece::White, spot.x, spot.y)]);
        for _ in 0..FAINT_STILL_FRAMES + 2 {
            detector.detect(&view, &[]).unwrap();
        }
        let black = detector
            .search_unseen(&view, &[], &[], &[Piece::Black])
            .unwrap();
        assert!(black.is_empty(), "{black:?}");
        let followed = [(spot, CARROMMAN_RADIUS_MM)];
        let elsewhere = detector
            .search_unseen(&view, &followed, &[], &[Piece::White])
            .unwrap();
        assert!(elsewhere.is_empty(), "{elsewhere:?}");
        let found = detector
            .search_unseen(&view, &[], &[], &[Piece::White])
            .unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].piece, Piece::White);
        assert!((found[0].centre - spot).norm() < 1.5, "{found:?}");
    }

    #[test]
    fn a_resting_track_over_bare_board_is_told_from_a_pale_piece_lying_there() {
        // Clip 3336: a white knocked off its spot unseen left its track
        // holding the spot; the white it followed was pocketed later.
        let (here, gone) = (Point2::new(-113.0, 174.0), Point2::new(150.0, -120.0));
        let mut detector = detector().with_empty_board(&empty_board()).unwrap();
        detector.keep_start_board();
        let view = view_of(&[placed(Piece::White, here.x, here.y)]);
        detector.detect(&view, &[]).unwrap();
        let bare = detector.bare_under(&view, &[(1, here), (2, gone)]).unwrap();
        assert_eq!(bare, vec![2]);
    }

    #[test]
    fn a_black_found_again_on_a_line_of_the_drawing_is_a_black() {
        // Clip 2374: a black lost as it stopped on a base line was found
        // again by the second look, measured against the ink under its
        // centre, as a white: a lost white's track took it.
        use crate::geometry::spec::{
            BASE_BAND_NEAR_EDGE_FROM_CENTRE_MM, OUTER_BASE_LINE_THICKNESS_MM,
        };
        // On the middle of the south seat's outer (thick) base line.
        let spot = (
            100.0,
            -(BASE_BAND_NEAR_EDGE_FROM_CENTRE_MM - OUTER_BASE_LINE_THICKNESS_MM / 2.0),
        );
        let mut detector = detector().with_empty_board(&empty_board()).unwrap();
        detector.keep_board_for_search(&[Point2::new(spot.0, spot.1)]);
        let view = view_of(&[placed(Piece::Black, spot.0, spot.1)]);
        for _ in 0..FAINT_STILL_FRAMES + 2 {
            detector.detect(&view, &[]).unwrap();
        }
        let wanted = [
            (Piece::Black, Point2::new(spot.0, spot.1)),
            (Piece::White, Point2::new(-spot.0, -spot.1)),
        ];
        let found = detector.search_faint(&view, &[], &[], &wanted).unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].piece, Piece::Black, "{found:?}");
        assert!(
            (found[0].centre - Point2::new(spot.0, spot.1)).norm() < BLACK_ON_INK_TOLERANCE_MM,
            "{found:?}"
        );
    }

    #[test]
    fn a_disc_on_a_line_of_the_drawing_is_measured_against_the_wood_round_it() {
        // Clip 2341: a black at rest on the NE diagonal arrow. Against the
        // ink's luma under its centre it read as bright as a white, frame
        // after frame, and its track turned white.
        let detector = detector().with_empty_board(&empty_board()).unwrap();
        let background = detector.background().unwrap();
        let radius = detector.mm_to_px(CARROMMAN_RADIUS_MM);
        let luma_under = |x: f64, y: f64| {
            let px = detector.frame.board_to_px(Point2::new(x, y));
            let ink = background.luma_at(px.x.round() as usize, px.y.round() as usize);
            (ink, detector.board_luma_under(px.x, px.y, radius))
        };
        let (wood, measured) = luma_under(-120.0, 150.0);
        assert_eq!(measured, wood, "plain wood: the luma just there");
        let (ink, measured) = luma_under(
            -crate::geometry::spec::BASE_CIRCLE_CENTRE_ALONG_MM,
            -crate::geometry::spec::BASE_CIRCLE_CENTRE_DEPTH_MM,
        );
        assert!(
            ink < 0.8 * wood,
            "the base circle's red is darker: {ink} vs {wood}"
        );
        assert!(
            (measured - wood).abs() <= PLAIN_WOOD_TOLERANCE * wood,
            "measured against {measured}, the wood is {wood}"
        );
    }

    #[test]
    fn the_nineteen_touching_break_pieces_are_split() {
        // The Queen on the red centre circle differs from it only by her ring;
        // a white in her place tests the splitting of touching discs.
        let mut pieces = break_arrangement(Seat::East);
        pieces[0].piece = Piece::White;
        let mut detector = detector().with_empty_board(&empty_board()).unwrap();
        let detections = detector.detect(&view_of(&pieces), &[]).unwrap();
        assert_found(&detections.discs, &pieces, BLACK_ON_INK_TOLERANCE_MM);
    }

    #[test]
    fn a_first_frame_with_the_break_is_recognised_and_the_board_under_it_predicted() {
        let pieces = break_arrangement(Seat::North);
        let mut detector = detector();
        let detections = detector.detect(&view_of(&pieces), &[]).unwrap();
        assert_found(&detections.discs, &pieces, 0.01);
        // The empty board under the cluster comes from the drawing, so the
        // pieces are seen against it in the next frame: all but the Queen,
        // whose red matches the red centre circle under her.
        let later = detector.detect(&view_of(&pieces), &[]).unwrap();
        assert!(!later.is_occluded(Point2::origin(), 0.0));
        let others: Vec<PlacedPiece> = pieces
            .iter()
            .copied()
            .filter(|p| p.piece != Piece::Queen)
            .collect();
        let found: Vec<Detection> = later
            .discs
            .iter()
            .copied()
            .filter(|d| d.centre.coords.norm() > CARROMMAN_RADIUS_MM)
            .collect();
        assert_found(&found, &others, BLACK_ON_INK_TOLERANCE_MM);
    }

    #[test]
    fn an_arm_over_the_first_frame_is_a_hand_not_a_row_of_pieces() {
        // On plain wood: a black piece on black ink is a known weak spot.
        let pieces = [placed(Piece::Black, 200.0, 50.0)];
        let mut view = view_of(&pieces);
        paint_arm(
            &mut view,
            [
                (-60.0, -480.0),
                (40.0, -480.0),
                (30.0, -20.0),
                (-50.0, -20.0),
            ],
        );
        let mut detector = detector();
        let detections = detector.detect(&view, &[]).unwrap();
        assert_found(&detections.discs, &pieces, BLACK_ON_INK_TOLERANCE_MM);
        assert!(detections.is_occluded(Point2::new(-10.0, -200.0), 0.0));
    }

    #[test]
    fn a_first_frame_in_mid_board_finds_pieces_without_an_empty_board() {
        let pieces = [
            placed(Piece::White, -150.0, 100.0),
            placed(Piece::Black, 200.0, 50.0),
            placed(Piece::Queen, -20.0, -180.0),
        ];
        let mut detector = detector();
        let first = detector.detect(&view_of(&pieces), &[]).unwrap();
        assert_found(&first.discs, &pieces, 1.5);
        let moved = [placed(Piece::White, -100.0, 100.0), pieces[1], pieces[2]];
        let second = detector.detect(&view_of(&moved), &[]).unwrap();
        assert_found(&second.discs, &moved, 1.5);
    }

    #[test]
    fn a_striker_by_the_cushion_among_pieces_the_tracker_holds_is_no_hand() {
        // The striker runs south along the west cushion past a black and a
        // white resting there: one blob, as large and thick as a hand, that
        // reaches the frame.
        let pieces = [
            placed(Piece::Striker, -345.0, -200.0),
            placed(Piece::Black, -345.0, -238.0),
            placed(Piece::White, -345.0, -272.0),
        ];
        let known_disc = |piece: Piece, x: f64, y: f64, tag: u32, vy: f64| KnownDisc {
            centre: Point2::new(x, y),
            radius_mm: if piece == Piece::Striker {
                STRIKER_RADIUS_MM
            } else {
                CARROMMAN_RADIUS_MM
            },
            piece,
            tag,
            at_rest: vy == 0.0,
            velocity: Vector2::new(0.0, vy),
        };
        let mut earlier = view_of(&[]);
        earlier.t = 0.1;
        let mut now = view_of(&pieces);
        now.t = earlier.t + 1.0 / 30.0;

        // Not known, it passes for an arm.
        let mut blind = detector().with_empty_board(&empty_board()).unwrap();
        blind.detect(&earlier, &[]).unwrap();
        assert!(blind.detect(&now, &[]).unwrap().hand_present());

        // Known (the striker seen 30 mm back, running at 900 mm/s), it is
        // pieces.
        let known = [
            known_disc(Piece::Striker, -345.0, -170.0, 1, -900.0),
            known_disc(Piece::Black, -345.0, -238.0, 2, 0.0),
            known_disc(Piece::White, -345.0, -272.0, 3, 0.0),
        ];
        let mut tracked = detector().with_empty_board(&empty_board()).unwrap();
        tracked.detect(&earlier, &known).unwrap();
        let detections = tracked.detect(&now, &known).unwrap();
        assert!(!detections.hand_present(), "{:?}", detections.occluders);
        assert_found(&detections.discs, &pieces, 2.0);
    }

    #[test]
    fn an_arm_reaching_over_a_piece_the_tracker_holds_is_still_a_hand() {
        let pieces = [placed(Piece::Black, 0.0, -300.0)];
        let mut view = view_of(&pieces);
        paint_arm(
            &mut view,
            [
                (-40.0, -480.0),
                (40.0, -480.0),
                (30.0, -290.0),
                (-30.0, -290.0),
            ],
        );
        let known = [KnownDisc {
            centre: pieces[0].centre,
            radius_mm: CARROMMAN_RADIUS_MM,
            piece: Piece::Black,
            tag: 1,
            at_rest: true,
            velocity: Vector2::zeros(),
        }];
        let mut detector = detector().with_empty_board(&empty_board()).unwrap();
        let detections = detector.detect(&view, &known).unwrap();
        assert!(detections.hand_present());
        assert_eq!(detections.hand_seats(), vec![Seat::South]);
    }

    #[test]
    fn an_arm_seen_only_in_fragments_is_a_hand_unless_it_lies_along_the_edge() {
        let seen_with_arm = |max_y: f64| {
            let mut view = view_of(&[]);
            paint_arm_in_fragments(&mut view, (-40.0, -480.0), (40.0, max_y), (24.0, 10.0));
            let mut detector = detector().with_empty_board(&empty_board()).unwrap();
            detector.detect(&view, &[]).unwrap()
        };
        // Reaching 250 mm in from the south side, no patch a piece thick.
        let reaching_in = seen_with_arm(-120.0);
        assert!(reaching_in.hand_present(), "{:?}", reaching_in.discs);
        assert_eq!(reaching_in.hand_seats(), vec![Seat::South]);
        assert!(reaching_in.is_occluded(Point2::new(0.0, -200.0), 0.0));
        // Lying along the south side, 16 mm in (the ghost a hand resting on
        // the frame leaves in the model): not an arm.
        let along_the_edge = seen_with_arm(-360.0);
        assert!(
            !along_the_edge.hand_present(),
            "{:?}",
            along_the_edge.occluders
        );
    }

    #[test]
    fn the_ghost_of_an_arm_the_model_learned_is_no_hand() {
        let pieces = break_arrangement(Seat::South);
        let mut detector = detector();
        assert!(
            detector
                .detect(&view_of(&pieces), &[])
                .unwrap()
                .break_arrangement
        );
        // An arm in fragments rests over the south half for five seconds:
        // a hand, until the model has learned it.
        let mut resting = view_of(&pieces);
        paint_arm_in_fragments(&mut resting, (-40.0, -480.0), (40.0, -150.0), (24.0, 10.0));
        let mut frame = |view: &mut Rectified, index: u64| {
            view.index = index;
            view.t = index as f64 / 30.0;
            detector.detect(view, &[]).unwrap()
        };
        assert!(frame(&mut resting, 1).hand_present());
        for index in 2..150 {
            frame(&mut resting, index);
        }
        // The arm gone, the board where it lay differs from the model.
        let later = frame(&mut view_of(&pieces), 150);
        assert!(!later.hand_present(), "{:?}", later.occluders);
    }

    #[test]
    fn a_hand_from_the_edge_is_an_occluder_not_a_piece() {
        let pieces = [placed(Piece::Black, 100.0, 100.0)];
        let mut view = view_of(&pieces);
        paint_arm(
            &mut view,
            [
                (-60.0, -480.0),
                (40.0, -480.0),
                (30.0, -250.0),
                (-50.0, -250.0),
            ],
        );
        let mut detector = detector().with_empty_board(&empty_board()).unwrap();
        let detections = detector.detect(&view, &[]).unwrap();
        // The piece lies on the arrow, whose ink matches it.
        assert_found(&detections.discs, &pieces, BLACK_ON_INK_TOLERANCE_MM);
        assert!(detections.hand_present());
        assert!(detections.is_occluded(Point2::new(-10.0, -300.0), 0.0));
        assert!(!detections.is_occluded(Point2::new(100.0, 100.0), 0.0));
        // The arm comes in over the south side: the south player's.
        assert_eq!(detections.hand_seats(), vec![Seat::South]);
    }

    #[test]
    fn a_break_hidden_by_the_hand_that_set_it_out_is_found_when_the_hand_leaves() {
        let pieces = break_arrangement(Seat::South);
        let mut covered = view_of(&pieces);
        paint_arm(
            &mut covered,
            [(-40.0, -480.0), (40.0, -480.0), (40.0, 20.0), (-40.0, 20.0)],
        );
        let mut detector = detector();
        let first = detector.detect(&covered, &[]).unwrap();
        assert!(
            !first.break_arrangement,
            "half the cluster is under the arm"
        );
        let mut clear = view_of(&pieces);
        clear.index = 30;
        clear.t = 1.0;
        let later = detector.detect(&clear, &[]).unwrap();
        assert!(later.break_arrangement);
        assert_found(&later.discs, &pieces, 0.01);
    }

    /// Paints a carromman-sized disc of `bgr` centred on `centre` (board mm).
    fn paint_disc(view: &mut Rectified, centre: Point2<f64>, bgr: [f64; 3]) {
        let px = view.frame.board_to_px(centre);
        imgproc::circle(
            &mut view.image,
            Point::new(px.x.round() as i32, px.y.round() as i32),
            (CARROMMAN_RADIUS_MM * SCALE).round() as i32,
            Scalar::new(bgr[0], bgr[1], bgr[2], 0.0),
            imgproc::FILLED,
            imgproc::LINE_8,
            0,
        )
        .unwrap();
    }

    /// The drawn board's luma as `detector` measures it, a light tone and
    /// a light grey-brown (BGR) as clip 3445's whites and blacks read
    /// against it.
    fn clip_3445_tones(detector: &Detector) -> (f64, [f64; 3], [f64; 3]) {
        let board = detector.bytes_of(&view_of(&[]).image, 0).unwrap().to_vec();
        let board_luma = detector.surface_luma(&board, detector.side as usize);
        let light = [1.3, 1.35, 1.45].map(|f| (f * board_luma).min(255.0));
        let grey_brown = [0.40, 0.45, 0.62].map(|f| f * board_luma);
        (board_luma, light, grey_brown)
    }

    /// The break arrangement for `seat` with its whites repainted `white`
    /// and its blacks `black` (BGR).
    fn break_painted(seat: Seat, white: [f64; 3], black: [f64; 3]) -> Rectified {
        let pieces = break_arrangement(seat);
        let mut view = view_of(&pieces);
        for placed in pieces.iter().filter(|p| p.piece != Piece::Queen) {
            let bgr = if placed.piece == Piece::White {
                white
            } else {
                black
            };
            paint_disc(&mut view, placed.centre, bgr);
        }
        view
    }

    #[test]
    fn a_break_whose_blacks_the_models_misread_is_found_by_its_two_tones() {
        // Clip 3445: under a dim lamp the blacks were a light grey-brown,
        // nearer the natural-wood model than the black one, and only 14
        // of the 19 spots read their colour: the break was never found.
        let mut detector = detector();
        let (board_luma, light, grey_brown) = clip_3445_tones(&detector);
        let misread = detector
            .models
            .classify(
                &ColourSample::from_bgr(grey_brown, board_luma),
                &CARROMMAN_CLASSES,
            )
            .unwrap();
        assert_eq!(
            misread.0,
            Piece::White,
            "the models must misread the blacks for this test"
        );
        let view = break_painted(Seat::West, light, grey_brown);
        let detections = detector.detect(&view, &[]).unwrap();
        assert!(detections.break_arrangement);
        assert_found(&detections.discs, &break_arrangement(Seat::West), 0.01);
    }

    #[test]
    fn a_pack_split_by_lightness_needs_every_white_lighter_than_every_black() {
        let mut detector = detector();
        let (_, light, grey_brown) = clip_3445_tones(&detector);
        let mut view = break_painted(Seat::West, light, grey_brown);
        let white = break_arrangement(Seat::West)
            .into_iter()
            .find(|p| p.piece == Piece::White)
            .unwrap();
        paint_disc(&mut view, white.centre, grey_brown);
        let detections = detector.detect(&view, &[]).unwrap();
        assert!(!detections.break_arrangement);
    }

    #[test]
    fn the_board_alone_reads_as_no_break() {
        let mut detector = detector();
        let detections = detector.detect(&view_of(&[]), &[]).unwrap();
        assert!(!detections.break_arrangement);
    }

    #[test]
    fn break_spots_split_by_lightness_only_when_every_white_is_the_lighter() {
        use Piece::{Black, White};
        let spots = [(White, 1.2), (White, 1.0), (Black, 0.5), (Black, 0.4)];
        assert_eq!(whites_lighter_than_blacks(&spots), Some(2.0));
        let overlapping = [(White, 1.2), (White, 0.45), (Black, 0.5), (Black, 0.4)];
        assert_eq!(whites_lighter_than_blacks(&overlapping), None);
        assert_eq!(whites_lighter_than_blacks(&[(White, 1.0)]), None);
    }

    #[test]
    fn two_dark_kinds_of_carromman_read_as_black_are_split_by_redness() {
        // The real product photograph with coins: its discs over plain wood
        // read as black, by (relative luma, redness, blueness): black ones
        // and dark-brown ones; one disc (the striker) read as white.
        let blacks = [
            [0.14, -0.24, 0.27],
            [0.15, -0.24, 0.08],
            [0.17, -0.0, 0.05],
            [0.17, -0.11, 0.05],
            [0.19, -0.05, -0.01],
            [0.24, -0.02, 0.0],
            [0.24, -0.04, 0.04],
            [0.26, -0.0, -0.0],
        ];
        let browns = [
            [0.22, 0.85, -0.32],
            [0.24, 0.74, -0.2],
            [0.25, 0.93, -0.26],
            [0.27, 0.66, -0.21],
            [0.27, 0.7, -0.26],
            [0.28, 0.59, -0.18],
            [0.28, 0.59, -0.2],
            [0.32, 0.49, -0.22],
            [0.32, 0.58, -0.18],
            [0.33, 0.63, -0.21],
            [0.36, 0.62, -0.19],
        ];
        let sample = |features: &[f64; 3]| ColourSample {
            features: *features,
        };
        let dark: Vec<ColourSample> = blacks.iter().chain(&browns).map(sample).collect();
        let split = split_dark_pieces(&dark, 1).expect("two kinds");
        assert!(split.lighter[1] > 0.6 && split.darker[1] < 0.0, "{split:?}");
        assert!(split.lighter[0] > split.darker[0], "{split:?}");
        let models = {
            let mut models = ColourModels::shipped().unwrap();
            models.set_mean(Piece::White, split.lighter);
            models.set_mean(Piece::Black, split.darker);
            models
        };
        let read = |features: &[f64; 3]| models.classify(&sample(features), &CARROMMAN_CLASSES);
        assert!(browns.iter().all(|f| read(f).unwrap().0 == Piece::White));
        assert!(blacks.iter().all(|f| read(f).unwrap().0 == Piece::Black));
        // Whites seen beside them: the board's whites are not dark.
        assert_eq!(split_dark_pieces(&dark, 3), None);
        // Nine or fewer "blacks" say nothing.
        let nine: Vec<ColourSample> = blacks.iter().chain(&browns[..1]).map(sample).collect();
        assert_eq!(split_dark_pieces(&nine, 0), None);
        // A render's warm blacks beside near-black specks (clip 2796): one
        // kind of carromman and junk, the "lighter" group darker than any
        // white.
        let render: Vec<ColourSample> = [
            [0.18, 0.74, -0.32],
            [0.16, 0.72, -0.24],
            [0.16, 0.68, -0.38],
            [0.17, 0.9, -0.48],
            [0.18, 0.68, -0.29],
            [0.17, 0.89, -0.17],
            [0.17, 0.79, -0.34],
            [0.19, 0.67, -0.17],
            [0.09, 0.1, -0.84],
            [0.09, 0.13, -0.67],
            [0.08, -0.06, -1.15],
            [0.09, 0.07, -0.81],
            [0.09, 0.07, -0.82],
        ]
        .iter()
        .map(sample)
        .collect();
        assert_eq!(split_dark_pieces(&render, 1), None);
        // One colour's scatter, however wide, is not two kinds: redness
        // spread evenly from -0.3 to 0.9.
        let one_colour: Vec<ColourSample> = (0..19)
            .map(|i| sample(&[0.25, -0.3 + 1.2 * f64::from(i) / 18.0, -0.1]))
            .collect();
        assert_eq!(split_dark_pieces(&one_colour, 0), None);
    }

    #[test]
    fn the_striker_threshold_follows_how_large_carrommen_measure() {
        // Carrommen measuring 18.0-18.8 mm in radius (2.5-3.3 mm over their
        // true 15.5), one striker at 23.6: a threshold fixed halfway between
        // the true sizes (18.1) would take half the carrommen for strikers.
        let mut bias = RadiusBias::new(0.5);
        let fixed = (CARROMMAN_RADIUS_MM + STRIKER_RADIUS_MM) / 2.0;
        assert!(bias.striker_threshold_mm() > fixed);
        let frame = [18.0, 18.4, 18.8, 18.4, 18.0, 18.4, 18.8, 23.6];
        for _ in 0..50 {
            bias.learn(frame.iter().copied());
        }
        let threshold = bias.striker_threshold_mm();
        assert!(frame[..7].iter().all(|&r| r < threshold), "{threshold}");
        assert!(23.6 >= threshold, "{threshold}");
        assert!(18.4 >= fixed, "the fixed threshold would fail here");
    }

    #[test]
    fn a_striker_is_judged_against_the_carrommen_of_its_colour() {
        // Dark pieces measure over their true radius (shadow, blurred rim),
        // light ones under it (their rim matches a light board): blacks at
        // 17.6 mm, whites at 14.0, as on a render. A whitish striker at rest
        // measuring like a white (19.2 mm) falls under the threshold of all
        // discs, which cannot go below a pixel over the nominal sizes.
        let mut biases = RadiusBiases::new(0.5);
        let whites = [14.0, 13.2, 14.4, 14.0, 15.2, 13.6, 14.0, 12.8, 16.0];
        let blacks = [17.6, 17.6, 18.0, 17.2, 17.6, 16.8, 17.6, 17.6, 18.4];
        let frame: Vec<(f64, Piece)> = whites
            .iter()
            .map(|&r| (r, Piece::White))
            .chain(blacks.iter().map(|&r| (r, Piece::Black)))
            .chain([(19.2, Piece::White)])
            .collect();
        for _ in 0..50 {
            biases.learn(frame.iter().copied());
        }
        let all = biases.all.striker_threshold_mm();
        assert!(19.2 < all, "{all}: the threshold of all discs misses it");
        let white = biases.striker_threshold_mm(Piece::White);
        assert!(19.2 >= white, "{white}");
        assert!(whites.iter().all(|&r| r < white), "{white}");
        let black = biases.striker_threshold_mm(Piece::Black);
        assert!(blacks.iter().all(|&r| r < black), "{black}");
        assert!(black <= all);
        // The Queen, one of a kind, has no median of its own.
        assert_eq!(biases.striker_threshold_mm(Piece::Queen), all);
    }

    #[test]
    fn few_or_small_discs_do_not_lower_the_striker_threshold_and_it_stays_bounded() {
        let mut bias = RadiusBias::new(0.5);
        let start = bias.striker_threshold_mm();
        // A striker and a hand's fragment: not enough carrommen to judge by.
        bias.learn([23.0, 30.0].into_iter());
        assert_eq!(bias.striker_threshold_mm(), start);
        // Discs measuring small (partly missed, or a printed design) do not
        // pull it below a pixel over the nominal sizes.
        for _ in 0..500 {
            bias.learn([11.0, 11.5, 12.0, 10.5, 11.0, 12.5, 17.0, 22.0].into_iter());
        }
        assert_eq!(bias.striker_threshold_mm(), start);
        // Absurd sizes (a wrong scale) move it at most 3 px (6 mm at 0.5 px/mm).
        for _ in 0..500 {
            bias.learn([60.0; 8].into_iter());
        }
        let fixed = (CARROMMAN_RADIUS_MM + STRIKER_RADIUS_MM) / 2.0;
        assert!((bias.striker_threshold_mm() - (fixed + 6.0)).abs() < 1e-6);
    }

    #[test]
    fn a_resting_piece_is_still_there_until_something_changes_over_it() {
        let pieces = [placed(Piece::White, -120.0, 80.0)];
        let mut detector = detector().with_empty_board(&empty_board()).unwrap();
        let known = [KnownDisc {
            centre: pieces[0].centre,
            radius_mm: CARROMMAN_RADIUS_MM,
            piece: Piece::White,
            tag: 7,
            at_rest: true,
            velocity: Vector2::zeros(),
        }];
        detector.detect(&view_of(&pieces), &known).unwrap();
        let still = detector.detect(&view_of(&pieces), &known).unwrap();
        assert_eq!(still.still_there, vec![7]);
        let gone = detector.detect(&view_of(&[]), &known).unwrap();
        assert!(gone.still_there.is_empty(), "it moved away");
    }

    #[test]
    fn a_resting_piece_that_long_stops_looking_itself_is_gone() {
        let mut looks = RestLooks::default();
        let at = |x: f64| KnownDisc {
            centre: Point2::new(x, 0.0),
            radius_mm: CARROMMAN_RADIUS_MM,
            piece: Piece::White,
            tag: 4,
            at_rest: true,
            velocity: Vector2::zeros(),
        };
        let white = [200.0, 205.0, 210.0];
        let petal = [40.0, 30.0, 150.0];
        // Its own looks, however long, and a passing blur: still the piece.
        for _ in 0..60 {
            assert!(looks.update(&[at(0.0)], |_| white).is_empty());
        }
        for _ in 0..REST_LOOK_FRAMES - 1 {
            assert!(looks.update(&[at(0.0)], |_| petal).is_empty());
        }
        assert!(looks.update(&[at(0.0)], |_| white).is_empty());
        // The drawing where it lay (a few mm off), frame after frame: gone.
        for _ in 0..REST_LOOK_FRAMES - 1 {
            assert!(looks.update(&[at(6.0)], |_| petal).is_empty());
        }
        assert_eq!(looks.update(&[at(6.0)], |_| petal), vec![4]);
        // Come to rest a radius and more away, it is looked at afresh.
        for _ in 0..2 * REST_LOOK_FRAMES {
            assert!(looks.update(&[at(40.0)], |_| petal).is_empty());
        }
    }

    #[test]
    fn the_distance_transform_in_the_foregrounds_boxes_equals_the_whole_views() {
        let mut detector = detector();
        let side = detector.side;
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut below = |n: i32| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as i32
        };
        let mut most_boxes = 0;
        // The same detector throughout: each round's boxes must also clear
        // the last round's.
        for round in 0..12 {
            let mut mask =
                Mat::new_rows_cols_with_default(side, side, CV_8U, Scalar::all(0.0)).unwrap();
            let white = Scalar::all(255.0);
            // Pieces scattered and touching, some at the view's edges, and
            // an arm or a row of them.
            for _ in 0..below(30) {
                let centre = Point::new(below(side), below(side));
                imgproc::circle(
                    &mut mask,
                    centre,
                    3 + below(10),
                    white,
                    -1,
                    imgproc::LINE_8,
                    0,
                )
                .unwrap();
            }
            for _ in 0..below(3) {
                let (x, y) = (below(side) - 20, below(side) - 20);
                let area = core::Rect::new(x, y, 5 + below(150), 5 + below(150));
                imgproc::rectangle(&mut mask, area, white, -1, imgproc::LINE_8, 0).unwrap();
            }
            let mut whole = Mat::default();
            imgproc::distance_transform(
                &mask,
                &mut whole,
                imgproc::DIST_L2,
                imgproc::DIST_MASK_5,
                CV_32F,
            )
            .unwrap();
            detector.opened = mask;
            detector.measure_thickness().unwrap();
            most_boxes = most_boxes.max(detector.distance_boxes.len());
            let boxed = detector.distance.data_typed::<f32>().unwrap();
            let whole = whole.data_typed::<f32>().unwrap();
            assert!(
                boxed
                    .iter()
                    .zip(whole)
                    .all(|(a, b)| a.to_bits() == b.to_bits()),
                "round {round}: distances differ"
            );
        }
        assert!(most_boxes >= 10, "never more than {most_boxes} boxes");
    }

    #[test]
    fn foreground_boxes_hold_every_pixel_and_stay_apart() {
        let side = 64;
        let mut mask = vec![0u8; side * side];
        // An L of tiles round a tile that touches none of them, whose box
        // lies within the L's: one box. One pixel far off, one in the last
        // corner.
        let l_and_inside = [(4, 4), (12, 4), (20, 4), (20, 12), (20, 20), (4, 20)];
        for (x, y) in l_and_inside.into_iter().chain([(50, 40), (63, 63)]) {
            mask[y * side + x] = 255;
        }
        let mut tiles = Vec::new();
        let mut boxes = foreground_boxes(&mask, side, 2, &mut tiles);
        boxes.sort();
        assert_eq!(
            boxes,
            vec![(0, 0, 26, 26), (46, 38, 58, 50), (54, 54, 64, 64)]
        );
        assert!(foreground_boxes(&[0; 64 * 64], side, 2, &mut tiles).is_empty());
    }

    #[test]
    fn a_view_without_a_board_is_refused() {
        let frame = TemplateFrame::for_scale(SCALE).unwrap();
        let side = frame.side_px();
        let grey =
            Mat::new_rows_cols_with_default(side, side, core::CV_8UC3, Scalar::all(128.0)).unwrap();
        let view = Rectified {
            index: 42,
            t: 1.4,
            image: grey,
            frame,
        };
        let error = detector()
            .detect(&view, &[])
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            error.starts_with("frame 42 shows no carrom board"),
            "{error}"
        );
    }
}
