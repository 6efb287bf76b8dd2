//! A per-pixel model of the empty board in the top view: learned from the
//! frames themselves, updated only where no piece or hand is, and compared
//! with each frame after correcting for the lamp's overall brightness.
//! Foreground that holds still and that no tracked piece explains is learned
//! after a while, so ghosts (a hand in the first frame, a marking the
//! drawing lacks) fade instead of becoming pieces.

use super::prior::BoardPrior;

/// Foreground threshold never goes below this (0–255 per channel), so a clean
/// synthetic frame with no noise does not turn every rounding into a piece.
const MIN_THRESHOLD: f32 = 22.0;

/// The threshold is this many noise deviations above the typical difference.
const NOISE_DEVIATIONS: f32 = 5.0;

/// Median absolute deviation to standard deviation, for normal noise.
const MAD_TO_SIGMA: f32 = 1.4826;

/// Every this many pixels, one is sampled to estimate lamp gain and noise.
const SAMPLE_STRIDE: usize = 7;

/// Frames a pixel must hold still (no change beyond the noise threshold)
/// before foreground there that no tracked piece explains is taken into the
/// empty board: a marking the drawing lacks, or the ghost of a hand.
const STILL_FRAMES_TO_LEARN: u8 = 15;

/// Frames foreground under a hand must hold still before it is learned: a
/// real arm is never this still for so long.
const STILL_FRAMES_TO_LEARN_UNDER_HAND: u8 = 90;

/// A pixel free for learning (see [`Background::update`]).
pub const FREE: u8 = 0;

/// A pixel under a piece: never learned.
pub const PIECE: u8 = 1;

/// A pixel under a hand: learned only once long still.
pub const UNDER_HAND: u8 = 2;

/// Slow learning steps after which a mean that began as the prior's
/// prediction counts as a view of the board: at the default rate (0.03) the
/// prediction then weighs under a tenth.
const PREDICTION_FADE_STEPS: u8 = 75;

