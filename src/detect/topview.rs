//! The camera frame warped to a top view of the board (south at the bottom,
//! a fixed px/mm), through remap tables computed once per camera.

use nalgebra::{Point2, Point3};
use opencv::core::{self, Mat, Scalar, Vec2f, Vec2s, CV_16SC2, CV_32FC2, CV_8UC3};
use opencv::imgproc;
use opencv::prelude::*;
use thiserror::Error;

use super::shake::Shift;
use super::video::Frame;
use crate::sim::camera::Camera;
use crate::template::{TemplateError, TemplateFrame};

/// The mapping from board millimetres to camera pixels that rectification
/// needs. The simulator's camera implements it; so will the fitted
/// calibration once it lands, without the pipeline changing.
pub trait BoardCamera {
    /// The (distorted) image pixel where a board point (z = 0) is seen, or
    /// `None` where the camera cannot see it.
    fn image_point(&self, board: Point2<f64>) -> Option<Point2<f64>>;
    /// The image size the mapping is for, (width, height) pixels.
    fn image_size(&self) -> (u32, u32);
    /// The camera's centre in board mm (z: height above the board), where
    /// it is known: pieces stand off the board, and seen from there they
    /// lie a little farther from the point below the camera than they are.
    fn viewpoint(&self) -> Option<Point3<f64>> {
        None
    }
}

impl BoardCamera for Camera {
    fn image_point(&self, board: Point2<f64>) -> Option<Point2<f64>> {
        // Shake is a per-frame disturbance the real calibration cannot know
        // in advance; rectification uses the camera at rest.
        self.board_to_image(board).ok()
    }

    fn image_size(&self) -> (u32, u32) {
        self.size()
    }

    fn viewpoint(&self) -> Option<Point3<f64>> {
        Some(self.centre_mm())
    }
}

