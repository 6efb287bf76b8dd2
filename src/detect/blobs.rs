//! The blobs of the joined foreground that reach out past the playing
//! surface, the only ones that can be hands, found by flood fill from the
//! band round the surface instead of by labelling the whole top view.
//!
//! Labelling every blob each frame (OpenCV's connected components) cost more
//! than all the rest of hand finding; the pieces in the middle of the board
//! never need a label. The blobs come out in the order OpenCV numbers them,
//! so what is built from them (the occluders' order) does not change.

use std::ops::Range;

/// One 8-connected blob of nonzero pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct Blob {
    /// Pixels in it.
    pub area: usize,
    /// Leftmost column.
    pub left: usize,
    /// Top row.
    pub top: usize,
    /// Rightmost column (inclusive).
    pub right: usize,
    /// Bottom row (inclusive).
    pub bottom: usize,
    /// The largest distance value over its pixels: how thick it is.
    pub thickness: f32,
    /// Its first 2×2 block (row pair, column pair) in raster order: OpenCV's
    /// block-based labelling numbers blobs in this order.
    first_block: (usize, usize),
    pixels: Range<usize>,
}

/// Finds the blobs of a square mask that hold a pixel in a given outer band;
/// buffers are kept between frames.
#[derive(Debug, Clone)]
pub struct EdgeBlobs {
    side: usize,
    outer_row: Vec<bool>,
    outer_columns: Vec<usize>,
    seen: Vec<bool>,
    stack: Vec<usize>,
    pixels: Vec<usize>,
    blobs: Vec<Blob>,
}

impl EdgeBlobs {
    /// A finder for `side`×`side` masks; a pixel is in the band when its row
    /// or its column is marked outer.
    pub fn new(outer_row: Vec<bool>, outer_column: Vec<bool>) -> EdgeBlobs {
        let side = outer_row.len();
        let outer_columns = (0..outer_column.len())
            .filter(|&x| outer_column[x])
            .collect();
        EdgeBlobs {
            side,
            outer_row,
            outer_columns,
            seen: vec![false; side * side],
            stack: Vec::new(),
            pixels: Vec::new(),
            blobs: Vec::new(),
        }
    }

    /// Finds the blobs of `mask` (nonzero = set, 8-connected) with a pixel
    /// in the band; `distance` (same layout) gives their thickness. They are
    /// then [`EdgeBlobs::blobs`].
    pub fn find(&mut self, mask: &[u8], distance: &[f32]) {
        for &i in &self.pixels {
            self.seen[i] = false;
        }
        self.pixels.clear();
        self.blobs.clear();
        let side = self.side;
        if mask.len() < side * side || distance.len() < side * side {
            return;
        }
        for y in 0..side {
            let row = y * side;
            if self.outer_row[y] {
                // Most of the band is empty board: skip it a pixel at a time
                // without a call.
                for x in 0..side {
                    if mask[row + x] != 0 {
                        self.seed(mask, distance, row + x);
                    }
                }
            } else {
                for k in 0..self.outer_columns.len() {
                    let i = row + self.outer_columns[k];
                    if mask[i] != 0 {
                        self.seed(mask, distance, i);
                    }
                }
            }
        }
        self.blobs.sort_by_key(|blob| blob.first_block);
    }

    /// The blobs the last [`EdgeBlobs::find`] found, in OpenCV's label order.
    pub fn blobs(&self) -> &[Blob] {
        &self.blobs
    }

    /// The pixel indices (row × side + column) of a blob [`EdgeBlobs::find`] returned.
    pub fn pixels(&self, blob: &Blob) -> &[usize] {
        self.pixels.get(blob.pixels.clone()).unwrap_or(&[])
    }