/// Frames a pixel that looks like the predicted empty board must hold still
/// before it is learned, however it differs from the model.
const STILL_FRAMES_TO_LEARN_BOARD_LIKE: u8 = 3;

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
    /// The sampled known pixels of the frame being compared: model and frame.
    samples: Vec<([f32; 3], [u8; 3])>,
    prior: Option<BoardPrior>,
    prior_threshold: f32,
    differs: Vec<bool>,
    board_like: Vec<bool>,
    previous: Vec<u8>,
    still: Vec<u8>,
    /// How many more slow learning steps (see [`Background::update`]) a
    /// pixel's mean needs before the prior's prediction in it has given way
    /// to views of the board: 0 once it has.
    predicted: Vec<u8>,
    /// How many frames the next comparison and learning step stand for:
    /// more than one after frames passed over as unchanged (see
    /// [`Background::stand_for_frames`]).
    step: u8,
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
            samples: Vec::new(),
            prior: None,
            prior_threshold: MIN_THRESHOLD,
            differs: vec![false; width * height],
            board_like: vec![false; width * height],
            previous: Vec::new(),
            still: vec![0; width * height],
            predicted: vec![0; width * height],
            step: 1,
        }
    }

    /// A model of the empty board from a frame that may show pieces and a
    /// hand: where the frame agrees with the `prior` prediction it is taken
    /// as it is (wood grain and all), elsewhere the prediction stands in.
    pub fn from_frame_and_prior(
        bgr: &[u8],
        width: usize,
        height: usize,
        prior: BoardPrior,
    ) -> Background {
        let mut model = Background::from_bgr(bgr, width, height);
        let threshold = noise_threshold(
            &mut model.scratch,
            |i| prior.applies[i].then(|| prior.distance(i, &bgr[3 * i..3 * i + 3], 1.0)),
            model.known.len(),
        );
        for i in 0..model.known.len() {
            let predicted = &prior.bgr[3 * i..3 * i + 3];
            // Half the threshold: a white piece is only a little lighter than
            // the wood, and must not be taken for the board.
            if prior.applies[i] && prior.distance(i, &bgr[3 * i..3 * i + 3], 1.0) > 0.5 * threshold
            {
                model.mean[3 * i..3 * i + 3].copy_from_slice(predicted);
                model.predicted[i] = PREDICTION_FADE_STEPS;
            }
        }
        model.prior_threshold = threshold;
        model.prior = Some(prior);
        model
    }

    /// Mean BGR of the model (lamp gain applied) and of the prediction over
    /// the pixels within `radius` of (column, row); the prediction is `None`
    /// where there is none.
    pub fn model_and_prior_near(
        &self,
        column: f64,
        row: f64,
        radius: f64,
    ) -> ([f64; 3], Option<[f64; 3]>) {
        let (mut model, mut prior, mut n, mut n_prior) = ([0.0; 3], [0.0; 3], 0.0, 0.0);
        for i in disc_pixels(self.width, self.height, column, row, radius) {
            for (sum, &mean) in model.iter_mut().zip(&self.mean[3 * i..3 * i + 3]) {
                *sum += f64::from(mean * self.gain);
            }
            n += 1.0;
            if let Some(p) = self.prior.as_ref().filter(|p| p.applies[i]) {
                for (sum, &predicted) in prior.iter_mut().zip(&p.bgr[3 * i..3 * i + 3]) {
                    *sum += f64::from(predicted * self.gain);
                }
                n_prior += 1.0;
            }
        }
        let model = model.map(|v| v / f64::max(n, 1.0));
        let prior = (n_prior > 0.5 * n && n > 0.0).then(|| prior.map(|v| v / n_prior));
        (model, prior)
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

    /// Sets a disc of pixels to the predicted empty board (where there is a
    /// prediction): for pieces known to lie there.
    pub fn predict_disc(&mut self, column: f64, row: f64, radius: f64) {
        let Some(prior) = self.prior.take() else {
            return;
        };
        self.for_disc(column, row, radius, |bg, i| {
            if prior.applies[i] {
                bg.mean[3 * i..3 * i + 3].copy_from_slice(&prior.bgr[3 * i..3 * i + 3]);
                bg.predicted[i] = PREDICTION_FADE_STEPS;
            }
        });
        self.prior = Some(prior);
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
        for i in disc_pixels(self.width, self.height, column, row, radius) {
            f(self, i);
        }
    }

    /// Fraction of the pixels within `radius` of (column, row) that changed
    /// beyond the noise since the previous frame.
    pub fn changed_fraction(&self, column: f64, row: f64, radius: f64) -> f64 {
        1.0 - self.still_fraction(column, row, radius, 1)
    }

    /// Whether the pixel at index `i` (row-major) has been seen empty: known,
    /// and from a view of the board, not the prior's prediction.
    pub(super) fn is_seen_index(&self, i: usize) -> bool {
        self.known.get(i).copied().unwrap_or(false) && self.predicted.get(i) == Some(&0)
    }

    /// Fraction of the pixels within `radius` of (column, row) whose empty
    /// board the model has never seen (unknown, or still the prior's
    /// prediction): where a piece lay from the first frame on.
    pub fn unseen_fraction(&self, column: f64, row: f64, radius: f64) -> f64 {
        self.disc_fraction(column, row, radius, |i| !self.is_seen_index(i))
    }

    /// Takes the pixels of `bgr` (the whole view) within `radius` of
    /// (column, row) as the empty board there, lamp gain removed, but for
    /// those `left` says to leave: what lies there is known to be the
    /// board's own drawing.
    pub fn take_as_board(
        &mut self,
        bgr: &[u8],
        column: f64,
        row: f64,
        radius: f64,
        left: impl Fn(usize) -> bool,
    ) {
        let inverse_gain = if self.gain > 0.0 {
            1.0 / self.gain
        } else {
            1.0
        };
        self.for_disc(column, row, radius, |model, i| {
            if left(i) {
                return;
            }
            let Some(pixel) = bgr.get(3 * i..3 * i + 3) else {
                return;
            };
            for (mean, &value) in model.mean[3 * i..3 * i + 3].iter_mut().zip(pixel) {
                *mean = f32::from(value) * inverse_gain;
            }
            model.known[i] = true;
            model.predicted[i] = 0;
        });
    }

    /// For every pixel (row-major), whether the model holds the empty
    /// board there: [`Background::is_seen_index`] and
    /// [`Background::looks_like_prior`] both, asked of the whole view in one
    /// pass rather than pixel by pixel (a search keeps the board whole).
    pub(super) fn empty_board_seen(&self) -> Vec<bool> {
        let prior = self.prior.as_ref();
        (0..self.known.len().min(self.predicted.len()))
            .map(|i| {
                self.known[i]
                    && self.predicted[i] == 0
                    && prior.is_none_or(|prior| self.prior_holds(prior, i))
            })
            .collect()
    }

    /// Whether the model at pixel `i` could be the empty board the prior
    /// predicts there (always, without a prior): not a ghost it learned.
    pub(super) fn looks_like_prior(&self, i: usize) -> bool {
        self.prior
            .as_ref()
            .is_none_or(|prior| self.prior_holds(prior, i))
    }

    /// [`Background::looks_like_prior`] with the prior in hand.
    #[inline]
    fn prior_holds(&self, prior: &BoardPrior, i: usize) -> bool {
        // The cheap test first: the whole surface is asked at once when the
        // board is kept for a search, and the rest costs a fifth of that.
        if !prior.applies[i] {
            return false;
        }
        let pixel = [0, 1, 2].map(|c| round_to_byte(self.mean[3 * i + c]));
        prior.distance(i, &pixel, 1.0) <= self.prior_threshold
    }

    /// The BGR means, row-major, lamp gain removed.
    pub(super) fn means(&self) -> &[f32] {
        &self.mean
    }

    /// Sets a disc of pixels to `board` (BGR, lamp gain removed) where it has
    /// a value: the board seen there before a piece the model learned came.
    pub(super) fn restore_disc(
        &mut self,
        column: f64,
        row: f64,
        radius: f64,
        board: impl Fn(usize) -> Option<[f32; 3]>,
    ) {
        self.for_disc(column, row, radius, |model, i| {
            if let Some(bgr) = board(i) {
                model.mean[3 * i..3 * i + 3].copy_from_slice(&bgr);
                model.known[i] = true;
                model.predicted[i] = 0;
            }
        });
    }

    /// Fraction of the pixels within `radius` of (column, row) that have
    /// held still (no change beyond the noise) for at least `frames` frames.
    pub(super) fn still_fraction(&self, column: f64, row: f64, radius: f64, frames: u8) -> f64 {
        // No pixels: nothing seen still (and so all of it changed).
        self.disc_fraction(column, row, radius, |i| self.still[i] >= frames)
    }

    /// Fraction of the pixels within `radius` of (column, row) for which
    /// `holds` is true; 0 where the disc has no pixels.
    fn disc_fraction(
        &self,
        column: f64,
        row: f64,
        radius: f64,
        holds: impl Fn(usize) -> bool,
    ) -> f64 {
        let (mut count, mut n) = (0.0, 0.0);
        for i in disc_pixels(self.width, self.height, column, row, radius) {
            n += 1.0;
            if holds(i) {
                count += 1.0;
            }
        }
        if n == 0.0 {
            0.0
        } else {
            count / n
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

    /// The empty board's typical luma (0–255, lamp gain applied) within
    /// `radius` of (column, row), over the pixels `on_wood` admits: the
    /// median, so the lamp's light on the wood and not a line or circle of
    /// the drawing under one pixel.
    pub fn board_luma_round(
        &self,
        column: f64,
        row: f64,
        radius: f64,
        on_wood: impl Fn(usize) -> bool,
    ) -> f64 {
        // A few hundred pixels on a grid say the median as well as all of
        // them, and this runs for every confident disc in every frame.
        let area = std::f64::consts::PI * radius * radius;
        let step = ((area / ROUND_SAMPLES).sqrt().ceil() as usize).max(1);
        let mut lumas: Vec<f32> =
            disc_pixels_on_grid(self.width, self.height, column, row, radius, step)
                .filter(|&i| on_wood(i))
                .map(|i| self.mean[3 * i..3 * i + 3].iter().sum::<f32>() / 3.0)
                .collect();
        match median(&mut lumas) {
            Some(luma) => f64::from(luma * self.gain),
            None => self.luma_at(column.max(0.0) as usize, row.max(0.0) as usize),
        }
    }

    /// The bounding box (min column, min row, max column, max row) of pixels
    /// not yet seen empty, if any.
    pub fn unknown_box(&self) -> Option<(usize, usize, usize, usize)> {
        let mut bounds: Option<(usize, usize, usize, usize)> = None;
        for (y, row) in self.known.chunks_exact(self.width.max(1)).enumerate() {
            // Most rows are all known; a fold without early exit vectorises.
            if row.iter().fold(true, |all, &k| all & k) {
                continue;
            }
            let first = row.iter().position(|&k| !k).unwrap_or(0);
            let last = row.iter().rposition(|&k| !k).unwrap_or(first);
            bounds = Some(match bounds {
                None => (first, y, last, y),
                Some((x0, y0, x1, _)) => (x0.min(first), y0, x1.max(last), y),
            });
        }
        bounds
    }

    /// Writes the foreground of `bgr` into `mask` (255 = differs from the
    /// empty board; 0 = board, or not yet known). The lamp gain and the
    /// threshold are re-estimated from this frame first, so flicker and
    /// sensor noise do not turn the whole board into foreground.
    pub fn foreground(&mut self, bgr: &[u8], mask: &mut [u8]) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has just been found to support AVX2, the only
            // requirement of `foreground_avx2`.
            unsafe { self.foreground_avx2(bgr, mask) };
            return;
        }
        self.foreground_portable(bgr, mask);
    }

    /// [`Background::foreground`] compiled for AVX2: the same operations in
    /// the same order on wider vectors, so the same results bit for bit.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn foreground_avx2(&mut self, bgr: &[u8], mask: &mut [u8]) {
        self.foreground_portable(bgr, mask);
    }

    #[inline(always)]
    fn foreground_portable(&mut self, bgr: &[u8], mask: &mut [u8]) {
        self.estimate_gain_and_threshold(bgr);
        let gain = self.gain;
        let has_previous = self.previous.len() == bgr.len();
        if !has_previous {
            // Every pixel counts as changed; the buffer only needs the size.
            self.previous.clear();
            self.previous.resize(bgr.len(), 0);
        }
        let compare = Compare::new(gain, self.threshold, has_previous, self.step);
        let n = mask
            .len()
            .min(self.known.len())
            .min(bgr.len() / 3)
            .min(self.mean.len() / 3);
        let full = n / BLOCK * BLOCK;
        let Background {
            mean,
            known,
            differs,
            still,
            board_like,
            previous,
            prior,
            prior_threshold,
            ..
        } = self;
        let prior = prior.as_ref();
        {
            let (pixels, _) = bgr[..3 * full].as_chunks::<{ 3 * BLOCK }>();
            let (means, _) = mean[..3 * full].as_chunks::<{ 3 * BLOCK }>();
            let (befores, _) = previous[..3 * full].as_chunks_mut::<{ 3 * BLOCK }>();
            let (knowns, _) = known[..full].as_chunks::<BLOCK>();
            let (outs, _) = mask[..full].as_chunks_mut::<BLOCK>();
            let (differs, _) = differs[..full].as_chunks_mut::<BLOCK>();
            let (stills, _) = still[..full].as_chunks_mut::<BLOCK>();
            let (board_likes, _) = board_like[..full].as_chunks_mut::<BLOCK>();
            let blocks = pixels
                .iter()
                .zip(means)
                .zip(befores.iter_mut())
                .zip(knowns)
                .zip(outs.iter_mut())
                .zip(differs.iter_mut())
                .zip(stills.iter_mut())
                .zip(board_likes.iter_mut());
            for (b, (((((((pixels, mean), before), known), out), differs), still), board_like)) in
                blocks.enumerate()
            {
                let any = compare.block(pixels, mean, before, known, out, differs, still);
                board_like.fill(false);
                // Foreground is a small part of the board: the prediction
                // is consulted only there.
                if any {
                    for j in 0..BLOCK {
                        let i = b * BLOCK + j;
                        board_like[j] = differs[j]
                            && prior.is_some_and(|p| {
                                p.applies[i]
                                    && p.distance(i, &pixels[3 * j..3 * j + 3], gain)
                                        <= *prior_threshold
                            });
                    }
                }
            }
        }
        if full < n {
            // The last few pixels, padded to a whole block.
            let rest = n - full;
            let mut pixels = [0u8; 3 * BLOCK];
            let mut block_mean = [0.0f32; 3 * BLOCK];
            let mut before = [0u8; 3 * BLOCK];
            let mut block_known = [false; BLOCK];
            let (mut out, mut block_differs, mut block_still) =
                ([0u8; BLOCK], [false; BLOCK], [0u8; BLOCK]);
            pixels[..3 * rest].copy_from_slice(&bgr[3 * full..3 * n]);
            block_mean[..3 * rest].copy_from_slice(&mean[3 * full..3 * n]);
            before[..3 * rest].copy_from_slice(&previous[3 * full..3 * n]);
            block_known[..rest].copy_from_slice(&known[full..n]);
            block_still[..rest].copy_from_slice(&still[full..n]);
            compare.block(
                &pixels,
                &block_mean,
                &mut before,
                &block_known,
                &mut out,
                &mut block_differs,
                &mut block_still,
            );
            mask[full..n].copy_from_slice(&out[..rest]);
            differs[full..n].copy_from_slice(&block_differs[..rest]);
            still[full..n].copy_from_slice(&block_still[..rest]);
            previous[3 * full..3 * n].copy_from_slice(&before[..3 * rest]);
            for i in full..n {
                board_like[i] = differs[i]
                    && prior.is_some_and(|p| {
                        p.applies[i]
                            && p.distance(i, &bgr[3 * i..3 * i + 3], gain) <= *prior_threshold
                    });
            }
        }
    }

    /// The lamp gain (median ratio of frame to model brightness) and then the
    /// foreground threshold (from the median difference once the gain is
    /// applied), both over every [`SAMPLE_STRIDE`]th pixel. The sampled
    /// pixels are gathered once, so the model, far larger than the cache, is
    /// read once for both medians.
    #[inline(always)]
    fn estimate_gain_and_threshold(&mut self, bgr: &[u8]) {
        let Background {
            mean,
            known,
            samples,
            scratch,
            ..
        } = self;
        samples.clear();
        let n = known.len().min(mean.len() / 3).min(bgr.len() / 3);
        for i in (0..n).step_by(SAMPLE_STRIDE) {
            if known[i] {
                let model = [mean[3 * i], mean[3 * i + 1], mean[3 * i + 2]];
                let seen = [bgr[3 * i], bgr[3 * i + 1], bgr[3 * i + 2]];
                samples.push((model, seen));
            }
        }
        scratch.clear();
        for (model, seen) in samples.iter() {
            let model: f32 = model.iter().sum();
            if model > 30.0 {
                let seen: f32 = seen.iter().map(|&v| f32::from(v)).sum();
                scratch.push(seen / model);
            }
        }
        let gain = median(scratch).unwrap_or(1.0);
        scratch.clear();
        scratch.extend(samples.iter().map(|(model, seen)| {
            (0..3)
                .map(|c| (f32::from(seen[c]) - gain * model[c]).abs())
                .fold(0.0, f32::max)
        }));
        let typical = median(scratch).unwrap_or(0.0);
        self.gain = gain;
        self.threshold = (typical + NOISE_DEVIATIONS * MAD_TO_SIGMA * typical).max(MIN_THRESHOLD);
    }

    /// The next comparison with a frame, and the learning from it, stand
    /// for `frames` frames: those passed over since the last were unchanged
    /// from it (see [`crate::detect::unchanged`]), and stillness and
    /// learning go on at the pace of frames, not of frames looked at.
    pub fn stand_for_frames(&mut self, frames: u32) {
        self.step = frames.clamp(1, u32::from(u8::MAX)) as u8;
    }

    /// Learns the board from `bgr` where `busy` is [`FREE`] (no piece, hand
    /// or foreground there): known pixels move a fraction `rate` towards the
    /// frame (lamp gain removed), unknown ones take it at once. Under a hand
    /// ([`UNDER_HAND`]) only foreground that has held still far longer than
    /// an arm does is learned: the ghost of an arm the first frame showed,
    /// which would otherwise pass for a hand for ever.
    pub fn update(&mut self, bgr: &[u8], busy: &[u8], rate: f32) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has just been found to support AVX2, the only
            // requirement of `update_avx2`.
            unsafe { self.update_avx2(bgr, busy, rate) };
            return;
        }
        self.update_portable(bgr, busy, rate);
    }

    /// [`Background::update`] compiled for AVX2 (same results bit for bit).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn update_avx2(&mut self, bgr: &[u8], busy: &[u8], rate: f32) {
        self.update_portable(bgr, busy, rate);
    }

    #[inline(always)]
    fn update_portable(&mut self, bgr: &[u8], busy: &[u8], rate: f32) {
        let step = std::mem::replace(&mut self.step, 1);
        // `step` frames' worth of learning at `rate` each (one frame's is
        // `rate` itself, to the bit).
        let rate = if step > 1 {
            1.0 - (1.0 - rate).powi(i32::from(step))
        } else {
            rate
        };
        let inverse_gain = if self.gain > 0.0 {
            1.0 / self.gain
        } else {
            1.0
        };
        let n = busy
            .len()
            .min(self.known.len())
            .min(bgr.len() / 3)
            .min(self.mean.len() / 3);
        let full = n / BLOCK * BLOCK;
        // Whole blocks: the weights first, then every channel in one loop the
        // compiler can vectorise (a weight of 0 leaves the mean as it is).
        let (busys, _) = busy[..full].as_chunks::<BLOCK>();
        let (knowns, _) = self.known[..full].as_chunks_mut::<BLOCK>();
        let (differs, _) = self.differs[..full].as_chunks::<BLOCK>();
        let (stills, _) = self.still[..full].as_chunks::<BLOCK>();
        let (board_likes, _) = self.board_like[..full].as_chunks::<BLOCK>();
        let (pixels, _) = bgr[..3 * full].as_chunks::<{ 3 * BLOCK }>();
        let (means, _) = self.mean[..3 * full].as_chunks_mut::<{ 3 * BLOCK }>();
        let (predicteds, _) = self.predicted[..full].as_chunks_mut::<BLOCK>();
        let blocks = busys
            .iter()
            .zip(knowns.iter_mut())
            .zip(differs)
            .zip(stills)
            .zip(board_likes)
            .zip(pixels)
            .zip(means.iter_mut())
            .zip(predicteds.iter_mut());
        for (((((((busy, known), differs), still), board_like), pixels), mean), predicted) in blocks
        {
            // The rule of `learning_weight` without branches, so it vectorises.
            let mut weight = [0.0f32; BLOCK];
            for j in 0..BLOCK {
                let blocked = (busy[j] == PIECE)
                    | ((busy[j] == UNDER_HAND) & (still[j] < STILL_FRAMES_TO_LEARN_UNDER_HAND));
                let ghost = (still[j] >= STILL_FRAMES_TO_LEARN)
                    | (board_like[j] & (still[j] >= STILL_FRAMES_TO_LEARN_BOARD_LIKE));
                let learn = !blocked & (!known[j] | !differs[j] | ghost);
                let slow = known[j] & !differs[j];
                let full_weight = if slow { rate } else { 1.0 };
                weight[j] = if learn { full_weight } else { 0.0 };
                known[j] |= learn;
                predicted[j] = prediction_left(predicted[j], learn, slow, step);
            }
            let mut weights = [0.0f32; 3 * BLOCK];
            for (three, &w) in weights.chunks_exact_mut(3).zip(&weight) {
                three.fill(w);
            }
            for k in 0..3 * BLOCK {
                let seen = f32::from(pixels[k]) * inverse_gain;
                mean[k] += weights[k] * (seen - mean[k]);
            }
        }
        for i in full..n {
            let slow = self.known[i] && !self.differs[i];
            let Some(weight) = learning_weight(
                busy[i],
                self.known[i],
                self.differs[i],
                self.still[i],
                self.board_like[i],
                rate,
            ) else {
                continue;
            };
            for c in 0..3 {
                let seen = f32::from(bgr[3 * i + c]) * inverse_gain;
                let m = &mut self.mean[3 * i + c];
                *m += weight * (seen - *m);
            }
            self.known[i] = true;
            self.predicted[i] = prediction_left(self.predicted[i], true, slow, step);
        }
    }
}

