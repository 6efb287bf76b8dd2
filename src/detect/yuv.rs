//! Frames as the decoder gives them, Y'CbCr 4:2:0 planes, and their
//! conversion to the BGR the rest of the pipeline sees, over a region only.
//!
//! OpenCV's `VideoCapture::read` converts every decoded frame whole to BGR
//! (libswscale), then copies it: together about an eighth of `carrom
//! track`'s CPU on a 720p clip. The top view, the outline fits and the
//! print audit look only at the board, which fills about half of such a
//! frame; the shake meter reads luma, which the planes hold as they are.
//!
//! The conversion is libswscale's default for these formats, which OpenCV's
//! decoding used: ITU-R BT.601 coefficients, studio range (Y' 16–235) unless
//! the stream is marked full range, each chroma sample shared by the 2×2
//! pixels it covers; in fixed point, within a level of it.

use opencv::core::Rect;

/// Whether Y' spans 16–235 (studio, the usual) or 0–255 (full, "JPEG").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum YuvRange {
    /// Y' 16–235, chroma 16–240.
    Studio,
    /// Y' and chroma 0–255.
    Full,
}

/// libswscale's Y'CbCr → BGR arithmetic for 4:2:0 frames, which OpenCV's
/// decoding used (its x86 "yuv2rgb" converters): levels shifted up 3
/// bits, less their offsets, each multiplied by a 16-bit coefficient
/// (2^13 = 1) keeping the high half (`pmulhw`, rounding down), the terms
/// summed and clamped to a byte. Reproducing it, down to its rounding,
/// keeps the colours every model and threshold was tuned on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Coefficients {
    luma_offset: i16,
    luma: i16,
    blue_from_cb: i16,
    green_from_cb: i16,
    green_from_cr: i16,
    red_from_cr: i16,
}

impl Coefficients {
    /// As `sws_setColorspaceDetails` makes them from the default (BT.601)
    /// table, contrast and saturation 1, brightness 0.
    fn for_range(range: YuvRange) -> Coefficients {
        // `ff_yuv2rgb_coeffs[SWS_CS_DEFAULT]`: Cr→R, Cb→B, Cb→G, Cr→G for
        // studio-range chroma, 2^16 = 1.
        let (mut red_cr, mut blue_cb, mut green_cb, mut green_cr) =
            (104_597i64, 132_201i64, -25_675i64, -53_279i64);
        let (mut luma, mut luma_offset) = (1i64 << 16, 0i64);
        match range {
            YuvRange::Studio => {
                luma = luma * 255 / 219;
                luma_offset = 16 << 16;
            }
            YuvRange::Full => {
                for c in [&mut red_cr, &mut blue_cb, &mut green_cb, &mut green_cr] {
                    *c = *c * 224 / 255;
                }
            }
        }
        // `roundToInt16`.
        let round = |f: i64| ((f + (1 << 15)) >> 16).clamp(-0x8000, 0x7fff) as i16;
        Coefficients {
            luma_offset: round(luma_offset << 3),
            luma: round(luma << 13),
            blue_from_cb: round(blue_cb << 13),
            green_from_cb: round(green_cb << 13),
            green_from_cr: round(green_cr << 13),
            red_from_cr: round(red_cr << 13),
        }
    }

    /// The chroma terms of one Cb, Cr pair: blue, green, red.
    #[inline(always)]
    fn chroma(&self, cb: u8, cr: u8) -> [i32; 3] {
        let (cb, cr) = (Self::shifted(cb, 128 << 3), Self::shifted(cr, 128 << 3));
        [
            Self::high(cb, self.blue_from_cb),
            Self::high(cb, self.green_from_cb) + Self::high(cr, self.green_from_cr),
            Self::high(cr, self.red_from_cr),
        ]
    }

    /// B, G, R bytes of one luma level with its chroma terms.
    #[inline(always)]
    fn bgr(&self, y: u8, chroma: [i32; 3]) -> [u8; 3] {
        let luma = Self::high(Self::shifted(y, i32::from(self.luma_offset)), self.luma);
        chroma.map(|c| (luma + c).clamp(0, 255) as u8)
    }

    /// A level shifted up 3 bits, less an offset.
    #[inline(always)]
    fn shifted(level: u8, offset: i32) -> i32 {
        (i32::from(level) << 3) - offset
    }

    /// `pmulhw`: the high 16 bits of the product, rounded down.
    #[inline(always)]
    fn high(value: i32, coefficient: i16) -> i32 {
        (value * i32::from(coefficient)) >> 16
    }
}