/// Why a top view could not be made.
#[derive(Debug, Error)]
pub enum TopViewError {
    /// The scale is outside what the template supports.
    #[error("top-view scale: {0}")]
    Scale(#[from] TemplateError),
    /// A frame does not have the size the calibration was made for: the
    /// calibration belongs to another camera or another resolution.
    #[error("frame {frame} is {got_width}x{got_height} pixels but the calibration is for {width}x{height}: a calibration for another camera?")]
    FrameSize {
        /// The frame's index.
        frame: u64,
        /// Its size.
        got_width: i32,
        /// Its size.
        got_height: i32,
        /// The calibration's image size.
        width: u32,
        /// The calibration's image size.
        height: u32,
    },
    /// OpenCV failed.
    #[error("OpenCV failed while {action}")]
    OpenCv {
        /// What was being done.
        action: &'static str,
        /// OpenCV's error.
        source: opencv::Error,
    },
}

fn cv<T>(action: &'static str, result: opencv::Result<T>) -> Result<T, TopViewError> {
    result.map_err(|source| TopViewError::OpenCv { action, source })
}

/// OpenCV's bilinear remap with black outside the source, as every warp of
/// the top view uses it.
fn remap_black(
    source: &Mat,
    out: &mut Mat,
    map: &Mat,
    fraction: &impl core::ToInputArray,
) -> opencv::Result<()> {
    imgproc::remap(
        source,
        out,
        map,
        fraction,
        imgproc::INTER_LINEAR,
        core::BORDER_CONSTANT,
        Scalar::all(0.0),
    )
}

/// A camera shift (image pixels) under which a frame is warped as unmoved:
/// at the usual scales it moves the top view by under a fifth of a pixel,
/// within the empty-board model's noise, and the unmoved warp is the fast one.
pub const SHIFT_IGNORED_PX: f64 = 0.25;

/// A frame warped to the top view: BGR, `frame.side_px()` square.
#[derive(Debug)]
pub struct Rectified {
    /// Index of the source frame.
    pub index: u64,
    /// Seconds from the start of the clip.
    pub t: f64,
    /// The top view image.
    pub image: Mat,
    /// The mapping between board mm and the image's pixels.
    pub frame: TemplateFrame,
}

/// Precomputed warp from one camera's frames to the top view.
pub struct TopView {
    frame: TemplateFrame,
    image_size: (u32, u32),
    map_xy: Mat,
    map_fraction: Mat,
    /// The same warp in a form Rust code runs faster than OpenCV's remap,
    /// with the same result to the bit.
    bilinear: BilinearRemap,
    /// The image point of every top-view pixel, row by row (`None` where
    /// the camera does not see it), for sampling the camera frame finer
    /// than the top view does.
    image_points: Vec<Option<[f32; 2]>>,
}

/// OpenCV's fixed-point form of a float remap table: whole source
/// coordinates (CV_16SC2) and a 5-bit fraction index per pixel. Fixed-point
/// tables make remap about twice as fast as float ones, and they are what
/// [`BilinearRemap`] reproduces.
fn fixed_point_maps(map: &Mat) -> opencv::Result<(Mat, Mat)> {
    let (mut map_xy, mut map_fraction) = (Mat::default(), Mat::default());
    imgproc::convert_maps(
        map,
        &core::no_array(),
        &mut map_xy,
        &mut map_fraction,
        CV_16SC2,
        false,
    )?;
    Ok((map_xy, map_fraction))
}

impl TopView {
    /// Computes the remap tables for `camera` at `px_per_mm` (whole board,
    /// frame included, as [`TemplateFrame::for_scale`] lays it out).
    pub fn new(camera: &dyn BoardCamera, px_per_mm: f64) -> Result<TopView, TopViewError> {
        let frame = TemplateFrame::for_scale(px_per_mm)?;
        let side = frame.side_px();
        let mut map = cv(
            "allocating the remap table",
            Mat::new_rows_cols_with_default(side, side, CV_32FC2, Scalar::all(-1.0)),
        )?;
        let mut image_points = Vec::with_capacity((side.max(0) as usize).pow(2));
        for row in 0..side {
            for column in 0..side {
                let board = frame.px_to_board(Point2::new(f64::from(column), f64::from(row)));
                let image = camera
                    .image_point(board)
                    .map(|image| [image.x as f32, image.y as f32]);
                if let Some(image) = image {
                    let cell = cv(
                        "filling the remap table",
                        map.at_2d_mut::<Vec2f>(row, column),
                    )?;
                    *cell = Vec2f::from(image);
                }
                image_points.push(image);
            }
        }
        let (map_xy, map_fraction) = cv("converting the remap table", fixed_point_maps(&map))?;
        let image_size = camera.image_size();
        let bilinear = BilinearRemap::new(&map_xy, &map_fraction, image_size)?;
        Ok(TopView {
            frame,
            image_size,
            map_xy,
            map_fraction,
            bilinear,
            image_points,
        })
    }

    /// The camera image pixel where a board point is seen: the remap table
    /// interpolated between its four nearest entries, which for a mapping
    /// this smooth is as good as the camera model itself. `None` off the
    /// table or where the camera does not see all four.
    pub fn image_point(&self, board: Point2<f64>) -> Option<Point2<f64>> {
        let px = self.frame.board_to_px(board);
        let side = self.frame.side_px().max(0) as usize;
        let (column, row) = (px.x.floor(), px.y.floor());
        if !(column >= 0.0 && row >= 0.0) {
            return None;
        }
        let (column, row) = (column as usize, row as usize);
        if column + 1 >= side || row + 1 >= side {
            return None;
        }
        let (fx, fy) = (px.x - column as f64, px.y - row as f64);
        let at = |c: usize, r: usize| self.image_points[r * side + c];
        let [a, b, c, d] = [
            at(column, row)?,
            at(column + 1, row)?,
            at(column, row + 1)?,
            at(column + 1, row + 1)?,
        ];
        let mix = |k: usize| {
            let top = f64::from(a[k]) * (1.0 - fx) + f64::from(b[k]) * fx;
            let bottom = f64::from(c[k]) * (1.0 - fx) + f64::from(d[k]) * fx;
            top * (1.0 - fy) + bottom * fy
        };
        Some(Point2::new(mix(0), mix(1)))
    }

