//! A per-pixel model of the empty board in the top view: learned from the
//! frames themselves, updated only where no piece or hand is, and compared
//! with each frame after correcting for the lamp's overall brightness.

/// Foreground threshold never goes below this (0–255 per channel), so a clean
/// synthetic frame with no noise does not turn every rounding into a piece.
const MIN_THRESHOLD: f32 = 22.0;

/// The threshold is this many noise deviations above the typical difference.
const NOISE_DEVIATIONS: f32 = 5.0;

/// Median absolute deviation to standard deviation, for normal noise.
const MAD_TO_SIGMA: f32 = 1.4826;

/// Every this many pixels, one is sampled to estimate lamp gain and noise.
const SAMPLE_STRIDE: usize = 7;

/// The empty board, one BGR mean per top-view pixel.
#[derive(Debug, Clone)]
pub struct Background {
    width: usize,
    height: usize,
    mean: Vec<f32>,
    known: Vec<bool>,
    gain: f32,
    threshold: f32,
    scratch: Vec<f32>,
}

impl Background {
    /// A model that takes `bgr` (rows of `width` BGR pixels) as the empty board.
    pub fn from_bgr(bgr: &[u8], width: usize, height: usize) -> Background {
        Background {
            width,
            height,
            mean: bgr.iter().map(|&v| f32::from(v)).collect(),
            known: vec![true; width * height],
            gain: 1.0,
            threshold: MIN_THRESHOLD,
            scratch: Vec::new(),
        }
    }

    /// Width and height, pixels.
    pub fn size(&self) -> (usize, usize) {
        (self.width, self.height)
    }

    /// The lamp gain of the last frame compared (1 = as bright as the model).
    pub fn gain(&self) -> f32 {
        self.gain
    }

    /// The foreground threshold used for the last frame (0–255 per channel).
    pub fn threshold(&self) -> f32 {
        self.threshold
    }

    /// Marks a disc of pixels as not yet seen empty.
    pub fn forget_disc(&mut self, column: f64, row: f64, radius: f64) {
        self.for_disc(column, row, radius, |bg, i| bg.known[i] = false);
    }

    /// Sets a disc of pixels to a colour (an estimate of the board there).
    pub fn fill_disc(&mut self, column: f64, row: f64, radius: f64, bgr: [f32; 3]) {
        self.for_disc(column, row, radius, |bg, i| {
            bg.mean[3 * i..3 * i + 3].copy_from_slice(&bgr);
        });
    }

    fn for_disc(
        &mut self,
        column: f64,
        row: f64,
        radius: f64,
        mut f: impl FnMut(&mut Self, usize),
    ) {
        let r2 = radius * radius;
        let rows = (row - radius).floor().max(0.0) as usize
            ..=((row + radius).ceil().max(0.0) as usize).min(self.height.saturating_sub(1));
        for y in rows {
            let columns = (column - radius).floor().max(0.0) as usize
                ..=((column + radius).ceil().max(0.0) as usize).min(self.width.saturating_sub(1));
            for x in columns {
                let (dx, dy) = (x as f64 - column, y as f64 - row);
                if dx * dx + dy * dy <= r2 {
                    f(self, y * self.width + x);
                }
            }
        }
    }

    /// Whether the pixel has been seen empty.
    pub fn is_known(&self, column: usize, row: usize) -> bool {
        self.known
            .get(row * self.width + column)
            .copied()
            .unwrap_or(false)
    }

    /// The empty board's luma (0–255) at a pixel, lamp gain applied.
    pub fn luma_at(&self, column: usize, row: usize) -> f64 {
        let i = 3 * (row.min(self.height - 1) * self.width + column.min(self.width - 1));
        let sum: f32 = self.mean[i..i + 3].iter().sum();
        f64::from(sum / 3.0 * self.gain)
    }

    /// The bounding box (min column, min row, max column, max row) of pixels
    /// not yet seen empty, if any.
    pub fn unknown_box(&self) -> Option<(usize, usize, usize, usize)> {
        let mut bounds: Option<(usize, usize, usize, usize)> = None;
        for (i, _) in self.known.iter().enumerate().filter(|(_, k)| !**k) {
            let (x, y) = (i % self.width, i / self.width);
            bounds = Some(match bounds {
                None => (x, y, x, y),
                Some((x0, y0, x1, y1)) => (x0.min(x), y0.min(y), x1.max(x), y1.max(y)),
            });
        }
        bounds
    }