/// A borrowed Y'CbCr 4:2:0 frame: a full-size luma plane and two chroma
/// planes of half the width and height (rounded up), each with its own row
/// stride in bytes.
#[derive(Debug, Clone, Copy)]
pub struct Yuv420<'a> {
    planes: [&'a [u8]; 3],
    strides: [usize; 3],
    width: usize,
    height: usize,
    range: YuvRange,
}

/// Why planes cannot be read as a 4:2:0 frame of their stated size.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a {width}x{height} Y'CbCr 4:2:0 frame's plane {plane} holds {got} bytes with a stride of {stride}: {needed} needed")]
pub struct PlaneTooShort {
    /// Luma size.
    pub width: usize,
    /// Luma size.
    pub height: usize,
    /// 0 (Y'), 1 (Cb) or 2 (Cr).
    pub plane: usize,
    /// Bytes given.
    pub got: usize,
    /// Bytes needed.
    pub needed: usize,
    /// The plane's stride.
    pub stride: usize,
}

impl<'a> Yuv420<'a> {
    /// Planes checked against the size: every pixel of every plane can be
    /// read through its stride.
    pub fn new(
        planes: [&'a [u8]; 3],
        strides: [usize; 3],
        (width, height): (usize, usize),
        range: YuvRange,
    ) -> Result<Yuv420<'a>, PlaneTooShort> {
        let chroma = (width.div_ceil(2), height.div_ceil(2));
        for (plane, (&bytes, &stride)) in planes.iter().zip(&strides).enumerate() {
            let (w, h) = if plane == 0 { (width, height) } else { chroma };
            let needed = h
                .saturating_sub(1)
                .checked_mul(stride)
                .and_then(|n| n.checked_add(w))
                .unwrap_or(usize::MAX);
            if stride < w || bytes.len() < needed {
                return Err(PlaneTooShort {
                    width,
                    height,
                    plane,
                    got: bytes.len(),
                    needed,
                    stride,
                });
            }
        }
        Ok(Yuv420 {
            planes,
            strides,
            width,
            height,
            range,
        })
    }

    /// Luma width and height, pixels.
    pub fn size(&self) -> (usize, usize) {
        (self.width, self.height)
    }

    /// The luma plane and its stride.
    pub fn luma_plane(&self) -> (&'a [u8], usize) {
        (self.planes[0], self.strides[0])
    }

    /// Luma level at a whole pixel; `None` off the frame.
    #[inline]
    pub fn luma(&self, x: i32, y: i32) -> Option<u8> {
        if x < 0 || y < 0 || x as usize >= self.width || y as usize >= self.height {
            return None;
        }
        self.planes[0]
            .get(y as usize * self.strides[0] + x as usize)
            .copied()
    }

    /// Converts `region` (clipped to the frame) into `bgr`, a BGR image of
    /// the frame's size, rows one after another; the rest of `bgr` is left
    /// as it was. Nothing is written if `bgr` is not of the frame's size.
    pub fn convert_region(&self, bgr: &mut [u8], region: Rect) {
        let row_bytes = 3 * self.width;
        if bgr.len() != row_bytes * self.height {
            return;
        }
        // Whole chroma pairs: the region starts on an even column.
        let left = (region.x.max(0) as usize).min(self.width) & !1;
        let right = (region.x.max(0).saturating_add(region.width.max(0)) as usize).min(self.width);
        let top = (region.y.max(0) as usize).min(self.height);
        let bottom =
            (region.y.max(0).saturating_add(region.height.max(0)) as usize).min(self.height);
        let coefficients = Coefficients::for_range(self.range);
        #[cfg(target_arch = "x86_64")]
        let vector = std::arch::is_x86_feature_detected!("avx2");
        #[cfg(not(target_arch = "x86_64"))]
        let vector = false;
        for y in top..bottom {
            let luma = &self.planes[0][y * self.strides[0]..][..self.width];
            let cb = &self.planes[1][(y / 2) * self.strides[1]..][..self.width.div_ceil(2)];
            let cr = &self.planes[2][(y / 2) * self.strides[2]..][..self.width.div_ceil(2)];
            let out = &mut bgr[y * row_bytes..][..row_bytes];
            convert_row(
                &coefficients,
                vector,
                &luma[left..right],
                &cb[left / 2..],
                &cr[left / 2..],
                &mut out[3 * left..3 * right],
            );
        }
    }
}

