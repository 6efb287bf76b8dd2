//! Camera shake: how far the whole camera image has moved since the clip's
//! first frame (a camera pole bumped, a table jolted by a hard strike),
//! measured on every frame at a few hundred of the scene's strongest edges,
//! so the top view can be taken from where the board is now seen.
//!
//! A shift of a few pixels lasting a handful of frames is enough to undo
//! the empty-board model (every printed line turns into foreground) just as
//! a stroke begins; the calibration itself stays right, so the frame's shift
//! is all that needs measuring.
//!
//! The measure: anchors are the strongest-gradient pixel of each cell of a
//! grid over the first frame, with their grey level. Each frame the shift is
//! first found to the pixel by normalised correlation of the anchors' grey
//! levels, moving on from the last shift (after a jolt, when that no longer
//! correlates as usual, the best peaks of a ±[`SEARCH_PX`] window are
//! candidates too, and so is home), then each candidate is fitted to a
//! fraction of a pixel by Gauss-Newton on the anchors, with a gain and an
//! offset for the light and Huber weights so pieces, hands and arms over
//! some anchors count for little; the best fit wins. The anchors are taken
//! again whenever the camera has rested a while, so they follow the scene
//! (a piece come to rest on one, the lamp) without learning a wrong shift.

use nalgebra::{Matrix4, Point2, Vector4};
use opencv::core::{Mat, CV_8UC3};
use opencv::imgproc;
use opencv::prelude::*;

use super::video::Frame;
use super::yuv::Yuv420;

/// Side of the grid cells each giving at most one anchor, pixels.
const CELL_PX: usize = 32;

/// Weakest edge taken for an anchor: Sobel magnitude of the grey image (a
/// clean step of 6 grey levels between flat sides gives about 24).
const MIN_EDGE: f32 = 24.0;

/// Largest shift looked for, pixels each way: a bumped pole moves the image a
/// few pixels.
pub const SEARCH_PX: i32 = 6;

/// Fewest anchors for a measure: fewer, and the frame is taken as unmoved.
const MIN_ANCHORS: usize = 40;

/// Fewest anchors that must agree with the fitted shift (as a fraction of
/// those sampled): a hand over half the scene leaves the measure to the
/// other half, one over more leaves it unmeasured.
const MIN_AGREEING: f64 = 0.5;

/// Correlation at the last shift, as a fraction of its usual value, below
/// which the whole search window is searched again.
const SEARCH_AGAIN_BELOW: f64 = 0.9;

/// Most one-pixel moves from the last shift before the search gives up
/// following it.
const CLIMB_STEPS: usize = 4;

/// Peaks of the whole window given a finer fit after a jolt.
const FAR_PEAKS: usize = 3;

/// Fits whose spreads differ by less than this fraction fit about as well.
const SAME_FIT: f64 = 0.05;

/// Gauss-Newton rounds for the fraction of a pixel.
const ROUNDS: usize = 5;

/// Frames after which anchors still in place are taken again from a frame
/// where the camera rests, so they follow the scene (pieces come to rest on
/// them, the light) without learning a wrong shift as they go.
const FRESH_FRAMES: u32 = 150;

/// Frames the camera must stay at one shift for that to be where it rests:
/// a bumped camera swings and settles, never holding still away from home,
/// so two thirds of a second still at one shift is the camera's home (the
/// first frame may have been taken mid-bump), and the anchors are taken
/// again there.
const HOME_FRAMES: u32 = 20;

/// Shifts within this (pixels) of each other count as the same place.
const SAME_PLACE_PX: f64 = 0.15;

/// Frames after which a view with too few anchors (dark, covered,
/// featureless) is looked at again: a second's shake unmeasured at most,
/// for one grey conversion and Sobel a second.
const LOOK_AGAIN_FRAMES: u32 = 30;

/// One anchor: a pixel on a strong edge of the frame the anchors were taken from.
#[derive(Debug, Clone, Copy)]
struct Anchor {
    x: i32,
    y: i32,
    /// Its grey level then (0-255 scale).
    reference: f32,
}

