//! Frames that show nothing new: between strokes the board often lies
//! untouched for seconds, and warping and searching such a frame finds
//! what the last one found. A frame is unchanged when, over the board's
//! part of the camera image, no 16×16 block of its luma differs on
//! average by more than a few levels from the last frame that was looked
//! at in full (the reference), with the camera where it was then. Measured
//! against the reference rather than the previous frame, a piece creeping
//! a fraction of a pixel a frame still shows once it has moved enough.

use opencv::core::{Mat, Rect};
use opencv::prelude::*;

use super::shake::Shift;
use super::video::Frame;

/// Side of the blocks compared, pixels.
const BLOCK_PX: usize = 16;

/// A block whose luma differs from the reference's by more than this on
/// average (levels of 255) has changed. In the cleaner of the simulator's
/// encoded clips, a still board's blocks differ by 2–3 at most from frame
/// to frame (noisier clips exceed the limit, and pass nothing over); a
/// carromman's edge moved by a pixel across a block changes it by about
/// the edge's contrast times 16 over 256 pixels: 4 levels for a contrast
/// of 64. On the benchmark's clip (seed 900), no frame under the limit
/// had a piece moved by more than 0.3 mm since the reference
/// (`docs/journal.md`, session 49).
const MAX_BLOCK_MEAN_LEVELS: u32 = 4;

/// A shake meter's shift this far (pixels) from the reference's moves the
/// warp: the frame has changed.
const MAX_SHIFT_PX: f64 = 0.25;

/// At most this many unchanged frames in a row are passed over: every
/// few frames the board is looked at in full however still it lies, so
/// what learns from frames (the empty-board model) keeps learning, and
/// a change too slow or too faint for the blocks is not missed for long.
pub const MAX_UNCHANGED_RUN: u32 = 3;

/// The frames' luma over a region, and the reference frame's.
#[derive(Debug, Clone)]
pub struct UnchangedFrames {
    region: Rect,
    reference: Vec<u8>,
    reference_shift: Shift,
    current: Vec<u8>,
    /// Block sums of the row of blocks being compared.
    sums: Vec<u32>,
    run: u32,
}

impl UnchangedFrames {
    /// A watch over `region` of the camera image (the board's part of it);
    /// the first frame it sees is its first reference.
    pub fn new(region: Rect) -> UnchangedFrames {
        UnchangedFrames {
            region,
            reference: Vec::new(),
            reference_shift: Shift::NONE,
            current: Vec::new(),
            sums: Vec::new(),
            run: 0,
        }
    }

    /// Forgets the reference: the next frame is seen as changed.
    pub fn reset(&mut self) {
        self.reference.clear();
        self.run = 0;
    }

    /// Whether `frame`, seen with the camera's `shift`, shows nothing new
    /// since the reference. A frame that does (or one past the longest run
    /// of unchanged frames, or one whose luma cannot be read) becomes the
    /// reference.
    pub fn is_unchanged(&mut self, frame: &Frame, shift: Shift) -> bool {
        let read = self.read_luma(frame);
        let still = read
            && self.run < MAX_UNCHANGED_RUN
            && self.reference.len() == self.current.len()
            && (shift.dx - self.reference_shift.dx).hypot(shift.dy - self.reference_shift.dy)
                < MAX_SHIFT_PX
            && self.blocks_alike();
        if still {
            self.run += 1;
        } else {
            self.run = 0;
            if read {
                std::mem::swap(&mut self.reference, &mut self.current);
            } else {
                self.reference.clear();
            }
            self.reference_shift = shift;
        }
        still
    }

    /// Copies the region's luma into `current`: the decoder's luma plane,
    /// or the green of a BGR image (a frame OpenCV decoded). `false` where
    /// the frame does not cover the region.
    fn read_luma(&mut self, frame: &Frame) -> bool {
        let (x0, y0) = (self.region.x as usize, self.region.y as usize);
        let (w, h) = (self.region.width as usize, self.region.height as usize);
        self.current.clear();
        if w == 0 || h == 0 {
            return false;
        }
        if let Some(planes) = frame.planes() {
            let (luma, stride) = planes.luma_plane();
            let (width, height) = planes.size();
            if x0 + w > width || y0 + h > height {
                return false;
            }
            for y in y0..y0 + h {
                self.current
                    .extend_from_slice(&luma[y * stride + x0..y * stride + x0 + w]);
            }
            return true;
        }
        read_green(&frame.image, (x0, y0, w, h), &mut self.current)
    }

