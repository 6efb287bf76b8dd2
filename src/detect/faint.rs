//! A second look for pieces lost from sight. A white carromman resting on
//! light wood can differ from the board by less than the foreground
//! threshold: only its rim shows, for a few frames, and then the empty-board
//! model learns it and it is gone for good. While the tracker misses a piece,
//! the empty board as it was when the piece was lost is kept here, and once
//! the board is still, discs that differ from it are looked for with a
//! matched filter: a whole disc of small differences stands out where no
//! single pixel does. The same search against the board kept from the start
//! finds pieces lost long ago, and tells a resting track over bare board
//! from a pale piece lying there ([`FaintSearch::contrast_at`]).

use nalgebra::Point2;

use super::background::{self, Background};
use crate::geometry::spec::{CARROMMAN_RADIUS_MM, HALF_SURFACE_MM};
use crate::template::TemplateFrame;

/// A disc found this way differs from the kept board by at least this much
/// more (mean of the largest channel difference, 0–255) inside than in the
/// ring just round it. The noise of one pixel is averaged over some hundred
/// here, so a few levels are far above it; whites on light wood measured 25
/// to 35 in the simulator's clips (the face about 10 levels lighter, the
/// dark rim far more), while the weakest false find measured 7.
const MIN_CONTRAST: f32 = 12.0;

/// The inner square's half-side as a fraction of the disc's radius: its
/// corners stay on the disc.
const INNER_HALF_FRACTION: f64 = 0.65;

/// The ring compared with lies this many pixels beyond the disc's edge...
const RING_GAP_PX: usize = 1;

/// ...and is this many pixels wide.
const RING_WIDTH_PX: usize = 3;

/// Fewest of the inner square's pixels that must be comparable (known on the
/// kept board, not under another piece).
const MIN_INNER_VALID: f64 = 0.9;

/// Fewest of the ring's pixels that must be comparable.
const MIN_RING_VALID: f64 = 0.5;

/// The matched filter's squares round a disc's centre, by half-side in
/// pixels: the inner square, within the disc; the hole, just past its
/// edge; the outer square, whose ring round the hole is compared with the
/// inner square.
#[derive(Debug, Clone, Copy)]
struct FilterSquares {
    inner: usize,
    hole: usize,
    outer: usize,
}

impl FilterSquares {
    fn of_radius(radius_px: f64) -> FilterSquares {
        let hole = radius_px.ceil() as usize + RING_GAP_PX;
        FilterSquares {
            inner: (INNER_HALF_FRACTION * radius_px).floor().max(1.0) as usize,
            hole,
            outer: hole + RING_WIDTH_PX,
        }
    }
}

/// Pixels in a square of half-side `half`.
fn square_area(half: usize) -> f64 {
    ((2 * half + 1) * (2 * half + 1)) as f64
}

/// How far a view's pixel lies from the kept board's (lamp gain `gain`
/// applied to the board): the largest channel difference, 0–255.
#[inline]
fn largest_difference(pixel: &[u8; 3], board: &[f32; 3], gain: f32) -> f32 {
    (0..3)
        .map(|c| (f32::from(pixel[c]) - gain * board[c]).abs())
        .fold(0.0f32, f32::max)
}

/// Whether the model's pixel `i` is a view of the empty board: seen, not
/// predicted, and like the board the prior predicts (the model also learns
/// ghosts: a striker left lying a while, the shadow of an arm).
fn board_seen(model: &Background, i: usize) -> bool {
    model.is_seen_index(i) && model.looks_like_prior(i)
}