/// Which grey levels a correlation compares.
#[derive(Debug, Clone, Copy)]
enum Levels {
    /// Each anchor's own pixel: sharp, for following the shift a pixel at a time.
    Single,
    /// The mean of its 3x3 neighbourhood: the correlation falls off over a
    /// few pixels instead of one, so the true shift stands out in a wide
    /// search half a pixel off too.
    Box,
}

/// The anchors taken from one frame, with their grey levels centred for
/// correlation once (they serve every frame until taken again).
#[derive(Debug)]
struct Anchors {
    points: Vec<Anchor>,
    single: Option<Centred>,
    smooth: Option<Centred>,
}

/// The whole-image shift of a frame against the first, in camera pixels: the
/// scene point seen at `p` in the first frame is seen at `p + shift` now.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Shift {
    /// Pixels right.
    pub dx: f64,
    /// Pixels down.
    pub dy: f64,
}

impl Shift {
    /// No movement.
    pub const NONE: Shift = Shift { dx: 0.0, dy: 0.0 };

    /// Its length, pixels.
    pub fn length(self) -> f64 {
        self.dx.hypot(self.dy)
    }

    /// Where an image point of the first frame is seen now.
    pub fn moved(self, point: Point2<f64>) -> Point2<f64> {
        Point2::new(point.x + self.dx, point.y + self.dy)
    }
}

/// Measures each frame's shift against the first frame it saw.
#[derive(Debug, Default)]
pub struct ShakeMeter {
    /// The anchors, once taken (perhaps too few to measure by: a dark or
    /// featureless view is looked at again every [`LOOK_AGAIN_FRAMES`]).
    anchors: Option<Anchors>,
    size: (i32, i32),
    /// The last frame's whole-pixel shift.
    last: (i32, i32),
    /// Usual correlation at the measured shift (running mean).
    usual_correlation: Option<f64>,
    /// Per anchor scratch: grey levels sampled this frame.
    sampled: Vec<f32>,
    /// The last frame's measure.
    latest: Shift,
    /// Where the camera has lately stayed, and for how many frames.
    staying: (Shift, u32),
    /// Frames measured since the anchors were taken.
    age: u32,
}

impl ShakeMeter {
    /// A meter that takes its anchors from the next frame it sees.
    pub fn new() -> ShakeMeter {
        ShakeMeter::default()
    }

    /// Forgets the anchors: the camera was refitted, or frames were missed.
    pub fn reset(&mut self) {
        *self = ShakeMeter::new();
    }

    /// The shift of `frame` (BGR, 8 bits) against the first frame seen;
    /// [`Shift::NONE`] for the first frame, for frames it cannot measure
    /// (too few edges, most of them covered), and for frames of another size.
    pub fn measure(&mut self, frame: &Mat) -> opencv::Result<Shift> {
        let greys = Greys::of_bgr(frame)?;
        self.measure_greys(greys.as_ref())
    }

    /// [`ShakeMeter::measure`] of a decoded frame: on its luma plane where
    /// FFmpeg decoded it (its BGR image may hold the board only), else on
    /// its image.
    pub fn measure_frame(&mut self, frame: &Frame) -> opencv::Result<Shift> {
        match frame.planes() {
            Some(planes) => self.measure_greys(Some(&Greys::Luma(planes))),
            None => self.measure(&frame.image),
        }
    }