    fn seed(&mut self, mask: &[u8], distance: &[f32], start: usize) {
        if mask[start] == 0 || self.seen[start] {
            return;
        }
        let side = self.side;
        let first = self.pixels.len();
        let (x0, y0) = (start % side, start / side);
        let mut blob = Blob {
            area: 0,
            left: x0,
            top: y0,
            right: x0,
            bottom: y0,
            thickness: 0.0,
            first_block: (y0 / 2, x0 / 2),
            pixels: 0..0,
        };
        self.seen[start] = true;
        self.stack.push(start);
        // Scanline fill: each seed grows into the run of its row, and each
        // run seeds the runs it touches in the rows above and below.
        while let Some(i) = self.stack.pop() {
            let (x, y) = (i % side, i / side);
            let row = y * side;
            let free = |k: usize| mask[row + k] != 0 && !self.seen[row + k];
            let mut left = x;
            while left > 0 && free(left - 1) {
                left -= 1;
            }
            let mut right = x;
            while right + 1 < side && free(right + 1) {
                right += 1;
            }
            let span = row + left..row + right + 1;
            self.seen[span.clone()].fill(true);
            self.pixels.extend(span.clone());
            blob.thickness = distance[span].iter().fold(blob.thickness, |t, &d| t.max(d));
            blob.area += right + 1 - left;
            blob.left = blob.left.min(left);
            blob.right = blob.right.max(right);
            blob.top = blob.top.min(y);
            blob.bottom = blob.bottom.max(y);
            blob.first_block = blob.first_block.min((y / 2, left / 2));
            let (from, to) = (left.saturating_sub(1), (right + 1).min(side - 1));
            for next_row in [y.wrapping_sub(1), y + 1] {
                if next_row >= side {
                    continue;
                }
                let base = next_row * side;
                let mut k = from;
                while k <= to {
                    let n = base + k;
                    if mask[n] != 0 && !self.seen[n] {
                        self.seen[n] = true;
                        self.stack.push(n);
                        // The rest of this run is reached from the seed.
                        while k <= to && mask[base + k] != 0 {
                            k += 1;
                        }
                    } else {
                        k += 1;
                    }
                }
            }
        }
        blob.pixels = first..self.pixels.len();
        self.blobs.push(blob);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{Mat, CV_32S};
    use opencv::imgproc;
    use opencv::prelude::*;

    /// A mask of random rectangles and specks.
    fn random_mask(side: usize, seed: u64) -> Vec<u8> {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        // xorshift: enough for test masks, and needs no generator crate.
        let mut below = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let mut mask = vec![0u8; side * side];
        for _ in 0..12 {
            let (x, y) = (below(side), below(side));
            let (w, h) = (1 + below(side / 3), 1 + below(side / 3));
            for yy in y..(y + h).min(side) {
                for xx in x..(x + w).min(side) {
                    mask[yy * side + xx] = 255;
                }
            }
        }
        for _ in 0..side * side / 50 {
            mask[below(side * side)] = 255;
        }
        mask
    }

    #[test]
    fn edge_blobs_match_opencv_labels_stats_and_order() {
        let side = 121;
        let band = 15;
        let outer: Vec<bool> = (0..side).map(|v| v < band || v >= side - band).collect();
        let mut finder = EdgeBlobs::new(outer.clone(), outer.clone());
        for seed in 0..40 {
            let mask = random_mask(side, seed);
            let distance: Vec<f32> = (0..side * side).map(|i| (i % 97) as f32).collect();
            let image = Mat::new_rows_cols_with_data(side as i32, side as i32, &mask)
                .unwrap()
                .try_clone()
                .unwrap();
            let (mut labels, mut stats, mut centroids) =
                (Mat::default(), Mat::default(), Mat::default());
            let count = imgproc::connected_components_with_stats(
                &image,
                &mut labels,
                &mut stats,
                &mut centroids,
                8,
                CV_32S,
            )
            .unwrap();
            let labels = labels.data_typed::<i32>().unwrap().to_vec();
            // OpenCV's blobs that reach the band, in label order.
            let mut expected = Vec::new();
            for label in 1..count {
                let pixels: Vec<usize> = (0..side * side).filter(|&i| labels[i] == label).collect();
                if pixels.iter().any(|&i| outer[i % side] || outer[i / side]) {
                    let stat = |f| *stats.at_2d::<i32>(label, f).unwrap() as usize;
                    let thickness = pixels.iter().map(|&i| distance[i]).fold(0.0, f32::max);
                    expected.push((
                        stat(imgproc::CC_STAT_AREA),
                        stat(imgproc::CC_STAT_LEFT),
                        stat(imgproc::CC_STAT_TOP),
                        stat(imgproc::CC_STAT_WIDTH),
                        stat(imgproc::CC_STAT_HEIGHT),
                        thickness,
                        pixels,
                    ));
                }
            }
            finder.find(&mask, &distance);
            let found: Vec<_> = finder
                .blobs()
                .iter()
                .map(|b| {
                    let mut pixels = finder.pixels(b).to_vec();
                    pixels.sort_unstable();
                    (
                        b.area,
                        b.left,
                        b.top,
                        b.right + 1 - b.left,
                        b.bottom + 1 - b.top,
                        b.thickness,
                        pixels,
                    )
                })
                .collect();
            assert!(!expected.is_empty(), "seed {seed}: the mask tests nothing");
            assert_eq!(found, expected, "seed {seed}");
        }
    }
}