/// One row's pixels: `luma` (starting on an even column), its chroma from
/// that column's sample on, into `out` (3 bytes a pixel); 16 at a time
/// where `vector` says the CPU has AVX2.
#[inline]
fn convert_row(
    coefficients: &Coefficients,
    vector: bool,
    luma: &[u8],
    cb: &[u8],
    cr: &[u8],
    out: &mut [u8],
) {
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    if vector {
        // SAFETY: `vector` is true only where the CPU was found to support
        // AVX2, the only requirement of `convert_avx2`.
        done = unsafe { convert_avx2(coefficients, luma, cb, cr, out) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = vector;
    convert_scalar(
        coefficients,
        &luma[done..],
        &cb[done / 2..],
        &cr[done / 2..],
        &mut out[3 * done..],
    );
}

/// [`convert_row`] a pixel pair at a time.
fn convert_scalar(coefficients: &Coefficients, luma: &[u8], cb: &[u8], cr: &[u8], out: &mut [u8]) {
    let pairs = luma.len() / 2;
    let (luma_pairs, luma_rest) = luma.split_at(2 * pairs);
    let (out_pairs, out_rest) = out.split_at_mut(6 * pairs);
    for (((two, pixels), &cb), &cr) in luma_pairs
        .chunks_exact(2)
        .zip(out_pairs.chunks_exact_mut(6))
        .zip(cb)
        .zip(cr)
    {
        let chroma = coefficients.chroma(cb, cr);
        pixels[..3].copy_from_slice(&coefficients.bgr(two[0], chroma));
        pixels[3..].copy_from_slice(&coefficients.bgr(two[1], chroma));
    }
    if let (Some(&last), Some(&cb), Some(&cr)) = (luma_rest.first(), cb.get(pairs), cr.get(pairs)) {
        out_rest[..3].copy_from_slice(&coefficients.bgr(last, coefficients.chroma(cb, cr)));
    }
}

/// Shuffles that interleave 16 blue, 16 green and 16 red bytes into 48 of
/// BGR: for each 16-byte block of the output and each channel, the
/// channel's byte each position takes, or none (−1).
const fn interleave_masks() -> [[[i8; 16]; 3]; 3] {
    let mut masks = [[[-1i8; 16]; 3]; 3];
    let mut k = 0;
    while k < 48 {
        masks[k / 16][k % 3][k % 16] = (k / 3) as i8;
        k += 1;
    }
    masks
}

/// [`convert_row`] 16 pixels at a time, with the same 16-bit arithmetic as
/// [`Coefficients`] (so the same bytes); returns how many pixels it
/// converted (a multiple of 16), the rest left to [`convert_scalar`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn convert_avx2(
    coefficients: &Coefficients,
    luma: &[u8],
    cb: &[u8],
    cr: &[u8],
    out: &mut [u8],
) -> usize {
    use std::arch::x86_64::{
        __m128i, __m256i, _mm256_adds_epi16, _mm256_castsi256_si128, _mm256_cvtepu8_epi16,
        _mm256_extracti128_si256, _mm256_mulhi_epi16, _mm256_set1_epi16, _mm256_slli_epi16,
        _mm256_subs_epi16, _mm_loadl_epi64, _mm_loadu_si128, _mm_or_si128, _mm_packus_epi16,
        _mm_shuffle_epi8, _mm_storeu_si128, _mm_unpacklo_epi8,
    };
    const MASKS: [[[i8; 16]; 3]; 3] = interleave_masks();
    let luma_factor = _mm256_set1_epi16(coefficients.luma);
    let blue_cb = _mm256_set1_epi16(coefficients.blue_from_cb);
    let green_cb = _mm256_set1_epi16(coefficients.green_from_cb);
    let green_cr = _mm256_set1_epi16(coefficients.green_from_cr);
    let red_cr = _mm256_set1_epi16(coefficients.red_from_cr);
    let luma_offset = _mm256_set1_epi16(coefficients.luma_offset);
    let centre = _mm256_set1_epi16(128 << 3);
    let masks: [[__m128i; 3]; 3] = MASKS.map(|block| {
        // SAFETY: reading 16 bytes of a 16-byte array.
        block.map(|mask| unsafe { _mm_loadu_si128(mask.as_ptr().cast()) })
    });
    let bytes =
        |v: __m256i| _mm_packus_epi16(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    let blocks = (luma.len() / 16)
        .min(cb.len() / 8)
        .min(cr.len() / 8)
        .min(out.len() / 48);
    for block in 0..blocks {
        let (luma, cb, cr) = (
            &luma[16 * block..16 * block + 16],
            &cb[8 * block..8 * block + 8],
            &cr[8 * block..8 * block + 8],
        );
        let out = &mut out[48 * block..48 * block + 48];
        // SAFETY: each load reads within the slice just taken (16 bytes of
        // luma, 8 of each chroma).
        let (y, u, v) = unsafe {
            (
                _mm_loadu_si128(luma.as_ptr().cast()),
                _mm_loadl_epi64(cb.as_ptr().cast()),
                _mm_loadl_epi64(cr.as_ptr().cast()),
            )
        };
        let shifted = |levels: __m128i, offset: __m256i| {
            _mm256_subs_epi16(_mm256_slli_epi16::<3>(_mm256_cvtepu8_epi16(levels)), offset)
        };
        // Each chroma sample serves two pixels.
        let (u, v) = (
            shifted(_mm_unpacklo_epi8(u, u), centre),
            shifted(_mm_unpacklo_epi8(v, v), centre),
        );
        let luma_term = _mm256_mulhi_epi16(shifted(y, luma_offset), luma_factor);
        let blue = _mm256_adds_epi16(luma_term, _mm256_mulhi_epi16(u, blue_cb));
        let green = _mm256_adds_epi16(
            luma_term,
            _mm256_adds_epi16(
                _mm256_mulhi_epi16(u, green_cb),
                _mm256_mulhi_epi16(v, green_cr),
            ),
        );
        let red = _mm256_adds_epi16(luma_term, _mm256_mulhi_epi16(v, red_cr));
        let channels = [bytes(blue), bytes(green), bytes(red)];
        for (j, masks) in masks.iter().enumerate() {
            let interleaved = _mm_or_si128(
                _mm_or_si128(
                    _mm_shuffle_epi8(channels[0], masks[0]),
                    _mm_shuffle_epi8(channels[1], masks[1]),
                ),
                _mm_shuffle_epi8(channels[2], masks[2]),
            );
            // SAFETY: 16 bytes written within the 48-byte slice `out`.
            unsafe { _mm_storeu_si128(out[16 * j..].as_mut_ptr().cast(), interleaved) };
        }
    }
    16 * blocks
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{Mat, Rect};
    use opencv::imgproc;
    use opencv::prelude::*;

    /// A 4:2:0 frame with every level in use, with the given padding after
    /// each row.
    fn planes(width: usize, height: usize, padding: usize) -> ([Vec<u8>; 3], [usize; 3]) {
        let (cw, ch) = (width.div_ceil(2), height.div_ceil(2));
        let plane = |w: usize, h: usize, seed: usize| {
            let stride = w + padding;
            let bytes = (0..h * stride)
                .map(|i| ((i * 37 + seed * 101 + i / stride * 13) % 256) as u8)
                .collect::<Vec<u8>>();
            (bytes, stride)
        };
        let (y, ys) = plane(width, height, 0);
        let (u, us) = plane(cw, ch, 1);
        let (v, vs) = plane(cw, ch, 2);
        ([y, u, v], [ys, us, vs])
    }

    fn whole(width: usize, height: usize) -> Rect {
        Rect::new(0, 0, width as i32, height as i32)
    }

    #[test]
    fn studio_range_is_opencvs_i420_conversion_but_for_rounding_down() {
        // OpenCV's cvtColor reads I420 as packed planes with no padding, as
        // studio-range BT.601 with rounding to nearest; libswscale's
        // arithmetic (ours) rounds each term down (three of them in green):
        // up to three levels lower, never higher, over levels within the
        // studio range. (That it is
        // libswscale's to the bit is the decoder's test on a real clip.)
        let (width, height) = (32, 16);
        let ([y, u, v], strides) = planes(width, height, 0);
        let studio = |levels: Vec<u8>, low: u8, high: u8| -> Vec<u8> {
            levels
                .into_iter()
                .map(|l| low + (u16::from(l) * u16::from(high - low) / 255) as u8)
                .collect()
        };
        let (y, u, v) = (studio(y, 16, 235), studio(u, 16, 240), studio(v, 16, 240));
        let frame = Yuv420::new([&y, &u, &v], strides, (width, height), YuvRange::Studio).unwrap();
        let mut ours = vec![0u8; 3 * width * height];
        frame.convert_region(&mut ours, whole(width, height));
        let packed: Vec<u8> = [y, u, v].concat();
        let i420 = Mat::new_rows_cols_with_data(height as i32 * 3 / 2, width as i32, &packed)
            .unwrap()
            .try_clone()
            .unwrap();
        let mut theirs = Mat::default();
        imgproc::cvt_color_def(&i420, &mut theirs, imgproc::COLOR_YUV2BGR_I420).unwrap();
        let theirs = theirs.data_bytes().unwrap();
        assert_eq!(ours.len(), theirs.len());
        for (i, (&ours, &theirs)) in ours.iter().zip(theirs).enumerate() {
            // Clamped at either end, both agree on the clamp.
            let below = i32::from(theirs) - i32::from(ours);
            assert!(
                (0..=3).contains(&below) || (ours == 0 && theirs <= 3),
                "byte {i}: ours {ours}, OpenCV's {theirs}"
            );
        }
    }

    #[test]
    fn a_region_of_a_padded_odd_frame_converts_its_own_pixels_only() {
        let (width, height) = (9, 7);
        let ([y, u, v], strides) = planes(width, height, 5);
        let frame = Yuv420::new([&y, &u, &v], strides, (width, height), YuvRange::Full).unwrap();
        let mut full = vec![0u8; 3 * width * height];
        frame.convert_region(&mut full, whole(width, height));
        // Full range, grey chroma would give the luma back; here each pixel
        // is checked against its own levels, chroma from its 2x2 block.
        let coefficients = Coefficients::for_range(YuvRange::Full);
        for py in 0..height {
            for px in 0..width {
                let chroma = coefficients.chroma(
                    u[py / 2 * strides[1] + px / 2],
                    v[py / 2 * strides[2] + px / 2],
                );
                let expected = coefficients.bgr(y[py * strides[0] + px], chroma);
                let at = 3 * (py * width + px);
                assert_eq!(full[at..at + 3], expected, "pixel ({px}, {py})");
            }
        }
        // A region from an odd column: its pixels as in the whole frame's
        // conversion, and nothing outside it (but the column before, for
        // whole chroma pairs) touched.
        let mut part = vec![7u8; 3 * width * height];
        frame.convert_region(&mut part, Rect::new(3, 2, 4, 3));
        for py in 0..height {
            for px in 0..width {
                let at = 3 * (py * width + px);
                let inside = (2..7).contains(&px) && (2..5).contains(&py);
                if inside {
                    assert_eq!(part[at..at + 3], full[at..at + 3], "pixel ({px}, {py})");
                } else {
                    assert_eq!(part[at..at + 3], [7, 7, 7], "pixel ({px}, {py})");
                }
            }
        }
        assert_eq!(frame.luma(8, 6), Some(y[6 * strides[0] + 8]));
        assert_eq!(frame.luma(9, 0), None);
    }

    #[test]
    fn black_and_white_convert_to_themselves_in_both_ranges() {
        let convert = |range, level| {
            let coefficients = Coefficients::for_range(range);
            coefficients.bgr(level, coefficients.chroma(128, 128))
        };
        assert_eq!(convert(YuvRange::Full, 0), [0, 0, 0]);
        assert_eq!(convert(YuvRange::Full, 255), [255, 255, 255]);
        assert_eq!(convert(YuvRange::Studio, 16), [0, 0, 0]);
        assert_eq!(convert(YuvRange::Studio, 235), [255, 255, 255]);
        assert_eq!(convert(YuvRange::Studio, 126), [128, 128, 128]);
    }

    #[test]
    fn short_planes_are_refused() {
        let ([y, u, v], strides) = planes(8, 6, 0);
        let error = Yuv420::new([&y, &u[..5], &v], strides, (8, 6), YuvRange::Studio).unwrap_err();
        assert_eq!(error.plane, 1);
        assert_eq!(error.needed, 12);
    }

    #[test]
    fn the_vector_conversion_is_the_pixel_by_pixel_one() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            return;
        }
        for range in [YuvRange::Studio, YuvRange::Full] {
            let coefficients = Coefficients::for_range(range);
            let (mut one_by_one, mut sixteen) = (vec![0u8; 48], vec![0u8; 48]);
            for y in (0..=255u8).step_by(3) {
                for cb in (0..=255u8).step_by(5) {
                    // 16 pixels: the luma level and 15 after it, 8 chroma
                    // pairs from (cb, 255 - cb) on.
                    let luma: Vec<u8> = (0..16).map(|i| y.wrapping_add(i)).collect();
                    let blue: Vec<u8> = (0..8).map(|i| cb.wrapping_add(29 * i)).collect();
                    let red: Vec<u8> = blue.iter().map(|&b| 255 - b).collect();
                    convert_scalar(&coefficients, &luma, &blue, &red, &mut one_by_one);
                    // SAFETY: the CPU supports AVX2 (checked above).
                    let done =
                        unsafe { convert_avx2(&coefficients, &luma, &blue, &red, &mut sixteen) };
                    assert_eq!(done, 16);
                    assert_eq!(one_by_one, sixteen, "{range:?}, Y' {y}, Cb {cb}");
                }
            }
        }
    }
}
