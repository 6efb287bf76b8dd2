//! Pieces that show only their rim: a carromman whose face matches the wood
//! under it (a cream white on light wood) differs from the empty board only
//! at its bevelled edge and its shadow, a thin ring in the foreground that
//! the opening erases and whose distance transform never reaches a disc's.
//! The hole such a ring encloses, of a piece's size and round, is filled, so
//! the ring is found as the disc it is. A face printed with pale rings (a
//! striker's) shows instead as a disc riddled with holes of a pixel or two,
//! whose distance transform falls short just the same: a lone one is
//! filled whole.

use crate::geometry::spec::{CARROMMAN_RADIUS_MM, STRIKER_RADIUS_MM};

/// Scratch space kept between frames, to spare allocations.
#[derive(Debug, Default, Clone)]
pub(super) struct RimScratch {
    tiles: Vec<bool>,
    /// Per pixel of the box being filled: see the `OUTSIDE`, `HOLE` marks.
    marks: Vec<u8>,
    stack: Vec<usize>,
    blob: Vec<usize>,
    hole: Vec<usize>,
    /// A row of the box's foreground ORed over its neighbouring rows.
    band: Vec<u8>,
}

/// The sizes a filled hole must have, in top-view pixels.
#[derive(Debug, Clone, Copy)]
pub(super) struct HoleSizes {
    /// Fewer pixels than this: the gap between three touching pieces, or
    /// noise, whose filling would merge a cluster into one blob.
    pub min_area: usize,
    /// More pixels than this: no piece's face.
    pub max_area: usize,
    /// A blob (ring and what it encloses) of at most this many pixels is
    /// one piece: what its ring encloses is filled whole, specks and all.
    pub max_blob: usize,
}

impl HoleSizes {
    /// The holes a piece's rim encloses in a top view of `px_per_mm`: from
    /// a fifth of a carromman's face (the gap among three touching pieces
    /// is a twentieth) to a whole striker's; a lone blob up to a striker
    /// with its blurred edge and the pixel the foreground is grown by.
    pub fn at_scale(px_per_mm: f64) -> HoleSizes {
        let area = |radius_px: f64| std::f64::consts::PI * radius_px.powi(2);
        let striker_px = STRIKER_RADIUS_MM * px_per_mm;
        HoleSizes {
            min_area: (0.2 * area(CARROMMAN_RADIUS_MM * px_per_mm)) as usize,
            max_area: area(striker_px).ceil() as usize,
            max_blob: area(striker_px + RIM_BLUR_PX + 1.0).ceil() as usize,
        }
    }
}

/// How far (px) a disc's blurred edge and shadow reach past its rim in the
/// foreground.
const RIM_BLUR_PX: f64 = 2.0;

/// A hole's box longer than this many times its breadth is no face.
const MAX_ELONGATION: usize = 2;

/// A face fills π/4 of its box; the concave gap among four touching pieces
/// about a fifth.
const MIN_BOX_FILL: f64 = 0.5;

/// A solid disc fills π/4 of its box; a ring broken open, far less.
const MIN_SOLID_DISC_FILL: f64 = 0.7;

/// The tiles [`super::discs::foreground_boxes`] builds its boxes of, and
/// the margin it grows them by.
const BOX_TILE_PX: usize = super::discs::FOREGROUND_TILE_PX;
const BOX_MARGIN_PX: usize = 2;

// What `RimScratch::marks` says of each pixel of the box being filled.
const UNSEEN: u8 = 0;
const FOREGROUND: u8 = 1;
const OUTSIDE: u8 = 2;
const BLOB_FOREGROUND: u8 = 3;
const BLOB_HOLE: u8 = 4;
const HOLE: u8 = 5;
/// The border round the marks, which no flood fill enters.
const PAD: u8 = 6;

