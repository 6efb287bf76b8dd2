//! Pieces seen in flight over the frame. A carromman that jumps the board
//! crosses the frame's top in the frame or two after it leaves the
//! cushion, where nothing else but an arm ever is: a disc-sized patch that
//! differs from the empty frame there is a piece leaving the board, and
//! none there, where a piece running at the frame was lost, is a bounce.
//! The tracker never follows a piece over the frame (a disc found there is
//! dropped as off the surface), so this is the one sight of it leaving.

use nalgebra::{Point2, Vector2};

use super::background::Background;
use super::{Occluder, OcclusionCause};
use crate::geometry::spec::{BOARD_OUTER_SIDE_MM, CARROMMAN_RADIUS_MM, HALF_SURFACE_MM};
use crate::geometry::Seat;
use crate::template::TemplateFrame;

/// A disc seen over one side of the frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrameSighting {
    /// The side of the frame, named by the seat there.
    pub side: Seat,
    /// Centre, board mm (where it shows in the top view: a piece in the air
    /// shows farther out than it is).
    pub centre: Point2<f64>,
    /// How far the patch differs from the empty frame, above the strip's
    /// typical difference (0–255 per channel, mean over the patch).
    pub strength: f32,
    /// The patch's luma less the empty frame's there (lamp gain applied):
    /// a black shows darker, a white lighter.
    pub luma_change: f32,
}

/// A patch must differ from the empty frame by this much (mean over the
/// patch of the largest channel difference, above the strip's median) to
/// be a disc. Over the 300 development clips' breaks, a 14 mm patch's mean
/// difference (the median not taken off) over the empty frame, away from
/// arms, reached 4–6 (once 10.8), and over the 33 pieces that jumped it
/// 6.8–82.
pub const MIN_FLIGHT_STRENGTH: f32 = 5.0;

/// Half the side (mm) of the square patch compared: within a carromman's
/// face, so its whole area is the piece.
const PATCH_HALF_MM: f64 = 7.0;

/// The patch's centre lies at least this far (mm) beyond the surface's
/// edge: a piece lying against the cushion (or its blur and shadow) shows
/// a little over the frame's inner edge.
const INNER_MARGIN_MM: f64 = 30.0;

/// A disc is narrower than an arm: the patches this far (mm) along the
/// frame on either side of it must differ at most this fraction as much.
const BESIDE_MM: f64 = 2.0 * CARROMMAN_RADIUS_MM;
const BESIDE_FRACTION: f32 = 0.5;

/// Sightings per side at most (strongest first).
const MAX_PER_SIDE: usize = 3;

/// How far (mm) round a hand a sighting is not trusted: the arm's shadow
/// and blurred fingers.
const HAND_MARGIN_MM: f64 = 2.0 * CARROMMAN_RADIUS_MM;

/// How far out (mm, from the board's centre line) a disc over the frame
/// is looked for: the top view's edge (a frame of the nominal width). A
/// narrower frame leaves the table there, as still as the frame.
const FRAME_OUTER_HALF_MM: f64 = BOARD_OUTER_SIDE_MM / 2.0;

/// Scratch buffers kept between frames, so a look allocates nothing.
#[derive(Debug, Default, Clone)]
pub struct FlightScratch {
    difference: Vec<f32>,
    sums: Vec<f64>,
    sorted: Vec<f32>,
}

/// Looks over the frame on `sides` of the top view `bgr` (rows of `frame`'s
/// `side_px` BGR pixels) for discs that differ from the empty board
/// `model`, away from `occluders` that are hands.
pub fn look_over_the_frame(
    model: &Background,
    bgr: &[u8],
    frame: &TemplateFrame,
    sides: &[Seat],
    occluders: &[Occluder],
    scratch: &mut FlightScratch,
) -> Vec<FrameSighting> {
    let mut sightings = Vec::new();
    for &side in sides {
        look_along(model, bgr, frame, side, occluders, scratch, &mut sightings);
    }
    sightings
}

/// A frame this dark (its luma, 0–255, lamp gain applied: the median over
/// the band where a flying piece is looked for) hides a black in flight: a
/// black in the air over it shows no patch that differs from the empty
/// frame. Dev clips 3586 and 3684 (frames of luma 12–21): a black that flew
/// over the frame showed nothing in any frame, and the look, finding
/// nothing, took it for a bounce; over the frames of 3609 and 3689 (luma
/// 31–51) a black that came back off the cushion was ruled on by the look.
pub const DARKEST_FRAME_SHOWING_A_BLACK: f32 = 26.0;