    /// The measure of a frame read as grey; `None` for a frame it cannot read.
    fn measure_greys(&mut self, frame: Option<&Greys<'_>>) -> opencv::Result<Shift> {
        let mut shift = self.measure_shift(frame)?;
        let (at, frames) = self.staying;
        let same = (shift.dx - at.dx).hypot(shift.dy - at.dy) < SAME_PLACE_PX;
        self.staying = if same { (at, frames + 1) } else { (shift, 1) };
        self.age += 1;
        let resting = self.staying.1 >= HOME_FRAMES;
        let too_few = self
            .anchors
            .as_ref()
            .is_some_and(|a| a.points.len() < MIN_ANCHORS);
        let due = self.staying.0.length() >= SAME_PLACE_PX
            || self.age >= FRESH_FRAMES
            || (too_few && self.age >= LOOK_AGAIN_FRAMES);
        if let Some(frame) = frame.filter(|_| resting && due) {
            // The camera rests away from where the anchors were taken: that
            // frame was taken mid-bump (or the camera has settled elsewhere,
            // which the calibration cannot know of either); or the anchors
            // are old. Either way they are taken again here.
            self.take_anchors(frame)?;
            self.staying = (Shift::NONE, 0);
            shift = Shift::NONE;
        }
        self.latest = shift;
        Ok(shift)
    }

    /// The last frame's shift.
    pub fn latest(&self) -> Shift {
        self.latest
    }

    /// Takes the anchors from `frame`: from now on shifts are measured
    /// against it.
    fn take_anchors(&mut self, frame: &Greys<'_>) -> opencv::Result<()> {
        self.anchors = Some(Anchors::pick(frame)?);
        self.size = frame.size();
        self.last = (0, 0);
        self.usual_correlation = None;
        self.age = 0;
        Ok(())
    }

    fn measure_shift(&mut self, frame: Option<&Greys<'_>>) -> opencv::Result<Shift> {
        let Some(image) = frame else {
            return Ok(Shift::NONE);
        };
        let size = image.size();
        if self.anchors.is_none() || size != self.size {
            self.take_anchors(image)?;
            return Ok(Shift::NONE);
        }
        let candidates = self.whole_pixel_shifts(image);
        // Single grey levels correlate poorly half a pixel off and by chance
        // a few pixels away (a board's double lines), so the candidates are
        // judged by the finer fit: the least spread of misfits wins, and the
        // one nearer home where two fit about as well.
        let home_first = |a: &(Shift, f64, f64), b: &(Shift, f64, f64)| {
            if (a.1 - b.1).abs() <= SAME_FIT * a.1.min(b.1) {
                a.0.length().total_cmp(&b.0.length())
            } else {
                a.1.total_cmp(&b.1)
            }
        };
        let Some(anchors) = self.anchors.as_ref() else {
            return Ok(Shift::NONE);
        };
        let best = candidates
            .into_iter()
            .filter_map(|(whole, correlation)| {
                let (fit, spread) = anchors.fraction(image, whole)?;
                Some((fit, spread, correlation))
            })
            .min_by(home_first);
        let Some((fit, _, correlation)) = best else {
            return Ok(Shift::NONE);
        };
        self.last = (fit.dx.round() as i32, fit.dy.round() as i32);
        self.usual_correlation = Some(match self.usual_correlation {
            Some(usual) => 0.95 * usual + 0.05 * correlation,
            None => correlation,
        });
        Ok(fit)
    }

