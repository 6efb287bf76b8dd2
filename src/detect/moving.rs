//! A second look for a piece in motion that the detector missed. A white
//! carromman crossing light wood differs from the board by little, and
//! where it passes over a base line the line shows through the foreground
//! as a hole: the blob left is a ring or a crescent with no disc-sized
//! core. Where the tracker expects such a piece, the whole disc's
//! difference from the empty-board model still stands out: a matched
//! filter finds it there, in a window no larger than the piece's reach.

use nalgebra::Point2;

use super::background::{self, Background};
use crate::geometry::spec::{CARROMMAN_RADIUS_MM, HALF_SURFACE_MM};
use crate::template::TemplateFrame;

/// A disc found this way differs from the empty board by at least this much
/// more (mean of the largest channel difference, 0–255) inside than in the
/// ring just round it. A white in motion over light wood measured 34 in the
/// simulator's clips, and the empty board about 1 (the model tracks the
/// wood's grain and the lamp); resting whites found by the search for
/// faint pieces measure 25 to 35.
const MIN_CONTRAST: f64 = 12.0;

/// The ring compared with lies this many pixels beyond the disc's edge...
const RING_GAP_PX: f64 = 1.0;

/// ...and is this many pixels wide.
const RING_WIDTH_PX: f64 = 3.0;

/// Fewest of the disc's pixels, and of the ring's, that must be comparable
/// (a view of the empty board, not under another piece or a hand).
const MIN_VALID_FRACTION: f64 = 0.6;

/// A piece the tracker expects near `near` (board mm), within `reach_mm`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sought {
    /// Where the piece should be, board mm.
    pub near: Point2<f64>,
    /// How far from there it may be, mm.
    pub reach_mm: f64,
}

/// A disc found in motion, in top-view pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MovingDisc {
    /// Column of the centre.
    pub column: f64,
    /// Row of the centre.
    pub row: f64,
    /// How much more it differs from the empty board than the ring round it.
    pub contrast: f64,
}