/// A frame must be lighter than the blacks by this many levels of luma
/// (0–255, the blacks' as the colour models have them over the empty
/// board) to show one in flight. A black lighter than the frame shows no
/// patch over it either: dev clip 3823's black (luma 40) flew over a west
/// frame of luma 34 and showed only a faint rim in one frame, and the
/// look, finding nothing, took it for a bounce; those of 3586 and 3684
/// (27 and 36 over frames of 15 and 18) showed nothing. Over 3689's frame,
/// 11 levels lighter than its blacks, a black that came back off the
/// cushion was ruled on by the look.
pub const FRAME_LIGHTER_THAN_A_BLACK_SHOWING: f32 = 5.0;

/// Whether a black in flight shows over a frame of luma `frame_luma`, with
/// the blacks of luma `black_luma` where the colour models say (both
/// 0–255).
pub fn frame_shows_a_black(frame_luma: f32, black_luma: Option<f32>) -> bool {
    frame_luma > DARKEST_FRAME_SHOWING_A_BLACK
        && black_luma.is_none_or(|black| frame_luma >= black + FRAME_LIGHTER_THAN_A_BLACK_SHOWING)
}

/// The empty frame's typical luma (0–255, lamp gain applied) on `side` of
/// the top view: the median over the known pixels of the band where
/// flying pieces are looked for; `None` where none is known.
pub fn frame_luma(model: &Background, frame: &TemplateFrame, side: Seat) -> Option<f32> {
    let (width, height) = model.size();
    let rect = strip_pixels(frame, side, width.min(height))?;
    let band = looked_over_band();
    // Every other pixel each way says the median as well as all of them.
    let mut lumas: Vec<f32> = (rect.y0..rect.y0 + rect.height)
        .step_by(2)
        .flat_map(|row| {
            (rect.x0..rect.x0 + rect.width)
                .step_by(2)
                .map(move |column| (column, row))
        })
        .filter(|&(column, row)| {
            let at = frame.px_to_board(Point2::new(column as f64, row as f64));
            let out = outward_of(side, at.coords);
            band.contains(&out) && model.is_known(column, row)
        })
        .map(|(column, row)| model.luma_at(column, row) as f32)
        .collect();
    super::background::median(&mut lumas)
}

/// The empty playing surface's typical luma (0–255, lamp gain applied):
/// the median over a grid of its known pixels; `None` where none is known.
pub fn empty_surface_luma(model: &Background, frame: &TemplateFrame) -> Option<f32> {
    let (width, height) = model.size();
    // Some 3,600 pixels say the median of a plain wood surface.
    let step = (width.min(height) / 60).max(1);
    let mut lumas: Vec<f32> = (0..height)
        .step_by(step)
        .flat_map(|row| (0..width).step_by(step).map(move |column| (column, row)))
        .filter(|&(column, row)| {
            let at = frame.px_to_board(Point2::new(column as f64, row as f64));
            at.x.abs() < HALF_SURFACE_MM
                && at.y.abs() < HALF_SURFACE_MM
                && model.is_known(column, row)
        })
        .map(|(column, row)| model.luma_at(column, row) as f32)
        .collect();
    super::background::median(&mut lumas)
}

/// How far out (mm, from the board's centre line) a patch's centre may lie
/// to be looked at over the frame: past the surface's edge by
/// [`INNER_MARGIN_MM`], and whole within the top view's edge.
fn looked_over_band() -> std::ops::RangeInclusive<f64> {
    HALF_SURFACE_MM + INNER_MARGIN_MM..=FRAME_OUTER_HALF_MM - PATCH_HALF_MM
}

/// A rectangle of top-view pixels: first column, first row, width, height.
#[derive(Debug, Clone, Copy, PartialEq)]
struct PixelRect {
    x0: usize,
    y0: usize,
    width: usize,
    height: usize,
}