    /// Writes the foreground of `bgr` into `mask` (255 = differs from the
    /// empty board; 0 = board, or not yet known). The lamp gain and the
    /// threshold are re-estimated from this frame first, so flicker and
    /// sensor noise do not turn the whole board into foreground.
    pub fn foreground(&mut self, bgr: &[u8], mask: &mut [u8]) {
        self.estimate_gain(bgr);
        let gain = self.gain;
        let difference = |mean: &[f32], pixel: &[u8]| -> f32 {
            (0..3)
                .map(|c| (f32::from(pixel[c]) - gain * mean[c]).abs())
                .fold(0.0, f32::max)
        };
        self.scratch.clear();
        for i in (0..self.known.len()).step_by(SAMPLE_STRIDE) {
            if self.known[i] {
                let d = difference(&self.mean[3 * i..3 * i + 3], &bgr[3 * i..3 * i + 3]);
                self.scratch.push(d);
            }
        }
        let typical = median(&mut self.scratch).unwrap_or(0.0);
        self.threshold = (typical + NOISE_DEVIATIONS * MAD_TO_SIGMA * typical).max(MIN_THRESHOLD);
        for (i, out) in mask.iter_mut().enumerate().take(self.known.len()) {
            let d = difference(&self.mean[3 * i..3 * i + 3], &bgr[3 * i..3 * i + 3]);
            *out = if self.known[i] && d > self.threshold {
                255
            } else {
                0
            };
        }
    }

    fn estimate_gain(&mut self, bgr: &[u8]) {
        self.scratch.clear();
        for i in (0..self.known.len()).step_by(SAMPLE_STRIDE) {
            let model: f32 = self.mean[3 * i..3 * i + 3].iter().sum();
            if self.known[i] && model > 30.0 {
                let seen: f32 = bgr[3 * i..3 * i + 3].iter().map(|&v| f32::from(v)).sum();
                self.scratch.push(seen / model);
            }
        }
        self.gain = median(&mut self.scratch).unwrap_or(1.0);
    }

    /// Learns the board from `bgr` where `busy` is 0 (no piece, hand or
    /// foreground there): known pixels move a fraction `rate` towards the
    /// frame (lamp gain removed), unknown ones take it at once.
    pub fn update(&mut self, bgr: &[u8], busy: &[u8], rate: f32) {
        let inverse_gain = if self.gain > 0.0 {
            1.0 / self.gain
        } else {
            1.0
        };
        for (i, &b) in busy.iter().enumerate().take(self.known.len()) {
            if b != 0 {
                continue;
            }
            let weight = if self.known[i] { rate } else { 1.0 };
            for c in 0..3 {
                let seen = f32::from(bgr[3 * i + c]) * inverse_gain;
                let m = &mut self.mean[3 * i + c];
                *m += weight * (seen - *m);
            }
            self.known[i] = true;
        }
    }
}

/// The median of `values` (reordered in place), or `None` when empty.
fn median(values: &mut [f32]) -> Option<f32> {
    if values.is_empty() {
        return None;
    }
    let middle = values.len() / 2;
    let (_, m, _) = values.select_nth_unstable_by(middle, f32::total_cmp);
    Some(*m)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flat(width: usize, height: usize, bgr: [u8; 3]) -> Vec<u8> {
        (0..width * height).flat_map(|_| bgr).collect()
    }

    #[test]
    fn a_brighter_lamp_is_not_foreground_but_a_dark_disc_is() {
        let (w, h) = (40, 30);
        let mut model = Background::from_bgr(&flat(w, h, [100, 150, 180]), w, h);
        let mut frame = flat(w, h, [120, 180, 216]);
        let dark = 3 * (15 * w + 20);
        frame[dark..dark + 3].copy_from_slice(&[20, 20, 20]);
        let mut mask = vec![0; w * h];
        model.foreground(&frame, &mut mask);
        assert!((model.gain() - 1.2).abs() < 0.01, "gain {}", model.gain());
        assert_eq!(mask[15 * w + 20], 255);
        assert_eq!(mask.iter().filter(|&&m| m != 0).count(), 1);
    }

    #[test]
    fn forgotten_pixels_are_relearned_when_free() {
        let (w, h) = (20, 20);
        let mut model = Background::from_bgr(&flat(w, h, [90, 90, 90]), w, h);
        model.forget_disc(10.0, 10.0, 3.0);
        assert!(!model.is_known(10, 10));
        assert_eq!(model.unknown_box(), Some((7, 7, 13, 13)));
        let mut busy = vec![0u8; w * h];
        busy[10 * w + 10] = 1;
        model.update(&flat(w, h, [90, 90, 90]), &busy, 0.05);
        assert!(model.is_known(9, 10));
        assert_eq!(model.unknown_box(), Some((10, 10, 10, 10)));
    }
}