/// Which pixels of `model` show the empty board now: seen (see
/// [`board_seen`]) and not under a piece in `busy` (the mask the model was
/// last updated with), except under `lost` (centre column, row, radius in
/// pixels), the pieces just lost, which were kept out of the model until now
/// and so still show the board from before they came.
fn board_in_view(model: &Background, busy: &[u8], lost: &[(f64, f64, f64)]) -> Vec<bool> {
    let (side, _) = model.size();
    let mut valid = model.empty_board_seen();
    valid.resize(side * side, false);
    for (i, valid) in valid.iter_mut().enumerate() {
        *valid = *valid && busy.get(i) == Some(&background::FREE);
    }
    for &(column, row, radius) in lost {
        for i in background::disc_pixels(side, side, column, row, radius) {
            valid[i] = board_seen(model, i);
        }
    }
    valid
}

/// A disc found again, in top-view pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FaintDisc {
    /// Column of the centre.
    pub column: f64,
    /// Row of the centre.
    pub row: f64,
    /// How much more it differs from the kept board than the ring round it.
    pub contrast: f32,
}

/// The empty board kept from when a piece was lost, and the search against it.
#[derive(Debug, Clone)]
pub struct FaintSearch {
    side: usize,
    /// BGR means as the model held them (lamp gain removed).
    reference: Vec<f32>,
    /// Whether each pixel of `reference` was seen empty and was not under a
    /// piece then.
    valid: Vec<bool>,
    /// Per-frame buffers: the pixels compared, their difference, its
    /// summed-area tables and the filter's scores.
    usable: Vec<bool>,
    scores: Vec<f32>,
    difference: Vec<f32>,
    sums: Vec<f64>,
    counts: Vec<u32>,
}

impl FaintSearch {
    /// Keeps the empty board of `model` as it is now, where it is in view
    /// (see [`board_in_view`] for `busy` and `lost`).
    pub fn remember(model: &Background, busy: &[u8], lost: &[(f64, f64, f64)]) -> FaintSearch {
        let (side, _) = model.size();
        FaintSearch {
            side,
            reference: model.means().to_vec(),
            valid: board_in_view(model, busy, lost),
            usable: Vec::new(),
            scores: Vec::new(),
            difference: Vec::new(),
            sums: Vec::new(),
            counts: Vec::new(),
        }
    }

    /// Another piece was lost while the board was kept: the pixels the kept
    /// board lacks and `model` now has are taken from it.
    pub fn fill_in(&mut self, model: &Background, busy: &[u8], lost: &[(f64, f64, f64)]) {
        let now = board_in_view(model, busy, lost);
        let means = model.means();
        for (i, (kept, &seen)) in self.valid.iter_mut().zip(&now).enumerate() {
            if !*kept && seen {
                *kept = true;
                self.reference[3 * i..3 * i + 3].copy_from_slice(&means[3 * i..3 * i + 3]);
            }
        }
    }

    /// The kept board's BGR mean (lamp gain removed) at a pixel, if valid.
    pub fn board_at(&self, i: usize) -> Option<[f32; 3]> {
        self.valid.get(i).copied().filter(|&v| v).map(|_| {
            [
                self.reference[3 * i],
                self.reference[3 * i + 1],
                self.reference[3 * i + 2],
            ]
        })
    }