/// Fills, in the `side`-pixel square `mask` (nonzero is foreground), every
/// hole of a piece's size and roundness: background pixels (4-connected)
/// that the foreground encloses, where `fillable` (by pixel index) holds
/// over most of the blob. The caller keeps out the board the model never
/// saw empty and the centre design's disc: the drawing the model is
/// predicted from lacks the printed design, whose circles, petals and dots
/// show as rings too. Returns how many holes were filled.
pub(super) fn fill_rims(
    mask: &mut [u8],
    side: usize,
    sizes: HoleSizes,
    fillable: impl Fn(usize) -> bool,
    scratch: &mut RimScratch,
) -> usize {
    // Across a face's middle, a gap wider than the pixel each side grows
    // by, and no wider than a striker.
    let widest = (2.0 * (sizes.max_area as f64 / std::f64::consts::PI).sqrt()).ceil() as usize + 2;
    // In a lone piece's box (boxes come whole tiles wide, with a margin)
    // the face may be speckled rather than ringed: a pale striker's printed
    // rings cross the threshold pixel by pixel, and leave its face gaps of
    // a pixel or two in every row.
    let lone_piece = 2.0 * (sizes.max_blob as f64 / std::f64::consts::PI).sqrt();
    let lone_box =
        (lone_piece as usize).div_ceil(BOX_TILE_PX) * BOX_TILE_PX + BOX_TILE_PX + 2 * BOX_MARGIN_PX;
    let boxes = super::discs::foreground_boxes(mask, side, BOX_MARGIN_PX, &mut scratch.tiles);
    let mut filled = 0;
    for area in boxes {
        let (x0, y0, x1, y1) = area;
        let narrowest = if (x1 - x0).max(y1 - y0) <= lone_box {
            1
        } else {
            3
        };
        if may_enclose(mask, side, area, narrowest..=widest) {
            filled += fill_in_box(mask, side, area, sizes, &fillable, scratch);
        }
    }
    filled
}

/// Whether some row of the box crosses foreground, then a gap of `gap`
/// pixels, then foreground again: a cheap test that spares the flood fills
/// the boxes of solid discs and specks, most of them.
fn may_enclose(
    mask: &[u8],
    side: usize,
    (x0, y0, x1, y1): (usize, usize, usize, usize),
    gap: std::ops::RangeInclusive<usize>,
) -> bool {
    (y0..y1).any(|y| {
        let mut last_foreground = None;
        mask[y * side + x0..y * side + x1]
            .iter()
            .enumerate()
            .any(|(x, &v)| {
                if v == 0 {
                    return false;
                }
                let encloses =
                    last_foreground.is_some_and(|last: usize| gap.contains(&(x - last - 1)));
                last_foreground = Some(x);
                encloses
            })
    })
}