/// How far [`Background::update`] moves a pixel's mean towards the frame
/// (`None`: not at all), from what covers it (`busy`) and what the last
/// comparison found there.
#[inline(always)]
fn learning_weight(
    busy: u8,
    known: bool,
    differs: bool,
    still: u8,
    board_like: bool,
    rate: f32,
) -> Option<f32> {
    if busy == PIECE || (busy == UNDER_HAND && still < STILL_FRAMES_TO_LEARN_UNDER_HAND) {
        None
    } else if !known {
        Some(1.0)
    } else if !differs {
        Some(rate)
    } else if still >= STILL_FRAMES_TO_LEARN
        || (board_like && still >= STILL_FRAMES_TO_LEARN_BOARD_LIKE)
    {
        // Still foreground that no tracked piece explains: a ghost.
        Some(1.0)
    } else {
        None
    }
}

/// A pixel's prediction countdown (see `Background::predicted`) after a
/// learning step standing for `step` frames: a full-weight learn clears it,
/// a slow (`slow`) one takes `step` off it, no learn (`learned` false)
/// leaves it. Branch-free, so the learning loop stays vectorised.
#[inline(always)]
fn prediction_left(count: u8, learned: bool, slow: bool, step: u8) -> u8 {
    let reset_mask = u8::from(learned & !slow).wrapping_sub(1);
    count.saturating_sub(u8::from(learned) * step) & reset_mask
}