/// The pixels of the frame's strip on `side`, clipped to a `side_px` view.
fn strip_pixels(frame: &TemplateFrame, side: Seat, side_px: usize) -> Option<PixelRect> {
    let (inner, outer) = (HALF_SURFACE_MM, FRAME_OUTER_HALF_MM);
    // Two corners of the strip in board mm (lateral from corner to corner).
    let (a, b) = match side {
        Seat::East => (Point2::new(inner, outer), Point2::new(outer, -outer)),
        Seat::West => (Point2::new(-outer, outer), Point2::new(-inner, -outer)),
        Seat::North => (Point2::new(-outer, outer), Point2::new(outer, inner)),
        Seat::South => (Point2::new(-outer, -inner), Point2::new(outer, -outer)),
    };
    let (pa, pb) = (frame.board_to_px(a), frame.board_to_px(b));
    let clamp = |v: f64| v.round().clamp(0.0, side_px as f64) as usize;
    let (x0, x1) = (clamp(pa.x.min(pb.x)), clamp(pa.x.max(pb.x)));
    let (y0, y1) = (clamp(pa.y.min(pb.y)), clamp(pa.y.max(pb.y)));
    (x1 > x0 && y1 > y0).then_some(PixelRect {
        x0,
        y0,
        width: x1 - x0,
        height: y1 - y0,
    })
}

/// How far `v` (a board point's coordinates, or a velocity) points out
/// over `side`'s frame.
pub fn outward_of(side: Seat, v: Vector2<f64>) -> f64 {
    outward(side).dot(&v)
}

/// The unit vector pointing out over `side`'s frame.
pub fn outward(side: Seat) -> Vector2<f64> {
    match side {
        Seat::East => Vector2::new(1.0, 0.0),
        Seat::West => Vector2::new(-1.0, 0.0),
        Seat::North => Vector2::new(0.0, 1.0),
        Seat::South => Vector2::new(0.0, -1.0),
    }
}

fn look_along(
    model: &Background,
    bgr: &[u8],
    frame: &TemplateFrame,
    side: Seat,
    occluders: &[Occluder],
    scratch: &mut FlightScratch,
    sightings: &mut Vec<FrameSighting>,
) {
    let (width, height) = model.size();
    if width != height || bgr.len() < 3 * width * height {
        return;
    }
    let Some(rect) = strip_pixels(frame, side, width) else {
        return;
    };
    let means = model.means();
    let gain = model.gain();
    let n = rect.width * rect.height;
    let FlightScratch {
        difference,
        sums,
        sorted,
    } = scratch;
    // Each channel's difference from the model at a known pixel (none at
    // one the model has not seen).
    let channel_differences = |column: usize, row: usize| {
        let i = row * width + column;
        model
            .is_known(column, row)
            .then(|| [0, 1, 2].map(|c| f32::from(bgr[3 * i + c]) - gain * means[3 * i + c]))
    };
    difference.clear();
    for row in rect.y0..rect.y0 + rect.height {
        for column in rect.x0..rect.x0 + rect.width {
            let largest = channel_differences(column, row)
                .map_or(0.0, |d| d.iter().fold(0.0f32, |m, v| m.max(v.abs())));
            difference.push(largest);
        }
    }
    sorted.clear();
    sorted.extend_from_slice(difference);
    let middle = n / 2;
    let typical = if n == 0 {
        0.0
    } else {
        *sorted.select_nth_unstable_by(middle, f32::total_cmp).1
    };
    integrate(difference, rect.width, rect.height, sums);
    let half = (PATCH_HALF_MM * frame.px_per_mm).round().max(1.0) as usize;
    let area = ((2 * half + 1) * (2 * half + 1)) as f64;
    let beside = (BESIDE_MM * frame.px_per_mm).round().max(1.0) as usize;
    let band = looked_over_band();
    let box_sum = |sums: &[f64], x: usize, y: usize| {
        let w = rect.width + 1;
        let (x0, y0, x1, y1) = (x - half, y - half, x + half + 1, y + half + 1);
        sums[y1 * w + x1] - sums[y0 * w + x1] - sums[y1 * w + x0] + sums[y0 * w + x0]
    };
    let strength_at = |x: usize, y: usize| (box_sum(sums, x, y) / area) as f32 - typical;
    // Along the frame: x for the north and south sides, y for the east and
    // west.
    let along_x = matches!(side, Seat::North | Seat::South);
    // A disc is narrower than an arm: the patches a diameter along the
    // frame either side of it (beyond the strip's ends counts as quiet)
    // differ far less.
    let narrow = |x: usize, y: usize, strength: f32| {
        let (at, len) = if along_x {
            (x, rect.width)
        } else {
            (y, rect.height)
        };
        let quiet_at = |k: usize| {
            let (bx, by) = if along_x { (k, y) } else { (x, k) };
            strength_at(bx, by) <= BESIDE_FRACTION * strength
        };
        at.checked_sub(beside)
            .is_none_or(|k| k < half || quiet_at(k))
            && (at + beside + half >= len || quiet_at(at + beside))
    };
    // Candidates: patch (column, row in the strip), centre, strength.
    let mut found: Vec<(usize, usize, Point2<f64>, f32)> = Vec::new();
    for y in half..rect.height.saturating_sub(half) {
        for x in half..rect.width.saturating_sub(half) {
            let centre = frame.px_to_board(Point2::new((rect.x0 + x) as f64, (rect.y0 + y) as f64));
            let out = outward_of(side, centre.coords);
            if !band.contains(&out) {
                continue;
            }
            let strength = strength_at(x, y);
            if strength < MIN_FLIGHT_STRENGTH || !narrow(x, y, strength) {
                continue;
            }
            let hidden = occluders
                .iter()
                .any(|o| o.cause == OcclusionCause::Hand && o.covers(centre, HAND_MARGIN_MM));
            if hidden {
                continue;
            }
            found.push((x, y, centre, strength));
        }
    }
    // The strongest patch of each disc: others within a diameter of a
    // stronger one are the same disc.
    found.sort_by(|a, b| b.3.total_cmp(&a.3));
    let mut kept: Vec<FrameSighting> = Vec::new();
    for (x, y, centre, strength) in found {
        if kept.len() == MAX_PER_SIDE {
            break;
        }
        let apart = kept
            .iter()
            .all(|k| (k.centre - centre).norm() > 2.0 * CARROMMAN_RADIUS_MM);
        if !apart {
            continue;
        }
        // The patch's mean luma change, over the known pixels' channels.
        let (x0, y0) = (rect.x0 + x - half, rect.y0 + y - half);
        let mut change = 0.0f64;
        for row in y0..=y0 + 2 * half {
            for column in x0..=x0 + 2 * half {
                if let Some(d) = channel_differences(column, row) {
                    change += f64::from((d[0] + d[1] + d[2]) / 3.0);
                }
            }
        }
        kept.push(FrameSighting {
            side,
            centre,
            strength,
            luma_change: (change / area) as f32,
        });
    }
    sightings.extend(kept);
}