fn fill_in_box(
    mask: &mut [u8],
    side: usize,
    (x0, y0, x1, y1): (usize, usize, usize, usize),
    sizes: HoleSizes,
    fillable: &impl Fn(usize) -> bool,
    scratch: &mut RimScratch,
) -> usize {
    let (w, h) = (x1 - x0, y1 - y0);
    // The marks are kept with a border of `PAD` a pixel wide, so a pixel's
    // four neighbours are found without a division or a bounds test: the
    // flood fills below were most of this function's time.
    let row = w + 2;
    let to_mask = |i: usize| (y0 + i / row - 1) * side + x0 + i % row - 1;
    let RimScratch {
        marks,
        stack,
        blob,
        hole,
        band,
        ..
    } = scratch;
    marks.clear();
    marks.resize(row * (h + 2), PAD);
    // The foreground grown by a pixel: a rim broken by a pixel or two where
    // its edge met the wood's grain still encloses its face. Rows are ORed
    // over the box's rows next to each one, then across the columns.
    band.clear();
    band.resize(w, 0);
    for y in 0..h {
        band.fill(0);
        for source in y.saturating_sub(1)..(y + 2).min(h) {
            let start = (y0 + source) * side + x0;
            for (any, &v) in band.iter_mut().zip(&mask[start..start + w]) {
                *any |= v;
            }
        }
        let marks_row = &mut marks[(y + 1) * row + 1..][..w];
        for (x, mark) in marks_row.iter_mut().enumerate() {
            let left = if x > 0 { band[x - 1] } else { 0 };
            let right = band.get(x + 1).copied().unwrap_or(0);
            let near = (left | band[x] | right) != 0;
            *mark = if near { FOREGROUND } else { UNSEEN };
        }
    }
    // Everything reached from the box's border without crossing the grown
    // foreground lies outside every ring (the box's border lies outside the
    // foreground but at the view's edge). Each flood fill below marks a
    // pixel as it is pushed, so none is pushed twice: the sets marked are
    // those of marking as popped, and nothing that follows depends on the
    // order a blob's pixels were found in.
    stack.clear();
    let border = (1..=w)
        .flat_map(|x| [row + x, h * row + x])
        .chain((1..=h).flat_map(|y| [y * row + 1, y * row + w]));
    for i in border {
        if marks[i] == UNSEEN {
            marks[i] = OUTSIDE;
            stack.push(i);
        }
    }
    while let Some(i) = stack.pop() {
        claim_neighbours(i, row, marks, stack, |m| (m == UNSEEN).then_some(OUTSIDE));
    }
    // Each blob with what it encloses: a ring whose inside is speckled
    // (the face's grain crossing the threshold here and there) encloses
    // several small holes, which together make a face.
    let mut filled = 0;
    let into_blob = |m: u8| match m {
        UNSEEN => Some(BLOB_HOLE),
        FOREGROUND => Some(BLOB_FOREGROUND),
        _ => None,
    };
    for first in 0..marks.len() {
        let Some(mark) = into_blob(marks[first]) else {
            continue;
        };
        blob.clear();
        marks[first] = mark;
        stack.push(first);
        while let Some(i) = stack.pop() {
            blob.push(i);
            claim_neighbours(i, row, marks, stack, into_blob);
        }
        // The face: what the blob holds inside its ring (the pixel the
        // foreground was grown by aside) that is not foreground.
        let enclosed = blob
            .iter()
            .filter(|&&i| mask[to_mask(i)] == 0 && !next_to(i, row, marks, OUTSIDE))
            .count();
        let n = blob.iter().filter(|&&i| fillable(to_mask(i))).count();
        if 2 * n < blob.len() {
            continue;
        }
        // With no hole wider than the pixel the foreground grew by, the
        // blob is a speckled face only if, so grown, it is a solid disc: a
        // ring broken open fills far less of its box, and a moving piece's
        // blur, filled, would read a striker's size.
        let has_hole = blob.iter().any(|&i| marks[i] == BLOB_HOLE);
        if enclosed >= sizes.min_area
            && blob.len() <= sizes.max_blob
            && round(blob, row)
            && (has_hole || solid_disc(blob, row))
        {
            // The whole blob but the pixel the foreground was grown by.
            for &i in blob.iter() {
                if !next_to(i, row, marks, OUTSIDE) {
                    mask[to_mask(i)] = u8::MAX;
                }
            }
            filled += 1;
            continue;
        }
        if !has_hole {
            continue;
        }
        // A larger blob (a ring touching another piece): its holes one by one.
        for &start in blob.iter() {
            if marks[start] != BLOB_HOLE {
                continue;
            }
            hole.clear();
            marks[start] = HOLE;
            stack.push(start);
            while let Some(i) = stack.pop() {
                hole.push(i);
                claim_neighbours(i, row, marks, stack, |m| (m == BLOB_HOLE).then_some(HOLE));
            }
            if hole.len() < sizes.min_area || hole.len() > sizes.max_area || !round(hole, row) {
                continue;
            }
            // The hole and the pixel the foreground was grown by round it.
            for &i in hole.iter() {
                for n in std::iter::once(i).chain(four_neighbours(i, row)) {
                    if marks[n] != PAD {
                        mask[to_mask(n)] = u8::MAX;
                    }
                }
            }
            filled += 1;
        }
    }
    filled
}

/// Marks and pushes the 4-neighbours of `i` (in marks `row` wide with a
/// `PAD` border, which `claim` refuses) that `claim` gives a new mark.
#[inline]
fn claim_neighbours(
    i: usize,
    row: usize,
    marks: &mut [u8],
    stack: &mut Vec<usize>,
    claim: impl Fn(u8) -> Option<u8>,
) {
    for n in four_neighbours(i, row) {
        if let Some(mark) = claim(marks[n]) {
            marks[n] = mark;
            stack.push(n);
        }
    }
}