    /// Whole-pixel shifts worth a finer fit, with their correlations: the
    /// best near the last shift (moving on from it a pixel at a time while
    /// a neighbour correlates better), home (no shift), and, after a jolt
    /// (the near one correlating below the usual), the best few peaks of
    /// the whole window.
    fn whole_pixel_shifts(&mut self, image: &Greys<'_>) -> Vec<((i32, i32), f64)> {
        let Some(anchors) = self
            .anchors
            .as_ref()
            .filter(|a| a.points.len() >= MIN_ANCHORS)
        else {
            return Vec::new();
        };
        let sampled = &mut self.sampled;
        let mut score =
            |shift: (i32, i32)| anchors.correlation(image, shift, Levels::Single, sampled);
        let mut best: Option<((i32, i32), f64)> = None;
        let mut at = self.last;
        for _ in 0..CLIMB_STEPS {
            let centre = best;
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let candidate = (at.0 + dx, at.1 + dy);
                    if centre.is_some_and(|(c, _)| c == candidate) {
                        continue;
                    }
                    if let Some(c) = score(candidate) {
                        if best.is_none_or(|(_, b)| c > b) {
                            best = Some((candidate, c));
                        }
                    }
                }
            }
            match best {
                Some((moved, _)) if moved != at => at = moved,
                _ => break,
            }
        }
        let usual = self.usual_correlation;
        let jolted = match (best, usual) {
            (Some((_, c)), Some(usual)) => c < SEARCH_AGAIN_BELOW * usual,
            (None, _) => true,
            (Some(_), None) => false,
        };
        let mut candidates: Vec<((i32, i32), f64)> = best.into_iter().collect();
        if best.is_none_or(|(at, _)| at != (0, 0)) {
            candidates.extend(score((0, 0)).map(|c| ((0, 0), c)));
        }
        if jolted {
            let side = (2 * SEARCH_PX + 1) as usize;
            let window: Vec<Option<f64>> = (-SEARCH_PX..=SEARCH_PX)
                .flat_map(|dy| (-SEARCH_PX..=SEARCH_PX).map(move |dx| (dx, dy)))
                .map(|shift| anchors.correlation(image, shift, Levels::Box, sampled))
                .collect();
            let at = |x: usize, y: usize| window[y * side + x];
            let mut peaks: Vec<((i32, i32), f64)> = Vec::new();
            for y in 0..side {
                for x in 0..side {
                    let Some(c) = at(x, y) else { continue };
                    let neighbours = (y.saturating_sub(1)..(y + 2).min(side))
                        .flat_map(|ny| {
                            (x.saturating_sub(1)..(x + 2).min(side)).map(move |nx| (nx, ny))
                        })
                        .filter(|&n| n != (x, y));
                    let highest = neighbours
                        .into_iter()
                        .all(|(nx, ny)| at(nx, ny).is_none_or(|n| n <= c));
                    if highest {
                        let shift = (x as i32 - SEARCH_PX, y as i32 - SEARCH_PX);
                        peaks.push((shift, c));
                    }
                }
            }
            peaks.sort_by(|a, b| b.1.total_cmp(&a.1));
            for peak in peaks.into_iter().take(FAR_PEAKS) {
                if candidates.iter().all(|(at, _)| *at != peak.0) {
                    candidates.push(peak);
                }
            }
        }
        candidates
    }
}

/// A frame the meter reads: BGR, 8 bits, its rows one after another.
fn measurable(frame: &Mat) -> bool {
    frame.typ() == CV_8UC3 && frame.is_continuous()
}

/// Grey levels of anchors, centred on their mean, for correlation.
#[derive(Debug)]
struct Centred {
    values: Vec<f64>,
    norm: f64,
}

impl Centred {
    fn of(values: impl Iterator<Item = f32>) -> Option<Centred> {
        let values: Vec<f64> = values.map(f64::from).collect();
        let mean = values.iter().sum::<f64>() / values.len().max(1) as f64;
        let values: Vec<f64> = values.iter().map(|v| v - mean).collect();
        let norm = values.iter().map(|v| v * v).sum::<f64>().sqrt();
        (norm > 0.0).then_some(Centred { values, norm })
    }

    /// Normalised correlation with `other` (same anchors, same order).
    fn correlation(&self, other: &[f32]) -> f64 {
        let n = other.len().max(1) as f64;
        let (mut sum, mut sum_sq, mut cross) = (0.0, 0.0, 0.0);
        for (&o, &r) in other.iter().zip(&self.values) {
            let o = f64::from(o);
            sum += o;
            sum_sq += o * o;
            cross += o * r;
        }
        let variance = sum_sq - sum * sum / n;
        if variance <= 0.0 {
            return 0.0;
        }
        cross / (variance.sqrt() * self.norm)
    }
}

/// A frame read as grey: a BGR image (the mean of its channels), or a
/// decoded frame's luma.
enum Greys<'a> {
    Bgr {
        image: &'a Mat,
        bytes: &'a [u8],
        width: i32,
        height: i32,
    },
    Luma(Yuv420<'a>),
}