/// Pixels compared per step of [`Background::foreground`]: a fixed count of
/// whole pixels lets the compiler use vector instructions across channels.
const BLOCK: usize = 16;

/// What each pixel is compared with in [`Background::foreground`].
struct Compare {
    gain: f32,
    threshold: f32,
    /// A channel changed since the last frame when it moved by more than
    /// this: the threshold's whole part, so that whole-number differences
    /// compare as they do against the threshold itself.
    change_above: u8,
    has_previous: bool,
    /// Frames the comparison stands for: what a pixel's stillness grows by.
    step: u8,
}

impl Compare {
    fn new(gain: f32, threshold: f32, has_previous: bool, step: u8) -> Compare {
        Compare {
            gain,
            threshold,
            change_above: threshold.floor().clamp(0.0, 255.0) as u8,
            has_previous,
            step,
        }
    }

    /// For one block of pixels: whether each differs from the model (`out`
    /// 255 and `differs`, only where `known`; a pixel differs when any
    /// channel does), and how many frames it has held still (`still`, reset
    /// where any channel changed since `before`, which then takes the
    /// block's pixels). Returns whether any pixel differs.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn block(
        &self,
        pixels: &[u8; 3 * BLOCK],
        mean: &[f32; 3 * BLOCK],
        before: &mut [u8; 3 * BLOCK],
        known: &[bool; BLOCK],
        out: &mut [u8; BLOCK],
        differs: &mut [bool; BLOCK],
        still: &mut [u8; BLOCK],
    ) -> bool {
        // Per channel first, in loops of plain arithmetic the compiler
        // vectorises; then per pixel.
        // Bit 0: the channel differs from the model; bit 1: it changed.
        let mut flags = [0u8; 3 * BLOCK];
        for k in 0..3 * BLOCK {
            let far = (f32::from(pixels[k]) - self.gain * mean[k]).abs();
            let over = u8::from(far > self.threshold);
            let moved = u8::from(pixels[k].abs_diff(before[k]) > self.change_above);
            flags[k] = over | (moved << 1);
        }
        before.copy_from_slice(pixels);
        let mut pixel_flags = [0u8; BLOCK];
        for j in 0..BLOCK {
            pixel_flags[j] = flags[3 * j] | flags[3 * j + 1] | flags[3 * j + 2];
        }
        let previous = u8::from(self.has_previous);
        let mut any = 0u8;
        for j in 0..BLOCK {
            let is_foreground = u8::from(known[j]) & pixel_flags[j] & 1;
            any |= is_foreground;
            differs[j] = is_foreground != 0;
            out[j] = 0u8.wrapping_sub(is_foreground);
            let held = previous & ((pixel_flags[j] >> 1) ^ 1);
            still[j] = still[j].saturating_add(self.step) & 0u8.wrapping_sub(held);
        }
        any != 0
    }
}