/// Whether pixel `i` of marks `row` wide has a 4-neighbour marked `mark`.
fn next_to(i: usize, row: usize, marks: &[u8], mark: u8) -> bool {
    four_neighbours(i, row)
        .into_iter()
        .any(|n| marks[n] == mark)
}

/// The 4-neighbours of pixel `i` of marks `row` wide: all exist for a pixel
/// of the box, within the `PAD` border.
fn four_neighbours(i: usize, row: usize) -> [usize; 4] {
    [i - 1, i + 1, i - row, i + row]
}

/// Whether `pixels` (indices into rows `w` long) make a roundish shape:
/// not long, and filling most of their box.
fn round(pixels: &[usize], w: usize) -> bool {
    let (bw, bh) = box_size(pixels, w);
    bw.max(bh) <= MAX_ELONGATION * bw.min(bh)
        && pixels.len() as f64 >= MIN_BOX_FILL * (bw * bh) as f64
}

/// Whether `pixels` (indices into rows `w` long) make a solid disc: as
/// wide as they are long, within 5:4 (a moving piece's blur is longer),
/// and filling their box as a disc does.
fn solid_disc(pixels: &[usize], w: usize) -> bool {
    let (bw, bh) = box_size(pixels, w);
    4 * bw.max(bh) <= 5 * bw.min(bh)
        && pixels.len() as f64 >= MIN_SOLID_DISC_FILL * (bw * bh) as f64
}