/// The strongest carromman-sized disc differing from the empty board within
/// `sought`'s reach in `bgr` (the top view, `frame`'s layout), if one stands
/// out by `MIN_CONTRAST` (12 levels). `usable` says which pixels may be
/// compared (the model has seen the empty board there, and no other piece
/// or hand lies on them); `gain` is this frame's lamp gain against the model.
pub fn find_moving(
    bgr: &[u8],
    model: &Background,
    gain: f32,
    frame: &TemplateFrame,
    usable: &[bool],
    sought: &Sought,
) -> Option<MovingDisc> {
    let (side, _) = model.size();
    if bgr.len() < 3 * side * side || usable.len() < side * side {
        return None;
    }
    let radius = CARROMMAN_RADIUS_MM * frame.px_per_mm;
    let outer = radius + RING_GAP_PX + RING_WIDTH_PX;
    let centre = frame.board_to_px(sought.near);
    let reach = sought.reach_mm * frame.px_per_mm;
    // Centres stay on the playing surface, with their ring in the view.
    let low = frame.board_to_px(Point2::new(-HALF_SURFACE_MM, HALF_SURFACE_MM));
    let high = frame.board_to_px(Point2::new(HALF_SURFACE_MM, -HALF_SURFACE_MM));
    let clamp_low = |v: f64, edge: f64| v.max(edge).max(outer).ceil() as usize;
    let clamp_high = |v: f64, edge: f64| {
        (v.min(edge).min(side as f64 - 1.0 - outer))
            .floor()
            .max(0.0) as usize
    };
    let (x0, x1) = (
        clamp_low(centre.x - reach, low.x),
        clamp_high(centre.x + reach, high.x),
    );
    let (y0, y1) = (
        clamp_low(centre.y - reach, low.y),
        clamp_high(centre.y + reach, high.y),
    );
    if x1 < x0 || y1 < y0 {
        return None;
    }
    let means = model.means();
    let difference = |i: usize| -> f64 {
        (0..3)
            .map(|c| (f32::from(bgr[3 * i + c]) - gain * means[3 * i + c]).abs())
            .fold(0.0f32, f32::max)
            .into()
    };
    let disc_contrast = |cx: f64, cy: f64| -> Option<f64> {
        let (inner_r2, gap_r2, outer_r2) = (
            radius * radius,
            (radius + RING_GAP_PX).powi(2),
            outer * outer,
        );
        let (mut inside, mut n_inside, mut all_inside) = (0.0, 0.0, 0.0);
        let (mut ring, mut n_ring, mut all_ring) = (0.0, 0.0, 0.0);
        for i in background::disc_pixels(side, side, cx, cy, outer) {
            let (dx, dy) = ((i % side) as f64 - cx, (i / side) as f64 - cy);
            let d2 = dx * dx + dy * dy;
            let (sum, n, all) = if d2 <= inner_r2 {
                (&mut inside, &mut n_inside, &mut all_inside)
            } else if d2 > gap_r2 && d2 <= outer_r2 {
                (&mut ring, &mut n_ring, &mut all_ring)
            } else {
                continue;
            };
            *all += 1.0;
            if usable[i] {
                *sum += difference(i);
                *n += 1.0;
            }
        }
        let enough = |n: f64, all: f64| all > 0.0 && n >= MIN_VALID_FRACTION * all;
        (enough(n_inside, all_inside) && enough(n_ring, all_ring))
            .then(|| inside / n_inside - ring / n_ring)
    };
    let mut best: Option<MovingDisc> = None;
    let consider = |best: &mut Option<MovingDisc>, cx: f64, cy: f64| {
        if let Some(contrast) = disc_contrast(cx, cy) {
            if best.is_none_or(|b| contrast > b.contrast) {
                *best = Some(MovingDisc {
                    column: cx,
                    row: cy,
                    contrast,
                });
            }
        }
    };
    // Every other pixel is near enough: the best is then refined to one.
    let reach2 = reach * reach;
    for y in (y0..=y1).step_by(2) {
        for x in (x0..=x1).step_by(2) {
            let (cx, cy) = (x as f64, y as f64);
            if (cx - centre.x).powi(2) + (cy - centre.y).powi(2) <= reach2 && usable[y * side + x] {
                consider(&mut best, cx, cy);
            }
        }
    }
    let coarse = best?;
    for dy in -1..=1 {
        for dx in -1..=1 {
            consider(
                &mut best,
                coarse.column + f64::from(dx),
                coarse.row + f64::from(dy),
            );
        }
    }
    best.filter(|b| b.contrast >= MIN_CONTRAST)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::{test_paint_disc, test_paint_white, test_wood};

    /// Wood with a dark base line two pixels wide down column `column`.
    fn wood_with_line(side: usize, seed: u64, column: usize) -> Vec<u8> {
        let mut bgr = test_wood(side, seed);
        for row in 0..side {
            for x in column..column + 2 {
                let i = row * side + x;
                bgr[3 * i..3 * i + 3].copy_from_slice(&[30, 30, 35]);
            }
        }
        bgr
    }

    #[test]
    fn a_white_crossing_a_base_line_is_found_where_its_course_leads() {
        let frame = TemplateFrame::for_scale(0.5).expect("scale in range");
        let side = frame.side_px() as usize;
        let at = frame.board_to_px(Point2::new(-251.0, -26.0));
        let line = at.x.round() as usize - 3;
        let model = Background::from_bgr(&wood_with_line(side, 1, line), side, side);
        let mut now = wood_with_line(side, 2, line);
        test_paint_white(&mut now, side, at.x, at.y);
        let usable = vec![true; side * side];
        // The track expects it 12 mm on from where it is, within 40 mm.
        let sought = Sought {
            near: Point2::new(-260.0, -18.0),
            reach_mm: 40.0,
        };
        let found = find_moving(&now, &model, 1.0, &frame, &usable, &sought).expect("found");
        assert!(
            (found.column - at.x).hypot(found.row - at.y) <= 1.0,
            "{found:?} vs {at:?}"
        );
        assert!(found.contrast >= MIN_CONTRAST, "{found:?}");
        // Beyond the reach, nothing is looked at.
        let far = Sought {
            near: Point2::new(-150.0, -26.0),
            reach_mm: 40.0,
        };
        assert_eq!(find_moving(&now, &model, 1.0, &frame, &usable, &far), None);
        // Nor where the pixels may not be compared (another piece, a hand).
        let mut covered = usable.clone();
        for i in background::disc_pixels(side, side, at.x, at.y, 16.0) {
            covered[i] = false;
        }
        assert_eq!(
            find_moving(&now, &model, 1.0, &frame, &covered, &sought),
            None
        );
    }

    #[test]
    fn the_empty_board_under_a_lamp_change_shows_no_piece_in_motion() {
        let frame = TemplateFrame::for_scale(0.5).expect("scale in range");
        let side = frame.side_px() as usize;
        let model = Background::from_bgr(&wood_with_line(side, 3, 100), side, side);
        let brighter: Vec<u8> = wood_with_line(side, 4, 100)
            .iter()
            .map(|&v| (f32::from(v) * 1.1).min(255.0) as u8)
            .collect();
        let usable = vec![true; side * side];
        let sought = Sought {
            near: frame.px_to_board(Point2::new(101.0, 200.0)),
            reach_mm: 80.0,
        };
        assert_eq!(
            find_moving(&brighter, &model, 1.1, &frame, &usable, &sought),
            None
        );
        // A black disc there stands out.
        let mut now = brighter.clone();
        test_paint_disc(&mut now, side, 110.0, 200.0, 7.9, [25, 25, 30]);
        let found = find_moving(&now, &model, 1.1, &frame, &usable, &sought).expect("found");
        assert!(
            (found.column - 110.0).hypot(found.row - 200.0) <= 1.0,
            "{found:?}"
        );
    }
}