    /// The camera pixels the top view samples, `margin` pixels round them
    /// (for a shaken camera's moved table), clipped to the image: all of a
    /// frame the stages after decoding look at but the shake meter, which
    /// reads the whole frame. The whole image where the view sees nothing.
    pub fn source_region(&self, margin: i32) -> core::Rect {
        let (width, height) = (self.image_size.0 as i32, self.image_size.1 as i32);
        let seen = self.image_points.iter().flatten();
        let (mut low, mut high) = ([f32::INFINITY; 2], [f32::NEG_INFINITY; 2]);
        for point in seen {
            for k in 0..2 {
                low[k] = low[k].min(point[k]);
                high[k] = high[k].max(point[k]);
            }
        }
        if !(low[0] <= high[0] && low[1] <= high[1]) {
            return core::Rect::new(0, 0, width, height);
        }
        // Bilinear sampling reads the pixel after the one a point falls in.
        let left = (low[0].floor() as i32 - margin).clamp(0, width);
        let top = (low[1].floor() as i32 - margin).clamp(0, height);
        let right = (high[0].floor() as i32 + 2 + margin).clamp(left, width);
        let bottom = (high[1].floor() as i32 + 2 + margin).clamp(top, height);
        core::Rect::new(left, top, right - left, bottom - top)
    }

    /// The mapping between board mm and top-view pixels.
    pub fn frame(&self) -> TemplateFrame {
        self.frame
    }

    /// Warps `frame` into `out`, reusing its buffer.
    pub fn rectify(&self, frame: &Frame, out: &mut Rectified) -> Result<(), TopViewError> {
        self.check_size(frame)?;
        if !self.bilinear.apply(&frame.image, &mut out.image)? {
            cv(
                "rectifying the frame",
                remap_black(
                    &frame.image,
                    &mut out.image,
                    &self.map_xy,
                    &self.map_fraction,
                ),
            )?;
        }
        self.stamp(frame, out);
        Ok(())
    }

    /// Warps `frame`, whose whole image has moved by `shift` since the
    /// calibration's frames (camera shake), into `out`. A shift under
    /// [`SHIFT_IGNORED_PX`] is warped as none; a larger one through a table
    /// moved by it, slower but rare.
    pub fn rectify_shifted(
        &self,
        frame: &Frame,
        shift: Shift,
        out: &mut Rectified,
    ) -> Result<(), TopViewError> {
        if shift.length() < SHIFT_IGNORED_PX {
            return self.rectify(frame, out);
        }
        self.check_size(frame)?;
        let side = self.frame.side_px();
        let mut map = cv(
            "allocating the moved remap table",
            Mat::new_rows_cols_with_default(side, side, CV_32FC2, Scalar::all(-1.0)),
        )?;
        let cells = cv(
            "filling the moved remap table",
            map.data_typed_mut::<Vec2f>(),
        )?;
        for (cell, point) in cells.iter_mut().zip(&self.image_points) {
            if let Some([x, y]) = *point {
                *cell = Vec2f::from([x + shift.dx as f32, y + shift.dy as f32]);
            }
        }
        cv(
            "rectifying the moved frame",
            remap_black(&frame.image, &mut out.image, &map, &core::no_array()),
        )?;
        self.stamp(frame, out);
        Ok(())
    }

    /// Labels a warped frame with its source's index and time; a top view
    /// left from an earlier frame that this one did not change is labelled
    /// this one's.
    pub fn stamp(&self, frame: &Frame, out: &mut Rectified) {
        out.index = frame.index;
        out.t = frame.t;
        out.frame = self.frame;
    }

    fn check_size(&self, frame: &Frame) -> Result<(), TopViewError> {
        let size = cv("reading the frame size", frame.image.size())?;
        let (width, height) = self.image_size;
        if size.width != width as i32 || size.height != height as i32 {
            return Err(TopViewError::FrameSize {
                frame: frame.index,
                got_width: size.width,
                got_height: size.height,
                width,
                height,
            });
        }
        Ok(())
    }

