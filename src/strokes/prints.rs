//! Prints the pieces uncovered. The board under the break arrangement is
//! never seen before the break, and the centre design printed there (which
//! the ICF drawing the empty-board model starts from lacks) shows up as
//! discs once the pieces leave it: tracks of pieces that left in a blur
//! settle on its petals and points, and are counted at rest as pieces. So
//! once the pieces of a stroke lie still, each resting track that lies
//! where the break arrangement lay, or over other board the model has never
//! seen empty (under the hand of the first frame), is looked for on the
//! camera frame, unless a piece lay on that spot before the stroke or the
//! board there held still through it (nothing was uncovered): a piece
//! shows a disc's outline there, a print does not. Where the break lay, a
//! petal whose edges pass for an outline is still told by the design
//! repeating it at a turn round the centre ([`crate::detect::symmetry`]),
//! which is looked for too on a track that came to rest where nothing moved
//! (a petal taking over a track as it lost its piece). A print's track is
//! dropped without a trace (nothing left the board) and the board under it
//! is learned as it looks.
//!
//! The striker leaves a print too: set down and aimed under the hand, it
//! lies still long enough for the model to take some of it in (its rim, the
//! fingers' shadow round it), and once struck away that ring stays in the
//! foreground; a track born on it as the stroke begins keeps the model from
//! learning the board back. So a track first seen in the stroke's first
//! frames that still lies where it was born is looked at the same way.

use std::collections::{HashMap, HashSet};

use nalgebra::Point2;
use opencv::core::Mat;

use crate::calibrate::gray::GrayImage;
use crate::detect::refine;
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

/// A track lying within this distance (mm) of where one lay before the
/// stroke began lies on a piece that never left its spot (the board under
/// it was never uncovered); one looked at and found a piece is looked at
/// again only once it has moved farther.
const MOVED_MM: f64 = 3.0;

/// Frames from a stroke's start in which a track born is born of the
/// strike: the striker's print shows the frame it leaves.
const STRIKE_FRAMES: u64 = 5;

/// A track dropped as a print: what it was taken for and where.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrintFound {
    /// The track dropped.
    pub id: TrackId,
    /// The piece it was taken for.
    pub piece: Piece,
    /// Where it lay, board mm.
    pub at: Point2<f64>,
    /// Whether it was born as the stroke began and never moved (else it
    /// lay over board never seen empty).
    pub born_at_the_strike: bool,
    /// Whether it was told from a piece by the board's design repeating it
    /// round the centre (else by showing no disc outline).
    pub repeated_by_the_design: bool,
}

impl PrintFound {
    /// The alert the stroke gets for it.
    pub fn alert(&self) -> String {
        let (where_, what) = if self.born_at_the_strike {
            (
                "first seen as the stroke began and never moved",
                "what the striker left where it lay",
            )
        } else {
            ("on board never seen empty", "the board's print")
        };
        let shows = if self.repeated_by_the_design {
            "matches the board's centre design turned round the centre"
        } else {
            "shows no disc outline"
        };
        format!(
            "a {} at ({:.0}, {:.0}) mm, {where_}, {shows}: {what}, not a piece",
            self.piece.name(),
            self.at.x,
            self.at.y
        )
    }
}