    /// Carrommen in `bgr` (the top view, `frame`'s layout) that differ from
    /// the kept board, strongest first, at most `wanted`. `exclude` are discs
    /// already accounted for (centre column, row, radius in pixels): tracked
    /// pieces, tentative ones; `covered` are boxes (first column, first row,
    /// last column, last row, in pixels) not looked in: hands. `gain` is this
    /// frame's lamp gain against the model.
    pub fn find(
        &mut self,
        bgr: &[u8],
        gain: f32,
        frame: &TemplateFrame,
        exclude: &[(f64, f64, f64)],
        covered: &[(usize, usize, usize, usize)],
        wanted: usize,
    ) -> Vec<FaintDisc> {
        let side = self.side;
        let n = side * side;
        if bgr.len() < 3 * n || wanted == 0 {
            return Vec::new();
        }
        let radius = CARROMMAN_RADIUS_MM * frame.px_per_mm;
        let mut usable = std::mem::take(&mut self.usable);
        usable.clear();
        usable.extend_from_slice(&self.valid);
        for &(column, row, r) in exclude {
            for i in background::disc_pixels(side, side, column, row, r) {
                usable[i] = false;
            }
        }
        for &covered_px in covered {
            background::clear_box(&mut usable, side, covered_px);
        }
        // Only the playing surface: the frame and the table are not searched.
        let corner_a = frame.board_to_px(Point2::new(-HALF_SURFACE_MM, HALF_SURFACE_MM));
        let corner_b = frame.board_to_px(Point2::new(HALF_SURFACE_MM, -HALF_SURFACE_MM));
        let (x0, y0) = (
            corner_a.x.ceil().max(0.0) as usize,
            corner_a.y.ceil().max(0.0) as usize,
        );
        let (x1, y1) = (
            (corner_b.x.floor().max(0.0) as usize).min(side - 1),
            (corner_b.y.floor().max(0.0) as usize).min(side - 1),
        );
        self.difference.clear();
        self.difference.resize(n, 0.0);
        for y in y0..=y1 {
            let (first, end) = (y * side + x0, y * side + x1 + 1);
            let (pixels, _) = bgr[3 * first..3 * end].as_chunks::<3>();
            let (board, _) = self.reference[3 * first..3 * end].as_chunks::<3>();
            let outs = self.difference[first..end]
                .iter_mut()
                .zip(&usable[first..end]);
            for ((out, &compared), (pixel, board)) in outs.zip(pixels.iter().zip(board)) {
                *out = if compared {
                    largest_difference(pixel, board, gain)
                } else {
                    0.0
                };
            }
        }
        for (y, row) in usable.chunks_exact_mut(side).enumerate() {
            if !(y0..=y1).contains(&y) {
                row.fill(false);
            } else {
                row[..x0].fill(false);
                row[x1 + 1..].fill(false);
            }
        }
        self.summed_areas(&usable, (x0, y0, x1, y1));
        let FilterSquares {
            inner,
            hole: ring_inner,
            outer: ring_outer,
        } = FilterSquares::of_radius(radius);
        let mut scores = std::mem::take(&mut self.scores);
        scores.clear();
        scores.resize(n, f32::MIN);
        let (sx0, sy0) = (x0 + ring_outer, y0 + ring_outer);
        let (sx1, sy1) = (x1.saturating_sub(ring_outer), y1.saturating_sub(ring_outer));
        if sx1 < sx0 || sy1 < sy0 {
            self.usable = usable;
            self.scores = scores;
            return Vec::new();
        }
        for y in sy0..=sy1 {
            for x in sx0..=sx1 {
                if !usable[y * side + x] {
                    continue;
                }
                let (inner_sum, inner_count) = self.square(x, y, inner);
                if f64::from(inner_count) < MIN_INNER_VALID * square_area(inner) {
                    continue;
                }
                let inside = inner_sum / f64::from(inner_count);
                // The ring's differences are never negative, so a disc whose
                // inside is below the threshold cannot score above it.
                if inside < f64::from(MIN_CONTRAST) {
                    continue;
                }
                let (outer_sum, outer_count) = self.square(x, y, ring_outer);
                let (hole_sum, hole_count) = self.square(x, y, ring_inner);
                let ring_count = outer_count - hole_count;
                let ring_area = square_area(ring_outer) - square_area(ring_inner);
                if f64::from(ring_count) < MIN_RING_VALID * ring_area {
                    continue;
                }
                let ring = (outer_sum - hole_sum) / f64::from(ring_count);
                scores[y * side + x] = (inside - ring) as f32;
            }
        }
        let mut peaks: Vec<(f32, usize, usize)> = Vec::new();
        for y in sy0.max(1)..=sy1.min(side - 2) {
            for x in sx0.max(1)..=sx1.min(side - 2) {
                let s = scores[y * side + x];
                if s < MIN_CONTRAST {
                    continue;
                }
                let is_peak =
                    (y - 1..=y + 1).all(|ny| (x - 1..=x + 1).all(|nx| scores[ny * side + nx] <= s));
                if is_peak {
                    peaks.push((s, x, y));
                }
            }
        }
        peaks.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut found: Vec<FaintDisc> = Vec::new();
        for (contrast, x, y) in peaks {
            if found.len() == wanted {
                break;
            }
            let (column, row) = self.centre(x, y, radius, &usable);
            if found
                .iter()
                .all(|f| (f.column - column).hypot(f.row - row) >= 2.0 * radius)
            {
                found.push(FaintDisc {
                    column,
                    row,
                    contrast,
                });
            }
        }
        self.usable = usable;
        self.scores = scores;
        found
    }