impl<'a> Greys<'a> {
    /// A BGR image's greys; `None` for an image the meter cannot read.
    fn of_bgr(image: &'a Mat) -> opencv::Result<Option<Greys<'a>>> {
        if !measurable(image) {
            return Ok(None);
        }
        Ok(Some(Greys::Bgr {
            image,
            bytes: image.data_bytes()?,
            width: image.cols(),
            height: image.rows(),
        }))
    }

    /// (width, height) pixels.
    fn size(&self) -> (i32, i32) {
        match self {
            Greys::Bgr { width, height, .. } => (*width, *height),
            Greys::Luma(planes) => {
                let (width, height) = planes.size();
                (width as i32, height as i32)
            }
        }
    }

    /// The frame as one grey channel, for its gradients.
    fn grey_image(&self) -> opencv::Result<Mat> {
        let mut grey = Mat::default();
        match self {
            Greys::Bgr { image, .. } => {
                imgproc::cvt_color_def(*image, &mut grey, imgproc::COLOR_BGR2GRAY)?
            }
            Greys::Luma(planes) => {
                let (width, height) = planes.size();
                let (plane, stride) = planes.luma_plane();
                grey = Mat::new_rows_cols_with_default(
                    height as i32,
                    width as i32,
                    opencv::core::CV_8UC1,
                    opencv::core::Scalar::all(0.0),
                )?;
                for (row, out) in grey.data_bytes_mut()?.chunks_exact_mut(width).enumerate() {
                    out.copy_from_slice(&plane[row * stride..row * stride + width]);
                }
            }
        }
        Ok(grey)
    }

    /// Grey level at a whole pixel; `None` off the image.
    fn grey(&self, x: i32, y: i32) -> Option<f32> {
        match self {
            Greys::Bgr {
                bytes,
                width,
                height,
                ..
            } => {
                if x < 0 || y < 0 || x >= *width || y >= *height {
                    return None;
                }
                let i = 3 * (y as usize * *width as usize + x as usize);
                let p = &bytes[i..i + 3];
                Some((u16::from(p[0]) + u16::from(p[1]) + u16::from(p[2])) as f32 / 3.0)
            }
            Greys::Luma(planes) => planes.luma(x, y).map(f32::from),
        }
    }

    /// Mean grey level of the 3x3 pixels round a pixel; `None` off the image.
    fn grey_box(&self, x: i32, y: i32) -> Option<f32> {
        let mut sum = 0.0;
        for dy in -1..=1 {
            for dx in -1..=1 {
                sum += self.grey(x + dx, y + dy)?;
            }
        }
        Some(sum / 9.0)
    }

    /// Bilinear grey level at a point and the slope of the bilinear patch
    /// there (one pixel's four neighbours give both); `None` off the image.
    fn grey_and_gradient(&self, x: f64, y: f64) -> Option<(f64, f64, f64)> {
        let (x0, y0) = (x.floor(), y.floor());
        let (fx, fy) = (x - x0, y - y0);
        let (x0, y0) = (x0 as i32, y0 as i32);
        let a = f64::from(self.grey(x0, y0)?);
        let b = f64::from(self.grey(x0 + 1, y0)?);
        let c = f64::from(self.grey(x0, y0 + 1)?);
        let d = f64::from(self.grey(x0 + 1, y0 + 1)?);
        let top = a + (b - a) * fx;
        let bottom = c + (d - c) * fx;
        let value = top + (bottom - top) * fy;
        let gx = (b - a) * (1.0 - fy) + (d - c) * fy;
        let gy = bottom - top;
        Some((value, gx, gy))
    }
}

impl Anchors {
    /// The strongest edge pixel of each grid cell of `frame` (if strong
    /// enough), keeping clear of the image's edges by the search window.
    fn pick(image: &Greys<'_>) -> opencv::Result<Anchors> {
        let grey = image.grey_image()?;
        let (mut gx, mut gy) = (Mat::default(), Mat::default());
        imgproc::sobel_def(&grey, &mut gx, opencv::core::CV_32F, 1, 0)?;
        imgproc::sobel_def(&grey, &mut gy, opencv::core::CV_32F, 0, 1)?;
        let (width, height) = (grey.cols() as usize, grey.rows() as usize);
        let (gx, gy) = (gx.data_typed::<f32>()?, gy.data_typed::<f32>()?);
        let margin = SEARCH_PX as usize + 4;
        let (mut points, mut smooth_levels) = (Vec::new(), Vec::new());
        let mut top = margin;
        while top + CELL_PX <= height.saturating_sub(margin) {
            let mut left = margin;
            while left + CELL_PX <= width.saturating_sub(margin) {
                let mut best: Option<(f32, usize, usize)> = None;
                for y in top..top + CELL_PX {
                    for x in left..left + CELL_PX {
                        let i = y * width + x;
                        // Squared: the order is the same, without a root per pixel.
                        let magnitude = gx[i] * gx[i] + gy[i] * gy[i];
                        if magnitude >= MIN_EDGE * MIN_EDGE
                            && best.is_none_or(|(m, _, _)| magnitude > m)
                        {
                            best = Some((magnitude, x, y));
                        }
                    }
                }
                if let Some((_, x, y)) = best {
                    let (x, y) = (x as i32, y as i32);
                    if let (Some(reference), Some(smooth)) =
                        (image.grey(x, y), image.grey_box(x, y))
                    {
                        points.push(Anchor { x, y, reference });
                        smooth_levels.push(smooth);
                    }
                }
                left += CELL_PX;
            }
            top += CELL_PX;
        }
        let single = Centred::of(points.iter().map(|a| a.reference));
        let smooth = Centred::of(smooth_levels.into_iter());
        Ok(Anchors {
            points,
            single,
            smooth,
        })
    }