/// Sets to `false` the pixels of a row-major mask `side` wide within a box
/// (first column, first row, last column, last row).
pub(super) fn clear_box(
    mask: &mut [bool],
    side: usize,
    (x0, y0, x1, y1): (usize, usize, usize, usize),
) {
    for row in mask.chunks_exact_mut(side).take(y1 + 1).skip(y0) {
        row[x0.min(side)..(x1 + 1).min(side)].fill(false);
    }
}

/// About how many pixels [`Background::board_luma_round`] reads.
const ROUND_SAMPLES: f64 = 300.0;

/// Indices of the pixels of a `width`×`height` image within `radius` of
/// (column, row).
pub(super) fn disc_pixels(
    width: usize,
    height: usize,
    column: f64,
    row: f64,
    radius: f64,
) -> impl Iterator<Item = usize> {
    disc_pixels_on_grid(width, height, column, row, radius, 1)
}

/// [`disc_pixels`] on the grid of every `step`th row and column.
fn disc_pixels_on_grid(
    width: usize,
    height: usize,
    column: f64,
    row: f64,
    radius: f64,
    step: usize,
) -> impl Iterator<Item = usize> {
    let step = step.max(1);
    let on_grid = move |from: f64| (from.floor().max(0.0) as usize).div_ceil(step) * step;
    let last = |to: f64, size: usize| (to.ceil().max(0.0) as usize).min(size.saturating_sub(1));
    let (x_first, y_first) = (on_grid(column - radius), on_grid(row - radius));
    DiscPixels {
        width,
        centre: (column, row),
        r2: radius * radius,
        step,
        x_first,
        x_last: last(column + radius, width),
        x: x_first,
        y: y_first,
        y_last: last(row + radius, height),
    }
}