    /// How much more `bgr` differs from the kept board inside a carromman's
    /// disc at (column, row) than in the ring just round it, as
    /// [`FaintSearch::find`] scores a disc; `None` where too little of the
    /// disc or the ring was seen bare on the kept board to tell.
    pub fn contrast_at(
        &self,
        bgr: &[u8],
        gain: f32,
        frame: &TemplateFrame,
        column: f64,
        row: f64,
    ) -> Option<f32> {
        let side = self.side;
        let squares = FilterSquares::of_radius(CARROMMAN_RADIUS_MM * frame.px_per_mm);
        let reach = squares.outer;
        let (cx, cy) = (column.round(), row.round());
        if cx < reach as f64
            || cy < reach as f64
            || cx + reach as f64 >= side as f64
            || cy + reach as f64 >= side as f64
            || bgr.len() < 3 * side * side
        {
            return None;
        }
        let (cx, cy) = (cx as usize, cy as usize);
        let (mut inside, mut inside_n, mut ring, mut ring_n) = (0.0f64, 0u32, 0.0f64, 0u32);
        for y in cy - reach..=cy + reach {
            for x in cx - reach..=cx + reach {
                let i = y * side + x;
                if !self.valid[i] {
                    continue;
                }
                let pixel = [bgr[3 * i], bgr[3 * i + 1], bgr[3 * i + 2]];
                let board = [
                    self.reference[3 * i],
                    self.reference[3 * i + 1],
                    self.reference[3 * i + 2],
                ];
                let difference = f64::from(largest_difference(&pixel, &board, gain));
                let off = x.abs_diff(cx).max(y.abs_diff(cy));
                if off <= squares.inner {
                    inside += difference;
                    inside_n += 1;
                } else if off > squares.hole {
                    ring += difference;
                    ring_n += 1;
                }
            }
        }
        let ring_area = square_area(squares.outer) - square_area(squares.hole);
        (f64::from(inside_n) >= MIN_INNER_VALID * square_area(squares.inner)
            && f64::from(ring_n) >= MIN_RING_VALID * ring_area)
            .then(|| (inside / f64::from(inside_n) - ring / f64::from(ring_n)) as f32)
    }

    /// Summed-area tables of the difference and of the usable pixels, one
    /// row and column larger than the view, filled within `region` (first
    /// column, first row, last column, last row): nothing outside it is
    /// usable, and no square reaches beyond it.
    fn summed_areas(&mut self, usable: &[bool], region: (usize, usize, usize, usize)) {
        let (x0, y0, x1, y1) = region;
        let side = self.side;
        let stride = side + 1;
        self.sums.clear();
        self.sums.resize(stride * stride, 0.0);
        self.counts.clear();
        self.counts.resize(stride * stride, 0);
        for y in y0..=y1 {
            let (mut row_sum, mut row_count) = (0.0f64, 0u32);
            for x in x0..=x1 {
                let i = y * side + x;
                if usable[i] {
                    row_sum += f64::from(self.difference[i]);
                    row_count += 1;
                }
                let at = (y + 1) * stride + x + 1;
                self.sums[at] = self.sums[at - stride] + row_sum;
                self.counts[at] = self.counts[at - stride] + row_count;
            }
        }
    }