    /// Whether every block of `current` is within [`MAX_BLOCK_MEAN_LEVELS`]
    /// of the reference's; blocks at the right and bottom edges are partial.
    fn blocks_alike(&mut self) -> bool {
        let w = self.region.width as usize;
        let limit = MAX_BLOCK_MEAN_LEVELS * (BLOCK_PX * BLOCK_PX) as u32;
        let columns = w.div_ceil(BLOCK_PX);
        for (rows, reference) in self
            .current
            .chunks(BLOCK_PX * w)
            .zip(self.reference.chunks(BLOCK_PX * w))
        {
            self.sums.clear();
            self.sums.resize(columns, 0);
            for (row, reference_row) in rows.chunks_exact(w).zip(reference.chunks_exact(w)) {
                for ((sum, now), then) in self
                    .sums
                    .iter_mut()
                    .zip(row.chunks(BLOCK_PX))
                    .zip(reference_row.chunks(BLOCK_PX))
                {
                    *sum += now
                        .iter()
                        .zip(then)
                        .map(|(&a, &b)| u32::from(a.abs_diff(b)))
                        .sum::<u32>();
                }
            }
            if self.sums.iter().any(|&sum| sum > limit) {
                return false;
            }
        }
        true
    }
}

/// Copies the green channel of a BGR `image` over a box into `out`; `false`
/// where the image is not 8-bit BGR or does not cover the box.
fn read_green(
    image: &Mat,
    (x0, y0, w, h): (usize, usize, usize, usize),
    out: &mut Vec<u8>,
) -> bool {
    let (cols, rows) = (image.cols() as usize, image.rows() as usize);
    if image.typ() != opencv::core::CV_8UC3 || x0 + w > cols || y0 + h > rows {
        return false;
    }
    let Ok(bytes) = image.data_bytes() else {
        return false;
    };
    let Ok(step) = image.step1(0) else {
        return false;
    };
    for y in y0..y0 + h {
        let Some(row) = bytes.get(y * step + 3 * x0..y * step + 3 * (x0 + w)) else {
            out.clear();
            return false;
        };
        out.extend(row.chunks_exact(3).map(|bgr| bgr[1]));
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{Scalar, CV_8UC3};
    use opencv::imgproc;

    fn board(dx: i32) -> Mat {
        let mut image = Mat::new_rows_cols_with_default(
            120,
            160,
            CV_8UC3,
            Scalar::new(90.0, 140.0, 180.0, 0.0),
        )
        .expect("allocating a test image");
        imgproc::circle(
            &mut image,
            opencv::core::Point::new(60 + dx, 50),
            15,
            // Green 40 levels darker than the board: an edge's pixel of creep
            // changes a block by less than the limit.
            Scalar::new(60.0, 100.0, 150.0, 0.0),
            -1,
            imgproc::LINE_8,
            0,
        )
        .expect("drawing a test disc");
        image
    }

    fn frame(index: u64, dx: i32) -> Frame {
        Frame::from_bgr(index, index as f64 / 30.0, board(dx))
    }

    #[test]
    fn a_still_board_is_unchanged_until_the_run_ends_and_a_moved_disc_is_not() {
        let mut watch = UnchangedFrames::new(Rect::new(8, 8, 140, 100));
        assert!(
            !watch.is_unchanged(&frame(0, 0), Shift::NONE),
            "no reference yet"
        );
        for index in 1..=u64::from(MAX_UNCHANGED_RUN) {
            assert!(
                watch.is_unchanged(&frame(index, 0), Shift::NONE),
                "frame {index}"
            );
        }
        let next = u64::from(MAX_UNCHANGED_RUN) + 1;
        assert!(
            !watch.is_unchanged(&frame(next, 0), Shift::NONE),
            "run ended"
        );
        assert!(watch.is_unchanged(&frame(next + 1, 0), Shift::NONE));
        assert!(
            !watch.is_unchanged(&frame(next + 2, 3), Shift::NONE),
            "disc moved 3 px"
        );
        assert!(
            watch.is_unchanged(&frame(next + 3, 3), Shift::NONE),
            "the new reference"
        );
    }

    #[test]
    fn a_disc_creeping_a_pixel_a_frame_shows_against_the_reference() {
        let mut watch = UnchangedFrames::new(Rect::new(0, 0, 160, 120));
        assert!(!watch.is_unchanged(&frame(0, 0), Shift::NONE));
        // A pixel's creep changes the blocks along the disc's edge by under
        // the limit; against the reference the creep adds up.
        let changed: Vec<bool> = (1..=3)
            .map(|dx| !watch.is_unchanged(&frame(dx as u64, dx), Shift::NONE))
            .collect();
        assert!(
            changed.iter().any(|&c| c),
            "a creep of 3 px went unseen: {changed:?}"
        );
    }

    #[test]
    fn a_shaken_camera_or_an_unreadable_frame_is_a_change() {
        let mut watch = UnchangedFrames::new(Rect::new(0, 0, 160, 120));
        assert!(!watch.is_unchanged(&frame(0, 0), Shift::NONE));
        let shaken = Shift { dx: 0.5, dy: 0.0 };
        assert!(!watch.is_unchanged(&frame(1, 0), shaken));
        assert!(watch.is_unchanged(&frame(2, 0), shaken));
        let empty = Frame::from_bgr(3, 0.1, Mat::default());
        assert!(!watch.is_unchanged(&empty, shaken));
        assert!(
            !watch.is_unchanged(&frame(4, 0), shaken),
            "no reference after it"
        );
    }
}