/// The tracks already looked at, with where they lay then.
#[derive(Debug, Clone, Default)]
pub struct PrintAudit {
    pieces_seen: HashMap<TrackId, Point2<f64>>,
    /// Where the tracks lay before the stroke under way began (whatever
    /// their names: see [`lay_there_before`]).
    before_the_stroke: Vec<Point2<f64>>,
    /// The tracks there were before the stroke under way began.
    ids_before: HashSet<TrackId>,
    /// The tracks first seen in the stroke's first frames
    /// ([`STRIKE_FRAMES`]), with where.
    born_at_the_strike: HashMap<TrackId, Point2<f64>>,
    /// The last frame before the stroke under way began.
    last_frame_before: u64,
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
        self.last_frame_before = frame.index;
        self.before_the_stroke.clear();
        self.before_the_stroke.extend(
            frame
                .tracks
                .iter()
                .filter(|t| t.piece != Piece::Striker)
                .map(|t| t.position),
        );
        self.ids_before.clear();
        self.ids_before.extend(frame.tracks.iter().map(|t| t.id));
        self.born_at_the_strike.clear();
    }

    /// Notes the tracks born in the first frames of the stroke under way
    /// (`frame` is one of its frames), with where they were born.
    pub fn in_the_stroke(&mut self, frame: &TrackFrame) {
        if frame.index.saturating_sub(self.last_frame_before) > STRIKE_FRAMES {
            return;
        }
        for track in &frame.tracks {
            if !self.ids_before.contains(&track.id) {
                self.born_at_the_strike
                    .entry(track.id)
                    .or_insert(track.position);
            }
        }
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
        let in_the_stroke = frame.index.saturating_sub(self.last_frame_before);
        // Each track looked at, and whether its outline is looked for too.
        // The striker's print lies on its face's spot, unchanged as it
        // leaves: a face that held still says nothing there. Nor does it
        // of a track that came to a spot where nothing moved (taken over
        // by a petal as it lost its piece): its outline is not looked for,
        // but the design's repeat still tells a petal.
        let to_look_at: Vec<(&Track, bool)> = frame
            .tracks
            .iter()
            .filter(|t| self.worth_a_look(t, detector))
            .filter_map(|t| {
                let uncovered = self.never_moved_since_the_strike(t)
                    || !never_uncovered(t, detector, in_the_stroke);
                (uncovered || under_the_break(t)).then_some((t, uncovered))
            })
            .collect();
        if to_look_at.is_empty() {
            return Ok(Vec::new());
        }
        let Ok(grey) = GrayImage::from_frame(look.image, 0.0) else {
            return Ok(Vec::new());
        };
        let mut prints = Vec::new();
        for (track, uncovered) in to_look_at {
            // Where the break lay, the design's petals can pass for an
            // outline; a petal repeats round the centre, a piece does not.
            let repeated_by_the_design = under_the_break(track)
                && detector.repeats_round_the_centre(look.rectified, track.position)?;
            let print = is_print(repeated_by_the_design, uncovered, || {
                outline_near(&grey, look, track)
            });
            if !print {
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
                born_at_the_strike: self.never_moved_since_the_strike(track),
                repeated_by_the_design,
            });
        }
        Ok(prints)
    }

    /// Whether `track` is a carromman at rest this frame that came there in
    /// the stroke and has not been looked at there, over board the model
    /// cannot vouch for.
    fn worth_a_look(&self, track: &Track, detector: &Detector) -> bool {
        let looked_at_here = self
            .pieces_seen
            .get(&track.id)
            .is_some_and(|&at| near(at, track.position));
        track.piece != Piece::Striker
            && track.seen_this_frame()
            && !track.hidden
            && track.speed() < STILL_MM_S
            && !lay_there_before(&self.before_the_stroke, track.position)
            && !looked_at_here
            && (under_the_break(track)
                || self.never_moved_since_the_strike(track)
                || detector.unseen_board_fraction(track.position, track.radius_mm())
                    >= UNSEEN_TO_LOOK)
    }

    /// Whether `track` was born as the stroke began and still lies where.
    fn never_moved_since_the_strike(&self, track: &Track) -> bool {
        self.born_at_the_strike
            .get(&track.id)
            .is_some_and(|&born| near(born, track.position))
    }
}

/// Whether a resting track looked at is the board's print: repeated by the
/// design round the centre, or, where the board under it was uncovered in
/// the stroke, showing no disc outline (`outline` looks); a track that came
/// to rest where nothing moved, not repeated, is kept without a look.
fn is_print(repeated_by_the_design: bool, uncovered: bool, outline: impl FnOnce() -> bool) -> bool {
    repeated_by_the_design || (uncovered && !outline())
}

/// Whether `track` lies where the break arrangement lay (see
/// [`UNDER_THE_BREAK_MM`]).
fn under_the_break(track: &Track) -> bool {
    track.position.coords.norm() <= UNDER_THE_BREAK_MM
}

/// Whether two places are one spot (within [`MOVED_MM`]).
fn near(a: Point2<f64>, b: Point2<f64>) -> bool {
    (a - b).norm() <= MOVED_MM
}

/// Whether any track lay at `at` before the stroke (`before`): whatever its
/// name, since identities can swap as the pieces scatter, and a piece
/// nudged in place keeps its spot, not its name.
fn lay_there_before(before: &[Point2<f64>], at: Point2<f64>) -> bool {
    before.iter().any(|&was| near(was, at))
}

/// Whether the face of the piece `track` follows has held still over the
/// whole stroke so far (`frames` frames): a piece that lay there all along,
/// since a print is uncovered only when a piece leaves it.
fn never_uncovered(track: &Track, detector: &Detector, frames: u64) -> bool {
    let frames = u8::try_from(frames).unwrap_or(u8::MAX);
    detector.still_for(track.position, FACE_FRACTION * track.radius_mm(), frames)
        >= STILL_FACE_FRACTION
}

/// The inner part of a piece looked at for [`never_uncovered`]: its face,
/// clear of the blur of pieces passing by its rim.
const FACE_FRACTION: f64 = 0.6;