    /// Sum and count of usable pixels in the square of half-side `half` round
    /// (x, y); the caller keeps the square inside the view.
    fn square(&self, x: usize, y: usize, half: usize) -> (f64, u32) {
        let stride = self.side + 1;
        let (a, b) = (x - half, x + half + 1);
        let (c, d) = (y - half, y + half + 1);
        let sum = self.sums[d * stride + b] - self.sums[c * stride + b] - self.sums[d * stride + a]
            + self.sums[c * stride + a];
        let count = self.counts[d * stride + b] + self.counts[c * stride + a]
            - self.counts[c * stride + b]
            - self.counts[d * stride + a];
        (sum, count)
    }

    /// The centre of the disc round the peak (x, y), to a quarter of a
    /// pixel: where a disc of the piece's radius holds the most difference
    /// beyond that of the ring just round it. The square filter's peak is
    /// only to a pixel or two, and a weighted mean is pulled towards the
    /// board's ink under a piece (a base line differs from a coin far more
    /// than the wood does); the disc's edge is where the difference steps.
    /// Whole pixels are tried first and quarter pixels round the best of
    /// them: a sixth of the discs a quarter-pixel sweep of the whole reach
    /// would measure.
    fn centre(&self, x: usize, y: usize, radius: f64, usable: &[bool]) -> (f64, f64) {
        let coarse = self.best_centre((x as f64, y as f64), CENTRE_SEARCH_PX, 1.0, radius, usable);
        self.best_centre(coarse, 1.0 - CENTRE_STEP_PX, CENTRE_STEP_PX, radius, usable)
    }

    /// The centre with the greatest [`Self::disc_contrast`] on the grid of
    /// `step` pixels reaching `reach` each way from `around`.
    fn best_centre(
        &self,
        around: (f64, f64),
        reach: f64,
        step: f64,
        radius: f64,
        usable: &[bool],
    ) -> (f64, f64) {
        let steps = (reach / step).round() as i32;
        let mut best = (f64::MIN, around.0, around.1);
        for sy in -steps..=steps {
            for sx in -steps..=steps {
                let (cx, cy) = (
                    around.0 + f64::from(sx) * step,
                    around.1 + f64::from(sy) * step,
                );
                let score = self.disc_contrast(cx, cy, radius, usable);
                if score > best.0 {
                    best = (score, cx, cy);
                }
            }
        }
        (best.1, best.2)
    }

    /// Mean difference inside the disc of `radius` round (cx, cy) less the
    /// mean over the ring from one to four pixels beyond it (usable pixels).
    fn disc_contrast(&self, cx: f64, cy: f64, radius: f64, usable: &[bool]) -> f64 {
        let outer = radius + RING_GAP_PX as f64 + RING_WIDTH_PX as f64;
        let (inner_r2, gap_r2, outer_r2) = (
            radius * radius,
            (radius + RING_GAP_PX as f64).powi(2),
            outer * outer,
        );
        let (mut inside, mut n_inside, mut ring, mut n_ring) = (0.0, 0.0, 0.0, 0.0);
        for i in background::disc_pixels(self.side, self.side, cx, cy, outer) {
            if !usable[i] {
                continue;
            }
            let (dx, dy) = ((i % self.side) as f64 - cx, (i / self.side) as f64 - cy);
            let d2 = dx * dx + dy * dy;
            let value = f64::from(self.difference[i]);
            if d2 <= inner_r2 {
                inside += value;
                n_inside += 1.0;
            } else if d2 > gap_r2 && d2 <= outer_r2 {
                ring += value;
                n_ring += 1.0;
            }
        }
        if n_inside == 0.0 || n_ring == 0.0 {
            return f64::MIN;
        }
        inside / n_inside - ring / n_ring
    }
}