/// The state of [`disc_pixels_on_grid`]'s walk, row by row: a plain loop,
/// where nested iterator adapters cost 1.3 % of `carrom track`'s CPU.
struct DiscPixels {
    width: usize,
    centre: (f64, f64),
    r2: f64,
    step: usize,
    /// The grid's columns and rows within the disc's box, inclusive.
    x_first: usize,
    x_last: usize,
    y_last: usize,
    /// The next pixel looked at.
    x: usize,
    y: usize,
}

impl Iterator for DiscPixels {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        while self.y <= self.y_last {
            let dy = self.y as f64 - self.centre.1;
            while self.x <= self.x_last {
                let x = self.x;
                self.x += self.step;
                let dx = x as f64 - self.centre.0;
                if dx * dx + dy * dy <= self.r2 {
                    return Some(self.y * self.width + x);
                }
            }
            self.y += self.step;
            self.x = self.x_first;
        }
        None
    }
}

/// A foreground threshold from sampled differences: the typical difference
/// plus several robust deviations, never below [`MIN_THRESHOLD`].
fn noise_threshold(
    scratch: &mut Vec<f32>,
    difference: impl Fn(usize) -> Option<f32>,
    len: usize,
) -> f32 {
    scratch.clear();
    scratch.extend((0..len).step_by(SAMPLE_STRIDE).filter_map(difference));
    let typical = median(scratch).unwrap_or(0.0);
    (typical + NOISE_DEVIATIONS * MAD_TO_SIGMA * typical).max(MIN_THRESHOLD)
}

/// The median of `values` (reordered in place), or `None` when empty.
/// Every value is a magnitude (a ratio of brightnesses, a difference's
/// size, a luma), and magnitudes order as their bits do: compared as
/// integers, the selection runs faster than with `total_cmp` and picks the
/// same value.
pub(super) fn median(values: &mut [f32]) -> Option<f32> {
    if values.is_empty() {
        return None;
    }
    debug_assert!(values.iter().all(|v| v.is_sign_positive()));
    let middle = values.len() / 2;
    let (_, m, _) = values.select_nth_unstable_by_key(middle, |v| v.to_bits());
    Some(*m)
}