    /// An empty top view to rectify into.
    pub fn empty_rectified(&self) -> Rectified {
        Rectified {
            index: 0,
            t: 0.0,
            image: Mat::default(),
            frame: self.frame,
        }
    }
}

/// Fraction bits per axis of OpenCV's fixed-point remap tables
/// (`INTER_BITS`): positions are in 1/32 pixel.
const FRACTION_BITS: u32 = 5;

/// How many view pixels ahead [`BilinearRemap`] fetches the frame's rows.
const PREFETCH_AHEAD: usize = 128;

/// Fractions (column and row together) in OpenCV's weight table.
const FRACTIONS: usize = 1 << (2 * FRACTION_BITS);

/// The fixed-point weights sum to this (`INTER_REMAP_COEF_SCALE`).
const WEIGHT_ONE: i32 = 1 << 15;

/// OpenCV's bilinear remap of a BGR image through fixed-point tables
/// (`INTER_LINEAR`, `CV_16SC2` + fraction table, constant black border),
/// reproduced bit for bit: the same integer weights (`BilinearTab_i`) and
/// the same rounding. Precomputing each top-view pixel's source offset and
/// weight row, and fetching the frame's rows ahead, makes it 1.4x (frame in
/// cache) to 1.8x (frame fresh from another thread) as fast as OpenCV's
/// general routine on the 445 px view (`benches/vision.rs`).
struct BilinearRemap {
    /// Source image width and height, pixels.
    size: (usize, usize),
    /// Top-view rows and columns, pixels.
    view: (i32, i32),
    /// Per top-view pixel: the byte offset in the source of its top-left
    /// neighbour when both rows of 8 bytes from it can be read (the common
    /// case), else `u32::MAX` and the pixel is in `edges`.
    taps: Vec<u32>,
    /// Per top-view pixel: its row of the weight table.
    fractions: Vec<u16>,
    /// Weights by fraction, as (top-left, top-right) and (bottom-left,
    /// bottom-right) pairs of 16-bit integers.
    weights: Box<[[u32; 2]; FRACTIONS]>,
    /// Top-view pixels near or past the source's border: index, source
    /// column and row of the top-left neighbour, fraction.
    edges: Vec<(usize, i32, i32, u16)>,
}

impl BilinearRemap {
    fn new(
        map_xy: &Mat,
        map_fraction: &Mat,
        (width, height): (u32, u32),
    ) -> Result<BilinearRemap, TopViewError> {
        let positions = cv("reading the remap table", map_xy.data_typed::<Vec2s>())?;
        let fractions = cv(
            "reading the remap fractions",
            map_fraction.data_typed::<u16>(),
        )?;
        let (width, height) = (width as usize, height as usize);
        let len = 3 * width * height;
        let mut taps = Vec::with_capacity(positions.len());
        let mut edges = Vec::new();
        let fraction_mask = (1u16 << (2 * FRACTION_BITS)) - 1;
        let fractions: Vec<u16> = fractions.iter().map(|f| f & fraction_mask).collect();
        for (i, (position, &fraction)) in positions.iter().zip(&fractions).enumerate() {
            let (x, y) = (i32::from(position[0]), i32::from(position[1]));
            let offset = (y as i64 * width as i64 + x as i64) * 3;
            // The fast path reads 8 bytes from the top-left neighbour in
            // both rows (6 of them used).
            let inside = x >= 0
                && y >= 0
                && (x as usize) + 1 < width
                && (y as usize) + 1 < height
                && offset as usize + 3 * width + 8 <= len;
            if inside {
                taps.push(offset as u32);
            } else {
                taps.push(u32::MAX);
                edges.push((i, x, y, fraction));
            }
        }
        Ok(BilinearRemap {
            size: (width, height),
            view: (map_xy.rows(), map_xy.cols()),
            taps,
            fractions,
            weights: weight_table(),
            edges,
        })
    }