/// [`FaintSearch::centre`] looks this far (pixels) each way from the peak...
const CENTRE_SEARCH_PX: f64 = 3.0;

/// ...to the nearest this much.
const CENTRE_STEP_PX: f64 = 0.25;

#[cfg(test)]
mod tests {
    use super::*;

    use crate::detect::{test_paint_white as paint_white, test_wood as wood};

    #[test]
    fn a_disc_just_lighter_than_the_wood_is_found_where_the_foreground_misses_it() {
        let frame = TemplateFrame::for_scale(0.5).expect("scale in range");
        let side = frame.side_px() as usize;
        let empty = wood(side, 1);
        let model = Background::from_bgr(&empty, side, side);
        let busy = vec![background::FREE; side * side];
        let mut search = FaintSearch::remember(&model, &busy, &[]);
        let mut now = wood(side, 2);
        let at = frame.board_to_px(Point2::new(-252.0, -288.0));
        paint_white(&mut now, side, at.x, at.y);
        let found = search.find(&now, 1.0, &frame, &[], &[], 2);
        assert_eq!(found.len(), 1, "{found:?}");
        let disc = found[0];
        assert!(
            (disc.column - at.x).hypot(disc.row - at.y) < 1.0,
            "{disc:?} vs {at:?}"
        );
        // The same disc where a tracked piece is said to be is not looked for.
        let excluded = search.find(&now, 1.0, &frame, &[(at.x, at.y, 12.0)], &[], 2);
        assert!(excluded.is_empty(), "{excluded:?}");
        // Nor where a hand (a box over part of it) covers it.
        let (x, y) = (at.x.round() as usize, at.y.round() as usize);
        let covered = search.find(&now, 1.0, &frame, &[], &[(x - 2, y - 20, x + 20, y + 2)], 2);
        assert!(covered.is_empty(), "{covered:?}");
        // A hand elsewhere hides nothing.
        let elsewhere = search.find(&now, 1.0, &frame, &[], &[(0, 0, 40, 40)], 2);
        assert_eq!(elsewhere.len(), 1, "{elsewhere:?}");
    }

    #[test]
    fn the_empty_board_under_noise_and_a_lamp_change_shows_no_disc() {
        let frame = TemplateFrame::for_scale(0.5).expect("scale in range");
        let side = frame.side_px() as usize;
        let model = Background::from_bgr(&wood(side, 3), side, side);
        let busy = vec![background::FREE; side * side];
        let mut search = FaintSearch::remember(&model, &busy, &[]);
        let brighter: Vec<u8> = wood(side, 4)
            .iter()
            .map(|&v| (f32::from(v) * 1.1).min(255.0) as u8)
            .collect();
        assert!(search.find(&brighter, 1.1, &frame, &[], &[], 3).is_empty());
    }

    #[test]
    fn where_a_piece_lay_when_the_board_was_kept_is_not_compared() {
        let frame = TemplateFrame::for_scale(0.5).expect("scale in range");
        let side = frame.side_px() as usize;
        let model = Background::from_bgr(&wood(side, 5), side, side);
        let at = frame.board_to_px(Point2::new(100.0, 100.0));
        let lost = frame.board_to_px(Point2::new(-100.0, 50.0));
        let mut busy = vec![background::FREE; side * side];
        for (column, row) in [(at.x, at.y), (lost.x, lost.y)] {
            for i in background::disc_pixels(side, side, column, row, 12.0) {
                busy[i] = background::PIECE;
            }
        }
        let mut search = FaintSearch::remember(&model, &busy, &[(lost.x, lost.y, 12.0)]);
        let mut now = wood(side, 6);
        paint_white(&mut now, side, at.x, at.y);
        paint_white(&mut now, side, lost.x, lost.y);
        let found = search.find(&now, 1.0, &frame, &[], &[], 3);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!((found[0].column - lost.x).abs() < 1.0 && (found[0].row - lost.y).abs() < 1.0);
    }
}