    /// Normalised correlation of the anchors' `levels` in `image` moved by
    /// `(dx, dy)` with theirs when taken; `None` where one falls off the
    /// image or the anchors' levels were all alike.
    fn correlation(
        &self,
        image: &Greys<'_>,
        (dx, dy): (i32, i32),
        levels: Levels,
        sampled: &mut Vec<f32>,
    ) -> Option<f64> {
        let reference = match levels {
            Levels::Single => self.single.as_ref()?,
            Levels::Box => self.smooth.as_ref()?,
        };
        sampled.clear();
        for anchor in &self.points {
            let (x, y) = (anchor.x + dx, anchor.y + dy);
            sampled.push(match levels {
                Levels::Single => image.grey(x, y)?,
                Levels::Box => image.grey_box(x, y)?,
            });
        }
        Some(reference.correlation(sampled))
    }

    /// The shift to a fraction of a pixel, from the whole-pixel one: Gauss-
    /// Newton on `grey(p + d) = (1 + gain) reference + offset` with Huber
    /// weights, with the spread of the anchors' misfits (grey levels, robust
    /// standard deviation). `None` when too few agree or the fit wanders off.
    fn fraction(&self, image: &Greys<'_>, (wx, wy): (i32, i32)) -> Option<(Shift, f64)> {
        let mut theta = Vector4::new(f64::from(wx), f64::from(wy), 0.0, 0.0);
        let mut residuals = Vec::with_capacity(self.points.len());
        let mut rows = Vec::with_capacity(self.points.len());
        let mut agreeing = 0usize;
        let mut spread = f64::INFINITY;
        for _ in 0..ROUNDS {
            residuals.clear();
            rows.clear();
            for anchor in &self.points {
                let (x, y) = (
                    f64::from(anchor.x) + theta[0],
                    f64::from(anchor.y) + theta[1],
                );
                let Some((value, gx, gy)) = image.grey_and_gradient(x, y) else {
                    continue;
                };
                let reference = f64::from(anchor.reference);
                let r = value - (1.0 + theta[2]) * reference - theta[3];
                residuals.push(r);
                rows.push((Vector4::new(gx, gy, -reference, -1.0), r));
            }
            if rows.len() < MIN_ANCHORS {
                return None;
            }
            let mut magnitudes: Vec<f64> = residuals.iter().map(|r| r.abs()).collect();
            let middle = magnitudes.len() / 2;
            let (_, median, _) = magnitudes.select_nth_unstable_by(middle, f64::total_cmp);
            spread = 1.4826 * *median;
            let sigma = spread.max(2.0);
            let huber = 1.5 * sigma;
            let mut normal = Matrix4::zeros();
            let mut gradient = Vector4::zeros();
            agreeing = 0;
            for (j, r) in &rows {
                let w = if r.abs() <= huber {
                    1.0
                } else {
                    huber / r.abs()
                };
                if r.abs() <= 3.0 * sigma {
                    agreeing += 1;
                }
                normal += w * j * j.transpose();
                gradient += w * j * *r;
            }
            let step = normal.lu().solve(&(-gradient))?;
            theta += step;
            if (theta[0] - f64::from(wx)).abs() > 1.5 || (theta[1] - f64::from(wy)).abs() > 1.5 {
                return None;
            }
            if step[0].hypot(step[1]) < 0.01 {
                break;
            }
        }
        let enough = agreeing as f64 >= MIN_AGREEING * self.points.len() as f64;
        let shift = Shift {
            dx: theta[0],
            dy: theta[1],
        };
        enough.then_some((shift, spread))
    }
}

#[cfg(test)]
mod tests {
    use opencv::core::{Point, Rect, Scalar, Vec3b};
    use opencv::imgproc::{LINE_8, LINE_AA};