/// The width and height of the bounding box of `pixels` (indices into rows
/// `w` long).
fn box_size(pixels: &[usize], w: usize) -> (usize, usize) {
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for &i in pixels {
        let (x, y) = (i % w, i / w);
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
    }
    (x1 + 1 - x0, y1 + 1 - y0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIDE: usize = 60;

    fn sizes() -> HoleSizes {
        HoleSizes {
            min_area: 30,
            max_area: 400,
            max_blob: 500,
        }
    }

    fn ring(mask: &mut [u8], cx: f64, cy: f64, inner: f64, outer: f64) {
        for y in 0..SIDE {
            for x in 0..SIDE {
                let d = (x as f64 - cx).hypot(y as f64 - cy);
                if d >= inner && d <= outer {
                    mask[y * SIDE + x] = 255;
                }
            }
        }
    }

    fn assert_left_as_it_is(mut mask: Vec<u8>, fillable: impl Fn(usize) -> bool) {
        let before = mask.clone();
        let filled = fill_rims(
            &mut mask,
            SIDE,
            sizes(),
            fillable,
            &mut RimScratch::default(),
        );
        assert_eq!(filled, 0);
        assert_eq!(mask, before);
    }

    /// Every pixel of the disc set, and none more than half a pixel out.
    fn assert_is_disc(mask: &[u8], cx: f64, cy: f64, r: f64) {
        assert_is_disc_within(mask, cx, cy, r, 0.5);
    }

    /// Every pixel of the disc set, and none more than `out_px` out.
    fn assert_is_disc_within(mask: &[u8], cx: f64, cy: f64, r: f64, out_px: f64) {
        for y in 0..SIDE {
            for x in 0..SIDE {
                let d = (x as f64 - cx).hypot(y as f64 - cy);
                let set = mask[y * SIDE + x] != 0;
                assert!(set || d > r, "({x}, {y}) inside but not set");
                assert!(!set || d <= r + out_px, "({x}, {y}) set {d:.2} px out");
            }
        }
    }

    /// `fill_rims` over a mask where every pixel may be filled.
    fn fill_anywhere(mask: &mut [u8]) -> usize {
        fill_rims(mask, SIDE, sizes(), |_| true, &mut RimScratch::default())
    }

    fn disc(mask: &mut [u8], cx: f64, cy: f64, r: f64) {
        ring(mask, cx, cy, 0.0, r);
    }

    #[test]
    fn a_rim_is_filled_into_a_disc() {
        let mut mask = vec![0u8; SIDE * SIDE];
        ring(&mut mask, 20.0, 30.0, 6.0, 8.0);
        let filled = fill_rims(
            &mut mask,
            SIDE,
            sizes(),
            |_| true,
            &mut RimScratch::default(),
        );
        assert_eq!(filled, 1);
        assert_is_disc(&mask, 20.0, 30.0, 8.0);
    }

    #[test]
    fn a_rim_with_specks_inside_is_filled_whole() {
        let mut mask = vec![0u8; SIDE * SIDE];
        ring(&mut mask, 20.0, 30.0, 6.0, 8.0);
        // A cross of grain splits what the rim encloses in four.
        for d in -6..=6 {
            mask[30 * SIDE + (20 + d) as usize] = 255;
            mask[((30 + d) * SIDE as i32 + 20) as usize] = 255;
        }
        assert_eq!(fill_anywhere(&mut mask), 1);
        assert_is_disc(&mask, 20.0, 30.0, 8.0);
    }

    #[test]
    fn a_speckled_face_with_no_gap_wider_than_two_pixels_is_filled_whole() {
        let mut mask = vec![0u8; SIDE * SIDE];
        let (cx, cy, r) = (30.0, 30.0, 10.0);
        disc(&mut mask, cx, cy, r);
        // A pale face's printed rings cross the threshold pixel by pixel:
        // holes of one or two pixels all over it, well inside its edge.
        let mut holes = 0;
        for y in 0..SIDE {
            for x in 0..SIDE {
                let d = (x as f64 - cx).hypot(y as f64 - cy);
                if d < r - 2.0 && (x * 7 + y * 3) % 5 < 2 {
                    mask[y * SIDE + x] = 0;
                    holes += 1;
                }
            }
        }
        assert!(holes >= sizes().min_area, "{holes} holes");
        let widest_gap = (0..SIDE)
            .map(|y| {
                let row = &mask[y * SIDE..(y + 1) * SIDE];
                let first = row.iter().position(|&v| v != 0);
                let last = row.iter().rposition(|&v| v != 0);
                match (first, last) {
                    (Some(a), Some(b)) => row[a..=b]
                        .split(|&v| v != 0)
                        .map(<[u8]>::len)
                        .max()
                        .unwrap_or(0),
                    _ => 0,
                }
            })
            .max()
            .unwrap_or(0);
        assert!(widest_gap <= 2, "a gap of {widest_gap} px");
        assert_eq!(fill_anywhere(&mut mask), 1);
        // Filled within the pixel the foreground grew by.
        assert_is_disc_within(&mask, cx, cy, r, 1.0);
    }

    #[test]
    fn a_rim_where_most_of_it_may_not_be_filled_is_left_as_it_is() {
        let mut mask = vec![0u8; SIDE * SIDE];
        ring(&mut mask, 20.0, 30.0, 6.0, 8.0);
        // Only columns clear of the ring may be filled.
        assert_left_as_it_is(mask, |i| i % SIDE > 30);
    }

    #[test]
    fn a_rim_broken_open_is_left_as_it_is() {
        let mut mask = vec![0u8; SIDE * SIDE];
        ring(&mut mask, 20.0, 30.0, 6.0, 8.0);
        for y in 28..33 {
            for x in 20..30 {
                mask[y * SIDE + x] = 0;
            }
        }
        assert_left_as_it_is(mask, |_| true);
    }

    #[test]
    fn the_gap_among_touching_discs_and_long_or_large_holes_stay_open() {
        let mut mask = vec![0u8; SIDE * SIDE];
        // Three touching discs leave a small gap between them.
        let r = 7.5;
        disc(&mut mask, 20.0, 20.0, r);
        disc(&mut mask, 35.0, 20.0, r);
        disc(&mut mask, 27.5, 20.0 + 13.0, r);
        // A long slot enclosed by foreground.
        for y in 44..56 {
            for x in 2..58 {
                if y == 44 || y == 55 || x == 2 || x == 57 {
                    mask[y * SIDE + x] = 255;
                }
            }
        }
        assert_left_as_it_is(mask, |_| true);
    }
}