/// The summed-area table of `values` (`width` × `height`, row-major) into
/// `sums`, one row and column larger, zero on the first of each.
fn integrate(values: &[f32], width: usize, height: usize, sums: &mut Vec<f64>) {
    let w = width + 1;
    sums.clear();
    sums.resize(w * (height + 1), 0.0);
    for y in 0..height {
        let mut row = 0.0;
        for x in 0..width {
            row += f64::from(values[y * width + x]);
            sums[(y + 1) * w + x + 1] = sums[y * w + x + 1] + row;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A top view of `side` px at `px_per_mm`: uniform frame-coloured wood,
    /// with discs of `bgr` at the given board points.
    fn view(frame: &TemplateFrame, side: usize, discs: &[(Point2<f64>, [u8; 3])]) -> Vec<u8> {
        let mut bgr = vec![0u8; 3 * side * side];
        for row in 0..side {
            for column in 0..side {
                let at = frame.px_to_board(Point2::new(column as f64, row as f64));
                let mut colour = [40u8, 60, 100];
                for &(centre, disc) in discs {
                    if (at - centre).norm() <= CARROMMAN_RADIUS_MM {
                        colour = disc;
                    }
                }
                // A little texture, as wood has.
                let grain = ((column * 7 + row * 3) % 5) as u8;
                let i = 3 * (row * side + column);
                for c in 0..3 {
                    bgr[i + c] = colour[c].saturating_add(grain);
                }
            }
        }
        bgr
    }

    fn setup() -> (TemplateFrame, usize, Background) {
        let frame = TemplateFrame::for_scale(0.5).unwrap();
        let side = frame.side_px() as usize;
        let empty = view(&frame, side, &[]);
        (frame, side, Background::from_bgr(&empty, side, side))
    }

    #[test]
    fn a_black_over_the_east_frame_is_seen_there_and_darker() {
        let (frame, side, model) = setup();
        let at = Point2::new(405.0, -50.0);
        let bgr = view(&frame, side, &[(at, [25, 25, 25])]);
        let mut scratch = FlightScratch::default();
        let seen = look_over_the_frame(&model, &bgr, &frame, &Seat::TURN_ORDER, &[], &mut scratch);
        assert_eq!(seen.len(), 1, "{seen:?}");
        assert_eq!(seen[0].side, Seat::East);
        assert!((seen[0].centre - at).norm() < PATCH_HALF_MM, "{seen:?}");
        assert!(seen[0].luma_change < -20.0, "{seen:?}");
    }

    #[test]
    fn the_empty_frame_and_a_piece_against_the_cushion_show_nothing() {
        let (frame, side, model) = setup();
        // A white lying against the west cushion: its rim meets the frame.
        let against = Point2::new(-HALF_SURFACE_MM + CARROMMAN_RADIUS_MM, 30.0);
        let bgr = view(&frame, side, &[(against, [220, 235, 245])]);
        let mut scratch = FlightScratch::default();
        let seen = look_over_the_frame(&model, &bgr, &frame, &Seat::TURN_ORDER, &[], &mut scratch);
        assert!(seen.is_empty(), "{seen:?}");
    }

    #[test]
    fn a_disc_under_a_hand_is_not_taken_for_a_piece_in_flight() {
        let (frame, side, model) = setup();
        let at = Point2::new(-20.0, -400.0);
        let bgr = view(&frame, side, &[(at, [200, 210, 230])]);
        let hand = Occluder {
            min: Point2::new(-60.0, -445.0),
            max: Point2::new(30.0, -300.0),
            cause: OcclusionCause::Hand,
            enters_from: Some(Seat::South),
        };
        let mut scratch = FlightScratch::default();
        let looked = |occluders: &[Occluder], scratch: &mut FlightScratch| {
            look_over_the_frame(&model, &bgr, &frame, &[Seat::South], occluders, scratch)
        };
        assert_eq!(looked(&[], &mut scratch).len(), 1);
        assert!(looked(&[hand], &mut scratch).is_empty());
    }

    #[test]
    fn a_frame_no_lighter_than_the_blacks_hides_one_in_flight() {
        // Dev clip 3689: a frame of 35 over blacks of 23 shows one.
        assert!(frame_shows_a_black(34.9, Some(23.4)));
        // Dev clip 3823: a frame of 34 under blacks of 40 does not.
        assert!(!frame_shows_a_black(33.6, Some(40.0)));
        // Nor one only as light as the blacks, nor a near-black frame,
        // whatever the blacks.
        assert!(!frame_shows_a_black(40.0, Some(40.0)));
        assert!(!frame_shows_a_black(20.0, Some(5.0)));
        // Before the colour models know the blacks, the frame's own luma
        // decides.
        assert!(frame_shows_a_black(33.6, None));
    }

    #[test]
    fn the_surface_luma_is_the_empty_boards_not_the_frames() {
        let (frame, side, _) = setup();
        let mut bgr = view(&frame, side, &[]);
        for row in 0..side {
            for column in 0..side {
                let at = frame.px_to_board(Point2::new(column as f64, row as f64));
                if at.x.abs().max(at.y.abs()) < HALF_SURFACE_MM {
                    bgr[3 * (row * side + column)..3 * (row * side + column) + 3]
                        .copy_from_slice(&[150, 180, 210]);
                }
            }
        }
        let model = Background::from_bgr(&bgr, side, side);
        let surface = empty_surface_luma(&model, &frame).unwrap();
        assert!((179.0..=181.0).contains(&surface), "{surface}");
        let frame_side = frame_luma(&model, &frame, Seat::South).unwrap();
        assert!((66.0..=71.0).contains(&frame_side), "{frame_side}");
    }

    #[test]
    fn the_frames_luma_tells_a_frame_dark_enough_to_hide_a_black() {
        let (frame, side, light) = setup();
        for seat in Seat::TURN_ORDER {
            let luma = frame_luma(&light, &frame, seat).unwrap();
            // [40, 60, 100] and a grain of 0-4 levels.
            assert!((66.0..=71.0).contains(&luma), "{seat:?}: {luma}");
            assert!(luma > DARKEST_FRAME_SHOWING_A_BLACK);
        }
        // A near-black frame, with a light board inside it that the band
        // looked at must not take in.
        let mut bgr = view(&frame, side, &[]);
        for row in 0..side {
            for column in 0..side {
                let at = frame.px_to_board(Point2::new(column as f64, row as f64));
                let colour = if at.x.abs().max(at.y.abs()) > HALF_SURFACE_MM {
                    [12, 14, 16]
                } else {
                    [150, 180, 210]
                };
                bgr[3 * (row * side + column)..3 * (row * side + column) + 3]
                    .copy_from_slice(&colour);
            }
        }
        let dark = Background::from_bgr(&bgr, side, side);
        for seat in Seat::TURN_ORDER {
            let luma = frame_luma(&dark, &frame, seat).unwrap();
            assert!((13.0..=15.0).contains(&luma), "{seat:?}: {luma}");
            assert!(luma <= DARKEST_FRAME_SHOWING_A_BLACK);
        }
    }
}