    use super::*;

    /// A scene with edges in every direction: lines, rings and discs over
    /// mottled ground, 640x360.
    fn scene() -> Mat {
        let mut image =
            Mat::new_rows_cols_with_default(360, 640, CV_8UC3, Scalar::all(90.0)).unwrap();
        let noise = crate::detect::test_noise(640 * 360, 7);
        for (i, pixel) in image
            .data_typed_mut::<Vec3b>()
            .unwrap()
            .iter_mut()
            .enumerate()
        {
            let v = 80 + noise[i] / 64;
            *pixel = Vec3b::from([v, v, v]);
        }
        for k in 0..12 {
            let (x, y) = (40 + 47 * k, 30 + 23 * k);
            let colour = Scalar::all(if k % 2 == 0 { 230.0 } else { 20.0 });
            imgproc::line(
                &mut image,
                Point::new(x, 10),
                Point::new(620 - x / 3, 350),
                colour,
                2,
                LINE_AA,
                0,
            )
            .unwrap();
            imgproc::circle(
                &mut image,
                Point::new(x, y % 340 + 10),
                9 + k,
                colour,
                2,
                LINE_AA,
                0,
            )
            .unwrap();
            imgproc::circle(
                &mut image,
                Point::new(600 - x, 300 - y / 2),
                14,
                colour,
                -1,
                LINE_AA,
                0,
            )
            .unwrap();
        }
        imgproc::line(
            &mut image,
            Point::new(0, 180),
            Point::new(639, 170),
            Scalar::all(200.0),
            3,
            LINE_8,
            0,
        )
        .unwrap();
        image
    }

    fn assert_near(shift: Shift, dx: f64, dy: f64, within: f64) {
        assert!(
            (shift.dx - dx).abs() < within && (shift.dy - dy).abs() < within,
            "measured ({:.3}, {:.3}), moved ({dx}, {dy})",
            shift.dx,
            shift.dy
        );
    }

    #[test]
    fn follows_a_bump_to_a_tenth_of_a_pixel() {
        let scene = scene();
        let mut meter = ShakeMeter::new();
        assert_eq!(meter.measure(&scene).unwrap(), Shift::NONE);
        // Still, then a sudden jolt, its swing back, and settling.
        for (dx, dy) in [
            (0.0, 0.0),
            (3.6, -2.3),
            (-1.4, 0.9),
            (0.6, -0.35),
            (0.0, 0.0),
        ] {
            let shift = meter
                .measure(&crate::detect::test_shifted(&scene, dx, dy))
                .unwrap();
            assert_near(shift, dx, dy, 0.1);
            assert_eq!(meter.latest(), shift);
        }
    }