    /// Warps `source` into `out` and returns `true`, or returns `false`
    /// (and leaves `out` alone) where this CPU or the image's layout needs
    /// OpenCV's routine.
    fn apply(&self, source: &Mat, out: &mut Mat) -> Result<bool, TopViewError> {
        #[cfg(target_arch = "x86_64")]
        {
            let (width, height) = self.size;
            if !std::arch::is_x86_feature_detected!("avx2")
                || !source.is_continuous()
                || source.typ() != CV_8UC3
                || u32::try_from(3 * width * height).is_err()
            {
                return Ok(false);
            }
            let (rows, columns) = self.view;
            let fresh = cv("reading the top-view size", out.size())?
                != core::Size::new(columns, rows)
                || out.typ() != CV_8UC3
                || !out.is_continuous();
            if fresh {
                *out = cv(
                    "allocating the top view",
                    Mat::new_rows_cols_with_default(rows, columns, CV_8UC3, Scalar::all(0.0)),
                )?;
            }
            let src = cv("reading the frame", source.data_bytes())?;
            let dst = cv("writing the top view", out.data_bytes_mut())?;
            if src.len() != 3 * width * height || dst.len() != 3 * self.taps.len() {
                return Ok(false);
            }
            // SAFETY: the CPU has just been found to support AVX2, the only
            // requirement of `warp_avx2`.
            unsafe { self.warp_avx2(src, dst) };
            self.warp_edges(src, dst);
            Ok(true)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (source, out);
            Ok(false)
        }
    }

    /// The pixels whose four neighbours lie well inside the source, one at
    /// a time: both neighbours of a row as 16-bit channel pairs, multiplied
    /// by their weight pair and summed (`madd`), as OpenCV's vector code does.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn warp_avx2(&self, src: &[u8], dst: &mut [u8]) {
        use std::arch::x86_64::{
            _mm_add_epi32, _mm_cvtsi128_si32, _mm_cvtsi64_si128, _mm_madd_epi16, _mm_packs_epi32,
            _mm_packus_epi16, _mm_prefetch, _mm_set1_epi32, _mm_setr_epi8, _mm_setzero_si128,
            _mm_shuffle_epi8, _mm_srai_epi32, _MM_HINT_T0,
        };
        let (width, _) = self.size;
        let row = 3 * width;
        // (B, G, R) of the left pixel and (B, G, R) of the right one to
        // 16-bit (B left, B right, G left, G right, R left, R right, 0, 0).
        let pairs = _mm_setr_epi8(0, -1, 3, -1, 1, -1, 4, -1, 2, -1, 5, -1, -1, -1, -1, -1);
        let half = _mm_set1_epi32(WEIGHT_ONE / 2);
        let n = self.taps.len().min(self.fractions.len()).min(dst.len() / 3);
        let (taps, fractions) = (&self.taps[..n], &self.fractions[..n]);
        // The largest top-left offset whose two rows of 8 bytes can be read;
        // `u32::MAX`, the mark of an edge pixel, always lies past it.
        let Some(last) = src.len().checked_sub(row + 8) else {
            return;
        };
        for p in 0..n {
            // The frame comes from another thread and is seldom in this
            // core's cache: its rows are fetched this many pixels ahead. A
            // prefetch reads nothing and never faults.
            let next = taps
                .get(p + PREFETCH_AHEAD)
                .map_or(usize::MAX, |&t| t as usize);
            if next <= last {
                _mm_prefetch::<_MM_HINT_T0>(src.as_ptr().wrapping_add(next).cast());
                _mm_prefetch::<_MM_HINT_T0>(src.as_ptr().wrapping_add(next + row).cast());
            }
            let tap = taps[p] as usize;
            if tap > last {
                continue;
            }
            let eight = |offset: usize| -> i64 {
                i64::from_le_bytes(src[offset..offset + 8].try_into().unwrap_or([0; 8]))
            };
            let [top_weights, bottom_weights] = self.weights[usize::from(fractions[p]) % FRACTIONS];
            let top = _mm_shuffle_epi8(_mm_cvtsi64_si128(eight(tap)), pairs);
            let bottom = _mm_shuffle_epi8(_mm_cvtsi64_si128(eight(tap + row)), pairs);
            let sum = _mm_add_epi32(
                _mm_madd_epi16(top, _mm_set1_epi32(top_weights as i32)),
                _mm_madd_epi16(bottom, _mm_set1_epi32(bottom_weights as i32)),
            );
            let value = _mm_srai_epi32::<15>(_mm_add_epi32(sum, half));
            let bytes = _mm_packus_epi16(_mm_packs_epi32(value, value), _mm_setzero_si128());
            let bgr = (_mm_cvtsi128_si32(bytes) as u32).to_le_bytes();
            dst[3 * p..3 * p + 3].copy_from_slice(&bgr[..3]);
        }
    }

