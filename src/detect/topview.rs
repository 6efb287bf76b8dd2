//! The camera frame warped to a top view of the board (south at the bottom,
//! a fixed px/mm), through remap tables computed once per camera.

use nalgebra::Point2;
use opencv::core::{self, Mat, Scalar, Vec2f, CV_16SC2, CV_32FC2};
use opencv::imgproc;
use opencv::prelude::*;
use thiserror::Error;

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
        for row in 0..side {
            for column in 0..side {
                let board = frame.px_to_board(Point2::new(f64::from(column), f64::from(row)));
                if let Some(image) = camera.image_point(board) {
                    let cell = cv(
                        "filling the remap table",
                        map.at_2d_mut::<Vec2f>(row, column),
                    )?;
                    *cell = Vec2f::from([image.x as f32, image.y as f32]);
                }
            }
        }
        // Fixed-point tables make remap about twice as fast as float ones.
        let mut map_xy = Mat::default();
        let mut map_fraction = Mat::default();
        cv(
            "converting the remap table",
            imgproc::convert_maps(
                &map,
                &core::no_array(),
                &mut map_xy,
                &mut map_fraction,
                CV_16SC2,
                false,
            ),
        )?;
        Ok(TopView {
            frame,
            image_size: camera.image_size(),
            map_xy,
            map_fraction,
        })
    }

    /// The mapping between board mm and top-view pixels.
    pub fn frame(&self) -> TemplateFrame {
        self.frame
    }

    /// Warps `frame` into `out`, reusing its buffer.
    pub fn rectify(&self, frame: &Frame, out: &mut Rectified) -> Result<(), TopViewError> {
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
        cv(
            "rectifying the frame",
            imgproc::remap(
                &frame.image,
                &mut out.image,
                &self.map_xy,
                &self.map_fraction,
                imgproc::INTER_LINEAR,
                core::BORDER_CONSTANT,
                Scalar::all(0.0),
            ),
        )?;
        out.index = frame.index;
        out.t = frame.t;
        out.frame = self.frame;
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