/// Fraction of the face that must have held still.
const STILL_FACE_FRACTION: f64 = 0.9;

/// Whether a disc's outline, of a carromman's or the striker's size (the
/// tracker may take the one for the other), shows on the camera frame near
/// the track.
fn outline_near(grey: &GrayImage, look: &CameraLook<'_>, track: &Track) -> bool {
    refine::outline_near(
        grey,
        look.top_view,
        look.shift,
        track.position,
        &[CARROMMAN_RADIUS_MM, STRIKER_RADIUS_MM],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::{Detection, Detections};
    use crate::track::TrackerOptions;

    fn track_of(id: u32, piece: Piece, x: f64, y: f64) -> Track {
        let mut tracker = Tracker::new(TrackerOptions::default());
        let frame = tracker.seed(&Detections {
            discs: vec![Detection {
                centre: Point2::new(x, y),
                radius_mm: if piece == Piece::Striker { 20.0 } else { 15.5 },
                piece,
                by_colour: piece,
                confidence: 0.9,
                colour_distances: None,
            }],
            ..Detections::default()
        });
        let mut track = frame.tracks[0].clone();
        track.id = TrackId(id);
        track
    }

    fn frame_of(index: u64, tracks: Vec<Track>) -> TrackFrame {
        TrackFrame {
            index,
            t: index as f64 / 30.0,
            tracks,
            ..TrackFrame::default()
        }
    }

    #[test]
    fn a_print_is_told_by_the_design_s_repeat_or_where_uncovered_by_no_outline() {
        let no_look = || -> bool { panic!("the outline is not looked for") };
        // Repeated round the centre: print, whatever outline shows.
        assert!(is_print(true, true, no_look));
        assert!(is_print(true, false, no_look));
        // Uncovered in the stroke: the outline decides.
        assert!(is_print(false, true, || false));
        assert!(!is_print(false, true, || true));
        // Come to rest where nothing moved, not repeated: kept unlooked at.
        assert!(!is_print(false, false, no_look));
    }

    #[test]
    fn a_print_s_alert_says_how_it_was_told_from_a_piece() {
        let print = |repeated_by_the_design| PrintFound {
            id: TrackId(7),
            piece: Piece::Queen,
            at: Point2::new(21.0, 0.4),
            born_at_the_strike: false,
            repeated_by_the_design,
        };
        assert_eq!(
            print(true).alert(),
            "a queen at (21, 0) mm, on board never seen empty, matches the board's centre design turned round the centre: the board's print, not a piece"
        );
        assert!(print(false).alert().contains("shows no disc outline"));
    }

    #[test]
    fn a_track_born_as_the_stroke_began_is_looked_at_while_it_lies_where_it_was_born() {
        let mut audit = PrintAudit::default();
        let striker = track_of(1, Piece::Striker, 0.0, -251.0);
        let black = track_of(2, Piece::Black, 100.0, 100.0);
        audit.between_strokes(&frame_of(80, vec![striker, black.clone()]));
        // Born on the striker's spot the frame it left, and a white found
        // later in the stroke.
        let print = track_of(3, Piece::White, 0.5, -251.0);
        audit.in_the_stroke(&frame_of(81, vec![black.clone(), print.clone()]));
        let late = track_of(4, Piece::White, 50.0, 50.0);
        audit.in_the_stroke(&frame_of(
            90,
            vec![black.clone(), print.clone(), late.clone()],
        ));
        assert!(audit.never_moved_since_the_strike(&print));
        assert!(!audit.never_moved_since_the_strike(&black));
        assert!(!audit.never_moved_since_the_strike(&late));
        let mut moved = print.clone();
        moved.position.y += 10.0;
        assert!(!audit.never_moved_since_the_strike(&moved));
        // Where the striker lay is no carromman's spot.
        assert!(!lay_there_before(&audit.before_the_stroke, print.position));
        // The next stroke starts afresh.
        audit.between_strokes(&frame_of(120, vec![black, print.clone()]));
        assert!(!audit.never_moved_since_the_strike(&print));
    }

    #[test]
    fn a_piece_nudged_in_place_lay_there_before_whatever_its_track_is_called() {
        // Where tracks 4 and 9 lay before the stroke.
        let before = [Point2::new(-0.6, 33.0), Point2::new(27.5, 15.9)];
        // Track 4 now lies 2.5 mm from where track 9 lay: the same piece.
        assert!(lay_there_before(&before, Point2::new(26.0, 14.0)));
        // A petal 7.6 mm from the nearest spot was uncovered.
        assert!(!lay_there_before(&before, Point2::new(32.0, 10.0)));
        assert!(!lay_there_before(&[], Point2::origin()));
    }
}