    #[test]
    fn a_decoded_frame_is_measured_on_its_luma() {
        let grey = |image: &Mat| {
            let mut grey = Mat::default();
            imgproc::cvt_color_def(image, &mut grey, imgproc::COLOR_BGR2GRAY).unwrap();
            grey
        };
        let scene = scene();
        let mut meter = ShakeMeter::new();
        let first = Frame::from_luma(0, &grey(&scene));
        assert!(first.planes().is_some() && first.image.empty());
        assert_eq!(meter.measure_frame(&first).unwrap(), Shift::NONE);
        for (dx, dy) in [(3.6, -2.3), (-1.4, 0.9), (0.0, 0.0)] {
            let moved = grey(&crate::detect::test_shifted(&scene, dx, dy));
            let shift = meter.measure_frame(&Frame::from_luma(1, &moved)).unwrap();
            assert_near(shift, dx, dy, 0.1);
        }
    }

    #[test]
    fn a_hand_over_a_third_of_the_scene_does_not_move_it() {
        let scene = scene();
        let mut meter = ShakeMeter::new();
        meter.measure(&scene).unwrap();
        let mut covered = crate::detect::test_shifted(&scene, -2.2, 1.7);
        let arm = Rect::new(0, 100, 640, 120);
        imgproc::rectangle(
            &mut covered,
            arm,
            Scalar::new(120.0, 150.0, 200.0, 0.0),
            -1,
            LINE_8,
            0,
        )
        .unwrap();
        assert_near(meter.measure(&covered).unwrap(), -2.2, 1.7, 0.15);
    }

    #[test]
    fn a_first_frame_taken_mid_bump_is_outgrown() {
        let scene = scene();
        let mut meter = ShakeMeter::new();
        meter
            .measure(&crate::detect::test_shifted(&scene, 1.3, -0.8))
            .unwrap();
        let at_home = meter.measure(&scene).unwrap();
        assert_near(at_home, -1.3, 0.8, 0.1);
        let mut last = at_home;
        for _ in 0..HOME_FRAMES + 2 {
            last = meter.measure(&scene).unwrap();
        }
        assert_near(last, 0.0, 0.0, 0.05);
        // And a bump after that is measured from home.
        assert_near(
            meter
                .measure(&crate::detect::test_shifted(&scene, 0.0, 2.5))
                .unwrap(),
            0.0,
            2.5,
            0.1,
        );
    }

    #[test]
    fn a_featureless_frame_is_taken_as_unmoved() {
        let flat = Mat::new_rows_cols_with_default(360, 640, CV_8UC3, Scalar::all(128.0)).unwrap();
        let mut meter = ShakeMeter::new();
        assert_eq!(meter.measure(&flat).unwrap(), Shift::NONE);
        assert_eq!(meter.measure(&flat).unwrap(), Shift::NONE);
        // A grey frame is not what it measures.
        let grey =
            Mat::new_rows_cols_with_default(360, 640, opencv::core::CV_8UC1, Scalar::all(9.0))
                .unwrap();
        assert_eq!(meter.measure(&grey).unwrap(), Shift::NONE);
        // The view gains edges (a lens uncovered): it is looked at again
        // within LOOK_AGAIN_FRAMES, and measured from then on.
        let scene = scene();
        for _ in 0..LOOK_AGAIN_FRAMES {
            assert_eq!(meter.measure(&scene).unwrap(), Shift::NONE);
        }
        assert_near(
            meter
                .measure(&crate::detect::test_shifted(&scene, 1.5, 0.5))
                .unwrap(),
            1.5,
            0.5,
            0.1,
        );
    }
}