    /// The pixels near or past the border: neighbours outside the source
    /// count as black, as OpenCV's `BORDER_CONSTANT` makes them.
    fn warp_edges(&self, src: &[u8], dst: &mut [u8]) {
        let (width, height) = self.size;
        let (w, h) = (width as i32, height as i32);
        for &(i, x, y, fraction) in &self.edges {
            let [top, bottom] = self.weights[usize::from(fraction) % FRACTIONS];
            let weights =
                [top & 0xffff, top >> 16, bottom & 0xffff, bottom >> 16].map(|v| v as i32);
            let corners = [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)];
            let Some(out) = dst.get_mut(3 * i..3 * i + 3) else {
                continue;
            };
            for (c, value) in out.iter_mut().enumerate() {
                let sum: i32 = corners
                    .iter()
                    .zip(&weights)
                    .map(|(&(cx, cy), &weight)| {
                        let seen = if (0..w).contains(&cx) && (0..h).contains(&cy) {
                            src.get(3 * (cy as usize * width + cx as usize) + c)
                                .map_or(0, |&v| i32::from(v))
                        } else {
                            0
                        };
                        seen * weight
                    })
                    .sum();
                *value = ((sum + WEIGHT_ONE / 2) >> 15).clamp(0, 255) as u8;
            }
        }
    }
}

