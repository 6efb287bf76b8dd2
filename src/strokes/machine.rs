//! The stroke state machine, driven by tracks frame by frame:
//! waiting → striker placed on a seat's base lines → struck (the striker
//! starts moving, or, the striker unseen, a resting piece shoots off) → in
//! motion → at rest, with every pocketing, piece off the board and late
//! pocketing attached to its stroke.

use std::collections::HashMap;
use std::collections::VecDeque;

use nalgebra::{Point2, Point3, Vector2};
use opencv::core::Mat;
use serde::Serialize;

use super::flights::{Flight, FlightLog, FrameCrossing};
use crate::calibrate::gray::GrayImage;
use crate::contract::{OnBoard, OverboardPiece, PocketedPiece, Stroke};
use crate::detect::flight::FrameSighting;
use crate::detect::refine::{fit_outline_near, fit_outline_of, outline_near, FittedOutline};
use crate::detect::shake::Shift;
use crate::detect::{stand_on_the_board, TopView};
use crate::geometry::segment_distance;
use crate::geometry::spec::{
    BASE_BAND_NEAR_EDGE_FROM_CENTRE_MM, BLACK_CARROMMEN, CARROMMAN_RADIUS_MM, HALF_SURFACE_MM,
    POCKET_RADIUS_MM, STRIKER_DIAMETER, STRIKER_RADIUS_MM, WHITE_CARROMMEN,
};
use crate::geometry::{
    break_arrangement, nearest_pocket, pocket_centre, pocket_on_the_way, rotate_from_seat,
    rotate_vector_to_seat, seat_at, seat_markings, striker_placement, take_piece, Piece, Placement,
    Pocket, Seat,
};
use crate::track::blur::{self, Step};
use crate::track::{stops_short_of_a_hole_from, Track, TrackEvent, TrackFrame, TrackId};

/// Tuning of the stroke machine.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StrokeMachineOptions {
    /// Below this speed (mm/s) a piece is at rest.
    pub rest_speed: f64,
    /// Above this speed (mm/s) a placed striker has been struck.
    pub strike_speed: f64,
    /// Above this speed (mm/s) a piece other than the striker has been hit.
    pub hit_speed: f64,
    /// Frames everything must be at rest before a stroke is over.
    pub rest_frames: u32,
    /// Frames a striker must lie still on a seat's base lines to be placed.
    pub placement_frames: u32,
    /// A piece vanishing within this distance (mm) of a pocket's edge fell in.
    pub pocket_reach_mm: f64,
    /// A piece vanishing heading this far (mm) inside the surface's edge
    /// left it; negative: beyond the edge, where a piece on the board
    /// cannot be (a bounce off the frame turns back first).
    pub edge_reach_mm: f64,
}

impl Default for StrokeMachineOptions {
    fn default() -> StrokeMachineOptions {
        StrokeMachineOptions {
            rest_speed: 40.0,
            strike_speed: 250.0,
            hit_speed: 120.0,
            rest_frames: 12,
            placement_frames: 3,
            pocket_reach_mm: 2.0 * POCKET_RADIUS_MM,
            edge_reach_mm: -CARROMMAN_RADIUS_MM,
        }
    }
}

/// Something the vision noticed about a stroke, kept in the stroke log's
/// `extra.vision` for people and tools to review.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VisionNote {
    /// Seconds from the start of the clip.
    pub t: f64,
    /// What was seen, in words.
    pub message: String,
}

/// What the vision adds to a stroke beyond the contract's fields.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct VisionExtra {
    /// The striker's placement verdict (ICF 130), when it was seen placed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placement: Option<Placement>,
    /// The clip began with this stroke already under way.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub began_mid_stroke: bool,
    /// The clip ended before this stroke came to rest.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub ended_mid_stroke: bool,
    /// Pieces seen on the board when the striker was struck.
    pub seen_before: SeenCount,
    /// Disagreements and oddities, with their times.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub alerts: Vec<VisionNote>,
    /// Where every piece lay when the stroke came to rest (absent when the
    /// clip ended first).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rest: Option<RestSnapshot>,
    /// Pieces seen leaving over the frame that the count at rest seemed to
    /// disprove, kept until the pieces at rest have been looked at on the
    /// camera frame (see [`StrokeMachine::outlines_looked_at`]).
    #[serde(skip)]
    doubted_overboard: Vec<OverboardPiece>,
    /// Discs seen in flight over the frame, with no departure seen, that
    /// the count at rest left unnamed (it missed no one kind of
    /// carromman), kept as [`Self::doubted_overboard`] is: the striker
    /// found by its size where the tracker had a carromman may name one.
    #[serde(skip)]
    doubted_flights: Vec<Flight>,
    /// Whether the stroke was read from a carromman that shot off, the
    /// striker never seen: where none is found at rest either, one of the
    /// discs counted at rest is the striker.
    #[serde(skip)]
    striker_unseen: bool,
    /// "Strikers" seen going in (when, s) that had followed a carromman
    /// lost from sight mid-board, and that carromman's kind: the piece they
    /// were if the striker rests on the board at the end.
    #[serde(skip)]
    striker_twins_going_in: Vec<(f64, Piece)>,
    /// Carrommen seen going in (when, s) on the track of a disc read as a
    /// carromman that was taken for the struck striker: the striker itself
    /// where it rests nowhere at the end.
    #[serde(skip)]
    read_as_a_carromman_striker_going_in: Vec<f64>,
    /// Carrommen seen going in (when, s) that the count at rest did not
    /// miss, kept as seen: the striker, where it is found at rest neither
    /// by its track nor by its size, and its track was lost on the way to
    /// that pocket (see [`StrokeMachine::outlines_looked_at`]).
    #[serde(skip)]
    kept_against_the_count: Vec<f64>,
    /// Where and when (s) the striker's track was lost from sight
    /// mid-board, not heading into a pocket, during the stroke.
    #[serde(skip)]
    striker_lost_mid_board: Vec<(Point2<f64>, f64)>,
    /// The carrommen lost from sight mid-board during the stroke and not
    /// found again (kind, where last seen, when): one of them may have gone
    /// in under a track born on its blur, in another colour.
    #[serde(skip)]
    lost_from_sight: Vec<(Piece, Point2<f64>, f64)>,
    /// The kinds of the tracks dropped as prints while the stroke settled:
    /// each may have been a piece that barely moved where the print lies,
    /// which the count at rest then misses.
    #[serde(skip)]
    prints_dropped: Vec<Piece>,
    /// Pocketings never seen and judged on the weakest evidence of a
    /// departure, which the count at rest outweighs (see
    /// [`reconcile_exits`]).
    #[serde(skip)]
    weakly_inferred: Vec<WeakPocketing>,
    /// Departures over the frame never seen, judged on the weakest
    /// evidence, which only the count at rest can confirm (see
    /// [`LostBehindTheLines`]).
    #[serde(skip)]
    lost_behind_the_lines: Vec<LostBehindTheLines>,
    /// The pieces the laws had on the board when the stroke was struck,
    /// where the caller keeps the score (see
    /// [`StrokeMachine::laws_count_at_strike`]).
    #[serde(skip)]
    laws_before: Option<SeenCount>,
    /// The discs seen over the frame while it was watched, and the
    /// departures over it recorded (see [`super::flights`]).
    #[serde(skip)]
    flights: FlightLog,
}

impl VisionExtra {
    /// How many tracks of `piece`'s kind were dropped as prints in the
    /// stroke.
    fn prints_dropped_of(&self, piece: Piece) -> usize {
        self.prints_dropped.iter().filter(|&&q| q == piece).count()
    }
}

/// The pieces seen at the moment a stroke came to rest, for checking rest
/// positions against ground truth and for review.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RestSnapshot {
    /// Index of the frame the stroke was declared at rest in.
    pub frame: u64,
    /// Seconds from the start of the clip.
    pub t: f64,
    /// Every confirmed piece and where it lies, board mm.
    pub pieces: Vec<RestingPiece>,
    /// How many of them were placed by their outline in the camera frame
    /// rather than by their track (see `detect::refine`).
    #[serde(skip_serializing_if = "is_zero")]
    pub refined: u32,
    /// Each piece's centre as its track has it (through the board plane's
    /// mapping, before standing it on the board), where refining starts.
    #[serde(skip)]
    seen: Vec<Point2<f64>>,
    /// What the tracker had the striker as, where no track of the striker
    /// rested on the board and one carromman's outline measured a
    /// striker's size (see [`RestSnapshot::refine`]): the count at rest
    /// counted it as one of that kind.
    #[serde(skip)]
    striker_counted_as: Option<Piece>,
    /// The radius (mm) the outline of the striker's own track measured
    /// here, where one rested on the board and its outline was fitted.
    #[serde(skip)]
    striker_outline_mm: Option<f64>,
}

/// The largest outline at rest is the striker's when it measures this much
/// (mm) over the median outline, and [`STRIKER_OVER_THE_NEXT_MM`] over the
/// next largest: a striker of 38–41.3 mm against carrommen of 30.2–31.8.
/// On the dev clips' rests without a striker track, the median's margin
/// alone let a carromman by a print or the board's line through (1 of 88);
/// the next's and [`OUTLINES_AGREE_MM`] keep them out.
const STRIKER_OVER_THE_MEDIAN_MM: f64 = 1.3;
const STRIKER_OVER_THE_NEXT_MM: f64 = 0.8;

/// The outline looked for at the striker's size must come out within this
/// (mm) of the one looked for at a carromman's: the same edge, not a
/// neighbour's or a print's farther out.
const OUTLINES_AGREE_MM: f64 = 1.0;

/// Where the striker's own outline was measured at rest before (the
/// median of those measurements), one found by its size measures within
/// this (mm) of it: over the dev clips the striker's own measurements
/// varied by a median 0.2 mm within a clip, and the carrommen taken for it
/// measured 0.9-1.6 mm off.
const STRIKER_SIZE_KNOWN_WITHIN_MM: f64 = 1.2;

/// How much larger (mm) than the largest striker the laws admit a
/// striker's outline may measure: dark pieces' outlines come out about a
/// millimetre over their size (clip 6341: blacks, 15.1-15.9 mm by the
/// laws, measured 16.5-16.9 mm at rest).
const OUTLINE_OVER_THE_LAWS_MM: f64 = 2.0;

/// The striker's track lost from sight mid-board this near (mm) a pocket
/// a carromman the count at rest does not miss was seen going into...
const STRIKER_LOST_ON_ITS_WAY_MM: f64 = 200.0;

/// ...and this near in time (s) to it went in with it, followed as that
/// carromman (see [`StrokeMachine::outlines_looked_at`]).
const STRIKER_LOST_ON_ITS_WAY_S: f64 = 0.3;

/// Fewer outlines measured than this and there is no median to judge by.
const STRIKER_BY_SIZE_MIN_OUTLINES: usize = 5;

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// One piece at rest.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RestingPiece {
    /// The piece.
    pub piece: Piece,
    /// Centre, board mm (east).
    pub x: f64,
    /// Centre, board mm (north).
    pub y: f64,
    /// No disc's outline was found round it on the camera frame (see
    /// [`outline_near`]): a print on the board or a shadow may have been
    /// taken for a piece, or a hand or a neighbour hides the outline.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub no_outline: bool,
}

impl RestSnapshot {
    /// The confirmed tracks of `frame`, as resting pieces: where they stand
    /// on the board as seen from `viewpoint` (the camera's centre, board
    /// mm) when it is known, else where the board plane's mapping puts them.
    pub fn of(frame: &TrackFrame, viewpoint: Option<Point3<f64>>) -> RestSnapshot {
        RestSnapshot {
            frame: frame.index,
            t: frame.t,
            pieces: frame
                .tracks
                .iter()
                .map(|track| {
                    let at = viewpoint.map_or(track.position, |viewpoint| {
                        stand_on_the_board(track.position, viewpoint)
                    });
                    RestingPiece::at(track.piece, at)
                })
                .collect(),
            refined: 0,
            seen: frame.tracks.iter().map(|track| track.position).collect(),
            striker_counted_as: None,
            striker_outline_mm: None,
        }
    }

    /// Places each piece again by its outline in the camera `frame` the
    /// snapshot was taken on (see [`fit_outline_of`]); a piece whose
    /// outline cannot be trusted keeps its track's place. Where no track
    /// of the striker rests on the board, the carromman whose outline
    /// measures a striker's size is the striker (the tracker can carry a
    /// carromman's identity onto the striker that struck it and stopped
    /// beside its spot).
    pub fn refine(
        &mut self,
        frame: &Mat,
        top_view: &TopView,
        shift: Shift,
        viewpoint: Option<Point3<f64>>,
        striker_measured_mm: Option<f64>,
    ) {
        let Ok(grey) = GrayImage::from_frame(frame, 0.0) else {
            return;
        };
        // Only where no striker rests on the board is one looked for among
        // the pieces by its size (see below).
        let striker_sought = self.pieces.iter().all(|p| p.piece != Piece::Striker);
        let mut outlines = vec![None; self.pieces.len()];
        for ((resting, &seen), fitted) in self.pieces.iter_mut().zip(&self.seen).zip(&mut outlines)
        {
            let Some(outline) =
                fit_outline_of(&grey, top_view, shift, seen, resting.piece.radius_mm())
            else {
                // The striker followed as a carromman may be too large for
                // a carromman's outline to be fitted (a 41.3 mm one is), or
                // followed off its centre: its own size is measured, round
                // the track's place, for finding it.
                if striker_sought {
                    *fitted = fit_outline_near(&grey, top_view, shift, seen, STRIKER_RADIUS_MM);
                }
                // A piece whose centre the track has a little off (a
                // neighbour or a print beside it drew it) keeps its track's
                // place, but its outline is there: it is no print. (An
                // outline measured at the striker's size is one already;
                // where it was looked for, none was found at that size
                // round the track, so only a carromman's size is left.)
                let sizes_left: &[f64] = if striker_sought {
                    &[CARROMMAN_RADIUS_MM]
                } else {
                    &[CARROMMAN_RADIUS_MM, STRIKER_RADIUS_MM]
                };
                resting.no_outline =
                    fitted.is_none() && !outline_near(&grey, top_view, shift, seen, sizes_left);
                continue;
            };
            *fitted = Some(outline);
            if resting.piece == Piece::Striker && !over_a_base_circle(outline.centre) {
                self.striker_outline_mm = Some(outline.radius_mm);
            }
            let at = viewpoint.map_or(outline.centre, |v| stand_on_the_board(outline.centre, v));
            *resting = RestingPiece::at(resting.piece, at);
            self.refined += 1;
        }
        if striker_sought {
            self.find_the_striker_by_size(
                &grey,
                top_view,
                shift,
                viewpoint,
                &outlines,
                striker_measured_mm,
            );
        }
    }

    /// Takes the piece whose outline (`outlines`, one per piece) stands out
    /// as a striker's by its radius for the striker; called only where no
    /// striker rests on the board.
    fn find_the_striker_by_size(
        &mut self,
        grey: &GrayImage,
        top_view: &TopView,
        shift: Shift,
        viewpoint: Option<Point3<f64>>,
        outlines: &[Option<FittedOutline>],
        striker_measured_mm: Option<f64>,
    ) {
        let mut measured: Vec<(usize, FittedOutline)> = outlines
            .iter()
            .enumerate()
            .filter_map(|(k, outline)| outline.map(|o| (k, o)))
            .filter(|(_, outline)| !over_a_base_circle(outline.centre))
            .collect();
        // An outline larger than any striker is no piece's edge, and would
        // hide the striker's own behind it (clip 6341: a white on the
        // centre circle's ring measured 23.2 mm, the striker beside it
        // 18.4 mm, where the striker had measured 18.3 mm at rest before).
        // The median is taken over the pieces' outlines only.
        let largest_a_striker_measures = striker_measured_mm.map_or(
            STRIKER_DIAMETER.max / 2.0 + OUTLINE_OVER_THE_LAWS_MM,
            |known| known + STRIKER_SIZE_KNOWN_WITHIN_MM,
        );
        measured.retain(|(_, outline)| outline.radius_mm <= largest_a_striker_measures);
        if measured.len() < STRIKER_BY_SIZE_MIN_OUTLINES {
            return;
        }
        measured.sort_by(|a, b| b.1.radius_mm.total_cmp(&a.1.radius_mm));
        let (largest, outline) = measured[0];
        let radius = outline.radius_mm;
        let next = measured[1].1.radius_mm;
        let median = measured[measured.len() / 2].1.radius_mm;
        if radius - median < STRIKER_OVER_THE_MEDIAN_MM || radius - next < STRIKER_OVER_THE_NEXT_MM
        {
            return;
        }
        // Fitted again from the outline's own centre and size: the track's
        // centre may lie too far off for the ring (clip 2895: 6 mm), and a
        // striker may be as small as the ICF allows (38 mm), too small for a
        // ring sized for the largest (clip 3015: it measured 18.0 mm).
        let Some(again) = fit_outline_of(grey, top_view, shift, outline.centre, radius) else {
            return;
        };
        if (again.radius_mm - radius).abs() > OUTLINES_AGREE_MM {
            return;
        }
        // Clip 3617: the striker, measured at 19.3-19.5 mm at rest on the
        // board before, went into the SW pocket, and a black lying on the
        // east base lines measured 21.0 mm: the largest by far, but not the
        // striker's size.
        if striker_measured_mm
            .is_some_and(|known| (again.radius_mm - known).abs() > STRIKER_SIZE_KNOWN_WITHIN_MM)
        {
            return;
        }
        let at = viewpoint.map_or(again.centre, |v| stand_on_the_board(again.centre, v));
        self.striker_counted_as = Some(self.pieces[largest].piece);
        self.pieces[largest] = RestingPiece::at(Piece::Striker, at);
    }
}

/// Whether a piece centred at `at` (board mm) overlaps one of the eight
/// printed base circles: the circle's ring, of a carromman's size, then
/// stands out beyond the piece's edge on one side, and the outline fitted
/// round both measures a striker's size (clip 3299: a white 7 mm off a
/// circle's centre measured 19.4–20.6 mm, more than the striker beside it).
fn over_a_base_circle(at: Point2<f64>) -> bool {
    Seat::TURN_ORDER.iter().any(|&seat| {
        seat_markings(seat)
            .base_circles
            .iter()
            .any(|circle| (circle.centre - at).norm() < circle.radius + CARROMMAN_RADIUS_MM)
    })
}

impl RestingPiece {
    fn at(piece: Piece, at: Point2<f64>) -> RestingPiece {
        RestingPiece {
            piece,
            // Rounded to a hundredth of a mm: finer than any camera sees.
            x: (at.x * 100.0).round() / 100.0,
            y: (at.y * 100.0).round() / 100.0,
            no_outline: false,
        }
    }
}

/// How a track has moved lately, kept frame to frame by the stroke machine.
#[derive(Debug, Clone, Copy, Default)]
struct Motion {
    /// Frames it lay still and in sight before it last moved.
    still: u32,
    /// Frames it has moved since (the first frames of a launch read slower
    /// than the piece goes, so the still run is kept a little).
    moving: u32,
    /// Its velocity (mm/s) this frame and the frame before, where seen: a
    /// disc moving as a struck one does keeps its course and speed.
    velocity: Option<Vector2<f64>>,
    velocity_before: Option<Vector2<f64>>,
}

/// Pieces seen on the board, by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SeenCount {
    /// White carrommen.
    pub white: u32,
    /// Black carrommen.
    pub black: u32,
    /// Whether the Queen is seen.
    pub queen: bool,
}

impl SeenCount {
    /// The carrommen of the break arrangement (ICF 41).
    pub const BREAK: SeenCount = SeenCount {
        white: WHITE_CARROMMEN as u32,
        black: BLACK_CARROMMEN as u32,
        queen: true,
    };

    /// Counts the pieces among confirmed tracks.
    pub fn of(tracks: &[Track]) -> SeenCount {
        let count = |piece| tracks.iter().filter(|t| t.piece == piece).count() as u32;
        SeenCount {
            white: count(Piece::White),
            black: count(Piece::Black),
            queen: count(Piece::Queen) > 0,
        }
    }

    /// Whether fewer of `piece`'s kind are counted here than in `laws`
    /// (never for the striker, which the laws do not count).
    fn short_of(self, laws: SeenCount, piece: Piece) -> bool {
        match piece {
            Piece::White => self.white < laws.white,
            Piece::Black => self.black < laws.black,
            Piece::Queen => !self.queen && laws.queen,
            Piece::Striker => false,
        }
    }

    /// How many of `piece`'s kind are counted (the Queen as one or none,
    /// the striker, which the count leaves out, as none).
    fn of_kind(self, piece: Piece) -> u32 {
        match piece {
            Piece::White => self.white,
            Piece::Black => self.black,
            Piece::Queen => u32::from(self.queen),
            Piece::Striker => 0,
        }
    }

    /// Each kind's count, or `other`'s where it saw fewer.
    fn at_most(self, other: Option<SeenCount>) -> SeenCount {
        self.kind_by_kind(other, u32::min, |a, b| a && b)
    }

    /// Each kind's count, or `other`'s where it saw more.
    fn at_least(self, other: Option<SeenCount>) -> SeenCount {
        self.kind_by_kind(other, u32::max, |a, b| a || b)
    }

    /// The counts of each kind here and in `other` (if any) taken together
    /// by `count`, the Queen's by `queen`.
    fn kind_by_kind(
        self,
        other: Option<SeenCount>,
        count: fn(u32, u32) -> u32,
        queen: fn(bool, bool) -> bool,
    ) -> SeenCount {
        let Some(other) = other else {
            return self;
        };
        SeenCount {
            white: count(self.white, other.white),
            black: count(self.black, other.black),
            queen: queen(self.queen, other.queen),
        }
    }
}

impl From<OnBoard> for SeenCount {
    /// The pieces the laws have on the board, as a count.
    fn from(on_board: OnBoard) -> SeenCount {
        SeenCount {
            white: on_board.white,
            black: on_board.black,
            queen: on_board.queen,
        }
    }
}

/// A recognised stroke with the vision's own notes.
#[derive(Debug, Clone, PartialEq)]
pub struct SeenStroke {
    /// The stroke in the contract's terms.
    pub stroke: Stroke,
    /// What the vision adds.
    pub vision: VisionExtra,
}

impl SeenStroke {
    /// The contract stroke with the vision notes in `extra.vision`.
    pub fn into_stroke(mut self) -> Stroke {
        self.touch_from_carrommen_moved();
        let mut stroke = self.stroke;
        stroke.extra = serde_json::to_value(&self.vision)
            .ok()
            .map(|vision| serde_json::json!({ "vision": vision }));
        stroke
    }

    /// Only the striker sets carrommen and the Queen moving: one pocketed or
    /// off the board during the stroke means it touched, even where the touch
    /// itself was hidden (under the hand, or in a frame the striker was lost
    /// in). One that fell only after the stroke had ended may have fallen by
    /// itself, so it proves nothing.
    fn touch_from_carrommen_moved(&mut self) {
        if self.stroke.touched {
            return;
        }
        let went_in = self.stroke.pocketed.iter().filter(|p| !p.late);
        let moved = went_in
            .map(|p| (p.piece, p.t, "pocketed"))
            .chain(
                self.stroke
                    .overboard
                    .iter()
                    .map(|p| (p.piece, p.t, "off the board")),
            )
            .find(|&(piece, _, _)| piece != Piece::Striker);
        if let Some((piece, t, how)) = moved {
            self.stroke.touched = true;
            self.vision.alerts.push(VisionNote {
                t: t.or(self.stroke.t).unwrap_or(0.0),
                message: format!(
                    "the striker's touch was not seen; the {} {how} shows it touched",
                    piece.name()
                ),
            });
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Phase {
    /// No striker lies placed on a seat's base lines.
    Waiting { still_frames: u32 },
    /// The striker lies on a seat's base lines.
    Placed {
        seat: Seat,
        placement: Placement,
        rest_t: f64,
        /// The track that lies placed.
        striker: TrackId,
    },
    /// The striker has been struck; pieces are moving.
    Moving {
        striker: TrackId,
        at_rest_frames: u32,
    },
}

/// Reads strokes off a stream of [`TrackFrame`]s.
#[derive(Debug, Clone)]
pub struct StrokeMachine {
    options: StrokeMachineOptions,
    phase: Phase,
    current: Option<SeenStroke>,
    finished: Vec<SeenStroke>,
    frames_seen: u64,
    /// The tracks behind the current stroke's pieces off the board, in the
    /// order of its `overboard` list: one found again bounced back.
    overboard_tracks: Vec<LeftTheBoard>,
    /// The seat of the last lone arm seen over the board between strokes,
    /// and when (s): the player about to strike.
    hand_seat: Option<(Seat, f64)>,
    /// When (s) each seat's arm was last seen over the board between
    /// strokes, alone or with another's.
    arm_seen: HashMap<Seat, f64>,
    /// When (s) each seat's arm was last seen over the board, strokes
    /// under way included.
    arm_over_the_board: HashMap<Seat, f64>,
    /// The camera's centre, board mm, where known: rest positions are
    /// reported where the pieces stand on the board.
    viewpoint: Option<Point3<f64>>,
    /// The most pieces of each kind counted in a frame since the last
    /// stroke came to rest: pieces are only ever added between strokes,
    /// while a stroke recognised late (its striker unseen, a carromman
    /// shooting off) starts where the pieces have already scattered and
    /// some are lost in the blur, and pieces lying under an arm are dropped
    /// by the tracker (clip 2819's break: 7 white and 7 black seen at the
    /// start for 9 and 9).
    most_seen_since_rest: Option<SeenCount>,
    /// The break arrangement was found set out and no stroke has come to
    /// rest since: the board holds exactly its carrommen, whatever the
    /// tracks' colours and the frame the break is first seen moving in say
    /// (the striker born in its blur as a carromman, a white read as a
    /// black: 129 of 368 dev clips counted the break's board wrong, and a
    /// count one too high lets a phantom departure of that kind stand).
    set_out_for_the_break: bool,
    /// The seat of the last arm seen over the board between strokes, however
    /// long ago, and of the last placement: who is about to play when the
    /// striker itself is never seen.
    last_seat: Option<Seat>,
    /// Whether the current stroke's seat is only [`Self::last_seat`]: no
    /// striker, placement or single arm over the board showed who struck.
    seat_unsure: bool,
    /// Strokes (by number) whose seat, read as where nobody sits, was taken
    /// to be the one in turn, and the seat they were read as struck from.
    seats_overridden: Vec<(usize, Seat)>,
    /// Pieces of the current stroke lost from sight while they sped straight
    /// at a pocket, not yet found again.
    lost_towards_pocket: Vec<LostTowardsPocket>,
    /// Pieces lost speeding at a pocket and then "found again" where they
    /// were lost, each with the track that found it: kept aside in case
    /// that track is lost in its turn without ever leaving the spot.
    found_where_lost: Vec<(TrackId, LostTowardsPocket)>,
    /// Carrommen of the current stroke lost from sight away from pockets
    /// and edges with no hand about: kind, last seen (board mm), when (s).
    lost_mid_board: Vec<(Piece, Point2<f64>, f64)>,
    /// The carrommen lying on the board when the last stroke came to rest,
    /// where, and what their tracks read them as.
    lying_at_last_rest: Vec<(TrackId, Point2<f64>, Piece)>,
    /// Whether the current stroke's striker was seen behind its seat's base
    /// lines, on its cushion's side, soon after the strike: struck back.
    struck_back: bool,
    /// "Striker" tracks of the current stroke that followed a carromman
    /// lost from sight mid-board (see [`followed_the_same_piece`]), with
    /// that carromman's kind.
    striker_twins_of_lost: Vec<(TrackId, Piece)>,
    /// Carrommen of the current stroke lying still whose spot the striker's
    /// track, or a track born on its blur, ran over as they went unseen.
    taken_from_rest: Vec<TakenFromRest>,
    /// Whether the current stroke is read from a carromman that shot off,
    /// the striker unseen: its "striker" track is that carromman's own.
    read_from_a_carromman: bool,
    /// The track of a disc read as a carromman that the current stroke took
    /// for the struck striker, first seen speeding away from a seat's base
    /// lines ([`StrokeMachine::striker_taken_for_a_carromman`]), and not past
    /// a carromman on its way from them.
    striker_read_as_a_carromman: Option<TrackId>,
    /// The carromman whose launch started the stroke under way with no
    /// striker seen, the frame it was seen launched in, and its speed then
    /// (mm/s): one not seen again in the next frame was a flicker.
    unseen_launch: Option<(TrackId, u64, f64)>,
    /// Carrommen the current stroke's striker was lost from sight against,
    /// not yet judged at rest (see [`StoppedOnAPiece`]).
    stopped_on: Vec<StoppedOnAPiece>,
    /// Tracks that swapped pieces at a collision, each with the piece it
    /// has followed since ([`Self::note_swap_at_collision`]).
    swapped: HashMap<TrackId, Piece>,
    /// The tracks seen before the current stroke's strike: a track born
    /// since may be a second track on the striker's blur; one of these is a
    /// piece.
    tracks_at_strike: Vec<TrackId>,
    /// Pieces lying on a pocket's lip as the current stroke was struck
    /// (track, where): one still lying there at rest is not the piece that
    /// seemed to go in.
    on_lips_at_strike: Vec<(TrackId, Point2<f64>)>,
    /// Exits of the current stroke seen as a track vanishing while another
    /// track followed the same piece.
    shadowed: Vec<ShadowedExit>,
    /// The latest frame of the stroke under way in which every piece lay
    /// still, and how many such frames in a row led to it.
    last_still: Option<(TrackFrame, u32)>,
    /// Motion read as a stroke that left the pieces set out for the break,
    /// to be noted on the next stroke.
    set_out_motion: Option<VisionNote>,
    /// Pieces of the current stroke lost just after they were picked up
    /// flying at the frame, not yet judged off the board or back.
    flung: Vec<FlungAtTheFrame>,
    /// The track behind each pocketing of the current stroke, and when it
    /// went in (s): a twin that went in too is the same piece.
    pocketed_tracks: Vec<(TrackId, Piece, f64)>,
    /// Every track seen in the last few frames (seconds; id, centre in board
    /// mm, radius mm), newest last: what met a piece that left unseen.
    recent: VecDeque<Positions>,
    /// How each track has moved lately.
    motions: HashMap<TrackId, Motion>,
    /// The radii (mm) the striker's own outline measured at the rests so
    /// far where its track lay on the board, smallest first.
    striker_outlines_mm: Vec<f64>,
}

impl StrokeMachine {
    /// A machine waiting for the first placement.
    pub fn new(options: StrokeMachineOptions) -> StrokeMachine {
        StrokeMachine {
            options,
            phase: Phase::Waiting { still_frames: 0 },
            current: None,
            finished: Vec::new(),
            frames_seen: 0,
            overboard_tracks: Vec::new(),
            hand_seat: None,
            most_seen_since_rest: None,
            striker_outlines_mm: Vec::new(),
            set_out_for_the_break: false,
            last_seat: None,
            seat_unsure: false,
            seats_overridden: Vec::new(),
            lost_towards_pocket: Vec::new(),
            found_where_lost: Vec::new(),
            shadowed: Vec::new(),
            flung: Vec::new(),
            set_out_motion: None,
            last_still: None,
            pocketed_tracks: Vec::new(),
            lost_mid_board: Vec::new(),
            lying_at_last_rest: Vec::new(),
            struck_back: false,
            striker_twins_of_lost: Vec::new(),
            taken_from_rest: Vec::new(),
            read_from_a_carromman: false,
            striker_read_as_a_carromman: None,
            unseen_launch: None,
            stopped_on: Vec::new(),
            swapped: HashMap::new(),
            tracks_at_strike: Vec::new(),
            on_lips_at_strike: Vec::new(),
            recent: VecDeque::new(),
            motions: HashMap::new(),
            arm_seen: HashMap::new(),
            arm_over_the_board: HashMap::new(),
            viewpoint: None,
        }
    }

    /// Reports rest positions as seen from the camera at `viewpoint` (its
    /// centre in board mm), correcting for the pieces' height.
    pub fn see_from(&mut self, viewpoint: Option<Point3<f64>>) {
        self.viewpoint = viewpoint;
    }

    /// The camera's centre it reports rest positions as seen from.
    pub fn viewpoint(&self) -> Option<Point3<f64>> {
        self.viewpoint
    }

    /// The median radius (mm) the striker's own outline measured at the
    /// rests so far where its track lay on the board, if any did: what a
    /// piece taken for the striker by its size must measure.
    pub fn striker_measured_mm(&self) -> Option<f64> {
        let radii = &self.striker_outlines_mm;
        radii.get(radii.len() / 2).copied()
    }

    /// Strokes finished so far (a late pocketing may still be added to the last).
    pub fn finished(&self) -> &[SeenStroke] {
        &self.finished
    }

    /// The rest snapshot taken on frame `index`, where a stroke came to
    /// rest on it: the caller, who still holds that frame, may place the
    /// pieces more finely than the tracks do.
    pub fn rest_taken_on(&mut self, index: u64) -> Option<&mut RestSnapshot> {
        self.finished
            .last_mut()
            .and_then(|stroke| stroke.vision.rest.as_mut())
            .filter(|rest| rest.frame == index)
    }

    /// Takes back the count at rest's veto on pieces seen leaving over the
    /// frame, once the pieces at rest of the stroke that came to rest in
    /// frame `index` have been looked for on the camera frame
    /// ([`RestSnapshot::refine`]). Pieces leaving uncover the board under
    /// them, and a print there that the empty board's model never saw (the
    /// centre design under the break's circle) is then taken for pieces and
    /// counted. Such a piece shows no disc outline, so each new one without
    /// (not lying without one in the same spot after the stroke before,
    /// whose count it was already in) lets one departure of its kind seen
    /// over the frame stand, in time order; so does the striker found by
    /// its size where the tracker had it as a carromman (counted as one).
    /// Each does only once the count no longer holds more of the kind than
    /// the count before less the departures kept ([`CountSurplus`]).
    pub fn outlines_looked_at(&mut self, index: u64) {
        if let Some(radius) = self
            .finished
            .last()
            .and_then(|stroke| stroke.vision.rest.as_ref())
            .filter(|rest| rest.frame == index)
            .and_then(|rest| rest.striker_outline_mm)
        {
            // Kept in order, so the median asked for every frame is a
            // lookup.
            let at = self.striker_outlines_mm.partition_point(|&r| r < radius);
            self.striker_outlines_mm.insert(at, radius);
        }
        let Some((stroke, earlier)) = self.finished.split_last_mut() else {
            return;
        };
        let Some(rest) = stroke.vision.rest.as_ref().filter(|r| r.frame == index) else {
            return;
        };
        let mut striker_counted_as = rest.striker_counted_as;
        if let Some(piece) = striker_counted_as {
            stroke.vision.alerts.push(VisionNote {
                t: rest.t,
                message: format!(
                    "the striker at rest was followed as a {piece}: its outline measures a striker's size"
                ),
            });
            // Clip 2988: a second track on the striker's blur took the
            // white it struck and went into the SW pocket with it, while the
            // striker came to rest followed as a white.
            let swapped_in = missing_after_the_stroke(stroke, rest, piece);
            let pocketed = &mut stroke.stroke.pocketed;
            if let Some(i) = pocketed.iter().position(|p| p.piece == Piece::Striker) {
                let at = rest.pieces.iter().find(|p| p.piece == Piece::Striker);
                let at = at.map_or(String::new(), |p| {
                    format!(" at ({:.0}, {:.0}) mm", p.x, p.y)
                });
                let pocket = pocketed[i].pocket.map_or("a", |p| p.name());
                let t = pocketed[i].t.unwrap_or(rest.t);
                let message = if swapped_in {
                    // Clip 3299: the striker's track took the white it
                    // struck into the SW pocket, and the striker stopped
                    // followed as that white.
                    pocketed[i].piece = piece;
                    format!(
                        "the striker taken as going into the {pocket} pocket rests on the board{at}, followed as a {piece}, and the count at rest misses a {piece}: the {piece} went in"
                    )
                } else {
                    pocketed.remove(i);
                    format!(
                        "the striker taken as going into the {pocket} pocket rests on the board{at}: it did not go in"
                    )
                };
                stroke.vision.alerts.push(VisionNote { t, message });
            }
        }
        // A carromman seen going in that the count at rest does not miss,
        // where no striker rests on the board, by its track or by its
        // size, and the striker's track was lost from sight on the way to
        // that pocket as it went in: the striker went in, followed as that
        // carromman (clip 6376: the striker and a white it struck by the NE
        // pocket swapped tracks; the striker's track, then on the white, was
        // lost 126 mm from the pocket as the striker went in followed as the
        // white). Where the striker rests followed as a carromman, its size
        // finds it (clip 3703), and the carromman went in.
        if striker_counted_as.is_none() && rest.pieces.iter().all(|p| p.piece != Piece::Striker) {
            let striker_left = stroke
                .stroke
                .pocketed
                .iter()
                .any(|p| p.piece == Piece::Striker)
                || stroke
                    .stroke
                    .overboard
                    .iter()
                    .any(|o| o.piece == Piece::Striker);
            let vision = &stroke.vision;
            let lost_on_its_way = |p: &PocketedPiece| {
                let (Some(t), Some(pocket)) = (p.t, p.pocket) else {
                    return None;
                };
                if p.piece == Piece::Striker || !vision.kept_against_the_count.contains(&t) {
                    return None;
                }
                vision
                    .striker_lost_mid_board
                    .iter()
                    .map(|&(at, lost_t)| ((pocket_centre(pocket) - at).norm(), lost_t))
                    .find(|&(away, lost_t)| {
                        away <= STRIKER_LOST_ON_ITS_WAY_MM
                            && (t - lost_t).abs() <= STRIKER_LOST_ON_ITS_WAY_S
                    })
                    .map(|(away, _)| away)
            };
            let on_its_way: Vec<(usize, f64)> = stroke
                .stroke
                .pocketed
                .iter()
                .enumerate()
                .filter_map(|(i, p)| lost_on_its_way(p).map(|away| (i, away)))
                .collect();
            if let (&[(i, away)], false) = (&on_its_way[..], striker_left) {
                let went_in = &mut stroke.stroke.pocketed[i];
                let (seen_as, pocket) = (went_in.piece, went_in.pocket.map_or("?", Pocket::name));
                went_in.piece = Piece::Striker;
                let t = went_in.t.unwrap_or(rest.t);
                stroke.vision.alerts.push(VisionNote {
                    t,
                    message: format!(
                        "the {seen_as} seen going into the {pocket} pocket, which the count at rest does not miss, was the striker: the striker's track was lost {away:.0} mm from that pocket as it went in, and no striker rests on the board, by its track or by its size"
                    ),
                });
            }
        }
        if stroke.vision.doubted_overboard.is_empty() {
            if let Some(named) = unnamed_flight_named(stroke, rest, striker_counted_as) {
                first_unnamed_flight_left_as(stroke, named);
            }
            return;
        }
        let before = earlier.last().and_then(|s| s.vision.rest.as_ref());
        let lay_there_before = |p: &RestingPiece| {
            before.is_some_and(|before| {
                before.pieces.iter().any(|q| {
                    q.no_outline
                        && q.piece == p.piece
                        && (q.x - p.x).hypot(q.y - p.y) <= SAME_SPOT_MM
                })
            })
        };
        let mut without_outline: Vec<Piece> = rest
            .pieces
            .iter()
            .filter(|p| p.no_outline && !lay_there_before(p))
            .map(|p| p.piece)
            .collect();
        let mut surplus = CountSurplus::of(stroke, rest);
        for off in std::mem::take(&mut stroke.vision.doubted_overboard) {
            let piece = off.piece;
            let counted_instead = if striker_counted_as == Some(piece) {
                striker_counted_as = None;
                "the striker".to_string()
            } else if take_piece(&mut without_outline, piece) {
                format!("a {piece} with no disc outline (a print the pieces uncovered?)")
            } else {
                continue;
            };
            // A piece counted that is none makes room for a departure only
            // once the count no longer holds more of its kind than the
            // departures kept leave: the striker counted as a white both
            // before and after the stroke hides no white.
            if !surplus.one_not_a_piece(piece) {
                continue;
            }
            let t = off.t.unwrap_or(rest.t);
            let vetoed = departure_disproved(piece);
            stroke
                .vision
                .alerts
                .retain(|note| !(note.message == vetoed && note.t == t));
            stroke.vision.alerts.push(VisionNote {
                t,
                message: format!(
                    "a {piece} left the board: the count at rest took {counted_instead} for one"
                ),
            });
            stroke.stroke.overboard.push(off);
        }
        if let Some(named) = unnamed_flight_named(stroke, rest, striker_counted_as) {
            first_unnamed_flight_left_as(stroke, named);
        }
        sort_overboard(stroke);
    }

    /// Whether a stroke is under way with every piece lying still in the
    /// latest frame: should the clip end now, the stroke is judged at rest
    /// in that frame (see [`StrokeMachine::finish`]).
    pub fn settling(&self) -> bool {
        self.last_still.is_some()
    }

    /// Whether a stroke is under way.
    pub fn in_motion(&self) -> bool {
        matches!(self.phase, Phase::Moving { .. })
    }

    /// The seat of a striker that has just been struck in this frame, if so.
    pub fn push(&mut self, frame: &TrackFrame) -> Option<Seat> {
        if self.swapped.is_empty() {
            return self.push_read(frame);
        }
        // Kept while the track lasts, and for the frame it vanishes in.
        self.swapped.retain(|id, _| {
            frame.tracks.iter().any(|t| t.id == *id)
                || frame
                    .events
                    .iter()
                    .any(|e| matches!(e, TrackEvent::Vanished { id: gone, .. } if gone == id))
        });
        let read = with_swapped_pieces(frame, &self.swapped);
        self.push_read(&read)
    }

    /// [`Self::push`], the pieces of tracks that swapped at a collision read
    /// as the pieces they follow.
    fn push_read(&mut self, frame: &TrackFrame) -> Option<Seat> {
        let first_frame = self.frames_seen == 0;
        self.frames_seen += 1;
        let striker = the_striker(&frame.tracks, self.options.strike_speed);
        for &seat in &frame.hand_seats {
            self.arm_over_the_board.insert(seat, frame.t);
            if !self.in_motion() {
                self.arm_seen.insert(seat, frame.t);
            }
        }
        if let ([seat], false) = (&frame.hand_seats[..], self.in_motion()) {
            self.hand_seat = Some((*seat, frame.t));
            self.last_seat = Some(*seat);
        }
        if !self.in_motion() {
            self.most_seen_since_rest =
                Some(SeenCount::of(&frame.tracks).at_least(self.most_seen_since_rest));
        }
        self.take_back_a_flickering_launch(frame);
        let launched = self.launched_without_striker(frame);
        self.follow_motions(frame);
        self.remember_positions(frame);
        let striking_hand = self
            .hand_seat
            .filter(|&(_, t)| frame.t - t <= HAND_SEAT_MEMORY_S)
            .map(|(seat, _)| seat);
        let mut struck = None;
        match self.phase.clone() {
            Phase::Waiting { still_frames } => {
                if let Some(s) = striker {
                    if s.speed() >= self.options.strike_speed {
                        struck = self.strike_unplaced(frame, s, striking_hand, first_frame);
                        if struck.is_none() {
                            self.phase = Phase::Waiting { still_frames: 0 };
                        }
                    } else if s.speed() < self.options.rest_speed && !s.hidden {
                        let still = still_frames + 1;
                        self.phase = match seat_at(s.position) {
                            Some(seat) if still >= self.options.placement_frames => Phase::Placed {
                                seat,
                                placement: striker_placement(seat, s.position, STRIKER_RADIUS_MM),
                                rest_t: frame.t,
                                striker: s.id,
                            },
                            _ => Phase::Waiting {
                                still_frames: still,
                            },
                        };
                    } else {
                        self.phase = Phase::Waiting { still_frames: 0 };
                    }
                }
            }
            Phase::Placed {
                seat,
                placement,
                rest_t,
                striker: placed,
            } => match striker {
                None => self.phase = Phase::Waiting { still_frames: 0 },
                Some(s) if s.speed() >= self.options.strike_speed && s.id == placed => {
                    struck = Some(seat);
                    self.start(frame, s, seat, Some(placement), false, rest_t);
                }
                // Another striker-sized disc struck: what lay placed was not
                // the striker (a piece on the base lines, the striker on its
                // way across the board in a hand), so neither its seat nor
                // its time are this stroke's.
                Some(s) if s.speed() >= self.options.strike_speed => {
                    struck = self.strike_unplaced(frame, s, striking_hand, first_frame);
                    if struck.is_none() {
                        self.phase = Phase::Waiting { still_frames: 0 };
                    }
                }
                Some(s) if s.speed() < self.options.rest_speed && s.seen_this_frame() => {
                    // Adjusted by hand: the latest resting place counts. A
                    // track kept unseen is where the striker was, not where
                    // it is: it must not move the strike time later. A
                    // striker found on another seat's lines just after the
                    // hand hid it was struck, not carried there (a track
                    // found again after hiding has no speed yet): another
                    // seat counts only once the striker lies still there.
                    let settled = self
                        .motions
                        .get(&s.id)
                        .is_some_and(|m| m.still >= self.options.placement_frames);
                    if let Some(now) = seat_at(s.position).filter(|&now| now == seat || settled) {
                        self.phase = Phase::Placed {
                            seat: now,
                            placement: striker_placement(now, s.position, STRIKER_RADIUS_MM),
                            rest_t: frame.t,
                            striker: s.id,
                        };
                    }
                }
                Some(_) => {}
            },
            Phase::Moving {
                striker: id,
                at_rest_frames,
            } => {
                let id = self.follow(frame, id);
                self.note_the_striker_behind_its_lines(frame, id);
                let all_still = frame
                    .tracks
                    .iter()
                    .all(|t| t.speed() < self.options.rest_speed);
                let rest = if all_still { at_rest_frames + 1 } else { 0 };
                self.last_still = (rest > 0).then(|| (frame.clone(), rest));
                if rest >= self.options.rest_frames {
                    self.last_still = None;
                    if let Some(done) = self.current.take() {
                        self.close_at_rest(done, frame);
                    }
                    self.phase = Phase::Waiting { still_frames: 0 };
                } else {
                    self.phase = Phase::Moving {
                        striker: id,
                        at_rest_frames: rest,
                    };
                }
                return None;
            }
        }
        if let (None, false, Some(piece)) = (struck, self.in_motion(), launched) {
            struck = self.start_unseen_strike(frame, piece, striking_hand, None);
        }
        let looking_for_a_strike = struck.is_none() && !self.in_motion();
        let taken_for_a_carromman = looking_for_a_strike
            .then(|| self.striker_taken_for_a_carromman(frame))
            .flatten();
        if let Some((disc, launch)) = taken_for_a_carromman {
            struck =
                Some(self.strike_launched(frame, disc, launch, Some(launch.seat), first_frame));
            let knocked_on = self.came_past_a_carromman_on_its_way(frame, disc, &launch);
            // Where it came past a carromman on its way, it may be that
            // carromman: its going in says nothing of the striker's.
            self.striker_read_as_a_carromman = (!knocked_on).then_some(disc.id);
            if knocked_on {
                self.note_on_current(
                    frame.t,
                    format!(
                        "the {} taken for the struck striker came into sight past a carromman on its way from the lines: it may be that carromman, knocked on",
                        disc.piece.name()
                    ),
                );
            }
            self.note_on_current(
                frame.t,
                format!(
                    "a {} first seen speeding away from a seat's base lines at {:.0} mm/s is taken for the struck striker",
                    disc.piece.name(),
                    disc.speed()
                ),
            );
        }
        if let (None, false, Some(hand)) = (struck, self.in_motion(), striking_hand) {
            if let Some(piece) = self.struck_off_unseen(frame) {
                struck = self.start_unseen_strike(frame, piece, Some(hand), None);
            } else if let Some((piece, launched_t, seat)) =
                self.knocked_from_under_a_hand(frame, hand)
            {
                struck = self.start_unseen_strike(frame, piece, Some(seat), Some(launched_t));
            }
        }
        if let Phase::Placed { seat, .. } = self.phase {
            self.last_seat = Some(seat);
        }
        if !self.in_motion() {
            self.late_pocketings(frame);
        }
        struck
    }

    /// A striker seen moving with no placement seen for it: the clip began
    /// mid-stroke, or the placement was hidden under the hand. Its path leads
    /// back to the seat it was played from; `None` (no stroke) when it leads
    /// to no seat's base lines.
    fn strike_unplaced(
        &mut self,
        frame: &TrackFrame,
        s: &Track,
        striking_hand: Option<Seat>,
        first_frame: bool,
    ) -> Option<Seat> {
        let launch = launch_seat(s)
            .or_else(|| striking_hand.and_then(|hand| launch_off_a_cushion(s, hand)))?;
        Some(self.strike_launched(frame, s, launch, striking_hand, first_frame))
    }

    /// Starts the stroke of the striker `s` seen only in motion, `launch`ed
    /// from a seat's base lines; the seat it was struck from.
    fn strike_launched(
        &mut self,
        frame: &TrackFrame,
        s: &Track,
        launch: Launch,
        striking_hand: Option<Seat>,
        first_frame: bool,
    ) -> Seat {
        let Launch {
            seat,
            from,
            travelled,
        } = launch;
        // A break's striker is deflected by the cluster before it is first
        // seen: the arm that struck it knows better; unless the arm of the
        // seat its path leads back to was about too (an arm resting on the
        // board's edge, or a shadow taken for one, can be the last seen
        // alone as the striker leaves).
        let seat = striking_hand
            .filter(|&hand| hand == seat || !self.arm_seen_lately(seat, frame.t))
            .unwrap_or(seat);
        // It left its base lines `travelled` mm before it was seen at `from`.
        let seen_t = frame.t - (s.position - from).norm() / s.speed();
        let launched_t = seen_t - travelled / s.speed();
        self.start(frame, s, seat, None, first_frame, launched_t);
        seat
    }

    /// Whether the arm of `seat` was seen over the board between strokes
    /// within [`HAND_SEAT_MEMORY_S`] before `t`.
    fn arm_seen_lately(&self, seat: Seat, t: f64) -> bool {
        self.arm_seen_within(seat, t, HAND_SEAT_MEMORY_S)
    }

    /// Whether the arm of `seat` was seen over the board between strokes
    /// within `within_s` seconds before `t`.
    fn arm_seen_within(&self, seat: Seat, t: f64, within_s: f64) -> bool {
        self.arm_seen
            .get(&seat)
            .is_some_and(|&seen| t - seen <= within_s)
    }

    /// Whether `t`, a carromman or the Queen never seen lying still, has
    /// sped for two frames or more on a steady course: sliding on its own
    /// since it was first seen.
    fn sliding_since_first_seen(&self, t: &Track) -> bool {
        !t.hidden
            && self.speeding_carromman(t, |still, moving| still == 0 && moving >= 2)
            && self
                .motions
                .get(&t.id)
                .and_then(|m| m.velocity_before)
                .is_some_and(|before| steady_course(before, t.velocity))
    }

    /// The break arrangement has just been found lying set out: a stroke
    /// under way is the setting out seen as motion (a hand carrying the
    /// striker, pieces slid into place), so it is dropped.
    pub fn setting_out_seen(&mut self) {
        self.set_out_for_the_break = true;
        if self.in_motion() {
            self.current = None;
            self.phase = Phase::Waiting { still_frames: 0 };
        }
    }

    /// Whether the stroke under way was struck from a seat nothing seen
    /// showed (no striker, placement or single arm over the board): the
    /// seat of the last arm or placement seen is only a guess.
    pub fn seat_unsure(&self) -> bool {
        self.seat_unsure && self.current.is_some()
    }

    /// The stroke under way, whose seat is unsure ([`Self::seat_unsure`]),
    /// was struck from `seat`, whose turn it is by the laws (the turn
    /// passes unless the player pocketed a piece of their own, ICF 48): a
    /// better guess than the last arm seen, which after a stroke that
    /// pocketed nothing is the wrong player's.
    pub fn struck_in_turn_from(&mut self, seat: Seat) {
        if !self.seat_unsure() {
            return;
        }
        self.seat_unsure = false;
        let Some(current) = self.current.as_mut() else {
            return;
        };
        if current.stroke.seat == seat {
            return;
        }
        current.vision.alerts.push(VisionNote {
            t: current.stroke.t.unwrap_or_default(),
            message: format!(
                "no striker, placement or single arm showed who struck: {} is taken, whose turn it was (ICF 48), not {}, whose arm was seen last",
                seat.name(),
                current.stroke.seat.name()
            ),
        });
        current.stroke.seat = seat;
        self.last_seat = Some(seat);
    }

    /// The pieces the laws have on the board as the current stroke is
    /// struck: where fewer of a kind were seen than that, the tracker had
    /// already lost sight of some, and the count at rest cannot confirm a
    /// piece of that kind lost far from a pocket went in (see
    /// [`reconcile_exits`]).
    pub fn laws_count_at_strike(&mut self, count: SeenCount) {
        if let Some(current) = self.current.as_mut() {
            current.vision.laws_before = Some(count);
        }
    }

    /// As [`Self::struck_in_turn_from`], where players sit only at the
    /// `seated` seats: a stroke read as struck from a seat nobody sits at
    /// (a carromman speeding off that seat's base lines taken for the
    /// striker: clip 2956's stroke 3, read as east's in a singles match
    /// between south and north) was struck by `seat` too, whatever the
    /// machine saw.
    pub fn struck_in_turn_among(&mut self, seat: Seat, seated: &[Seat]) {
        let Some(current) = self.current.as_mut() else {
            return;
        };
        let read_as = current.stroke.seat;
        if seated.contains(&read_as) || !seated.contains(&seat) {
            self.struck_in_turn_from(seat);
            return;
        }
        self.seat_unsure = false;
        current.vision.alerts.push(VisionNote {
            t: current.stroke.t.unwrap_or_default(),
            message: format!(
                "the stroke was read as struck from {}, where nobody sits: {} is taken, whose turn it was (ICF 48)",
                read_as.name(),
                seat.name()
            ),
        });
        current.stroke.seat = seat;
        self.last_seat = Some(seat);
        self.seats_overridden.push((self.finished.len(), read_as));
    }

    /// The seat the stroke under way was struck from, where that is sure
    /// enough to seat a player there: its striker was seen lying placed on
    /// that seat's base lines before the strike, or an earlier stroke was
    /// read as struck from there too (one read alone may be a carromman
    /// taken for the striker as it sped off those lines).
    pub fn seat_surely_played(&self) -> Option<Seat> {
        let current = self.current.as_ref()?;
        let seat = current.stroke.seat;
        let read_before = self
            .seats_overridden
            .iter()
            .any(|&(_, read_as)| read_as == seat);
        (current.vision.placement.is_some() || read_before).then_some(seat)
    }

    /// Gives back the seats the strokes so far were read as struck from,
    /// where [`Self::struck_in_turn_among`] took another as nobody sat
    /// there: the match turned out to seat players there too.
    pub fn restore_seats_read(&mut self) {
        for (number, read_as) in std::mem::take(&mut self.seats_overridden) {
            let stroke = match number.checked_sub(self.finished.len()) {
                None => self.finished.get_mut(number),
                Some(0) => self.current.as_mut(),
                Some(_) => None,
            };
            if let Some(stroke) = stroke {
                stroke.vision.alerts.push(VisionNote {
                    t: stroke.stroke.t.unwrap_or_default(),
                    message: format!(
                        "{} is taken as the seat after all: later strokes showed a player sits there too (doubles)",
                        read_as.name()
                    ),
                });
                stroke.stroke.seat = read_as;
            }
        }
    }

    /// A carromman or the Queen that lay still in sight and now shoots off
    /// while no striker is seen moving: the striker was struck unseen (under
    /// the hand, or taken for a carromman) and hit it.
    fn launched_without_striker<'f>(&self, frame: &'f TrackFrame) -> Option<&'f Track> {
        frame
            .tracks
            .iter()
            .filter(|t| {
                self.speeding_carromman(t, |still, moving| {
                    still >= SETTLED_FRAMES && moving <= LAUNCH_FRAMES
                })
            })
            .max_by(|a, b| a.speed().total_cmp(&b.speed()))
    }

    /// Whether `t` is a carromman or the Queen seen this frame at
    /// [`UNSEEN_STRIKE_SPEED`] or more, whose frames lying still before it
    /// moved and moving since pass `counts`.
    fn speeding_carromman(&self, t: &Track, counts: impl Fn(u32, u32) -> bool) -> bool {
        t.piece != Piece::Striker
            && t.seen_this_frame()
            && t.speed() >= UNSEEN_STRIKE_SPEED
            && self
                .motions
                .get(&t.id)
                .is_some_and(|m| counts(m.still, m.moving))
    }

    /// The striker read as a carromman (its colour or size taken for one),
    /// first seen once struck, and where it was struck from: a disc never
    /// seen lying still that speeds, for two frames or more on a steady
    /// course, away from the base lines its path leads back to (from where
    /// it is now, for a fast one: [`LAUNCH_SEARCH_FAR_MM`]), of a seat
    /// whose player's arm was over the board just now. A piece that lay
    /// still and shot off is [`Self::launched_without_striker`]'s; a disc
    /// still under the hand is hidden, so a carried or slid striker does not
    /// count, and a flicker with no arm of that seat about is no stroke.
    fn striker_taken_for_a_carromman<'f>(
        &self,
        frame: &'f TrackFrame,
    ) -> Option<(&'f Track, Launch)> {
        frame
            .tracks
            .iter()
            .filter(|t| {
                self.sliding_since_first_seen(t)
                    && (t.position - t.first_seen_at()).dot(&t.velocity) >= 0.0
            })
            .filter_map(|t| {
                // A fast disc whose path from where it came into sight leads
                // back to no lines was followed from elsewhere: a pale
                // striker crosses much of the board unseen, and a track
                // born on the fingers at the board's edge can leap onto it.
                // Its way back from where it is now tells where it was
                // struck from.
                let (launch, seen_from) = match launch_seat(t) {
                    Some(launch) => (launch, t.first_seen_at()),
                    None if t.speed() >= FAR_LAUNCH_MIN_SPEED_MM_S => (
                        launch_from(t, t.position, LAUNCH_SEARCH_FAR_MM)?,
                        t.position,
                    ),
                    None => return None,
                };
                let seat = launch.seat;
                let arm_just_now = self.arm_seen_lately(seat, frame.t);
                // Not drawn back towards the player, as an arm is (a shot
                // along the base lines is fine), and first seen on the
                // lines or past them, never between them and the player
                // (where an arm reaching in is).
                let not_drawn_back = t.velocity.dot(&inward(seat)) > -DRAWN_BACK_COS * t.speed();
                let past_the_lines = rotate_from_seat(seen_from, seat).y
                    >= -(BASE_BAND_NEAR_EDGE_FROM_CENTRE_MM + STRIKER_RADIUS_MM);
                (arm_just_now && not_drawn_back && past_the_lines).then_some((t, launch))
            })
            .max_by(|a, b| a.0.speed().total_cmp(&b.0.speed()))
    }

    /// A carromman or the Queen never seen lying still that speeds hard
    /// ([`FAR_LAUNCH_MIN_SPEED_MM_S`]) on a steady course for two frames or
    /// more while nothing is in motion: struck by a striker never seen (a
    /// piece resting unseen on a neighbour's base lines, shot off them by
    /// the player whose arm was just over the board), unless its path leads
    /// back to the lines of a player about lately ([`PLAYER_ABOUT_S`]).
    fn struck_off_unseen<'f>(&self, frame: &'f TrackFrame) -> Option<&'f Track> {
        frame
            .tracks
            .iter()
            .filter(|t| {
                // Seen running a frame longer than a launch needs: ghosts
                // of the centre design jiggle, and a track born among them
                // can run for two frames (clip 2374).
                let knocked_off_a_spot = t.speed() >= UNSEEN_STRIKE_SPEED
                    && self
                        .motions
                        .get(&t.id)
                        .is_some_and(|m| m.moving >= KNOCKED_RUN_FRAMES)
                    && self.set_off_from_a_neighbours_spot(t);
                (t.speed() >= FAR_LAUNCH_MIN_SPEED_MM_S || knocked_off_a_spot)
                    && self.sliding_since_first_seen(t)
                    // Not from the lines of a player about lately: that is
                    // the striker read as a carromman, and its own path
                    // tells its seat (but not one knocked off a piece's
                    // spot: that is the piece).
                    && (knocked_off_a_spot
                        || launch_seat(t).is_none_or(|launch| {
                            !self.arm_seen_within(launch.seat, frame.t, PLAYER_ABOUT_S)
                        }))
            })
            .max_by(|a, b| a.speed().total_cmp(&b.speed()))
    }

    /// A carromman or the Queen never seen lying still, running on a
    /// steady course since it came into sight, not drawn back towards the
    /// player of the arm over the board (`hand`), whose way back from where
    /// it came into sight leads to where a piece of its kind lay hidden
    /// under a hand the frame before: the striker, placed under the hand,
    /// knocked that piece out from under it (clip 3652: the striker, set
    /// down unseen under the north hand, knocked a black beside it into the
    /// NW pocket; the black came into sight already running, between the
    /// base lines and the player, where no launch rule looks). With the
    /// time it left that spot, from its speed, and the seat struck from:
    /// the one whose side the spot lies nearest, where that player's arm
    /// was over the board just now (the hand the striker lay under), else
    /// `hand`'s.
    fn knocked_from_under_a_hand<'f>(
        &self,
        frame: &'f TrackFrame,
        hand: Seat,
    ) -> Option<(&'f Track, f64, Seat)> {
        let (track, (left_t, spot)) = frame
            .tracks
            .iter()
            .filter(|t| {
                t.piece != Piece::Striker
                    && self.sliding_since_first_seen(t)
                    && t.velocity.dot(&inward(hand)) > -DRAWN_BACK_COS * t.speed()
            })
            .filter_map(|t| Some((t, self.left_from_under_a_hand(t)?)))
            .max_by(|a, b| a.0.speed().total_cmp(&b.0.speed()))?;
        let seat = Seat::TURN_ORDER
            .into_iter()
            .min_by(|&a, &b| {
                rotate_from_seat(spot, a)
                    .y
                    .total_cmp(&rotate_from_seat(spot, b).y)
            })
            .filter(|&seat| self.arm_seen_lately(seat, frame.t))
            .unwrap_or(hand);
        Some((track, left_t, seat))
    }

    /// When `t` left the spot under a hand its way back leads to (see
    /// [`Self::knocked_from_under_a_hand`]), and where that was, if it
    /// leads to one.
    fn left_from_under_a_hand(&self, t: &Track) -> Option<(f64, Point2<f64>)> {
        let recent = &self.recent;
        let (first, born_at) = recent
            .iter()
            .enumerate()
            .find_map(|(i, f)| Some((i, f.sighting(t.id)?)))?;
        let before = recent.get(first.checked_sub(1)?)?;
        let heading = (t.position - born_at).try_normalize(1e-9)?;
        let speed = t.speed();
        before
            .hidden
            .iter()
            .filter(|&&(other, _, piece)| other != t.id && piece == t.piece)
            .filter_map(|&(_, spot, _)| {
                let back = spot - born_at;
                let behind = -back.dot(&heading);
                let aside = (back + heading * behind).norm();
                (behind > 0.0 && behind <= UNDER_THE_HAND_REACH_MM && aside <= CARROMMAN_RADIUS_MM)
                    .then_some((behind, spot))
            })
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(behind, spot)| (recent[first].t - behind / speed, spot))
    }

    /// Whether `t` was first seen (tentative or confirmed) within a
    /// carromman's width of where another piece lay still the frames just
    /// before: that piece, knocked from its spot, its own track taken by
    /// the disc that knocked it (clip 2399: the striker, unseen under the
    /// arm, hit a black, whose track went on with the striker while the
    /// black sped off as a new track at 1 m/s).
    fn set_off_from_a_neighbours_spot(&self, t: &Track) -> bool {
        let recent = &self.recent;
        let Some((first, born_at)) = recent
            .iter()
            .enumerate()
            .find_map(|(i, f)| Some((i, f.sighting(t.id)?)))
        else {
            return false;
        };
        if first < NEIGHBOUR_STILL_FRAMES {
            return false;
        }
        recent[first - 1].discs.iter().any(|&(other, spot, _)| {
            other != t.id
                && (spot - born_at).norm() <= 2.0 * CARROMMAN_RADIUS_MM
                && lay_still(recent, other, spot, first - NEIGHBOUR_STILL_FRAMES..first)
        })
    }

    /// Whether `t`, a disc taken for the struck striker, came into sight
    /// past a carromman's track on its way from its base lines, off them,
    /// with room for the striker behind it: the striker met that piece, and
    /// `t` may be the piece knocked on (clip 6251: a white lying 75 mm up
    /// the striker's line sped off as a new track, and the striker stopped
    /// short, counted as a white at rest; clip 6257 the same with a dark
    /// striker and a black).
    fn came_past_a_carromman_on_its_way(
        &self,
        frame: &TrackFrame,
        t: &Track,
        launch: &Launch,
    ) -> bool {
        let Some(back) = (-t.velocity).try_normalize(1e-9) else {
            return false;
        };
        let lines = launch.from + back * launch.travelled;
        let Some(along_way) = (launch.from - lines).try_normalize(1e-9) else {
            return false;
        };
        let length = launch.travelled;
        let on_its_way = |spot: Point2<f64>| {
            let along = (spot - lines).dot(&along_way);
            let aside = (spot - lines - along_way * along).norm();
            (2.0 * STRIKER_RADIUS_MM..=length).contains(&along)
                && aside <= STRIKER_RADIUS_MM + CARROMMAN_RADIUS_MM
                && seat_at(spot).is_none()
        };
        // Moving or not: the piece the striker met may be under way
        // already, or its track may have caught the striker's blur.
        frame.tracks.iter().any(|other| {
            other.id != t.id && other.piece != Piece::Striker && on_its_way(other.position)
        })
    }

    fn follow_motions(&mut self, frame: &TrackFrame) {
        let rest_speed = self.options.rest_speed;
        let previous = std::mem::take(&mut self.motions);
        self.motions = frame
            .tracks
            .iter()
            .map(|t| {
                let before = previous.get(&t.id).copied().unwrap_or_default();
                let (still, moving) = (before.still, before.moving);
                // A piece found only by a second look is held, not seen: a
                // jump of its track is no sign that it was struck.
                let (still, moving) = if t.hidden || t.found_by_second_look() {
                    (0, 0)
                } else if !t.seen_this_frame() {
                    // A piece lying still that goes unseen for a frame
                    // as the striker meets it (their blobs run
                    // together) still lay still: its launch is a
                    // stroke's (clip 2776).
                    if t.frames_unseen() == 1 && moving == 0 {
                        (still, 0)
                    } else {
                        (0, 0)
                    }
                } else if t.speed() < rest_speed {
                    (if moving > 0 { 1 } else { still + 1 }, 0)
                } else if moving < LAUNCH_FRAMES {
                    (still, moving + 1)
                } else {
                    (0, moving + 1)
                };
                let motion = Motion {
                    still,
                    moving,
                    velocity: t.seen_this_frame().then_some(t.velocity),
                    velocity_before: before.velocity,
                };
                (t.id, motion)
            })
            .collect();
    }

    /// Takes back the stroke started last frame from a carromman launched
    /// with no striker seen, where that carromman, launched slower than a
    /// blur could hide, is not seen in this frame: a ghost of the centre
    /// design that jumped once as an arm's shadow crossed it (clip 2809:
    /// a "Queen" of its red petals at 704 mm/s, gone the next frame). A
    /// piece truly hit runs on in sight.
    fn take_back_a_flickering_launch(&mut self, frame: &TrackFrame) {
        let Some((id, launched_in, speed)) = self.unseen_launch.take() else {
            return;
        };
        // A piece hidden under a hand is not seen (clip 3131: a white by
        // the north cushion moved 21 mm as an arm came over it, and lay
        // under the hand the next frame).
        let seen_running = frame
            .tracks
            .iter()
            .any(|t| t.id == id && t.seen_this_frame() && !t.hidden);
        if frame.index != launched_in + 1
            || !self.in_motion()
            || speed >= FLICKER_MAX_SPEED_MM_S
            || seen_running
        {
            return;
        }
        // Back to before the launch: the count so far, and the note on the
        // board being set out that the stroke had taken for the next one.
        if let Some(current) = self.current.take() {
            self.most_seen_since_rest = Some(current.vision.seen_before);
            self.set_out_motion = current
                .vision
                .alerts
                .into_iter()
                .find(|note| note.message == SET_OUT_MOTION);
        }
        self.phase = Phase::Waiting { still_frames: 0 };
        self.read_from_a_carromman = false;
        self.seat_unsure = false;
    }

    /// Starts a stroke from a piece launched by a striker never seen, for
    /// the seat of the arm over the board (or the last one seen, or the last
    /// placement); `None` when no seat is known at all.
    ///
    /// `running_since`: when a piece first seen already running on a steady
    /// course left its spot; such a piece is no ghost's one jump, and is
    /// not watched for a flicker. Without it, the piece lay still the frame
    /// before and was hit between the two.
    fn start_unseen_strike(
        &mut self,
        frame: &TrackFrame,
        piece: &Track,
        striking_hand: Option<Seat>,
        running_since: Option<f64>,
    ) -> Option<Seat> {
        let seat = striking_hand.or(self.last_seat)?;
        let launched_t = running_since.unwrap_or(frame.t - 1.0 / 30.0);
        self.start(frame, piece, seat, None, false, launched_t);
        self.read_from_a_carromman = true;
        self.unseen_launch = running_since
            .is_none()
            .then(|| (piece.id, frame.index, piece.speed()));
        self.seat_unsure = striking_hand.is_none();
        if let Some(current) = self.current.as_mut() {
            current.stroke.touched = true;
        }
        self.note_on_current(
            frame.t,
            format!(
                "the striker was not seen; the stroke is read from a {} that shot off at {:.0} mm/s",
                piece.piece.name(),
                piece.speed()
            ),
        );
        Some(seat)
    }

    /// The pieces lost speeding at a pocket in `stroke` and not found again
    /// went in.
    ///
    /// A "striker" among them while the striker was seen elsewhere was a
    /// carromman the striker knocked (its track jumped onto the blur of the
    /// piece it hit): the one lost from sight beside it just then, if any.
    fn record_lost_towards_pockets(&mut self, stroke: &mut SeenStroke) {
        self.recolour_pieces_taken_from_rest(stroke);
        // The board was found set out for the break since the last stroke:
        // this is the break, its cluster parting (a clip's first stroke may
        // be any).
        let the_break = self.set_out_for_the_break;
        for mut lost in std::mem::take(&mut self.lost_towards_pocket) {
            if the_break
                && lost.piece != Piece::Striker
                && lost.last_seen.coords.norm() <= AMID_THE_BREAK_MM
            {
                stroke.vision.alerts.push(VisionNote {
                    t: lost.t,
                    message: format!(
                        "a {} lost from sight at ({:.0}, {:.0}) mm amid the break's cluster, heading for the {} pocket: pieces parting there are lost and found again under other tracks, so it is not taken as pocketed",
                        lost.piece,
                        lost.last_seen.x,
                        lost.last_seen.y,
                        lost.pocket.name()
                    ),
                });
                continue;
            }
            if let Some(taken) = self.claim_taken_from_rest(lost.id, lost.piece, lost.t) {
                stroke.vision.alerts.push(taken.alert(lost.piece));
                lost.piece = taken.piece;
            } else if lost.striker_elsewhere {
                let knocked = self.lost_mid_board.iter().position(|&(_, at, t)| {
                    (at - lost.last_seen).norm() <= KNOCKED_PIECE_MM
                        && (t - lost.t).abs() <= KNOCKED_PIECE_S
                });
                if let Some(i) = knocked {
                    let (piece, at, _) = self.lost_mid_board.remove(i);
                    lost.piece = piece;
                    stroke.vision.alerts.push(VisionNote {
                        t: lost.t,
                        message: format!(
                            "a disc taken for the striker while the striker was elsewhere was the {piece} lost from sight at ({:.0}, {:.0}) mm",
                            at.x, at.y
                        ),
                    });
                }
            }
            // A twin that carried on with the piece and was seen going into
            // that pocket: the piece went in once, in the twin's colour
            // (seen going in outweighs lost on the way, whatever the kind).
            let twin_went_in = self
                .shadowed
                .iter()
                .filter(|s| s.t == lost.t && s.piece == lost.piece)
                .find_map(|s| {
                    self.pocketed_tracks
                        .iter()
                        .find(|&&(id, kind, t)| {
                            id == s.twin && kind != Piece::Striker && t >= lost.t
                        })
                        .filter(|&&(_, _, t)| {
                            stroke
                                .stroke
                                .pocketed
                                .iter()
                                .any(|p| p.pocket == Some(lost.pocket) && p.t == Some(t))
                        })
                        .map(|&(_, kind, _)| kind)
                });
            if let Some(kind) = twin_went_in.filter(|&kind| kind != lost.piece) {
                stroke.vision.alerts.push(VisionNote {
                    t: lost.t,
                    message: format!(
                        "a {} lost from sight speeding at the {} pocket was followed on by a track seen as a {kind}, which went in: one piece, a {kind}",
                        lost.piece,
                        lost.pocket.name()
                    ),
                });
                continue;
            }
            lost.record_in(stroke);
        }
    }

    /// The pieces flung at the frame in `stroke` whose time to come back
    /// had passed by `now` (s): off the board, unless a disc was seen coming
    /// back off the cushion where they met it.
    fn judge_flung(&mut self, stroke: &mut SeenStroke, now: f64) {
        if self.flung.is_empty() {
            return;
        }
        let (due, waiting) = std::mem::take(&mut self.flung)
            .into_iter()
            .partition(|flung: &FlungAtTheFrame| now >= flung.off.seen_t + REBOUND_WINDOW_S);
        self.flung = waiting;
        for flung in due {
            let FlungAtTheFrame { piece, off, .. } = flung;
            let at = format!(
                "({:.0}, {:.0}) mm",
                off.meets_frame_at.x, off.meets_frame_at.y
            );
            if flung.came_back(&self.recent) {
                stroke.vision.alerts.push(VisionNote {
                    t: flung.t,
                    message: format!(
                        "a {piece} flung at the frame at {at} came back off the cushion"
                    ),
                });
            } else if record_off_the_board(stroke, &mut self.overboard_tracks, piece, off, flung.t)
            {
                stroke.vision.alerts.push(VisionNote {
                    t: flung.t,
                    message: format!("a {piece} seen only as it flew at the frame at {at} was not seen again: off the board"),
                });
            }
        }
    }

    /// Discs seen over the frame at `t` (s) while it was watched: pieces in
    /// flight off the board, squared with the departures at rest. On the
    /// sides `hiding_blacks`, the frame is too dark to show a black.
    pub fn over_the_frame(
        &mut self,
        t: f64,
        watched: &[Seat],
        hiding_blacks: &[Seat],
        sightings: &[FrameSighting],
    ) {
        // A hand withdrawing over its own side of the frame, once it has
        // left the surface, is no longer found as a hand: its fingers
        // there pass for discs.
        let arms = &self.arm_seen;
        let striker_hand = self
            .current
            .as_ref()
            .and_then(|c| Some((c.stroke.seat, c.stroke.t?)));
        let clear_view = |side: &Seat| {
            let arm_there = arms
                .get(side)
                .is_some_and(|&seen| t - seen <= ARM_OVER_THE_FRAME_S);
            let striking_hand_there = striker_hand
                .is_some_and(|(seat, struck)| seat == *side && t - struck <= ARM_OVER_THE_FRAME_S);
            !arm_there && !striking_hand_there
        };
        let clear: Vec<FrameSighting> = sightings
            .iter()
            .filter(|s| clear_view(&s.side))
            .copied()
            .collect();
        let watched: Vec<Seat> = watched.iter().copied().filter(clear_view).collect();
        if let Some(current) = self.current.as_mut() {
            current
                .vision
                .flights
                .seen(t, &watched, hiding_blacks, &clear);
        }
    }

    /// An alert from a stage before the machine on the stroke under way,
    /// if one is.
    pub fn alert(&mut self, t: f64, message: String) {
        self.note_on_current(t, message);
    }

    /// A track of a `piece` dropped at `t` as a print (with the `alert`
    /// saying why), on the stroke under way, if one is.
    pub fn print_dropped(&mut self, t: f64, piece: Piece, alert: String) {
        if let Some(current) = self.current.as_mut() {
            current.vision.prints_dropped.push(piece);
        }
        self.note_on_current(t, alert);
    }

    /// An alert on the stroke under way, if one is.
    fn note_on_current(&mut self, t: f64, message: String) {
        if let Some(current) = self.current.as_mut() {
            current.vision.alerts.push(VisionNote { t, message });
        }
    }

    fn start(
        &mut self,
        frame: &TrackFrame,
        striker: &Track,
        seat: Seat,
        placement: Option<Placement>,
        began_mid_stroke: bool,
        rest_t: f64,
    ) {
        self.seat_unsure = false;
        self.unseen_launch = None;
        let mut vision = VisionExtra {
            placement,
            began_mid_stroke: began_mid_stroke || placement.is_none(),
            seen_before: self.count_before(frame),
            alerts: self.set_out_motion.take().into_iter().collect(),
            ..VisionExtra::default()
        };
        if let Some(Placement::Illegal(reason)) = placement {
            vision.alerts.push(VisionNote {
                t: rest_t,
                message: format!("striker placed illegally ({reason:?}, {})", reason.law()),
            });
        }
        self.overboard_tracks.clear();
        self.lost_towards_pocket.clear();
        self.found_where_lost.clear();
        self.shadowed.clear();
        self.flung.clear();
        self.pocketed_tracks.clear();
        self.lost_mid_board.clear();
        self.struck_back = behind_the_lines(striker.position, seat);
        self.striker_twins_of_lost.clear();
        self.taken_from_rest.clear();
        self.read_from_a_carromman = false;
        self.striker_read_as_a_carromman = None;
        self.stopped_on.clear();
        // Seen a few frames before the strike: the striker's blur twins are
        // born as it speeds off, a frame or two before it is found struck.
        let before = self.recent.len().saturating_sub(TWIN_BORN_WITHIN_FRAMES);
        self.tracks_at_strike = self
            .recent
            .range(..before)
            .flat_map(|f| f.discs.iter().map(|&(id, _, _)| id))
            .collect();
        self.tracks_at_strike.sort_unstable();
        self.tracks_at_strike.dedup();
        self.on_lips_at_strike = self
            .recent
            .range(..before)
            .next_back()
            .map(|f| {
                f.discs
                    .iter()
                    .filter(|&&(_, at, _)| nearest_pocket(at).1 <= POCKET_LIP_MM)
                    .map(|&(id, at, _)| (id, at))
                    .collect()
            })
            .unwrap_or_default();
        self.current = Some(SeenStroke {
            stroke: Stroke {
                seat,
                // The striker started moving between the last frame it lay
                // still and the first it was seen moving.
                t: Some(rest_t),
                touched: false,
                pocketed: Vec::new(),
                overboard: Vec::new(),
                improper: false,
                foul: None,
                foul_by: None,
                extra: None,
            },
            vision,
        });
        let striker = self.follow(frame, striker.id);
        self.phase = Phase::Moving {
            striker,
            at_rest_frames: 0,
        };
    }

    /// Notes each carromman lying still, seen last frame and not in this
    /// one, whose spot the step of the striker's track (or of a track born
    /// since the strike, on its blur) passed over in this frame. Two pieces
    /// cannot pass through each other: that track left the striker and took
    /// the piece it struck, carrying the striker's colour evidence with it.
    fn note_pieces_taken_from_rest(&mut self, frame: &TrackFrame, striker: TrackId) {
        let n = self.recent.len();
        if n < 1 + STILL_BEFORE_TAKEN {
            return;
        }
        let (now, before) = (&self.recent[n - 1], &self.recent[n - 2]);
        let lying_still = |id: TrackId, at: Point2<f64>| {
            lay_still(&self.recent, id, at, n - 1 - STILL_BEFORE_TAKEN..n - 2)
        };
        let taking = |id: TrackId| {
            (id == striker && !self.read_from_a_carromman)
                || self.tracks_at_strike.binary_search(&id).is_err()
        };
        for &(rested, spot, _) in &before.discs {
            if now.disc(rested).is_some() || !lying_still(rested, spot) {
                continue;
            }
            let Some(piece) = frame
                .tracks
                .iter()
                .find(|t| t.id == rested)
                .map(|t| t.piece)
                .filter(|&piece| piece != Piece::Striker)
            else {
                continue;
            };
            let takers: Vec<TrackId> = now
                .discs
                .iter()
                .filter(|&&(id, _, _)| id != rested && taking(id))
                .filter_map(|&(id, to, _)| {
                    // Its last sighting may be a frame or two back: a
                    // striker hitting a piece is often lost in the blur.
                    let (from, _) = (n.saturating_sub(1 + TAKER_UNSEEN_FRAMES)..n - 1)
                        .rev()
                        .find_map(|i| self.recent[i].disc(id))?;
                    ((to - from).norm() >= 2.0 * CARROMMAN_RADIUS_MM
                        && segment_distance(spot, from, to) <= CARROMMAN_RADIUS_MM)
                        .then_some(id)
                })
                .collect();
            if let [by] = takers[..] {
                self.taken_from_rest.push(TakenFromRest {
                    by,
                    piece,
                    spot,
                    t: now.t,
                });
            }
        }
    }

    /// The carromman `by` took from rest ([`Self::note_pieces_taken_from_rest`])
    /// before `t` (s), if its own track was then lost on its spot and never
    /// found: that carromman, no longer lost, went where `by` went. A piece
    /// of kind `seen_as` taken as its own kind is no news.
    fn claim_taken_from_rest(
        &mut self,
        by: TrackId,
        seen_as: Piece,
        t: f64,
    ) -> Option<TakenFromRest> {
        let (k, lost) = self
            .taken_from_rest
            .iter()
            .enumerate()
            .find_map(|(k, taken)| {
                let lost = self
                    .lost_mid_board
                    .iter()
                    .position(|&(_, at, _)| (at - taken.spot).norm() <= STILL_JITTER_MM)?;
                (taken.by == by && taken.piece != seen_as && taken.t <= t).then_some((k, lost))
            })?;
        self.lost_mid_board.remove(lost);
        Some(self.taken_from_rest.remove(k))
    }

    /// Gives each pocketing the colour of the carromman its track took from
    /// rest, where [`Self::claim_taken_from_rest`] finds one: the piece that
    /// went in was that carromman, whatever the striker's blur made its
    /// track.
    fn recolour_pieces_taken_from_rest(&mut self, stroke: &mut SeenStroke) {
        for k in 0..self.pocketed_tracks.len() {
            let (by, seen_as, t) = self.pocketed_tracks[k];
            let Some(pocketing) = stroke
                .stroke
                .pocketed
                .iter()
                .position(|p| p.piece == seen_as && p.t == Some(t))
            else {
                continue;
            };
            let Some(taken) = self.claim_taken_from_rest(by, seen_as, t) else {
                continue;
            };
            stroke.stroke.pocketed[pocketing].piece = taken.piece;
            self.pocketed_tracks[k].1 = taken.piece;
            stroke.vision.alerts.push(taken.alert(seen_as));
        }
    }

    /// Notes the striker's track and a carromman's swapping pieces as the
    /// striker hits it lying still: the striker's track sped up this frame
    /// by half again or more, and the carromman's track, still until the
    /// striker came within touching distance of it, now lies where the
    /// striker's was last frame. A striker (up to 15 g under the ICF laws)
    /// is nearly three times a carromman's weight: hitting one at rest it
    /// goes on slower, never faster, and the carromman leaves faster. The
    /// striker's track is following the carromman, and the carromman's the
    /// striker. Returns the striker's track from now on.
    fn note_swap_at_collision(&mut self, frame: &TrackFrame, striker: TrackId) -> Option<TrackId> {
        let n = self.recent.len();
        if self.read_from_a_carromman || n < 3 + STILL_BEFORE_TAKEN {
            return None;
        }
        let at = |i: usize, id: TrackId| self.recent[i].disc(id).map(|(p, _)| p);
        let (s0, s1, s2) = (
            at(n - 3, striker)?,
            at(n - 2, striker)?,
            at(n - 1, striker)?,
        );
        let (step_before, step_now) = ((s1 - s0).norm(), (s2 - s1).norm());
        if step_before < SWAP_STEP_BEFORE_MM
            || step_now < SWAP_SPEED_UP * step_before
            || step_now - step_before < SWAP_STEP_GAIN_MM
        {
            return None;
        }
        // A track that lay still before its first step was only setting
        // off: that step covers part of a frame (a piece struck between
        // two frames, or one nudged by the striker's blur as it arrives,
        // dev clip 2893), and the next is faster by itself.
        if lay_still(&self.recent, striker, s0, n - 3 - STILL_BEFORE_TAKEN..n - 3) {
            return None;
        }
        let touching = STRIKER_RADIUS_MM + CARROMMAN_RADIUS_MM + SWAP_CONTACT_MARGIN_MM;
        let swapped: Vec<(TrackId, Piece, Point2<f64>)> = frame
            .tracks
            .iter()
            .filter(|t| t.id != striker && t.piece != Piece::Striker)
            .filter_map(|t| {
                let (spot, now) = (at(n - 3, t.id)?, at(n - 1, t.id)?);
                (lay_still(&self.recent, t.id, spot, n - 3 - STILL_BEFORE_TAKEN..n - 3)
                    && (s1 - spot).norm() <= touching
                    && (now - s1).norm() <= 2.0 * CARROMMAN_RADIUS_MM)
                    .then_some((t.id, t.piece, spot))
            })
            .collect();
        let [(carromman, piece, spot)] = swapped[..] else {
            return None;
        };
        self.swapped.insert(striker, piece);
        self.swapped.insert(carromman, Piece::Striker);
        self.note_on_current(
            frame.t,
            format!(
                "the striker's track sped up from {:.0} to {:.0} mm a frame as it hit a {piece} lying at ({:.0}, {:.0}) mm: the two tracks swapped pieces, and the striker's now follows the {piece}",
                step_before, step_now, spot.x, spot.y
            ),
        );
        Some(carromman)
    }

    /// Keeps this frame's positions for [`knocked_towards`].
    fn remember_positions(&mut self, frame: &TrackFrame) {
        if self.recent.len() == RECENT_FRAMES {
            self.recent.pop_front();
        }
        let seen = frame
            .tracks
            .iter()
            .filter(|t| t.seen_this_frame() && !t.hidden)
            .map(|t| (t.id, t.position, t.radius_mm()))
            .collect();
        let hidden = frame
            .tracks
            .iter()
            .filter(|t| t.hidden && t.piece != Piece::Striker)
            .map(|t| (t.id, t.position, t.piece))
            .collect();
        self.recent.push_back(Positions {
            t: frame.t,
            discs: seen,
            tentative: frame.tentative.clone(),
            hidden,
        });
    }

    /// Touches, pocketings and pieces off the board during motion. Returns
    /// the striker's track from now on (a twin on its blur may take over).
    fn follow(&mut self, frame: &TrackFrame, striker: TrackId) -> TrackId {
        let options = self.options;
        if let Some(mut current) = self.current.take() {
            self.judge_flung(&mut current, frame.t);
            self.current = Some(current);
        }
        if self.current.is_none() {
            return striker;
        }
        self.note_pieces_taken_from_rest(frame, striker);
        let swapped_to = self.note_swap_at_collision(frame, striker);
        let Some(current) = self.current.as_mut() else {
            return striker;
        };
        let mut striker_now = swapped_to.unwrap_or(striker);
        let striker_track = frame.tracks.iter().find(|t| t.id == striker);
        for track in frame.tracks.iter().filter(|t| t.id != striker) {
            let hit = track.speed() >= options.hit_speed;
            let in_contact = striker_track.is_some_and(|s| {
                (s.position - track.position).norm()
                    <= s.radius_mm() + track.radius_mm() + contact_slack_mm(s.speed())
            });
            if hit || in_contact {
                current.stroke.touched = true;
            }
        }
        for event in &frame.events {
            if let TrackEvent::Appeared {
                id,
                piece,
                found_again,
                at,
                t,
            } = *event
            {
                if let Some(lost) = found_again {
                    let found = self
                        .lost_towards_pocket
                        .extract_if(.., |l| l.id == lost && !l.found_elsewhere(at, t));
                    self.found_where_lost.extend(found.map(|l| (id, l)));
                }
                // Lost by a pocket and found again on its lip: it stopped
                // there unseen (half in the hole's shadow), and never went
                // in. The tracker looks for no piece lost by a pocket, so
                // one back off the jaws is a new track of its kind, first
                // seen on the lip as the piece was lost and not heading in
                // (see [`CAME_BACK_OUT_WITHIN_S`]); confirmed once it has
                // moved on, it came out where it was first seen.
                let (first_t, first_at, heading) = match found_again {
                    None if !self.pocketed_tracks.is_empty()
                        || !self.lost_towards_pocket.is_empty() =>
                    {
                        let (first_t, first_at) =
                            sightings_back(&self.recent, id, Sightings::AndTentative)
                                .last()
                                .unwrap_or((t, at));
                        let heading = frame
                            .tracks
                            .iter()
                            .find(|track| track.id == id)
                            .map_or_else(Vector2::zeros, |track| track.velocity);
                        (first_t, first_at, heading)
                    }
                    _ => (t, at, Vector2::zeros()),
                };
                let lip = options.pocket_reach_mm + CARROMMAN_RADIUS_MM;
                let on_the_lip = pocketing_disproved_on_its_lip(
                    &self.pocketed_tracks,
                    &current.stroke.pocketed,
                    lip,
                    (first_at, heading),
                    |&(track, kind, went_t)| match found_again {
                        Some(lost) => track == lost,
                        None => {
                            kind == piece
                                && (-CAME_BACK_OUT_EARLY_S..=CAME_BACK_OUT_WITHIN_S)
                                    .contains(&(first_t - went_t))
                        }
                    },
                );
                if let Some((k, i)) = on_the_lip {
                    let (_, piece, went_t) = self.pocketed_tracks.remove(k);
                    let pocket = current.stroke.pocketed.remove(i).pocket;
                    let pocket = pocket.map_or("?", Pocket::name);
                    let message = if found_again.is_some() {
                        format!(
                            "a {piece} lost by the {pocket} pocket was found again on its lip at ({:.0}, {:.0}) mm: it did not go in",
                            at.x, at.y
                        )
                    } else {
                        format!(
                            "a {piece} lost by the {pocket} pocket, and a {piece} first seen on its lip at ({:.0}, {:.0}) mm {:.2} s from then, not heading in: it came back off the jaws and did not go in",
                            first_at.x,
                            first_at.y,
                            (first_t - went_t).abs()
                        )
                    };
                    current.vision.alerts.push(VisionNote { t, message });
                }
                // So with a piece lost speeding at a pocket, never seen going
                // in (clip 3796: a white lost 50 mm from the NE pocket's
                // centre bounced off its jaws, and a white first seen 58 mm
                // from it 0.1 s later crept away along the cushion).
                let came_back_out = match found_again {
                    None => lost_by_a_pocket_came_back_out(
                        &self.lost_towards_pocket,
                        piece,
                        (first_t, first_at, heading),
                        lip,
                    ),
                    Some(_) => None,
                };
                if let Some(k) = came_back_out {
                    let lost = self.lost_towards_pocket.remove(k);
                    current.vision.alerts.push(VisionNote {
                        t,
                        message: format!(
                            "a {piece} lost from sight at ({:.0}, {:.0}) mm speeding at the {} pocket, and a {piece} first seen on its lip at ({:.0}, {:.0}) mm {:.2} s from then, not heading in: it came back off the jaws and did not go in",
                            lost.last_seen.x,
                            lost.last_seen.y,
                            lost.pocket.name(),
                            first_at.x,
                            first_at.y,
                            (first_t - lost.t).abs()
                        ),
                    });
                }
            }
            if let TrackEvent::Appeared {
                found_again: Some(lost),
                at,
                t,
                ..
            } = *event
            {
                // Off the board and back: it hit the frame, not the floor,
                // if found where it could have come back to.
                if let Some(k) = self
                    .overboard_tracks
                    .iter()
                    .position(|off| off.id == lost && off.could_be_back_at(at, t))
                {
                    let off = self.overboard_tracks.remove(k);
                    if k < current.stroke.overboard.len() {
                        let piece = current.stroke.overboard.remove(k).piece;
                        current.vision.alerts.push(VisionNote {
                            t,
                            message: format!(
                                "a {piece} seen leaving the board at ({:.0}, {:.0}) mm was found again at ({:.0}, {:.0}) mm, within its reach: it came back off the frame",
                                off.last_seen.x, off.last_seen.y, at.x, at.y
                            ),
                        });
                    }
                }
            }
            if let TrackEvent::Vanished {
                id,
                piece,
                heading_to,
                last_seen,
                t,
                hand_near,
                speed,
            } = *event
            {
                // A striker read as a carromman splits in two on its blur:
                // the loss of one track of the pair, while the other goes
                // on in sight, is no piece leaving, and the striker is the
                // one that went on. The second track is born on the blur: a
                // track from before the strike is a piece the striker met.
                // (So does a striker seen as one: its second track may be
                // read as a carromman and go on alone.)
                if piece != Piece::Striker || id == striker {
                    let born_since_strike =
                        |id: TrackId| self.tracks_at_strike.binary_search(&id).is_err();
                    let went_on = if id == striker {
                        frame
                            .tracks
                            .iter()
                            .filter(|other| {
                                other.id != id
                                    && other.seen_this_frame()
                                    && born_since_strike(other.id)
                            })
                            .find(|other| {
                                followed_the_same_piece(&self.recent, id, last_seen, other.id)
                                    && !apart_when_last_seen(&self.recent, id, other.id)
                            })
                            .map(|other| other.id)
                    } else if born_since_strike(id) {
                        striker_track
                            .filter(|s| {
                                // Told the striker by its size, it is the
                                // striker unless another disc is (clip
                                // 2490: a black read as the striker on its
                                // blur); if it is, a twin on its blur is no
                                // piece leaving either (clip 2764).
                                (s.piece != Piece::Striker
                                    || frame
                                        .tracks
                                        .iter()
                                        .all(|t| t.id == s.id || t.piece != Piece::Striker))
                                    && s.seen_this_frame()
                                    && followed_the_same_piece(&self.recent, id, last_seen, s.id)
                                    && !apart_when_last_seen(&self.recent, id, s.id)
                            })
                            .map(|s| s.id)
                    } else {
                        None
                    };
                    if let Some(went_on) = went_on {
                        current.vision.alerts.push(VisionNote {
                            t,
                            message: format!(
                                "a {piece} lost at ({:.0}, {:.0}) mm and another track had followed the striker together: the striker seen twice, and it went on",
                                last_seen.x, last_seen.y
                            ),
                        });
                        striker_now = went_on;
                        continue;
                    }
                }
                // Where it left the board: into a pocket, or over the edge.
                // Whether it ran hard at the frame it went over. One lost by
                // a pocket creeping away from it, or lying still, short of
                // its hole, lies on the lip unless something knocks it in
                // (clip 3017: a white that came back off the cushion to
                // rest 40 mm from the NE pocket's centre went from sight
                // and was taken as pocketed). One creeping towards the hole
                // may be seen lagging behind: it is judged as going in.
                let went = where_it_went(&options, last_seen, heading_to);
                let velocity = velocity_towards(last_seen, heading_to, speed);
                let on_a_lip = match went {
                    Exit::Pocket(pocket)
                        if velocity.dot(&(pocket_centre(pocket) - last_seen)) <= 0.0
                            && stops_short_of_a_hole_from(last_seen, velocity) =>
                    {
                        Some(pocket)
                    }
                    _ => None,
                };
                let (exit, ran) = match went {
                    _ if on_a_lip.is_some() => (Exit::Nowhere, false),
                    // Lost short of the edge, but seen where its rim met the
                    // cushion, or heading past the edge within a frame, and
                    // running hard at the frame: it jumped. (Only with the
                    // run seen: one lost creeping there is still judged
                    // below, as lost near a pocket or mid-board.)
                    Exit::Nowhere => match reached_the_frame(last_seen, heading_to) {
                        crossed if ran_at_the_frame(&self.recent, id, crossed) => {
                            (Exit::Edge(crossed), true)
                        }
                        _ => (Exit::Nowhere, false),
                    },
                    Exit::Edge(crossed) => (
                        Exit::Edge(crossed),
                        ran_at_the_frame(&self.recent, id, crossed),
                    ),
                    exit => (exit, false),
                };
                // An arm over that side of the frame, or just gone, leaves
                // blobs there a track can leap along: such a run at the
                // frame is no jump (clip 3643: a break piece's track, taken
                // over by the striker, leapt along the withdrawing hand's
                // blobs to north's cushion and was lost there).
                let arms = &self.arm_over_the_board;
                let ran = ran
                    && !matches!(exit, Exit::Edge(crossed)
                        if sides_of(crossed).any(|seat| arm_left_blobs(arms, seat, t)));
                // A carromman's blur read as several discs in the frame it
                // was first seen: one of those tracks leaving while another
                // was seen after it is the piece seen twice.
                let leaving = matches!(exit, Exit::Pocket(_)) || ran;
                if leaving && piece != Piece::Striker && id != striker {
                    if let Some((twin, seen_at)) = blur_twin_seen_after(&self.recent, id, speed) {
                        current.vision.alerts.push(VisionNote {
                            t,
                            message: format!(
                                "a {piece} lost at ({:.0}, {:.0}) mm was first seen as one blur with track {}, seen after it at ({:.0}, {:.0}) mm: one piece seen twice, not a piece leaving",
                                last_seen.x, last_seen.y, twin.0, seen_at.x, seen_at.y
                            ),
                        });
                        continue;
                    }
                }
                // Picked up only as it flew from where it lay, too late to
                // show a run at the frame: judged once it could have come
                // back.
                if !matches!(exit, Exit::Pocket(_)) && !ran {
                    // An arm over that side of the frame, or just gone,
                    // leaves blobs there a new track can leap to.
                    let flung = FlungAtTheFrame::of(&self.recent, id, piece, t)
                        .filter(|flung| !arm_left_blobs(arms, flung.side_seat(), t));
                    if let Some(flung) = flung {
                        self.flung.push(flung);
                        continue;
                    }
                }
                let left_into = match exit {
                    Exit::Pocket(pocket) => {
                        if let Some(&(_, kind)) = self
                            .striker_twins_of_lost
                            .iter()
                            .find(|(twin, _)| *twin == id)
                        {
                            current.vision.striker_twins_going_in.push((t, kind));
                        }
                        if self.striker_read_as_a_carromman == Some(id) && piece != Piece::Striker {
                            current.vision.read_as_a_carromman_striker_going_in.push(t);
                        }
                        self.pocketed_tracks.push((id, piece, t));
                        current.stroke.pocketed.push(PocketedPiece {
                            piece,
                            pocket: Some(pocket),
                            t: Some(t),
                            late: false,
                        });
                        Some(Some(pocket))
                    }
                    Exit::Edge(_) if ran => {
                        let off = LeftTheBoard {
                            id,
                            last_seen,
                            meets_frame_at: where_it_meets_the_frame(
                                last_seen,
                                heading_to - last_seen,
                            ),
                            seen_t: sightings_back(&self.recent, id, Sightings::Confirmed)
                                .next()
                                .map_or(t, |(seen, _)| seen),
                            speed,
                        };
                        record_off_the_board(current, &mut self.overboard_tracks, piece, off, t)
                            .then_some(None)
                    }
                    Exit::Edge(_) => {
                        current.vision.alerts.push(VisionNote {
                            t,
                            message: format!(
                                "lost sight of a {piece} by the cushion at ({:.0}, {:.0}) mm, never seen running at the frame hard enough to jump it",
                                last_seen.x, last_seen.y
                            ),
                        });
                        None
                    }
                    Exit::Nowhere => {
                        let pocket = if hand_near && speed >= options.hit_speed {
                            // A hand over the board hides what it moves.
                            None
                        } else if speed >= options.hit_speed {
                            // A heading measured off a track pulled to and
                            // fro (pieces scattering from a cluster swap
                            // their tracks) points nowhere in particular.
                            let heading = heading_to - last_seen;
                            // The speed between its last two sightings: the
                            // track's own reads the way over frames it went
                            // unseen as one frame's, and lags behind a piece
                            // slowing down.
                            steady_course_of(&self.recent, id)
                                .filter(|&seen| along_the_course(heading, seen))
                                .and_then(|seen| {
                                    let pocket = pocket_ahead(last_seen, heading, seen.norm())?;
                                    Some((pocket, seen.norm()))
                                })
                                .or_else(|| {
                                    knocked_from_rest_towards(
                                        &self.recent,
                                        id,
                                        last_seen,
                                        striker,
                                        0.0,
                                    )
                                })
                                .or_else(|| {
                                    if piece == Piece::Striker {
                                        return None;
                                    }
                                    let set_off = set_off_course_of(&self.recent, id, striker)
                                        .filter(|&seen| along_the_course(heading, seen))?;
                                    let pocket = pocket_ahead(last_seen, set_off, set_off.norm())?;
                                    Some((pocket, set_off.norm()))
                                })
                                .or_else(|| {
                                    let course = course_before_a_stall(&self.recent, id)?;
                                    let pocket = pocket_ahead(last_seen, course, course.norm())?;
                                    Some((pocket, course.norm()))
                                })
                                .or_else(|| {
                                    // Knocked from rest and seen moving in
                                    // one frame only, its step pulled by the
                                    // blob of what knocked it, it shows no
                                    // course of its own; a glimpse of it on
                                    // its way does, as for a slow one (clip
                                    // 3613: a black knocked at the NW
                                    // pocket, last seen 9 mm from where it
                                    // lay, towards the striker, then only as
                                    // a disc never confirmed 28 mm on). Not
                                    // one already running: a disc beyond it
                                    // is as likely itself slowing down (clip
                                    // 3591).
                                    (piece != Piece::Striker
                                        && knocked_from_rest(&self.recent, id).is_some())
                                    .then(|| glimpsed_leaving(&self.recent, frame, id, last_seen))
                                    .flatten()
                                    .map(|pocket| (pocket, f64::INFINITY))
                                })
                        } else {
                            // A disc seen knocking it is evidence a hand is not;
                            // so is the piece glimpsed on its way (at a speed
                            // one glimpse does not tell).
                            knocked_towards(&self.recent, id, last_seen, striker)
                                .or_else(|| {
                                    (piece != Piece::Striker)
                                        .then(|| {
                                            glimpsed_leaving(&self.recent, frame, id, last_seen)
                                        })
                                        .flatten()
                                        .map(|pocket| (pocket, f64::INFINITY))
                                })
                                .or_else(|| {
                                    // Knocked from rest and seen once on its
                                    // way, then followed unseen under a hand
                                    // that has since gone: the track coasted
                                    // to a stop where it was last seen, so
                                    // its speed at the loss says nothing,
                                    // but its one step does (clip 6410: a
                                    // black lying 85 mm from the NW pocket
                                    // stepped 15 mm straight at it, then lay
                                    // hidden under north's hand, and the
                                    // count at rest missed a black).
                                    if piece == Piece::Striker || hand_near {
                                        return None;
                                    }
                                    knocked_from_rest_towards(
                                        &self.recent,
                                        id,
                                        last_seen,
                                        striker,
                                        options.hit_speed,
                                    )
                                })
                        };
                        let knocked_in_unseen = match pocket {
                            None if !hand_near && piece != Piece::Striker => {
                                knocked_in_as_tracks_swapped(
                                    &self.recent,
                                    frame,
                                    (id, piece, last_seen),
                                    striker,
                                )
                                .or_else(|| {
                                    ran_in_as_tracks_swapped(
                                        &self.recent,
                                        frame,
                                        (id, piece, last_seen),
                                    )
                                })
                            }
                            _ => None,
                        };
                        // Lost with no pocket, no hand and no knock: a
                        // track that "found" a piece lost at a pocket where
                        // it was lost, and never left the spot.
                        let found_here = match (&pocket, &knocked_in_unseen) {
                            (None, None) if piece != Piece::Striker => {
                                found_on_the_spot(&self.found_where_lost, id, last_seen, t)
                            }
                            _ => None,
                        };
                        match (pocket, knocked_in_unseen) {
                            (Some((pocket, its_speed)), _) => {
                                self.lost_towards_pocket.push(LostTowardsPocket {
                                    id,
                                    piece,
                                    pocket,
                                    last_seen,
                                    t,
                                    speed: its_speed.max(speed),
                                    striker_elsewhere: piece == Piece::Striker
                                        && frame
                                            .tracks
                                            .iter()
                                            .any(|t| t.piece == Piece::Striker && t.id != id),
                                })
                            }
                            (None, _) if hand_near => {}
                            (None, Some(knocked)) => knocked.record_in(current, t),
                            (None, None) if found_here.is_some() => {
                                if let Some(k) = found_here {
                                    let (_, lost) = self.found_where_lost.remove(k);
                                    current
                                        .vision
                                        .alerts
                                        .push(lost.found_on_its_spot(last_seen, t));
                                    self.lost_towards_pocket.push(lost);
                                }
                            }
                            (None, None) => {
                                if piece == Piece::Striker && id == striker {
                                    current.vision.striker_lost_mid_board.push((last_seen, t));
                                    self.stopped_on.extend(StoppedOnAPiece::of(
                                        &self.recent,
                                        frame,
                                        id,
                                        &self.tracks_at_strike,
                                        t,
                                    ));
                                }
                                if piece != Piece::Striker {
                                    // Only looked for where the striker was
                                    // struck back: no other loss here is kept.
                                    let its_kind_since = self.struck_back
                                        && frame.tracks.iter().any(|other| {
                                            other.piece == piece
                                                && self
                                                    .tracks_at_strike
                                                    .binary_search(&other.id)
                                                    .is_err()
                                        });
                                    current.vision.lost_behind_the_lines.extend(
                                        LostBehindTheLines::of(
                                            &current.stroke,
                                            (self.struck_back, its_kind_since),
                                            &self.lying_at_last_rest,
                                            (id, piece, last_seen, t),
                                        ),
                                    );
                                    self.lost_mid_board.push((piece, last_seen, t));
                                    // A blurred carromman is often followed
                                    // by a second, striker-sized track too.
                                    self.striker_twins_of_lost.extend(
                                        frame
                                            .tracks
                                            .iter()
                                            .filter(|other| {
                                                other.piece == Piece::Striker
                                                    && followed_the_same_piece(
                                                        &self.recent,
                                                        id,
                                                        last_seen,
                                                        other.id,
                                                    )
                                            })
                                            .map(|twin| (twin.id, piece)),
                                    );
                                }
                                let whereabouts = on_a_lip.map_or_else(
                                    || "away from pockets and edges".to_string(),
                                    |pocket| {
                                        format!(
                                            "creeping on the {} pocket's lip, short of its hole",
                                            pocket.name()
                                        )
                                    },
                                );
                                current.vision.alerts.push(VisionNote {
                                    t,
                                    message: format!(
                                        "lost sight of a {piece} at ({:.0}, {:.0}) mm, {whereabouts}",
                                        last_seen.x, last_seen.y
                                    ),
                                });
                            }
                        }
                        // Taken as pocketed when the stroke ends, unless a
                        // twin track carried on with the piece meanwhile.
                        pocket.map(|(pocket, _)| Some(pocket))
                    }
                };
                if let Some(pocket) = left_into {
                    self.shadowed.extend(shadowed_exits(
                        &self.recent,
                        frame,
                        (id, striker),
                        piece,
                        last_seen,
                        pocket,
                        t,
                    ));
                }
            }
        }
        striker_now
    }

    /// A piece that drops into a pocket after the stroke came to rest.
    fn late_pocketings(&mut self, frame: &TrackFrame) {
        let options = self.options;
        for event in &frame.events {
            if let TrackEvent::Vanished {
                piece,
                heading_to,
                last_seen,
                t,
                hand_near: false,
                ..
            } = *event
            {
                if piece == Piece::Striker {
                    continue;
                }
                let Some(last) = self.finished.last_mut() else {
                    continue;
                };
                // A piece teeters on the lip for a moment, not for seconds: a
                // track lost by a pocket later is a hand's ghost or a blur.
                if last
                    .vision
                    .rest
                    .as_ref()
                    .is_some_and(|rest| t - rest.t > LATE_POCKETING_S)
                {
                    continue;
                }
                if let Exit::Pocket(pocket) = where_it_went(&options, last_seen, heading_to) {
                    last.stroke.pocketed.push(PocketedPiece {
                        piece,
                        pocket: Some(pocket),
                        t: Some(t),
                        late: true,
                    });
                }
            }
        }
    }

    /// Judges `done` by the pieces seen at rest in `frame` (what left, what
    /// stayed, the count), and keeps it unless it was the board being set
    /// out.
    /// Notes the striker (track `id`) seen behind its seat's base lines
    /// within [`LOST_BEHIND_THE_LINES_WITHIN_S`] of the strike: struck back
    /// towards its own cushion.
    fn note_the_striker_behind_its_lines(&mut self, frame: &TrackFrame, id: TrackId) {
        let Some(stroke) = self.current.as_ref().map(|current| &current.stroke) else {
            return;
        };
        if self.struck_back {
            return;
        }
        let soon = stroke
            .t
            .is_some_and(|struck| frame.t - struck <= LOST_BEHIND_THE_LINES_WITHIN_S);
        let seat = stroke.seat;
        self.struck_back |= soon
            && frame
                .tracks
                .iter()
                .any(|t| t.id == id && t.seen_this_frame() && behind_the_lines(t.position, seat));
    }

    /// Drops the striker lost from sight speeding at a pocket where no
    /// striker rests and a carromman does, short of the pocket and within
    /// [`STOPPED_SHORT_MM`] of where the striker was lost, on a spot where
    /// none of its kind lay at the last rest: the striker stopped there, read as a
    /// carromman by its colour (clip 6129: lost 31 mm short of where a
    /// "white" came to rest, the striker; clip 3991: 84 mm short, off the
    /// north cushion).
    fn drop_strikers_stopped_short(&mut self, stroke: &mut SeenStroke, at_rest: &TrackFrame) {
        if at_rest.tracks.iter().any(|t| t.piece == Piece::Striker) {
            return;
        }
        let lying_before = &self.lying_at_last_rest;
        // Of its kind: the striker may stop where the piece it knocked on
        // lay (clip 6129: a "white" resting 4 mm from where a black lay).
        let new_at_rest = |t: &&Track| {
            t.piece != Piece::Striker
                && lying_before.iter().all(|&(_, spot, piece)| {
                    piece != t.piece || (spot - t.position).norm() > 2.0 * CARROMMAN_RADIUS_MM
                })
        };
        self.lost_towards_pocket.retain(|lost| {
            if lost.piece != Piece::Striker {
                return true;
            }
            let to_the_pocket = (pocket_centre(lost.pocket) - lost.last_seen).norm();
            let stopped = at_rest.tracks.iter().filter(new_at_rest).find(|t| {
                let away = (t.position - lost.last_seen).norm();
                away <= STOPPED_SHORT_MM && away < to_the_pocket
            });
            let Some(stopped) = stopped else {
                return true;
            };
            stroke.vision.alerts.push(VisionNote {
                t: lost.t,
                message: format!(
                    "a striker lost from sight at ({:.0}, {:.0}) mm speeding at the {} pocket is not taken as pocketed: no striker rests, but a {} does at ({:.0}, {:.0}) mm, short of the pocket where none lay before the stroke: the striker stopped there",
                    lost.last_seen.x,
                    lost.last_seen.y,
                    lost.pocket.name(),
                    stopped.piece,
                    stopped.position.x,
                    stopped.position.y
                ),
            });
            false
        });
    }

    fn close_at_rest(&mut self, mut done: SeenStroke, frame: &TrackFrame) {
        self.drop_strikers_stopped_short(&mut done, frame);
        self.record_lost_towards_pockets(&mut done);
        for stopped in std::mem::take(&mut self.stopped_on) {
            if stopped.went_in_judged_at_rest(frame, &self.pocketed_tracks) {
                stopped.record_in(&mut done);
            }
        }
        self.judge_flung(&mut done, f64::INFINITY);
        done.vision.lost_from_sight.clone_from(&self.lost_mid_board);
        withdraw_shadowed(&mut done, &mut self.shadowed, &self.pocketed_tracks, frame);
        reconcile_exits(
            &mut done,
            frame,
            &self.pocketed_tracks,
            &self.on_lips_at_strike,
        );
        done.vision.rest = Some(RestSnapshot::of(frame, self.viewpoint));
        done.vision.striker_unseen = self.read_from_a_carromman;
        self.lying_at_last_rest = frame
            .tracks
            .iter()
            .filter(|t| t.piece != Piece::Striker)
            .map(|t| (t.id, t.position, t.piece))
            .collect();
        // No stroke yet, or the board found set out since: this one would
        // be the break.
        let before_the_break = self.finished.is_empty() || self.set_out_for_the_break;
        if moved_nothing_set_out(&done, frame, before_the_break) {
            self.set_out_motion = Some(VisionNote {
                t: done.stroke.t.unwrap_or(frame.t),
                message: SET_OUT_MOTION.to_string(),
            });
        } else {
            self.set_out_for_the_break = false;
            self.finished.push(done);
        }
    }

    /// The pieces on the board as a stroke starts in `frame`: the break
    /// arrangement's where it lies set out, else the most counted since the
    /// last rest.
    fn count_before(&mut self, frame: &TrackFrame) -> SeenCount {
        let seen = SeenCount::of(&frame.tracks).at_least(self.most_seen_since_rest.take());
        if self.set_out_for_the_break {
            SeenCount::BREAK
        } else {
            seen
        }
    }

    /// Ends the clip: a stroke still in motion is kept and marked unfinished.
    /// One whose pieces had all stopped for [`END_REST_FRAMES`] when the
    /// clip ended is judged at rest in its last frame (a recording stopped
    /// as the pieces settled), and still marked unfinished.
    pub fn finish(mut self) -> Vec<SeenStroke> {
        let still_at_the_end = self
            .last_still
            .take()
            .filter(|(_, still)| *still >= END_REST_FRAMES);
        match (self.current.take(), still_at_the_end) {
            (Some(mut current), Some((frame, still))) => {
                current.vision.ended_mid_stroke = true;
                current.vision.alerts.push(VisionNote {
                    t: frame.t,
                    message: format!(
                        "the clip ended {still} frames after the pieces stopped: the stroke is judged at rest there"
                    ),
                });
                self.close_at_rest(current, &frame);
            }
            (Some(mut current), None) => {
                current.vision.ended_mid_stroke = true;
                self.record_lost_towards_pockets(&mut current);
                self.judge_flung(&mut current, f64::INFINITY);
                // No count at rest to judge by: only what is surely one piece.
                current.stroke.pocketed = drop_twin_pocketings(
                    &mut current,
                    |_| u32::MAX,
                    |_| true,
                    |p, q| born_earlier(&self.pocketed_tracks, p, q),
                );
                self.finished.push(current);
            }
            (None, _) => {}
        }
        self.finished
    }
}

/// Two pocketings of the same kind into the same pocket this close together
/// (s) are one piece seen twice (its track split as it sped in), unless the
/// count at rest says two went.
const SAME_POCKETING_S: f64 = 0.3;

/// Two pocketings of the same kind into the same pocket within this time (s,
/// about two frames at 30 fps) are one piece whatever the count says: two
/// carrommen cannot pass through one pocket's mouth together.
const SAME_POCKETING_SURELY_S: f64 = 0.07;

/// Two tracks of one kind leaving the board over the frame within this time
/// (s, three frames at 30 fps) and nearer than a diameter are one piece.
const ONE_PIECE_OFF_S: f64 = 0.1;

/// Pieces at rest this near (mm) in two snapshots lie in the same spot: a
/// resting track's centre wanders by a millimetre or two.
const SAME_SPOT_MM: f64 = 5.0;

/// A piece lost by a pocket this long (s) after the stroke came to rest did
/// not drop in late.
const LATE_POCKETING_S: f64 = 1.0;

/// A piece of the kind seen going in that lies at rest this near (mm) the
/// pocket's centre after the stroke stayed on the lip: the pocketing was a
/// bounce lost from sight.
const POCKET_LIP_MM: f64 = POCKET_RADIUS_MM + 3.0 * CARROMMAN_RADIUS_MM;

/// A piece on a pocket's lip at the strike that lies within this (mm) of
/// where it lay at rest was not moved by the stroke: a knock sends a piece
/// farther, and a track at rest wanders less.
const UNMOVED_ON_A_LIP_MM: f64 = CARROMMAN_RADIUS_MM / 3.0;

/// A piece taken as gone into a pocket and another of its kind first seen
/// on that pocket's lip (within the reach a piece found again there is
/// judged on) at most this many seconds later, not heading into the hole,
/// is the piece itself, back off the jaws: the tracker looks for no piece
/// lost by a pocket, so the one that came back out is born a new track
/// (clip 3836: a black lost 33 mm from the NE pocket's centre, and a black
/// first seen 33 mm from it, beside the lost one's last sighting, that
/// crept off to rest 62 mm out). It may be first seen up to
/// [`CAME_BACK_OUT_EARLY_S`] before the pocketing's time, while the lost
/// track still coasted unseen.
const CAME_BACK_OUT_WITHIN_S: f64 = 0.25;

/// The tracker gives a piece in motion up for gone the third frame it goes
/// unseen (0.1 s at 30 fps): a disc beside its last sighting, in that same
/// frame, may be its blur read twice (clip 3836, 17 mm from it).
const CAME_BACK_OUT_EARLY_S: f64 = 0.12;

/// Which of the pieces `lost` speeding at a pocket, never seen going in, a
/// new track of their kind `piece` came back off the pocket's jaws as: one
/// first seen at `first_t` (s) and `first_at`, moving at `heading` (mm/s),
/// within `lip` (mm) of the pocket's centre and not heading into it, as
/// the piece was lost (see [`CAME_BACK_OUT_WITHIN_S`]).
fn lost_by_a_pocket_came_back_out(
    lost: &[LostTowardsPocket],
    piece: Piece,
    (first_t, first_at, heading): (f64, Point2<f64>, Vector2<f64>),
    lip: f64,
) -> Option<usize> {
    lost.iter().position(|lost| {
        lost.piece == piece
            && (-CAME_BACK_OUT_EARLY_S..=CAME_BACK_OUT_WITHIN_S).contains(&(first_t - lost.t))
            && on_the_lip_not_heading_in(lost.pocket, lip, (first_at, heading))
    })
}

/// Whether a disc at `at` moving at `heading` (mm/s) lies within `reach`
/// (mm) of `pocket`'s centre and is not heading into the hole.
fn on_the_lip_not_heading_in(
    pocket: Pocket,
    reach: f64,
    (at, heading): (Point2<f64>, Vector2<f64>),
) -> bool {
    let from_hole = at - pocket_centre(pocket);
    from_hole.norm() <= reach && heading.dot(&from_hole) >= 0.0
}

/// The pocketing (its index in `pocketed_tracks`, and in the stroke's
/// `pocketed`) of the first of `pocketed_tracks` that `went_in` picks whose
/// pocket a disc seen at `at`, moving at `heading` (mm/s), lies on the lip
/// of: within `reach` (mm) of the pocket's centre, not heading into it.
fn pocketing_disproved_on_its_lip(
    pocketed_tracks: &[(TrackId, Piece, f64)],
    pocketed: &[PocketedPiece],
    reach: f64,
    (at, heading): (Point2<f64>, Vector2<f64>),
    went_in: impl Fn(&(TrackId, Piece, f64)) -> bool,
) -> Option<(usize, usize)> {
    pocketed_tracks
        .iter()
        .enumerate()
        .filter(|(_, p)| went_in(p))
        .find_map(|(k, &(_, piece, went_t))| {
            let i = pocketed.iter().position(|p| {
                p.piece == piece
                    && p.t == Some(went_t)
                    && p.pocket.is_some_and(|pocket| {
                        on_the_lip_not_heading_in(pocket, reach, (at, heading))
                    })
            })?;
            Some((k, i))
        })
}

/// Drops the second of two pocketings that are one piece seen going in
/// twice (its track split as it sped in): the same kind into the same
/// pocket within two frames always, within `SAME_POCKETING_S` unless
/// `missing(kind)` (the count at rest) says more went; of two kinds, the
/// one `missed` (the count at rest against the laws' count too, see
/// [`missing_against_the_laws`]) where only one is. Each drop is an
/// alert. Returns the pocketings kept, in time order.
fn drop_twin_pocketings(
    stroke: &mut SeenStroke,
    missing: impl Fn(Piece) -> u32,
    missed: impl Fn(Piece) -> bool,
    born_earlier: impl Fn(&PocketedPiece, &PocketedPiece) -> bool,
) -> Vec<PocketedPiece> {
    let mut pocketed: Vec<PocketedPiece> = Vec::new();
    for p in std::mem::take(&mut stroke.stroke.pocketed) {
        let twin_within = |seconds: f64| {
            pocketed.iter().any(|q| {
                q.piece == p.piece
                    && q.pocket == p.pocket
                    && matches!((q.t, p.t), (Some(a), Some(b)) if (a - b).abs() <= seconds)
            })
        };
        let same_kind = pocketed.iter().filter(|q| q.piece == p.piece).count() as u32;
        if twin_within(SAME_POCKETING_SURELY_S)
            || (twin_within(SAME_POCKETING_S) && missing(p.piece) <= same_kind)
        {
            stroke.vision.alerts.push(VisionNote {
                t: p.t.or(stroke.stroke.t).unwrap_or(0.0),
                message: format!("a {} seen going in twice at once is counted once", p.piece),
            });
        } else {
            pocketed.push(p);
        }
    }
    // Carrommen of two kinds into one pocket within two frames: one piece
    // seen twice, split into two tracks as it sped in (a track born on the
    // blur takes the colour of its few votes), of the kind the count at
    // rest misses where it misses only one of the two, else of the track
    // followed longer.
    let mut a = 0;
    while a < pocketed.len() {
        let (p, rest) = (&pocketed[a], &pocketed[a + 1..]);
        let twin = rest.iter().position(|q| {
            q.piece != p.piece
                && q.piece != Piece::Striker
                && p.piece != Piece::Striker
                && q.pocket.is_some()
                && q.pocket == p.pocket
                && matches!((q.t, p.t), (Some(x), Some(y)) if (x - y).abs() <= SAME_POCKETING_SURELY_S)
        });
        let Some(b) = twin.map(|k| a + 1 + k) else {
            a += 1;
            continue;
        };
        let (p, q) = (pocketed[a].clone(), pocketed[b].clone());
        let lost = &stroke.vision.lost_from_sight;
        let (kept, reason) = one_piece_of_two_colours(
            &p,
            &q,
            &missed,
            |piece| lost_on_the_way_in(lost, piece, &p),
            &born_earlier,
        );
        stroke.vision.alerts.push(VisionNote {
            t: p.t.or(stroke.stroke.t).unwrap_or(0.0),
            message: format!(
                "a {} and a {} went into one pocket at once: one piece seen twice, a {kept}, as {reason}",
                p.piece, q.piece
            ),
        });
        pocketed.remove(if kept == p.piece { b } else { a });
    }
    // A "striker" going in while the striker rests, and a carromman into
    // that pocket within two frames of it: two pieces cannot pass one
    // pocket's mouth together, so it was that carromman seen twice.
    if missing(Piece::Striker) == 0 {
        let carrommen: Vec<PocketedPiece> = pocketed
            .iter()
            .filter(|q| q.piece != Piece::Striker && q.pocket.is_some())
            .cloned()
            .collect();
        pocketed.retain(|p| {
            let twin = carrommen.iter().find(|q| {
                p.piece == Piece::Striker
                    && q.pocket == p.pocket
                    && matches!((q.t, p.t), (Some(a), Some(b)) if (a - b).abs() <= SAME_POCKETING_SURELY_S)
            });
            if let Some(twin) = twin {
                stroke.vision.alerts.push(VisionNote {
                    t: p.t.or(stroke.stroke.t).unwrap_or(0.0),
                    message: format!(
                        "a piece seen as the striker went in with a {}: one piece seen twice",
                        twin.piece
                    ),
                });
            }
            twin.is_none()
        });
    }
    pocketed.sort_by(|a, b| a.t.unwrap_or(0.0).total_cmp(&b.t.unwrap_or(0.0)));
    pocketed
}

/// Which of two pocketings seen in two colours on one piece's course (`p`
/// and `q`) that piece was, and why: the kind the count at rest misses
/// (`missed`) where it misses only one of the two; else the kind of which
/// a piece was lost from sight mid-board in the stroke (`lost`) where only
/// one of the two was (its track lost as it was hit, it went on under a
/// new one; clip 2406: a track born on the striker's blur, read as a
/// white, leapt onto the black it hit and went in beside the black's new
/// track); else the kind of the track born first (a track born on a blur
/// has few colour votes).
fn one_piece_of_two_colours(
    p: &PocketedPiece,
    q: &PocketedPiece,
    missed: impl Fn(Piece) -> bool,
    lost: impl Fn(Piece) -> bool,
    born_earlier: impl Fn(&PocketedPiece, &PocketedPiece) -> bool,
) -> (Piece, String) {
    let only = |a: bool, b: bool| match (a, b) {
        (true, false) => Some(p.piece),
        (false, true) => Some(q.piece),
        _ => None,
    };
    if let Some(kept) = only(missed(p.piece), missed(q.piece)) {
        return (kept, format!("the count at rest misses only a {kept}"));
    }
    if let Some(kept) = only(lost(p.piece), lost(q.piece)) {
        return (
            kept,
            format!("only a {kept} was lost from sight mid-board in the stroke"),
        );
    }
    let kept = if born_earlier(p, q) { p.piece } else { q.piece };
    (kept, format!("the {kept}'s track was followed longer"))
}

/// Whether a `piece` among `lost` (kind, where and when it was lost from
/// sight mid-board) could be the one that went in as `went_in`: lost before
/// it went in, near enough to reach the pocket by then at
/// [`LOST_PIECE_MAX_SPEED_MM_S`].
fn lost_on_the_way_in(
    lost: &[(Piece, Point2<f64>, f64)],
    piece: Piece,
    went_in: &PocketedPiece,
) -> bool {
    let (Some(pocket), Some(t_in)) = (went_in.pocket, went_in.t) else {
        return false;
    };
    lost.iter().any(|&(kind, at, t)| {
        kind == piece
            && t <= t_in
            && (pocket_centre(pocket) - at).norm() <= LOST_PIECE_MAX_SPEED_MM_S * (t_in - t)
    })
}

/// A carromman lost from sight runs on no faster than this (mm/s): the
/// hardest breaks send pieces off at about 4 m/s, and a piece is dropped
/// from sight some frames after its last sighting.
const LOST_PIECE_MAX_SPEED_MM_S: f64 = 3500.0;

/// Whether the track `p` went in on was born before `q`'s (`pocketed_tracks`:
/// each pocketing's track, kind and time; track ids are given in the order
/// tracks are born). Where either track is unknown, the earlier pocketing's.
fn born_earlier(
    pocketed_tracks: &[(TrackId, Piece, f64)],
    p: &PocketedPiece,
    q: &PocketedPiece,
) -> bool {
    let track_of = |x: &PocketedPiece| {
        pocketed_tracks
            .iter()
            .find(|&&(_, piece, t)| piece == x.piece && Some(t) == x.t)
            .map(|&(id, _, _)| id)
    };
    match (track_of(p), track_of(q)) {
        (Some(a), Some(b)) => a < b,
        _ => p.t.unwrap_or(0.0) <= q.t.unwrap_or(0.0),
    }
}

/// How many of each kind the count at rest misses against both the count
/// seen before the stroke and the laws' count, where the engine keeps one:
/// which of two colours one piece seen going in was. The count before is
/// the most seen since the last rest, and prints and blurs read as pieces
/// swell it (clip 3776: 13 whites seen where the laws had 9, 11 at rest,
/// and a black went in seen first as a white).
fn missing_against_the_laws(vision: &VisionExtra, at_rest: &TrackFrame) -> [(Piece, u32); 4] {
    missing_at_rest(vision.seen_before.at_most(vision.laws_before), at_rest)
}

/// How many of each kind the count at rest misses against `before`: the
/// striker is missing when no track of it rests on the board.
fn missing_at_rest(before: SeenCount, at_rest: &TrackFrame) -> [(Piece, u32); 4] {
    let after = SeenCount::of(&at_rest.tracks);
    let striker_on_board = at_rest.tracks.iter().any(|t| t.piece == Piece::Striker);
    [
        (Piece::White, before.white.saturating_sub(after.white)),
        (Piece::Black, before.black.saturating_sub(after.black)),
        (Piece::Queen, u32::from(before.queen && !after.queen)),
        (Piece::Striker, u32::from(!striker_on_board)),
    ]
}

/// Takes one `piece` off the count of those `missing`, if any is: whether
/// one was.
fn take_missing(missing: &mut [(Piece, u32)], piece: Piece) -> bool {
    missing
        .iter_mut()
        .find(|(p, n)| *p == piece && *n > 0)
        .map(|(_, n)| *n -= 1)
        .is_some()
}

fn missing_of(missing: &[(Piece, u32)], piece: Piece) -> u32 {
    missing
        .iter()
        .find(|(p, _)| *p == piece)
        .map_or(0, |(_, n)| *n)
}

/// Squares the pieces seen leaving during a stroke with the pieces counted
/// at rest before and after it. Tracks are lost and found again in fast
/// motion, and a blurred carromman can pass for the striker by size, so the
/// departures seen are candidates; but the count at rest is weaker evidence
/// than a piece seen going into a pocket (arms and printed designs pass for
/// pieces, and a piece the tracker dropped at rest is not counted), so:
///
/// - a carromman seen going in is kept unless the count at rest does not
///   miss its kind and one of that kind rests on the lip of that pocket (a
///   bounce); the same piece seen going in twice is counted once, and so is
///   a carromman seen going in with a "striker" while the striker lies on
///   the board; a "striker" that followed a carromman lost mid-board went
///   in as that carromman;
/// - a carromman never seen going in, only lost from sight speeding at a
///   pocket still far from it ([`UNSEEN_FAR_FROM_POCKET_MM`]), is matched
///   with the count after the pieces seen leaving, and dropped when the
///   count does not miss it;
/// - any other "striker" seen going in, or a piece seen leaving over the
///   edge, that the count says did not leave is renamed when exactly one
///   kind is missing (a "striker" is dropped otherwise), never into the
///   striker (a striker-sized blur is a carromman; a carromman seen is not
///   the striker); a carromman seen going in keeps the colour it was seen
///   in;
/// - a piece off the board that the count does not miss is dropped.
///
/// Every change is an alert. A piece missing with no departure seen is never
/// invented (the referee's count check reports it).
fn reconcile_exits(
    stroke: &mut SeenStroke,
    at_rest: &TrackFrame,
    pocketed_tracks: &[(TrackId, Piece, f64)],
    on_lips_at_strike: &[(TrackId, Point2<f64>)],
) {
    let mut missing = missing_at_rest(stroke.vision.seen_before, at_rest);
    let alert = |stroke: &mut SeenStroke, t: Option<f64>, message: String| {
        stroke.vision.alerts.push(VisionNote {
            t: t.unwrap_or(at_rest.t),
            message,
        });
    };

    let missed_by_the_laws = missing_against_the_laws(&stroke.vision, at_rest);
    let mut pocketed = drop_twin_pocketings(
        stroke,
        |piece| missing_of(&missing, piece),
        |piece| missing_of(&missed_by_the_laws, piece) > 0,
        |p, q| born_earlier(pocketed_tracks, p, q),
    );

    // A carromman seen going in on the track taken for the struck striker,
    // where the count at rest (against both the count seen before and the
    // laws') misses none of the kind it was read as:
    //
    // - where it misses exactly one other kind of carromman beyond those
    //   seen leaving, the fast track took that piece's colour wrongly from
    //   the blur, and the piece was the one missing (clip 6319: a black
    //   went into the SW pocket read as a white; every white rested);
    // - else, with no striker at rest, the striker went in, read as a
    //   carromman by its colour (clip 3671: a white striker first seen
    //   speeding from the base lines, followed as a white, went into the SW
    //   pocket; the whites seen before counted it).
    //
    // Not a striker's track that came to follow a carromman: where the two
    // swap tracks at the knock, the striker rests followed as that
    // carromman, and the count cannot tell (clip 3703).
    for i in 0..pocketed.len() {
        let seen_as = pocketed[i].piece;
        let taken_for_the_striker = seen_as != Piece::Striker
            && stroke
                .vision
                .read_as_a_carromman_striker_going_in
                .iter()
                .any(|&t| Some(t) == pocketed[i].t);
        if !taken_for_the_striker || missing_of(&missed_by_the_laws, seen_as) > 0 {
            continue;
        }
        // Departures kept so far: `pocketed` has been taken out of the
        // stroke, so `departures_of` would not count it. Not those inferred
        // on weak evidence, matched with the count only after the rest:
        // the piece that track took over is lost where it was knocked,
        // far from the pocket (clip 6319: the black's own track, lost as
        // the striker's took it over, was taken as speeding at the SW
        // pocket 300 mm off).
        let leaving = |piece: Piece| {
            let into_pockets = pocketed
                .iter()
                .filter(|q| q.piece == piece && weak_evidence_of(&stroke.vision, q).is_none())
                .count();
            let off = stroke.stroke.overboard.iter().filter(|o| o.piece == piece);
            (into_pockets + off.count()) as u32
        };
        let missed: Vec<Piece> = [Piece::White, Piece::Black, Piece::Queen]
            .into_iter()
            .filter(|&piece| piece != seen_as)
            .filter(|&piece| {
                let gone = leaving(piece);
                missing_of(&missing, piece) > gone && missing_of(&missed_by_the_laws, piece) > gone
            })
            .collect();
        let (piece, message) = match missed[..] {
            [piece] => (
                piece,
                format!(
                    "a {seen_as} went in on the track taken for the struck striker; the count at rest, set against the laws' count, misses no {seen_as} but a {piece} beyond those seen leaving: a {piece} went in"
                ),
            ),
            _ if missing_of(&missing, Piece::Striker) > 0 => (
                Piece::Striker,
                format!(
                    "a {seen_as} went in on the track taken for the struck striker; no striker rests on the board and the count at rest, set against the laws' count, misses no {seen_as}: the striker went in"
                ),
            ),
            _ => continue,
        };
        pocketed[i].piece = piece;
        let t = pocketed[i].t;
        alert(stroke, t, message);
    }

    // Pieces the count misses are matched first, in time order, the
    // pocketings seen before the departures over the frame, and those
    // inferred on weak evidence last; the rest are judged one by one.
    let weak: Vec<Option<WeakEvidence>> = pocketed
        .iter()
        .map(|p| weak_evidence_of(&stroke.vision, p))
        .collect();
    let mut kept_pocketed = vec![false; pocketed.len()];
    for (i, p) in pocketed.iter().enumerate() {
        if weak[i].is_none() {
            kept_pocketed[i] = take_missing(&mut missing, p.piece);
        }
    }
    let mut overboard = std::mem::take(&mut stroke.stroke.overboard);
    overboard.sort_by(|a, b| a.t.unwrap_or(0.0).total_cmp(&b.t.unwrap_or(0.0)));
    let mut kept_overboard = vec![false; overboard.len()];
    // A departure whose side of the frame was watched with a clear view
    // while its piece would have flown over it, and nothing was seen
    // there, came back off the cushion (or was never a piece).
    let seen_flying: Vec<Option<Point2<f64>>> = overboard
        .iter()
        .map(|o| stroke.vision.flights.flight_of(o.piece, o.t?))
        .collect();
    let unseen_in_flight: Vec<Option<usize>> = overboard
        .iter()
        .zip(&seen_flying)
        .map(|(o, flew)| {
            let looks = stroke.vision.flights.looks_at_crossing(o.piece, o.t?);
            (looks >= LOOKS_TO_RULE_OUT_A_FLIGHT && flew.is_none()).then_some(looks)
        })
        .collect();
    for (i, o) in overboard.iter().enumerate() {
        if unseen_in_flight[i].is_none() {
            kept_overboard[i] = take_missing(&mut missing, o.piece);
        }
    }
    let seen_short_of_the_laws = |piece: Piece| {
        let before = stroke.vision.seen_before;
        stroke
            .vision
            .laws_before
            .is_some_and(|laws| before.short_of(laws, piece))
    };
    // More of a kind seen before the stroke than the laws have: ghosts
    // swelled the count before (an arm's, a print's, the striker's blur
    // read as carrommen), and the laws' count is the one the count at rest
    // is set against (clip 3727: 12 whites seen before where the laws had
    // 9, and a white lost far from the NW pocket was taken as pocketed
    // with 9 seen at rest).
    let laws_miss_none = |piece: Piece, gone: u32| {
        let before = stroke.vision.seen_before;
        stroke
            .vision
            .laws_before
            .is_some_and(|laws| laws.of_kind(piece) < before.of_kind(piece))
            && missing_of(&missed_by_the_laws, piece) <= gone
    };
    // How many of a kind are kept as leaving so far.
    let kept_leaving = |piece: Piece, kept_pocketed: &[bool], kept_overboard: &[bool]| {
        kept_of_kind(piece, pocketed.iter().map(|q| q.piece), kept_pocketed)
            + kept_of_kind(piece, overboard.iter().map(|o| o.piece), kept_overboard)
    };
    let mut short_count = vec![false; pocketed.len()];
    let mut laws_count = vec![false; pocketed.len()];
    for (i, p) in pocketed.iter().enumerate() {
        if weak[i].is_some() {
            short_count[i] = seen_short_of_the_laws(p.piece);
            let gone = kept_leaving(p.piece, &kept_pocketed, &kept_overboard);
            laws_count[i] = laws_miss_none(p.piece, gone);
            kept_pocketed[i] =
                !short_count[i] && !laws_count[i] && take_missing(&mut missing, p.piece);
        }
    }
    // Kinds the count at rest holds as many of as the laws have, besides
    // those kept leaving, where more were seen before the stroke than the
    // laws have: ghosts swelled the count before, and one of those kinds
    // missing against it is no departure.
    let held_whole_against_swollen: Vec<Piece> = [Piece::White, Piece::Black, Piece::Queen]
        .into_iter()
        .filter(|&piece| {
            laws_miss_none(piece, kept_leaving(piece, &kept_pocketed, &kept_overboard))
        })
        .collect();
    // The one kind the count misses, if exactly one is missing and it is a
    // carromman (the striker is missing whenever it is taken for a carromman).
    let renamed_to = |missing: &[(Piece, u32)]| -> Option<Piece> {
        let kinds: Vec<Piece> = missing
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(p, _)| *p)
            .collect();
        match kinds[..] {
            [piece] if piece != Piece::Striker => Some(piece),
            _ => None,
        }
    };
    for (i, p) in pocketed.iter_mut().enumerate() {
        if kept_pocketed[i] {
            continue;
        }
        let seen_as = p.piece;
        if let Some(evidence) = weak[i] {
            let why = if short_count[i] {
                // The count had lost sight of pieces of this kind before
                // the stroke: one more lost from sight says nothing.
                "fewer of its kind were seen before the stroke than the laws have on the board: the count at rest cannot tell, and it is not taken as pocketed"
            } else if laws_count[i] {
                "more of its kind were seen before the stroke than the laws have on the board, and the count at rest holds as many as the laws: it did not go in"
            } else {
                // Never seen going in: the count at rest outweighs it.
                "the count at rest does not miss one: it did not go in"
            };
            let pocket = p.pocket.map_or("", Pocket::name);
            let how = match evidence {
                WeakEvidence::LostFarFromIt => {
                    format!("lost from sight far from the {pocket} pocket")
                }
                WeakEvidence::KnockedInAsTracksSwapped => {
                    format!("knocked unseen from beside the {pocket} pocket as the tracks swapped")
                }
                WeakEvidence::RanInAsTracksSwapped => {
                    format!("seen running at the {pocket} pocket as the tracks swapped")
                }
            };
            alert(
                stroke,
                p.t,
                format!("a {seen_as} {how} was taken as pocketed there, but {why}"),
            );
            continue;
        }
        if seen_as == Piece::Striker {
            // The striker lies on the board: this was a blurred carromman,
            // the one it followed if it followed one lost mid-board, else of
            // the one kind the count misses if it says.
            let followed = stroke
                .vision
                .striker_twins_going_in
                .iter()
                .find(|(t, _)| Some(*t) == p.t)
                .map(|&(_, kind)| kind);
            let counted = renamed_to(&missing);
            let swollen = counted.filter(|piece| held_whole_against_swollen.contains(piece));
            let renamed = followed
                .map(|piece| {
                    (piece, format!("a piece seen as the striker went in; it had followed a {piece} lost from sight mid-board, and was that {piece}"))
                })
                .or_else(|| {
                    counted.filter(|_| swollen.is_none()).map(|piece| {
                        (piece, format!("a piece seen as the striker went in; the count at rest says it was a {piece}"))
                    })
                });
            let why = if let Some((piece, why)) = renamed {
                take_missing(&mut missing, piece);
                p.piece = piece;
                kept_pocketed[i] = true;
                why
            } else if let Some(piece) = swollen {
                // Clips 6244, 3991: a white striker read as a white before
                // the strike made 11 whites where the laws had 9; the striker
                // was found at rest, and 9 whites with it.
                format!("a piece seen as the striker went in, but the striker is on the board; the count at rest misses a {piece} only against a count swollen before the stroke, and holds as many as the laws have")
            } else {
                "a piece seen as the striker went in, but the striker is on the board".to_string()
            };
            alert(stroke, p.t, why);
            continue;
        }
        // A carromman's colour seen going in outweighs a count that misses
        // another kind, or none: only one resting on the lip disproves it,
        // and only with the striker seen at rest. A striker unseen there is
        // on the board as some carromman, perhaps of this kind (clip 2776:
        // read as a white, it made the whites' count whole). One that lay
        // there unmoved since the strike is another piece (clip 3827: a
        // white resting on the SW pocket's lip all along disproved the
        // white that went in beside it).
        let striker_counted = missing_of(&missing, Piece::Striker) == 0;
        let lay_there_all_along = |t: &Track| {
            on_lips_at_strike
                .iter()
                .any(|&(id, at)| id == t.id && (t.position - at).norm() <= UNMOVED_ON_A_LIP_MM)
        };
        let on_the_lip = striker_counted
            && p.pocket.is_some_and(|pocket| {
                at_rest.tracks.iter().any(|t| {
                    t.piece == seen_as
                        && (t.position - pocket_centre(pocket)).norm() <= POCKET_LIP_MM
                        && !lay_there_all_along(t)
                })
            });
        kept_pocketed[i] = !on_the_lip;
        if !on_the_lip {
            stroke.vision.kept_against_the_count.extend(p.t);
        }
        let message = if on_the_lip {
            format!("a {seen_as} seemed to go in, but one rests on the pocket's lip and the count at rest misses none")
        } else {
            format!("a {seen_as} was seen going in, but the count at rest does not miss one")
        };
        alert(stroke, p.t, message);
    }
    for (i, o) in overboard.iter_mut().enumerate() {
        if kept_overboard[i] {
            continue;
        }
        let seen_as = o.piece;
        if let Some(looks) = unseen_in_flight[i] {
            alert(
                stroke,
                o.t,
                format!("a {seen_as} seemed to leave the board, but nothing flew over the frame there, looked at in {looks} frames: it came back off the cushion"),
            );
            continue;
        }
        // Seen in flight over the frame: it left, as the kind it was seen
        // as; the count at rest miscounts (a print taken for a piece, a
        // piece read as another kind).
        if let Some(at) = seen_flying[i] {
            kept_overboard[i] = true;
            alert(
                stroke,
                o.t,
                format!(
                    "a {seen_as} seen leaving the board was seen in flight over the frame at ({:.0}, {:.0}) mm: it left, though the count at rest does not miss one",
                    at.x, at.y
                ),
            );
            continue;
        }
        // A shortfall that prints of its kind dropped meanwhile account
        // for names nothing: the print may have been the piece, lying
        // still on the centre design (clip 6153: a black at the centre
        // dropped as a print after the break, and a white seen leaving
        // renamed a black).
        let named = renamed_to(&missing).filter(|&piece| {
            missing_of(&missing, piece) as usize > stroke.vision.prints_dropped_of(piece)
        });
        if let Some(piece) = named {
            take_missing(&mut missing, piece);
            o.piece = piece;
            kept_overboard[i] = true;
            alert(
                stroke,
                o.t,
                format!("a piece seen as a {seen_as} left the board; the count at rest says it was a {piece}"),
            );
        } else {
            alert(stroke, o.t, departure_disproved(seen_as));
            stroke.vision.doubted_overboard.push(o.clone());
        }
    }
    stroke.stroke.pocketed = pocketed
        .into_iter()
        .zip(kept_pocketed)
        .filter_map(|(p, keep)| keep.then_some(p))
        .collect();
    stroke.stroke.overboard = overboard
        .into_iter()
        .zip(kept_overboard)
        .filter_map(|(o, keep)| keep.then_some(o))
        .collect();
    leave_with_unexplained_flights(stroke, &mut missing);
    leave_behind_the_lines(stroke, &mut missing, &missed_by_the_laws);
}

/// Keeps the carrommen [`LostBehindTheLines`] as gone over the frame where
/// the count at rest, once everything seen has been matched with it, still
/// misses one of their kind, and so does the count against the laws' (more
/// seen before the stroke than the laws have is ghosts, not a piece gone).
/// (The frame is watched only once a piece is seen running at it, so its
/// watch says nothing of these.)
fn leave_behind_the_lines(
    stroke: &mut SeenStroke,
    missing: &mut [(Piece, u32)],
    missed_by_the_laws: &[(Piece, u32)],
) {
    for lost in std::mem::take(&mut stroke.vision.lost_behind_the_lines) {
        let gone_of_kind = stroke
            .stroke
            .pocketed
            .iter()
            .map(|p| p.piece)
            .chain(stroke.stroke.overboard.iter().map(|o| o.piece))
            .filter(|&p| p == lost.piece)
            .count() as u32;
        let by_the_laws = missing_of(missed_by_the_laws, lost.piece) > gone_of_kind;
        if !by_the_laws || !take_missing(missing, lost.piece) {
            continue;
        }
        stroke.stroke.overboard.push(OverboardPiece {
            piece: lost.piece,
            t: Some(lost.t),
        });
        stroke.vision.alerts.push(VisionNote {
            t: lost.t,
            message: format!(
                "a {} lying behind the {} base lines at ({:.0}, {:.0}) mm went from sight as the stroke began and was never seen again; the count at rest misses one: knocked over the cushion, taken as off the board",
                lost.piece,
                stroke.stroke.seat.name(),
                lost.last_seen.x,
                lost.last_seen.y
            ),
        });
    }
}

/// How many of the departures of `pieces` (each kept or not, by `kept`)
/// are of `piece`'s kind and kept.
fn kept_of_kind(piece: Piece, pieces: impl IntoIterator<Item = Piece>, kept: &[bool]) -> u32 {
    pieces
        .into_iter()
        .zip(kept)
        .filter(|&(p, &kept)| kept && p == piece)
        .count() as u32
}

/// Frames the frame must have been looked over where and when a departure's
/// piece would have flown, with nothing seen, for the departure to be
/// ruled out: the simulator's jumping pieces show over it in 2–4 frames.
const LOOKS_TO_RULE_OUT_A_FLIGHT: usize = 4;

/// A disc seen in flight over the frame that no departure kept accounts
/// for is a piece that left unfollowed (its track handed to another disc,
/// or picked up too late to show its run at the frame): it left as the
/// one kind of carromman the count at rest misses (never a white where
/// it showed clearly darker than the frame, as no white does), or as a
/// black where it showed so and the count misses one. Else the flight is
/// only noted: a lighter shade over the frame does not tell a black from
/// a white (see [`FlightLog::flight_of`]); so is a faint one, which may be
/// the empty frame ([`Flight::faint`](super::flights::Flight::faint)).
fn leave_with_unexplained_flights(stroke: &mut SeenStroke, missing: &mut [(Piece, u32)]) {
    let kept: Vec<(Piece, f64)> = stroke
        .stroke
        .overboard
        .iter()
        .filter_map(|o| Some((o.piece, o.t?)))
        .collect();
    for flight in stroke.vision.flights.unexplained(&kept) {
        let at = format!("({:.0}, {:.0}) mm", flight.at.x, flight.at.y);
        if flight.faint {
            stroke.vision.alerts.push(VisionNote {
                t: flight.t,
                message: format!("a disc was seen over the frame at {at}, but only as faintly as the empty frame can read, with no piece seen leaving: not taken as leaving the board"),
            });
            continue;
        }
        let carrommen: Vec<Piece> = missing
            .iter()
            .filter(|(p, n)| *n > 0 && *p != Piece::Striker)
            .map(|(p, _)| *p)
            .collect();
        let piece = match carrommen[..] {
            // Clip 3759: a black flew off at the break, clearly darker
            // than the frame, while three whites lay unseen at rest and
            // the striker was counted as a black.
            [only] if !(flight.clearly_darker && only == Piece::White) => Some(only),
            _ if flight.clearly_darker && carrommen.contains(&Piece::Black) => Some(Piece::Black),
            _ => None,
        };
        let Some(piece) = piece else {
            stroke.vision.alerts.push(VisionNote {
                t: flight.t,
                message: unnamed_flight(&flight),
            });
            stroke.vision.doubted_flights.push(flight);
            continue;
        };
        take_missing(missing, piece);
        flew_off_as(
            stroke,
            &flight,
            piece,
            format!("a disc was seen in flight over the frame at {at}, and the count at rest misses a {piece}: it left the board"),
        );
    }
    sort_overboard(stroke);
}

/// The disc seen in `flight` over the frame was a `piece` that left the
/// board, for the reason `message` gives.
fn flew_off_as(stroke: &mut SeenStroke, flight: &Flight, piece: Piece, message: String) {
    stroke.vision.alerts.push(VisionNote {
        t: flight.t,
        message,
    });
    stroke.stroke.overboard.push(OverboardPiece {
        piece,
        t: Some(flight.t),
    });
}

/// The stroke's pieces off the board in the order they left.
fn sort_overboard(stroke: &mut SeenStroke) {
    stroke
        .stroke
        .overboard
        .sort_by(|a, b| a.t.unwrap_or(0.0).total_cmp(&b.t.unwrap_or(0.0)));
}

/// The departures of `piece`'s kind kept in `stroke`: into pockets and
/// over the frame.
fn departures_of(stroke: &SeenStroke, piece: Piece) -> usize {
    let pocketed = stroke.stroke.pocketed.iter().filter(|p| p.piece == piece);
    let off = stroke.stroke.overboard.iter().filter(|o| o.piece == piece);
    pocketed.count() + off.count()
}

/// How many more pieces of each kind the count at rest holds than the
/// count before the stroke less the departures kept: where it holds more,
/// a piece counted that is none (the striker followed as a carromman, a
/// print) accounts for the surplus before it can stand for a departure.
#[derive(Debug, Clone, Copy)]
struct CountSurplus {
    white: i64,
    black: i64,
    queen: i64,
}

impl CountSurplus {
    fn of(stroke: &SeenStroke, rest: &RestSnapshot) -> CountSurplus {
        CountSurplus::against(stroke, rest, stroke.vision.seen_before)
    }

    /// As [`CountSurplus::of`], against the count `before` (the laws' count,
    /// say) instead of the one seen before the stroke.
    fn against(stroke: &SeenStroke, rest: &RestSnapshot, before: SeenCount) -> CountSurplus {
        let kept = |piece: Piece| departures_of(stroke, piece) as i64;
        // The rest snapshot has the striker found by its size where the
        // count had a carromman.
        let after = |piece: Piece| {
            let counted = rest.pieces.iter().filter(|p| p.piece == piece).count();
            (counted + usize::from(rest.striker_counted_as == Some(piece))) as i64
        };
        CountSurplus {
            white: after(Piece::White) + kept(Piece::White) - i64::from(before.white),
            black: after(Piece::Black) + kept(Piece::Black) - i64::from(before.black),
            queen: after(Piece::Queen) + kept(Piece::Queen) - i64::from(before.queen),
        }
    }

    /// The surplus of `piece`'s kind (none for the striker).
    fn of_kind(&self, piece: Piece) -> Option<i64> {
        match piece {
            Piece::White => Some(self.white),
            Piece::Black => Some(self.black),
            Piece::Queen => Some(self.queen),
            Piece::Striker => None,
        }
    }

    /// Takes one piece of `piece`'s kind out of the count; whether that
    /// leaves it short of one, so that a departure of that kind stands
    /// (and is then counted).
    fn one_not_a_piece(&mut self, piece: Piece) -> bool {
        let surplus = match piece {
            Piece::White => &mut self.white,
            Piece::Black => &mut self.black,
            Piece::Queen => &mut self.queen,
            Piece::Striker => return false,
        };
        // Short of one: the departure stands and is counted, which leaves
        // the surplus where it was.
        if *surplus > 0 {
            *surplus -= 1;
            false
        } else {
            true
        }
    }
}

/// Where the striker at rest was counted as a carromman of `counted_as`
/// (and no departure seen took that back), the first disc seen in flight
/// over the frame that the count left unnamed is a piece of that kind that
/// left, if the count at rest, the striker taken out, is short of one
/// ([`missing_after_the_stroke`]): that kind, if so. Clip 3569: at the
/// break a black flew off unfollowed while the striker came to rest
/// followed as a black, so the count missed only the striker, and the
/// flight seen was left unnamed.
fn flight_named_by_the_striker_found(
    stroke: &SeenStroke,
    rest: &RestSnapshot,
    counted_as: Option<Piece>,
) -> Option<Piece> {
    counted_as.filter(|&piece| {
        piece != Piece::Striker
            && !stroke.vision.doubted_flights.is_empty()
            && missing_after_the_stroke(stroke, rest, piece)
    })
}

/// Where no striker is found at rest and none was seen all stroke (read
/// from a carromman that shot off), one of the discs counted at rest is the
/// striker, counted as a carromman: the first disc seen in flight that the
/// count left unnamed, clearly darker than the frame, is a black that left
/// if the count holds no more blacks than were on the board
/// ([`missing_after_the_stroke`]). Clip 6212: at the break a black flew off
/// at 4 m/s, never followed, while the striker, unseen under the hand
/// before it was struck and ringed in nearly the board's grey, came to
/// rest by the centre counted as a black. Where the striker itself flew
/// off unseen, the flight is the striker's: the strikers in the renders and
/// photos are white, cream or brightly coloured, but one dark enough to
/// read clearly darker than the frame would be taken for a black here.
fn flight_named_by_an_unfound_striker(stroke: &SeenStroke, rest: &RestSnapshot) -> Option<Piece> {
    // A striker found by its outline is in `rest.pieces` as the striker.
    (stroke.vision.striker_unseen
        && rest.pieces.iter().all(|p| p.piece != Piece::Striker)
        && stroke
            .vision
            .doubted_flights
            .first()
            .is_some_and(|flight| flight.clearly_darker)
        && missing_after_the_stroke(stroke, rest, Piece::Black))
    .then_some(Piece::Black)
}

/// What the first disc seen in flight that the count left unnamed was, and
/// why, where the striker found by its size
/// ([`flight_named_by_the_striker_found`]) or not found at all
/// ([`flight_named_by_an_unfound_striker`]) says.
fn unnamed_flight_named(
    stroke: &SeenStroke,
    rest: &RestSnapshot,
    counted_as: Option<Piece>,
) -> Option<(Piece, String)> {
    if let Some(piece) = flight_named_by_the_striker_found(stroke, rest, counted_as) {
        return Some((
            piece,
            format!("which the count at rest misses once the striker, followed as a {piece}, is taken out"),
        ));
    }
    flight_named_by_an_unfound_striker(stroke, rest).map(|piece| {
        (
            piece,
            format!("clearly darker than the frame; the striker, never seen and not found at rest, is counted as a carromman, so the count at rest holding every {piece} misses one"),
        )
    })
}

/// The first disc seen in flight that the count left unnamed left the
/// board as a `piece`, for the reason `why` gives.
fn first_unnamed_flight_left_as(stroke: &mut SeenStroke, (piece, why): (Piece, String)) {
    if stroke.vision.doubted_flights.is_empty() {
        return;
    }
    let flight = stroke.vision.doubted_flights.remove(0);
    let unnamed = unnamed_flight(&flight);
    stroke
        .vision
        .alerts
        .retain(|note| !(note.message == unnamed && note.t == flight.t));
    let message = format!(
        "a disc seen in flight over the frame at ({:.0}, {:.0}) mm left the board: a {piece}, {}",
        flight.at.x, flight.at.y, why
    );
    flew_off_as(stroke, &flight, piece, message);
    sort_overboard(stroke);
}

/// Whether the count at rest, with the striker found by its size taken out
/// of the `piece` kind it was counted as, holds fewer of that kind than
/// both the count seen before the stroke and the laws' count, less the
/// departures kept: a piece of that kind left unrecorded.
fn missing_after_the_stroke(stroke: &SeenStroke, rest: &RestSnapshot, piece: Piece) -> bool {
    // The surplus counts the striker as the piece it was counted as: none
    // left over means the count, the striker taken out, is one short.
    let short = |surplus: CountSurplus| surplus.of_kind(piece).is_some_and(|n| n <= 0);
    short(CountSurplus::of(stroke, rest))
        && stroke
            .vision
            .laws_before
            .is_none_or(|laws| short(CountSurplus::against(stroke, rest, laws)))
}

/// The alert on a disc seen in flight over the frame that the count at
/// rest left unnamed (taken back by [`StrokeMachine::outlines_looked_at`]).
fn unnamed_flight(flight: &Flight) -> String {
    let misses = if flight.clearly_darker {
        "clearly darker than the frame, as no white shows, but the count at rest misses no black and no one other kind of carromman"
    } else {
        "but the count at rest misses no one kind of carromman"
    };
    format!(
        "a disc was seen in flight over the frame at ({:.0}, {:.0}) mm, {misses}",
        flight.at.x, flight.at.y
    )
}

/// The alert on a departure over the frame that the count at rest
/// disproves (taken back by [`StrokeMachine::outlines_looked_at`]).
fn departure_disproved(piece: Piece) -> String {
    format!("a {piece} seemed to leave the board, but the count at rest says it did not")
}

/// A track lost just after it was first seen, flying at the frame fast
/// enough to jump it and near enough to meet it within a step: a piece
/// flung from a cluster at the break is picked up a frame or two short of
/// the frame, too late for [`ran_at_the_frame`]. It left the board unless a
/// disc is seen coming back off the cushion there.
#[derive(Debug, Clone, Copy, PartialEq)]
struct FlungAtTheFrame {
    piece: Piece,
    /// Its track, last sighting, flying speed (mm/s) and where it met the
    /// frame's cushion (board mm).
    off: LeftTheBoard,
    /// When (s) it met the cushion, and how hard (mm/s towards the frame).
    contact_t: f64,
    impact: f64,
    /// The axis (0 for x, 1 for y) it ran along at the frame, and the side
    /// (-1 or 1).
    axis: usize,
    side: f64,
    /// When its track was lost (s).
    t: f64,
}

impl FlungAtTheFrame {
    /// `id`, lost at `t`, if its only two sightings in the `recent` frames
    /// (tentative included), a frame or two apart, flew at the frame at
    /// [`FLUNG_SPEED`] or faster with the frame within another such step.
    fn of(recent: &VecDeque<Positions>, id: TrackId, piece: Piece, t: f64) -> Option<Self> {
        let mut seen = sightings_back(recent, id, Sightings::AndTentative);
        let (last, first) = (seen.next()?, seen.next()?);
        let step_s = last.0 - first.0;
        if seen.next().is_some() || step_s > FLUNG_STEP_S {
            return None;
        }
        let velocity = velocity_between(first, last);
        let axis = usize::from(velocity.y.abs() > velocity.x.abs());
        let side = velocity[axis].signum();
        let outward = velocity[axis] * side;
        let to_go = CONTACT_LINE_MM - last.1[axis] * side;
        if outward < FLUNG_SPEED || to_go > outward * step_s {
            return None;
        }
        let to_contact_s = to_go.max(0.0) / outward;
        let mut contact = last.1 + velocity * to_contact_s;
        contact[axis] = side * CONTACT_LINE_MM;
        Some(FlungAtTheFrame {
            piece,
            off: LeftTheBoard {
                id,
                last_seen: last.1,
                meets_frame_at: contact,
                seen_t: last.0,
                speed: velocity.norm(),
            },
            contact_t: last.0 + to_contact_s,
            impact: outward,
            axis,
            side,
            t,
        })
    }

    /// The seat on the side of the frame it flew at.
    fn side_seat(&self) -> Seat {
        seat_on_side(self.axis, self.side)
    }

    /// Whether the `recent` frames within [`REBOUND_WINDOW_S`] of its last
    /// sighting show a disc running back off the cushion about as hard as
    /// the cushion returns it: from where it met it, no farther than it
    /// could have come back meanwhile, or overlapping the track's last
    /// sighting (which was then a twin on the piece's blur, taken the wrong
    /// way: two discs cannot lie closer than a diameter).
    fn came_back(&self, recent: &VecDeque<Positions>) -> bool {
        let LeftTheBoard {
            id,
            last_seen,
            meets_frame_at: contact,
            seen_t,
            ..
        } = self.off;
        let returned = CUSHION_RETURNS * self.impact;
        recent
            .iter()
            .zip(recent.iter().skip(1))
            .any(|(before, now)| {
                if now.t < seen_t || now.t > seen_t + REBOUND_WINDOW_S {
                    return false;
                }
                let reach =
                    returned * (now.t - self.contact_t).max(0.0) + 2.0 * CARROMMAN_RADIUS_MM;
                now.discs
                    .iter()
                    .map(|&(other, at, _)| (other, at))
                    .chain(now.tentative.iter().copied())
                    .filter(|&(other, at)| {
                        (at - contact).norm() <= reach
                            || (other != id
                                && now.t == seen_t
                                && (at - last_seen).norm() < 2.0 * CARROMMAN_RADIUS_MM)
                    })
                    .any(|(other, at)| {
                        before.sighting(other).is_some_and(|from| {
                            let back = -self.side
                                * velocity_between((before.t, from), (now.t, at))[self.axis];
                            back >= REBOUND_SHARE * returned
                        })
                    })
            })
    }
}

/// Speed (mm/s) at the frame of a piece [`FlungAtTheFrame`]: well over
/// [`JUMP_SPEED`], as a single step, over a blur, reads less surely than two.
const FLUNG_SPEED: f64 = 2_500.0;

/// The most (s) between a flung piece's two sightings: a frame, or two
/// where one was missed, at 30 fps.
const FLUNG_STEP_S: f64 = 0.07;

/// How long (s) after its last sighting a flung piece that bounced back
/// off the cushion is seen running back.
const REBOUND_WINDOW_S: f64 = 0.2;

/// The seat on the side of the frame across `axis` (0: x, 1: y) on the
/// `side` (-1 or 1) of the board.
fn seat_on_side(axis: usize, side: f64) -> Seat {
    match (axis, side > 0.0) {
        (0, true) => Seat::East,
        (0, false) => Seat::West,
        (_, true) => Seat::North,
        (_, false) => Seat::South,
    }
}

/// The sides of the frame (named by the seats there) that `crossed` (per
/// axis, the side crossed, -1 or 1, or 0) names.
fn sides_of(crossed: [f64; 2]) -> impl Iterator<Item = Seat> {
    (0..2)
        .filter(move |&axis| crossed[axis] != 0.0)
        .map(move |axis| seat_on_side(axis, crossed[axis]))
}

/// Whether `seat`'s arm was over the board (`arms`: when each seat's was
/// last seen there, s) within [`ARM_LEAVES_BLOBS_S`] before `t`: what it
/// left on that side of the frame a track may have leapt to.
fn arm_left_blobs(arms: &HashMap<Seat, f64>, seat: Seat, t: f64) -> bool {
    arms.get(&seat)
        .is_some_and(|&seen| t - seen <= ARM_LEAVES_BLOBS_S)
}

/// How long (s) after a seat's arm was last seen over the board a new
/// track flying at that side of the frame may have leapt to what the arm
/// left there (a hand withdrawing after the stroke).
const ARM_LEAVES_BLOBS_S: f64 = 0.3;

/// How long (s) after a seat's arm was last seen over the board before a
/// stroke, or after that seat struck, its side of the frame is not looked
/// at for pieces in flight: the hand withdraws over it, and once off the
/// surface it is no longer found as a hand (in dev clips 2943, 2967 and
/// 3197 the striker's fingers showed there as discs 0.46–0.57 s after the
/// strike).
const ARM_OVER_THE_FRAME_S: f64 = 0.8;

/// The share of a hard hit's speed a cushion returns (the simulator's
/// restitution; real cushions return less, which only makes a rebound
/// harder to mistake).
const CUSHION_RETURNS: f64 = 0.75;

/// The least share of what the cushion returned that a disc coming back
/// off it still runs at within [`REBOUND_WINDOW_S`]: friction takes about
/// 0.5 m/s of it, collisions more.
const REBOUND_SHARE: f64 = 0.5;

/// Whether `stroke`, read without the striker seen placed, pocketed nothing,
/// sent nothing off and left more than half the break arrangement's spots
/// still taken `at_rest`: the motion was a hand setting the board out or
/// carrying the striker in (a break scatters the whole cluster), not a
/// stroke. Before the break (`before_the_break`), tracks held hidden on
/// the spots count for nothing: a broken cluster leaves the
/// board under it, which the empty-board model only predicted, as one blob
/// that hides every spot's track until it is learned (clips 3791 and 3808:
/// breaks dropped so, 19 hidden tracks on the spots at rest). After the
/// break they still count: motion read then, with no striker placed, and
/// those tracks still held on the spots, is the blob's tracks settling
/// (clips 3441, 3632 and 3735: strokes half a second after the break).
fn moved_nothing_set_out(
    stroke: &SeenStroke,
    at_rest: &TrackFrame,
    before_the_break: bool,
) -> bool {
    if stroke.vision.placement.is_some()
        || !stroke.stroke.pocketed.is_empty()
        || !stroke.stroke.overboard.is_empty()
    {
        return false;
    }
    let carrommen: Vec<Point2<f64>> = at_rest
        .tracks
        .iter()
        .filter(|t| t.piece != Piece::Striker && !(before_the_break && t.hidden))
        .map(|t| t.position)
        .collect();
    // The arrangement lies one of two ways round: towards south and north,
    // or east and west.
    [Seat::South, Seat::East].into_iter().any(|breaker| {
        let spots = break_arrangement(breaker);
        let taken = spots
            .iter()
            .filter(|spot| {
                carrommen
                    .iter()
                    .any(|at| (at - spot.centre).norm() <= SPOT_TAKEN_MM)
            })
            .count();
        2 * taken > spots.len()
    })
}

/// Frames in a row (at 30 fps) with every piece still, at the end of a
/// clip, after which the stroke under way is judged at rest: a third of the
/// [`StrokeMachineOptions::rest_frames`] that end a stroke in mid-clip.
const END_REST_FRAMES: u32 = 4;

/// A carromman this near (mm, a third of its diameter) a spot of the break
/// arrangement lies on it.
const SPOT_TAKEN_MM: f64 = 10.0;

/// The note on a stroke after motion that left the board set out.
const SET_OUT_MOTION: &str =
    "motion read as a stroke left the pieces set out for the break: it was the board being set out, not a stroke";

/// Records `piece` as off the board at `t`, unless a track of the same kind
/// left that near together just before: two discs cannot lie closer than a
/// diameter, so two tracks last seen, or meeting the frame, so near
/// followed one blurred piece (its twin tracks are seen apart along its
/// way, but meet the frame together). Whether it was recorded.
fn record_off_the_board(
    stroke: &mut SeenStroke,
    overboard_tracks: &mut Vec<LeftTheBoard>,
    piece: Piece,
    off: LeftTheBoard,
    t: f64,
) -> bool {
    let twin = stroke
        .stroke
        .overboard
        .iter()
        .zip(overboard_tracks.iter())
        .any(|(left, track)| {
            left.piece == piece
                && left.t.is_some_and(|left| t - left <= ONE_PIECE_OFF_S)
                && ((track.last_seen - off.last_seen).norm() < 2.0 * CARROMMAN_RADIUS_MM
                    || (track.meets_frame_at - off.meets_frame_at).norm()
                        < 2.0 * CARROMMAN_RADIUS_MM)
        });
    if twin {
        stroke.vision.alerts.push(VisionNote {
            t,
            message: format!("a {piece} seen leaving the board twice at once is counted once"),
        });
        return false;
    }
    stroke
        .stroke
        .overboard
        .push(OverboardPiece { piece, t: Some(t) });
    stroke.vision.flights.crossed(FrameCrossing {
        piece,
        t,
        meets_frame_at: off.meets_frame_at,
        seen_t: off.seen_t,
    });
    overboard_tracks.push(off);
    true
}

/// A piece seen leaving (into `pocket`, or off the board where `None`) as
/// a track vanishing, or lost heading into `pocket`, while another track,
/// `twin`, followed the same piece: one blurred or bouncing piece is found
/// as two discs, and the one the tracker drops proves nothing while the
/// other carries on. The twin's colour may differ: a blur's colour is
/// read from few pixels, and a white's track laid over a black's leading
/// blur was lost by a pocket while the black rested.
#[derive(Debug, Clone, Copy, PartialEq)]
struct ShadowedExit {
    twin: TrackId,
    piece: Piece,
    pocket: Option<Pocket>,
    t: f64,
}

/// A track first seen within this many frames before a stroke's strike
/// was found may be a second track on the striker's blur.
const TWIN_BORN_WITHIN_FRAMES: usize = 4;

/// Two discs in one frame nearer than this fraction of their radii summed
/// are one piece: carrommen cannot overlap.
const ONE_PIECE_FRACTION: f64 = 0.9;

/// A track first seen this near (mm) where another was last seen...
const HANDED_ON_MM: f64 = 3.0 * CARROMMAN_RADIUS_MM;

/// ...from a frame before that track's last sighting to this long (s)
/// after it, took its piece over.
const HANDED_ON_S: f64 = 0.1;

/// The exit of `lost`, a `piece` last seen at `last_seen` and gone at `t`
/// (into `pocket`, or off the board), as shadowed by each track in `frame`
/// of a carromman or the Queen, whatever its colour, that followed the same
/// piece over the `recent` frames: seen with it in one frame where two
/// pieces cannot both be, or first seen beside where it was last seen just
/// as it was lost; the struck striker's own track (`striker`, which tracks
/// born on its blur leave with the pieces it meets) only when not apart from
/// it then ([`apart_when_last_seen`]). Every such twin is kept, since only one that rests at
/// the end of the stroke withdraws the exit. Empty when no track did.
fn shadowed_exits(
    recent: &VecDeque<Positions>,
    frame: &TrackFrame,
    (lost, striker): (TrackId, TrackId),
    piece: Piece,
    last_seen: Point2<f64>,
    pocket: Option<Pocket>,
    t: f64,
) -> Vec<ShadowedExit> {
    if piece == Piece::Striker {
        return Vec::new();
    }
    frame
        .tracks
        .iter()
        .filter(|t| t.id != lost && t.piece != Piece::Striker)
        .filter(|other| {
            followed_the_same_piece(recent, lost, last_seen, other.id)
                && (other.id != striker || !apart_when_last_seen(recent, lost, other.id))
        })
        .map(|twin| ShadowedExit {
            twin: twin.id,
            piece,
            pocket,
            t,
        })
        .collect()
}

/// Another track first seen in the frame `lost` was first seen in, linked
/// to it by discs all first seen then, each overlapping the next (nearer
/// than [`ONE_PIECE_FRACTION`] of their radii summed: carrommen cannot
/// overlap), and seen in a later frame than `lost`'s last sighting within
/// the piece's reach at `speed` (mm/s, give or take
/// [`BEYOND_REACH_SLACK_MM`]), with where it was then: the detector found
/// one fast piece's blur as a row of discs and their tracks went separate
/// ways, one following the piece (clip 3827: a black struck at 3.3 m/s
/// first seen as four discs 20 mm apart; one track was lost heading for
/// the SW pocket and taken as pocketed while another followed the black
/// back off the cushions, 42 mm from where the first was last seen). One
/// seen beyond that reach took another piece (clip 3778's break: 275 mm
/// away a frame after a black went into the NE pocket).
fn blur_twin_seen_after(
    recent: &VecDeque<Positions>,
    lost: TrackId,
    speed: f64,
) -> Option<(TrackId, Point2<f64>)> {
    let born = recent.iter().position(|f| f.sighting(lost).is_some())?;
    let last = recent.iter().rposition(|f| f.disc(lost).is_some())?;
    let (last_t, (last_at, _)) = (recent[last].t, recent[last].disc(lost)?);
    // Seen in the oldest frame kept, it may have been born before it.
    let before = recent.get(born.checked_sub(1)?)?;
    let frame = &recent[born];
    let first_seen: Vec<(TrackId, Point2<f64>, f64)> = frame
        .discs
        .iter()
        .copied()
        .chain(
            frame
                .tentative
                .iter()
                .map(|&(id, at)| (id, at, CARROMMAN_RADIUS_MM)),
        )
        .filter(|&(id, _, _)| before.sighting(id).is_none())
        .collect();
    let mut linked = vec![lost];
    let mut k = 0;
    while k < linked.len() {
        let (from, r_from) = first_seen
            .iter()
            .find(|d| d.0 == linked[k])
            .map(|&(_, at, r)| (at, r))?;
        for &(id, at, r) in &first_seen {
            if !linked.contains(&id) && (at - from).norm() < ONE_PIECE_FRACTION * (r + r_from) {
                linked.push(id);
            }
        }
        k += 1;
    }
    linked[1..].iter().find_map(|&twin| {
        recent
            .range(last + 1..)
            .find_map(|f| f.disc(twin).map(|(at, _)| (f.t, at)))
            .filter(|&(t, at)| {
                (at - last_at).norm() <= speed * (t - last_t) + BEYOND_REACH_SLACK_MM
            })
            .map(|(_, at)| (twin, at))
    })
}

/// Whether the track `other` lay farther from `lost` when `lost` was last
/// seen than one disc's blur spans: `other`'s step into that frame (how far
/// its disc was smeared), both radii and [`ONE_BLUR_SLACK_MM`]. Two tracks
/// on one blurred disc lie on that blur; clip 2858's striker twin took the
/// black the striker met and carried it 150 mm on into the SW pocket while
/// the striker came to rest.
fn apart_when_last_seen(recent: &VecDeque<Positions>, lost: TrackId, other: TrackId) -> bool {
    let last_sighting = recent
        .iter()
        .enumerate()
        .rev()
        .find_map(|(i, f)| f.disc(lost).map(|disc| (i, disc)));
    let Some((i, (a, ra))) = last_sighting else {
        return false;
    };
    let Some((b, rb)) = disc_at(recent, other, i) else {
        return false;
    };
    let step = i
        .checked_sub(1)
        .and_then(|h| disc_at(recent, other, h))
        .map_or(0.0, |(before, _)| (b - before).norm());
    (a - b).norm() > step + ra + rb + ONE_BLUR_SLACK_MM
}

/// Slack (mm) for where the tracks place two sightings of one blurred disc.
const ONE_BLUR_SLACK_MM: f64 = CARROMMAN_RADIUS_MM;

/// Whether the track `other` followed the same piece as `lost`, last seen
/// at `last_seen`, over the `recent` frames: seen with it in one frame
/// where two pieces cannot both be (and it did not then go on alone), or
/// first seen beside where it was last seen just as it was lost.
fn followed_the_same_piece(
    recent: &VecDeque<Positions>,
    lost: TrackId,
    last_seen: Point2<f64>,
    other: TrackId,
) -> bool {
    let Some(last_sighting) = recent.iter().rposition(|f| f.disc(lost).is_some()) else {
        return false;
    };
    let apart_by = |i: usize| {
        let ((a, ra), (b, rb)) = (recent[i].disc(lost)?, disc_at(recent, other, i)?);
        Some((a - b).norm() / (ra + rb))
    };
    let last_overlap =
        (0..recent.len()).rposition(|i| apart_by(i).is_some_and(|d| d < ONE_PIECE_FRACTION));
    let overlapped = last_overlap.is_some_and(|i| {
        // Its steady course may begin only after their last overlap: a
        // track on the striker's blur that takes the piece the striker
        // hits has its last step with the striker on the striker's spot.
        let went_on_alone = (steady_from(recent.range(i..), lost)
            || steady_from(recent.range(i + 1..), lost)
            || ran_on_steadily(recent.range(i + 1..), lost))
            && (i + 1..recent.len())
                .any(|j| apart_by(j).is_some_and(|d| d > PASSED_APART_FRACTION));
        let first_overlap = (0..=i)
            .position(|j| apart_by(j).is_some_and(|d| d < ONE_PIECE_FRACTION))
            .unwrap_or(i);
        !went_on_alone
            && (!struck_lying_still(recent, lost, other, first_overlap)
                || overlapped_as_it_ran_off(recent, lost, other, first_overlap))
    });
    let first = recent.iter().position(|f| f.disc(other).is_some());
    let handed_on = first.is_some_and(|i| {
        let (f, sighting) = (&recent[i], &recent[last_sighting]);
        i > 0
            && i + 1 >= last_sighting
            && f.t - sighting.t <= HANDED_ON_S
            && f.disc(other)
                .is_some_and(|(b, _)| (b - last_seen).norm() <= HANDED_ON_MM)
    });
    overlapped || handed_on || moved_as_one_blur(recent, lost, other)
}

/// Whether `other` moved in step with `lost` over `lost`'s last
/// [`IN_STEP_STEPS`] steps, lying on `lost`'s course within one blur's
/// span of it (a step and both radii; [`blur::in_step`]): two discs the
/// detector found on one piece's blur. Two pieces do not slide on in step like that: the one
/// struck runs off faster than the one that struck it (clip 2980: two
/// tracks born on the striker's blur took the white it hit on, 35 mm
/// apart, and the one behind was lost by the SW pocket and taken as
/// pocketed while the other followed the white to rest).
fn moved_as_one_blur(recent: &VecDeque<Positions>, lost: TrackId, other: TrackId) -> bool {
    // Each frame both were seen in: its time, and each one's centre and
    // radius.
    let both: Vec<_> = recent
        .iter()
        .filter_map(|f| Some((f.t, f.disc(lost)?, f.disc(other)?)))
        .collect();
    let last_seen_together = recent
        .iter()
        .rev()
        .find_map(|f| f.disc(lost).map(|_| f.disc(other).is_some()));
    if last_seen_together != Some(true) || both.len() <= IN_STEP_STEPS {
        return false;
    }
    both[both.len() - IN_STEP_STEPS - 1..].windows(2).all(|w| {
        let ((t0, (a0, _), (b0, _)), (t1, (a1, ra), (b1, rb))) = (w[0], w[1]);
        let step = |from, to, radius_mm| Step {
            from,
            to,
            radius_mm,
        };
        blur::in_step(&step(a0, a1, ra), &step(b0, b1, rb), t1 - t0).is_some()
    })
}

/// Steps of a piece's course over which two tracks moving in step were
/// one blurred piece ([`moved_as_one_blur`]).
const IN_STEP_STEPS: usize = 3;

/// Whether `id` was seen within [`STILL_JITTER_MM`] of `spot` in each of
/// `frames` of `recent`.
fn lay_still(
    recent: &VecDeque<Positions>,
    id: TrackId,
    spot: Point2<f64>,
    frames: std::ops::Range<usize>,
) -> bool {
    frames.into_iter().all(|i| {
        recent[i]
            .disc(id)
            .is_some_and(|(p, _)| (p - spot).norm() <= STILL_JITTER_MM)
    })
}

/// `frame` with the tracks in `swapped`, and their events, read as the
/// pieces they follow.
fn with_swapped_pieces(frame: &TrackFrame, swapped: &HashMap<TrackId, Piece>) -> TrackFrame {
    let mut read = frame.clone();
    for track in &mut read.tracks {
        if let Some(&piece) = swapped.get(&track.id) {
            track.piece = piece;
        }
    }
    for event in &mut read.events {
        let (TrackEvent::Appeared { id, piece, .. } | TrackEvent::Vanished { id, piece, .. }) =
            event;
        if let Some(&swapped_piece) = swapped.get(id) {
            *piece = swapped_piece;
        }
    }
    read
}

/// Where `id` was in frame `i` of `recent`: seen there, or, unseen, on the
/// line between its sightings within [`BRIDGED_FRAMES`] before and after, at
/// that frame's time. A blurred piece found as two discs is often seen as
/// each in turn and never as both at once, but two pieces are never in one
/// place at one time.
fn disc_at(recent: &VecDeque<Positions>, id: TrackId, i: usize) -> Option<(Point2<f64>, f64)> {
    if let Some(disc) = recent.get(i)?.disc(id) {
        return Some(disc);
    }
    let sighting = |j: usize| recent[j].disc(id).map(|disc| (recent[j].t, disc));
    let (t0, (p0, r0)) = (i.saturating_sub(BRIDGED_FRAMES)..i)
        .rev()
        .find_map(sighting)?;
    let (t1, (p1, r1)) = (i + 1..(i + 1 + BRIDGED_FRAMES).min(recent.len())).find_map(sighting)?;
    let along = (recent[i].t - t0) / (t1 - t0).max(1e-6);
    Some((p0 + (p1 - p0) * along, r0 + (r1 - r0) * along))
}

/// Frames on either side of an unseen one within which [`disc_at`] looks
/// for sightings to place a disc between.
const BRIDGED_FRAMES: usize = 2;

/// Whether `other`, first met by `lost` in the `recent` frame `met` (their
/// discs overlapping), had lain still on one spot for
/// [`STRUCK_STILL_FRAMES`] sightings or more just before, while `lost` came
/// from elsewhere (seen before farther than a diameter from that spot): a
/// piece lying there that `lost` ran into (the moving piece's blurred
/// centre lags, so two pieces touching read as overlapping), not a second
/// track on `lost`'s own piece.
fn struck_lying_still(
    recent: &VecDeque<Positions>,
    lost: TrackId,
    other: TrackId,
    met: usize,
) -> bool {
    let Some(spot) = lying_still_before(recent, other, met, STRUCK_STILL_FRAMES) else {
        return false;
    };
    recent.range(..met).any(|f| {
        f.disc(lost)
            .is_some_and(|(at, _)| (at - spot).norm() > 2.0 * CARROMMAN_RADIUS_MM)
    })
}

/// Whether `lost`, having met `other` lying still in the `recent` frame
/// `met`, still overlapped it in [`RAN_OFF_TOGETHER_FRAMES`] frames after
/// that in which `other` was running off (each a step longer than
/// [`SAME_SPOT_MM`]): a piece that struck another falls behind it as it
/// runs off, so a track that keeps on its blur is a second sighting of the
/// struck piece. Clip 3678: a striker track, read as a white, met a black
/// lying still and rode 20 mm ahead of it for two frames as the black ran
/// at the NE pocket; lost 126 mm short of the pocket, it was taken as a
/// white pocketed there as well as the black.
fn overlapped_as_it_ran_off(
    recent: &VecDeque<Positions>,
    lost: TrackId,
    other: TrackId,
    met: usize,
) -> bool {
    let together = (met + 1..recent.len())
        .filter(|&j| {
            let (Some((a, ra)), Some((b, rb))) = (recent[j].disc(lost), recent[j].disc(other))
            else {
                return false;
            };
            let running = recent[j - 1]
                .disc(other)
                .is_some_and(|(before, _)| (b - before).norm() > SAME_SPOT_MM);
            running && (a - b).norm() < ONE_PIECE_FRACTION * (ra + rb)
        })
        .count();
    together >= RAN_OFF_TOGETHER_FRAMES
}

/// Frames after the meeting in which the striking track overlapped the
/// struck piece running off that make it a second track on that piece.
const RAN_OFF_TOGETHER_FRAMES: usize = 2;

/// Where `id` lay, if its sightings in the `recent` frames before the
/// `before`-th, `frames` of them at least, all lie on one spot: its latest.
fn lying_still_before(
    recent: &VecDeque<Positions>,
    id: TrackId,
    before: usize,
    frames: usize,
) -> Option<Point2<f64>> {
    let spots: Vec<Point2<f64>> = recent
        .range(..before)
        .filter_map(|f| f.disc(id))
        .map(|(at, _)| at)
        .collect();
    let &spot = spots.last()?;
    (spots.len() >= frames && spots.iter().all(|at| (at - spot).norm() <= SAME_SPOT_MM))
        .then_some(spot)
}

/// Sightings on one spot that show a piece lay still before it was struck.
const STRUCK_STILL_FRAMES: usize = 4;

/// Whether any three sightings running of `id` over `frames` make two
/// steps of a steady course, each longer than [`SAME_SPOT_MM`]: a piece
/// that ran on by itself, whatever its first steps after it met another
/// did. Clip 3544's break: a black beside another in the pack was
/// struck, its blurred centre nearer that one's as both set off, and its
/// first steps then swung as its track settled; it ran on steadily at
/// 1200 mm/s into the SW pocket, 400 mm from the other, and its pocketing
/// was withdrawn as the other's twin.
fn ran_on_steadily<'a>(frames: impl IntoIterator<Item = &'a Positions>, id: TrackId) -> bool {
    let seen: Vec<&Positions> = frames
        .into_iter()
        .filter(|f| f.disc(id).is_some())
        .collect();
    seen.windows(3).any(|w| {
        two_steps([w[0], w[1], w[2]], id).is_some_and(|(first, second)| {
            let moved = |v: Vector2<f64>, dt: f64| v.norm() * dt > SAME_SPOT_MM;
            steady_course(first, second)
                && moved(first, w[1].t - w[0].t)
                && moved(second, w[2].t - w[1].t)
        })
    })
}

/// Two discs seen nearer than [`ONE_PIECE_FRACTION`] of their radii summed
/// and later farther apart than this fraction, the lost one going on on a
/// steady course of its own ([`steady_from`]), were two pieces that passed
/// close (or were caught blurred side by side), not one piece seen twice.
const PASSED_APART_FRACTION: f64 = 1.5;

/// Whether the first three sightings of `id` over `frames` make two steps
/// of a steady course: a piece sliding on its own.
fn steady_from<'a>(frames: impl IntoIterator<Item = &'a Positions>, id: TrackId) -> bool {
    let mut frames_seen = frames.into_iter().filter(|f| f.disc(id).is_some());
    let (Some(a), Some(b), Some(c)) = (frames_seen.next(), frames_seen.next(), frames_seen.next())
    else {
        return false;
    };
    two_steps([a, b, c], id).is_some_and(|(first, second)| steady_course(first, second))
}

/// Withdraws the `shadowed` exits whose twin rests on the board at the end
/// of the stroke: the piece is still there; and those into a pocket whose
/// twin went into it too within [`SAME_POCKETING_S`] (`pocketed_tracks`:
/// each pocketing's track and time): the one piece went in once, whatever
/// the count at rest says. Each withdrawal is an alert.
fn withdraw_shadowed(
    stroke: &mut SeenStroke,
    shadowed: &mut Vec<ShadowedExit>,
    pocketed_tracks: &[(TrackId, Piece, f64)],
    at_rest: &TrackFrame,
) {
    let mut pocketings_withdrawn = Vec::new();
    for s in shadowed.drain(..) {
        // Its colour may have settled otherwise since: a blurred piece's
        // votes are few.
        let twin_rests = at_rest.tracks.iter().any(|t| t.id == s.twin);
        if !twin_rests {
            withdraw_twice_going_in(stroke, &s, pocketed_tracks, at_rest);
            continue;
        }
        let withdrawn = match s.pocket {
            Some(pocket) => {
                let pocketed = &mut stroke.stroke.pocketed;
                pocketed
                    .iter()
                    .position(|p| {
                        p.piece == s.piece && p.pocket == Some(pocket) && p.t == Some(s.t)
                    })
                    .map(|i| pocketings_withdrawn.push(pocketed.remove(i)))
                    .map(|_| format!("lost by the {} pocket", pocket.name()))
            }
            None => {
                let overboard = &mut stroke.stroke.overboard;
                overboard
                    .iter()
                    .position(|o| o.piece == s.piece && o.t == Some(s.t))
                    .map(|i| overboard.remove(i))
                    .map(|_| "lost at the cushion".to_string())
            }
        };
        if let Some(where_lost) = withdrawn {
            stroke.vision.alerts.push(VisionNote {
                t: s.t,
                message: format!(
                    "a {} {where_lost} was followed on by another track, which rests on the board: it did not leave",
                    s.piece
                ),
            });
        }
    }
    reinstate_pocketings_the_count_misses(stroke, pocketings_withdrawn, at_rest);
}

/// Puts back each carromman's pocketing `withdrawn` because a track that
/// followed the same piece rests, where the count at rest (against both
/// the count seen before and the laws') still misses a piece of its kind
/// that neither a departure kept nor a track of its kind dropped as a
/// print accounts for: the track resting was another piece, passed close
/// by as the piece went in. Clip 6108: at the break a black went into the
/// NE pocket beside pieces from the pack whose tracks had been seen with
/// it; they rested, the black was taken as never gone, and the count at
/// rest was a black short. The prints count against it because a piece
/// that barely moved off the centre design at the break is at times
/// dropped as one (clips 3979 and 6122: a black 20 mm off the centre), and
/// the count of all carrommen must be short too.
fn reinstate_pocketings_the_count_misses(
    stroke: &mut SeenStroke,
    withdrawn: Vec<PocketedPiece>,
    at_rest: &TrackFrame,
) {
    let missing = missing_against_the_laws(&stroke.vision, at_rest);
    // One kind short where another is over is a piece read in the wrong
    // colour, not one gone (clip 6117: 10 whites and two Queens at rest).
    let before = stroke.vision.seen_before.at_most(stroke.vision.laws_before);
    let carrommen_before = before.white + before.black + u32::from(before.queen);
    let carrommen_at_rest = at_rest
        .tracks
        .iter()
        .filter(|t| t.piece != Piece::Striker)
        .count();
    for p in withdrawn {
        if p.piece == Piece::Striker {
            continue;
        }
        let carrommen_gone = {
            let pocketed = stroke.stroke.pocketed.iter().map(|q| q.piece);
            let off = stroke.stroke.overboard.iter().map(|o| o.piece);
            pocketed.chain(off).filter(|&q| q != Piece::Striker).count()
        };
        if carrommen_before as usize <= carrommen_at_rest + carrommen_gone {
            continue;
        }
        let prints = stroke.vision.prints_dropped_of(p.piece);
        if missing_of(&missing, p.piece) as usize <= departures_of(stroke, p.piece) + prints {
            continue;
        }
        let t = p.t.or(stroke.stroke.t).unwrap_or(0.0);
        stroke.vision.alerts.push(VisionNote {
            t,
            message: format!(
                "the {} taken as not gone into the {} pocket went in after all: the count at rest misses a {}, and the track resting that followed it was another piece",
                p.piece,
                p.pocket.map_or("unknown", |pocket| pocket.name()),
                p.piece
            ),
        });
        let at = stroke
            .stroke
            .pocketed
            .partition_point(|q| q.t.unwrap_or(0.0) <= t);
        stroke.stroke.pocketed.insert(at, p);
    }
}

/// Withdraws the pocketing of the twin of `s` when it went into the same
/// pocket within [`SAME_POCKETING_S`] of it (`pocketed_tracks`: each
/// pocketing's track and time): the one piece went in once, whatever the
/// count at rest says. The first track's pocketing stays, so a later twin
/// of that twin that rests withdraws nothing more. Where the two were seen
/// in two colours, the count at rest or the tracks' ages say which stays.
fn withdraw_twice_going_in(
    stroke: &mut SeenStroke,
    s: &ShadowedExit,
    pocketed_tracks: &[(TrackId, Piece, f64)],
    at_rest: &TrackFrame,
) {
    let (Some(pocket), pocketed) = (s.pocket, &mut stroke.stroke.pocketed) else {
        return;
    };
    let into_it_at = |p: &PocketedPiece, t: f64| p.pocket == Some(pocket) && p.t == Some(t);
    if !pocketed
        .iter()
        .any(|p| p.piece == s.piece && into_it_at(p, s.t))
    {
        return;
    }
    let Some(i) = pocketed_tracks
        .iter()
        .filter(|&&(id, _, t)| id == s.twin && (t - s.t).abs() <= SAME_POCKETING_S)
        .find_map(|&(_, _, t)| pocketed.iter().position(|p| into_it_at(p, t)))
    else {
        return;
    };
    let later = pocketed[i].clone();
    if later.piece != s.piece {
        // Seen in two colours: the kind the count at rest misses where it
        // misses only one of the two, else the kind of the track followed
        // longer (a track born on a blur has few colour votes).
        let Some(first) = pocketed
            .iter()
            .position(|p| p.piece == s.piece && into_it_at(p, s.t))
        else {
            return;
        };
        let missing = missing_against_the_laws(&stroke.vision, at_rest);
        let lost = &stroke.vision.lost_from_sight;
        let (kept, reason) = one_piece_of_two_colours(
            &pocketed[first],
            &later,
            |piece| missing_of(&missing, piece) > 0,
            |piece| lost_on_the_way_in(lost, piece, &pocketed[first]),
            |p, q| born_earlier(pocketed_tracks, p, q),
        );
        pocketed.remove(if kept == s.piece { i } else { first });
        stroke.vision.alerts.push(VisionNote {
            t: s.t,
            message: format!(
                "a {} and then a {} went into the {} pocket on one piece's course: one piece, a {kept}, as {reason}",
                s.piece,
                later.piece,
                pocket.name()
            ),
        });
        return;
    }
    let twin = pocketed.remove(i);
    stroke.vision.alerts.push(VisionNote {
        t: twin.t.unwrap_or(s.t),
        message: format!(
            "a {} went into the {} pocket after a track that followed the same piece went in: one piece, counted once",
            twin.piece,
            pocket.name()
        ),
    });
}

enum Exit {
    Pocket(crate::geometry::Pocket),
    /// Over the frame; per axis (x, y), the side crossed (-1 or 1), or 0.
    Edge([f64; 2]),
    Nowhere,
}

/// A piece lost from sight while it sped straight at a pocket, away from
/// the pockets: fast pieces blur into the board on their way in. Unless it
/// is found again before the stroke comes to rest, it went in.
#[derive(Debug, Clone, Copy, PartialEq)]
struct LostTowardsPocket {
    id: TrackId,
    piece: Piece,
    pocket: Pocket,
    last_seen: Point2<f64>,
    t: f64,
    /// The fastest it can have been going (mm/s) when lost: its track's
    /// speed, or the knock's or the course's that sent it to the pocket.
    speed: f64,
    /// A "striker" lost while another striker track was in sight.
    striker_elsewhere: bool,
}

/// A carromman that lay behind the striking seat's base lines, by its
/// cushion, since the last stroke came to rest, and went from sight, never
/// to be found again, just as the stroke began, its striker seen behind
/// those lines too: the striker, struck back at it under the hand, knocked
/// it over the cushion (clip 3902: a black 34 mm from the south cushion,
/// struck by south's striker played back at it, jumped the frame under the
/// hand and was never seen in flight; the striker was first seen coming
/// back off the cushion). Nothing of its flight shows, so it is kept only
/// where the count at rest misses a piece of its kind that nothing else
/// explains. Without the striker seen going back, pieces lying under the
/// hand behind the lines, lost as it hid them and not found again by the
/// time the pieces rest, are no sign of a departure (clip 3563: two whites
/// 79 mm behind a striker played forward); so a piece struck back at by a
/// striker seen only once it was on its way forward again stays on the
/// board (clip 3673).
#[derive(Debug, Clone, Copy, PartialEq)]
struct LostBehindTheLines {
    piece: Piece,
    last_seen: Point2<f64>,
    t: f64,
}

impl LostBehindTheLines {
    /// The carromman `id` (a `piece`, last seen at `last_seen` at `t`),
    /// lost from sight lying still in `stroke`, whose striker was seen
    /// behind its lines if `struck_back`, if it went as one knocked over
    /// the striking seat's cushion may: see [`LostBehindTheLines`]. Not
    /// where a new track of its kind came into sight since the strike
    /// (`its_kind_since`): that may be it, back off the cushion (clip 5046:
    /// a black knocked from behind the lines under the hand was next seen
    /// 137 mm on as a new track, while its own, hidden, was lost where it
    /// lay).
    fn of(
        stroke: &Stroke,
        (struck_back, its_kind_since): (bool, bool),
        lying_at_last_rest: &[(TrackId, Point2<f64>, Piece)],
        (id, piece, last_seen, t): (TrackId, Piece, Point2<f64>, f64),
    ) -> Option<LostBehindTheLines> {
        let struck = stroke.t.filter(|_| struck_back && !its_kind_since)?;
        let lay_there = lying_at_last_rest
            .iter()
            .any(|&(lying, at, _)| lying == id && (at - last_seen).norm() <= STILL_SINCE_REST_MM);
        let behind = behind_the_lines(last_seen, stroke.seat);
        (lay_there && behind && t - struck <= LOST_BEHIND_THE_LINES_WITHIN_S).then_some(
            LostBehindTheLines {
                piece,
                last_seen,
                t,
            },
        )
    }
}

/// Whether `at` lies behind `seat`'s base lines as its player sees them:
/// beyond the outer line, between the pockets' corners.
fn behind_the_lines(at: Point2<f64>, seat: Seat) -> bool {
    let seen_from_seat = rotate_from_seat(at, seat);
    -seen_from_seat.y >= BASE_BAND_NEAR_EDGE_FROM_CENTRE_MM
        && seen_from_seat.x.abs() <= BEHIND_THE_LINES_ACROSS_MM
}

/// A piece found within this distance (mm) of where it lay at the last rest
/// has not moved since.
const STILL_SINCE_REST_MM: f64 = 5.0;

/// Behind a seat's base lines, within this distance (mm) across of their
/// middle: as far as the base lines run, short of the pockets' mouths.
const BEHIND_THE_LINES_ACROSS_MM: f64 = 240.0;

/// A piece knocked over the cushion by the striker struck back at it is
/// lost within this time (s) of the strike: gone at once, but its track,
/// hidden under the hand, is dropped only some frames after the hand has
/// gone, and a strike seen only after the striker came off the cushion is
/// timed early (clip 3902: lost 0.71 s after the strike time reckoned,
/// 0.40 s after the true one).
const LOST_BEHIND_THE_LINES_WITHIN_S: f64 = 1.0;

/// A pocketing never seen, judged on evidence the count at rest outweighs:
/// kept only where the count misses a piece of its kind (see
/// [`reconcile_exits`]).
#[derive(Debug, Clone, Copy, PartialEq)]
struct WeakPocketing {
    piece: Piece,
    pocket: Pocket,
    t: f64,
    from: WeakEvidence,
}

/// What `pocketed` was inferred from, where it is one of `vision`'s
/// [`WeakPocketing`]s (never a striker's).
fn weak_evidence_of(vision: &VisionExtra, pocketed: &PocketedPiece) -> Option<WeakEvidence> {
    if pocketed.piece == Piece::Striker {
        return None;
    }
    vision
        .weakly_inferred
        .iter()
        .find(|weak| {
            weak.piece == pocketed.piece
                && Some(weak.pocket) == pocketed.pocket
                && Some(weak.t) == pocketed.t
        })
        .map(|weak| weak.from)
}

/// What a [`WeakPocketing`] was judged from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WeakEvidence {
    /// A piece lost from sight speeding at a pocket still far from it.
    LostFarFromIt,
    /// A piece lying beside a pocket, knocked in unseen as its track took
    /// up the piece that knocked it (see [`knocked_in_as_tracks_swapped`]).
    KnockedInAsTracksSwapped,
    /// A piece running at a pocket, gone in unseen as its track took up
    /// another piece of its kind (see [`ran_in_as_tracks_swapped`]).
    RanInAsTracksSwapped,
}

/// A carromman gone in unseen as its track took up another piece of its
/// kind, whose own track was then lost: one lying beside a pocket, knocked
/// in by that piece (see [`knocked_in_as_tracks_swapped`]), or one running
/// at a pocket (see [`ran_in_as_tracks_swapped`]).
#[derive(Debug, Clone, Copy, PartialEq)]
struct KnockedInUnseen {
    piece: Piece,
    pocket: Pocket,
    /// Where it lay, or where it was last seen running (board mm).
    from: Point2<f64>,
    /// Where the other piece's track was last seen (board mm).
    lost_at: Point2<f64>,
    /// Whether it ran at the pocket rather than lay beside it.
    running: bool,
}

impl KnockedInUnseen {
    /// Records the pocketing at `t` (s) in `stroke`, for the count at rest
    /// to decide.
    fn record_in(self, stroke: &mut SeenStroke, t: f64) {
        let Self {
            piece,
            pocket,
            from,
            lost_at,
            running,
        } = self;
        stroke.vision.weakly_inferred.push(WeakPocketing {
            piece,
            pocket,
            t,
            from: if running {
                WeakEvidence::RanInAsTracksSwapped
            } else {
                WeakEvidence::KnockedInAsTracksSwapped
            },
        });
        let pocket_name = pocket.name();
        let (how, which) = if running {
            (
                format!(
                    "last seen running at the {pocket_name} pocket at ({:.0}, {:.0}) mm",
                    from.x, from.y
                ),
                "running at the pocket",
            )
        } else {
            (
                format!("that lay by the {pocket_name} pocket at ({:.0}, {:.0}) mm, knocked towards it,", from.x, from.y),
                "knocked from beside the pocket",
            )
        };
        record_unseen_pocketing(
            stroke,
            (piece, pocket, t),
            format!(
                "lost sight of a {piece} at ({:.0}, {:.0}) mm as the track of a {piece} {how} was found again there: the tracks swapped, and the {piece} {which} is taken as pocketed there if the count at rest misses one",
                lost_at.x, lost_at.y
            ),
        );
    }
}

/// A carromman lying still that the striker was lost from sight against,
/// with no hand about and away from pockets and edges: a striker meeting a
/// piece full on stops about where the piece lay, and the piece's track,
/// left behind as the piece sped off unseen, takes the striker's disc there.
/// Judged at rest by [`StoppedOnAPiece::went_in_judged_at_rest`].
#[derive(Debug, Clone, Copy, PartialEq)]
struct StoppedOnAPiece {
    id: TrackId,
    piece: Piece,
    /// Where it lay before the striker met it (board mm).
    lay: Point2<f64>,
    /// Where the striker was last seen (board mm), and its course then (a
    /// unit vector).
    striker_last_seen: Point2<f64>,
    course: Vector2<f64>,
    /// The pocket the knock sent it towards.
    pocket: Pocket,
    /// When the striker's track was lost (s).
    t: f64,
}

/// How much further (mm) than touching a piece may lie from the striker's
/// last sighting for [`StoppedOnAPiece`]: the striker went on for part of a
/// frame unseen before it met it.
const STOPPED_ON_REACH_MM: f64 = 15.0;

/// A disc this much further (mm) than touching from the piece's track at
/// rest lies beside it: the striker, or a piece, that the track is not.
const STOPPED_BESIDE_MM: f64 = 10.0;

/// Sightings in one place, before the striker's last, that show the piece
/// it met lay still.
const STOPPED_ON_LAY_FRAMES: usize = 2;

impl StoppedOnAPiece {
    /// The carromman the `striker`, lost from sight at `t`, had come to
    /// over the `recent` frames: one of the `lying_before` tracks (those
    /// seen before the strike), still in `frame`, lying still on the
    /// striker's course within touching (and [`STOPPED_ON_REACH_MM`]) of its
    /// last sighting, that the knock would send towards a pocket; the
    /// nearest of them.
    fn of(
        recent: &VecDeque<Positions>,
        frame: &TrackFrame,
        striker: TrackId,
        lying_before: &[TrackId],
        t: f64,
    ) -> Option<StoppedOnAPiece> {
        let last_sighting = recent.iter().rposition(|f| f.disc(striker).is_some())?;
        let (striker_last_seen, _) = recent[last_sighting].disc(striker)?;
        let (_, velocity, _) = last_two_steps(recent, striker)?;
        let speed = velocity.norm();
        if speed < KNOCK_MIN_SPEED_MM_S {
            return None;
        }
        let course = velocity / speed;
        let touching = STRIKER_RADIUS_MM + CARROMMAN_RADIUS_MM;
        frame
            .tracks
            .iter()
            .filter(|piece| {
                piece.piece != Piece::Striker && lying_before.binary_search(&piece.id).is_ok()
            })
            .filter_map(|piece| {
                let lay =
                    lying_still_before(recent, piece.id, last_sighting, STOPPED_ON_LAY_FRAMES)?;
                let apart = lay - striker_last_seen;
                let met =
                    apart.norm() <= touching + STOPPED_ON_REACH_MM && apart.dot(&course) > 0.0;
                if !met {
                    return None;
                }
                let reach_ahead = striker_last_seen + course * (apart.norm() + touching);
                let contact = first_within(striker_last_seen, reach_ahead, lay, touching)
                    .unwrap_or(striker_last_seen);
                let knock = lay - contact;
                let pocket =
                    pocket_ahead(lay, knock, speed).or_else(|| pocket_beside(lay, knock))?;
                Some(StoppedOnAPiece {
                    id: piece.id,
                    piece: piece.piece,
                    lay,
                    striker_last_seen,
                    course,
                    pocket,
                    t,
                })
            })
            .min_by(|a, b| {
                let from_striker = |s: &StoppedOnAPiece| (s.lay - striker_last_seen).norm();
                from_striker(a).total_cmp(&from_striker(b))
            })
    }

    /// Whether the piece went into its pocket, judged `at_rest`: no striker
    /// is seen anywhere, and the piece's track lies, alone, where the striker
    /// would have stopped (beyond the striker's last sighting, within
    /// touching of where the piece lay). A striker seen anywhere, a disc
    /// seen beside the piece, or the piece's own track gone (judged as it
    /// was lost) or `pocketed` already, says otherwise.
    fn went_in_judged_at_rest(
        &self,
        at_rest: &TrackFrame,
        pocketed: &[(TrackId, Piece, f64)],
    ) -> bool {
        let touching = STRIKER_RADIUS_MM + CARROMMAN_RADIUS_MM;
        let Some(track) = at_rest.tracks.iter().find(|t| t.id == self.id) else {
            return false;
        };
        let striker_seen = at_rest.tracks.iter().any(|t| t.piece == Piece::Striker);
        // Tentative tracks too: a disc found lying still mid-board is long
        // in being confirmed.
        let beside = at_rest
            .tracks
            .iter()
            .filter(|t| t.id != self.id)
            .map(|t| t.position)
            .chain(at_rest.tentative.iter().map(|&(_, at)| at))
            .any(|at| (at - track.position).norm() <= touching + STOPPED_BESIDE_MM);
        let where_the_striker_stopped = (track.position - self.lay).norm() <= touching
            && (track.position - self.striker_last_seen).dot(&self.course) > 0.0;
        !striker_seen
            && !beside
            && where_the_striker_stopped
            && !pocketed.iter().any(|&(id, _, _)| id == self.id)
    }

    fn record_in(&self, stroke: &mut SeenStroke) {
        record_unseen_pocketing(
            stroke,
            (self.piece, self.pocket, self.t),
            format!(
                "the striker was lost from sight as it met a {} lying at ({:.0}, {:.0}) mm, and no striker was seen at rest: the striker stopped there, and the {} went into the {} pocket it was knocked towards",
                self.piece,
                self.lay.x,
                self.lay.y,
                self.piece,
                self.pocket.name()
            ),
        );
    }
}

/// Where a disc at `at` running along `direction` meets the frame's
/// cushion (its rim touching it), board mm: `at` if it never does.
fn where_it_meets_the_frame(at: Point2<f64>, direction: Vector2<f64>) -> Point2<f64> {
    let ahead = (0..2)
        .filter(|&axis| direction[axis] != 0.0)
        .map(|axis| (CONTACT_LINE_MM * direction[axis].signum() - at[axis]) / direction[axis])
        .fold(f64::INFINITY, f64::min)
        .max(0.0);
    if ahead.is_finite() {
        at + direction * ahead
    } else {
        at
    }
}

/// A track lost running at the frame, taken for a piece off the board.
#[derive(Debug, Clone, Copy, PartialEq)]
struct LeftTheBoard {
    id: TrackId,
    last_seen: Point2<f64>,
    /// Where it met the frame's cushion, or would have, board mm.
    meets_frame_at: Point2<f64>,
    /// When it was last seen (s).
    seen_t: f64,
    /// Its speed then, mm/s.
    speed: f64,
}

impl LeftTheBoard {
    /// Whether a disc "found again" as this piece at `at`, `t`, could be it,
    /// bounced back off the frame: no farther from where it was last seen
    /// than its speed (or [`JUMP_SPEED`]) carries it meanwhile, give or take
    /// a diameter. The tracker takes a disc it finds for a lost piece of its
    /// kind up to 400 mm away, even in the frame the piece went.
    fn could_be_back_at(&self, at: Point2<f64>, t: f64) -> bool {
        (at - self.last_seen).norm()
            <= self.speed.max(JUMP_SPEED) * (t - self.seen_t) + 2.0 * CARROMMAN_RADIUS_MM
    }
}

/// A striker lost speeding at a pocket with a new carromman resting this
/// near (mm) to where it was lost, short of the pocket, stopped there.
const STOPPED_SHORT_MM: f64 = 100.0;

/// A piece lost heading into a pocket and found again within this many
/// seconds... (Over 122 of the simulator's clips, the four finds 300-420 mm
/// away within 0.07-0.23 s were all other discs, the piece having gone in;
/// the six that rightly undid a pocketing were within 170 mm, or came 0.3 s
/// or more later.)
const FOUND_ELSEWHERE_WITHIN_S: f64 = 0.25;

/// ...farther than this (mm) from where it was lost is another disc.
const FOUND_ELSEWHERE_MM: f64 = 200.0;

/// A track that found a piece lost speeding at a pocket and is itself lost
/// within this (mm) of where that piece was lost...
const FOUND_ON_THE_SPOT_MM: f64 = 15.0;

/// ...within this (s) of that loss was a mark on the spot, not the piece.
const FOUND_ON_THE_SPOT_WITHIN_S: f64 = 1.0;

/// A disc found again this much (mm) beyond the reach of a lost piece at
/// its speed is another: slack for where the tracks placed both.
const BEYOND_REACH_SLACK_MM: f64 = 50.0;

/// A carromman lost from sight this near (mm, two carrommen's widths)...
const KNOCKED_PIECE_MM: f64 = 4.0 * CARROMMAN_RADIUS_MM;

/// ...and this near in time (s) to a second "striker" lost speeding at a
/// pocket is the piece that "striker" was.
const KNOCKED_PIECE_S: f64 = 0.3;

impl LostTowardsPocket {
    /// Whether a disc "found again" as this piece at `at`, `t`, is some other
    /// disc: the tracker takes a disc it finds for the nearest lost piece of
    /// its kind, but a piece seen heading into a pocket does not turn up a
    /// quarter of the board away a few frames later.
    ///
    /// Nor, however late, does one turn up farther than it could have gone
    /// at the speed it was lost at (friction only slows a piece, and a knock
    /// passes on at most the knocker's speed): clip 2838's white, knocked
    /// into the NE pocket at 700 mm/s, was "found again" 470 mm away 0.37 s
    /// later, a white that had lain there unseen all along.
    fn found_elsewhere(&self, at: Point2<f64>, t: f64) -> bool {
        let away = (at - self.last_seen).norm();
        let since = t - self.t;
        away > FOUND_ELSEWHERE_MM
            && (since <= FOUND_ELSEWHERE_WITHIN_S
                || away > self.speed * since.max(0.0) + BEYOND_REACH_SLACK_MM)
    }

    /// The alert on a track that "found" this piece again where it was
    /// lost, and was lost in its turn at `last_seen`, `t` (s), without
    /// leaving the spot and at no rest: a mark left where the piece lay,
    /// not the piece, which is taken as lost towards its pocket after all
    /// (clip 6100: a white knocked at the SE pocket and lost 160 mm from it
    /// was "found" 10 mm from where it was lost, a white that stayed 0.4 s
    /// and was gone before the rest, whose count missed a white).
    fn found_on_its_spot(&self, last_seen: Point2<f64>, t: f64) -> VisionNote {
        VisionNote {
            t,
            message: format!(
                "a {} found again at ({:.0}, {:.0}) mm, where a {} speeding at the {} pocket was lost {:.2} s before, was lost in its turn without moving: it was not that piece",
                self.piece,
                last_seen.x,
                last_seen.y,
                self.piece,
                self.pocket.name(),
                t - self.t
            ),
        }
    }

    fn record_in(self, stroke: &mut SeenStroke) {
        // Seen going in after all, as a track of its own picked up on the
        // way: one piece, not two.
        let seen_going_in =
            stroke.stroke.pocketed.iter().any(|p| {
                p.piece == self.piece && p.pocket == Some(self.pocket) && p.t >= Some(self.t)
            });
        if seen_going_in {
            return;
        }
        if (pocket_centre(self.pocket) - self.last_seen).norm() > UNSEEN_FAR_FROM_POCKET_MM {
            stroke.vision.weakly_inferred.push(WeakPocketing {
                piece: self.piece,
                pocket: self.pocket,
                t: self.t,
                from: WeakEvidence::LostFarFromIt,
            });
        }
        record_unseen_pocketing(
            stroke,
            (self.piece, self.pocket, self.t),
            format!(
                "a {} lost from sight at ({:.0}, {:.0}) mm speeding at the {} pocket, not seen again: taken as pocketed there",
                self.piece,
                self.last_seen.x,
                self.last_seen.y,
                self.pocket.name()
            ),
        );
    }
}

/// Which of `found_where_lost` (pieces lost speeding at a pocket, each
/// with the track that "found" it again where it was lost) the track `id`,
/// lost from sight at `last_seen` at `t` (s), found: the one it was taken
/// for, if it is lost again soon and never moved off that spot.
fn found_on_the_spot(
    found_where_lost: &[(TrackId, LostTowardsPocket)],
    id: TrackId,
    last_seen: Point2<f64>,
    t: f64,
) -> Option<usize> {
    found_where_lost.iter().position(|(track, lost)| {
        *track == id
            && (last_seen - lost.last_seen).norm() <= FOUND_ON_THE_SPOT_MM
            && t - lost.t <= FOUND_ON_THE_SPOT_WITHIN_S
    })
}

/// Records in `stroke` a pocketing never seen, of `piece` into `pocket` at
/// `t` (s), with the alert that says why it was judged so.
fn record_unseen_pocketing(
    stroke: &mut SeenStroke,
    (piece, pocket, t): (Piece, Pocket, f64),
    why: String,
) {
    stroke.stroke.pocketed.push(PocketedPiece {
        piece,
        pocket: Some(pocket),
        t: Some(t),
        late: false,
    });
    stroke.vision.alerts.push(VisionNote { t, message: why });
}

/// A piece lost from sight farther than this (mm) from the pocket it sped
/// at, and never seen again, went in only by inference over a stretch of
/// board: the count at rest outweighs it. (Over the simulator's clips, the
/// pocketings so judged that the count disproved were lost 380-520 mm out
/// and wrong, a black jumping off the board or knocked unseen into another
/// pocket; those lost 120-150 mm out were right as often as not. Over 180
/// more, the carrommen lost 81-152 mm out had all gone in, those lost 177
/// and 198 mm out had not: the farther out, the more often the piece lost
/// is one the tracker dropped, not one that went in.)
const UNSEEN_FAR_FROM_POCKET_MM: f64 = 160.0;

/// A carromman lost from sight this near (mm) the board's centre in the
/// break, where the cluster parts, went into no pocket by inference from
/// its course: over the dev clips, the six lost there 48–125 mm from the
/// centre speeding at a pocket had all stayed on the board (clip 3713: a
/// black lost 48 mm out was taken into the SW pocket, the count at rest
/// missing a black it had not found again).
const AMID_THE_BREAK_MM: f64 = 4.0 * 2.0 * CARROMMAN_RADIUS_MM;

/// A piece is heading straight for a pocket when the pocket's centre lies
/// ahead within this distance (mm) of its line of motion: about the pocket's
/// radius, so a piece aimed at a cushion beside it does not count.
const POCKET_AHEAD_MM: f64 = 25.0;

/// A piece lost this many seconds of travel (at its last speed) or more from
/// a pocket is not taken to have reached it: friction stops it first.
const POCKET_AHEAD_S: f64 = 0.6;

/// The pocket straight ahead of a piece at `from` moving along `heading` at
/// `speed` mm/s, near enough to reach.
fn pocket_ahead(from: Point2<f64>, heading: Vector2<f64>, speed: f64) -> Option<Pocket> {
    let direction = heading.try_normalize(1e-9)?;
    Pocket::ALL
        .into_iter()
        .filter_map(|pocket| {
            let to = pocket_centre(pocket) - from;
            let along = to.dot(&direction);
            let aside = (to - direction * along).norm();
            (along > 0.0 && along <= speed * POCKET_AHEAD_S && aside <= POCKET_AHEAD_MM)
                .then_some((pocket, aside))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(pocket, _)| pocket)
}

/// One frame's discs in sight: track, centre (board mm), radius (mm).
#[derive(Debug, Clone)]
struct Positions {
    /// Seconds from the start of the clip.
    t: f64,
    discs: Vec<(TrackId, Point2<f64>, f64)>,
    /// Tentative tracks seen: the first sightings of tracks confirmed later.
    tentative: Vec<(TrackId, Point2<f64>)>,
    /// Carrommen and the Queen hidden under a hand: where they lay, and
    /// what their tracks read them as.
    hidden: Vec<(TrackId, Point2<f64>, Piece)>,
}

impl Positions {
    /// Where `id` was seen in this frame, and its radius (mm), if it was.
    fn disc(&self, id: TrackId) -> Option<(Point2<f64>, f64)> {
        self.discs
            .iter()
            .find(|(other, _, _)| *other == id)
            .map(|&(_, at, r)| (at, r))
    }

    /// Where `id` was seen in this frame, confirmed or still tentative.
    fn sighting(&self, id: TrackId) -> Option<Point2<f64>> {
        self.disc(id).map(|(at, _)| at).or_else(|| {
            self.tentative
                .iter()
                .find(|(other, _)| *other == id)
                .map(|&(_, at)| at)
        })
    }
}

/// A carromman lying still whose spot a track on the striker ran over as
/// it went from sight (see [`StrokeMachine::note_pieces_taken_from_rest`]).
#[derive(Debug, Clone, Copy)]
struct TakenFromRest {
    /// The track that took it.
    by: TrackId,
    /// The carromman's kind, as its own track read it.
    piece: Piece,
    /// Where it lay (board mm).
    spot: Point2<f64>,
    /// When it was taken (s).
    t: f64,
}

impl TakenFromRest {
    /// The alert for a piece seen going in as `seen_as` that was this
    /// carromman.
    fn alert(&self, seen_as: Piece) -> VisionNote {
        VisionNote {
            t: self.t,
            message: format!(
                "a track on the striker ran over a {} lying at ({:.0}, {:.0}) mm as it went from sight, and took it into a pocket: the {seen_as} seen going in was that {}",
                self.piece, self.spot.x, self.spot.y, self.piece
            ),
        }
    }
}

/// Sightings on one spot before it was taken that make a piece lying
/// still...
const STILL_BEFORE_TAKEN: usize = 3;

/// ...within this much of it (mm).
const STILL_JITTER_MM: f64 = 2.0;

/// A striker's track whose step grows this many times over, and by
/// [`SWAP_STEP_GAIN_MM`] or more, as it hits a piece at rest has swapped
/// pieces with that piece's track.
const SWAP_SPEED_UP: f64 = 1.6;

/// See [`SWAP_SPEED_UP`] (mm a frame).
const SWAP_STEP_GAIN_MM: f64 = 20.0;

/// The least step (mm a frame, 300 mm/s at 30 fps) of a striker's track
/// already running before a swap: a striker setting off from rest speeds
/// up by itself.
const SWAP_STEP_BEFORE_MM: f64 = 10.0;

/// Slack (mm) on touching distance for the striker's last sighting before a
/// swap: both are blurred.
const SWAP_CONTACT_MARGIN_MM: f64 = 5.0;

/// Frames before the one it took a piece in that a track on the striker
/// may have gone unseen.
const TAKER_UNSEEN_FRAMES: usize = 2;

/// Frames of positions kept for [`knocked_towards`]: more than a resting
/// piece may go unseen before it is declared gone.
const RECENT_FRAMES: usize = 12;

/// A disc that came into contact with a piece lying still: when (the frame
/// it moved on from), where along its path, and how fast (mm/s).
#[derive(Debug, Clone, Copy)]
struct Knock {
    t: f64,
    contact: Point2<f64>,
    velocity: Vector2<f64>,
}

/// Every disc moving through the `recent` frames whose path met the piece
/// `lost` lying at `at`, fast enough to knock it. `striker` is the stroke's
/// striker, whatever its track was taken for.
fn knocks_on(
    recent: &VecDeque<Positions>,
    lost: TrackId,
    at: Point2<f64>,
    striker: TrackId,
) -> Vec<Knock> {
    let radius = recent
        .iter()
        .rev()
        .find_map(|frame| frame.disc(lost))
        .map_or(CARROMMAN_RADIUS_MM, |(_, r)| r);
    // A piece seen lying at `at` a frame after a disc met it was not sent
    // off by it (clip 3017: a black came to rest against a white on the NE
    // pocket's lip, and the white, seen on its spot after that and lost
    // from sight later, was taken as knocked in).
    let lay_there_after = |t: f64| {
        recent.iter().filter(|f| f.t > t).skip(1).any(|f| {
            f.disc(lost)
                .is_some_and(|(seen, _)| (seen - at).norm() <= STILL_JITTER_MM)
        })
    };
    let mut knocks = Vec::new();
    for (before, after) in recent.iter().zip(recent.iter().skip(1)) {
        if lay_there_after(after.t) {
            continue;
        }
        // A track's first sighting, while still tentative, may be the only
        // one of the knocking disc near the piece (clip 6100: the striker,
        // hidden under the hand as it struck a white lying 25 mm ahead, was
        // first seen as a tentative disc just past it).
        let moving = before.discs.iter().copied().chain(
            before
                .tentative
                .iter()
                .map(|&(id, a)| (id, a, CARROMMAN_RADIUS_MM)),
        );
        for (id, a, r) in moving.filter(|&(id, _, _)| id != lost) {
            let r = if id == striker { STRIKER_RADIUS_MM } else { r };
            let Some(b) = after.sighting(id) else {
                continue;
            };
            let velocity = (b - a) / (after.t - before.t).max(1e-6);
            if velocity.norm() < KNOCK_MIN_SPEED_MM_S {
                continue;
            }
            if let Some(contact) = contact_on_the_way(a, b, at, r + radius) {
                knocks.push(Knock {
                    t: before.t,
                    contact,
                    velocity,
                });
            }
        }
    }
    knocks
}

/// The pocket the piece `lost`, lying at `at`, was knocked towards, and the
/// fastest (mm/s) a disc that met it went, if a
/// disc moving through the `recent` frames met it: a struck disc leaves
/// along the line from the other's centre through its own at contact, at
/// about the other's speed. A white on light wood can vanish the moment it
/// moves (its face is the board's colour) and only this tells where it went.
fn knocked_towards(
    recent: &VecDeque<Positions>,
    lost: TrackId,
    at: Point2<f64>,
    striker: TrackId,
) -> Option<(Pocket, f64)> {
    let knocks = knocks_on(recent, lost, at, striker);
    let first = knocks.iter().min_by(|a, b| a.t.total_cmp(&b.t))?;
    let knock = at - first.contact;
    let pocket =
        pocket_ahead(at, knock, first.velocity.norm()).or_else(|| pocket_beside(at, knock))?;
    let fastest = knocks.iter().map(|k| k.velocity.norm()).fold(0.0, f64::max);
    Some((pocket, fastest))
}

/// The pocket a piece `lost` from sight where it lay (at `lay`) was
/// glimpsed heading for: a disc seen once, in one of the few frames after
/// its last sighting, a step of a moving piece away from where it lay,
/// whose track was never confirmed (not one of the discs seen in the
/// `recent` frames, nor of `now`'s tracks), with a pocket straight ahead of
/// it on that course. A piece struck by a striker first seen only after the
/// hit leaves its place unseen but for such a glimpse.
fn glimpsed_leaving(
    recent: &VecDeque<Positions>,
    now: &TrackFrame,
    lost: TrackId,
    lay: Point2<f64>,
) -> Option<Pocket> {
    let last = recent.iter().rposition(|f| f.disc(lost).is_some())?;
    let confirmed = |id: TrackId| {
        now.tracks.iter().any(|t| t.id == id) || recent.iter().any(|f| f.disc(id).is_some())
    };
    recent
        .range(last + 1..(last + 1 + BRIDGED_FRAMES).min(recent.len()))
        .find_map(|f| {
            let dt = f.t - recent[last].t;
            f.tentative.iter().find_map(|&(id, at)| {
                let step = at - lay;
                let moved = step.norm() >= CARROMMAN_RADIUS_MM
                    && step.norm() <= GLIMPSE_MAX_SPEED_MM_S * dt
                    && !confirmed(id);
                moved
                    .then(|| pocket_ahead(at, step, step.norm() / dt.max(1e-6)))
                    .flatten()
                    .filter(|&pocket| (pocket_centre(pocket) - at).norm() <= GLIMPSE_NEAR_POCKET_MM)
            })
        })
}

/// The carromman lying beside a pocket that the piece `lost` (of its kind
/// `piece`, last seen at `last_seen`) knocked in unseen, if the tracks
/// swapped as it did: the track of a `piece` that lay still within
/// [`BESIDE_POCKET_MM`] of a pocket went from sight as a disc moving
/// through the `recent` frames met it, knocked towards that pocket, and was
/// next seen, after `lost` was last seen, a diameter or more from
/// where it lay and within one of where `lost` was last seen. A piece
/// knocked from a pocket's mouth drops in within a frame, unseen; the
/// tracker, finding one disc where it had two, gives the knocking piece to
/// the track of the one it knocked, and loses the other track mid-board
/// (clip 3750: a white 55 mm from the NW pocket's centre, knocked in by
/// another white, whose track was lost 84 mm out).
fn knocked_in_as_tracks_swapped(
    recent: &VecDeque<Positions>,
    now: &TrackFrame,
    (lost, piece, last_seen): (TrackId, Piece, Point2<f64>),
    striker: TrackId,
) -> Option<KnockedInUnseen> {
    let (lost_t, mut others) = others_of_its_kind(recent, now, lost, piece)?;
    others.find_map(|other| {
        let (lay, again_t, again) = found_again_away_from_rest(recent, other.id)?;
        let took_over = again_t > lost_t && (again - last_seen).norm() <= 2.0 * CARROMMAN_RADIUS_MM;
        let (pocket, distance) = nearest_pocket(lay);
        if !took_over || distance > BESIDE_POCKET_MM {
            return None;
        }
        let (towards, _) = knocked_towards(recent, other.id, lay, striker)?;
        (towards == pocket).then_some(KnockedInUnseen {
            piece,
            pocket,
            from: lay,
            lost_at: last_seen,
            running: false,
        })
    })
}

/// The carromman running at a pocket that went in unseen as its track took
/// up the piece of its kind that `lost` (last seen at `last_seen`)
/// followed: a track of a `piece` ran a steady course at the pocket (see
/// [`running_course`]) and was last seen on it within
/// [`GLIMPSE_NEAR_POCKET_MM`] of the pocket's centre, and its next
/// sighting, after `lost` was last seen, lay two diameters or more back
/// and within one of where `lost` was last seen. Losing the piece at the
/// pocket's mouth, the tracker gave its track the nearest disc of its kind
/// (clip 6500: a white struck at the NW pocket, its track last seen 91 mm
/// from the pocket's centre, took the disc of a white the striker had
/// nudged, 114 mm back, and that white's track was lost mid-board).
fn ran_in_as_tracks_swapped(
    recent: &VecDeque<Positions>,
    now: &TrackFrame,
    (lost, piece, last_seen): (TrackId, Piece, Point2<f64>),
) -> Option<KnockedInUnseen> {
    let (lost_t, mut others) = others_of_its_kind(recent, now, lost, piece)?;
    others.find_map(|other| {
        let seen: Vec<(f64, Point2<f64>)> = recent
            .iter()
            .filter_map(|f| f.disc(other.id).map(|(at, _)| (f.t, at)))
            .collect();
        let took_over = (1..seen.len()).rev().find(|&j| {
            let (t, at) = seen[j];
            t > lost_t
                && (at - last_seen).norm() <= 2.0 * CARROMMAN_RADIUS_MM
                && (at - seen[j - 1].1).norm() >= 4.0 * CARROMMAN_RADIUS_MM
        })?;
        let running = &seen[..took_over];
        let course = running_course(running)?;
        let (_, from) = *running.last()?;
        let pocket = pocket_ahead(from, course, course.norm())?;
        ((pocket_centre(pocket) - from).norm() <= GLIMPSE_NEAR_POCKET_MM).then_some(
            KnockedInUnseen {
                piece,
                pocket,
                from,
                lost_at: last_seen,
                running: true,
            },
        )
    })
}

/// When `lost` was last seen in the `recent` frames (s), and the other
/// tracks in `now` of its kind `piece`: those that may have taken up its
/// disc as their own piece went from sight.
fn others_of_its_kind<'a>(
    recent: &VecDeque<Positions>,
    now: &'a TrackFrame,
    lost: TrackId,
    piece: Piece,
) -> Option<(f64, impl Iterator<Item = &'a Track>)> {
    let (lost_t, _) = sightings_back(recent, lost, Sightings::Confirmed).next()?;
    let others = now
        .tracks
        .iter()
        .filter(move |other| other.id != lost && other.piece == piece);
    Some((lost_t, others))
}

/// The velocity (mm/s) of the steady course at [`STALL_MIN_SPEED_MM_S`] or
/// more that `seen` (sightings, s and board mm, in time order) ends on:
/// over its last two steps, or over the two before a last sighting on the
/// spot of the one before it (the tail of its blur, see
/// [`course_before_a_stall`]).
fn running_course(seen: &[(f64, Point2<f64>)]) -> Option<Vector2<f64>> {
    let n = seen.len();
    let stalled = n >= 2 && (seen[n - 1].1 - seen[n - 2].1).norm() <= SAME_SPOT_MM;
    let end = if stalled { n - 1 } else { n };
    let [a, b, c] = *seen.get(end.checked_sub(3)?..end)? else {
        return None;
    };
    let (before, last) = (velocity_between(a, b), velocity_between(b, c));
    (last.norm() >= STALL_MIN_SPEED_MM_S && steady_course(before, last)).then_some(last)
}

/// Where the track `id` last lay still in the `recent` frames before it
/// went unseen for a frame or more, and when (s) and where it was next
/// seen, if that was a diameter or more away: the track came back in
/// sight on another disc, or on its piece far from where it lay.
fn found_again_away_from_rest(
    recent: &VecDeque<Positions>,
    id: TrackId,
) -> Option<(Point2<f64>, f64, Point2<f64>)> {
    let seen: Vec<usize> = (0..recent.len())
        .filter(|&i| recent[i].disc(id).is_some())
        .collect();
    let gap = seen.windows(2).rposition(|pair| pair[1] > pair[0] + 1)?;
    let (before, after) = (seen[gap], seen[gap + 1]);
    let (lay, _) = recent[before].disc(id)?;
    let (again, _) = recent[after].disc(id)?;
    // The last sighting where it lay may be pulled off its spot by the
    // blob of the disc meeting it (see [`knocked_from_rest`]).
    let still = before >= LAY_STILL_FRAMES - 1
        && (before + 1 - LAY_STILL_FRAMES..before).all(|i| {
            recent[i]
                .disc(id)
                .is_some_and(|(at, _)| (at - lay).norm() <= STRUCK_JITTER_MM)
        });
    (still && (again - lay).norm() >= 2.0 * CARROMMAN_RADIUS_MM).then_some((
        lay,
        recent[after].t,
        again,
    ))
}

/// How near a pocket (mm, centre to centre) a glimpse must be for
/// [`glimpsed_leaving`]: one disc seen once aims too roughly to send a piece
/// further.
const GLIMPSE_NEAR_POCKET_MM: f64 = 150.0;

/// The fastest a piece knocked from rest is taken to leave (mm/s) by
/// [`glimpsed_leaving`]: faster steps are other discs.
const GLIMPSE_MAX_SPEED_MM_S: f64 = 2400.0;

/// The speed (mm/s) of a piece `knocked` from rest and seen once on its
/// way: at least that of the step it was seen to make, and at least the
/// knocking disc's speed along that step. The step alone reads slow, as
/// the knock came somewhere within the frame's time, not at its start.
fn knocked_speed(recent: &VecDeque<Positions>, knocked: &KnockedFromRest, striker: TrackId) -> f64 {
    let Some(course) = knocked.velocity.try_normalize(1e-9) else {
        return 0.0;
    };
    knocks_on(recent, knocked.id, knocked.lay, striker)
        .into_iter()
        .filter(|knock| knock.t < knocked.moved_t)
        .map(|knock| knock.velocity.dot(&course))
        .fold(knocked.velocity.norm(), f64::max)
}

/// The pocket straight ahead of a piece `lost` from sight at `last_seen`
/// after being knocked from rest, on the course of its one step, with the
/// speed of that knock (see [`knocked_speed`]); none where that speed is
/// under `min_speed` (mm/s).
fn knocked_from_rest_towards(
    recent: &VecDeque<Positions>,
    lost: TrackId,
    last_seen: Point2<f64>,
    striker: TrackId,
    min_speed: f64,
) -> Option<(Pocket, f64)> {
    let knocked = knocked_from_rest(recent, lost)?;
    let speed = knocked_speed(recent, &knocked, striker);
    if speed < min_speed {
        return None;
    }
    let pocket = pocket_ahead(last_seen, knocked.velocity, speed)?;
    Some((pocket, speed))
}

/// A piece lying this near (mm, centre to pocket centre) a pocket and
/// knocked towards it goes in, whatever the measured angle of the knock: a
/// contact read off a blurred, fragmented striker is too rough to aim by
/// over so short a way.
const BESIDE_POCKET_MM: f64 = 4.0 * POCKET_RADIUS_MM;

/// The pocket beside `at`, if the piece there was knocked towards it (less
/// than a right angle off `knock`).
fn pocket_beside(at: Point2<f64>, knock: Vector2<f64>) -> Option<Pocket> {
    let (pocket, distance) = nearest_pocket(at);
    let towards = pocket_centre(pocket) - at;
    (distance <= BESIDE_POCKET_MM && towards.dot(&knock) > 0.0).then_some(pocket)
}

/// Which of a track's sightings [`sightings_back`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sightings {
    /// Those since the track was confirmed.
    Confirmed,
    /// Those from before too, while it was tentative.
    AndTentative,
}

/// Where and when (s) `id` was seen in the `recent` frames, latest first.
fn sightings_back(
    recent: &VecDeque<Positions>,
    id: TrackId,
    which: Sightings,
) -> impl Iterator<Item = (f64, Point2<f64>)> + '_ {
    recent.iter().rev().filter_map(move |f| {
        let at = match which {
            Sightings::Confirmed => f.disc(id).map(|(at, _)| at),
            Sightings::AndTentative => f.sighting(id),
        };
        at.map(|at| (f.t, at))
    })
}

/// The velocity (mm/s) from one sighting, (s, position), to a later one.
fn velocity_between((t0, from): (f64, Point2<f64>), (t1, to): (f64, Point2<f64>)) -> Vector2<f64> {
    (to - from) / (t1 - t0).max(1e-6)
}

/// The velocities (mm/s) of the last two steps of `id`, over its last three
/// sightings in the `recent` frames, and the frame of the first sighting.
fn last_two_steps(
    recent: &VecDeque<Positions>,
    id: TrackId,
) -> Option<(Vector2<f64>, Vector2<f64>, &Positions)> {
    let mut frames_seen = recent.iter().rev().filter(|f| f.disc(id).is_some());
    let (c, b, a) = (
        frames_seen.next()?,
        frames_seen.next()?,
        frames_seen.next()?,
    );
    let (first, second) = two_steps([a, b, c], id)?;
    Some((first, second, a))
}

/// The velocities (mm/s) of `id`'s two steps over three frames, in time
/// order, that each show it.
fn two_steps(frames: [&Positions; 3], id: TrackId) -> Option<(Vector2<f64>, Vector2<f64>)> {
    let step = |from: &Positions, to: &Positions| -> Option<Vector2<f64>> {
        let ((p0, _), (p1, _)) = (from.disc(id)?, to.disc(id)?);
        Some(velocity_between((from.t, p0), (to.t, p1)))
    };
    let [a, b, c] = frames;
    Some((step(a, b)?, step(b, c)?))
}

/// The velocity (mm/s) of `id`'s steady course over the three sightings
/// before its last, where the last lies on the spot of the one before
/// ([`SAME_SPOT_MM`]): a piece running at [`STALL_MIN_SPEED_MM_S`] or more
/// does not stop dead and then vanish (one stopped dead by a head-on knock
/// stays in sight), so its last sighting was the tail of its blur left
/// behind, and it ran on along that course unseen. Clip 3562's last stroke:
/// a white running at 1230 mm/s for the NW pocket was seen last 1.3 mm from
/// its sighting before, 53 mm short of the pocket's centre, and its track's
/// velocity from that step pointed back the way it came.
fn course_before_a_stall(recent: &VecDeque<Positions>, id: TrackId) -> Option<Vector2<f64>> {
    let mut last_four: Vec<(f64, Point2<f64>)> = sightings_back(recent, id, Sightings::Confirmed)
        .take(4)
        .collect();
    last_four.reverse();
    let [_, _, (_, c), (_, d)] = last_four[..] else {
        return None;
    };
    ((d - c).norm() <= SAME_SPOT_MM)
        .then(|| running_course(&last_four))
        .flatten()
}

/// Speed (mm/s) of a course from which a piece's last sighting on its
/// last spot reads as the tail of its blur ([`course_before_a_stall`]).
const STALL_MIN_SPEED_MM_S: f64 = 600.0;

/// The velocity (mm/s) over the last step of `id`, if it kept a steady
/// course over its last three sightings in the `recent` frames (see
/// [`steady_course`]).
fn steady_course_of(recent: &VecDeque<Positions>, id: TrackId) -> Option<Vector2<f64>> {
    let (before, last, _) = last_two_steps(recent, id)?;
    steady_course(before, last).then_some(last)
}

/// The velocity (mm/s) over the last step of `id`, if its last three
/// sightings in the `recent` frames show it set off: the same course, and
/// faster on the last step than on the one before. A knocked piece creeps
/// the first step (the knock came late in that frame's time, or it was
/// pushed before it was struck) and then leaves at full speed along the
/// same line, which [`steady_course_of`] takes for a track jumping between
/// blobs. (Not for the striker: a fragment of its blur taken for a second
/// striker pulls its track to and fro along its path.) `striker` is the
/// stroke's striker track.
fn set_off_course_of(
    recent: &VecDeque<Positions>,
    id: TrackId,
    striker: TrackId,
) -> Option<Vector2<f64>> {
    let (before, last, first) = last_two_steps(recent, id)?;
    let sped_up = before.norm() > 0.0 && last.norm() > before.norm();
    (sped_up && along_the_course(last, before) && apart_in(first, id, striker)).then_some(last)
}

/// Whether `id` lay apart from every other disc in `frame` but the
/// `striker`: a track among touching pieces (the break cluster) is handed
/// from one to the next as they scatter, and its steps are no one piece's;
/// the striker touching it is what set it off (clip 2783).
fn apart_in(frame: &Positions, id: TrackId, striker: TrackId) -> bool {
    let Some((at, radius)) = frame.disc(id) else {
        return false;
    };
    frame
        .discs
        .iter()
        .filter(|(other, _, _)| *other != id && *other != striker)
        .all(|&(_, other, r)| (other - at).norm() > radius + r + APART_GAP_MM)
}

/// Two discs nearer than their radii and this (mm) touch, or as good as:
/// the blobs of a fast piece and its neighbour run together.
const APART_GAP_MM: f64 = 10.0;

/// Whether `heading` turns less from the course `seen` than a sliding disc
/// does between two frames: the tracker turns a piece lost at a cushion off
/// it, and a course after a bounce nobody saw (spin and the cushion's give
/// decide it) is no evidence of a pocket.
fn along_the_course(heading: Vector2<f64>, seen: Vector2<f64>) -> bool {
    heading.dot(&seen) >= STEADY_COURSE_COS * heading.norm() * seen.norm()
}

/// A piece seen lying still, then once a step away.
#[derive(Debug, Clone, Copy, PartialEq)]
struct KnockedFromRest {
    id: TrackId,
    /// Where it lay.
    lay: Point2<f64>,
    /// When it was seen off that place.
    moved_t: f64,
    /// Its step, mm/s.
    velocity: Vector2<f64>,
}

/// `id` if it lay still over the `recent` frames and was then seen once away
/// from where it lay, and lost: a piece knocked from rest leaves in a
/// straight line, so that one step is its course. (A white on light wood is
/// seen moving for a frame, if at all; there is no second step to check the
/// course by, as [`steady_course_of`] does.)
fn knocked_from_rest(recent: &VecDeque<Positions>, id: TrackId) -> Option<KnockedFromRest> {
    let mut sightings = sightings_back(recent, id, Sightings::Confirmed);
    let (moved_t, moved) = sightings.next()?;
    let lying: Vec<(f64, Point2<f64>)> = sightings.take(LAY_STILL_FRAMES).collect();
    let &(lay_t, lay) = lying.first()?;
    // The last sighting where it lay may be pulled a little off the spot by
    // the blob of the disc striking it, run together with its own (clip
    // 2783: 3.4 mm).
    let before = lying.get(1).map_or(lay, |&(_, at)| at);
    let still = lying.len() == LAY_STILL_FRAMES
        && (lay - before).norm() <= STRUCK_JITTER_MM
        && lying[1..]
            .iter()
            .all(|(_, at)| (at - before).norm() <= LAY_STILL_WITHIN_MM);
    let step = moved - lay;
    (still && step.norm() > STRUCK_JITTER_MM).then(|| KnockedFromRest {
        id,
        lay,
        moved_t,
        velocity: step / (moved_t - lay_t).max(1e-6),
    })
}

/// Sightings in one place that make a piece lying still for
/// [`knocked_from_rest`]...
const LAY_STILL_FRAMES: usize = 3;

/// ...within this distance (mm) of each other...
const LAY_STILL_WITHIN_MM: f64 = 2.0;

/// ...but the last within this distance (mm) of the one before, and the
/// step away longer.
const STRUCK_JITTER_MM: f64 = 4.0;

/// A disc slower than this (mm/s) knocks nothing anywhere.
const KNOCK_MIN_SPEED_MM_S: f64 = 300.0;

/// The first point on the segment from `a` to `b` within `reach` of
/// `centre`, if any (`a` itself if it already is).
fn first_within(
    a: Point2<f64>,
    b: Point2<f64>,
    centre: Point2<f64>,
    reach: f64,
) -> Option<Point2<f64>> {
    let (d, f) = (b - a, a - centre);
    if f.norm() <= reach {
        return Some(a);
    }
    // |f + s d| = reach, the smaller root in 0..=1.
    let (qa, qb, qc) = (d.dot(&d), 2.0 * f.dot(&d), f.dot(&f) - reach * reach);
    let discriminant = qb * qb - 4.0 * qa * qc;
    if qa <= 0.0 || discriminant < 0.0 {
        return None;
    }
    let s = (-qb - discriminant.sqrt()) / (2.0 * qa);
    (0.0..=1.0).contains(&s).then(|| a + d * s)
}

/// Where a disc moving from `a` to `b` came within `reach` of `centre`:
/// the first point of the path within reach ([`first_within`]), or, where
/// `a` already lies within it, where the line through `a` and `b`, traced
/// back, left it (no more than one step back). A disc seen overlapping a
/// piece it has just knocked is past the contact, and its course runs
/// back through it: the knock is read off where the two touched, not off
/// the overlap (clip 6100: the striker first seen 35 mm from a white it
/// had glanced off, inside the 36.5 mm of contact; read from there, the
/// knock pointed 60 degrees off the SE pocket the white went into).
fn contact_on_the_way(
    a: Point2<f64>,
    b: Point2<f64>,
    centre: Point2<f64>,
    reach: f64,
) -> Option<Point2<f64>> {
    let (d, f) = (b - a, a - centre);
    if f.norm() > reach {
        return first_within(a, b, centre, reach);
    }
    // |f + s d| = reach: with `a` inside, one root each side of 0.
    let (qa, qb, qc) = (d.dot(&d), 2.0 * f.dot(&d), f.dot(&f) - reach * reach);
    let discriminant = qb * qb - 4.0 * qa * qc;
    if qa <= 0.0 || discriminant < 0.0 {
        return Some(a);
    }
    let s = (-qb - discriminant.sqrt()) / (2.0 * qa);
    Some(if s >= -1.0 { a + d * s } else { a })
}

/// The velocity (mm/s) of a piece last seen at `last_seen` heading for
/// `heading_to` at `speed`.
fn velocity_towards(last_seen: Point2<f64>, heading_to: Point2<f64>, speed: f64) -> Vector2<f64> {
    let way = heading_to - last_seen;
    let length = way.norm();
    if length > 0.0 {
        way * (speed / length)
    } else {
        Vector2::zeros()
    }
}

fn where_it_went(
    options: &StrokeMachineOptions,
    last_seen: Point2<f64>,
    heading_to: Point2<f64>,
) -> Exit {
    for point in [heading_to, last_seen] {
        let (pocket, distance) = nearest_pocket(point);
        if distance <= options.pocket_reach_mm {
            return Exit::Pocket(pocket);
        }
    }
    let edge = HALF_SURFACE_MM - options.edge_reach_mm;
    let crossed = [0, 1].map(|axis| {
        if heading_to[axis].abs() >= edge {
            heading_to[axis].signum()
        } else {
            0.0
        }
    });
    if crossed == [0.0; 2] {
        return Exit::Nowhere;
    }
    // A fast piece covers more than a pocket's width in a frame: one whose
    // way over its next frame, out past the edge, passes over a pocket's
    // hole went in there before it could reach the frame, though neither
    // end of that way lies near the hole (clip 3433: a black at 3.2 m/s
    // lost 61 mm from the SW pocket's centre, bound 56 mm beyond it, its
    // way passing 26 mm from it).
    pocket_on_the_way(last_seen, heading_to, POCKET_PASSED_OVER_MM)
        .map_or(Exit::Edge(crossed), Exit::Pocket)
}

/// A piece whose centre passes this near (mm) a pocket's centre passes over
/// its hole: the hole's radius, and a little for the heading read off the
/// last two sightings of a blur.
const POCKET_PASSED_OVER_MM: f64 = POCKET_RADIUS_MM + 0.5 * CARROMMAN_RADIUS_MM;

/// Whether `id`'s last two steps in the `recent` frames, its tentative
/// sightings included, both ran at a side of the frame it `crossed`
/// ([`Exit::Edge`]) at [`JUMP_SPEED`] or faster (or, where it was last
/// seen on the cushion still going out, the two steps before). A disc
/// leaves the board only off a hard hit on the frame; a track with fewer
/// sightings (a fragment of a withdrawing hand, a new track on a blur), or
/// one whose last step left a resting place (a track leaping to a blob by
/// the edge), or one creeping at the cushion, shows no such run, and its
/// piece rebounds or was never there.
fn ran_at_the_frame(recent: &VecDeque<Positions>, id: TrackId, crossed: [f64; 2]) -> bool {
    // Its first sightings count: a piece flung from a cluster is often
    // picked up only a frame or two short of the frame.
    let mut seen = sightings_back(recent, id, Sightings::AndTentative);
    let (Some(c), Some(b), Some(a)) = (seen.next(), seen.next(), seen.next()) else {
        return false;
    };
    let earliest = seen.next();
    let (before, last) = (velocity_between(a, b), velocity_between(b, c));
    (0..2).any(|axis| {
        let outward = crossed[axis];
        if outward == 0.0 {
            return false;
        }
        if before[axis] * outward >= JUMP_SPEED && last[axis] * outward >= JUMP_SPEED {
            return true;
        }
        // Seen last on the cushion itself, the piece had hit the frame (a
        // jump takes much of its speed) and only the part of it still over
        // the surface was seen: its run is the two steps before, and it
        // was still going out.
        let on_the_cushion = seen_on_the_cushion(c.1[axis] * outward);
        earliest.is_some_and(|earliest| {
            let first = velocity_between(earliest, a);
            on_the_cushion
                && last[axis] * outward > 0.0
                && first[axis] * outward >= JUMP_SPEED
                && before[axis] * outward >= JUMP_SPEED
        })
    })
}

/// Per axis, the side of the frame (-1 or 1) a piece lost short of the
/// edge had reached, or 0: seen where its rim met the cushion (within
/// [`AT_THE_CUSHION_MM`]; no piece lying on the board is there), or
/// heading past the surface's edge within a frame.
fn reached_the_frame(last_seen: Point2<f64>, heading_to: Point2<f64>) -> [f64; 2] {
    [0, 1].map(|axis| {
        if seen_on_the_cushion(last_seen[axis].abs()) {
            last_seen[axis].signum()
        } else if heading_to[axis].abs() >= HALF_SURFACE_MM {
            heading_to[axis].signum()
        } else {
            0.0
        }
    })
}

/// Where a carromman's rim meets the cushion: its centre's distance (mm)
/// from the board's centre line.
const CONTACT_LINE_MM: f64 = HALF_SURFACE_MM - CARROMMAN_RADIUS_MM;

/// Whether a carromman seen `outward` mm (its centre) from the board's
/// centre line towards a side lay on that side's cushion (within
/// [`AT_THE_CUSHION_MM`] of [`CONTACT_LINE_MM`]).
fn seen_on_the_cushion(outward: f64) -> bool {
    outward >= CONTACT_LINE_MM - AT_THE_CUSHION_MM
}

/// A piece whose centre is seen this near (mm) the line where its rim
/// meets the cushion was on it: the centre is read on the top view's 2 mm
/// pixels, off the part of the disc still over the board. Its heading
/// then says little: a track whose prediction ran through the cushion as
/// it was seen there turned back with it, while the piece may have jumped
/// (dev clip 2895: last seen 2 mm short of the line, its track turned
/// back, the piece gone over the frame).
const AT_THE_CUSHION_MM: f64 = 3.0;

/// Speed (mm/s) towards the frame below which a disc rebounds off the
/// cushion. Only a hard hit lifts a disc over the frame; the simulator's
/// discs never jump below 2 m/s, and this leaves room for friction over
/// the last frame and a livelier real board.
const JUMP_SPEED: f64 = 1_500.0;

/// The striker among the tracks taken for one: a marking or a pair of
/// touching pieces can pass for it by size, but only the real one is struck
/// or set down on a seat's base lines. Fastest first, then one lying on a
/// seat's base lines, then any.
fn the_striker(tracks: &[Track], strike_speed: f64) -> Option<&Track> {
    let strikers = || tracks.iter().filter(|t| t.piece == Piece::Striker);
    strikers()
        .filter(|t| t.speed() >= strike_speed)
        .max_by(|a, b| a.speed().total_cmp(&b.speed()))
        .or_else(|| strikers().find(|t| seat_at(t.position).is_some()))
        .or_else(|| strikers().next())
}

/// A piece at rest that starts at this speed (mm/s) or faster was hit by a
/// struck striker: a hand sliding a piece moves it far slower.
const UNSEEN_STRIKE_SPEED: f64 = 400.0;

/// Frames a neighbour must have lain still in sight before a disc first
/// seen speeding off its spot counts as that neighbour knocked from it
/// (see [`StrokeMachine::set_off_from_a_neighbours_spot`]).
const NEIGHBOUR_STILL_FRAMES: usize = 3;

/// Frames a disc knocked off a neighbour's spot must be seen running.
const KNOCKED_RUN_FRAMES: u32 = 3;

/// How far apart (mm, beyond their radii) the striker's track and a
/// piece's may lie and still be taken as touching. A running striker's
/// centre is read off its blur, a few millimetres either way, and a piece
/// it touches at that speed is sent off (seen as a hit): only an overlap
/// says it touched one that did not move (clip 3100: a striker at 1.8 m/s
/// passed 3.7 mm from a black and was read 1.9 mm into it).
fn contact_slack_mm(striker_speed: f64) -> f64 {
    if striker_speed >= BLURRED_STRIKER_MM_S {
        -2.0
    } else {
        1.0
    }
}

/// A striker running at least this fast (mm/s) is read off its blur (see
/// [`contact_slack_mm`]).
const BLURRED_STRIKER_MM_S: f64 = 1_000.0;

/// How far (mm) a carromman knocked out from under a hand may have run
/// unseen before it came into sight: the hand and arm over it hide a
/// stretch that long (see [`StrokeMachine::knocked_from_under_a_hand`]).
const UNDER_THE_HAND_REACH_MM: f64 = 250.0;

/// A carromman launched with no striker seen slower than this (mm/s) is
/// seen again in the next frame if it was truly hit: a faster one may blur
/// out of sight.
const FLICKER_MAX_SPEED_MM_S: f64 = 1000.0;

/// Frames a piece must have lain still and in sight before its launch counts
/// as a stroke: a flicker of a new track does not.
const SETTLED_FRAMES: u32 = 15;

/// Frames of motion over which a launch is still recognised as one: a
/// track's speed builds up over its first frames of motion.
const LAUNCH_FRAMES: u32 = 3;

/// Seconds an arm over the board is remembered as the striking player's.
const HAND_SEAT_MEMORY_S: f64 = 1.0;

/// Whether a disc's velocity `now` keeps the course and speed it had a
/// frame `before` as a sliding disc's does (friction takes little in a
/// frame), within what the blur and jitter of the measure allow; a track
/// pulled to and fro between blobs turns and speeds up or stops.
fn steady_course(before: Vector2<f64>, now: Vector2<f64>) -> bool {
    let (b, n) = (before.norm(), now.norm());
    b > 0.0
        && n > 0.0
        && before.dot(&now) >= STEADY_COURSE_COS * b * n
        && (n / b - 1.0).abs() <= STEADY_SPEED_CHANGE
}

/// Cosine of the largest turn between two frames' velocities of a disc
/// sliding on its own (40°).
const STEADY_COURSE_COS: f64 = 0.766;

/// Largest relative change of speed between two frames of a disc sliding
/// on its own.
const STEADY_SPEED_CHANGE: f64 = 0.5;

/// A disc moving within about 30° of straight back towards a seat's player
/// (cosine) is drawn back, as an arm is, not struck from those lines.
const DRAWN_BACK_COS: f64 = 0.85;

/// Step (mm) of the walk back along a striker's path to its seat.
const LAUNCH_SEARCH_STEP_MM: f64 = 5.0;

/// How far back (mm) along its path a striker first seen in motion is looked
/// for on a seat's base lines.
const LAUNCH_SEARCH_MM: f64 = 250.0;

/// How far back (mm) from where it is now a disc taken for the struck
/// striker is looked for on a seat's base lines when its path from where
/// it came into sight leads back to none...
const LAUNCH_SEARCH_FAR_MM: f64 = 500.0;

/// ...if it is at least this fast (mm/s): one come that far unseen was
/// struck hard, while a slower disc seen far from any lines (a piece slid
/// by hand, a ghost pulled along) was never played from them.
const FAR_LAUNCH_MIN_SPEED_MM_S: f64 = 1200.0;

/// A seat whose arm was over the board within this many seconds has a
/// player about: a disc shot off its lines may be that player's striker.
const PLAYER_ABOUT_S: f64 = 3.0;

/// Where a striker seen only in motion was played from.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Launch {
    seat: Seat,
    /// Where the search back along its path began (board mm).
    from: Point2<f64>,
    /// How far (mm) it had come from its base lines to `from`.
    travelled: f64,
}

/// The seat a striker seen only in motion (its placement hidden under the
/// hand) was played from: the first seat's base lines met walking back along
/// its path from where it came into sight, which is where it was last found
/// after going unseen (a striker picked up, placed and struck under the
/// hand comes out from under it) or where its track began (a striker first
/// seen in flight, perhaps lost for a frame since). Where both lead to base
/// lines, the seat it went forward from wins: a striker found again by a
/// neighbour's lines and speeding along them was struck from the lines it
/// is leaving, not along another's. `None` when its path leads back to no
/// seat: a disc of the striker's size in motion that was never played from
/// a seat (two touching carrommen, a blurred streak). Where only one of the
/// two lies on the path it is on, that one is where it came into sight
/// (clip 3750: the last stroke's striker, first seen on the south lines,
/// was picked up and set down on the north lines under the hand; walked
/// back from where it began, its path across the north lines dated the
/// strike 1.6 s early).
fn launch_seat(striker: &Track) -> Option<Launch> {
    let forward = |launch: &Launch| striker.velocity.dot(&inward(launch.seat));
    let sightings = [striker.sighted_at(), striker.first_seen_at()];
    let on_its_path = sightings.map(|from| came_straight_from(striker, from));
    sightings
        .into_iter()
        .zip(on_its_path)
        .filter(|&(_, on_path)| on_path || !on_its_path.contains(&true))
        .filter_map(|(from, _)| launch_from(striker, from, LAUNCH_SEARCH_MM))
        .reduce(|best, other| {
            if forward(&other) > forward(&best) {
                other
            } else {
                best
            }
        })
}

/// Whether `striker` can have run straight to where it is from `from`: that
/// lies behind it on its heading, within two of its diameters of its line
/// (a striker glimpsed as it is set down may be slid along the lines
/// under the hand before the strike).
fn came_straight_from(striker: &Track, from: Point2<f64>) -> bool {
    let Some(heading) = striker.velocity.try_normalize(1e-9) else {
        return true;
    };
    let come = striker.position - from;
    let across = (come.x * heading.y - come.y * heading.x).abs();
    come.dot(&heading) >= -STRIKER_RADIUS_MM && across <= 4.0 * STRIKER_RADIUS_MM
}

/// The first seat's base lines met walking back up to `reach` mm from
/// `from` against `striker`'s heading.
fn launch_from(striker: &Track, from: Point2<f64>, reach: f64) -> Option<Launch> {
    walk_back_to_a_seat(striker, from, reach, false)
}

/// [`launch_seat`] for a striker that came off a cushion before it was
/// seen: walking back along its path, folded off the cushion it meets, the
/// base lines of the seat whose arm `struck` it. A striker played back at
/// its own cushion (at a piece lying behind the base lines) first shows on
/// its way back from it, its path leading back to no seat's lines (clip
/// 3902: south's striker struck back at a black by the south cushion, first
/// seen 78 mm from the south edge heading north, its path folded there
/// passing 10 mm from where it lay placed). Only the striking arm's seat
/// counts: a folded path may cross any seat's lines.
fn launch_off_a_cushion(striker: &Track, struck: Seat) -> Option<Launch> {
    [striker.sighted_at(), striker.first_seen_at()]
        .into_iter()
        .filter_map(|from| walk_back_to_a_seat(striker, from, LAUNCH_SEARCH_MM, true))
        .find(|launch| launch.seat == struck)
}

/// The first seat's base lines met walking back up to `reach` mm from
/// `from` against `striker`'s heading, folding the walk off the cushion it
/// meets where `fold` is set (once; without, it runs on off the board and
/// meets no lines there).
fn walk_back_to_a_seat(
    striker: &Track,
    from: Point2<f64>,
    reach: f64,
    fold: bool,
) -> Option<Launch> {
    let mut back = -striker.velocity.try_normalize(1e-9).unwrap_or_default();
    let limit = HALF_SURFACE_MM - STRIKER_RADIUS_MM;
    let steps = (reach / LAUNCH_SEARCH_STEP_MM) as usize;
    let mut at = from;
    let mut folded = !fold;
    for k in 0..=steps {
        if let Some(seat) = seat_at(at) {
            return Some(Launch {
                seat,
                from,
                travelled: k as f64 * LAUNCH_SEARCH_STEP_MM,
            });
        }
        at += back * LAUNCH_SEARCH_STEP_MM;
        for axis in 0..2 {
            if at[axis].abs() > limit && !folded {
                at[axis] = at[axis].signum() * (2.0 * limit - at[axis].abs());
                back[axis] = -back[axis];
                folded = true;
            }
        }
    }
    None
}

/// The direction from a seat's player into the board.
fn inward(seat: Seat) -> Vector2<f64> {
    rotate_vector_to_seat(Vector2::new(0.0, 1.0), seat)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::{Detection, Detections, Occluder, OcclusionCause};
    use crate::geometry::spec::{
        BASE_BAND_FAR_EDGE_FROM_CENTRE_MM, BASE_BAND_NEAR_EDGE_FROM_CENTRE_MM,
    };
    use crate::geometry::Pocket;
    use crate::geometry::{pocket_centre, rotate_to_seat};
    use crate::track::{Tracker, TrackerOptions};

    const FRAME_S: f64 = 1.0 / 30.0;

    /// What went into which pocket in a stroke, in order.
    fn pockets_of(stroke: &SeenStroke) -> Vec<(Piece, Option<Pocket>)> {
        stroke
            .stroke
            .pocketed
            .iter()
            .map(|p| (p.piece, p.pocket))
            .collect()
    }

    /// Whether one of the stroke's alerts says `text`.
    fn alerted(stroke: &SeenStroke, text: &str) -> bool {
        stroke
            .vision
            .alerts
            .iter()
            .any(|a| a.message.contains(text))
    }

    fn disc(piece: Piece, at: Point2<f64>) -> Detection {
        Detection {
            centre: at,
            radius_mm: 15.0,
            piece,
            by_colour: if piece == Piece::Striker {
                Piece::White
            } else {
                piece
            },
            confidence: 0.9,
            colour_distances: None,
        }
    }

    /// Runs detections through a tracker and the machine.
    fn run(frames: impl Iterator<Item = Vec<Detection>>) -> Vec<SeenStroke> {
        run_with_hands(frames.map(|discs| (discs, Vec::new())))
    }

    /// Runs detections, with what hid part of the board in each frame,
    /// through a tracker and the machine.
    fn run_with_hands(
        frames: impl Iterator<Item = (Vec<Detection>, Vec<Occluder>)>,
    ) -> Vec<SeenStroke> {
        run_told_the_turn(frames, None)
    }

    /// As [`run_with_hands`], telling the machine at each strike that it is
    /// `in_turn`'s turn, as the pipeline's referee does.
    fn run_told_the_turn(
        frames: impl Iterator<Item = (Vec<Detection>, Vec<Occluder>)>,
        in_turn: Option<Seat>,
    ) -> Vec<SeenStroke> {
        run_calling_at_strikes(frames, |machine| {
            if let Some(seat) = in_turn {
                machine.struck_in_turn_from(seat);
            }
        })
    }

    /// As [`run_with_hands`], calling `at_strike` on the machine at each
    /// strike, as the pipeline's referee does.
    fn run_calling_at_strikes(
        frames: impl Iterator<Item = (Vec<Detection>, Vec<Occluder>)>,
        mut at_strike: impl FnMut(&mut StrokeMachine),
    ) -> Vec<SeenStroke> {
        let mut tracker = Tracker::new(TrackerOptions::default());
        let mut machine = StrokeMachine::new(StrokeMachineOptions::default());
        for (i, (discs, occluders)) in frames.enumerate() {
            let detections = Detections {
                index: i as u64,
                t: i as f64 * FRAME_S,
                discs,
                occluders,
                break_arrangement: false,
                still_there: Vec::new(),
                looks_changed: Vec::new(),
            };
            // As the pipeline does: the first frame seeds the tracker.
            let tracks = if i == 0 {
                tracker.seed(&detections)
            } else {
                tracker.update(&detections)
            };
            if machine.push(&tracks).is_some() {
                at_strike(&mut machine);
            }
        }
        machine.finish()
    }

    fn placed_north() -> Point2<f64> {
        Point2::new(
            40.0,
            (BASE_BAND_NEAR_EDGE_FROM_CENTRE_MM + BASE_BAND_FAR_EDGE_FROM_CENTRE_MM) / 2.0,
        )
    }

    /// Frame `i` of the striker placed at north for ten frames, then shot
    /// straight into the SW pocket in ten.
    fn striker_shot_north_to_sw(i: u32) -> Option<Detection> {
        let target = pocket_centre(Pocket::Sw);
        match i {
            0..10 => Some(disc(Piece::Striker, placed_north())),
            10..20 => {
                let f = f64::from(i - 10) / 10.0;
                Some(disc(
                    Piece::Striker,
                    placed_north() + (target - placed_north()) * f,
                ))
            }
            _ => None,
        }
    }

    /// A white-looking disc first seen at `from` and moving `step` mm a
    /// frame for ten frames, then lying still, after south's arm was over
    /// the board until frame 18; a black at rest far off.
    fn white_disc_moving(from: Point2<f64>, step: Vector2<f64>) -> Vec<SeenStroke> {
        white_disc_moving_with_arms(from, step, &[Seat::South])
    }

    /// The arm of the player at `seat` reaching in over the board's edge.
    /// The arm of `seat` over the board in frame `i` if it is one of
    /// `frames`, else no hand.
    fn arm_over_the_board(seat: Seat, frames: std::ops::Range<u32>, i: u32) -> Vec<Occluder> {
        if frames.contains(&i) {
            vec![arm_of(seat)]
        } else {
            Vec::new()
        }
    }

    fn arm_of(seat: Seat) -> Occluder {
        let a = rotate_to_seat(Point2::new(100.0, -420.0), seat);
        let b = rotate_to_seat(Point2::new(160.0, -300.0), seat);
        Occluder {
            min: Point2::new(a.x.min(b.x), a.y.min(b.y)),
            max: Point2::new(a.x.max(b.x), a.y.max(b.y)),
            cause: OcclusionCause::Hand,
            enters_from: Some(seat),
        }
    }

    /// As [`white_disc_moving`], with the arms of `seats` over the board
    /// (each reaching in over its own edge) until frame 18.
    fn white_disc_moving_with_arms(
        from: Point2<f64>,
        step: Vector2<f64>,
        seats: &[Seat],
    ) -> Vec<SeenStroke> {
        let arms: Vec<Occluder> = seats.iter().map(|&seat| arm_of(seat)).collect();
        run_with_hands((0..60u32).map(move |i| {
            let mut discs = vec![disc(Piece::Black, Point2::new(250.0, 250.0))];
            if i >= 20 {
                let moved = f64::from((i - 20).min(10));
                discs.push(disc(Piece::White, from + step * moved));
            }
            let hands = if (5..18).contains(&i) {
                arms.clone()
            } else {
                vec![]
            };
            (discs, hands)
        }))
    }

    #[test]
    fn a_stroke_read_from_a_seat_nobody_sits_at_is_the_player_in_turn_s() {
        // Clip 2956: a disc first seen speeding west off east's base lines
        // is taken for the striker, in a match between south and north.
        let east_lines = Point2::new(
            (BASE_BAND_NEAR_EDGE_FROM_CENTRE_MM + BASE_BAND_FAR_EDGE_FROM_CENTRE_MM) / 2.0,
            60.0,
        );
        let run_seated = |seated: &[Seat]| {
            let frames = (0..60u32).map(move |i| {
                let mut discs = vec![disc(Piece::Black, Point2::new(-250.0, 250.0))];
                if i >= 20 {
                    let moved = f64::from((i - 20).min(10));
                    let step = Vector2::new(-30.0, 5.0);
                    discs.push(disc(
                        Piece::White,
                        east_lines + Vector2::new(-30.0, 0.0) + step * moved,
                    ));
                }
                // East's arm over the board until frame 18, as it strikes.
                (discs, arm_over_the_board(Seat::East, 5..18, i))
            });
            run_calling_at_strikes(frames, |machine| {
                machine.struck_in_turn_among(Seat::South, seated);
            })
        };
        let strokes = run_seated(&[Seat::South, Seat::North]);
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        assert_eq!(strokes[0].stroke.seat, Seat::South);
        assert!(alerted(&strokes[0], "where nobody sits"));
        // Seated all round (doubles), east's stroke is east's.
        let strokes = run_seated(&[Seat::South, Seat::West, Seat::North, Seat::East]);
        assert_eq!(strokes[0].stroke.seat, Seat::East);
    }

    /// Clip 5038 (doubles, no match given): south's strokes were read as
    /// struck from south, each from a carromman taken for the striker,
    /// and given to east as the singles match assumed (west and east)
    /// seats nobody at south. A second read from the same seat is sure
    /// enough, as is a striker seen placed; the seats taken back are
    /// given back.
    #[test]
    fn a_seat_read_again_or_seen_placed_where_nobody_sits_is_surely_played() {
        let singles = [Seat::West, Seat::East];
        let read_as = |seat: Seat, placement: Option<Placement>| {
            let mut stroke = stroke_seen_with(9, 9);
            stroke.stroke.seat = seat;
            stroke.vision.placement = placement;
            stroke
        };
        let mut machine = StrokeMachine::new(StrokeMachineOptions::default());
        machine.current = Some(read_as(Seat::South, None));
        assert_eq!(machine.seat_surely_played(), None);
        machine.struck_in_turn_among(Seat::East, &singles);
        machine.finished.extend(machine.current.take());
        assert_eq!(machine.finished[0].stroke.seat, Seat::East);
        // The next stroke is read from north: one read there is not sure.
        machine.current = Some(read_as(Seat::North, None));
        assert_eq!(machine.seat_surely_played(), None);
        machine.current = Some(read_as(Seat::South, None));
        assert_eq!(machine.seat_surely_played(), Some(Seat::South));
        machine.restore_seats_read();
        assert_eq!(machine.finished[0].stroke.seat, Seat::South);
        assert!(alerted(&machine.finished[0], "taken as the seat after all"));
        assert!(machine.seats_overridden.is_empty());
        // Seen placed, once is enough.
        let mut machine = StrokeMachine::new(StrokeMachineOptions::default());
        machine.current = Some(read_as(Seat::North, Some(Placement::Legal)));
        assert_eq!(machine.seat_surely_played(), Some(Seat::North));
        // The stroke under way, taken for the seat in turn, is given back too.
        machine.struck_in_turn_among(Seat::East, &singles);
        machine.restore_seats_read();
        assert_eq!(
            machine.current.as_ref().map(|c| c.stroke.seat),
            Some(Seat::North)
        );
    }

    #[test]
    fn a_striker_read_as_a_white_and_first_seen_speeding_off_its_base_lines_is_a_stroke() {
        // From south's base lines north at 30 mm a frame (900 mm/s).
        let south_lines = Point2::new(
            60.0,
            -(BASE_BAND_NEAR_EDGE_FROM_CENTRE_MM + BASE_BAND_FAR_EDGE_FROM_CENTRE_MM) / 2.0,
        );
        let strokes = white_disc_moving(
            south_lines + Vector2::new(0.0, 30.0),
            Vector2::new(5.0, 30.0),
        );
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        assert_eq!(strokes[0].stroke.seat, Seat::South);
        assert!(strokes[0].vision.placement.is_none());
        // The same disc heading out over south's edge (a hand drawn back)
        // is no stroke.
        let strokes = white_disc_moving(
            south_lines + Vector2::new(0.0, 60.0),
            Vector2::new(0.0, -30.0),
        );
        assert!(strokes.is_empty(), "{strokes:?}");
    }

    /// Clip 3671: a striker read as a white, first seen speeding off
    /// south's base lines, runs into the NE pocket. No striker rests
    /// anywhere, and the laws have no white on the board (the white seen
    /// before the stroke was the striker): the striker went in. Where the
    /// laws have a white, the count at rest misses it, and a white went in.
    /// Where the black lying on the board is gone from the count at rest
    /// and the laws miss no white, the disc was that black, read as a white
    /// on the fast track (clip 6319).
    #[test]
    fn a_striker_read_as_a_white_that_goes_into_a_pocket_went_in_as_the_striker() {
        let south_lines = between_south_lines(60.0);
        let pocket = pocket_centre(Pocket::Ne);
        let step = (pocket - south_lines).normalize() * 30.0;
        let frames = move |black_until: u32| {
            (0..80u32).map(move |i| {
                let mut discs = Vec::new();
                if i < black_until {
                    discs.push(disc(Piece::Black, Point2::new(-250.0, 250.0)));
                }
                if i >= 20 {
                    let at = south_lines + step * f64::from(i - 19);
                    if (at - south_lines).norm() <= (pocket - south_lines).norm() {
                        discs.push(disc(Piece::White, at));
                    }
                }
                // South's arm over the board until frame 18, as it strikes.
                (discs, arm_over_the_board(Seat::South, 5..18, i))
            })
        };
        let went_in = |laws_whites: u32, black_until: u32| {
            pockets_of_a_disc_taken_for_the_striker(frames(black_until), laws_whites)
        };
        assert_eq!(went_in(0, 80), [(Piece::Striker, Some(Pocket::Ne))]);
        assert_eq!(went_in(1, 80), [(Piece::White, Some(Pocket::Ne))]);
        assert_eq!(went_in(0, 30), [(Piece::Black, Some(Pocket::Ne))]);
        assert_eq!(went_in(1, 30), [(Piece::White, Some(Pocket::Ne))]);
    }

    /// Clip 6319 as it is now read: the black's own track, lost as the
    /// striker's took it over, was taken as speeding at the pocket from far
    /// off (weak evidence). The disc read as a white on the fast track is
    /// still the black that went in, and the weak pocketing is not counted
    /// twice.
    #[test]
    fn a_carromman_lost_far_from_a_pocket_does_not_stop_a_disc_taken_for_the_striker_being_it() {
        let south_lines = between_south_lines(60.0);
        let pocket = pocket_centre(Pocket::Ne);
        let step = (pocket - south_lines).normalize() * 30.0;
        let lay = Point2::new(120.0, 120.0);
        let run = (pocket - lay).normalize() * 40.0;
        assert!((pocket - lay).norm() - 2.0 * 40.0 > UNSEEN_FAR_FROM_POCKET_MM);
        let frames = (0..80u32).map(move |i| {
            let mut discs = Vec::new();
            match i {
                0..30 => discs.push(disc(Piece::Black, lay)),
                30..32 => discs.push(disc(Piece::Black, lay + run * f64::from(i - 29))),
                _ => {}
            }
            if i >= 20 {
                let at = south_lines + step * f64::from(i - 19);
                if (at - south_lines).norm() <= (pocket - south_lines).norm() {
                    discs.push(disc(Piece::White, at));
                }
            }
            (discs, arm_over_the_board(Seat::South, 5..18, i))
        });
        assert_eq!(
            pockets_of_a_disc_taken_for_the_striker(frames, 0),
            [(Piece::Black, Some(Pocket::Ne))]
        );
    }

    /// The point `x` mm east of the centre midway between south's base lines.
    fn between_south_lines(x: f64) -> Point2<f64> {
        Point2::new(
            x,
            -(BASE_BAND_NEAR_EDGE_FROM_CENTRE_MM + BASE_BAND_FAR_EDGE_FROM_CENTRE_MM) / 2.0,
        )
    }

    /// What went in at the one stroke of `frames`, whose striker is a disc
    /// read as a carromman, with the laws' count at the strike of
    /// `laws_whites` whites and a black.
    fn pockets_of_a_disc_taken_for_the_striker(
        frames: impl Iterator<Item = (Vec<Detection>, Vec<Occluder>)>,
        laws_whites: u32,
    ) -> Vec<(Piece, Option<Pocket>)> {
        let laws = SeenCount {
            white: laws_whites,
            black: 1,
            queen: false,
        };
        let strokes = run_calling_at_strikes(frames, |machine| {
            machine.laws_count_at_strike(laws);
        });
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        assert!(alerted(&strokes[0], "taken for the struck striker"));
        pockets_of(&strokes[0])
    }

    /// Clip 6251: a white taken for the struck striker came into sight
    /// 130 mm up south's lines, past a white lying on its way there (the
    /// striker met that white and stopped short, counted as a white). Its
    /// going in is a white's, though the count at rest misses no white. A
    /// white lying off its way says nothing, and the striker went in.
    #[test]
    fn a_white_taken_for_the_striker_come_past_a_piece_lying_on_its_way_went_in_as_a_white() {
        let south_lines = between_south_lines(60.0);
        let pocket = pocket_centre(Pocket::Ne);
        let way = (pocket - south_lines).normalize();
        let across = Vector2::new(-way.y, way.x);
        let went_in = |aside_mm: f64| {
            let lying = south_lines + way * 80.0 + across * aside_mm;
            let frames = (0..80u32).map(move |i| {
                let mut discs = vec![
                    disc(Piece::Black, Point2::new(-250.0, 250.0)),
                    disc(Piece::White, lying),
                ];
                if i >= 20 {
                    let at = south_lines + way * (130.0 + 30.0 * f64::from(i - 20));
                    if (at - south_lines).norm() <= (pocket - south_lines).norm() {
                        discs.push(disc(Piece::White, at));
                    }
                }
                (discs, arm_over_the_board(Seat::South, 5..18, i))
            });
            pockets_of_a_disc_taken_for_the_striker(frames, 1)
        };
        assert_eq!(went_in(25.0), [(Piece::White, Some(Pocket::Ne))]);
        assert_eq!(went_in(90.0), [(Piece::Striker, Some(Pocket::Ne))]);
    }

    #[test]
    fn a_fast_striker_read_as_a_white_first_seen_far_from_its_lines_was_struck_from_them() {
        // Seen first near the middle, some 300 mm on from south's lines, at
        // 1.4 m/s.
        let strokes = white_disc_moving(Point2::new(-140.0, 57.0), Vector2::new(-6.0, 45.0));
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        assert_eq!(strokes[0].stroke.seat, Seat::South);
        // Coming the other way, from north's lines with only south's arm
        // about, it is no striker of north's (at most a piece south's
        // unseen striker shot off).
        let strokes = white_disc_moving(Point2::new(-140.0, 57.0), Vector2::new(6.0, -45.0));
        assert!(
            strokes.iter().all(
                |s| s.stroke.seat != Seat::North && !alerted(s, "taken for the struck striker")
            ),
            "{strokes:?}"
        );
        // Nor is a slower disc come from south's lines: a piece slid by hand.
        let strokes = white_disc_moving(Point2::new(-140.0, 57.0), Vector2::new(-4.0, 25.0));
        assert!(strokes.is_empty(), "{strokes:?}");
        // A track born on the fingers beyond south's lines that leapt onto
        // the striker speeding away from them is the striker too.
        let fingers = Point2::new(-130.0, -345.0);
        let strokes = run_with_hands((0..60u32).map(move |i| {
            let mut discs = vec![disc(Piece::Black, Point2::new(250.0, 250.0))];
            if i == 20 {
                discs.push(disc(Piece::White, fingers));
            } else if i > 20 {
                let moved = f64::from((i - 21).min(8));
                let at = Point2::new(-118.0, -230.0) + Vector2::new(-6.0, 45.0) * moved;
                discs.push(disc(Piece::White, at));
            }
            let hands = arm_over_the_board(Seat::South, 5..21, i);
            (discs, hands)
        }));
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        assert_eq!(strokes[0].stroke.seat, Seat::South);
    }

    /// North's striker, set down under the hand beside a black on north's
    /// lines, knocks the black out from under it; the black comes into
    /// sight already running, between the lines and the player, while
    /// south's arm is the one seen alone over the board (clip 3652).
    /// Its run lies `aside` mm to the left of the line through where it lay.
    fn black_knocked_from_under_north_s_hand(heading: Vector2<f64>, aside: f64) -> Vec<SeenStroke> {
        let (black, striker) = (Point2::new(-113.0, 265.0), Point2::new(-54.0, 251.0));
        let hand = Occluder {
            min: Point2::new(-150.0, 200.0),
            max: Point2::new(-10.0, 420.0),
            cause: OcclusionCause::Hand,
            enters_from: Some(Seat::North),
        };
        run_with_hands((0..70u32).map(move |i| {
            let far = disc(Piece::White, Point2::new(200.0, -100.0));
            let (mut discs, mut hands) = match i {
                0..10 => (
                    vec![disc(Piece::Black, black), disc(Piece::Striker, striker)],
                    vec![],
                ),
                10..22 => (vec![], vec![hand]),
                _ => (vec![], vec![]),
            };
            if (22..28).contains(&i) {
                // Out of the hand's shadow 90 mm on, beyond the lines, at
                // 30 mm a frame.
                let run = 90.0 + 30.0 * f64::from(i - 22);
                let left = Vector2::new(-heading.y, heading.x) * aside;
                discs.push(disc(Piece::Black, black + left + heading * run));
            }
            // North's hand lifts as the black comes out: south's arm is then
            // the one seen alone.
            if i == 22 {
                hands.push(hand);
            }
            if i >= 20 {
                hands.push(arm_of(Seat::South));
            }
            if i >= 28 {
                discs.push(disc(Piece::Striker, Point2::new(-122.0, 250.0)));
            }
            discs.push(far);
            (discs, hands)
        }))
    }

    #[test]
    fn a_carromman_knocked_out_from_under_the_hand_is_the_stroke_of_that_hand_s_player() {
        let heading = Vector2::new(-0.936, 0.351);
        let strokes = black_knocked_from_under_north_s_hand(heading, 0.0);
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        assert_eq!(strokes[0].stroke.seat, Seat::North);
        assert!(alerted(&strokes[0], "striker was not seen"), "{strokes:?}");
        // Run from somewhere else (its way back passes 60 mm from where the
        // black lay hidden), it is no piece knocked from under the hand.
        let strokes = black_knocked_from_under_north_s_hand(heading, -60.0);
        assert!(strokes.is_empty(), "{strokes:?}");
    }

    #[test]
    fn a_carromman_shot_hard_off_a_neighbours_lines_by_an_unseen_striker_is_a_stroke() {
        // Never seen lying still on east's lines, it speeds north at
        // 1.35 m/s just after south's arm was over the board: south struck.
        let on_east_lines = Point2::new(252.0, -110.0);
        let strokes = white_disc_moving(on_east_lines, Vector2::new(8.0, 45.0));
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        assert_eq!(strokes[0].stroke.seat, Seat::South);
        assert!(alerted(&strokes[0], "striker was not seen"), "{strokes:?}");
        // With no arm about, or at 0.75 m/s, it is none.
        let strokes = white_disc_moving_with_arms(on_east_lines, Vector2::new(8.0, 45.0), &[]);
        assert!(strokes.is_empty(), "{strokes:?}");
        let strokes = white_disc_moving(on_east_lines, Vector2::new(4.0, 25.0));
        assert!(strokes.is_empty(), "{strokes:?}");
        // Shot off north's lines 1.5 s after north's arm was over the
        // board: north's striker read as a white, not south's stroke.
        let on_north_lines = Point2::new(-60.0, 252.0);
        let strokes = run_with_hands((0..90u32).map(move |i| {
            let mut discs = vec![disc(Piece::Black, Point2::new(250.0, -250.0))];
            if i >= 50 {
                let moved = f64::from((i - 50).min(8));
                discs.push(disc(
                    Piece::White,
                    on_north_lines + Vector2::new(0.0, -45.0) * moved,
                ));
            }
            let hands = match i {
                0..5 => vec![arm_of(Seat::North)],
                40..48 => vec![arm_of(Seat::South)],
                _ => vec![],
            };
            (discs, hands)
        }));
        assert!(
            strokes.iter().all(|s| s.stroke.seat != Seat::South),
            "{strokes:?}"
        );
    }

    #[test]
    fn a_striker_read_as_a_white_shot_along_its_lines_or_with_two_arms_about_is_a_stroke() {
        let lines = (BASE_BAND_NEAR_EDGE_FROM_CENTRE_MM + BASE_BAND_FAR_EDGE_FROM_CENTRE_MM) / 2.0;
        // Along south's lines towards the SE pocket, a little outwards.
        let strokes = white_disc_moving(Point2::new(-60.0, -lines), Vector2::new(30.0, -2.0));
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        assert_eq!(strokes[0].stroke.seat, Seat::South);
        // From north's lines into the board while both north's and south's
        // arms are over it: north's stroke.
        let strokes = white_disc_moving_with_arms(
            Point2::new(-60.0, lines - 30.0),
            Vector2::new(3.0, -30.0),
            &[Seat::North, Seat::South],
        );
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        assert_eq!(strokes[0].stroke.seat, Seat::North);
    }

    #[test]
    fn a_steady_course_keeps_its_heading_and_speed_from_frame_to_frame() {
        let v = |x: f64, y: f64| Vector2::new(x, y);
        assert!(steady_course(v(0.0, 1000.0), v(60.0, 940.0)));
        // Turned back (a bounce seen as a phantom track's swing), or much
        // faster or slower (a track pulled between blobs): not a slide.
        assert!(!steady_course(v(0.0, 1000.0), v(0.0, -1000.0)));
        assert!(!steady_course(v(0.0, 1000.0), v(900.0, 300.0)));
        assert!(!steady_course(v(0.0, 1000.0), v(0.0, 3000.0)));
        assert!(!steady_course(v(0.0, 1000.0), v(0.0, 400.0)));
        assert!(!steady_course(Vector2::zeros(), v(0.0, 400.0)));
    }

    /// The striker placed at the west end of north's lines, hidden under
    /// the hand for two frames, then found once at rest 58 mm away by the
    /// west seat's lines (a track found again has no speed yet) and from
    /// there seen speeding south (as on the sample clip's stroke 8).
    #[test]
    fn a_placed_striker_found_at_another_seat_straight_after_the_hand_was_struck_from_its_own() {
        let placed = Point2::new(-215.0, 259.0);
        let west_lines = Point2::new(-266.0, 232.0);
        assert_eq!(seat_at(placed), Some(Seat::North));
        assert_eq!(seat_at(west_lines), Some(Seat::West));
        let hand = Occluder {
            min: placed - Vector2::new(40.0, 40.0),
            max: placed + Vector2::new(40.0, 300.0),
            cause: OcclusionCause::Hand,
            enters_from: Some(Seat::North),
        };
        let strokes = run_with_hands((0..60u32).map(|i| match i {
            0..10 => (vec![disc(Piece::Striker, placed)], vec![]),
            10..12 => (vec![], vec![hand]),
            12 => (vec![disc(Piece::Striker, west_lines)], vec![]),
            13..20 => {
                let at = west_lines - Vector2::new(0.0, 40.0 * f64::from(i - 12));
                (vec![disc(Piece::Striker, at)], vec![])
            }
            _ => {
                let at = west_lines - Vector2::new(0.0, 280.0);
                (vec![disc(Piece::Striker, at)], vec![])
            }
        }));
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        assert_eq!(strokes[0].stroke.seat, Seat::North);
    }

    /// The striker left lying mid-board, carried off under north's hand
    /// (its track held hidden where it lay), found again just short of
    /// north's lines and from there seen speeding away (as on held-out clip
    /// 2159's last stroke). Its path leads back to north's lines from where
    /// it came into sight, not from where its track began.
    #[test]
    fn a_striker_carried_off_under_the_hand_and_struck_unseen_is_played_from_where_it_reappeared() {
        let rest = Point2::new(30.0, 40.0);
        let sighted = Point2::new(-60.0, 205.0);
        let heading = Vector2::new(0.8, -0.6);
        // Walking back from where its track began meets no seat's lines.
        assert!((0..=50).all(|k| seat_at(rest - heading * (5.0 * f64::from(k))).is_none()));
        let hand = Occluder {
            min: Point2::new(-10.0, 0.0),
            max: Point2::new(70.0, 370.0),
            cause: OcclusionCause::Hand,
            enters_from: Some(Seat::North),
        };
        let strokes = run_with_hands((0..70u32).map(|i| match i {
            0..15 => (vec![disc(Piece::Striker, rest)], vec![]),
            15..25 => (vec![], vec![hand]),
            25..36 => {
                let at = sighted + heading * (30.0 * f64::from(i - 25));
                (vec![disc(Piece::Striker, at)], vec![])
            }
            _ => (
                vec![disc(Piece::Striker, sighted + heading * 300.0)],
                vec![],
            ),
        }));
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        assert_eq!(strokes[0].stroke.seat, Seat::North);
    }

    /// A striker struck from south, unseen until it is 60 mm off its base
    /// lines running inwards; the arms of `arms_before` are over the board
    /// until just before, and the north arm alone in the last frame.
    fn striker_first_seen_off_the_south_lines(arms_before: &[Seat]) -> Vec<SeenStroke> {
        let before: Vec<Occluder> = arms_before.iter().map(|&seat| arm_of(seat)).collect();
        let placed_south = Point2::new(placed_north().x, -placed_north().y);
        let heading = Vector2::new(-0.6, 0.8);
        run_with_hands((0..70u32).map(move |i| {
            let hands = match i {
                5..24 => before.clone(),
                24 => vec![arm_of(Seat::North)],
                _ => vec![],
            };
            let discs = if i >= 25 {
                let run = 30.0 * f64::from(i.min(40) - 23);
                vec![disc(Piece::Striker, placed_south + heading * run)]
            } else {
                vec![]
            };
            (discs, hands)
        }))
    }

    #[test]
    fn the_last_arm_seen_alone_names_the_striking_seat_unless_the_paths_seat_had_its_arm_about() {
        // Both arms were over the board, and the striker's path leads back
        // to the south lines: the path tells.
        let strokes = striker_first_seen_off_the_south_lines(&[Seat::South, Seat::North]);
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        assert_eq!(strokes[0].stroke.seat, Seat::South);
        // The north arm alone: it struck (a break's striker is deflected by
        // the cluster before it is first seen).
        let strokes = striker_first_seen_off_the_south_lines(&[Seat::North]);
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        assert_eq!(strokes[0].stroke.seat, Seat::North);
    }

    /// The striker glimpsed on north's lines at their west end, then hidden
    /// (no arm's seat known), found again by the west seat's lines and seen
    /// speeding south: both places it came into sight lead back to base
    /// lines, and it went forward from north's, along west's.
    #[test]
    fn a_striker_found_again_by_a_neighbours_lines_was_struck_forward_from_its_own() {
        let glimpsed = Point2::new(-215.0, 259.0);
        let west_lines = Point2::new(-266.0, 232.0);
        assert_eq!(seat_at(glimpsed), Some(Seat::North));
        assert_eq!(seat_at(west_lines), Some(Seat::West));
        let hand = Occluder {
            min: glimpsed - Vector2::new(40.0, 40.0),
            max: glimpsed + Vector2::new(40.0, 300.0),
            cause: OcclusionCause::Hand,
            enters_from: None,
        };
        let strokes = run_with_hands((0..60u32).map(|i| match i {
            0..2 => (vec![disc(Piece::Striker, glimpsed)], vec![]),
            2..10 => (vec![], vec![hand]),
            10..20 => {
                let at = west_lines - Vector2::new(0.0, 40.0 * f64::from(i - 10));
                (vec![disc(Piece::Striker, at)], vec![])
            }
            _ => (
                vec![disc(Piece::Striker, west_lines - Vector2::new(0.0, 360.0))],
                vec![],
            ),
        }));
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        assert_eq!(strokes[0].stroke.seat, Seat::North);
    }

    /// The straight shot from north into the SW pocket past a black lying
    /// beside its course, its centre `apart` mm from the course (the
    /// striker's centre at frame 15).
    fn shot_past_a_black(apart: f64) -> Stroke {
        let target = pocket_centre(Pocket::Sw);
        let course = (target - placed_north()).normalize();
        let beside = placed_north()
            + (target - placed_north()) * 0.5
            + Vector2::new(-course.y, course.x) * apart;
        let strokes = run((0..60).map(|i| {
            let mut discs = vec![disc(Piece::Black, beside)];
            discs.extend(striker_shot_north_to_sw(i));
            discs
        }));
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        strokes[0].stroke.clone()
    }

    #[test]
    fn a_running_striker_read_grazing_a_piece_that_stays_put_did_not_touch_it() {
        let touching = STRIKER_RADIUS_MM + CARROMMAN_RADIUS_MM;
        // Clip 3100: read 1.9 mm into a black it passed 3.7 mm from.
        assert!(!shot_past_a_black(touching - 1.0).touched);
        // Well into it: touched, though the black was not seen to move.
        assert!(shot_past_a_black(touching - 3.0).touched);
    }

    #[test]
    fn a_straight_shot_into_a_pocket_is_one_stroke_from_north() {
        let frames = (0..60).map(|i| {
            let mut discs = vec![disc(Piece::Black, Point2::new(200.0, 0.0))];
            discs.extend(striker_shot_north_to_sw(i));
            discs
        });
        let strokes = run(frames);
        assert_eq!(strokes.len(), 1);
        let stroke = &strokes[0].stroke;
        assert_eq!(stroke.seat, Seat::North);
        assert!(!stroke.touched);
        assert_eq!(stroke.pocketed.len(), 1);
        assert_eq!(
            (stroke.pocketed[0].piece, stroke.pocketed[0].pocket),
            (Piece::Striker, Some(Pocket::Sw))
        );
        assert_eq!(strokes[0].vision.placement, Some(Placement::Legal));
        assert_eq!(strokes[0].vision.seen_before.black, 1);
    }

    /// The striker shot from north into the SW pocket; a black lying on the
    /// NE pocket's lip drops out of sight at frame `drops_at`.
    fn black_on_the_lip_frames(drops_at: u32) -> impl Iterator<Item = Vec<Detection>> {
        let lip = pocket_centre(Pocket::Ne) - Vector2::new(20.0, 20.0);
        (0..drops_at + 20).map(move |i| {
            let mut discs = Vec::new();
            if i < drops_at {
                discs.push(disc(Piece::Black, lip));
            }
            discs.extend(striker_shot_north_to_sw(i));
            discs
        })
    }

    #[test]
    fn a_piece_dropping_in_just_after_rest_is_a_late_pocketing_but_not_seconds_later() {
        let late_blacks = |drops_at| {
            let strokes = run(black_on_the_lip_frames(drops_at));
            assert_eq!(strokes.len(), 1, "{strokes:?}");
            let rest_t = strokes[0].vision.rest.as_ref().map_or(f64::NAN, |r| r.t);
            let blacks: Vec<PocketedPiece> = strokes[0]
                .stroke
                .pocketed
                .iter()
                .filter(|p| p.piece == Piece::Black)
                .cloned()
                .collect();
            (rest_t, blacks)
        };
        let (rest_t, soon) = late_blacks(45);
        assert!(rest_t < 45.0 * FRAME_S, "at rest at {rest_t} s");
        assert_eq!(soon.len(), 1, "{soon:?}");
        assert!(soon[0].late);
        assert_eq!(soon[0].pocket, Some(Pocket::Ne));
        let (_, much_later) = late_blacks(150);
        assert!(much_later.is_empty(), "{much_later:?}");
    }

    /// A black at rest for a second, the striker placed at north for the
    /// first `placed` frames and then never seen again, and from frame 40 the
    /// black shooting into the SW pocket (if `launched`).
    fn unseen_striker_frames(launched: bool) -> impl Iterator<Item = Vec<Detection>> {
        let start = Point2::new(-150.0, -150.0);
        let target = pocket_centre(Pocket::Sw);
        (0..90).map(move |i| {
            let mut discs = Vec::new();
            if i < 10 {
                discs.push(disc(Piece::Striker, placed_north()));
            }
            if !launched || i < 40 {
                discs.push(disc(Piece::Black, start));
            } else if i < 46 {
                let f = f64::from(i - 39) / 6.0;
                discs.push(disc(Piece::Black, start + (target - start) * f));
            }
            discs
        })
    }

    #[test]
    fn a_piece_shot_off_from_rest_with_no_striker_seen_is_a_stroke() {
        let strokes = run(unseen_striker_frames(true));
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        let stroke = &strokes[0];
        assert_eq!(stroke.stroke.seat, Seat::North);
        assert!(stroke.stroke.touched);
        assert_eq!(pockets_of(stroke), vec![(Piece::Black, Some(Pocket::Sw))]);
        assert!(alerted(stroke, "striker was not seen"));
        let t = stroke.stroke.t.unwrap_or(f64::NAN);
        assert!((t - 39.0 * FRAME_S).abs() < 2.0 * FRAME_S, "struck at {t}");
    }

    /// A Queen lying still at (-14, 25) from the start, north's arm over
    /// the board from frame 30; at frame 40 she jumps `jump` mm and is seen
    /// `seen_after` frames more, running on by as much each frame.
    fn queen_jumping(jump: f64, seen_after: u32) -> Vec<SeenStroke> {
        let spot = Point2::new(-14.0, 25.0);
        run_with_hands((0..80u32).map(move |i| {
            let at = if i < 40 {
                Some(spot)
            } else if i <= 40 + seen_after {
                Some(spot + Vector2::new(-jump * f64::from(i - 39), 0.0))
            } else {
                None
            };
            let arms = if i >= 30 {
                arm_over_the_board(Seat::North, 30..80, i)
            } else {
                Vec::new()
            };
            (
                at.map(|at| disc(Piece::Queen, at)).into_iter().collect(),
                arms,
            )
        }))
    }

    #[test]
    fn a_piece_that_jumps_once_with_no_striker_seen_and_is_gone_was_no_stroke() {
        // 30 mm in a frame (900 mm/s), then gone: a ghost's flicker.
        assert!(queen_jumping(30.0, 0).is_empty());
        // Running on in sight: hit by a striker never seen.
        let strokes = queen_jumping(30.0, 4);
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        assert!(alerted(&strokes[0], "striker was not seen"), "{strokes:?}");
    }

    #[test]
    fn a_piece_that_jumps_as_a_hand_comes_over_it_was_no_stroke() {
        // Clip 3131: a white by the north cushion moved 21 mm in the frame
        // an arm reached over it (430 mm/s), then lay under the hand.
        let spot = Point2::new(-10.0, 330.0);
        let moved = spot + Vector2::new(-18.0, 10.0);
        let hand = Occluder {
            min: Point2::new(-80.0, 290.0),
            max: Point2::new(60.0, 420.0),
            cause: OcclusionCause::Hand,
            enters_from: Some(Seat::North),
        };
        let strokes = run_with_hands((0..80u32).map(|i| {
            let white = match i {
                0..40 => Some(spot),
                40 => Some(moved),
                41..60 => None,
                _ => Some(moved),
            };
            // North's arm over the board from frame 30 (whose turn it is),
            // its hand over the white from frame 41.
            let mut hands = arm_over_the_board(Seat::North, 30..80, i);
            if (41..60).contains(&i) {
                hands.push(hand);
            }
            (
                white.map(|at| disc(Piece::White, at)).into_iter().collect(),
                hands,
            )
        }));
        assert!(strokes.is_empty(), "{strokes:?}");
    }

    #[test]
    fn a_launch_taken_back_leaves_the_set_out_note_for_the_next_stroke() {
        let mut machine = StrokeMachine::new(StrokeMachineOptions::default());
        let note = VisionNote {
            t: 0.5,
            message: SET_OUT_MOTION.to_string(),
        };
        let mut stroke = stroke_seen_with(3, 2);
        stroke.vision.alerts.push(note.clone());
        machine.current = Some(stroke);
        machine.phase = Phase::Moving {
            striker: TrackId(7),
            at_rest_frames: 0,
        };
        machine.unseen_launch = Some((TrackId(7), 39, 700.0));
        let mut next = at_rest_with(Vec::new());
        next.index = 40;
        machine.take_back_a_flickering_launch(&next);
        assert!(machine.current.is_none());
        assert!(!machine.in_motion());
        assert_eq!(machine.set_out_motion, Some(note));
        assert_eq!(machine.most_seen_since_rest.map(|c| c.white), Some(3));
    }

    /// A black lying still at (-150, 150) from the start; north's arm over
    /// the board until frame 38; at frame 40 a striker-coloured disc
    /// `lands` mm from the black's spot (the striker, unseen until it hit
    /// it) and stays, while a black shows `off` mm away and runs at the NW
    /// pocket at 30 mm a frame.
    fn black_knocked_off_its_spot(lands: f64, off: f64) -> Vec<SeenStroke> {
        let spot = Point2::new(-150.0, 150.0);
        let course = (pocket_centre(Pocket::Nw) - spot).normalize();
        run_with_hands((0..80u32).map(move |i| {
            let mut discs = Vec::new();
            if i < 40 {
                discs.push(disc(Piece::Black, spot));
            } else {
                discs.push(disc(Piece::White, spot - course * lands));
                let run = off + 30.0 * f64::from(i - 40);
                if run < 230.0 {
                    discs.push(disc(Piece::Black, spot + course * run));
                }
            }
            let hands = arm_over_the_board(Seat::North, 20..38, i);
            (discs, hands)
        }))
    }

    #[test]
    fn a_disc_speeding_off_a_piece_s_spot_as_another_takes_its_track_is_that_piece_struck() {
        // Clip 2399: the striker, unseen under north's arm, hit a black,
        // whose track went on with the striker; the black left as a new
        // track at 1 m/s into the NW pocket.
        let strokes = black_knocked_off_its_spot(6.0, 25.0);
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        assert_eq!(
            pockets_of(&strokes[0]),
            vec![(Piece::Black, Some(Pocket::Nw))],
            "{:?}",
            strokes[0]
        );
        assert!(alerted(&strokes[0], "striker was not seen"), "{strokes:?}");
        // First seen far from any piece's spot: no stroke from it.
        assert!(black_knocked_off_its_spot(6.0, 90.0).is_empty());
    }

    #[test]
    fn a_piece_unseen_for_the_frame_it_was_hit_in_still_lay_still() {
        // Clip 2776: the resting white went unseen the frame the striker
        // met it (their blobs ran together), then shot off.
        let gap =
            unseen_striker_frames(true)
                .enumerate()
                .map(|(i, discs)| if i == 39 { Vec::new() } else { discs });
        let strokes = run(gap);
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        assert_eq!(
            pockets_of(&strokes[0]),
            vec![(Piece::Black, Some(Pocket::Sw))]
        );
        assert!(alerted(&strokes[0], "striker was not seen"), "{strokes:?}");
        // Unseen for longer, it may have been carried off: no stroke.
        let gone = unseen_striker_frames(true).enumerate().map(|(i, discs)| {
            if (36..40).contains(&i) {
                Vec::new()
            } else {
                discs
            }
        });
        assert!(run(gone).is_empty());
    }

    /// [`unseen_striker_frames`] with `arms` over the board from frame 30
    /// to 37, told at the strike that it is `in_turn`'s turn.
    fn unseen_strike_in_turn(arms: &[Seat], in_turn: Seat) -> Vec<SeenStroke> {
        let arms: Vec<Occluder> = arms.iter().map(|&seat| arm_of(seat)).collect();
        let frames = unseen_striker_frames(true)
            .enumerate()
            .map(move |(i, discs)| {
                let hands = if (30..38).contains(&i) {
                    arms.clone()
                } else {
                    Vec::new()
                };
                (discs, hands)
            });
        run_told_the_turn(frames, Some(in_turn))
    }

    #[test]
    fn a_stroke_no_arm_or_striker_showed_is_played_by_whose_turn_it_is() {
        // Only the placement north long before: the laws' turn decides.
        let strokes = unseen_strike_in_turn(&[], Seat::South);
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        assert_eq!(strokes[0].stroke.seat, Seat::South);
        assert!(alerted(&strokes[0], "whose turn it was (ICF 48)"));
        // Both players' arms about: still unsure.
        let strokes = unseen_strike_in_turn(&[Seat::North, Seat::South], Seat::South);
        assert_eq!(strokes[0].stroke.seat, Seat::South);
        // North's arm alone over the board just before: north struck,
        // whatever the turn.
        let strokes = unseen_strike_in_turn(&[Seat::North], Seat::South);
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        assert_eq!(strokes[0].stroke.seat, Seat::North);
        assert!(!alerted(&strokes[0], "whose turn"));
    }

    /// The break arrangement lying still, the striker placed north until
    /// frame 10 and then gone, and the first `moving` pieces of the
    /// arrangement's outer ring shooting straight out at 0.75 m/s from frame
    /// 40 for three frames, to lie 75 mm out.
    fn arrangement_with_pieces_moving_out(moving: usize) -> Vec<SeenStroke> {
        let spots = break_arrangement(Seat::South);
        run((0..90).map(move |i| {
            let mut discs = Vec::new();
            if i < 10 {
                discs.push(disc(Piece::Striker, placed_north()));
            }
            for (k, spot) in spots.iter().enumerate() {
                let outer = k >= 7 && k - 7 < moving;
                let at = if outer {
                    let out = f64::from(i.clamp(39, 42) - 39) * 25.0;
                    spot.centre + spot.centre.coords.normalize() * out
                } else {
                    spot.centre
                };
                discs.push(disc(spot.piece, at));
            }
            discs
        }))
    }

    #[test]
    fn motion_that_leaves_the_board_set_out_for_the_break_is_no_stroke() {
        // One piece of the cluster seen shooting off (a hand setting the
        // board out, or a track settling as the hand leaves): 18 of the 19
        // spots still taken.
        assert!(arrangement_with_pieces_moving_out(1).is_empty());
        // Ten of the twelve outer pieces gone from their spots: a stroke.
        let strokes = arrangement_with_pieces_moving_out(10);
        assert_eq!(strokes.len(), 1, "{strokes:?}");
    }

    #[test]
    fn tracks_held_hidden_on_the_break_spots_do_not_make_a_break_setting_out() {
        // Clips 3791 and 3808: the break scattered the cluster, whose board
        // the model had only predicted; one blob over it hid every spot's
        // track, held there at rest, while new tracks followed the pieces.
        let at_rest = |hidden: bool| {
            let tracks = break_arrangement(Seat::South)
                .iter()
                .enumerate()
                .map(|(k, spot)| {
                    let mut track = track_of(k as u32, spot.piece, spot.centre);
                    track.hidden = hidden;
                    track
                })
                .collect();
            at_rest_with(tracks)
        };
        let stroke = stroke_seen(SeenCount::BREAK);
        assert!(!moved_nothing_set_out(&stroke, &at_rest(true), true));
        // In sight there, the pieces never left their spots.
        assert!(moved_nothing_set_out(&stroke, &at_rest(false), true));
        // After the break, motion that leaves those hidden tracks on the
        // spots is theirs settling.
        assert!(moved_nothing_set_out(&stroke, &at_rest(true), false));
    }

    #[test]
    fn a_clip_ending_once_the_pieces_stopped_judges_its_last_stroke_at_rest() {
        // The black shot into the SW pocket is gone by frame 46; the clip
        // ends `after` frames later.
        let ending = |after: usize| run(unseen_striker_frames(true).take(46 + after));
        let settled = ending(8);
        assert_eq!(settled.len(), 1, "{settled:?}");
        assert!(settled[0].vision.ended_mid_stroke);
        assert!(settled[0].vision.rest.is_some(), "{settled:?}");
        assert!(alerted(&settled[0], "judged at rest there"), "{settled:?}");
        assert_eq!(
            pockets_of(&settled[0]),
            vec![(Piece::Black, Some(Pocket::Sw))]
        );
        // Cut a frame after it went: nothing lay still long enough to judge
        // by.
        let cut = ending(1);
        assert_eq!(cut.len(), 1, "{cut:?}");
        assert!(cut[0].vision.ended_mid_stroke);
        assert!(cut[0].vision.rest.is_none(), "{cut:?}");
    }

    #[test]
    fn a_piece_lost_slowing_down_short_of_a_pocket_did_not_reach_it() {
        // Clip 2297: a white on light wood shot off at the NE pocket, seen
        // every other frame once under way, lost while slowing down short of
        // it. Its track reads each two frames' way as one frame's.
        let lost_after = |slowing_by: f64, from: f64| {
            let course = Vector2::new(1.0, 1.0).normalize();
            run((0..90u32).map(move |i| {
                let mut discs = Vec::new();
                if i < 10 {
                    discs.push(disc(Piece::Striker, placed_north()));
                }
                // 24 mm the first frame, then `slowing_by` less each frame.
                let frames = f64::from(i.clamp(40, 52) - 40);
                let along = 24.0 * frames - slowing_by * frames * (frames - 1.0) / 2.0;
                if i < 44 || (i <= 52 && i % 2 == 0) {
                    discs.push(disc(Piece::White, Point2::new(from, from) + course * along));
                }
                discs
            }))
        };
        // Lost 350 mm short of the pocket at 390 mm/s: it stops first.
        let slowing = lost_after(1.0, -56.5);
        assert_eq!(slowing.len(), 1, "{slowing:?}");
        assert_eq!(pockets_of(&slowing[0]), vec![]);
        // Lost 390 mm short at 720 mm/s, not slowing: on its way in.
        let at_speed = lost_after(0.0, -131.4);
        assert_eq!(at_speed.len(), 1, "{at_speed:?}");
        assert_eq!(
            pockets_of(&at_speed[0]),
            vec![(Piece::White, Some(Pocket::Ne))]
        );
    }

    #[test]
    fn pieces_that_lie_still_are_no_stroke_without_a_striker() {
        assert!(run(unseen_striker_frames(false)).is_empty());
    }

    #[test]
    fn a_piece_first_seen_already_moving_is_no_stroke_without_a_striker() {
        // A flicker (a sleeve, a reflection) that shows up fast was never a
        // piece lying still.
        let frames = (0..60).map(|i| {
            let mut discs = Vec::new();
            if i < 10 {
                discs.push(disc(Piece::Striker, placed_north()));
            }
            if (30..36).contains(&i) {
                discs.push(disc(
                    Piece::White,
                    Point2::new(-200.0 + 25.0 * f64::from(i - 30), 0.0),
                ));
            }
            discs
        });
        assert!(run(frames).is_empty());
    }

    #[test]
    fn a_stroke_under_way_when_the_break_is_found_set_out_is_dropped() {
        let mut tracker = Tracker::new(TrackerOptions::default());
        let mut machine = StrokeMachine::new(StrokeMachineOptions::default());
        for i in 0..40 {
            let y = placed_north().y - if i < 10 { 0.0 } else { 60.0 * (i - 9) as f64 };
            let detections = Detections {
                index: i,
                t: i as f64 * FRAME_S,
                // As when the tracker restarts from the break: the carried
                // striker is no track any more.
                discs: if i < 14 {
                    vec![disc(Piece::Striker, Point2::new(placed_north().x, y))]
                } else {
                    Vec::new()
                },
                occluders: Vec::new(),
                break_arrangement: false,
                still_there: Vec::new(),
                looks_changed: Vec::new(),
            };
            // The pipeline restarts the tracker from the break it found.
            let tracks = if i == 0 || i == 14 {
                tracker.seed(&detections)
            } else {
                tracker.update(&detections)
            };
            if i == 14 {
                assert!(machine.in_motion(), "a stroke seemed under way");
                machine.setting_out_seen();
            }
            machine.push(&tracks);
        }
        assert!(machine.finish().is_empty());
    }

    #[test]
    fn a_clip_that_ends_in_motion_keeps_the_stroke_and_says_so() {
        let frames = (0..15).map(|i| {
            let y = placed_north().y - if i < 10 { 0.0 } else { 60.0 * f64::from(i - 9) };
            vec![disc(Piece::Striker, Point2::new(placed_north().x, y))]
        });
        let strokes = run(frames);
        assert_eq!(strokes.len(), 1);
        assert!(strokes[0].vision.ended_mid_stroke);
    }

    /// The striker placed at north for 10 frames, then struck south at
    /// 1.5 m/s and lost from sight after 4 frames.
    fn striker_struck_from_north(frame: u32) -> Option<Detection> {
        match frame {
            0..10 => Some(disc(Piece::Striker, placed_north())),
            10..14 => Some(disc(
                Piece::Striker,
                placed_north() - nalgebra::Vector2::new(0.0, 50.0 * f64::from(frame - 9)),
            )),
            _ => None,
        }
    }

    /// Every pocketing of `strokes`, piece and pocket, in order.
    fn pocketed_in(strokes: &[SeenStroke]) -> Vec<(Piece, Option<Pocket>)> {
        strokes
            .iter()
            .flat_map(|s| s.stroke.pocketed.iter().map(|p| (p.piece, p.pocket)))
            .collect()
    }

    /// The striker shot from north at the SW pocket over a white lying on
    /// its path, moved `aside` mm off the line; the white is never seen
    /// moving (a white on light wood), only gone once the striker is there.
    fn white_in_the_striker_path(aside: f64) -> Vec<SeenStroke> {
        let path = pocket_centre(Pocket::Sw) - placed_north();
        let across = nalgebra::Vector2::new(-path.y, path.x).normalize();
        let white = placed_north() + path * 0.8 + across * aside;
        run((0..40).map(move |i| {
            let mut discs = Vec::new();
            discs.extend(striker_shot_north_to_sw(i));
            if i < 17 {
                discs.push(disc(Piece::White, white));
            }
            discs
        }))
    }

    #[test]
    fn a_resting_piece_gone_unseen_as_the_striker_meets_it_went_where_it_was_knocked() {
        // Met full on: knocked straight on into the SW pocket.
        let full = white_in_the_striker_path(0.0);
        assert!(
            pocketed_in(&full).contains(&(Piece::White, Some(Pocket::Sw))),
            "{full:?}"
        );
        // Met on its edge: sent off at an angle, away from every pocket.
        let glancing = white_in_the_striker_path(30.0);
        assert!(
            pocketed_in(&glancing)
                .iter()
                .all(|&(piece, _)| piece != Piece::White),
            "{glancing:?}"
        );
    }

    /// The striker shot from north at 1080 mm/s towards the SW pocket at a
    /// black lying `aside` mm off its line, 144 mm short of the pocket; its
    /// last step, as it meets the black, is slower (14 mm), and it is lost
    /// from sight 36 mm short of the black (along the line). From then on
    /// the black is never seen moving: a disc read as a black lies 8 mm on
    /// from where it lay, and, if `striker_beside`, the striker lies beside
    /// it, 40 mm off the line, found only once its track was lost, and read
    /// as a white.
    fn striker_lost_meeting_a_black(aside: f64, striker_beside: bool) -> Vec<SeenStroke> {
        let path = pocket_centre(Pocket::Sw) - placed_north();
        let along = path.normalize();
        let across = nalgebra::Vector2::new(-along.y, along.x);
        let black = placed_north() + path * 0.8 + across * aside;
        let on_line = placed_north() + path * 0.8;
        let to_go_at_strike = path.norm() * 0.8;
        // Distances still to go to the black along the line, frame by frame.
        let mut to_go: Vec<f64> = (0..)
            .map(|k| 50.0 + 36.0 * f64::from(k))
            .take_while(|&d| d < to_go_at_strike)
            .collect();
        to_go.push(to_go_at_strike);
        to_go.reverse();
        to_go.push(36.0);
        let struck_frames = to_go.len() as u32;
        run((0..70).map(move |i| match i {
            0..10 => vec![
                disc(Piece::Striker, placed_north()),
                disc(Piece::Black, black),
            ],
            _ if i < 10 + struck_frames => vec![
                disc(Piece::Striker, on_line - along * to_go[(i - 10) as usize]),
                disc(Piece::Black, black),
            ],
            _ => {
                let mut discs = vec![disc(Piece::Black, black + along * 8.0)];
                if striker_beside && i >= 12 + struck_frames {
                    discs.push(disc(Piece::White, black + across * 40.0));
                }
                discs
            }
        }))
    }

    #[test]
    fn a_striker_lost_as_it_met_a_piece_and_never_seen_again_stopped_in_its_place() {
        // Met full on: the striker stopped where the black lay, and the
        // black went on into the SW pocket.
        let full = striker_lost_meeting_a_black(0.0, false);
        assert_eq!(full.len(), 1, "{full:?}");
        assert_eq!(
            pocketed_in(&full),
            vec![(Piece::Black, Some(Pocket::Sw))],
            "{full:?}"
        );
        // The striker seen at rest beside the black (as a white): nothing
        // went in.
        let beside = striker_lost_meeting_a_black(0.0, true);
        assert_eq!(pocketed_in(&beside), vec![], "{beside:?}");
        // Met on its edge: knocked off to the side, away from the pocket.
        let glancing = striker_lost_meeting_a_black(30.0, false);
        assert_eq!(pocketed_in(&glancing), vec![], "{glancing:?}");
    }

    /// Tracks as the machine is handed them: the striker (track 1) placed
    /// at north on x = -200 and shot south at 1200 mm/s from frame 10. Its
    /// track is left behind on the fourth frame (lost, then dropped three
    /// frames on) while a track read as a white (3) 25 mm ahead goes on with
    /// it: born that frame, or, where `white_lay_before`, a white lying
    /// there from the start (a piece the striker met). The white passes
    /// 33 mm east of a black (2) lying at (-233, -300), which touches a
    /// striker there, not a white; the black is never seen moving, only
    /// gone as the white comes level with it, and dropped six frames on.
    /// The white stops at y = -320.
    fn striker_split_passing_a_black(white_lay_before: bool) -> Vec<SeenStroke> {
        let black_at = Point2::new(-233.0, -300.0);
        let striker_y = |i: u32| (259.0 - 40.0 * (f64::from(i) - 10.0).max(0.0)).max(-320.0);
        let moving = |mut track: Track, y: f64, before: f64| {
            track.position = Point2::new(-200.0, y);
            track.velocity = Vector2::new(0.0, (y - before) * 30.0);
            track
        };
        let (striker, black, white) = (
            track_of(1, Piece::Striker, Point2::new(-200.0, 259.0)),
            track_of(2, Piece::Black, black_at),
            track_of(3, Piece::White, Point2::new(-200.0, 0.0)),
        );
        let vanished = |id: u32, piece: Piece, at: Point2<f64>, i: u32| TrackEvent::Vanished {
            id: TrackId(id),
            piece,
            last_seen: at,
            heading_to: at,
            speed: 0.0,
            t: f64::from(i) * FRAME_S,
            hand_near: false,
        };
        let mut machine = StrokeMachine::new(StrokeMachineOptions::default());
        let mut black_gone = None;
        for i in 0..70u32 {
            let (y, before) = (striker_y(i), striker_y(i.saturating_sub(1)));
            let mut tracks = Vec::new();
            let mut events = Vec::new();
            match i {
                0..14 => {
                    tracks.push(moving(striker.clone(), y, before));
                    if white_lay_before {
                        tracks.push(moving(
                            white.clone(),
                            striker_y(14) - 25.0,
                            striker_y(14) - 25.0,
                        ));
                    }
                }
                14 => {
                    tracks.push(moving(striker.clone(), y, before));
                    tracks.push(moving(white.clone(), y - 25.0, y - 25.0));
                }
                _ => {
                    tracks.push(moving(white.clone(), y, before));
                    if i == 17 {
                        events.push(vanished(
                            1,
                            Piece::Striker,
                            Point2::new(-200.0, striker_y(14)),
                            i,
                        ));
                    }
                }
            }
            if y > -290.0 {
                tracks.push(black.clone());
            } else if black_gone.is_none() {
                black_gone = Some(i);
            }
            if black_gone == Some(i.saturating_sub(6)) && i >= 6 {
                events.push(vanished(2, Piece::Black, black_at, i));
            }
            machine.push(&frame_with(i, tracks, events));
        }
        machine.finish()
    }

    /// Where north's striker, placed for ten frames and then shot at 30 mm a
    /// frame, lies in frame `i` on its way to `contact`, where it stops;
    /// and the frame it gets there.
    fn struck_from_north_to(contact: Point2<f64>) -> (impl Fn(u32) -> Point2<f64>, u32) {
        let path = contact - placed_north();
        let strike_frames = (path.norm() / 30.0).ceil() as u32;
        let striker_at = move |i: u32| {
            let moved =
                f64::from(i.saturating_sub(10).min(strike_frames)) / f64::from(strike_frames);
            placed_north() + path * moved
        };
        (striker_at, 10 + strike_frames)
    }

    /// The striker's track (1) in frame `i` of a path `striker_at`, moving
    /// as it went since the frame before.
    fn striker_track_at(striker_at: &impl Fn(u32) -> Point2<f64>, i: u32) -> Track {
        let mut striker = track_of(1, Piece::Striker, striker_at(i));
        striker.velocity = (striker_at(i) - striker_at(i.saturating_sub(1))) * 30.0;
        striker
    }

    /// North's striker shot at a black lying near the NW pocket; the
    /// black's track is seen once more, pulled 9 mm towards the striker's
    /// blob at 268 mm/s, then lost, the black glimpsed only as a disc never
    /// confirmed 33 mm from there, `glimpsed_towards` the pocket or not
    /// (clip 3613).
    /// Where `already_running`, the black never lay still: it ran in
    /// along that same step from six frames before.
    fn black_lost_after_one_pulled_step(
        glimpsed_towards: Vector2<f64>,
        already_running: bool,
    ) -> Vec<SeenStroke> {
        let lay = Point2::new(-298.0, 290.0);
        let pulled = lay + Vector2::new(8.0, -4.0);
        let contact = lay + Vector2::new(34.0, -12.0);
        let (striker_at, struck_in) = struck_from_north_to(contact);
        let mut machine = StrokeMachine::new(StrokeMachineOptions::default());
        for i in 0..70u32 {
            let striker = striker_track_at(&striker_at, i);
            let mut tracks = vec![striker];
            let mut events = Vec::new();
            let mut black = track_of(2, Piece::Black, lay);
            let running_for = struck_in.saturating_sub(i);
            if i == struck_in || (already_running && running_for <= 6) {
                black.position = pulled - (pulled - lay) * f64::from(running_for);
                black.velocity = (pulled - lay) * 30.0;
            }
            match i.checked_sub(struck_in) {
                None | Some(0) => tracks.push(black),
                Some(k @ 1..=3) => {
                    black.position = pulled;
                    black.velocity = (pulled - lay) * 30.0;
                    tracks.push(black.unseen_for(k));
                }
                Some(4) => events.push(TrackEvent::Vanished {
                    id: TrackId(2),
                    piece: Piece::Black,
                    last_seen: pulled,
                    heading_to: pulled + (pulled - lay),
                    speed: (pulled - lay).norm() * 30.0,
                    t: f64::from(i) * FRAME_S,
                    hand_near: false,
                }),
                Some(_) => {}
            }
            let mut frame = frame_with(i, tracks, events);
            if i == struck_in + 1 {
                frame.tentative = vec![(TrackId(50), pulled + glimpsed_towards * 33.0)];
            }
            machine.push(&frame);
        }
        machine.finish()
    }

    #[test]
    fn a_piece_seen_moving_once_then_glimpsed_on_its_way_went_where_it_headed() {
        let towards_nw = (pocket_centre(Pocket::Nw) - Point2::new(-290.0, 286.0)).normalize();
        let glimpsed = black_lost_after_one_pulled_step(towards_nw, false);
        assert_eq!(
            pocketed_in(&glimpsed),
            vec![(Piece::Black, Some(Pocket::Nw))],
            "{glimpsed:?}"
        );
        // Glimpsed heading back into the board: no pocket ahead of it.
        let inwards = black_lost_after_one_pulled_step(Vector2::new(0.6, -0.8), false);
        assert_eq!(pocketed_in(&inwards), vec![], "{inwards:?}");
        // Already running, and lost: a disc beyond it is as likely itself
        // slowing down (clip 3591).
        let running = black_lost_after_one_pulled_step(towards_nw, true);
        assert_eq!(pocketed_in(&running), vec![], "{running:?}");
    }

    /// North's striker shot at a black lying 85 mm from the NW pocket,
    /// unseen over the last four frames before it meets it and found
    /// again stopped beside it (hidden under north's hand, as in clip
    /// 6410), so no knock is seen. The black is seen once a step of 15 mm
    /// on along `step` (a unit vector), then followed unseen where it was
    /// last seen for five frames, its track's speed fallen to nothing, and
    /// lost with a hand in sight (`hand_near`) or not.
    fn black_stepped_once_then_followed_unseen(
        step: Vector2<f64>,
        hand_near: bool,
    ) -> Vec<SeenStroke> {
        let lay = pocket_centre(Pocket::Nw) + Vector2::new(60.0, -60.0);
        let stepped = lay + step * 15.0;
        let contact = lay + (placed_north() - lay).normalize() * 2.0 * CARROMMAN_RADIUS_MM;
        let (striker_at, struck_in) = struck_from_north_to(contact);
        let mut machine = StrokeMachine::new(StrokeMachineOptions::default());
        for i in 0..70u32 {
            let mut striker = striker_track_at(&striker_at, i);
            let hidden_for = (i + 4).saturating_sub(struck_in);
            if (1..=4).contains(&hidden_for) {
                striker.position = striker_at(struck_in - 4);
                striker.velocity = Vector2::zeros();
                striker = striker.unseen_for(hidden_for);
            }
            let mut tracks = vec![striker];
            let mut events = Vec::new();
            let mut black = track_of(2, Piece::Black, lay);
            match i.checked_sub(struck_in) {
                None => tracks.push(black),
                Some(0) => {
                    black.position = stepped;
                    black.velocity = step * 15.0 * 30.0;
                    tracks.push(black);
                }
                Some(k @ 1..=5) => {
                    black.position = stepped;
                    black.velocity = Vector2::zeros();
                    tracks.push(black.unseen_for(k));
                }
                Some(6) => events.push(TrackEvent::Vanished {
                    id: TrackId(2),
                    piece: Piece::Black,
                    last_seen: stepped,
                    heading_to: stepped,
                    speed: 0.0,
                    t: f64::from(i) * FRAME_S,
                    hand_near,
                }),
                Some(_) => {}
            }
            let mut frame = frame_with(i, tracks, events);
            frame.hand_present = hand_near && i == struck_in + 6;
            machine.push(&frame);
        }
        machine.finish()
    }

    #[test]
    fn a_piece_seen_once_off_where_it_lay_then_followed_unseen_went_where_it_stepped() {
        // The black lies 60 mm east and south of the pocket's centre.
        let towards_nw = Vector2::new(-1.0, 1.0).normalize();
        let stepped = black_stepped_once_then_followed_unseen(towards_nw, false);
        assert_eq!(
            pocketed_in(&stepped),
            vec![(Piece::Black, Some(Pocket::Nw))],
            "{stepped:?}"
        );
        // Stepping back into the board: no pocket ahead of it.
        let inwards = black_stepped_once_then_followed_unseen(-towards_nw, false);
        assert_eq!(pocketed_in(&inwards), vec![], "{inwards:?}");
        // Lost with a hand in sight: the hand may have moved it.
        let under_a_hand = black_stepped_once_then_followed_unseen(towards_nw, true);
        assert_eq!(pocketed_in(&under_a_hand), vec![], "{under_a_hand:?}");
    }

    #[test]
    fn a_white_track_gone_on_with_the_striker_as_it_was_lost_is_the_striker() {
        // Met by the striker (seen as a white), the black was knocked
        // west-south-west into the SW pocket.
        let split = striker_split_passing_a_black(false);
        assert_eq!(split.len(), 1, "{split:?}");
        assert_eq!(
            pocketed_in(&split),
            vec![(Piece::Black, Some(Pocket::Sw))],
            "{split:?}"
        );
        assert!(
            split[0]
                .vision
                .alerts
                .iter()
                .any(|a| a.message.contains("the striker seen twice")),
            "{split:?}"
        );
        // A white that lay there before the strike is a piece the striker
        // sent on: carromman-sized, it passed the black without touching.
        let knocked_on = striker_split_passing_a_black(true);
        assert_eq!(pocketed_in(&knocked_on), vec![], "{knocked_on:?}");
    }

    #[test]
    fn a_piece_lost_where_it_lay_and_glimpsed_leaving_went_where_it_headed() {
        // Clip 2448: a black lying 85 mm from the NE pocket, never seen
        // moving, glimpsed once two frames on, 44 mm nearer the pocket.
        let lay = Point2::new(296.0, 281.0);
        let frames = |glimpse: Point2<f64>, confirmed_later: bool| -> VecDeque<Positions> {
            (0..5u32)
                .map(|i| {
                    let mut discs = Vec::new();
                    if i < 3 {
                        discs.push((TrackId(3), lay, CARROMMAN_RADIUS_MM));
                    }
                    if confirmed_later && i == 4 {
                        discs.push((TrackId(50), glimpse, CARROMMAN_RADIUS_MM));
                    }
                    Positions {
                        t: f64::from(i) * FRAME_S,
                        discs,
                        tentative: if i == 4 {
                            vec![(TrackId(50), glimpse)]
                        } else {
                            Vec::new()
                        },
                        hidden: Vec::new(),
                    }
                })
                .collect()
        };
        let now = at_rest_with(Vec::new());
        let towards_ne = Point2::new(320.0, 318.0);
        assert_eq!(
            glimpsed_leaving(&frames(towards_ne, false), &now, TrackId(3), lay),
            Some(Pocket::Ne)
        );
        // Glimpsed heading for a pocket across the board: too rough an aim.
        let far = Point2::new(-100.0, -100.0);
        let across = far + (far - pocket_centre(Pocket::Sw)).normalize() * -40.0;
        assert_eq!(
            glimpsed_leaving(&frames(across, false), &now, TrackId(3), far),
            None
        );
        // A track confirmed there is another disc, not a glimpse.
        assert_eq!(
            glimpsed_leaving(&frames(towards_ne, true), &now, TrackId(3), lay),
            None
        );
        // Too far for two frames, or heading past the pocket: no glimpse of it.
        let too_far = lay + (towards_ne - lay) * 4.0;
        assert_eq!(
            glimpsed_leaving(&frames(too_far, false), &now, TrackId(3), lay),
            None
        );
        let aside = Point2::new(340.0, 280.0);
        assert_eq!(
            glimpsed_leaving(&frames(aside, false), &now, TrackId(3), lay),
            None
        );
    }

    #[test]
    fn the_first_point_of_a_path_within_reach_of_a_disc() {
        let centre = Point2::new(0.0, 0.0);
        let at = first_within(
            Point2::new(-100.0, 10.0),
            Point2::new(100.0, 10.0),
            centre,
            20.0,
        );
        let at = at.expect("the path passes 10 mm from the centre");
        assert!(
            (at - Point2::new(-(300.0f64).sqrt(), 10.0)).norm() < 1e-9,
            "{at:?}"
        );
        // Starting within reach: the start.
        let start = Point2::new(5.0, 5.0);
        assert_eq!(
            first_within(start, Point2::new(50.0, 5.0), centre, 20.0),
            Some(start)
        );
        // Passing wide, or stopping short: none.
        assert_eq!(
            first_within(
                Point2::new(-100.0, 30.0),
                Point2::new(100.0, 30.0),
                centre,
                20.0
            ),
            None
        );
        assert_eq!(
            first_within(
                Point2::new(-100.0, 0.0),
                Point2::new(-50.0, 0.0),
                centre,
                20.0
            ),
            None
        );
    }

    /// A carromman lost from sight speeding at `pocket` (no striker seen
    /// elsewhere).
    fn lost_carromman(
        id: TrackId,
        piece: Piece,
        pocket: Pocket,
        last_seen: Point2<f64>,
        t: f64,
        speed: f64,
    ) -> LostTowardsPocket {
        LostTowardsPocket {
            id,
            piece,
            pocket,
            last_seen,
            t,
            speed,
            striker_elsewhere: false,
        }
    }

    #[test]
    fn a_piece_found_again_on_its_spot_and_lost_there_soon_was_a_mark() {
        let lost = lost_carromman(
            TrackId(29),
            Piece::White,
            Pocket::Se,
            Point2::new(190.0, -262.0),
            17.6,
            620.0,
        );
        let found = vec![(TrackId(46), lost)];
        let spot = Point2::new(184.0, -270.0);
        assert_eq!(found_on_the_spot(&found, TrackId(46), spot, 18.0), Some(0));
        // Another track, a track that moved off the spot, or one lost long
        // after: the piece it found stands.
        assert_eq!(found_on_the_spot(&found, TrackId(47), spot, 18.0), None);
        let moved = Point2::new(230.0, -262.0);
        assert_eq!(found_on_the_spot(&found, TrackId(46), moved, 18.0), None);
        assert_eq!(found_on_the_spot(&found, TrackId(46), spot, 19.0), None);
    }

    #[test]
    fn a_contact_is_read_where_the_discs_touched_not_where_they_overlap() {
        let centre = Point2::new(0.0, 0.0);
        // From outside reach: the first point within it, as first_within.
        let (a, b) = (Point2::new(-100.0, 10.0), Point2::new(100.0, 10.0));
        assert_eq!(
            contact_on_the_way(a, b, centre, 20.0),
            first_within(a, b, centre, 20.0)
        );
        // First seen already overlapping, moving east: traced back west to
        // where the path entered reach.
        let (a, b) = (Point2::new(-10.0, 0.0), Point2::new(30.0, 0.0));
        let at = contact_on_the_way(a, b, centre, 20.0).expect("within reach");
        assert!((at - Point2::new(-20.0, 0.0)).norm() < 1e-9, "{at:?}");
        // Never traced back more than one step: a slow disc deep inside
        // reach keeps the place it was seen.
        let (a, b) = (Point2::new(-1.0, 0.0), Point2::new(1.0, 0.0));
        assert_eq!(contact_on_the_way(a, b, centre, 20.0), Some(a));
        // Not moving: where it is.
        assert_eq!(contact_on_the_way(a, a, centre, 20.0), Some(a));
    }

    /// A stroke in which a black speeds at the SW pocket at 900 mm/s, last
    /// seen in frame 28 some 37 mm from its centre; from frame 32, where
    /// `back_out`, a black turns up on the pocket's lip 52 mm from its
    /// centre up the west cushion and creeps off north to rest: the black
    /// back off the jaws, a track of its own.
    fn black_into_the_sw_jaws(back_out: bool) -> Vec<SeenStroke> {
        let start = Point2::new(-150.0, -150.0);
        let pocket = pocket_centre(Pocket::Sw);
        let step = (pocket - start).normalize() * 30.0;
        let lip = pocket + nalgebra::Vector2::new(0.0, 52.0);
        run((0..80).map(move |i| {
            let mut discs = Vec::new();
            discs.extend(striker_struck_from_north(i));
            match i {
                0..20 => discs.push(disc(Piece::Black, start)),
                20..=28 => discs.push(disc(Piece::Black, start + step * f64::from(i - 20))),
                32.. if back_out => {
                    let crept = f64::from(i.min(38) - 32);
                    discs.push(disc(
                        Piece::Black,
                        lip + nalgebra::Vector2::new(0.0, 12.0 * crept - crept * crept),
                    ));
                }
                _ => {}
            }
            discs
        }))
    }

    #[test]
    fn a_piece_lost_by_a_pocket_and_born_anew_on_its_lip_coming_out_did_not_go_in() {
        one_stroke_pocketing_nothing(&black_into_the_sw_jaws(true), "came back off the jaws");
        one_stroke_pocketing_only(&black_into_the_sw_jaws(false), (Piece::Black, Pocket::Sw));
    }

    /// Clip 3796: a white lost from sight 50 mm from the NE pocket's centre
    /// at 17.567 s, taken as speeding at it, bounced off its jaws and was
    /// first seen again 58 mm from the centre 0.1 s later, creeping away
    /// along the north cushion: it came back out. Not one heading into the
    /// hole, nor one first seen farther out, or long after, or of another
    /// kind.
    #[test]
    fn a_piece_lost_speeding_at_a_pocket_and_first_seen_again_on_its_lip_came_back_out() {
        let lost = [lost_carromman(
            TrackId(16),
            Piece::White,
            Pocket::Ne,
            Point2::new(320.0, 303.0),
            17.567,
            766.0,
        )];
        let lip = StrokeMachineOptions::default().pocket_reach_mm + CARROMMAN_RADIUS_MM;
        let creeping_off = Vector2::new(-180.0, 120.0);
        let came_back = |piece: Piece, first_t: f64, first_at: (f64, f64), heading| {
            lost_by_a_pocket_came_back_out(
                &lost,
                piece,
                (first_t, Point2::new(first_at.0, first_at.1), heading),
                lip,
            )
        };
        assert_eq!(
            came_back(Piece::White, 17.667, (288.0, 344.0), creeping_off),
            Some(0)
        );
        assert_eq!(
            came_back(Piece::White, 17.667, (288.0, 344.0), -creeping_off),
            None
        );
        assert_eq!(
            came_back(Piece::White, 17.667, (270.0, 330.0), creeping_off),
            None
        );
        assert_eq!(
            came_back(Piece::White, 17.9, (288.0, 344.0), creeping_off),
            None
        );
        assert_eq!(
            came_back(Piece::Black, 17.667, (288.0, 344.0), creeping_off),
            None
        );
    }

    /// The striker struck from north at frame 10; a black at (-150, -150)
    /// hit at frame 20 speeding along `direction` for 3 frames, then lost
    /// from sight mid-board; seen again at `found_again_at` from frame 30.
    fn lost_black(
        direction: nalgebra::Vector2<f64>,
        found_again_at: Option<Point2<f64>>,
    ) -> Vec<SeenStroke> {
        lost_black_found_from(direction, found_again_at.map(|at| (30, at)))
    }

    /// As [`lost_black`], with a disc of its kind seen from frame `from` at
    /// `at` (`found_again`).
    fn lost_black_found_from(
        direction: nalgebra::Vector2<f64>,
        found_again: Option<(u32, Point2<f64>)>,
    ) -> Vec<SeenStroke> {
        let start = Point2::new(-150.0, -150.0);
        let step = direction.normalize() * 40.0;
        run((0..70).map(move |i| {
            let mut discs = Vec::new();
            discs.extend(striker_struck_from_north(i));
            if i < 20 {
                discs.push(disc(Piece::Black, start));
            } else if i < 23 {
                discs.push(disc(Piece::Black, start + step * f64::from(i - 19)));
            } else if let Some((_, at)) = found_again.filter(|&(from, _)| i >= from) {
                discs.push(disc(Piece::Black, at));
            }
            discs
        }))
    }

    /// A stroke in which a black slides at the SW pocket at `speed` (mm/s),
    /// slowing to a stop in frame 30, 40 mm from the pocket's centre, last
    /// seen in frame 27 at 3/10 of that speed, then unseen (on the lip, in
    /// the hole's shadow); seen there again from frame 35 where
    /// `seen_again`.
    fn black_lost_on_the_lip(speed: f64, seen_again: bool) -> Vec<SeenStroke> {
        let pocket = pocket_centre(Pocket::Sw);
        let towards = (Point2::new(-150.0, -150.0) - pocket).normalize();
        let lip = pocket + towards * 40.0;
        // Uniformly slowing from `speed` in frame 20 to rest in frame 30.
        let step = speed * FRAME_S / 2.0;
        let at = move |i: u32| {
            let left = f64::from(30 - i.clamp(20, 30));
            lip + towards * step * left * left / 10.0
        };
        run((0..80).map(move |i| {
            let mut discs = Vec::new();
            discs.extend(striker_struck_from_north(i));
            if i <= 27 || (seen_again && i >= 35) {
                discs.push(disc(Piece::Black, at(i)));
            }
            discs
        }))
    }

    #[test]
    fn a_piece_lost_creeping_onto_a_pockets_lip_and_seen_there_again_stayed() {
        one_stroke_pocketing_nothing(
            &black_lost_on_the_lip(300.0, true),
            "found again on its lip",
        );
        // Not seen again: it went in.
        one_stroke_pocketing_only(
            &black_lost_on_the_lip(300.0, false),
            (Piece::Black, Pocket::Sw),
        );
    }

    #[test]
    fn a_piece_bound_past_the_edge_over_a_pocket_s_hole_went_into_the_pocket() {
        let options = StrokeMachineOptions::default();
        // Clip 3433: lost 61 mm from the SW pocket's centre at 3.2 m/s, the
        // next frame's place 56 mm beyond it, the way between passing
        // 26 mm from it.
        let last_seen = Point2::new(-308.0, -302.0);
        let heading_to = last_seen + Vector2::new(-28.0, -103.0);
        assert!(matches!(
            where_it_went(&options, last_seen, heading_to),
            Exit::Pocket(Pocket::Sw)
        ));
        // Bound for the cushion 60 mm along from the hole: over the edge.
        let last_seen = Point2::new(-250.0, -300.0);
        let heading_to = last_seen + Vector2::new(-10.0, -103.0);
        assert!(matches!(
            where_it_went(&options, last_seen, heading_to),
            Exit::Edge(_)
        ));
    }

    #[test]
    fn a_piece_lost_speeding_straight_at_a_pocket_went_in() {
        let to_sw = pocket_centre(Pocket::Sw) - Point2::new(-150.0, -150.0);
        let strokes = lost_black(to_sw, None);
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        let pocketed: Vec<_> = pockets_of(&strokes[0]);
        assert!(
            pocketed.contains(&(Piece::Black, Some(Pocket::Sw))),
            "{pocketed:?}"
        );
        assert!(alerted(&strokes[0], "taken as pocketed"));
    }

    #[test]
    fn a_piece_seen_creeping_then_shot_off_along_the_same_line_went_in() {
        // Clip 2252's white: pushed 4 mm in the frame it was struck, then
        // 31 mm on along the same line towards the SW pocket, and lost.
        let start = Point2::new(-150.0, -150.0);
        let to_sw = (pocket_centre(Pocket::Sw) - start).normalize();
        let run_with_steps = |creep: f64, shot: nalgebra::Vector2<f64>| {
            run((0..70).map(move |i| {
                let mut discs = Vec::new();
                discs.extend(striker_struck_from_north(i));
                match i {
                    ..20 => discs.push(disc(Piece::Black, start)),
                    20 => discs.push(disc(Piece::Black, start + to_sw * creep)),
                    21 => discs.push(disc(Piece::Black, start + to_sw * creep + shot)),
                    _ => {}
                }
                discs
            }))
        };
        let strokes = run_with_steps(4.0, to_sw * 31.0);
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        assert!(
            pockets_of(&strokes[0]).contains(&(Piece::Black, Some(Pocket::Sw))),
            "{:?}",
            strokes[0].stroke
        );
        // Shot off at a right angle to its creep: a track pulled between
        // blobs, no course to go by.
        let across = nalgebra::Vector2::new(to_sw.y, -to_sw.x);
        let strokes = run_with_steps(4.0, across * 31.0);
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        assert!(
            pockets_of(&strokes[0]).is_empty(),
            "{:?}",
            strokes[0].stroke
        );
    }

    #[test]
    fn a_piece_sets_off_when_it_speeds_up_along_its_first_step() {
        let set_off =
            |path: &[(f64, f64)]| set_off_course_of(&recent(path), TrackId(3), TrackId(9));
        let creep_then_shot = set_off(&[(-284.0, -255.0), (-287.0, -258.0), (-302.0, -285.0)]);
        assert!(
            creep_then_shot
                .is_some_and(|v| (v - Vector2::new(-15.0, -27.0) / FRAME_S).norm() < 1e-6),
            "{creep_then_shot:?}"
        );
        // Slowing down, turned back, or lying still before: not setting off.
        assert_eq!(set_off(&[(0.0, 0.0), (40.0, -40.0), (60.0, -60.0)]), None);
        assert_eq!(set_off(&[(0.0, 0.0), (5.0, -5.0), (-30.0, -45.0)]), None);
        assert_eq!(set_off(&[(0.0, 0.0), (0.0, 0.0), (45.0, -45.0)]), None);
        // The same steps from among touching pieces: perhaps two pieces'.
        let mut in_a_cluster = recent(&[(28.0, 48.0), (36.0, 32.0), (76.0, -13.0)]);
        in_a_cluster[0]
            .discs
            .push((TrackId(4), Point2::new(28.0, 80.0), CARROMMAN_RADIUS_MM));
        assert_eq!(
            set_off_course_of(&in_a_cluster, TrackId(3), TrackId(9)),
            None
        );
        // Clip 2783: touched by the striker that set it off.
        assert!(set_off_course_of(&in_a_cluster, TrackId(3), TrackId(4)).is_some());
        in_a_cluster[0].discs[1].1 = Point2::new(28.0, 100.0);
        assert!(set_off_course_of(&in_a_cluster, TrackId(3), TrackId(9)).is_some());
    }

    #[test]
    fn a_second_striker_lost_at_a_pocket_is_the_carromman_lost_beside_it() {
        // A "striker" lost speeding at the SE pocket at (102, -86) while the
        // striker was seen elsewhere; a white lost from sight mid-board at
        // `white_at` a frame later.
        let pocketed = |white_at: Point2<f64>| {
            let mut machine = StrokeMachine::new(StrokeMachineOptions::default());
            machine.lost_towards_pocket.push(LostTowardsPocket {
                id: TrackId(163),
                piece: Piece::Striker,
                pocket: Pocket::Se,
                last_seen: Point2::new(102.0, -86.0),
                t: 42.1,
                speed: 2000.0,
                striker_elsewhere: true,
            });
            machine
                .lost_mid_board
                .push((Piece::White, white_at, 42.133));
            let mut stroke = stroke_seen(SeenCount::default());
            machine.record_lost_towards_pockets(&mut stroke);
            pockets_of(&stroke)
        };
        // The white the striker's track jumped onto went in.
        assert_eq!(
            pocketed(Point2::new(78.0, -72.0)),
            [(Piece::White, Some(Pocket::Se))]
        );
        // A white lost far off is another matter: the "striker" stays one.
        assert_eq!(
            pocketed(Point2::new(-150.0, 120.0)),
            [(Piece::Striker, Some(Pocket::Se))]
        );
    }

    /// Clip 6129: the striker lost from sight at (-288, -140) mm speeding
    /// at the SW pocket stopped 32 mm on, read as a white, where a black
    /// lay at the last rest (the black it knocked in). Not pocketed. With a
    /// white lying there at the last rest, or the "white" at rest past
    /// [`STOPPED_SHORT_MM`], or a striker resting elsewhere, nothing says
    /// the striker stopped, and it went in.
    #[test]
    fn a_striker_lost_at_a_pocket_with_a_new_carromman_resting_just_on_stopped_there() {
        let pocketed = |lay_before: Piece, rests_at: Point2<f64>, striker_at_rest: bool| {
            let mut machine = StrokeMachine::new(StrokeMachineOptions::default());
            let spot = Point2::new(-291.0, -167.0);
            machine.lying_at_last_rest = vec![(TrackId(4), spot, lay_before)];
            machine.lost_towards_pocket.push(lost_carromman(
                TrackId(19),
                Piece::Striker,
                Pocket::Sw,
                Point2::new(-288.0, -140.0),
                10.1,
                900.0,
            ));
            let mut tracks = vec![track_of(30, Piece::White, rests_at)];
            if striker_at_rest {
                tracks.push(track_of(31, Piece::Striker, Point2::new(100.0, 100.0)));
            }
            let mut stroke = stroke_seen(SeenCount::default());
            machine.drop_strikers_stopped_short(&mut stroke, &at_rest_with(tracks));
            machine.record_lost_towards_pockets(&mut stroke);
            pockets_of(&stroke)
        };
        let stopped_at = Point2::new(-294.0, -171.0);
        assert_eq!(pocketed(Piece::Black, stopped_at, false), []);
        let went_in = [(Piece::Striker, Some(Pocket::Sw))];
        assert_eq!(pocketed(Piece::White, stopped_at, false), went_in);
        assert_eq!(
            pocketed(Piece::Black, Point2::new(-150.0, -140.0), false),
            went_in
        );
        assert_eq!(pocketed(Piece::Black, stopped_at, true), went_in);
    }

    #[test]
    fn a_carromman_lost_amid_the_breaks_cluster_is_not_taken_as_pocketed() {
        // Clip 3713: a black lost 48 mm from the centre in the break,
        // speeding at the SW pocket.
        let pocketed = |last_seen: Point2<f64>, set_out: bool| {
            let mut machine = StrokeMachine::new(StrokeMachineOptions::default());
            machine.set_out_for_the_break = set_out;
            machine.lost_towards_pocket.push(lost_carromman(
                TrackId(12),
                Piece::Black,
                Pocket::Sw,
                last_seen,
                2.8,
                2500.0,
            ));
            let mut stroke = stroke_seen(SeenCount::BREAK);
            machine.record_lost_towards_pockets(&mut stroke);
            pockets_of(&stroke)
        };
        let amid = Point2::new(-14.0, -46.0);
        assert_eq!(pocketed(amid, true), []);
        // Beyond the cluster, or in a stroke not from the break
        // arrangement: taken as pocketed.
        let black_sw = [(Piece::Black, Some(Pocket::Sw))];
        assert_eq!(pocketed(Point2::new(-150.0, -150.0), true), black_sw);
        assert_eq!(pocketed(amid, false), black_sw);
    }

    /// Frames in which track 3 was seen along `path`, one a frame.
    fn recent(path: &[(f64, f64)]) -> VecDeque<Positions> {
        path.iter()
            .enumerate()
            .map(|(i, &(x, y))| Positions {
                t: i as f64 * FRAME_S,
                discs: vec![(TrackId(3), Point2::new(x, y), CARROMMAN_RADIUS_MM)],
                tentative: Vec::new(),
                hidden: Vec::new(),
            })
            .collect()
    }

    #[test]
    fn a_piece_running_into_one_that_lay_still_is_not_its_twin() {
        // Clip 2416: a white (track 64) runs at 1 m/s into a white lying
        // still (track 40), whose blurred centre reads 24 mm from it where
        // they touch, then goes on, deflected, and is lost by the pocket.
        let frames = |other_at: &dyn Fn(usize) -> Point2<f64>| -> VecDeque<Positions> {
            (0..8)
                .map(|i| {
                    let mut discs = vec![(TrackId(40), other_at(i), CARROMMAN_RADIUS_MM)];
                    if i >= 3 {
                        let lost = Point2::new(-120.0 + 32.0 * (i as f64 - 3.0), 0.0);
                        discs.push((TrackId(64), lost, CARROMMAN_RADIUS_MM));
                    }
                    Positions {
                        t: i as f64 * FRAME_S,
                        discs,
                        tentative: Vec::new(),
                        hidden: Vec::new(),
                    }
                })
                .collect()
        };
        // Met in frame 6 (lost at 24 mm short of the other's centre), lost
        // from sight after frame 7.
        let lying = frames(&|_| Point2::new(0.0, 0.0));
        let last_seen = Point2::new(8.0, 0.0);
        assert!(!followed_the_same_piece(
            &lying,
            TrackId(64),
            last_seen,
            TrackId(40)
        ));
        // A second track that came along with it is its twin.
        let alongside = frames(&|i| Point2::new(-100.0 + 32.0 * (i as f64 - 3.0), 4.0));
        assert!(followed_the_same_piece(
            &alongside,
            TrackId(64),
            last_seen,
            TrackId(40)
        ));
        // A second track picked up on the lying piece itself, then lost as
        // the piece moves off, came from nowhere else: a twin.
        let mut doubled = frames(&|i| Point2::new(if i < 6 { 0.0 } else { 30.0 }, 0.0));
        for (i, f) in doubled.iter_mut().enumerate() {
            f.discs.retain(|(id, _, _)| *id == TrackId(40));
            if i >= 5 {
                f.discs
                    .push((TrackId(64), Point2::new(3.0, 1.0), CARROMMAN_RADIUS_MM));
            }
        }
        let on_the_spot = Point2::new(3.0, 1.0);
        assert!(followed_the_same_piece(
            &doubled,
            TrackId(64),
            on_the_spot,
            TrackId(40)
        ));
    }

    #[test]
    fn a_track_that_kept_on_a_struck_piece_as_it_ran_off_is_its_twin() {
        // Clip 3678: track 64 runs at 1 m/s into track 40 lying still at
        // the origin, meeting it in frame 6; from frame 7 the struck piece
        // runs off at 1.2 m/s, and 64 is seen ahead of it, 20 mm on, in
        // the frames `ahead` (then lost), where a piece that struck another
        // falls behind.
        let run = |ahead: std::ops::Range<usize>| -> VecDeque<Positions> {
            (0..10)
                .map(|i| {
                    let x = |i: usize| 40.0 * (i.max(6) as f64 - 6.0);
                    let mut discs = vec![(40, (x(i), 0.0))];
                    if (3..=6).contains(&i) {
                        discs.push((64, (-120.0 + 32.0 * (i as f64 - 3.0), 0.0)));
                    } else if ahead.contains(&i) {
                        discs.push((64, (x(i) + 20.0, 0.0)));
                    }
                    positions(i as f64 * FRAME_S, discs)
                })
                .collect()
        };
        let twin = |ahead: std::ops::Range<usize>| {
            let recent = run(ahead.clone());
            let last = ahead.end.max(7) - 1;
            let last_seen = recent[last].disc(TrackId(64)).map(|(at, _)| at);
            followed_the_same_piece(&recent, TrackId(64), last_seen.unwrap(), TrackId(40))
        };
        // Two frames on the struck piece as it ran off: one piece.
        assert!(twin(7..9));
        // One: the meeting's blur, still two pieces.
        assert!(!twin(7..8));
    }

    #[test]
    fn two_tracks_moving_in_step_along_one_course_are_one_blurred_piece() {
        // Clip 2980: tracks 64 and 65 on one white sliding SW at about 45 mm
        // a frame, 64 some 35 mm ahead of 65 on its course, both seen in
        // every frame; 65 is lost after the fifth.
        let course = [
            (-172.0, -86.0),
            (-198.0, -121.0),
            (-220.0, -156.0),
            (-242.0, -182.0),
        ];
        let frames = |ahead: Vector2<f64>, pace: f64| -> VecDeque<Positions> {
            course
                .iter()
                .enumerate()
                .map(|(i, &(x, y))| {
                    let behind = Point2::new(x, y);
                    let first = Point2::new(course[0].0, course[0].1);
                    let front = first + (behind - first) * pace + ahead;
                    Positions {
                        t: i as f64 * FRAME_S,
                        discs: vec![
                            (TrackId(65), behind, CARROMMAN_RADIUS_MM),
                            (TrackId(64), front, CARROMMAN_RADIUS_MM),
                        ],
                        tentative: Vec::new(),
                        hidden: Vec::new(),
                    }
                })
                .collect()
        };
        let last_seen = Point2::new(-242.0, -182.0);
        let twins = |recent: &VecDeque<Positions>| {
            followed_the_same_piece(recent, TrackId(65), last_seen, TrackId(64))
        };
        assert!(twins(&frames(Vector2::new(-21.0, -28.0), 1.0)));
        // Side by side, a diameter and a half apart across the course: two
        // pieces.
        assert!(!twins(&frames(Vector2::new(40.0, -30.0), 1.0)));
        // Ahead on the course but half as fast again: the piece it struck.
        assert!(!twins(&frames(Vector2::new(-21.0, -28.0), 1.5)));
    }

    #[test]
    fn a_piece_knocked_beside_a_pocket_goes_in_whatever_the_rough_angle() {
        // Clip 2144: a white lying 80 mm from the NE pocket; a fragment of the
        // blurred striker passes 25 mm from it, and the white is never seen again.
        let lying = Point2::new(269.0, 325.0);
        let passing = |from: (f64, f64), to: (f64, f64)| -> VecDeque<Positions> {
            [from, to]
                .iter()
                .enumerate()
                .map(|(i, &(x, y))| Positions {
                    t: i as f64 * FRAME_S,
                    discs: vec![(TrackId(7), Point2::new(x, y), CARROMMAN_RADIUS_MM)],
                    tentative: Vec::new(),
                    hidden: Vec::new(),
                })
                .collect()
        };
        let struck = passing((266.0, 300.0), (284.0, 230.0));
        // Straight along the measured knock, no pocket lies ahead...
        assert_eq!(
            pocket_ahead(lying, lying - Point2::new(266.0, 300.0), 4300.0),
            None
        );
        // ...but the NE pocket is beside it, and the knock points its way.
        assert_eq!(
            knocked_towards(&struck, TrackId(3), lying, TrackId(9)).map(|(pocket, _)| pocket),
            Some(Pocket::Ne)
        );
        // Knocked from the pocket's side, it goes away from the pocket.
        let from_the_corner = passing((300.0, 350.0), (296.0, 345.0));
        assert_eq!(
            knocked_towards(&from_the_corner, TrackId(3), lying, TrackId(9)),
            None
        );
        // Far from any pocket the rough angle decides nothing.
        let mid_board = Point2::new(150.0, 200.0);
        let struck_mid = passing((147.0, 175.0), (165.0, 105.0));
        assert_eq!(
            knocked_towards(&struck_mid, TrackId(3), mid_board, TrackId(9)),
            None
        );
    }

    #[test]
    fn a_piece_seen_lying_where_it_was_after_a_disc_met_it_was_not_knocked() {
        // Clip 3017: a white lying at (330, 311) mm by the NE pocket; a black
        // comes to rest against it, the white is seen on its spot for three
        // more frames, then lost from sight.
        let lying = Point2::new(330.0, 311.0);
        let black = [
            (334.0, 286.0),
            (316.0, 286.0),
            (310.0, 284.0),
            (309.0, 284.0),
        ];
        let frames = |white_seen_after: bool| -> VecDeque<Positions> {
            (0..7)
                .map(|i| {
                    let (x, y) = black[i.min(black.len() - 1)];
                    let mut discs = vec![(TrackId(13), Point2::new(x, y), CARROMMAN_RADIUS_MM)];
                    if i == 0 || (white_seen_after && i >= 3) {
                        discs.push((TrackId(14), lying, CARROMMAN_RADIUS_MM));
                    }
                    Positions {
                        t: i as f64 * FRAME_S,
                        discs,
                        tentative: Vec::new(),
                        hidden: Vec::new(),
                    }
                })
                .collect()
        };
        // Not seen again after the black met it: knocked towards the pocket.
        assert_eq!(
            knocked_towards(&frames(false), TrackId(14), lying, TrackId(9))
                .map(|(pocket, _)| pocket),
            Some(Pocket::Ne)
        );
        // Seen lying there after: the black did not move it.
        assert_eq!(
            knocked_towards(&frames(true), TrackId(14), lying, TrackId(9)),
            None
        );
    }

    #[test]
    fn a_piece_lost_creeping_away_from_a_pocket_on_its_lip_is_not_pocketed() {
        // Clip 3017: a white lost at rest 40 mm from the NE pocket's centre.
        let centre = pocket_centre(Pocket::Ne);
        let on_the_lip = centre - Vector2::new(16.0, 35.0);
        assert!(stops_short_of_a_hole_from(
            on_the_lip,
            Vector2::new(0.0, 70.0)
        ));
        // Running at the hole, it drops in.
        assert!(!stops_short_of_a_hole_from(
            on_the_lip,
            Vector2::new(0.0, 400.0)
        ));
        // The striker shot away west; the white, nudged, creeps west along
        // the lip at 70 mm/s, away from the hole, and goes from sight there.
        // (One lost creeping towards the hole is taken as going in: see
        // `a_piece_lost_creeping_onto_a_pockets_lip_and_seen_there_again_stayed`.)
        let rest = Point2::new(-200.0, 100.0);
        let creep = Vector2::new(-70.0 * FRAME_S, 0.0);
        let start = on_the_lip - creep * 8.0;
        let strokes = run((0..70).map(|i: u32| {
            let striker = match i {
                0..10 => placed_north(),
                10..20 => placed_north() + (rest - placed_north()) * (f64::from(i - 10) / 10.0),
                _ => rest,
            };
            let mut discs = vec![disc(Piece::Striker, striker)];
            match i {
                0..10 => discs.push(disc(Piece::White, start)),
                10..=18 => discs.push(disc(Piece::White, start + creep * f64::from(i - 10))),
                _ => {}
            }
            discs
        }));
        assert_eq!(strokes.len(), 1);
        assert!(
            strokes[0].stroke.pocketed.is_empty(),
            "{:?}",
            strokes[0].stroke
        );
        assert!(
            alerted(&strokes[0], "pocket's lip"),
            "{:?}",
            strokes[0].vision.alerts
        );
    }

    #[test]
    fn a_piece_knocked_from_rest_goes_at_least_as_fast_as_what_knocked_it() {
        // Clip 2200's fourth stroke: a white lying mid-board is seen once
        // 15 mm on towards the SW pocket, 375 mm away, and lost. The step
        // alone (460 mm/s) stops short; the striker that met it went at
        // about 1450 mm/s the same way.
        let (lay, moved) = (Point2::new(-132.0, -19.0), Point2::new(-140.0, -32.0));
        let striker_path = [(-45.0, 127.0), (-70.0, 86.0), (-95.0, 45.0), (-120.0, 4.0)];
        let mut frames: VecDeque<Positions> = striker_path
            .iter()
            .enumerate()
            .map(|(i, &(x, y))| Positions {
                t: i as f64 * FRAME_S,
                discs: vec![
                    (TrackId(3), lay, CARROMMAN_RADIUS_MM),
                    (TrackId(9), Point2::new(x, y), STRIKER_RADIUS_MM),
                ],
                tentative: Vec::new(),
                hidden: Vec::new(),
            })
            .collect();
        frames.push_back(Positions {
            t: 4.0 * FRAME_S,
            discs: vec![(TrackId(3), moved, CARROMMAN_RADIUS_MM)],
            tentative: Vec::new(),
            hidden: Vec::new(),
        });
        let knocked = knocked_from_rest(&frames, TrackId(3)).unwrap();
        let step_speed = knocked.velocity.norm();
        assert_eq!(pocket_ahead(moved, knocked.velocity, step_speed), None);
        let speed = knocked_speed(&frames, &knocked, TrackId(9));
        assert!((speed - 1440.0).abs() < 20.0, "{speed}");
        assert_eq!(
            pocket_ahead(moved, knocked.velocity, speed),
            Some(Pocket::Sw)
        );
        // With nothing seen meeting it, the step is all there is.
        let alone = keeping(&frames, |_, id| id == TrackId(3));
        assert_eq!(knocked_speed(&alone, &knocked, TrackId(9)), step_speed);
    }

    #[test]
    fn a_piece_seen_once_off_where_it_lay_goes_along_that_step() {
        // Clip 2200's white: lying by the SE pocket, seen once 65 mm on, lost.
        let lay = (227.0, -153.0);
        let mut knocked = recent(&[lay, lay, lay, lay, (244.0, -180.0), (261.0, -208.0)]);
        knocked.remove(4); // unseen for a frame
        let velocity = knocked_from_rest(&knocked, TrackId(3)).map(|k| k.velocity);
        assert!(
            velocity.is_some_and(|v| (v.norm() - 970.0).abs() < 10.0),
            "{velocity:?}"
        );
        let velocity = velocity.unwrap_or_default();
        assert_eq!(
            pocket_ahead(Point2::new(261.0, -208.0), velocity, velocity.norm()),
            Some(Pocket::Se)
        );
        // Moving before: no place it lay; lying for two frames only: not
        // surely still.
        assert_eq!(
            knocked_from_rest(
                &recent(&[(0.0, 0.0), (9.0, -9.0), (18.0, -18.0), (60.0, -60.0)]),
                TrackId(3)
            ),
            None
        );
        assert_eq!(
            knocked_from_rest(&recent(&[lay, lay, (261.0, -208.0)]), TrackId(3)),
            None
        );
        // Clip 2783: the last sighting where it lay pulled 3.4 mm off the
        // spot by the striker's blob, then 27 mm a frame at the SW pocket.
        let pulled = recent(&[
            (-277.1, -253.2),
            (-277.0, -253.2),
            (-277.0, -253.2),
            (-276.0, -250.0),
            (-294.0, -270.0),
        ]);
        let velocity = knocked_from_rest(&pulled, TrackId(3)).map(|k| k.velocity);
        assert!(
            velocity.is_some_and(|v| (v - Vector2::new(-18.0, -20.0) / FRAME_S).norm() < 1e-6),
            "{velocity:?}"
        );
        // Creeping a few mm a frame is no lying still.
        let creeping = recent(&[(0.0, 0.0), (3.0, 0.0), (6.0, 0.0), (9.0, 0.0), (40.0, 0.0)]);
        assert_eq!(knocked_from_rest(&creeping, TrackId(3)), None);
    }

    #[test]
    fn only_a_piece_seen_on_a_steady_course_heads_anywhere() {
        let course = |path: &[(f64, f64)]| steady_course_of(&recent(path), TrackId(3));
        // Sliding straight on, slowing a little: the last step's velocity.
        let sliding = course(&[(0.0, 0.0), (40.0, -40.0), (78.0, -78.0)]);
        assert!(
            sliding.is_some_and(|v| (v - Vector2::new(38.0, -38.0) / FRAME_S).norm() < 1e-6),
            "{sliding:?}"
        );
        // Knocked about in a cluster: turned back, or stopped and shot off.
        assert_eq!(course(&[(0.0, 0.0), (40.0, -40.0), (10.0, -50.0)]), None);
        assert_eq!(course(&[(0.0, 0.0), (5.0, -5.0), (45.0, -45.0)]), None);
        // Seen twice only: no course to judge by.
        assert_eq!(course(&[(40.0, -40.0), (78.0, -78.0)]), None);
    }

    #[test]
    fn a_heading_turned_off_a_cushion_is_not_the_course_seen() {
        // Clip 2206's black: seen heading east-south-east into the east
        // cushion, lost there, and turned by the tracker towards the SW
        // pocket 885 mm away.
        let seen = Vector2::new(71.0, -61.0) / (3.0 * FRAME_S);
        assert!(!along_the_course(Vector2::new(-78.0, -60.0), seen));
        assert!(along_the_course(Vector2::new(70.0, -58.0), seen));
    }

    #[test]
    fn a_piece_found_again_beyond_its_reach_is_another_disc() {
        // Clip 2838's white, knocked into the NE pocket at 700 mm/s from
        // where it lay beside it.
        let lost = lost_carromman(
            TrackId(44),
            Piece::White,
            Pocket::Ne,
            Point2::new(274.0, 339.0),
            13.63,
            700.0,
        );
        // A white found 470 mm away 0.37 s later, farther than 700 mm/s
        // goes: one that lay there unseen.
        assert!(lost.found_elsewhere(Point2::new(-199.0, 340.0), 14.0));
        // Found on the pocket's lip, it stopped there.
        assert!(!lost.found_elsewhere(Point2::new(320.0, 330.0), 14.0));
        // Within reach of a fast piece, found late and far, it may have
        // come back off the cushions.
        let fast = LostTowardsPocket {
            speed: 2000.0,
            ..lost
        };
        assert!(!fast.found_elsewhere(Point2::new(-199.0, 340.0), 14.0));
        // Far and soon is another disc, whatever the speed.
        assert!(fast.found_elsewhere(Point2::new(-199.0, 340.0), 13.8));
    }

    #[test]
    fn a_piece_lost_at_a_pocket_then_seen_going_in_is_pocketed_once() {
        let lost = lost_carromman(
            TrackId(7),
            Piece::White,
            Pocket::Se,
            Point2::new(217.0, -275.0),
            1.0,
            2000.0,
        );
        let seen_in = |t| PocketedPiece {
            piece: Piece::White,
            pocket: Some(Pocket::Se),
            t: Some(t),
            late: false,
        };
        // Picked up again as a track of its own and seen going in: once.
        let mut stroke = stroke_seen(SeenCount::default());
        stroke.stroke.pocketed = vec![seen_in(1.2)];
        lost.record_in(&mut stroke);
        assert_eq!(stroke.stroke.pocketed.len(), 1, "{:?}", stroke.stroke);
        // A white into that pocket before it was lost is another piece.
        let mut stroke = stroke_seen(SeenCount::default());
        stroke.stroke.pocketed = vec![seen_in(0.5)];
        lost.record_in(&mut stroke);
        assert_eq!(stroke.stroke.pocketed.len(), 2, "{:?}", stroke.stroke);
        assert!(alerted(&stroke, "taken as pocketed"));
    }

    #[test]
    fn a_piece_lost_speeding_at_a_cushion_or_found_again_did_not_go_in() {
        let to_sw = pocket_centre(Pocket::Sw) - Point2::new(-150.0, -150.0);
        let at_the_west_cushion = nalgebra::Vector2::new(-1.0, 0.2);
        for strokes in [
            lost_black(at_the_west_cushion, None),
            lost_black(to_sw, Some(Point2::new(-250.0, -250.0))),
        ] {
            assert_eq!(strokes.len(), 1, "{strokes:?}");
            assert!(
                strokes[0]
                    .stroke
                    .pocketed
                    .iter()
                    .all(|p| p.piece != Piece::Black),
                "{strokes:?}"
            );
        }
    }

    #[test]
    fn a_disc_found_across_the_board_just_after_a_piece_sped_into_a_pocket_is_another() {
        let to_sw = pocket_centre(Pocket::Sw) - Point2::new(-150.0, -150.0);
        // 270 mm from where the black was lost, off to its side.
        let far_away = Point2::new(15.0, -335.0);
        let black_in_sw = |strokes: &[SeenStroke]| {
            assert_eq!(strokes.len(), 1, "{strokes:?}");
            pockets_of(&strokes[0]).contains(&(Piece::Black, Some(Pocket::Sw)))
        };
        // Taken for the lost black a few frames after it was lost: the black
        // went in all the same.
        assert!(black_in_sw(&lost_black_found_from(
            to_sw,
            Some((24, far_away))
        )));
        // Found there a third of a second later, it may be the black come
        // back.
        assert!(!black_in_sw(&lost_black_found_from(
            to_sw,
            Some((35, far_away))
        )));
    }

    /// Frame `i` of a stroke from north in which a `piece` lying at
    /// `start` is knocked along `step` (mm a frame) from frame 20, seen for
    /// three frames, and lost.
    fn knocked_at_the_frame(
        piece: Piece,
        start: Point2<f64>,
        step: nalgebra::Vector2<f64>,
        i: u32,
    ) -> Vec<Detection> {
        let mut discs = Vec::new();
        discs.extend(striker_struck_from_north(i));
        match i {
            ..20 => discs.push(disc(piece, start)),
            20..23 => discs.push(disc(piece, start + step * f64::from(i - 19))),
            _ => {}
        }
        discs
    }

    /// The stroke of [`knocked_at_the_frame`] with a black.
    fn black_run_at_the_frame(start: Point2<f64>, step: nalgebra::Vector2<f64>) -> Vec<SeenStroke> {
        run((0..70).map(move |i| knocked_at_the_frame(Piece::Black, start, step, i)))
    }

    /// The pieces the one stroke in `strokes` sent off the board.
    fn overboard(strokes: &[SeenStroke]) -> Vec<Piece> {
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        strokes[0]
            .stroke
            .overboard
            .iter()
            .map(|o| o.piece)
            .collect()
    }

    #[test]
    fn a_piece_leaves_the_board_only_seen_running_hard_at_the_frame() {
        // 2.4 m/s at the west frame for three frames: over it.
        let hard = black_run_at_the_frame(
            Point2::new(-100.0, 60.0),
            nalgebra::Vector2::new(-80.0, 0.0),
        );
        assert_eq!(overboard(&hard), vec![Piece::Black], "{hard:?}");
        // 1.35 m/s, lost against the frame: it rebounds.
        let gentle = black_run_at_the_frame(
            Point2::new(-220.0, 60.0),
            nalgebra::Vector2::new(-45.0, 0.0),
        );
        assert!(overboard(&gentle).is_empty(), "{gentle:?}");
        assert!(alerted(&gentle[0], "by the cushion"), "{gentle:?}");
    }

    #[test]
    fn a_departure_is_renamed_by_the_count_only_where_no_print_of_that_kind_was_dropped() {
        // A white knocked hard over the west frame; a black lying by the
        // centre is lost from sight, and a white slides into sight (the
        // black, read as one): the count at rest misses only a black.
        let stroke = |print_dropped: bool| {
            let start = Point2::new(-100.0, 60.0);
            let step = nalgebra::Vector2::new(-80.0, 0.0);
            let frames = (0..70u32).map(move |i| {
                let mut discs = knocked_at_the_frame(Piece::White, start, step, i);
                // The striker stops where it was last seen.
                if i >= 14 {
                    let stopped = placed_north() - nalgebra::Vector2::new(0.0, 200.0);
                    discs.push(disc(Piece::Striker, stopped));
                }
                if i < 22 {
                    discs.push(disc(Piece::Black, Point2::new(20.0, -5.0)));
                }
                if i >= 24 {
                    let x = -100.0 + 8.0 * f64::from(i.min(34));
                    discs.push(disc(Piece::White, Point2::new(x, -150.0)));
                }
                (discs, Vec::new())
            });
            run_calling_at_strikes(frames, |machine| {
                if print_dropped {
                    machine.print_dropped(0.7, Piece::Black, "a black dropped as a print".into());
                }
            })
        };
        let plain = stroke(false);
        assert_eq!(
            overboard(&plain),
            vec![Piece::Black],
            "{:?} {:?}",
            plain[0].vision.alerts,
            plain[0].vision.rest
        );
        let printed = stroke(true);
        assert!(
            !overboard(&printed).contains(&Piece::Black),
            "{:?}",
            printed[0].vision.alerts
        );
    }

    #[test]
    fn a_run_at_the_frame_under_an_arm_just_over_that_side_is_no_jump() {
        // Clip 3643: a track runs at 2.4 m/s at north's frame, north's arm
        // over the board until frame 21, as it withdraws after the stroke.
        let run_north = |arm_until: u32| {
            let start = Point2::new(-20.0, 100.0);
            let step = nalgebra::Vector2::new(0.0, 80.0);
            run_with_hands((0..70).map(move |i| {
                (
                    knocked_at_the_frame(Piece::White, start, step, i),
                    arm_over_the_board(Seat::North, 5..arm_until, i),
                )
            }))
        };
        // The arm gone from sight well before (0.3 s and more): a jump.
        assert_eq!(overboard(&run_north(12)), vec![Piece::White]);
        // The arm over that side a frame before the run began: its blobs.
        let under_the_arm = run_north(21);
        assert!(overboard(&under_the_arm).is_empty(), "{under_the_arm:?}");
    }

    #[test]
    fn a_piece_found_again_after_it_left_the_board_came_back_and_says_so() {
        // 2.4 m/s at the west frame, lost there; then a black lies still
        // by the west cushion, where it could have come back to.
        let start = Point2::new(-100.0, 60.0);
        let step = nalgebra::Vector2::new(-80.0, 0.0);
        let back = run((0..70).map(move |i| {
            let mut discs = knocked_at_the_frame(Piece::Black, start, step, i);
            if i >= 30 {
                discs.push(disc(Piece::Black, Point2::new(-330.0, 70.0)));
            }
            discs
        }));
        assert!(overboard(&back).is_empty(), "{back:?}");
        assert!(
            alerted(&back[0], "came back off the frame"),
            "the log does not say why: {back:?}"
        );
    }

    /// A black lying at (-100, 60) knocked west from frame 20, seen at
    /// each of `xs` (mm, one a frame), then lost.
    fn black_seen_going_west(xs: &'static [f64]) -> Vec<SeenStroke> {
        run((0..70).map(move |i| {
            let mut discs = Vec::new();
            discs.extend(striker_struck_from_north(i));
            let at = match i {
                ..20 => Some(-100.0),
                20.. => xs.get((i - 20) as usize).copied(),
            };
            discs.extend(at.map(|x| disc(Piece::Black, Point2::new(x, 60.0))));
            discs
        }))
    }

    #[test]
    fn a_piece_last_seen_on_the_cushion_after_a_hard_run_left_the_board() {
        // 2.4 m/s at the west frame, then seen once more on the cushion
        // itself, 22 mm on (the hit on the frame took its speed): over it.
        let jumped = black_seen_going_west(&[-180.0, -260.0, -340.0, -362.0]);
        assert_eq!(overboard(&jumped), vec![Piece::Black], "{jumped:?}");
        // The same run at 1.35 m/s: it rebounds, wherever it was lost.
        let gentle = black_seen_going_west(&[-235.0, -280.0, -325.0, -362.0]);
        assert!(overboard(&gentle).is_empty(), "{gentle:?}");
        // Short of the cushion a slow last step is a piece slowing down.
        let slowing = black_seen_going_west(&[-180.0, -260.0, -330.0, -345.0]);
        assert!(overboard(&slowing).is_empty(), "{slowing:?}");
    }

    #[test]
    fn two_tracks_leaving_the_board_nearer_than_a_diameter_are_one_piece() {
        // Two blacks at rest `apart` mm apart north to south, both knocked
        // west at 2.4 m/s from frame 20 and lost at the frame together.
        let pair_run_off = |apart: f64| {
            let step = nalgebra::Vector2::new(-80.0, 0.0);
            run((0..70).map(move |i| {
                let mut discs = Vec::new();
                discs.extend(striker_struck_from_north(i));
                for start in [Point2::new(-100.0, 60.0), Point2::new(-100.0, 60.0 + apart)] {
                    match i {
                        ..20 => discs.push(disc(Piece::Black, start)),
                        20..23 => discs.push(disc(Piece::Black, start + step * f64::from(i - 19))),
                        _ => {}
                    }
                }
                discs
            }))
        };
        let overboard = |strokes: &[SeenStroke]| {
            assert_eq!(strokes.len(), 1, "{strokes:?}");
            strokes[0].stroke.overboard.len()
        };
        // 14 mm apart: one blurred black followed twice.
        let twins = pair_run_off(14.0);
        assert_eq!(overboard(&twins), 1, "{twins:?}");
        assert!(alerted(&twins[0], "twice at once"), "{twins:?}");
        // 40 mm apart: two blacks.
        let pair = pair_run_off(40.0);
        assert_eq!(overboard(&pair), 2, "{pair:?}");
    }

    #[test]
    fn a_twin_track_picked_up_behind_a_piece_running_off_is_the_same_piece() {
        // A black knocked west at 3 m/s from frame 20, seen three frames,
        // and a second disc on its blur, 40 mm behind it and `aside` mm off
        // its course, seen twice: last seen apart, they meet the frame
        // together.
        let black_and_twin = |aside: f64| {
            run((0..70).map(move |i| {
                let mut discs = Vec::new();
                discs.extend(striker_struck_from_north(i));
                let x = -40.0 - 100.0 * f64::from(i.saturating_sub(19));
                match i {
                    ..20 => discs.push(disc(Piece::Black, Point2::new(-40.0, 60.0))),
                    20..23 => discs.push(disc(Piece::Black, Point2::new(x, 60.0))),
                    _ => {}
                }
                if (21..23).contains(&i) {
                    discs.push(disc(Piece::Black, Point2::new(x + 40.0, 60.0 + aside)));
                }
                discs
            }))
        };
        // 10 mm aside, the twin is followed to the frame and counted once.
        let strokes = black_and_twin(10.0);
        assert_eq!(overboard(&strokes), vec![Piece::Black], "{strokes:?}");
        assert!(alerted(&strokes[0], "twice at once"), "{strokes:?}");
        // On the black's very course the tracker drops the twin itself
        // (`track::blur`): one black, with nothing to count twice.
        let strokes = black_and_twin(0.0);
        assert_eq!(overboard(&strokes), vec![Piece::Black], "{strokes:?}");
        assert!(!alerted(&strokes[0], "twice"), "{strokes:?}");
    }

    /// A black lying in the south-west goes unseen as a striker is struck
    /// from the north, and is picked up already flying at the west frame from
    /// `start`, one `step` a frame, in `sightings` frames.
    fn black_picked_up_in_flight(
        start: Point2<f64>,
        step: nalgebra::Vector2<f64>,
        sightings: u32,
    ) -> Vec<SeenStroke> {
        run((0..70).map(move |i| {
            let mut discs = Vec::new();
            discs.extend(striker_struck_from_north(i));
            if i < 12 {
                discs.push(disc(Piece::Black, Point2::new(-150.0, -150.0)));
            } else if (20..20 + sightings).contains(&i) {
                discs.push(disc(Piece::Black, start + step * f64::from(i - 20)));
            }
            discs
        }))
    }

    #[test]
    fn a_piece_picked_up_short_of_the_frame_running_hard_at_it_left_the_board() {
        let west = |mm_a_frame: f64| nalgebra::Vector2::new(-mm_a_frame, 0.0);
        // 2.55 m/s, first seen 255 mm short of the cushion and lost 85 mm
        // short of it, heading 10 mm past the surface's edge: its first
        // (tentative) sighting makes the two steps of a run at the frame.
        let flung = black_picked_up_in_flight(Point2::new(-125.0, 60.0), west(85.0), 3);
        assert_eq!(overboard(&flung), vec![Piece::Black], "{flung:?}");
        // 1.2 m/s over the same last sighting: it rebounds.
        let slow = black_picked_up_in_flight(Point2::new(-215.0, 60.0), west(40.0), 3);
        assert!(overboard(&slow).is_empty(), "{slow:?}");
        // Seen twice only, at 3.3 m/s with the frame within a step, and
        // never again: flung off it.
        let twice = black_picked_up_in_flight(Point2::new(-200.0, 60.0), west(110.0), 2);
        assert_eq!(overboard(&twice), vec![Piece::Black], "{twice:?}");
        assert!(alerted(&twice[0], "seen only as it flew"), "{twice:?}");
        // Twice at 1.5 m/s is no run at the frame, however near it.
        let slow_twice = black_picked_up_in_flight(Point2::new(-250.0, 60.0), west(50.0), 2);
        assert!(overboard(&slow_twice).is_empty(), "{slow_twice:?}");
        // At 3.3 m/s, but two steps short of the frame: it may yet be
        // stopped by a piece.
        let short = black_picked_up_in_flight(Point2::new(-80.0, 60.0), west(110.0), 2);
        assert!(overboard(&short).is_empty(), "{short:?}");
    }

    /// As [`black_picked_up_in_flight`] seen twice flying west at 3.3 m/s,
    /// then a black running east from the west cushion near where it met it
    /// at `back` mm a frame from frame 25, and the arms of `arms` over the
    /// board until frame 22.
    fn black_flung_west(back: Option<f64>, arms: &'static [Seat]) -> Vec<SeenStroke> {
        run_with_hands((0..70).map(move |i| {
            let mut discs = Vec::new();
            discs.extend(striker_struck_from_north(i));
            if i < 12 {
                discs.push(disc(Piece::Black, Point2::new(-150.0, -150.0)));
            } else if (20..22).contains(&i) {
                let x = -200.0 - 110.0 * f64::from(i - 20);
                discs.push(disc(Piece::Black, Point2::new(x, 60.0)));
            }
            if let Some(back) = back.filter(|_| (25..32).contains(&i)) {
                let x = -340.0 + back * f64::from(i - 25);
                discs.push(disc(Piece::Black, Point2::new(x, 40.0)));
            }
            let hands = if i < 22 {
                arms.iter().map(|&seat| arm_of(seat)).collect()
            } else {
                Vec::new()
            };
            (discs, hands)
        }))
    }

    #[test]
    fn a_piece_flung_at_the_frame_left_it_unless_seen_coming_back() {
        // Nothing seen near the west cushion afterwards: off the board.
        let gone = black_flung_west(None, &[]);
        assert_eq!(overboard(&gone), vec![Piece::Black], "{gone:?}");
        // A black running back off the cushion there at 2.4 m/s: it
        // bounced.
        let bounced = black_flung_west(Some(80.0), &[]);
        assert!(overboard(&bounced).is_empty(), "{bounced:?}");
        assert!(
            alerted(&bounced[0], "came back off the cushion"),
            "{bounced:?}"
        );
        // One creeping away from it at 0.6 m/s is another piece.
        let creeping = black_flung_west(Some(20.0), &[]);
        assert_eq!(overboard(&creeping), vec![Piece::Black], "{creeping:?}");
        // A west arm over the board just before: the new track may have
        // leapt to what the hand left by the frame (clip 2512).
        let by_an_arm = black_flung_west(None, &[Seat::West]);
        assert!(overboard(&by_an_arm).is_empty(), "{by_an_arm:?}");
        // Another seat's arm proves nothing about the west frame.
        let by_north_arm = black_flung_west(None, &[Seat::North]);
        assert_eq!(
            overboard(&by_north_arm),
            vec![Piece::Black],
            "{by_north_arm:?}"
        );
    }

    #[test]
    fn a_flung_track_overlapping_a_disc_running_back_was_a_twin_on_its_blur() {
        // Clip 2546: a black bounced off the east cushion; a second track on
        // its blur, lying over it, was taken running on at the frame.
        let flung = FlungAtTheFrame {
            piece: Piece::Black,
            off: LeftTheBoard {
                id: TrackId(40),
                last_seen: Point2::new(280.0, -21.0),
                meets_frame_at: Point2::new(354.1, 0.0),
                seen_t: 1.0,
                speed: 4_000.0,
            },
            contact_t: 1.02,
            impact: 4_000.0,
            axis: 0,
            side: 1.0,
            t: 1.1,
        };
        let recent_with_other_at = |from: (f64, f64), at: (f64, f64)| {
            let frame = |t: f64, flung_at: (f64, f64), other_at: (f64, f64)| Positions {
                t,
                discs: [(40, flung_at), (29, other_at)]
                    .map(|(id, (x, y))| (TrackId(id), Point2::new(x, y), 15.0))
                    .to_vec(),
                tentative: Vec::new(),
                hidden: Vec::new(),
            };
            VecDeque::from([
                frame(1.0 - FRAME_S, (150.0, -60.0), from),
                frame(1.0, (280.0, -21.0), at),
            ])
        };
        // Running back west at 2 m/s, 30 mm from its last sighting.
        assert!(flung.came_back(&recent_with_other_at((316.0, -16.0), (251.0, -27.0))));
        // As fast, but 60 mm from it: another piece.
        assert!(!flung.came_back(&recent_with_other_at((285.0, -16.0), (220.0, -27.0))));
        // Overlapping it, but running on east: a twin going the same way.
        assert!(!flung.came_back(&recent_with_other_at((190.0, -16.0), (255.0, -27.0))));
    }

    #[test]
    fn a_piece_off_the_board_is_found_again_only_where_it_could_have_bounced_back_to() {
        let off = LeftTheBoard {
            id: TrackId(4),
            last_seen: Point2::new(-360.0, 0.0),
            meets_frame_at: Point2::new(-354.1, 0.0),
            seen_t: 1.0,
            speed: 2_400.0,
        };
        // Back off the west cushion a few frames later.
        assert!(off.could_be_back_at(Point2::new(-300.0, 10.0), 1.1));
        // A disc across the board as it went is another piece...
        assert!(!off.could_be_back_at(Point2::new(0.0, 0.0), 1.1));
        // ...but half a second later it could be the piece, come back.
        assert!(off.could_be_back_at(Point2::new(0.0, 0.0), 1.5));
    }

    #[test]
    fn a_piece_last_seen_on_the_cushion_reached_the_frame_whatever_its_track_heads() {
        let contact = CONTACT_LINE_MM;
        // Dev clip 2895: seen 2 mm short of the line, its track turned
        // back off the cushion by the prediction.
        let seen = Point2::new(contact - 2.0, -16.0);
        let turned_back = Point2::new(contact - 67.0, -28.0);
        assert_eq!(reached_the_frame(seen, turned_back), [1.0, 0.0]);
        // A piece a carromman's width short of it, heading back, had not.
        let short = Point2::new(contact - 16.0, -16.0);
        assert_eq!(reached_the_frame(short, turned_back), [0.0, 0.0]);
        // One heading past the edge within a frame had, wherever seen.
        let heading_out = Point2::new(-(HALF_SURFACE_MM + 10.0), 40.0);
        assert_eq!(
            reached_the_frame(Point2::new(-300.0, 40.0), heading_out),
            [-1.0, 0.0]
        );
    }

    #[test]
    fn a_resting_track_that_leaps_to_a_blob_by_the_frame_did_not_jump_it() {
        // Clip 2333: a white's track, unseen under the withdrawing hand,
        // taken once for a fragment of the hand by the south frame.
        let strokes = run((0..70).map(|i| {
            let mut discs = Vec::new();
            discs.extend(striker_struck_from_north(i));
            match i {
                ..20 => discs.push(disc(Piece::White, Point2::new(-20.0, -262.0))),
                22 => discs.push(disc(Piece::White, Point2::new(-3.0, -356.0))),
                _ => {}
            }
            discs
        }));
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        assert!(strokes[0].stroke.overboard.is_empty(), "{strokes:?}");
    }

    #[test]
    fn a_piece_that_vanishes_mid_board_is_an_alert_not_a_pocketing() {
        let frames = (0..50).map(|i| {
            let mut discs = Vec::new();
            discs.extend(striker_struck_from_north(i));
            if i < 12 {
                discs.push(disc(Piece::White, Point2::new(-150.0, 0.0)));
            }
            discs
        });
        let strokes = run(frames);
        let stroke = &strokes[0];
        assert!(stroke
            .stroke
            .pocketed
            .iter()
            .all(|p| p.piece != Piece::White));
        assert!(
            alerted(stroke, "lost sight of a white"),
            "{:?}",
            stroke.vision.alerts
        );
    }

    /// A stroke from north in which a black speeds at the NE pocket and its
    /// track is lost after frame `last_seen` (20: by the pocket); with
    /// `twin_from`, a second disc is seen 18 mm beside it from that frame
    /// on (14: the black blurred, found twice; 0: another black that lay
    /// with it), and that disc goes on to stop against the cushion by the
    /// pocket and rests there.
    fn black_heading_for_the_ne_pocket(twin_from: Option<u32>, last_seen: u32) -> Vec<SeenStroke> {
        run(black_heading_for_the_ne_pocket_seen(twin_from, last_seen))
    }

    /// The detections of [`black_heading_for_the_ne_pocket`].
    fn black_heading_for_the_ne_pocket_seen(
        twin_from: Option<u32>,
        last_seen: u32,
    ) -> impl Iterator<Item = Vec<Detection>> {
        let black = |i: u32| {
            Point2::new(200.0, 200.0) + Vector2::new(14.0, 14.0) * f64::from(i.clamp(12, 20) - 12)
        };
        let beside = Vector2::new(10.0, -15.0);
        (0..60u32).map(move |i| {
            let striker_at =
                placed_north() - Vector2::new(0.0, 30.0) * f64::from(i.clamp(9, 14) - 9);
            let mut discs = vec![disc(Piece::Striker, striker_at)];
            if i <= last_seen {
                discs.push(disc(Piece::Black, black(i)));
            }
            if twin_from.is_some_and(|from| i >= from) {
                discs.push(disc(Piece::Black, black(i) + beside));
            }
            discs
        })
    }

    #[test]
    fn a_piece_lost_by_or_heading_for_a_pocket_while_a_twin_track_went_on_did_not_go_in() {
        // Seen going in by the pocket (20), or lost 127 mm short of it
        // heading straight at it (16).
        for last_seen in [20, 16] {
            let alone = black_heading_for_the_ne_pocket(None, last_seen);
            assert_eq!(alone.len(), 1);
            assert_eq!(pockets_of(&alone[0]), [(Piece::Black, Some(Pocket::Ne))]);
            let twinned = black_heading_for_the_ne_pocket(Some(14), last_seen);
            assert_eq!(twinned.len(), 1);
            assert!(
                twinned[0].stroke.pocketed.is_empty(),
                "{last_seen}: {:?}",
                twinned[0].stroke.pocketed
            );
            assert!(alerted(&twinned[0], "followed on by another track"));
        }
    }

    #[test]
    fn a_pocketing_withdrawn_for_a_track_resting_that_followed_it_stands_where_the_count_misses_its_kind(
    ) {
        // Two blacks lay together before the stroke; one went in, and the
        // track of the other, seen with it on its way, rests by the pocket.
        let strokes = black_heading_for_the_ne_pocket(Some(0), 20);
        assert_eq!(strokes.len(), 1);
        assert_eq!(
            pockets_of(&strokes[0]),
            [(Piece::Black, Some(Pocket::Ne))],
            "{:?}",
            strokes[0].vision.alerts
        );
        assert!(alerted(&strokes[0], "went in after all"));
        // The same, but a white comes into sight, sliding, as
        // the pieces run: the count of all carrommen is whole, so the black
        // missed was read in another colour, not gone.
        let strokes = run(black_heading_for_the_ne_pocket_seen(Some(0), 20)
            .enumerate()
            .map(|(i, mut discs)| {
                if i >= 15 {
                    let x = -100.0 + 8.0 * (i.min(25) as f64);
                    discs.push(disc(Piece::White, Point2::new(x, -50.0)));
                }
                discs
            }));
        assert_eq!(strokes.len(), 1);
        assert!(
            strokes[0].stroke.pocketed.is_empty(),
            "{:?} {:?}",
            strokes[0].stroke.pocketed,
            strokes[0].vision.alerts
        );
        assert!(!alerted(&strokes[0], "went in after all"));
    }

    /// A stroke struck from north in which a white runs at 1190 mm/s for
    /// the NW pocket, seen last at frame 19 73 mm short of its centre;
    /// `stalled_until`: it is seen again on its frame-19 spot up to that
    /// frame (its blur's tail, as in clip 3562's last stroke).
    fn white_running_for_the_nw_pocket(stalled_until: u32) -> Vec<SeenStroke> {
        let white = |i: u32| {
            Point2::new(-100.0, 100.0) + Vector2::new(-28.0, 28.0) * f64::from(i.clamp(12, 19) - 12)
        };
        run((0..60u32).map(move |i| {
            let striker_at =
                placed_north() - Vector2::new(0.0, 30.0) * f64::from(i.clamp(9, 14) - 9);
            let mut discs = vec![disc(Piece::Striker, striker_at)];
            if i <= 19 {
                discs.push(disc(Piece::White, white(i)));
            } else if i <= stalled_until {
                discs.push(disc(Piece::White, white(19) + Vector2::new(1.0, -0.5)));
            }
            discs
        }))
    }

    #[test]
    fn a_fast_piece_seen_last_on_its_spot_before_ran_on_along_its_course() {
        for stalled_until in [19, 20] {
            let strokes = white_running_for_the_nw_pocket(stalled_until);
            assert_eq!(strokes.len(), 1);
            assert_eq!(
                pockets_of(&strokes[0]),
                [(Piece::White, Some(Pocket::Nw))],
                "{stalled_until}: {:?}",
                strokes[0].vision.alerts
            );
        }
        // Stopped dead there, it stays in sight: it did not go in.
        let stopped = white_running_for_the_nw_pocket(59);
        assert_eq!(stopped.len(), 1);
        assert!(stopped[0].stroke.pocketed.is_empty());
    }

    /// Asserts `strokes` is one stroke that pocketed nothing, with an alert
    /// saying `alert`.
    fn one_stroke_pocketing_nothing(strokes: &[SeenStroke], alert: &str) {
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        assert!(pockets_of(&strokes[0]).is_empty(), "{:?}", strokes[0]);
        assert!(
            alerted(&strokes[0], alert),
            "{:?}",
            strokes[0].vision.alerts
        );
    }

    /// Asserts `strokes` is one stroke, `(piece, pocket)` its only
    /// pocketing.
    fn one_stroke_pocketing_only(strokes: &[SeenStroke], (piece, pocket): (Piece, Pocket)) {
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        assert_eq!(
            pockets_of(&strokes[0]),
            vec![(piece, Some(pocket))],
            "{:?}",
            strokes[0]
        );
    }

    /// Asserts one stroke, `(piece, pocket)` its only pocketing, with an
    /// alert saying `alert`.
    fn one_stroke_pocketing(strokes: &[SeenStroke], (piece, pocket): (Piece, Pocket), alert: &str) {
        one_stroke_pocketing_only(strokes, (piece, pocket));
        assert!(
            alerted(&strokes[0], alert),
            "{:?}",
            strokes[0].vision.alerts
        );
    }

    /// A stroke struck from north in which a black runs along `black`, seen
    /// up to frame `black_until`, and a `twin` disc (its kind, the frames it
    /// is seen in, its offset from the black) goes with it; `vanishing` (a
    /// piece, where it lies still, its last frame) is then gone, so that the
    /// count at rest misses it.
    fn black_run_with_twin(
        frames: u32,
        black: impl Fn(u32) -> Point2<f64> + 'static,
        black_until: u32,
        twin: Option<(Piece, std::ops::RangeInclusive<u32>, Vector2<f64>)>,
        (vanishing, lying, last): (Piece, Point2<f64>, u32),
    ) -> Vec<SeenStroke> {
        run((0..frames).map(move |i| {
            let striker_at =
                placed_north() - Vector2::new(0.0, 30.0) * f64::from(i.clamp(9, 14) - 9);
            let mut discs = vec![disc(Piece::Striker, striker_at)];
            if i <= black_until {
                discs.push(disc(Piece::Black, black(i)));
            }
            if let Some((piece, seen, beside)) = &twin {
                if seen.contains(&i) {
                    discs.push(disc(*piece, black(i) + beside));
                }
            }
            if i <= last {
                discs.push(disc(vanishing, lying));
            }
            discs
        }))
    }

    /// A black set off from the centre towards the SE pocket, lost from
    /// sight mid-board (too far out to be taken as heading in), while a
    /// striker-sized disc beside it (seen from frame 13 on, where
    /// `striker_twin`) went on with it into the pocket; the striker rests at
    /// north, and a white vanishes at rest, so the count misses two kinds.
    fn black_lost_mid_board_with_a_striker_twin(striker_twin: bool) -> Vec<SeenStroke> {
        let pocket = pocket_centre(Pocket::Se);
        let from = Point2::new(-60.0, 60.0);
        let step = (pocket - from).normalize() * 20.0;
        let twin = striker_twin.then_some((Piece::Striker, 13..=40, Vector2::new(6.0, 6.0)));
        black_run_with_twin(
            75,
            move |i| from + step * f64::from(i.clamp(12, 40) - 12),
            20,
            twin,
            (Piece::White, Point2::new(-250.0, -150.0), 20),
        )
    }

    /// Tracks as the machine is handed them: the striker (track 1) placed
    /// at north and shot at 1200 mm/s at the SW pocket hits a white (2)
    /// lying on its line after `run_frames` frames of 40 mm. From the hit
    /// on, track 1 runs on at `step_after` mm a frame into the pocket and
    /// is lost there, while the white's track takes a disc 10 mm past where
    /// the striker was at the hit and lies still there.
    fn white_hit_full_on_and_track_1_ran_on(step_after: f64, run_frames: u32) -> Vec<SeenStroke> {
        let (from, launch) = (Point2::new(-100.0, placed_north().y), 10);
        let pocket = pocket_centre(Pocket::Sw);
        let along = (pocket - from).normalize();
        let touching = STRIKER_RADIUS_MM + CARROMMAN_RADIUS_MM;
        let hit = launch + run_frames;
        let contact = from + along * 40.0 * f64::from(run_frames);
        let white_at = contact + along * touching;
        let at = |track: &Track, position: Point2<f64>, velocity: Vector2<f64>| {
            let mut track = track.clone();
            (track.position, track.velocity) = (position, velocity);
            track
        };
        let (striker, white) = (
            track_of(1, Piece::Striker, from),
            track_of(2, Piece::White, white_at),
        );
        let track_1_at = |i: u32| contact + along * step_after * f64::from(i - hit);
        let lost_at = (hit + 1..)
            .find(|&i| (track_1_at(i) - pocket).norm() < 60.0)
            .unwrap_or(60);
        let mut machine = StrokeMachine::new(StrokeMachineOptions::default());
        for i in 0..90u32 {
            let mut tracks = Vec::new();
            let mut events = Vec::new();
            match i {
                _ if i < launch => tracks.push(striker.clone()),
                _ if i <= hit => tracks.push(at(
                    &striker,
                    from + along * 40.0 * f64::from(i - launch),
                    along * 1200.0,
                )),
                _ if i < lost_at => {
                    tracks.push(at(&striker, track_1_at(i), along * step_after * 30.0))
                }
                _ => {}
            }
            if i == lost_at + 3 {
                let last_seen = track_1_at(lost_at - 1);
                events.push(TrackEvent::Vanished {
                    id: TrackId(1),
                    piece: Piece::Striker,
                    last_seen,
                    heading_to: last_seen + along * step_after,
                    speed: step_after * 30.0,
                    t: f64::from(i) * FRAME_S,
                    hand_near: false,
                });
            }
            match i {
                _ if i <= hit => tracks.push(white.clone()),
                _ => tracks.push(at(&white, contact + along * 10.0, Vector2::zeros())),
            }
            machine.push(&struck_from_north_at(launch, i, tracks, events));
        }
        machine.finish()
    }

    #[test]
    fn a_striker_track_that_speeds_up_as_it_hits_a_piece_at_rest_has_swapped_with_it() {
        let pocketed = |strokes: &[SeenStroke]| -> Vec<Piece> {
            strokes
                .iter()
                .flat_map(|s| s.stroke.pocketed.iter().map(|p| p.piece))
                .collect()
        };
        // 40 mm a frame before the hit, 70 after: the white went in.
        let swapped = white_hit_full_on_and_track_1_ran_on(70.0, 10);
        assert_eq!(pocketed(&swapped), vec![Piece::White], "{swapped:?}");
        assert!(alerted(&swapped[0], "swapped pieces"), "{swapped:?}");
        // The striker's track still follows the striker, which went in:
        // slower after the hit, or faster after one step from rest (that
        // step was part of a frame's: the track was setting off).
        for (step_after, run_frames) in [(30.0, 10), (70.0, 1)] {
            let not_swapped = white_hit_full_on_and_track_1_ran_on(step_after, run_frames);
            assert_eq!(
                pocketed(&not_swapped),
                vec![Piece::Striker],
                "{step_after} mm after {run_frames} frames: {not_swapped:?}"
            );
            assert!(!alerted(&not_swapped[0], "swapped pieces"));
        }
    }

    /// Tracks as the machine is handed them: the striker (track 1, read as
    /// `striker_seen_as` once it hits) placed at north and shot at
    /// 1200 mm/s at the SW pocket, where a black (2) lies on its line. The
    /// striker's track goes unseen as it hits, and is found next on the
    /// black running on at 900 mm/s, which it follows into the
    /// pocket; the black's own
    /// track is held unseen on its spot and dropped six frames later. The
    /// striker, stopped short, is found by a new track (3). With
    /// `black_found`, the black's track finds a disc on its spot again.
    /// With `twin`, track 3 is born three frames before the hit on the
    /// striker's blur, 10 mm behind it, and goes with it (seen in the hit's
    /// frame, as the striker's own track is then).
    fn black_knocked_in_by_a_track_on_the_striker(
        striker_seen_as: Piece,
        black_found: bool,
        twin: bool,
    ) -> Vec<SeenStroke> {
        black_knocked_in_by_track_1(Piece::Striker, striker_seen_as, black_found, twin)
    }

    /// As [`black_knocked_in_by_a_track_on_the_striker`], track 1 read as
    /// `first_seen_as` before it hits (if not a striker, lying at
    /// (-100, -100) and running 120 mm to the black), a hand seen at north
    /// until it is struck.
    fn black_knocked_in_by_track_1(
        first_seen_as: Piece,
        striker_seen_as: Piece,
        black_found: bool,
        twin: bool,
    ) -> Vec<SeenStroke> {
        // A carromman lies well off the base lines, long enough to be taken
        // for still, and runs a shorter way.
        let (from, launch, run_frames) = if first_seen_as == Piece::Striker {
            (Point2::new(-100.0, placed_north().y), 10, 10)
        } else {
            (Point2::new(-100.0, -100.0), 20, 3)
        };
        let along = (pocket_centre(Pocket::Sw) - from).normalize();
        let (hit, black_at) = (
            launch + run_frames,
            from + along * (40.0 * f64::from(run_frames) + 36.0),
        );
        let contact = black_at - along * 36.0;
        let at = |track: &Track, position: Point2<f64>, velocity: Vector2<f64>, missed: u32| {
            let mut track = track.clone();
            (track.position, track.velocity) = (position, velocity);
            track.unseen_for(missed)
        };
        let (striker, black, stopped) = (
            track_of(1, first_seen_as, from),
            track_of(2, Piece::Black, black_at),
            track_of(3, Piece::Striker, contact),
        );
        let mut taker = striker.clone();
        taker.piece = striker_seen_as;
        let speed = along * 1200.0;
        let taker_at = |i: u32| black_at + along * 30.0 * f64::from(i - hit);
        let lost_at = (1..)
            .map(|i| hit + 1 + i)
            .find(|&i| (taker_at(i) - pocket_centre(Pocket::Sw)).norm() < 60.0)
            .unwrap_or(40);
        let mut machine = StrokeMachine::new(StrokeMachineOptions::default());
        for i in 0..70u32 {
            let mut tracks = Vec::new();
            let mut events = Vec::new();
            let vanished =
                |id: u32, piece: Piece, last_seen: Point2<f64>, heading_to| TrackEvent::Vanished {
                    id: TrackId(id),
                    piece,
                    last_seen,
                    heading_to,
                    speed: 1200.0,
                    t: f64::from(i) * FRAME_S,
                    hand_near: false,
                };
            match i {
                _ if i < launch => tracks.push(striker.clone()),
                _ if i <= hit => {
                    let position = from + along * 40.0 * f64::from(i - launch);
                    let missed = u32::from(i == hit && !twin);
                    tracks.push(at(&striker, position, speed, missed));
                    if twin && i + 3 >= hit {
                        tracks.push(at(&stopped, position - along * 10.0, speed, 0));
                    }
                }
                _ if i <= lost_at => tracks.push(at(
                    &taker,
                    taker_at(i),
                    speed / 4.0 * 3.0,
                    u32::from(i == lost_at),
                )),
                _ => {}
            }
            if i == lost_at + 3 {
                let last_seen = taker_at(lost_at - 1);
                events.push(vanished(
                    1,
                    striker_seen_as,
                    last_seen,
                    last_seen + along * 30.0,
                ));
            }
            // The stopped striker's track: born on its blur before the hit
            // (the twin), or where it stopped the frame after.
            if (twin && i + 3 == hit) || (!twin && i == hit + 1) {
                events.push(TrackEvent::Appeared {
                    id: TrackId(3),
                    piece: Piece::Striker,
                    at: contact,
                    t: f64::from(i) * FRAME_S,
                    found_again: None,
                });
            }
            if i > hit {
                tracks.push(at(&stopped, contact, Vector2::zeros(), 0));
            }
            match i {
                _ if i <= hit => tracks.push(black.clone()),
                _ if black_found => tracks.push(black.clone()),
                _ if i < hit + 7 => tracks.push(at(&black, black_at, Vector2::zeros(), i - hit)),
                _ if i == hit + 7 => events.push(vanished(2, Piece::Black, black_at, black_at)),
                _ => {}
            }
            machine.push(&struck_from_north_at(launch, i, tracks, events));
        }
        machine.finish()
    }

    /// A stroke struck from north at frame 10 in which a black, struck at
    /// frame 20, is first seen as a row of three discs `apart` mm apart
    /// (tracks 3, 4 and 5) speeding at the SW corner. Track 3 is seen once
    /// more, then lost heading into the SW pocket; track 5 comes back off
    /// the cushions to rest. Track 2, another black, lies still throughout.
    /// Track 3 is lost going at `lost_speed` (mm/s).
    fn black_first_seen_as_a_row_of_discs(apart: f64, lost_speed: f64) -> Vec<SeenStroke> {
        let at = |track: &Track, position: Point2<f64>, velocity: Vector2<f64>, missed: u32| {
            let mut track = track.clone();
            (track.position, track.velocity) = (position, velocity);
            track.unseen_for(missed)
        };
        let from = placed_north();
        let striker = track_of(1, Piece::Striker, from);
        let resting = track_of(2, Piece::Black, Point2::new(150.0, 100.0));
        let row: Vec<Track> = (0..3)
            .map(|k| {
                track_of(
                    3 + k,
                    Piece::Black,
                    Point2::new(-160.0 - apart * f64::from(k), -260.0),
                )
            })
            .collect();
        let (lost, back) = (&row[0], &row[2]);
        let lost_at = Point2::new(-270.0, -300.0);
        let rest_at = Point2::new(60.0, -320.0);
        // Track 5, back off the cushions from frame 22, slows to rest at
        // `rest_at` by frame 32.
        let back_at = |i: u32| {
            let left = f64::from(32 - i.clamp(22, 32));
            rest_at - Vector2::new(3.0 * left * left, -2.0 * left)
        };
        let mut machine = StrokeMachine::new(StrokeMachineOptions::default());
        for i in 0..70u32 {
            let mut tracks = vec![resting.clone()];
            let mut events = Vec::new();
            let striker_at = from - Vector2::new(0.0, 40.0 * f64::from(i.clamp(10, 18) - 10));
            let striker_speed = if (10..18).contains(&i) { 1200.0 } else { 0.0 };
            tracks.push(at(
                &striker,
                striker_at,
                Vector2::new(0.0, -striker_speed),
                0,
            ));
            let fast = Vector2::new(-1800.0, -600.0);
            match i {
                20 => tracks.extend(row.iter().map(|t| at(t, t.position, fast, 0))),
                21 => {
                    tracks.push(at(lost, lost.position, fast, 1));
                    tracks.push(at(back, Point2::new(-300.0, -290.0), fast, 0));
                }
                22 => tracks.push(at(lost, lost_at, Vector2::new(-3300.0, -1200.0), 0)),
                23 | 24 => tracks.push(at(lost, lost_at, Vector2::new(-3300.0, -1200.0), i - 22)),
                25 => events.push(TrackEvent::Vanished {
                    id: lost.id,
                    piece: Piece::Black,
                    last_seen: lost_at,
                    heading_to: pocket_centre(Pocket::Sw),
                    speed: lost_speed,
                    t: f64::from(i) * FRAME_S,
                    hand_near: false,
                }),
                _ => {}
            }
            if i >= 22 {
                let step = back_at(i + 1) - back_at(i);
                tracks.push(at(back, back_at(i), step / FRAME_S, 0));
            }
            machine.push(&struck_from_north_at(10, i, tracks, events));
        }
        machine.finish()
    }

    #[test]
    fn a_track_born_on_one_blur_with_another_seen_after_it_is_no_piece_leaving() {
        one_stroke_pocketing_nothing(
            &black_first_seen_as_a_row_of_discs(20.0, 3500.0),
            "one piece seen twice, not a piece leaving",
        );
        // Discs no nearer than carrommen can lie are no one blur: the lost
        // one went in. So did it where track 5, seen 87 mm from its last
        // sighting a frame later, was beyond its reach.
        for (apart, lost_speed) in [(35.0, 3500.0), (20.0, 900.0)] {
            let went_in = black_first_seen_as_a_row_of_discs(apart, lost_speed);
            assert_eq!(went_in.len(), 1, "{went_in:?}");
            let pocketed = pocketed_in(&went_in);
            assert_eq!(pocketed, [(Piece::Black, Some(Pocket::Sw))], "{went_in:?}");
        }
    }

    #[test]
    fn a_track_on_the_striker_that_ran_over_a_piece_lost_there_took_that_piece_in() {
        for (seen_as, twin) in [
            (Piece::Striker, false),
            (Piece::White, false),
            (Piece::White, true),
        ] {
            let strokes = black_knocked_in_by_a_track_on_the_striker(seen_as, false, twin);
            one_stroke_pocketing(
                &strokes,
                (Piece::Black, Pocket::Sw),
                "a track on the striker ran over a black",
            );
            // The black found again on its spot: whatever went in, it was
            // not that black.
            let found = black_knocked_in_by_a_track_on_the_striker(seen_as, true, twin);
            assert_eq!(found.len(), 1, "{found:?}");
            assert!(
                !pocketed_in(&found).contains(&(Piece::Black, Some(Pocket::Sw)))
                    && !alerted(&found[0], "ran over a black"),
                "{found:?}"
            );
        }
        // The striker never seen, the stroke read from a white that shot
        // off: its track is the white's own, which ran over nothing of
        // another's.
        let unseen = black_knocked_in_by_track_1(Piece::White, Piece::White, false, false);
        assert_eq!(unseen.len(), 1, "{unseen:?}");
        assert!(
            alerted(&unseen[0], "the striker was not seen")
                && !alerted(&unseen[0], "ran over a black"),
            "{unseen:?}"
        );
    }

    #[test]
    fn a_striker_sized_twin_of_a_carromman_lost_mid_board_went_in_as_that_carromman() {
        one_stroke_pocketing(
            &black_lost_mid_board_with_a_striker_twin(true),
            (Piece::Black, Pocket::Se),
            "had followed a black lost from sight mid-board",
        );
        // Without the twin, the black is only lost mid-board: nothing went in.
        let strokes = black_lost_mid_board_with_a_striker_twin(false);
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        assert!(pockets_of(&strokes[0]).is_empty(), "{:?}", strokes[0]);
    }

    #[test]
    fn a_striker_going_in_with_a_carromman_at_once_is_that_carromman_seen_twice() {
        // The count at rest, inflated before the stroke, misses two blacks;
        // the striker rests on the board.
        let before = SeenCount {
            white: 1,
            black: 3,
            queen: false,
        };
        let rest = || {
            at_rest_with(vec![
                track_of(1, Piece::White, Point2::new(-200.0, 0.0)),
                track_of(2, Piece::Black, Point2::new(100.0, 100.0)),
                track_of(3, Piece::Striker, Point2::new(0.0, -250.0)),
            ])
        };
        let going_in = |piece, pocket, t| PocketedPiece {
            piece,
            pocket: Some(pocket),
            t: Some(t),
            late: false,
        };
        let mut stroke = stroke_seen(before);
        stroke.stroke.pocketed = vec![
            going_in(Piece::Striker, Pocket::Sw, 1.0),
            going_in(Piece::Black, Pocket::Sw, 1.033),
        ];
        reconcile_exits(&mut stroke, &rest(), &[], &[]);
        assert_eq!(
            pockets_of(&stroke),
            vec![(Piece::Black, Some(Pocket::Sw))],
            "{:?}",
            stroke.stroke
        );
        assert!(alerted(
            &stroke,
            "went in with a black: one piece seen twice"
        ));
        // Into another pocket, or well apart in time, it is another piece,
        // of the one kind the count still misses.
        for (pocket, t) in [(Pocket::Nw, 1.0), (Pocket::Sw, 1.5)] {
            let mut stroke = stroke_seen(before);
            stroke.stroke.pocketed = vec![
                going_in(Piece::Striker, pocket, t),
                going_in(Piece::Black, Pocket::Sw, 1.033),
            ];
            reconcile_exits(&mut stroke, &rest(), &[], &[]);
            let mut pockets = pockets_of(&stroke);
            pockets.sort_by_key(|(_, pocket)| pocket.map(|p| p.name()));
            assert_eq!(pockets.len(), 2, "{:?}", stroke.stroke);
            assert!(pockets.iter().all(|(piece, _)| *piece == Piece::Black));
        }
    }

    /// A black shot into the NE pocket, followed from frame 13 by a twin
    /// track beside it that is seen three frames longer and goes in too
    /// (or, `twin_goes_in` false, is never seen); another black vanishes at
    /// rest, so the count at rest misses two blacks.
    fn black_and_twin_into_the_ne_pocket(twin_goes_in: bool) -> Vec<SeenStroke> {
        let twin = twin_goes_in.then_some((Piece::Black, 13..=23, Vector2::new(8.0, -12.0)));
        black_run_with_twin(
            70,
            |i| {
                Point2::new(200.0, 200.0)
                    + Vector2::new(14.0, 14.0) * f64::from(i.clamp(12, 23) - 12)
            },
            20,
            twin,
            (Piece::Black, Point2::new(-200.0, -100.0), 25),
        )
    }

    #[test]
    fn a_piece_and_a_twin_track_going_into_one_pocket_went_in_once_whatever_the_count() {
        one_stroke_pocketing(
            &black_and_twin_into_the_ne_pocket(true),
            (Piece::Black, Pocket::Ne),
            "one piece, counted once",
        );
        let strokes = black_and_twin_into_the_ne_pocket(false);
        assert_eq!(
            pockets_of(&strokes[0]),
            vec![(Piece::Black, Some(Pocket::Ne))],
            "{:?}",
            strokes[0]
        );
    }

    /// A striker read as a white, first seen speeding off south's base
    /// lines straight at the NE pocket after south's arm left, stopping
    /// 300 mm on and then lost from sight there (clip 2543's striker went
    /// unseen at rest); with `twin`, a second white disc beside it on its
    /// blur from its second frame to its eighth; from frame `told_from` on
    /// the striker's disc is told the striker by its size; with
    /// `another_striker`, so is a disc sliding slowly elsewhere from frame 22.
    fn white_striker_at_the_ne_pocket(
        twin: bool,
        told_from: u32,
        another_striker: bool,
    ) -> Vec<SeenStroke> {
        let from = Point2::new(
            60.0,
            30.0 - (BASE_BAND_NEAR_EDGE_FROM_CENTRE_MM + BASE_BAND_FAR_EDGE_FROM_CENTRE_MM) / 2.0,
        );
        let step = (pocket_centre(Pocket::Ne) - from).normalize() * 30.0;
        let aside = Vector2::new(step.y, -step.x).normalize() * 12.0;
        run_with_hands((0..60u32).map(move |i| {
            let mut discs = vec![disc(Piece::Black, Point2::new(-250.0, 250.0))];
            let at = from + step * f64::from(i.clamp(20, 30) - 20);
            if (20..=32).contains(&i) {
                let piece = if i >= told_from {
                    Piece::Striker
                } else {
                    Piece::White
                };
                discs.push(disc(piece, at));
            }
            if twin && (21..=27).contains(&i) {
                discs.push(disc(Piece::White, at + aside));
            }
            if another_striker && (22..=40).contains(&i) {
                let slid = 8.0 * f64::from(i - 22);
                discs.push(disc(Piece::Striker, Point2::new(-200.0 + slid, -100.0)));
            }
            let hands = arm_over_the_board(Seat::South, 5..18, i);
            (discs, hands)
        }))
    }

    #[test]
    fn a_second_track_on_the_strikers_blur_lost_speeding_at_a_pocket_is_no_pocketing() {
        // Clip 2543: the striker, read as a white, is seen as two discs for
        // a few frames; one track is lost heading straight at a pocket while
        // the other goes on and stops.
        let strokes = white_striker_at_the_ne_pocket(true, u32::MAX, false);
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        assert!(strokes[0].stroke.pocketed.is_empty(), "{:?}", strokes[0]);
        assert!(alerted(&strokes[0], "the striker seen twice"));
        // Clip 2764: the track that went on was told the striker by its
        // size before its twin was lost; the twin is still no piece leaving.
        let told = white_striker_at_the_ne_pocket(true, 24, false);
        assert_eq!(told.len(), 1, "{told:?}");
        assert!(told[0].stroke.pocketed.is_empty(), "{:?}", told[0]);
        assert!(alerted(&told[0], "the striker seen twice"));
        // Clip 2490: another disc is told the striker too; the one that went
        // on may be a carromman read as the striker on its blur, and the
        // track lost beside it that carromman.
        let two = white_striker_at_the_ne_pocket(true, 24, true);
        assert!(!alerted(&two[0], "the striker seen twice"), "{two:?}");
        let alone = white_striker_at_the_ne_pocket(false, u32::MAX, false);
        assert_eq!(alone.len(), 1, "{alone:?}");
        assert!(!alerted(&alone[0], "the striker seen twice"));
    }

    /// A black shot at the NE pocket, seen up to frame `black_until`, with a
    /// twin track beside it read as a white in the frames `twin`; another
    /// black vanishes at rest, so the count at rest misses blacks only.
    fn black_to_the_ne_with_a_white_twin(
        black_until: u32,
        twin: std::ops::RangeInclusive<u32>,
    ) -> Vec<SeenStroke> {
        black_run_with_twin(
            70,
            |i| {
                Point2::new(200.0, 200.0)
                    + Vector2::new(14.0, 14.0) * f64::from(i.clamp(12, 23) - 12)
            },
            black_until,
            Some((Piece::White, twin, Vector2::new(8.0, -12.0))),
            (Piece::Black, Point2::new(-200.0, -100.0), 25),
        )
    }

    #[test]
    fn a_piece_and_a_twin_of_another_colour_on_its_course_went_in_once() {
        // Clip 2470: a track born on the black's blur and read as a white
        // went into the pocket three frames before the black's own track:
        // one piece, and the count at rest misses blacks and no white.
        one_stroke_pocketing(
            &black_to_the_ne_with_a_white_twin(23, 13..=20),
            (Piece::Black, Pocket::Ne),
            "on one piece's course: one piece, a black, as the count at rest misses only a black",
        );
        // Clip 2329: the black is lost 127 mm short of the NE pocket,
        // heading straight at it, while the twin is seen going in: the
        // piece went in once, as seen.
        one_stroke_pocketing(
            &black_to_the_ne_with_a_white_twin(16, 13..=23),
            (Piece::White, Pocket::Ne),
            "which went in: one piece, a white",
        );
    }

    /// Tracks 1, 2, ... of `whites` whites then `blacks` blacks lying in a
    /// row across the board, 30 mm apart.
    fn carrommen_in_a_row(whites: u32, blacks: u32) -> Vec<Track> {
        (0..whites + blacks)
            .map(|k| {
                let piece = if k < whites {
                    Piece::White
                } else {
                    Piece::Black
                };
                track_of(k + 1, piece, Point2::new(-270.0 + 30.0 * f64::from(k), 0.0))
            })
            .collect()
    }

    /// The kinds of `stroke`'s pocketings, in order.
    fn kinds_pocketed(stroke: &SeenStroke) -> Vec<Piece> {
        stroke.stroke.pocketed.iter().map(|p| p.piece).collect()
    }

    /// Clip 3776: a white and a black seen going into the SW pocket at once
    /// are one piece. 13 whites and 9 blacks were seen before the stroke
    /// where the laws had 9 of each, and 11 whites and 8 blacks rest: the
    /// count misses both kinds against what was seen, only a black against
    /// the laws too, so the piece was a black. With no laws' count to go
    /// by, the first pocketing's kind stays.
    #[test]
    fn one_piece_seen_going_in_in_two_colours_is_the_kind_the_count_misses_against_the_laws() {
        let play = |laws_before: Option<SeenCount>| {
            let mut stroke = stroke_seen_with(13, 9);
            stroke.vision.laws_before = laws_before;
            stroke.stroke.pocketed = [Piece::White, Piece::Black]
                .map(|piece| PocketedPiece {
                    piece,
                    pocket: Some(Pocket::Sw),
                    t: Some(7.067),
                    late: false,
                })
                .to_vec();
            let mut tracks = carrommen_in_a_row(11, 8);
            tracks.push(track_of(30, Piece::Striker, Point2::new(0.0, -250.0)));
            reconcile_exits(&mut stroke, &at_rest_with(tracks), &[], &[]);
            kinds_pocketed(&stroke)
        };
        assert_eq!(play(Some(SeenCount::BREAK)), vec![Piece::Black]);
        assert_eq!(play(None), vec![Piece::White]);
    }

    /// Clip 3671: a white striker, followed as a white, went into the SW
    /// pocket. 9 whites were seen before where the laws had 8, 8 rest, and
    /// no striker: the striker went in. A white on a track not followed as
    /// the striker, or with the striker at rest, went in as seen.
    #[test]
    fn a_carromman_going_in_taken_for_the_striker_with_no_striker_at_rest_is_the_striker() {
        let play = |taken_for_the_striker: bool, striker_at_rest: bool| {
            let mut stroke = stroke_seen_with(9, 2);
            stroke.vision.laws_before = Some(SeenCount {
                white: 8,
                black: 2,
                queen: false,
            });
            stroke.stroke.pocketed = vec![PocketedPiece {
                piece: Piece::White,
                pocket: Some(Pocket::Sw),
                t: Some(14.5),
                late: false,
            }];
            if taken_for_the_striker {
                stroke
                    .vision
                    .read_as_a_carromman_striker_going_in
                    .push(14.5);
            }
            let mut tracks = carrommen_in_a_row(8, 2);
            if striker_at_rest {
                tracks.push(track_of(30, Piece::Striker, Point2::new(0.0, -250.0)));
            }
            reconcile_exits(&mut stroke, &at_rest_with(tracks), &[], &[]);
            kinds_pocketed(&stroke)
        };
        assert_eq!(play(true, false), vec![Piece::Striker]);
        assert_eq!(play(false, false), vec![Piece::White]);
        assert_eq!(play(true, true), vec![Piece::White]);
    }

    /// Clips 6244 and 3991: a "striker" seen going into the NE pocket,
    /// the striker found at rest. 11 whites were seen before where the laws
    /// had 9 (a white striker read as a white among them), and 9 rest: the
    /// count misses whites only against the swollen count, and nothing went
    /// in. Where the laws had 10 whites, or there is no laws' count, the
    /// count at rest says a white went in.
    #[test]
    fn a_striker_seen_going_in_is_no_white_the_count_misses_only_against_a_swollen_count() {
        let play = |laws_whites: Option<u32>| {
            let mut stroke = stroke_seen_with(11, 2);
            stroke.vision.laws_before = laws_whites.map(|white| SeenCount {
                white,
                black: 2,
                queen: false,
            });
            stroke.stroke.pocketed = vec![PocketedPiece {
                piece: Piece::Striker,
                pocket: Some(Pocket::Ne),
                t: Some(6.8),
                late: false,
            }];
            let mut tracks = carrommen_in_a_row(9, 2);
            tracks.push(track_of(30, Piece::Striker, Point2::new(284.0, 103.0)));
            reconcile_exits(&mut stroke, &at_rest_with(tracks), &[], &[]);
            (kinds_pocketed(&stroke), stroke)
        };
        let (pocketed, stroke) = play(Some(9));
        assert!(pocketed.is_empty(), "{pocketed:?}");
        assert!(alerted(
            &stroke,
            "only against a count swollen before the stroke"
        ));
        assert_eq!(play(Some(10)).0, vec![Piece::White]);
        assert_eq!(play(None).0, vec![Piece::White]);
    }

    /// Clip 3750: a white lying 55 mm from the NW pocket's centre (track
    /// 14) was knocked in by another white (track 12) and went in unseen;
    /// track 14 went from sight as 12 met it and came back where 12 was
    /// last seen, 84 mm out. One found again where it lay, or lying far from
    /// any pocket, or back in sight before 12 went from it, was not knocked
    /// in so.
    #[test]
    fn a_piece_knocked_from_beside_a_pocket_as_the_tracks_swapped_went_in_unseen() {
        let judge = |lay: (f64, f64), again: (f64, f64), back_at: usize| {
            let path = [(-126.0, 165.0), (-178.0, 214.0), (-230.0, 262.0)];
            let shift = (lay.0 + 304.0, lay.1 - 312.0);
            let knocker = |(x, y): (f64, f64)| (x + shift.0, y + shift.1);
            let frames: Vec<Vec<(u32, (f64, f64))>> = vec![
                vec![(14, lay), (12, knocker(path[0]))],
                vec![(14, lay), (12, knocker(path[1]))],
                vec![(14, lay), (12, knocker(path[2]))],
                vec![(12, knocker((-308.0, 312.0)))],
                vec![(12, knocker((-266.0, 334.0)))],
                vec![],
                vec![],
            ];
            let recent: VecDeque<Positions> = frames
                .into_iter()
                .enumerate()
                .map(|(i, mut discs)| {
                    if i >= back_at {
                        discs.push((14, again));
                    }
                    positions(i as f64 * FRAME_S, discs)
                })
                .collect();
            let now = frame_with(
                6,
                vec![track_of(14, Piece::White, Point2::new(again.0, again.1))],
                Vec::new(),
            );
            let last_seen = knocker((-266.0, 334.0));
            knocked_in_as_tracks_swapped(
                &recent,
                &now,
                (
                    TrackId(12),
                    Piece::White,
                    Point2::new(last_seen.0, last_seen.1),
                ),
                TrackId(9),
            )
            .map(|knocked| (knocked.pocket, knocked.from))
        };
        assert_eq!(
            judge((-304.0, 312.0), (-262.0, 346.0), 5),
            Some((Pocket::Nw, Point2::new(-304.0, 312.0)))
        );
        // Found again where it lay: it stayed.
        assert_eq!(judge((-304.0, 312.0), (-304.0, 312.0), 5), None);
        // Back in sight while the knocking piece's track was: two discs.
        assert_eq!(judge((-304.0, 312.0), (-262.0, 346.0), 4), None);
        // The same knock and swap 150 mm out from the pocket's mouth.
        assert_eq!(judge((-200.0, 210.0), (-158.0, 244.0), 5), None);
    }

    /// Clip 6500: a white (track 49) struck at the NW pocket ran at it at
    /// about 1000 mm/s, was last seen on its course 91 mm from the pocket's
    /// centre (the tail of its blur, on the spot of the sighting before),
    /// and was next seen 114 mm back, on a white (track 3) the striker had
    /// nudged, whose own track was lost there a frame before. The same
    /// swap is no pocketing where the runner came back while track 3 was
    /// still in sight (two discs), where it ran too slowly to be running
    /// on unseen, where it ran past the pocket, or where its run ended far
    /// from it.
    #[test]
    fn a_piece_running_at_a_pocket_whose_track_took_up_another_of_its_kind_went_in_unseen() {
        let nudged = (-194.0, 228.0);
        let judge = |shift: (f64, f64), pace: f64, turn: f64, back_at: usize| {
            let run = |k: f64| {
                let (dx, dy) = (-19.5 * pace * k, 25.5 * pace * k);
                let (c, s) = (turn.cos(), turn.sin());
                (
                    -262.0 + shift.0 + c * dx - s * dy,
                    218.0 + shift.1 + s * dx + c * dy,
                )
            };
            let mut frames: Vec<Vec<(u32, (f64, f64))>> = vec![
                vec![(49, run(0.0)), (3, (-198.0, 212.0))],
                vec![(49, run(1.0)), (3, (-196.0, 220.0))],
                vec![(49, run(2.0)), (3, nudged)],
                // The tail of its blur: on the spot of the sighting before.
                vec![(49, run(2.0 + 0.05 / pace)), (3, nudged)],
                vec![(49, (-194.0, 232.0))],
                vec![(49, (-194.0, 232.0))],
            ];
            for (i, frame) in frames.iter_mut().enumerate() {
                if i >= back_at && i < 4 {
                    frame.retain(|&(id, _)| id != 49);
                    frame.push((49, (-194.0, 232.0)));
                }
            }
            let recent: VecDeque<Positions> = frames
                .into_iter()
                .enumerate()
                .map(|(i, discs)| positions(i as f64 * FRAME_S, discs))
                .collect();
            let now = frame_with(
                5,
                vec![track_of(49, Piece::White, Point2::new(-194.0, 232.0))],
                Vec::new(),
            );
            ran_in_as_tracks_swapped(
                &recent,
                &now,
                (TrackId(3), Piece::White, Point2::new(nudged.0, nudged.1)),
            )
            .map(|went| (went.pocket, went.from.map(f64::round), went.running))
        };
        let last_on_its_course = Point2::new(-302.0, 270.0);
        assert_eq!(
            judge((0.0, 0.0), 1.0, 0.0, 4),
            Some((Pocket::Nw, last_on_its_course, true))
        );
        assert!((last_on_its_course - pocket_centre(Pocket::Nw)).norm() < 95.0);
        // Back on the nudged white while its own track was in sight.
        assert_eq!(judge((0.0, 0.0), 1.0, 0.0, 3), None);
        // At a third of the pace: a piece slowing down, not running on.
        assert_eq!(judge((0.0, 0.0), 0.3, 0.0, 4), None);
        // Turned 50° off the pocket: it ran at the west cushion.
        assert_eq!(judge((0.0, 0.0), 1.0, 0.87, 4), None);
        // The same run ending 200 mm short of the pocket.
        assert_eq!(judge((120.0, -156.0), 1.0, 0.0, 4), None);
    }

    /// A pocketing judged from the swap above is the count's to keep: kept
    /// where the count at rest misses a white, dropped where it does not.
    #[test]
    fn a_piece_knocked_in_unseen_as_the_tracks_swapped_is_kept_only_where_the_count_misses_one() {
        let play = |whites_at_rest: u32| {
            let mut stroke = stroke_seen_with(9, 9);
            KnockedInUnseen {
                piece: Piece::White,
                pocket: Pocket::Nw,
                from: Point2::new(-304.0, 312.0),
                lost_at: Point2::new(-266.0, 334.0),
                running: false,
            }
            .record_in(&mut stroke, 10.5);
            let mut tracks = carrommen_in_a_row(whites_at_rest, 9);
            tracks.push(track_of(30, Piece::Striker, Point2::new(0.0, -250.0)));
            reconcile_exits(&mut stroke, &at_rest_with(tracks), &[], &[]);
            kinds_pocketed(&stroke)
        };
        assert_eq!(play(8), vec![Piece::White]);
        assert!(play(9).is_empty());
    }

    #[test]
    fn a_track_first_seen_beside_where_another_was_lost_as_it_was_lost_shadows_it() {
        let lost = 1;
        // Track 1 is last seen at (315, 336) at 0.1 s; `newcomer` is first
        // seen `at` at `since`, and seen again a little later.
        let shadowed = |newcomer: Piece, at: (f64, f64), since: f64| {
            let recent: VecDeque<Positions> = [
                positions(0.0, vec![(1, (290.0, 350.0)), (7, (0.0, 0.0))]),
                positions(0.033, vec![(1, (300.0, 346.0)), (7, (0.0, 0.0))]),
                positions(0.067, vec![(1, (308.0, 341.0)), (7, (0.0, 0.0))]),
                positions(0.1, vec![(1, (315.0, 336.0)), (7, (0.0, 0.0))]),
                positions(since, vec![(2, at), (7, (0.0, 0.0))]),
                positions(since + 0.067, vec![(2, at), (7, (0.0, 0.0))]),
            ]
            .into();
            let resting = vec![
                track_of(2, newcomer, Point2::new(at.0, at.1)),
                track_of(7, Piece::Black, Point2::origin()),
            ];
            twin_of(
                &recent,
                resting,
                lost,
                Piece::Black,
                (315.0, 336.0),
                Pocket::Ne,
                0.2,
            )
        };
        assert_eq!(
            shadowed(Piece::Black, (340.0, 312.0), 0.133),
            Some(TrackId(2))
        );
        // Of another colour too: a blur's colour is read from few pixels.
        assert_eq!(
            shadowed(Piece::White, (340.0, 312.0), 0.133),
            Some(TrackId(2))
        );
        // Too far off, or long after: another piece.
        assert_eq!(shadowed(Piece::Black, (300.0, 260.0), 0.133), None);
        assert_eq!(shadowed(Piece::Black, (340.0, 312.0), 0.233), None);
    }

    #[test]
    fn every_track_that_followed_a_lost_piece_is_its_twin_whatever_its_colour() {
        // White track 5, laid over a black's leading blur, is lost by the
        // SW pocket; black track 8 is seen with it where two pieces cannot
        // both be, and white track 9 is first seen beside where 5 was lost
        // just as it was lost.
        let recent: VecDeque<Positions> = [
            positions(0.0, vec![(5, (-200.0, -200.0)), (8, (-190.0, -192.0))]),
            positions(0.033, vec![(5, (-240.0, -240.0)), (8, (-230.0, -232.0))]),
            positions(0.067, vec![(5, (-280.0, -280.0)), (8, (-268.0, -272.0))]),
            positions(0.1, vec![(8, (-290.0, -292.0)), (9, (-300.0, -310.0))]),
            positions(0.133, vec![(8, (-292.0, -294.0)), (9, (-302.0, -312.0))]),
        ]
        .into();
        let resting = vec![
            track_of(8, Piece::Black, Point2::new(-292.0, -294.0)),
            track_of(9, Piece::White, Point2::new(-302.0, -312.0)),
        ];
        let twins = twins_of(
            &recent,
            resting,
            5,
            Piece::White,
            (-280.0, -280.0),
            Pocket::Sw,
            0.1,
        );
        assert_eq!(twins, [TrackId(8), TrackId(9)]);
    }

    /// Clip 2858: track 44, born on the striker's (track 43) blur, takes
    /// the black the striker meets and carries it into the SW pocket while
    /// the striker comes to rest 150 mm away: when 44 was last seen the two
    /// lay apart by more than the striker's blur, so 43 is no twin of it.
    /// Two tracks still on one blur when one is lost are twins.
    #[test]
    fn a_track_apart_from_the_lost_one_beyond_its_blur_when_last_seen_is_no_twin() {
        let piece_path = [
            (-262.0, -70.0),
            (-264.0, -104.0),
            (-272.0, -146.0),
            (-290.0, -208.0),
            (-296.0, -228.0),
            (-308.0, -268.0),
            (-316.0, -296.0),
            (-322.0, -318.0),
        ];
        let twins = |striker_path: &[(f64, f64)]| {
            let recent: VecDeque<Positions> = striker_path
                .iter()
                .zip(piece_path)
                .enumerate()
                .map(|(i, (&(sx, sy), (px, py)))| Positions {
                    t: i as f64 * FRAME_S,
                    discs: vec![
                        (TrackId(43), Point2::new(sx, sy), STRIKER_RADIUS_MM),
                        (TrackId(44), Point2::new(px, py), CARROMMAN_RADIUS_MM),
                    ],
                    tentative: Vec::new(),
                    hidden: Vec::new(),
                })
                .collect();
            let (x, y) = striker_path[striker_path.len() - 1];
            let resting = vec![track_of(43, Piece::White, Point2::new(x, y))];
            let lost_at = 8.0 * FRAME_S;
            twins_with_striker_of(
                &recent,
                resting,
                (44, 43),
                Piece::Black,
                piece_path[7],
                Pocket::Sw,
                lost_at,
            )
        };
        let came_to_rest = [
            (-254.0, -42.0),
            (-256.0, -84.0),
            (-260.0, -120.0),
            (-266.0, -156.0),
            (-270.0, -162.0),
            (-270.0, -172.0),
            (-272.0, -178.0),
            (-268.0, -178.0),
        ];
        assert!(twins(&came_to_rest).is_empty());
        // The striker on the same blur to the last: 20 mm behind.
        let on_its_blur: Vec<(f64, f64)> = piece_path
            .iter()
            .map(|&(x, y)| (x + 6.0, y + 19.0))
            .collect();
        assert_eq!(twins(&on_its_blur), [TrackId(43)]);
    }

    #[test]
    fn a_track_that_passed_close_and_then_went_on_its_own_way_shadows_nothing() {
        // Clip 2284's break: black track 6 sets off past track 17 (27 mm
        // apart at 0.033 s) and runs on into the NE pocket, while 17 stays
        // behind; `twin_path` is where 17 is seen in the later frames.
        let shadowed = |twin_path: [(f64, f64); 3]| {
            let recent: VecDeque<Positions> = [
                positions(0.0, vec![(6, (38.0, 32.0)), (17, (66.0, 46.0))]),
                positions(0.033, vec![(6, (98.0, 86.0)), (17, (80.0, 66.0))]),
                positions(0.067, vec![(6, (138.0, 131.0)), (17, twin_path[0])]),
                positions(0.1, vec![(6, (164.0, 171.0)), (17, twin_path[1])]),
                positions(0.133, vec![(6, (186.0, 199.0)), (17, twin_path[2])]),
            ]
            .into();
            let resting = vec![track_of(17, Piece::Black, Point2::new(90.0, 70.0))];
            twin_of(
                &recent,
                resting,
                6,
                Piece::Black,
                (186.0, 199.0),
                Pocket::Ne,
                0.2,
            )
        };
        // Left behind: two pieces that passed close.
        assert_eq!(shadowed([(88.0, 70.0), (90.0, 70.0), (90.0, 70.0)]), None);
        // Following the lost track all the way: one piece seen twice.
        assert_eq!(
            shadowed([(130.0, 120.0), (156.0, 160.0), (178.0, 190.0)]),
            Some(TrackId(17))
        );
    }

    /// Clip 3544's break: black track 2, touching track 8 in the pack, is
    /// struck; its blurred centre comes within 19 mm of 8's as both set
    /// off, its track swings for two frames, and then it runs steadily at
    /// 1200 mm/s into the SW pocket while 8 creeps south 400 mm away. Its
    /// first steps after the overlap are no steady course, but its later
    /// ones are: it went on alone, and 8 is no twin of it.
    #[test]
    fn a_track_that_ran_on_steadily_after_its_first_steps_swung_is_no_twin() {
        let lost_path = [
            (28.0, -16.5),
            (28.0, -16.5),
            (28.0, -16.5),
            (28.0, -16.5),
            (34.0, -30.0),
            (30.0, -40.0),
            (-47.0, -49.0),
            (-155.0, -148.0),
            (-182.0, -186.0),
            (-224.0, -244.0),
            (-250.0, -274.0),
            (-280.0, -308.0),
            (-306.0, -342.0),
            (-318.0, -348.0),
        ];
        let other_path = [
            (28.0, -48.0),
            (28.0, -48.0),
            (28.0, -48.0),
            (28.0, -48.0),
            (28.0, -48.0),
            (30.0, -62.0),
            (34.0, -68.0),
            (38.0, -92.0),
            (40.0, -114.0),
            (44.0, -134.0),
            (46.0, -148.0),
            (48.0, -162.0),
            (50.0, -172.0),
            (50.0, -180.0),
        ];
        let twin = |lost_path: &[(f64, f64)]| {
            let recent: VecDeque<Positions> = lost_path
                .iter()
                .zip(other_path)
                .enumerate()
                .map(|(i, (&lost, other))| {
                    positions(i as f64 * FRAME_S, vec![(2, lost), (8, other)])
                })
                .collect();
            let resting = vec![track_of(8, Piece::Black, Point2::new(52.0, -188.0))];
            twin_of(
                &recent,
                resting,
                2,
                Piece::Black,
                lost_path[lost_path.len() - 1],
                Pocket::Sw,
                16.0 * FRAME_S,
            )
        };
        assert_eq!(twin(&lost_path), None);
        // Swinging to and fro from the overlap to the last, it never ran
        // on by itself.
        let swinging: Vec<(f64, f64)> = lost_path
            .iter()
            .enumerate()
            .map(|(i, &(x, y))| {
                if i < 5 || i % 2 == 0 {
                    (x, y)
                } else {
                    (x + 60.0, y - 50.0)
                }
            })
            .collect();
        assert_eq!(twin(&swinging), Some(TrackId(8)));
    }

    #[test]
    fn a_track_seen_in_turn_with_another_along_its_path_is_its_twin() {
        // Clip 2170: a blurred disc found as white tracks 3 and 69 in turn,
        // never both in one frame; 69 then leaps onto a black by the NW
        // pocket and is lost there, while 3 comes to rest.
        let recent: VecDeque<Positions> = [
            positions(0.2, vec![(3, (-18.0, -6.0))]),
            positions(0.233, vec![(69, (-42.0, 30.0))]),
            positions(0.267, vec![(3, (-64.0, 60.0))]),
            positions(0.3, vec![(69, (-84.0, 88.0))]),
            positions(0.333, vec![(3, (-94.0, 106.0))]),
            positions(0.367, vec![(3, (-116.0, 138.0))]),
            positions(0.4, vec![(69, (-126.0, 156.0))]),
            positions(0.433, vec![(3, (-130.0, 168.0))]),
            positions(0.467, vec![(69, (-220.0, 235.0)), (3, (-134.0, 178.0))]),
        ]
        .into();
        let twin = |recent: &VecDeque<Positions>| {
            let resting = vec![track_of(3, Piece::White, Point2::new(-138.0, 188.0))];
            twin_of(
                recent,
                resting,
                69,
                Piece::White,
                (-220.0, 235.0),
                Pocket::Nw,
                0.567,
            )
        };
        assert_eq!(twin(&recent), Some(TrackId(3)));
        // Where 3 is seen only after 69's last sighting, nothing lies
        // between its sightings to compare with.
        let apart = keeping(&recent, |t, id| id == TrackId(69) || t > 0.45);
        assert_eq!(twin(&apart), None);
    }

    /// `frames` with only the sightings `keep(t, track)` holds for.
    fn keeping(
        frames: &VecDeque<Positions>,
        keep: impl Fn(f64, TrackId) -> bool,
    ) -> VecDeque<Positions> {
        frames
            .iter()
            .map(|f| Positions {
                t: f.t,
                discs: f.discs.iter().copied().filter(|d| keep(f.t, d.0)).collect(),
                tentative: Vec::new(),
                hidden: Vec::new(),
            })
            .collect()
    }

    /// One frame's discs in sight (track, centre), each a carromman's size.
    fn positions(t: f64, discs: Vec<(u32, (f64, f64))>) -> Positions {
        Positions {
            t,
            discs: discs
                .into_iter()
                .map(|(id, (x, y))| (TrackId(id), Point2::new(x, y), CARROMMAN_RADIUS_MM))
                .collect(),
            tentative: Vec::new(),
            hidden: Vec::new(),
        }
    }

    /// The twins [`shadowed_exits`] finds for track `lost`, a `piece` last
    /// seen at `last_seen` and lost into `pocket` at `t`, with `resting` the
    /// tracks on the board then.
    fn twins_of(
        recent: &VecDeque<Positions>,
        resting: Vec<Track>,
        lost: u32,
        piece: Piece,
        last_seen: (f64, f64),
        pocket: Pocket,
        t: f64,
    ) -> Vec<TrackId> {
        // No struck striker among the tracks.
        let striker = 999;
        twins_with_striker_of(
            recent,
            resting,
            (lost, striker),
            piece,
            last_seen,
            pocket,
            t,
        )
    }

    /// [`twins_of`] with `striker` the struck striker's track.
    fn twins_with_striker_of(
        recent: &VecDeque<Positions>,
        resting: Vec<Track>,
        (lost, striker): (u32, u32),
        piece: Piece,
        (x, y): (f64, f64),
        pocket: Pocket,
        t: f64,
    ) -> Vec<TrackId> {
        let frame = TrackFrame {
            t,
            tracks: resting,
            ..at_rest_with(Vec::new())
        };
        shadowed_exits(
            recent,
            &frame,
            (TrackId(lost), TrackId(striker)),
            piece,
            Point2::new(x, y),
            Some(pocket),
            t,
        )
        .iter()
        .map(|s| s.twin)
        .collect()
    }

    /// The first of [`twins_of`].
    fn twin_of(
        recent: &VecDeque<Positions>,
        resting: Vec<Track>,
        lost: u32,
        piece: Piece,
        last_seen: (f64, f64),
        pocket: Pocket,
        t: f64,
    ) -> Option<TrackId> {
        twins_of(recent, resting, lost, piece, last_seen, pocket, t)
            .first()
            .copied()
    }

    fn track_of(id: u32, piece: Piece, at: Point2<f64>) -> Track {
        let mut tracker = Tracker::new(TrackerOptions::default());
        let frame = tracker.seed(&Detections {
            discs: vec![disc(piece, at)],
            ..Detections::default()
        });
        let mut track = frame.tracks[0].clone();
        track.id = TrackId(id);
        track
    }

    /// `piece` seen going into `pocket` at `t` (s), in time.
    fn went_in(piece: Piece, pocket: Pocket, t: f64) -> PocketedPiece {
        PocketedPiece {
            piece,
            pocket: Some(pocket),
            t: Some(t),
            late: false,
        }
    }

    /// [`stroke_seen`] with `white` and `black` carrommen and no Queen
    /// seen before it.
    fn stroke_seen_with(white: u32, black: u32) -> SeenStroke {
        stroke_seen(SeenCount {
            white,
            black,
            queen: false,
        })
    }

    fn stroke_seen(before: SeenCount) -> SeenStroke {
        SeenStroke {
            stroke: Stroke {
                seat: Seat::South,
                t: Some(0.0),
                touched: true,
                pocketed: Vec::new(),
                overboard: Vec::new(),
                improper: false,
                foul: None,
                foul_by: None,
                extra: None,
            },
            vision: VisionExtra {
                seen_before: before,
                ..VisionExtra::default()
            },
        }
    }

    /// [`frame_with`], a hand seen at north until frame `launch`.
    fn struck_from_north_at(
        launch: u32,
        i: u32,
        tracks: Vec<Track>,
        events: Vec<TrackEvent>,
    ) -> TrackFrame {
        TrackFrame {
            hand_seats: if i < launch {
                vec![Seat::North]
            } else {
                Vec::new()
            },
            ..frame_with(i, tracks, events)
        }
    }

    /// Frame `i` at 30 fps with these tracks and events, no hand in sight.
    fn frame_with(i: u32, tracks: Vec<Track>, events: Vec<TrackEvent>) -> TrackFrame {
        TrackFrame {
            index: u64::from(i),
            t: f64::from(i) * FRAME_S,
            tracks,
            events,
            hand_present: false,
            hand_seats: Vec::new(),
            tentative: Vec::new(),
        }
    }

    /// The frame the stroke comes to rest in, with these tracks.
    fn at_rest_with(tracks: Vec<Track>) -> TrackFrame {
        TrackFrame {
            index: 40,
            t: 2.0,
            tracks,
            events: Vec::new(),
            hand_present: false,
            hand_seats: Vec::new(),
            tentative: Vec::new(),
        }
    }

    #[test]
    fn a_piece_gone_in_or_off_shows_the_striker_touched() {
        let untouched = || {
            let mut stroke = stroke_seen(SeenCount::default());
            stroke.stroke.touched = false;
            stroke
        };
        let gone_in = |piece, late| PocketedPiece {
            piece,
            pocket: Some(Pocket::Nw),
            t: Some(3.0),
            late,
        };
        let mut black_in = untouched();
        black_in.stroke.pocketed.push(gone_in(Piece::Black, false));
        let logged = black_in.into_stroke();
        assert!(logged.touched);
        let alerts = logged.extra.as_ref().unwrap()["vision"]["alerts"].to_string();
        assert!(alerts.contains("black pocketed"), "{alerts}");

        let mut queen_off = untouched();
        queen_off.stroke.overboard.push(OverboardPiece {
            piece: Piece::Queen,
            t: Some(2.5),
        });
        assert!(queen_off.into_stroke().touched);

        // The striker alone in a pocket, or a piece that fell after the
        // stroke had ended, says nothing of a touch.
        let mut striker_in = untouched();
        striker_in
            .stroke
            .pocketed
            .push(gone_in(Piece::Striker, false));
        striker_in.stroke.pocketed.push(gone_in(Piece::White, true));
        let logged = striker_in.into_stroke();
        assert!(!logged.touched);
        assert!(logged.extra.as_ref().unwrap()["vision"]
            .get("alerts")
            .is_none());
    }

    #[test]
    fn departures_are_squared_with_the_count_at_rest() {
        // Before: 2 white, 1 black. After: 2 white, no black, the striker back.
        let before = SeenCount {
            white: 2,
            black: 1,
            queen: false,
        };
        let mut stroke = stroke_seen(before);
        let pocketed = |piece, t| PocketedPiece {
            piece,
            pocket: Some(crate::geometry::Pocket::Ne),
            t: Some(t),
            late: false,
        };
        // A blurred black taken for the striker, and a white lost in a
        // bounce near a pocket that is still on the board.
        stroke.stroke.pocketed = vec![pocketed(Piece::Striker, 1.0), pocketed(Piece::White, 1.2)];
        stroke.stroke.overboard = vec![OverboardPiece {
            piece: Piece::White,
            t: Some(1.1),
        }];
        let lip = pocket_centre(crate::geometry::Pocket::Ne) - Vector2::new(40.0, 40.0);
        let at_rest = at_rest_with(vec![
            track_of(1, Piece::White, Point2::new(10.0, 10.0)),
            track_of(2, Piece::White, lip),
            track_of(3, Piece::Striker, Point2::new(0.0, -200.0)),
        ]);
        reconcile_exits(&mut stroke, &at_rest, &[], &[]);
        assert_eq!(stroke.stroke.pocketed.len(), 1, "{:?}", stroke.stroke);
        assert_eq!(stroke.stroke.pocketed[0].piece, Piece::Black);
        assert!(stroke.stroke.overboard.is_empty());
        assert_eq!(stroke.vision.alerts.len(), 3, "{:?}", stroke.vision.alerts);
    }

    /// A stroke seen with 2 whites and 2 blacks before it, in which a
    /// black left over the east frame at 2.8 s (last seen at (340, -50)
    /// mm at 2.77 s), and its tracks at rest: the striker back, whites at
    /// x = -100 and -50 mm and blacks at `blacks_at` (x, mm), on y = 0.
    fn black_left_over_the_east_frame(blacks_at: &[f64]) -> (SeenStroke, Vec<Track>) {
        let mut stroke = stroke_seen_with(2, 2);
        let mut tracks = vec![track_of(9, Piece::Striker, Point2::new(0.0, -200.0))];
        let whites = [-100.0, -50.0].map(|x| (Piece::White, x));
        let blacks = blacks_at.iter().map(|&x| (Piece::Black, x));
        for (k, (piece, x)) in whites.into_iter().chain(blacks).enumerate() {
            tracks.push(track_of(k as u32 + 1, piece, Point2::new(x, 0.0)));
        }
        let mut tracks_off = Vec::new();
        record_off_the_board(
            &mut stroke,
            &mut tracks_off,
            Piece::Black,
            LeftTheBoard {
                id: TrackId(20),
                last_seen: Point2::new(340.0, -50.0),
                meets_frame_at: Point2::new(352.0, -50.0),
                seen_t: 2.77,
                speed: 2000.0,
            },
            2.8,
        );
        (stroke, tracks)
    }

    #[test]
    fn departures_over_the_frame_are_squared_with_the_discs_seen_flying_over_it() {
        use crate::detect::flight::FrameSighting;
        // Before: 2 white, 2 black; at rest 2 white, 2 "black" (one a
        // print), the striker back. A black seen leaving over the east
        // frame at 2.8 s.
        let black_leaves = |watched: bool, flew: Option<Point2<f64>>| {
            let (mut stroke, tracks) = black_left_over_the_east_frame(&[0.0, 50.0]);
            if watched {
                for k in 0..6 {
                    let t = 2.8 + f64::from(k) / 30.0;
                    let seen: Vec<FrameSighting> = flew
                        .filter(|_| k == 0)
                        .map(|centre| FrameSighting {
                            side: Seat::East,
                            centre,
                            strength: 20.0,
                            luma_change: -20.0,
                        })
                        .into_iter()
                        .collect();
                    stroke.vision.flights.seen(t, &[Seat::East], &[], &seen);
                }
            }
            reconcile_exits(&mut stroke, &at_rest_with(tracks), &[], &[]);
            stroke
        };
        // Not watched: the count at rest decides, as before.
        let unwatched = black_leaves(false, None);
        assert!(
            unwatched.stroke.overboard.is_empty(),
            "{:?}",
            unwatched.stroke
        );
        // Seen flying over the frame there: it left, whatever the count.
        let flew = black_leaves(true, Some(Point2::new(405.0, -55.0)));
        assert_eq!(flew.stroke.overboard.len(), 1, "{:?}", flew.stroke);
        assert_eq!(flew.stroke.overboard[0].piece, Piece::Black);
        // Watched and nothing there: it came back off the cushion.
        let bounced = black_leaves(true, None);
        assert!(bounced.stroke.overboard.is_empty());
        assert!(
            bounced
                .vision
                .alerts
                .iter()
                .any(|a| a.message.contains("nothing flew over the frame")),
            "{:?}",
            bounced.vision.alerts
        );
    }

    #[test]
    fn a_frame_too_dark_to_show_a_black_says_nothing_of_a_black_leaving_over_it() {
        // Before: 2 white, 2 black; at rest 2 white, 1 black, the striker
        // back: the count misses the black that ran at the east frame. The
        // frame was watched for six frames and nothing seen over it.
        let black_leaves = |dark_frame: bool| {
            let (mut stroke, tracks) = black_left_over_the_east_frame(&[0.0]);
            let hiding_blacks: &[Seat] = if dark_frame { &[Seat::East] } else { &[] };
            for k in 0..6 {
                let t = 2.8 + f64::from(k) / 30.0;
                stroke
                    .vision
                    .flights
                    .seen(t, &[Seat::East], hiding_blacks, &[]);
            }
            reconcile_exits(&mut stroke, &at_rest_with(tracks), &[], &[]);
            stroke
        };
        // A frame that shows a black: nothing there, so it came back.
        let light = black_leaves(false);
        assert!(light.stroke.overboard.is_empty(), "{:?}", light.stroke);
        // A frame as dark as a black: the look proves nothing, and the
        // count, which misses the black, says it left.
        let dark = black_leaves(true);
        assert_eq!(dark.stroke.overboard.len(), 1, "{:?}", dark.stroke);
        assert_eq!(dark.stroke.overboard[0].piece, Piece::Black);
        assert!(
            !dark
                .vision
                .alerts
                .iter()
                .any(|a| a.message.contains("nothing flew over the frame")),
            "{:?}",
            dark.vision.alerts
        );
    }

    #[test]
    fn a_carromman_the_count_does_not_miss_went_in_as_the_striker_lost_on_its_way() {
        // Clip 6376: a white seen going into the NE pocket at 14.43 s,
        // which the count at rest did not miss, the striker's track lost
        // 126 mm from that pocket at 14.40 s, and no striker at rest.
        let ne = pocket_centre(Pocket::Ne);
        let judged = |lost_at: Point2<f64>, striker_rests: bool, kept_against_the_count: bool| {
            let mut tracks: Vec<Track> = (0..3)
                .map(|k| {
                    track_of(
                        k + 1,
                        Piece::White,
                        Point2::new(-100.0 + 60.0 * f64::from(k), 0.0),
                    )
                })
                .collect();
            if striker_rests {
                tracks.push(track_of(9, Piece::Striker, Point2::new(0.0, -200.0)));
            }
            let at_rest = at_rest_with(tracks);
            let mut stroke = stroke_seen_with(3, 0);
            stroke.stroke.pocketed = vec![went_in(Piece::White, Pocket::Ne, 14.43)];
            if kept_against_the_count {
                stroke.vision.kept_against_the_count.push(14.43);
            }
            stroke.vision.striker_lost_mid_board.push((lost_at, 14.40));
            stroke.vision.rest = Some(RestSnapshot::of(&at_rest, None));
            let mut machine = StrokeMachine::new(StrokeMachineOptions::default());
            machine.finished.push(stroke);
            machine.outlines_looked_at(at_rest.index);
            let stroke = machine.finished.pop().expect("the stroke just pushed");
            pocketed_in(&[stroke])
        };
        let on_its_way = ne + Vector2::new(-110.0, -62.0);
        let far = ne + Vector2::new(-300.0, -100.0);
        // (striker lost at, striker at rest, kept against the count): what went in.
        let cases = [
            ((on_its_way, false, true), Piece::Striker),
            // The striker rests on the board: the white went in.
            ((on_its_way, true, true), Piece::White),
            // Lost far from that pocket: lost elsewhere, not on the way in.
            ((far, false, true), Piece::White),
            // A white the count at rest misses went in as a white.
            ((on_its_way, false, false), Piece::White),
        ];
        for ((lost_at, striker_rests, kept), piece) in cases {
            assert_eq!(
                judged(lost_at, striker_rests, kept),
                vec![(piece, Some(Pocket::Ne))],
                "striker lost at {lost_at:?}, at rest {striker_rests}, kept {kept}"
            );
        }
    }

    /// `stroke`, judged at rest in `at_rest`, once its rest's piece number
    /// `striker` (a black to the tracker) is found by its outline to be the
    /// striker and the machine weighs what that says.
    fn striker_found_at_rest_as_a_black(
        mut stroke: SeenStroke,
        at_rest: &TrackFrame,
        striker: usize,
    ) -> SeenStroke {
        let mut rest = RestSnapshot::of(at_rest, None);
        rest.pieces[striker].piece = Piece::Striker;
        rest.striker_counted_as = Some(Piece::Black);
        stroke.vision.rest = Some(rest);
        let mut machine = StrokeMachine::new(StrokeMachineOptions::default());
        machine.finished.push(stroke);
        machine.outlines_looked_at(at_rest.index);
        machine.finished.pop().expect("the stroke just pushed")
    }

    /// A disc seen over the west frame at 2.77 s while it was watched,
    /// `luma_change` off the empty frame's shade.
    fn flew_over_the_west_frame(stroke: &mut SeenStroke, luma_change: f32) {
        let sighting = crate::detect::flight::FrameSighting {
            side: Seat::West,
            centre: Point2::new(-400.0, 48.0),
            strength: 30.0,
            luma_change,
        };
        stroke
            .vision
            .flights
            .seen(2.77, &[Seat::West], &[], &[sighting]);
    }

    #[test]
    fn a_disc_flying_over_the_frame_with_no_departure_seen_leaves_as_the_kind_the_count_misses() {
        let mut stroke = stroke_seen_with(2, 2);
        let tracks = vec![
            track_of(1, Piece::White, Point2::new(-100.0, 0.0)),
            track_of(2, Piece::White, Point2::new(-50.0, 0.0)),
            track_of(3, Piece::Black, Point2::new(0.0, 0.0)),
            track_of(9, Piece::Striker, Point2::new(0.0, -200.0)),
        ];
        flew_over_the_west_frame(&mut stroke, -25.0);
        reconcile_exits(&mut stroke, &at_rest_with(tracks), &[], &[]);
        assert_eq!(stroke.stroke.overboard.len(), 1, "{:?}", stroke.stroke);
        assert_eq!(stroke.stroke.overboard[0].piece, Piece::Black);
    }

    /// Clip 3759: a disc clearly darker than the frame flies over it with
    /// no departure seen, while a white lies unseen at rest and the striker
    /// rests followed as a black: the count misses only a white, but no
    /// white shows darker than the frame, so the flight is left unnamed
    /// until the striker is found by its size, and then leaves as the
    /// black the count misses. A disc lighter than the frame leaves as the
    /// white.
    #[test]
    fn a_disc_clearly_darker_than_the_frame_never_leaves_as_a_white() {
        let play = |luma_change: f32| {
            let mut stroke = stroke_seen_with(2, 2);
            let tracks = vec![
                track_of(1, Piece::White, Point2::new(-100.0, 0.0)),
                track_of(3, Piece::Black, Point2::new(0.0, -200.0)),
                track_of(4, Piece::Black, Point2::new(100.0, 0.0)),
            ];
            flew_over_the_west_frame(&mut stroke, luma_change);
            let at_rest = at_rest_with(tracks);
            reconcile_exits(&mut stroke, &at_rest, &[], &[]);
            let named_at_once: Vec<Piece> =
                stroke.stroke.overboard.iter().map(|o| o.piece).collect();
            let stroke = striker_found_at_rest_as_a_black(stroke, &at_rest, 1);
            let named: Vec<Piece> = stroke.stroke.overboard.iter().map(|o| o.piece).collect();
            (named_at_once, named)
        };
        assert_eq!(play(-25.0), (vec![], vec![Piece::Black]));
        assert_eq!(play(5.0), (vec![Piece::White], vec![Piece::White]));
    }

    /// Clip 3569: a disc flies over the frame with no departure seen, and
    /// the striker rests followed as a black, so the count at rest misses
    /// only the striker and the flight is left unnamed; once the striker
    /// is found by its size among the pieces at rest, the count misses a
    /// black, and the flight was one. With a black more at rest, it was
    /// not.
    #[test]
    fn an_unnamed_flight_leaves_as_the_kind_the_striker_found_at_rest_was_counted_as() {
        let play = |blacks_at_rest: u32| {
            let mut stroke = stroke_seen_with(2, 2);
            let mut tracks = vec![
                track_of(1, Piece::White, Point2::new(-100.0, 0.0)),
                track_of(2, Piece::White, Point2::new(-50.0, 0.0)),
                // The striker, followed as a black.
                track_of(3, Piece::Black, Point2::new(0.0, -200.0)),
            ];
            for k in 0..blacks_at_rest {
                let at = Point2::new(100.0 + 50.0 * f64::from(k), 0.0);
                tracks.push(track_of(4 + k, Piece::Black, at));
            }
            flew_over_the_west_frame(&mut stroke, -5.0);
            let at_rest = at_rest_with(tracks);
            reconcile_exits(&mut stroke, &at_rest, &[], &[]);
            assert!(stroke.stroke.overboard.is_empty(), "{:?}", stroke.stroke);
            striker_found_at_rest_as_a_black(stroke, &at_rest, 2)
        };
        let one_black_left = play(1);
        assert_eq!(
            one_black_left.stroke.overboard.len(),
            1,
            "{:?}",
            one_black_left.vision.alerts
        );
        assert_eq!(one_black_left.stroke.overboard[0].piece, Piece::Black);
        assert_eq!(one_black_left.stroke.overboard[0].t, Some(2.77));
        assert!(!one_black_left
            .vision
            .alerts
            .iter()
            .any(|a| a.message.contains("misses no one kind")));
        let none_left = play(2);
        assert!(
            none_left.stroke.overboard.is_empty(),
            "{:?}",
            none_left.stroke
        );
    }

    /// Clip 6212: at the break a black flies off unfollowed, and the
    /// striker, never seen all stroke, comes to rest counted as a black and
    /// is not found by its size: the count at rest holds every black, and
    /// the flight, clearly darker than the frame, is left unnamed until
    /// the outlines are looked at. It left as a black where the striker was
    /// never seen; not where the striker was seen (the count is then whole
    /// without it), nor for a disc no darker than the frame, nor with a
    /// black more at rest than before.
    #[test]
    fn a_dark_flight_leaves_as_a_black_where_the_striker_was_never_seen_nor_found() {
        let play = |striker_unseen: bool, luma_change: f32, blacks_at_rest: u32| {
            let mut stroke = stroke_seen_with(1, 2);
            stroke.vision.striker_unseen = striker_unseen;
            let mut tracks = vec![track_of(1, Piece::White, Point2::new(-100.0, 0.0))];
            for k in 0..blacks_at_rest {
                let at = Point2::new(100.0 + 50.0 * f64::from(k), 0.0);
                tracks.push(track_of(2 + k, Piece::Black, at));
            }
            flew_over_the_west_frame(&mut stroke, luma_change);
            let at_rest = at_rest_with(tracks);
            reconcile_exits(&mut stroke, &at_rest, &[], &[]);
            let named_at_once = stroke.stroke.overboard.len();
            stroke.vision.rest = Some(RestSnapshot::of(&at_rest, None));
            let mut machine = StrokeMachine::new(StrokeMachineOptions::default());
            machine.finished.push(stroke);
            machine.outlines_looked_at(at_rest.index);
            let stroke = machine.finished.pop().expect("the stroke just pushed");
            (named_at_once, stroke)
        };
        let (named_at_once, stroke) = play(true, -25.0, 2);
        assert_eq!(named_at_once, 0, "{:?}", stroke.stroke);
        let off: Vec<Piece> = stroke.stroke.overboard.iter().map(|o| o.piece).collect();
        assert_eq!(off, vec![Piece::Black], "{:?}", stroke.vision.alerts);
        assert_eq!(stroke.stroke.overboard[0].t, Some(2.77));
        assert!(alerted(&stroke, "never seen and not found at rest"));
        assert!(!alerted(&stroke, "misses no black"));
        for (striker_unseen, luma_change, blacks_at_rest) in
            [(false, -25.0, 2), (true, 5.0, 2), (true, -25.0, 3)]
        {
            let (_, stroke) = play(striker_unseen, luma_change, blacks_at_rest);
            assert!(
                stroke.stroke.overboard.is_empty(),
                "{striker_unseen} {luma_change} {blacks_at_rest}: {:?}",
                stroke.stroke
            );
        }
    }

    #[test]
    fn a_piece_on_the_lip_disproves_a_pocketing_only_with_the_striker_seen_at_rest() {
        // Before, 2 white; a white seen going into the NE pocket, another
        // resting on its lip, and a white and the striker at rest
        // mid-board: a bounce. Clip 2776: the same, but no striker at rest,
        // for the "white" mid-board is the striker read as one: the
        // whites' count is whole only through it.
        let play = |striker_seen: bool| {
            let mut stroke = stroke_seen_with(2, 0);
            stroke.stroke.pocketed = vec![went_in(Piece::White, Pocket::Ne, 1.0)];
            let lip = pocket_centre(Pocket::Ne) - Vector2::new(40.0, 40.0);
            let mut tracks = vec![
                track_of(1, Piece::White, lip),
                track_of(2, Piece::White, Point2::new(0.0, -200.0)),
            ];
            if striker_seen {
                tracks.push(track_of(3, Piece::Striker, Point2::new(100.0, -250.0)));
            }
            reconcile_exits(&mut stroke, &at_rest_with(tracks), &[], &[]);
            stroke.stroke.pocketed
        };
        assert!(play(true).is_empty());
        assert_eq!(play(false).len(), 1);
    }

    #[test]
    fn a_piece_lying_on_the_lip_since_the_strike_disproves_no_pocketing() {
        // As above, the striker seen at rest; the white on the lip lay
        // there at the strike (clip 3827), or 20 mm away (knocked there).
        let play = |lay_at_strike: Vector2<f64>| {
            let mut stroke = stroke_seen_with(2, 0);
            stroke.stroke.pocketed = vec![went_in(Piece::White, Pocket::Ne, 1.0)];
            let lip = pocket_centre(Pocket::Ne) - Vector2::new(40.0, 40.0);
            let tracks = vec![
                track_of(1, Piece::White, lip),
                track_of(2, Piece::White, Point2::new(0.0, -200.0)),
                track_of(3, Piece::Striker, Point2::new(100.0, -250.0)),
            ];
            let on_lips = [(TrackId(1), lip + lay_at_strike)];
            reconcile_exits(&mut stroke, &at_rest_with(tracks), &[], &on_lips);
            stroke.stroke.pocketed
        };
        assert_eq!(play(Vector2::new(1.0, -1.0)).len(), 1);
        assert!(play(Vector2::new(20.0, 0.0)).is_empty());
    }

    /// A black seen leaving over the frame while the break's pieces
    /// uncover a print the count at rest takes for a black: the count at
    /// rest disproves the departure until the print shows no disc outline,
    /// unless it lay there without one after the stroke before too.
    #[test]
    fn a_departure_the_count_disproves_stands_where_a_new_piece_at_rest_shows_no_outline() {
        let play = |print_there_before: bool| {
            let mut stroke = stroke_seen_with(1, 3);
            stroke.stroke.overboard = vec![OverboardPiece {
                piece: Piece::Black,
                t: Some(1.0),
            }];
            let print = Point2::new(-30.0, -20.0);
            let at_rest = at_rest_with(vec![
                track_of(1, Piece::Black, Point2::new(150.0, 80.0)),
                track_of(2, Piece::Black, print),
                track_of(3, Piece::White, Point2::new(-100.0, 90.0)),
                track_of(4, Piece::Black, Point2::new(200.0, -150.0)),
                track_of(5, Piece::Striker, Point2::new(0.0, -200.0)),
            ]);
            reconcile_exits(&mut stroke, &at_rest, &[], &[]);
            assert!(stroke.stroke.overboard.is_empty(), "{:?}", stroke.stroke);
            let mut machine = StrokeMachine::new(StrokeMachineOptions::default());
            if print_there_before {
                let mut earlier = stroke_seen(SeenCount::default());
                let mut rest = RestSnapshot::of(&at_rest, None);
                rest.pieces.retain(|p| p.x == print.x && p.y == print.y);
                rest.pieces[0].no_outline = true;
                earlier.vision.rest = Some(rest);
                machine.finished.push(earlier);
            }
            let mut rest = RestSnapshot::of(&at_rest, None);
            for piece in &mut rest.pieces {
                piece.no_outline = piece.x == print.x && piece.y == print.y;
            }
            stroke.vision.rest = Some(rest);
            machine.finished.push(stroke);
            // Another frame's look changes nothing.
            machine.outlines_looked_at(at_rest.index + 1);
            assert!(machine.finished.last().unwrap().stroke.overboard.is_empty());
            machine.outlines_looked_at(at_rest.index);
            machine.finished.pop().unwrap()
        };
        let stroke = play(false);
        assert_eq!(stroke.stroke.overboard.len(), 1, "{:?}", stroke.stroke);
        assert_eq!(stroke.stroke.overboard[0].piece, Piece::Black);
        assert_eq!(stroke.vision.alerts.len(), 1, "{:?}", stroke.vision.alerts);
        assert!(stroke.vision.alerts[0].message.contains("no disc outline"));
        let stroke = play(true);
        assert!(stroke.stroke.overboard.is_empty(), "{:?}", stroke.stroke);
        assert!(stroke.vision.alerts[0].message.contains("says it did not"));
    }

    /// Eight carrommen at rest and a disc of `radius` (mm) followed as a
    /// white, drawn on a camera frame and looked at there; a white seen
    /// leaving over the frame that the count at rest disproves
    /// (`whites_before`, 5 and the disc after).
    fn disc_at_rest_followed_as_a_white(radius: f64, whites_before: u32) -> SeenStroke {
        disc_at_rest_followed_as_a_white_after(radius, whites_before, Vec::new())
    }

    /// As [`disc_at_rest_followed_as_a_white`], with `pocketed` seen going
    /// in during the stroke.
    fn disc_at_rest_followed_as_a_white_after(
        radius: f64,
        whites_before: u32,
        pocketed: Vec<PocketedPiece>,
    ) -> SeenStroke {
        // A little off, as the 2 mm top view leaves it.
        disc_followed_off_its_centre(
            radius,
            whites_before,
            pocketed,
            Vector2::new(1.1, -0.8),
            None,
        )
    }

    /// Carrommen scattered over the board apart from one another: piece,
    /// centre east, centre north (mm).
    const SCATTERED_CARROMMEN: [(Piece, f64, f64); 8] = [
        (Piece::White, -150.0, 60.0),
        (Piece::White, 40.0, 180.0),
        (Piece::Black, 120.0, -60.0),
        (Piece::Black, -60.0, -160.0),
        (Piece::White, 220.0, 90.0),
        (Piece::Black, -230.0, -40.0),
        (Piece::White, 150.0, -200.0),
        (Piece::White, -120.0, 230.0),
    ];

    /// A camera frame showing the first `count` of
    /// [`SCATTERED_CARROMMEN`] and the `discs` (centre, radius mm), its
    /// top view at 0.5 px/mm, and a resting track on each of those
    /// carrommen (ids from 1).
    fn frame_of_scattered_carrommen(
        count: usize,
        discs: &[(Point2<f64>, f64)],
    ) -> (Mat, TopView, Vec<Track>) {
        let carrommen = &SCATTERED_CARROMMEN[..count];
        let drawn: Vec<(Point2<f64>, f64)> = carrommen
            .iter()
            .map(|&(_, x, y)| (Point2::new(x, y), CARROMMAN_RADIUS_MM))
            .chain(discs.iter().copied())
            .collect();
        let (camera, image) = crate::detect::refine::camera_and_frame(&drawn, None);
        let view = TopView::new(&camera, 0.5).unwrap();
        let tracks = carrommen
            .iter()
            .enumerate()
            .map(|(i, &(piece, x, y))| track_of(i as u32 + 1, piece, Point2::new(x, y)))
            .collect();
        (image, view, tracks)
    }

    /// As [`disc_at_rest_followed_as_a_white_after`], with the white's
    /// track `off` the disc's centre (mm), and the striker's own outline
    /// measured at `striker_measured` (mm) at rests before, if it was.
    fn disc_followed_off_its_centre(
        radius: f64,
        whites_before: u32,
        pocketed: Vec<PocketedPiece>,
        off: Vector2<f64>,
        striker_measured: Option<f64>,
    ) -> SeenStroke {
        let disc_at = Point2::new(30.0, -40.0);
        let (image, view, mut tracks) = frame_of_scattered_carrommen(8, &[(disc_at, radius)]);
        tracks.push(track_of(9, Piece::White, disc_at + off));
        let at_rest = at_rest_with(tracks);
        let mut stroke = stroke_seen_with(whites_before, 3);
        stroke.stroke.overboard = vec![OverboardPiece {
            piece: Piece::White,
            t: Some(1.0),
        }];
        reconcile_exits(&mut stroke, &at_rest, &[], &[]);
        assert!(stroke.stroke.overboard.is_empty(), "{:?}", stroke.stroke);
        stroke.stroke.pocketed = pocketed;
        let mut rest = RestSnapshot::of(&at_rest, None);
        rest.refine(&image, &view, Shift::NONE, None, striker_measured);
        stroke.vision.rest = Some(rest);
        let mut machine = StrokeMachine::new(StrokeMachineOptions::default());
        machine.finished.push(stroke);
        machine.outlines_looked_at(at_rest.index);
        machine.finished.pop().unwrap()
    }

    #[test]
    fn a_striker_pocketing_is_withdrawn_when_the_striker_is_found_at_rest_by_its_size() {
        // Clip 2988: a second track on the striker's blur went into the SW
        // pocket with the white the striker struck.
        let went_in = |piece| PocketedPiece {
            piece,
            pocket: Some(Pocket::Sw),
            t: Some(0.9),
            late: false,
        };
        let stroke = disc_at_rest_followed_as_a_white_after(
            STRIKER_RADIUS_MM,
            6,
            vec![went_in(Piece::Striker), went_in(Piece::White)],
        );
        let pieces: Vec<Piece> = stroke.stroke.pocketed.iter().map(|p| p.piece).collect();
        assert_eq!(pieces, [Piece::White], "{:?}", stroke.vision.alerts);
        assert!(alerted(&stroke, "it did not go in"));
        // Clip 3299: the striker's track took the white it struck into the
        // pocket; the count at rest, the striker found by its size not
        // counted, misses that white.
        let stroke = disc_at_rest_followed_as_a_white_after(
            STRIKER_RADIUS_MM,
            6,
            vec![went_in(Piece::Striker)],
        );
        let pieces: Vec<Piece> = stroke.stroke.pocketed.iter().map(|p| p.piece).collect();
        assert_eq!(pieces, [Piece::White], "{:?}", stroke.vision.alerts);
        assert!(alerted(&stroke, "the white went in"));
        // With the count whole, the striker simply did not go in.
        let stroke = disc_at_rest_followed_as_a_white_after(
            STRIKER_RADIUS_MM,
            5,
            vec![went_in(Piece::Striker)],
        );
        assert!(stroke.stroke.pocketed.is_empty(), "{:?}", stroke.stroke);
        assert!(alerted(&stroke, "it did not go in"));
        // A carromman's size at rest leaves the striker in the pocket.
        let stroke = disc_at_rest_followed_as_a_white_after(
            CARROMMAN_RADIUS_MM,
            6,
            vec![went_in(Piece::Striker)],
        );
        assert_eq!(
            stroke.stroke.pocketed.len(),
            1,
            "{:?}",
            stroke.vision.alerts
        );
    }

    #[test]
    fn a_piece_found_by_its_size_must_measure_what_the_striker_measured_before() {
        // Clip 3617: the striker, measured at 19.3-19.5 mm at rest before,
        // went into the SW pocket; a black on the east base lines measured
        // 21.0 mm, stood out, and was taken for the striker at rest.
        let counted_as = |measured: Option<f64>| {
            let stroke = disc_followed_off_its_centre(
                STRIKER_RADIUS_MM,
                6,
                Vec::new(),
                Vector2::new(1.1, -0.8),
                measured,
            );
            stroke.vision.rest.and_then(|rest| rest.striker_counted_as)
        };
        assert_eq!(counted_as(None), Some(Piece::White));
        assert_eq!(
            counted_as(Some(STRIKER_RADIUS_MM - 0.5)),
            Some(Piece::White)
        );
        assert_eq!(counted_as(Some(STRIKER_RADIUS_MM - 2.0)), None);
        assert_eq!(counted_as(Some(STRIKER_RADIUS_MM + 2.0)), None);
    }

    #[test]
    fn the_striker_s_own_outline_is_measured_at_rest_for_finding_it_by_its_size_later() {
        let mut machine = StrokeMachine::new(StrokeMachineOptions::default());
        assert_eq!(machine.striker_measured_mm(), None);
        for (index, radius) in [(10, 19.3), (20, 19.5), (30, 23.0)] {
            let mut rest = RestSnapshot::of(&frame_with(index, Vec::new(), Vec::new()), None);
            rest.striker_outline_mm = Some(radius);
            let mut stroke = stroke_seen(SeenCount::default());
            stroke.vision.rest = Some(rest);
            machine.finished.push(stroke);
            machine.outlines_looked_at(u64::from(index));
        }
        // The median: one odd measurement does not move it.
        assert_eq!(machine.striker_measured_mm(), Some(19.5));
    }

    #[test]
    fn a_carromman_at_rest_whose_outline_measures_a_striker_s_size_is_the_striker() {
        // A 38 mm striker's outline is fitted as a carromman's; a 41.3 mm
        // one's is too large for that, and is measured at its own size
        // (its piece is then not placed by a carromman's outline).
        let sizes = [
            (crate::geometry::spec::STRIKER_DIAMETER.min / 2.0, 9),
            (STRIKER_RADIUS_MM, 8),
        ];
        for (radius, refined) in sizes {
            let stroke = disc_at_rest_followed_as_a_white(radius, 6);
            let rest = stroke.vision.rest.as_ref().unwrap();
            assert_eq!(rest.refined, refined, "{rest:?}");
            let strikers: Vec<&RestingPiece> = rest
                .pieces
                .iter()
                .filter(|p| p.piece == Piece::Striker)
                .collect();
            assert_eq!(strikers.len(), 1, "{radius}: {rest:?}");
            assert!(
                (strikers[0].x - 30.0).hypot(strikers[0].y + 40.0) < 0.3,
                "{rest:?}"
            );
            assert_eq!(rest.striker_counted_as, Some(Piece::White));
            // The count at rest took the striker for a white: the white
            // seen leaving over the frame did leave.
            assert_eq!(
                stroke.stroke.overboard.len(),
                1,
                "{:?}",
                stroke.vision.alerts
            );
            assert!(alerted(&stroke, "took the striker for one"));
            assert!(alerted(&stroke, "followed as a white"));
        }
        let small_striker = sizes[0].0;

        // With the striker counted as a white before the stroke too (five
        // whites and the striker), the count misses no white.
        let stroke = disc_at_rest_followed_as_a_white(small_striker, 5);
        let rest = stroke.vision.rest.as_ref().unwrap();
        assert_eq!(rest.striker_counted_as, Some(Piece::White));
        assert!(stroke.stroke.overboard.is_empty(), "{:?}", stroke.stroke);
        assert!(alerted(&stroke, "says it did not"));

        // A white of a carromman's size is a white, and the count stands.
        let stroke = disc_at_rest_followed_as_a_white(CARROMMAN_RADIUS_MM, 6);
        let rest = stroke.vision.rest.as_ref().unwrap();
        assert_eq!(rest.refined, 9, "{rest:?}");
        assert_eq!(rest.striker_counted_as, None);
        assert!(rest.pieces.iter().all(|p| p.piece != Piece::Striker));
        assert!(stroke.stroke.overboard.is_empty(), "{:?}", stroke.stroke);
    }

    #[test]
    fn outlines_over_a_printed_base_circle_are_not_measured_for_the_striker() {
        use crate::geometry::spec::{BASE_CIRCLE_CENTRE_ALONG_MM, BASE_CIRCLE_CENTRE_DEPTH_MM};
        let south_east = Point2::new(BASE_CIRCLE_CENTRE_ALONG_MM, -BASE_CIRCLE_CENTRE_DEPTH_MM);
        // Clip 3299's white, 7 mm off the circle's centre.
        assert!(over_a_base_circle(south_east + Vector2::new(3.0, -6.0)));
        // Every seat's circles, both ends.
        assert!(over_a_base_circle(Point2::new(
            -BASE_CIRCLE_CENTRE_DEPTH_MM,
            BASE_CIRCLE_CENTRE_ALONG_MM
        )));
        assert!(over_a_base_circle(Point2::new(
            -BASE_CIRCLE_CENTRE_ALONG_MM,
            BASE_CIRCLE_CENTRE_DEPTH_MM
        )));
        // Clear of the circles: the striker at rest beside the east base
        // line in that clip, and the board's centre.
        assert!(!over_a_base_circle(Point2::new(279.0, 61.0)));
        assert!(!over_a_base_circle(Point2::origin()));
        assert!(!over_a_base_circle(
            south_east + Vector2::new(0.0, 2.0 * CARROMMAN_RADIUS_MM + 1.0)
        ));
    }

    /// Clip 6341: no striker's track rests; a white lying on the centre
    /// circle's ring measured 23.2 mm, larger than any striker, and the
    /// striker, followed as a black, 18.4 mm. The striker is the black,
    /// whether or not its size was measured before; the oversized outline
    /// is no piece's.
    #[test]
    fn an_outline_larger_than_any_striker_does_not_hide_the_striker_at_rest() {
        let striker_at = Point2::new(-100.0, -80.0);
        let oversized_at = Point2::new(0.0, 84.0);
        let striker_radius = 19.0;
        let found = |oversized_mm: f64, striker_measured: Option<f64>| {
            let (image, view, mut tracks) = frame_of_scattered_carrommen(
                7,
                &[(striker_at, striker_radius), (oversized_at, oversized_mm)],
            );
            tracks.push(track_of(20, Piece::Black, striker_at));
            tracks.push(track_of(21, Piece::White, oversized_at));
            let mut rest = RestSnapshot::of(&at_rest_with(tracks), None);
            rest.refine(&image, &view, Shift::NONE, None, striker_measured);
            let striker = rest.pieces.iter().find(|p| p.piece == Piece::Striker);
            striker.map(|s| (Point2::new(s.x, s.y), rest.striker_counted_as))
        };
        for known in [None, Some(striker_radius)] {
            let (at, counted_as) = found(23.5, known).expect("the striker is found");
            assert!((at - striker_at).norm() < 1.0, "{known:?}: {at}");
            assert_eq!(counted_as, Some(Piece::Black));
        }
        // An outline of a striker's size beside it leaves it unfound: two
        // pieces measure a striker's size and neither stands out.
        assert_eq!(found(striker_radius, None), None);
    }

    #[test]
    fn the_striker_at_rest_is_found_by_its_size_where_its_track_lies_off_its_centre() {
        // Clip 3099: the striker at rest followed as a black 8 mm off its
        // centre, farther than an outline fitted from there may move.
        let off = Vector2::new(-5.0, 5.0);
        let stroke = disc_followed_off_its_centre(STRIKER_RADIUS_MM, 6, Vec::new(), off, None);
        let rest = stroke.vision.rest.as_ref().unwrap();
        assert_eq!(rest.striker_counted_as, Some(Piece::White), "{rest:?}");
        let striker = rest.pieces.iter().find(|p| p.piece == Piece::Striker);
        assert!(
            striker.is_some_and(|s| (s.x - 30.0).hypot(s.y + 40.0) < 0.3),
            "{rest:?}"
        );
        assert_eq!(
            stroke.stroke.overboard.len(),
            1,
            "{:?}",
            stroke.vision.alerts
        );
        // A carromman followed as far off is no striker.
        let stroke = disc_followed_off_its_centre(CARROMMAN_RADIUS_MM, 6, Vec::new(), off, None);
        let rest = stroke.vision.rest.as_ref().unwrap();
        assert_eq!(rest.striker_counted_as, None, "{rest:?}");
        assert!(stroke.stroke.overboard.is_empty(), "{:?}", stroke.stroke);
    }

    #[test]
    fn a_striker_measuring_under_the_icf_s_smallest_still_stands_out_by_its_size() {
        // Clip 3015: a 38 mm striker's outline measured 18.0 mm under that
        // lamp, the blacks' 16.6-17.1 mm: too small for a ring sized for the
        // largest striker, but the largest outline by far.
        let stroke = disc_at_rest_followed_as_a_white(18.0, 6);
        let rest = stroke.vision.rest.as_ref().unwrap();
        assert_eq!(rest.striker_counted_as, Some(Piece::White), "{rest:?}");
        assert_eq!(
            stroke.stroke.overboard.len(),
            1,
            "{:?}",
            stroke.vision.alerts
        );
    }

    /// Three whites lying still, lost from sight at frame 20 (under an arm,
    /// say) while a black lies still; at frame 40 the black shoots off,
    /// struck by a striker never seen.
    #[test]
    fn pieces_lost_from_sight_between_strokes_still_count_before_the_next() {
        let whites =
            [(-50.0, 100.0), (60.0, 120.0), (200.0, -30.0)].map(|(x, y)| Point2::new(x, y));
        let strokes = run(unseen_striker_frames(true)
            .enumerate()
            .map(move |(i, mut discs)| {
                if i < 20 {
                    discs.extend(whites.iter().map(|&w| disc(Piece::White, w)));
                }
                discs
            }));
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        assert_eq!(strokes[0].vision.seen_before.white, 3);
        assert_eq!(strokes[0].vision.seen_before.black, 1);
    }

    /// The board found set out for the break: the stroke that scatters it
    /// starts from the arrangement's count, whatever the tracks say (here
    /// a black and a white), and the stroke after from the tracks again.
    #[test]
    fn the_break_starts_from_the_arrangement_s_count() {
        let mut tracker = Tracker::new(TrackerOptions::default());
        let mut machine = StrokeMachine::new(StrokeMachineOptions::default());
        let white = disc(Piece::White, Point2::new(200.0, 100.0));
        let mut frames: Vec<Vec<Detection>> = unseen_striker_frames(true)
            .map(|mut discs| {
                discs.push(white);
                discs
            })
            .collect();
        frames.extend((0..60).map(|i| {
            let mut discs = vec![white];
            discs.extend(striker_shot_north_to_sw(i));
            discs
        }));
        for (i, discs) in frames.into_iter().enumerate() {
            let detections = Detections {
                index: i as u64,
                t: i as f64 * FRAME_S,
                discs,
                ..Detections::default()
            };
            let tracks = if i == 0 {
                tracker.seed(&detections)
            } else {
                tracker.update(&detections)
            };
            if i == 0 {
                machine.setting_out_seen();
            }
            machine.push(&tracks);
        }
        let strokes = machine.finish();
        assert_eq!(strokes.len(), 2, "{strokes:?}");
        assert_eq!(strokes[0].vision.seen_before, SeenCount::BREAK);
        assert_eq!(
            strokes[1].vision.seen_before,
            SeenCount {
                white: 1,
                black: 0,
                queen: false
            }
        );
    }

    fn pocketed_ne(piece: Piece, t: f64) -> PocketedPiece {
        PocketedPiece {
            piece,
            pocket: Some(crate::geometry::Pocket::Ne),
            t: Some(t),
            late: false,
        }
    }

    /// The pocketings left after squaring `pocketed` with a count before of
    /// (white, black) and the pieces `resting` (kind, x, y) after.
    fn reconciled(
        (white, black): (u32, u32),
        pocketed: Vec<PocketedPiece>,
        resting: &[(Piece, f64, f64)],
    ) -> Vec<PocketedPiece> {
        let before = SeenCount {
            white,
            black,
            queen: false,
        };
        let mut stroke = stroke_seen(before);
        stroke.stroke.pocketed = pocketed;
        let tracks = resting
            .iter()
            .enumerate()
            .map(|(i, &(piece, x, y))| track_of(i as u32 + 1, piece, Point2::new(x, y)))
            .collect();
        reconcile_exits(&mut stroke, &at_rest_with(tracks), &[], &[]);
        stroke.stroke.pocketed
    }

    const STRIKER_AT_REST: (Piece, f64, f64) = (Piece::Striker, 0.0, -200.0);

    #[test]
    fn a_clip_ending_mid_stroke_counts_one_piece_seen_going_in_twice_at_once_once() {
        // No count at rest to judge by: two blacks in one frame into one
        // pocket are one; one 0.2 s later may be another (nothing says not).
        let mut machine = StrokeMachine::new(StrokeMachineOptions::default());
        let mut stroke = stroke_seen(SeenCount::default());
        stroke.stroke.pocketed = vec![
            pocketed_ne(Piece::Black, 1.0),
            pocketed_ne(Piece::Black, 1.0),
            pocketed_ne(Piece::Black, 1.2),
        ];
        machine.current = Some(stroke);
        let strokes = machine.finish();
        assert!(strokes[0].vision.ended_mid_stroke);
        let times: Vec<Option<f64>> = strokes[0].stroke.pocketed.iter().map(|p| p.t).collect();
        assert_eq!(times, vec![Some(1.0), Some(1.2)]);
    }

    /// A white and a black into the NE pocket at 1 s, the count at rest
    /// missing one of each (a print uncovered, say) and the white's track
    /// born first: one piece, the black where only a black was lost from
    /// sight mid-board in the stroke on its way in (at (300, 100) at 0.8 s),
    /// else the white.
    #[test]
    fn one_piece_seen_in_two_colours_is_of_the_kind_lost_from_sight_mid_board() {
        let on_the_way = |piece| (piece, Point2::new(300.0, 100.0), 0.8);
        let kept = |lost: Vec<(Piece, Point2<f64>, f64)>| {
            let mut stroke = stroke_seen_with(2, 2);
            stroke.stroke.pocketed = vec![
                pocketed_ne(Piece::White, 1.0),
                pocketed_ne(Piece::Black, 1.02),
            ];
            stroke.vision.lost_from_sight = lost;
            let tracks = vec![
                track_of(1, Piece::White, Point2::new(100.0, 100.0)),
                track_of(2, Piece::Black, Point2::new(-100.0, 100.0)),
                track_of(3, Piece::Striker, Point2::new(0.0, -200.0)),
            ];
            let pocketed_tracks = [
                (TrackId(10), Piece::White, 1.0),
                (TrackId(12), Piece::Black, 1.02),
            ];
            reconcile_exits(&mut stroke, &at_rest_with(tracks), &pocketed_tracks, &[]);
            let kinds: Vec<Piece> = stroke.stroke.pocketed.iter().map(|p| p.piece).collect();
            (kinds, stroke.vision.alerts)
        };
        let (kinds, alerts) = kept(vec![on_the_way(Piece::Black)]);
        assert_eq!(kinds, vec![Piece::Black], "{alerts:?}");
        assert!(alerts[0]
            .message
            .contains("only a black was lost from sight"));
        assert_eq!(kept(Vec::new()).0, vec![Piece::White]);
        let both = vec![on_the_way(Piece::Black), on_the_way(Piece::White)];
        assert_eq!(kept(both).0, vec![Piece::White]);
        // Lost after it went in, or too far off to reach the pocket by then.
        let late = (Piece::Black, Point2::new(300.0, 100.0), 1.05);
        assert_eq!(kept(vec![late]).0, vec![Piece::White]);
        let far = (Piece::Black, Point2::new(-300.0, -300.0), 0.95);
        assert_eq!(kept(vec![far]).0, vec![Piece::White]);
    }

    /// Clip 2871's break: a black lost from sight near the centre speeding
    /// at the SE pocket, never seen again (it jumped off the board), a black
    /// seen going into the NE pocket, and one seen leaving over the frame;
    /// the count at rest misses two blacks. The departures seen take the
    /// count; the pocketing inferred from afar does not stand against it.
    /// Lost near the pocket it is matched in time as before, and a count
    /// that misses all three keeps all three.
    #[test]
    fn a_pocketing_inferred_from_a_piece_lost_far_from_the_pocket_yields_to_the_count() {
        let play = |last_seen: Point2<f64>, blacks_at_rest: usize| {
            let mut stroke = stroke_seen_with(1, 4);
            lost_carromman(TrackId(9), Piece::Black, Pocket::Se, last_seen, 0.2, 3500.0)
                .record_in(&mut stroke);
            stroke
                .stroke
                .pocketed
                .push(went_in(Piece::Black, Pocket::Ne, 0.5));
            stroke.stroke.overboard = vec![OverboardPiece {
                piece: Piece::Black,
                t: Some(0.3),
            }];
            let mut tracks = vec![
                track_of(1, Piece::White, Point2::new(10.0, 10.0)),
                track_of(2, Piece::Striker, Point2::new(0.0, -200.0)),
            ];
            for k in 0..blacks_at_rest {
                tracks.push(track_of(
                    3 + k as u32,
                    Piece::Black,
                    Point2::new(-100.0, 50.0 * k as f64),
                ));
            }
            reconcile_exits(&mut stroke, &at_rest_with(tracks), &[], &[]);
            let pockets: Vec<Option<Pocket>> =
                stroke.stroke.pocketed.iter().map(|p| p.pocket).collect();
            (pockets, stroke.stroke.overboard.len())
        };
        let far = Point2::new(66.0, -44.0);
        assert_eq!(play(far, 2), (vec![Some(Pocket::Ne)], 1));
        assert_eq!(play(far, 1), (vec![Some(Pocket::Se), Some(Pocket::Ne)], 1));
        let near = pocket_centre(Pocket::Se) + Vector2::new(-80.0, 80.0);
        assert_eq!(play(near, 2), (vec![Some(Pocket::Se), Some(Pocket::Ne)], 0));
        // 177 mm out (clip 2952's black, which had not gone in) is far.
        let short_of_near = pocket_centre(Pocket::Se) + Vector2::new(-125.0, 125.0);
        assert_eq!(play(short_of_near, 2), (vec![Some(Pocket::Ne)], 1));
    }

    /// A black lost from sight mid-board, speeding at the SE pocket, where
    /// `seen_black` blacks were seen before the stroke and the laws have
    /// `laws_black` (none where no one keeps the score), and `at_rest`
    /// blacks are counted at rest: the pockets taken, and the alerts.
    fn far_lost_black(
        seen_black: u32,
        laws_black: Option<u32>,
        at_rest: u32,
    ) -> (Vec<Option<Pocket>>, Vec<VisionNote>) {
        let mut stroke = stroke_seen_with(1, seen_black);
        stroke.vision.laws_before = laws_black.map(|black| SeenCount {
            white: 1,
            black,
            queen: false,
        });
        lost_carromman(
            TrackId(9),
            Piece::Black,
            Pocket::Se,
            Point2::new(66.0, -44.0),
            0.2,
            3500.0,
        )
        .record_in(&mut stroke);
        let mut tracks = vec![
            track_of(1, Piece::White, Point2::new(10.0, 10.0)),
            track_of(2, Piece::Striker, Point2::new(0.0, -200.0)),
        ];
        for k in 0..at_rest {
            tracks.push(track_of(
                3 + k,
                Piece::Black,
                Point2::new(-100.0, 50.0 * f64::from(k)),
            ));
        }
        reconcile_exits(&mut stroke, &at_rest_with(tracks), &[], &[]);
        let pockets = stroke.stroke.pocketed.iter().map(|p| p.pocket).collect();
        (pockets, stroke.vision.alerts)
    }

    /// Clip 3159: a white lost from sight mid-board, speeding at the NW
    /// pocket, on a light board where six of the laws' nine whites were
    /// seen; the count at rest missed one more white, which it would have
    /// whether or not that white went in. Where as many as the laws have
    /// were seen, the count decides as before.
    #[test]
    fn a_piece_lost_far_from_a_pocket_is_not_taken_as_pocketed_on_a_count_already_short() {
        let play = |laws_black: Option<u32>| far_lost_black(4, laws_black, 3);
        assert_eq!(play(None).0, vec![Some(Pocket::Se)]);
        assert_eq!(play(Some(4)).0, vec![Some(Pocket::Se)]);
        let (pockets, alerts) = play(Some(5));
        assert!(pockets.is_empty(), "{alerts:?}");
        assert!(
            alerts
                .iter()
                .any(|a| a.message.contains("the count at rest cannot tell")),
            "{alerts:?}"
        );
    }

    #[test]
    fn a_piece_lost_far_from_a_pocket_did_not_go_in_where_the_count_holds_the_laws_count() {
        // As in clip 3727 (whites there): six blacks seen before the
        // stroke where the laws have five. Five at rest: one short of the
        // six seen, none of the laws' five.
        let (pockets, alerts) = far_lost_black(6, Some(5), 5);
        assert!(pockets.is_empty(), "{alerts:?}");
        assert!(
            alerts.iter().any(|a| a
                .message
                .contains("the count at rest holds as many as the laws")),
            "{alerts:?}"
        );
        // Four at rest: short of the laws' five too.
        let (pockets, _) = far_lost_black(6, Some(5), 4);
        assert_eq!(pockets, vec![Some(Pocket::Se)]);
        // The laws have six, as many as were seen: the count decides as
        // before, and misses one.
        let (pockets, _) = far_lost_black(6, Some(6), 5);
        assert_eq!(pockets, vec![Some(Pocket::Se)]);
    }

    #[test]
    fn a_carromman_seen_going_in_outweighs_a_count_that_misses_none() {
        // A hand's finger counted as a white keeps the count at two; nothing
        // white rests near the pocket, so the white seen going in went in.
        let seen = vec![pocketed_ne(Piece::White, 1.0)];
        let resting = [
            (Piece::White, 10.0, 10.0),
            (Piece::White, -100.0, -300.0),
            STRIKER_AT_REST,
        ];
        assert_eq!(reconciled((2, 0), seen.clone(), &resting), seen);
    }

    #[test]
    fn one_piece_seen_going_in_twice_within_two_frames_is_counted_once_whatever_the_count() {
        let seen = vec![
            pocketed_ne(Piece::Black, 1.0),
            pocketed_ne(Piece::Black, 1.0 + FRAME_S),
        ];
        // Two blacks lost at rest: the count misses two.
        let resting = [(Piece::Black, 10.0, 10.0)];
        assert_eq!(reconciled((0, 3), seen.clone(), &resting), seen[..1]);
    }

    #[test]
    fn one_piece_seen_going_in_twice_is_counted_once() {
        let seen = vec![
            pocketed_ne(Piece::Black, 1.0),
            pocketed_ne(Piece::Black, 1.1),
        ];
        let two_left = [
            (Piece::Black, 10.0, 10.0),
            (Piece::Black, -100.0, 10.0),
            STRIKER_AT_REST,
        ];
        assert_eq!(reconciled((0, 3), seen.clone(), &two_left), seen[..1]);
        // When the count says two went, both are kept.
        assert_eq!(reconciled((0, 3), seen.clone(), &two_left[1..]), seen);
    }

    #[test]
    fn two_kinds_into_one_pocket_at_once_are_one_piece_of_the_kind_the_count_misses() {
        // A striker's blur twin, read as a white, ran on with the black it
        // hit into the pocket: the count misses a black and no white.
        let seen = vec![
            pocketed_ne(Piece::White, 1.0),
            pocketed_ne(Piece::Black, 1.0 + FRAME_S),
        ];
        let resting = [
            (Piece::White, 10.0, 10.0),
            (Piece::Black, -100.0, 10.0),
            STRIKER_AT_REST,
        ];
        assert_eq!(reconciled((1, 2), seen.clone(), &resting), seen[1..]);
        // Pocketed farther apart in time they are two pieces, as the count
        // at rest says.
        let apart = vec![
            pocketed_ne(Piece::White, 1.0),
            pocketed_ne(Piece::Black, 1.5),
        ];
        assert_eq!(reconciled((2, 2), apart.clone(), &resting), apart);
    }

    #[test]
    fn two_kinds_into_one_pocket_at_once_that_the_count_cannot_tell_are_the_older_tracks_kind() {
        // The count misses both (the striker's twins counted as whites
        // before the stroke): the black's track was followed from the
        // break, the white's born on the blur.
        let seen = vec![
            pocketed_ne(Piece::White, 1.0),
            pocketed_ne(Piece::Black, 1.0),
        ];
        let tracks = [
            (TrackId(72), Piece::White, 1.0),
            (TrackId(36), Piece::Black, 1.0),
        ];
        let before = SeenCount {
            white: 2,
            black: 2,
            queen: false,
        };
        let mut stroke = stroke_seen(before);
        stroke.stroke.pocketed = seen.clone();
        let at_rest = at_rest_with(vec![
            track_of(1, Piece::White, Point2::new(10.0, 10.0)),
            track_of(2, Piece::Black, Point2::new(-100.0, 10.0)),
            track_of(3, Piece::Striker, Point2::new(0.0, -200.0)),
        ]);
        reconcile_exits(&mut stroke, &at_rest, &tracks, &[]);
        assert_eq!(stroke.stroke.pocketed, seen[1..]);
        assert!(alerted(&stroke, "one piece seen twice, a black"));
    }

    #[test]
    fn a_carromman_seen_going_in_keeps_its_colour_against_the_count() {
        // A white lost at rest makes the count miss a white, not a black.
        let seen = vec![pocketed_ne(Piece::Black, 1.0)];
        let resting = [
            (Piece::White, 10.0, 10.0),
            (Piece::Black, -100.0, 10.0),
            STRIKER_AT_REST,
        ];
        assert_eq!(reconciled((2, 1), seen.clone(), &resting), seen);
    }

    #[test]
    fn a_carromman_seen_going_in_is_never_renamed_the_striker() {
        // The striker lies unseen (taken for a white) and the white seen
        // going in is counted back by a ghost: the striker is "missing".
        let seen = vec![pocketed_ne(Piece::White, 1.0)];
        assert_eq!(
            reconciled((1, 0), seen.clone(), &[(Piece::White, 10.0, 10.0)]),
            seen
        );
    }

    #[test]
    fn a_piece_missing_at_rest_with_no_departure_seen_is_not_invented() {
        let before = SeenCount {
            white: 1,
            black: 0,
            queen: false,
        };
        let mut stroke = stroke_seen(before);
        let at_rest = at_rest_with(vec![track_of(3, Piece::Striker, Point2::new(0.0, -200.0))]);
        reconcile_exits(&mut stroke, &at_rest, &[], &[]);
        assert!(stroke.stroke.pocketed.is_empty());
    }

    #[test]
    fn a_striker_struck_from_south_is_not_the_north_placement_of_another_disc() {
        // A striker-sized disc lies on north's base lines all along (a piece
        // taken for the striker); the real striker is struck from south.
        let south = Point2::new(-40.0, -placed_north().y);
        let frames = (0..60).map(|i| {
            let mut discs = vec![disc(Piece::Striker, placed_north())];
            if (20..26).contains(&i) {
                discs.push(disc(
                    Piece::Striker,
                    south + nalgebra::Vector2::new(0.0, 60.0 * f64::from(i - 19)),
                ));
            }
            discs
        });
        let strokes = run(frames);
        assert_eq!(strokes.len(), 1, "{strokes:?}");
        assert_eq!(strokes[0].stroke.seat, Seat::South);
        let t = strokes[0].stroke.t.unwrap_or(f64::NAN);
        assert!((t - 19.0 * FRAME_S).abs() < 3.0 * FRAME_S, "struck at {t}");
    }

    #[test]
    fn a_striker_sized_disc_racing_out_of_the_centre_is_no_stroke() {
        // Two touching carrommen knocked apart can pass for a striker by
        // size; its path leads back to no seat's base lines.
        let frames = (0..30).map(|i| {
            let step = 40.0 * f64::from(i.min(10));
            vec![disc(Piece::Striker, Point2::new(step, step))]
        });
        let strokes = run(frames.skip(1));
        assert!(strokes.is_empty(), "{strokes:?}");
    }

    /// Clip 3902: south's striker, struck back at a black lying by the
    /// south cushion, knocked it over the frame under the hand, and the
    /// black's track was lost 0.71 s after the strike time reckoned, never
    /// seen in flight. Gone over the frame where the count at rest misses a
    /// black; not otherwise, nor with the striker not seen going back
    /// (clip 3563) or a new black seen since the strike (clip 5046), the
    /// piece lying elsewhere at the last rest, in front of the base lines,
    /// or lost long after the strike.
    #[test]
    fn a_carromman_lost_behind_the_strikers_lines_as_the_stroke_began_left_only_where_the_count_misses_one(
    ) {
        let lay = (85.0, -336.0);
        let play_struck = |struck_back: (bool, bool),
                           blacks_at_rest: u32,
                           lost_at: (f64, f64),
                           lay_at: (f64, f64),
                           t: f64| {
            let mut stroke = stroke_seen_with(9, 7);
            let lying = [(TrackId(14), Point2::new(lay_at.0, lay_at.1), Piece::Black)];
            let lost = (
                TrackId(14),
                Piece::Black,
                Point2::new(lost_at.0, lost_at.1),
                t,
            );
            stroke
                .vision
                .lost_behind_the_lines
                .extend(LostBehindTheLines::of(
                    &stroke.stroke,
                    struck_back,
                    &lying,
                    lost,
                ));
            let mut tracks = carrommen_in_a_row(9, blacks_at_rest);
            tracks.push(track_of(30, Piece::Striker, Point2::new(14.0, -234.0)));
            reconcile_exits(&mut stroke, &at_rest_with(tracks), &[], &[]);
            stroke
                .stroke
                .overboard
                .iter()
                .map(|o| o.piece)
                .collect::<Vec<Piece>>()
        };
        let play = |blacks_at_rest, lost_at, lay_at, t| {
            play_struck((true, false), blacks_at_rest, lost_at, lay_at, t)
        };
        assert_eq!(play(6, lay, lay, 0.71), vec![Piece::Black]);
        assert!(play_struck((false, false), 6, lay, lay, 0.71).is_empty());
        // A black come into sight since the strike (clip 5046).
        assert!(play_struck((true, true), 6, lay, lay, 0.71).is_empty());
        assert!(play(7, lay, lay, 0.71).is_empty());
        assert!(play(6, lay, (85.0, -280.0), 0.71).is_empty());
        assert!(play(6, (85.0, -200.0), (85.0, -200.0), 0.71).is_empty());
        assert!(play(6, lay, lay, 1.5).is_empty());
    }

    /// Clip 3902: south's striker, struck back at a black by the south
    /// cushion under the hand, was first seen at (48, -292) heading
    /// north-north-west off that cushion. Its path leads back to no seat's
    /// lines; folded off the cushion it leads to south's, the striking
    /// arm's, and to no other seat's.
    #[test]
    fn a_striker_first_seen_coming_off_its_own_cushion_was_launched_from_the_striking_seat() {
        let mut striker = track_of(54, Piece::Striker, Point2::new(48.0, -292.0));
        striker.velocity = Vector2::new(-168.0, 294.0);
        assert_eq!(launch_seat(&striker), None);
        let launch = launch_off_a_cushion(&striker, Seat::South).unwrap();
        assert_eq!(launch.seat, Seat::South);
        // Back 57 mm to the cushion line and 98 mm on to the base lines.
        assert!((150.0..=200.0).contains(&launch.travelled), "{launch:?}");
        assert_eq!(launch_off_a_cushion(&striker, Seat::West), None);
        assert_eq!(launch_off_a_cushion(&striker, Seat::North), None);
    }

    /// Clip 3750: the striker of south's stroke, its track begun on the
    /// south lines, was picked up and set down on the north lines under
    /// north's hand, and came out from under it at (-212, 259) heading west
    /// at 356 mm/s. Its path leads back from there at once to north's lines;
    /// from where its track began, its heading led on along the south lines
    /// and dated the strike 1.6 s early.
    #[test]
    fn a_striker_found_again_elsewhere_was_launched_from_where_it_came_into_sight() {
        let began = Point2::new(-1.0, -251.0);
        let found = Point2::new(-212.0, 259.0);
        let mut striker = track_of(28, Piece::Striker, began).found_again_at(found);
        striker.velocity = Vector2::new(-356.0, 3.0);
        let launch = launch_seat(&striker).unwrap();
        assert_eq!(launch.from, found);
        assert_eq!(launch.seat, Seat::North);
        assert_eq!(launch.travelled, 0.0);
        // A striker that ran straight on from where its track began is
        // still walked back from there where that leads further forward.
        let mut straight = track_of(3, Piece::Striker, Point2::new(0.0, -265.0))
            .found_again_at(Point2::new(0.0, -120.0));
        straight.velocity = Vector2::new(0.0, 2000.0);
        assert!(came_straight_from(&straight, Point2::new(0.0, -265.0)));
        assert!(!came_straight_from(&striker, began));
        assert!(came_straight_from(&striker, found));
    }
}