/// `v.round().clamp(0.0, 255.0) as u8`, exactly (NaN gives 0), without
/// the call to libm's `roundf` that `f32::round` compiles to where SSE4.1
/// is not assumed: a pixel's rounding was most of what testing it against
/// the prior cost.
#[inline]
fn round_to_byte(v: f32) -> u8 {
    let v = v.clamp(0.0, 255.0);
    // Truncation (NaN to 0); `v - whole` is exact for 0 <= v <= 255.
    let whole = v as u8;
    if v - f32::from(whole) >= 0.5 {
        whole + 1
    } else {
        whole
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mean_rounds_to_the_byte_the_library_rounds_it_to() {
        let library = |v: f32| v.round().clamp(0.0, 255.0) as u8;
        let mut values = vec![f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -0.0, f32::MAX];
        // Every half-way point and the floats either side of it, where a
        // rounding by adding a half goes wrong.
        for k in -2..=258 {
            let half = k as f32 + 0.5;
            let (below, above) = (
                f32::from_bits(half.to_bits() - 1),
                f32::from_bits(half.to_bits() + 1),
            );
            values.extend([half, below, above, k as f32, -half]);
        }
        values.extend((0..200_000).map(|i| -3.0 + i as f32 * 0.0013));
        for v in values {
            assert_eq!(round_to_byte(v), library(v), "{v:e}");
        }
    }

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
    fn the_board_luma_round_a_disc_is_the_woods_not_a_line_under_its_centre() {
        // Light wood with a dark line two pixels wide through (30, 30).
        let (w, h) = (60, 60);
        let mut bgr = flat(w, h, [150, 180, 210]);
        for y in 0..h {
            for x in 29..31 {
                bgr[3 * (y * w + x)..3 * (y * w + x) + 3].copy_from_slice(&[30, 30, 30]);
            }
        }
        let model = Background::from_bgr(&bgr, w, h);
        assert_eq!(model.luma_at(30, 30), 30.0);
        let round = model.board_luma_round(30.0, 30.0, 16.0, |_| true);
        assert!((round - 180.0).abs() < 1e-3, "{round}");
        // Near the image's edge only the pixels inside count.
        assert!((model.board_luma_round(0.0, 59.0, 16.0, |_| true) - 180.0).abs() < 1e-3);
        // Only the pixels `on_wood` admits count (off a pocket, the frame).
        let right_of_the_line = model.board_luma_round(30.0, 30.0, 16.0, |i| i % w >= 31);
        assert!((right_of_the_line - 180.0).abs() < 1e-3);
        let only_the_line =
            model.board_luma_round(30.0, 30.0, 16.0, |i| (29..31).contains(&(i % w)));
        assert_eq!(only_the_line, 30.0);
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

    #[test]
    fn a_print_taken_as_board_is_seen_and_no_longer_foreground() {
        let (w, h) = (20, 20);
        let mut model = Background::from_bgr(&flat(w, h, [90, 90, 90]), w, h);
        model.forget_disc(10.0, 10.0, 4.0);
        assert!(model.unseen_fraction(10.0, 10.0, 3.0) > 0.99);
        assert_eq!(model.unseen_fraction(3.0, 3.0, 2.0), 0.0);
        let mut frame = flat(w, h, [90, 90, 90]);
        for i in disc_pixels(w, h, 10.0, 10.0, 3.0) {
            frame[3 * i..3 * i + 3].copy_from_slice(&[30, 30, 200]);
        }
        let mut mask = vec![0u8; w * h];
        model.take_as_board(&frame, 10.0, 10.0, 4.0, |i| i == 0);
        assert_eq!(model.unseen_fraction(10.0, 10.0, 3.0), 0.0);
        model.foreground(&frame, &mut mask);
        assert!(mask.iter().all(|&m| m == 0), "the print is the board now");
    }

    #[test]
    fn disc_pixels_on_a_grid_are_every_grid_pixel_within_the_radius_in_reading_order() {
        let (w, h) = (23, 17);
        let discs = [
            (11.0, 8.0, 5.0),
            (0.3, 0.7, 4.2),
            (22.5, 16.2, 6.0),
            (-3.0, 5.0, 4.0),
            (30.0, 30.0, 2.0),
            (7.5, 9.25, 0.0),
            (12.0, 6.0, 40.0),
        ];
        for (column, row, radius) in discs {
            for step in [1, 2, 3] {
                let expected: Vec<usize> = (0..h)
                    .filter(|y| y % step == 0)
                    .flat_map(|y| (0..w).filter(|x| x % step == 0).map(move |x| (x, y)))
                    .filter(|&(x, y)| {
                        (x as f64 - column).powi(2) + (y as f64 - row).powi(2) <= radius * radius
                    })
                    .map(|(x, y)| y * w + x)
                    .collect();
                let got: Vec<usize> =
                    disc_pixels_on_grid(w, h, column, row, radius, step).collect();
                assert_eq!(
                    got, expected,
                    "disc ({column}, {row}, {radius}), step {step}"
                );
            }
        }
    }

    use crate::detect::test_noise as noise;

    /// The per-pixel comparison and update as first written, one pixel at a
    /// time: what the block-wise versions must reproduce bit for bit.
    fn reference_step(model: &mut Background, bgr: &[u8], mask: &mut [u8], busy: &[u8], rate: f32) {
        model.scratch.clear();
        for i in (0..model.known.len()).step_by(SAMPLE_STRIDE) {
            let mean: f32 = model.mean[3 * i..3 * i + 3].iter().sum();
            if model.known[i] && mean > 30.0 {
                let seen: f32 = bgr[3 * i..3 * i + 3].iter().map(|&v| f32::from(v)).sum();
                model.scratch.push(seen / mean);
            }
        }
        model.gain = median(&mut model.scratch).unwrap_or(1.0);
        let gain = model.gain;
        let difference = |mean: &[f32], pixel: &[u8]| -> f32 {
            (0..3)
                .map(|c| (f32::from(pixel[c]) - gain * mean[c]).abs())
                .fold(0.0, f32::max)
        };
        model.scratch.clear();
        for i in (0..model.known.len()).step_by(SAMPLE_STRIDE) {
            if model.known[i] {
                let d = difference(&model.mean[3 * i..3 * i + 3], &bgr[3 * i..3 * i + 3]);
                model.scratch.push(d);
            }
        }
        let typical = median(&mut model.scratch).unwrap_or(0.0);
        model.threshold = (typical + NOISE_DEVIATIONS * MAD_TO_SIGMA * typical).max(MIN_THRESHOLD);
        let has_previous = model.previous.len() == bgr.len();
        for (i, out) in mask.iter_mut().enumerate().take(model.known.len()) {
            let pixel = &bgr[3 * i..3 * i + 3];
            let d = difference(&model.mean[3 * i..3 * i + 3], pixel);
            let differs = model.known[i] && d > model.threshold;
            model.differs[i] = differs;
            *out = if differs { 255 } else { 0 };
            let changed = !has_previous
                || (0..3)
                    .map(|c| pixel[c].abs_diff(model.previous[3 * i + c]))
                    .max()
                    .unwrap_or(0) as f32
                    > model.threshold;
            model.still[i] = if changed {
                0
            } else {
                model.still[i].saturating_add(1)
            };
            model.board_like[i] = differs
                && model.prior.as_ref().is_some_and(|p| {
                    p.applies[i] && p.distance(i, pixel, gain) <= model.prior_threshold
                });
        }
        model.previous.clear();
        model.previous.extend_from_slice(bgr);
        let inverse_gain = if model.gain > 0.0 {
            1.0 / model.gain
        } else {
            1.0
        };
        for (i, &b) in busy.iter().enumerate().take(model.known.len()) {
            let slow = model.known[i] && !model.differs[i];
            if let Some(weight) = learning_weight(
                b,
                model.known[i],
                model.differs[i],
                model.still[i],
                model.board_like[i],
                rate,
            ) {
                for c in 0..3 {
                    let seen = f32::from(bgr[3 * i + c]) * inverse_gain;
                    let m = &mut model.mean[3 * i + c];
                    *m += weight * (seen - *m);
                }
                model.known[i] = true;
                model.predicted[i] = prediction_left(model.predicted[i], true, slow, 1);
            }
        }
    }

    #[test]
    fn block_wise_comparison_and_learning_match_the_pixel_by_pixel_rule() {
        // 23×23 pixels: not a whole number of blocks, so the tail is tested.
        let (w, h) = (23, 23);
        let n = w * h;
        let empty: Vec<u8> = noise(3 * n, 1).iter().map(|v| 60 + v / 2).collect();
        let predicted: Vec<f32> = empty.iter().map(|&v| f32::from(v) + 3.0).collect();
        let applies: Vec<bool> = noise(n, 2).iter().map(|v| v % 4 != 0).collect();
        let prior = BoardPrior::new(predicted, applies, w);
        let mut fast = Background::from_frame_and_prior(&empty, w, h, prior);
        fast.forget_disc(5.0, 5.0, 3.0);
        let mut slow = fast.clone();
        // Without the CPU-specific build, on any machine.
        let mut portable = fast.clone();
        let (mut fast_mask, mut slow_mask) = (vec![0u8; n], vec![0u8; n]);
        let mut portable_mask = vec![0u8; n];
        let (mut checked_foreground, mut checked_board_like) = (0, 0);
        for frame in 0..40u64 {
            // Mostly the empty board with noise; some frames move a patch
            // of pixels far off it, and some hold the last frame still.
            let jitter = noise(3 * n, 10 + frame);
            let mut bgr: Vec<u8> = empty
                .iter()
                .zip(&jitter)
                .map(|(&v, &j)| v.saturating_add(j % 23))
                .collect();
            if frame % 3 == 0 {
                for (v, &j) in bgr
                    .iter_mut()
                    .zip(&jitter)
                    .skip(3 * (frame as usize % 7) * w)
                    .take(3 * 2 * w)
                {
                    *v = j;
                }
            }
            if frame % 5 == 4 {
                bgr.clone_from(&slow.previous);
            }
            let busy: Vec<u8> = noise(n, 100 + frame).iter().map(|v| v % 3).collect();
            fast.foreground(&bgr, &mut fast_mask);
            fast.update(&bgr, &busy, 0.03);
            reference_step(&mut slow, &bgr, &mut slow_mask, &busy, 0.03);
            portable.foreground_portable(&bgr, &mut portable_mask);
            portable.update_portable(&bgr, &busy, 0.03);
            assert_eq!(fast_mask, slow_mask, "frame {frame}: mask");
            assert_eq!(portable_mask, slow_mask, "frame {frame}: portable mask");
            assert_eq!(fast.still, slow.still, "frame {frame}: still");
            assert_eq!(fast.board_like, slow.board_like, "frame {frame}");
            assert_eq!(fast.known, slow.known, "frame {frame}: known");
            let bits = |m: &Background| m.mean.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&fast), bits(&slow), "frame {frame}: mean");
            assert_eq!(bits(&portable), bits(&slow), "frame {frame}: portable mean");
            assert_eq!(portable.still, slow.still, "frame {frame}: portable still");
            checked_foreground += fast_mask.iter().filter(|&&m| m != 0).count();
            checked_board_like += fast.board_like.iter().filter(|&&b| b).count();
        }
        assert!(
            checked_foreground > 100,
            "the frames test little foreground"
        );
        assert!(
            checked_board_like > 0,
            "the frames test no board-like foreground"
        );
    }
}