/// OpenCV's fixed-point bilinear weights (`BilinearTab_i`) for each
/// fraction `row * 32 + column`, built as `initInterTab2D` builds them:
/// products of the 1-D weights rounded to 1/32768, then the sum made exact
/// by adjusting one weight. Only fraction 0 needs that: its weight of 1.0
/// saturates to 32767, and OpenCV's adjustment (which looks one entry past
/// the 2×2 kernel, at weights not yet computed, hence 0) puts the missing
/// unit on the bottom-right weight.
fn weight_table() -> Box<[[u32; 2]; FRACTIONS]> {
    let steps = 1usize << FRACTION_BITS;
    let mut table = Box::new([[0u32; 2]; FRACTIONS]);
    let scale = 1.0f32 / steps as f32;
    let linear = |i: usize| [1.0f32 - i as f32 * scale, i as f32 * scale];
    for (k, entry) in table.iter_mut().enumerate() {
        let (ys, xs) = (linear(k / steps), linear(k % steps));
        let mut w = [0i32; 4];
        for (k1, vy) in ys.iter().enumerate() {
            for (k2, vx) in xs.iter().enumerate() {
                let v = (vy * vx * WEIGHT_ONE as f32).round_ties_even();
                w[2 * k1 + k2] = (v as i32).clamp(i32::from(i16::MIN), i32::from(i16::MAX));
            }
        }
        let missing = WEIGHT_ONE - w.iter().sum::<i32>();
        if missing > 0 {
            w[3] += missing;
        }
        let pair = |a: i32, b: i32| (a as u16 as u32) | ((b as u16 as u32) << 16);
        *entry = [pair(w[0], w[1]), pair(w[2], w[3])];
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::camera::{CameraPose, Intrinsics, Shake};

    use crate::detect::test_noise as noise;

    fn image(width: i32, height: i32, seed: u64) -> Mat {
        let bytes = noise(3 * (width * height) as usize, seed);
        let flat = Mat::from_slice(&bytes).unwrap();
        flat.reshape(3, height).unwrap().try_clone().unwrap()
    }

    /// OpenCV's remap and ours of the same image through the same tables.
    fn both(remap: &BilinearRemap, map_xy: &Mat, map_fraction: &Mat, source: &Mat) -> (Mat, Mat) {
        let mut expected = Mat::default();
        imgproc::remap(
            source,
            &mut expected,
            map_xy,
            map_fraction,
            imgproc::INTER_LINEAR,
            core::BORDER_CONSTANT,
            Scalar::all(0.0),
        )
        .unwrap();
        let mut got = Mat::default();
        assert!(
            remap.apply(source, &mut got).unwrap(),
            "the fast remap declined"
        );
        (expected, got)
    }

    fn bytes(image: &Mat) -> Vec<u8> {
        image.data_bytes().unwrap().to_vec()
    }

    #[test]
    fn every_fraction_and_every_border_case_match_opencv_bit_for_bit() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            return;
        }
        let (width, height) = (61, 47);
        // 64×64 view pixels: each of the 1024 fractions four times, at
        // positions inside the source, on its last row and column, half
        // off it, far off it, and at the -1 OpenCV's tables use for unseen.
        let side = 64;
        let mut map =
            Mat::new_rows_cols_with_default(side, side, CV_32FC2, Scalar::all(0.0)).unwrap();
        let spots = noise((side * side * 2) as usize, 7);
        for row in 0..side {
            for column in 0..side {
                let k = (row * side + column) as usize;
                let (fx, fy) = ((k % 32) as f32 / 32.0, ((k / 32) % 32) as f32 / 32.0);
                let (sx, sy) = (spots[2 * k] as f32, spots[2 * k + 1] as f32);
                let (x, y) = match k % 8 {
                    // Mostly inside, anywhere.
                    0..=3 => (sx % (width - 1) as f32, sy % (height - 1) as f32),
                    4 => ((width - 1) as f32, sy % height as f32),
                    5 => (sx % width as f32, (height - 1) as f32),
                    6 => (-0.5 - sx / 600.0, sy % height as f32 - 0.5),
                    _ => match k % 3 {
                        0 => (-1.0, -1.0),
                        1 => (width as f32 + 3.0, sy),
                        _ => (sx, height as f32 - 0.5),
                    },
                };
                *map.at_2d_mut::<Vec2f>(row, column).unwrap() = Vec2f::from([x + fx, y + fy]);
            }
        }
        let (map_xy, map_fraction) = fixed_point_maps(&map).unwrap();
        let remap =
            BilinearRemap::new(&map_xy, &map_fraction, (width as u32, height as u32)).unwrap();
        let fast = remap.taps.iter().filter(|&&t| t != u32::MAX).count();
        assert!(
            fast > 1000 && remap.edges.len() > 1000,
            "{fast} fast, {} edge pixels",
            remap.edges.len()
        );
        for seed in 0..4 {
            let (expected, got) = both(&remap, &map_xy, &map_fraction, &image(width, height, seed));
            assert_eq!(bytes(&got), bytes(&expected), "seed {seed}");
        }
    }

    #[test]
    fn a_tilted_camera_s_top_view_matches_opencv_bit_for_bit() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            return;
        }
        let intrinsics = Intrinsics {
            width: 640,
            height: 360,
            fx: 420.0,
            fy: 420.0,
            cx: 330.0,
            cy: 170.0,
            k1: 0.04,
            k2: -0.01,
        };
        // Close and tilted, so part of the board falls outside the image.
        let pose = CameraPose {
            position_mm: [60.0, -200.0, 1100.0],
            aim_mm: [0.0, 40.0],
            tilt_deg: 12.0,
            tilt_azimuth_deg: 30.0,
            roll_deg: 3.0,
        };
        let camera = Camera::new(intrinsics, pose, Shake::NONE).unwrap();
        let view = TopView::new(&camera, 0.5).unwrap();
        assert!(
            !view.bilinear.edges.is_empty(),
            "the whole board is in view"
        );
        for seed in 0..3 {
            let source = image(640, 360, 100 + seed);
            let (expected, got) = both(&view.bilinear, &view.map_xy, &view.map_fraction, &source);
            assert_eq!(bytes(&got), bytes(&expected), "seed {seed}");
        }
    }

    #[test]
    fn the_source_region_holds_every_pixel_the_view_samples() {
        let camera = crate::detect::test_camera();
        let view = TopView::new(&camera, 0.5).unwrap();
        let region = view.source_region(0);
        let (width, height) = camera.size();
        assert!(region.x >= 0 && region.y >= 0);
        assert!(region.x + region.width <= width as i32);
        assert!(region.y + region.height <= height as i32);
        // The board, seen from overhead, is not the whole 16:9 frame.
        assert!(region.width < width as i32 * 9 / 10, "{region:?}");
        for point in view.image_points.iter().flatten() {
            let (x, y) = (point[0].floor() as i32, point[1].floor() as i32);
            // Both bilinear neighbours of every sample, where in the image.
            for (px, py) in [(x, y), (x + 1, y + 1)] {
                let in_image = (0..width as i32).contains(&px) && (0..height as i32).contains(&py);
                assert!(
                    !in_image || region.contains(opencv::core::Point::new(px, py)),
                    "({px}, {py}) outside {region:?}"
                );
            }
        }
        // A margin grows it on every side the image allows.
        let wider = view.source_region(10);
        assert!(wider.width >= region.width && wider.height >= region.height);
        assert!(wider.x <= region.x && wider.y <= region.y);
    }

    #[test]
    fn the_table_between_its_entries_matches_the_camera_model() {
        let camera = crate::detect::test_camera();
        let view = TopView::new(&camera, 0.5).unwrap();
        let mut worst: f64 = 0.0;
        // Points between the table's 2 mm entries, across the playing surface.
        for x in (-370..370).step_by(37) {
            for y in (-370..370).step_by(41) {
                let board = Point2::new(f64::from(x) + 0.3, f64::from(y) + 0.7);
                let exact = camera.board_to_image(board).unwrap();
                let table = view
                    .image_point(board)
                    .unwrap_or_else(|| panic!("{board} unseen"));
                worst = worst.max((exact - table).norm());
            }
        }
        assert!(worst < 0.01, "worst {worst} px");
        // Far off the board the table has no entry.
        assert_eq!(view.image_point(Point2::new(2000.0, 0.0)), None);
    }

    #[test]
    fn a_shifted_frame_is_warped_from_where_the_board_now_is() {
        let camera = crate::detect::test_camera();
        let view = TopView::new(&camera, 0.5).unwrap();
        let still = image(1280, 720, 5);
        // The camera jolted: what was at (x, y) is now at (x + 3, y - 2).
        let jolted = crate::detect::test_shifted(&still, 3.0, -2.0);
        let frame = |image: Mat| Frame::from_bgr(7, 0.25, image);
        let mut expected = view.empty_rectified();
        view.rectify(&frame(still), &mut expected).unwrap();
        let (mut unmoved, mut moved) = (view.empty_rectified(), view.empty_rectified());
        view.rectify(&frame(jolted.clone()), &mut unmoved).unwrap();
        let shift = Shift { dx: 3.0, dy: -2.0 };
        view.rectify_shifted(&frame(jolted), shift, &mut moved)
            .unwrap();
        assert_eq!(moved.index, 7);
        // Fixed-point and float tables round a level apart at most.
        let differ = |a: &Rectified| {
            bytes(&a.image)
                .iter()
                .zip(bytes(&expected.image))
                .filter(|(x, y)| x.abs_diff(*y) > 1)
                .count()
        };
        let pixels = bytes(&expected.image).len();
        assert!(
            differ(&moved) < pixels / 100,
            "{} of {pixels} differ",
            differ(&moved)
        );
        assert!(
            differ(&unmoved) > pixels / 4,
            "the shift was too small to test"
        );
    }
}
