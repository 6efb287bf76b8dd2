//! A lightly smoothed grey-level copy of a frame with sub-pixel sampling: what
//! the edge search reads.

use nalgebra::Point2;
use opencv::core::{Mat, Size, BORDER_REPLICATE, CV_32F};
use opencv::{imgproc, prelude::*};

use super::error::{cv, CalibrateError};

/// Grey levels (0–255) as `f32`, row-major.
#[derive(Debug, Clone)]
pub struct GrayImage {
    width: usize,
    height: usize,
    data: Vec<f32>,
}

impl GrayImage {
    /// Converts a BGR or grey 8-bit frame, smoothing with a Gaussian of
    /// `sigma_px` (zero: none) so the sub-pixel search sees clean profiles.
    pub fn from_frame(frame: &Mat, sigma_px: f64) -> Result<GrayImage, CalibrateError> {
        if frame.empty() || frame.cols() < 16 || frame.rows() < 16 {
            return Err(CalibrateError::BadImage(format!(
                "the frame is {}x{} pixels, too small to show a board",
                frame.cols(),
                frame.rows()
            )));
        }
        let grey = to_grey(frame)?;
        let mut smooth = Mat::default();
        if sigma_px > 0.0 {
            cv(
                "smoothing",
                imgproc::gaussian_blur(
                    &grey,
                    &mut smooth,
                    Size::new(0, 0),
                    sigma_px,
                    sigma_px,
                    BORDER_REPLICATE,
                ),
            )?;
        } else {
            smooth = grey;
        }
        let mut float = Mat::default();
        cv(
            "converting to float",
            smooth.convert_to(&mut float, CV_32F, 1.0, 0.0),
        )?;
        let float = if float.is_continuous() {
            float
        } else {
            cv("copying", float.try_clone())?
        };
        let data = cv("reading pixels", float.data_typed::<f32>())?.to_vec();
        Ok(GrayImage {
            width: float.cols() as usize,
            height: float.rows() as usize,
            data,
        })
    }

    /// An image of `width` × `height` grey levels given row by row; `None`
    /// when `data` is not that many.
    pub fn from_values(width: usize, height: usize, data: Vec<f32>) -> Option<GrayImage> {
        (data.len() == width * height).then_some(GrayImage {
            width,
            height,
            data,
        })
    }

    /// The grey levels, row by row.
    pub fn values(&self) -> &[f32] {
        &self.data
    }

    /// Width, pixels.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height, pixels.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Whether a point lies at least `margin` pixels inside the image.
    pub fn contains(&self, p: Point2<f64>, margin: f64) -> bool {
        p.x >= margin
            && p.y >= margin
            && p.x <= self.width as f64 - 1.0 - margin
            && p.y <= self.height as f64 - 1.0 - margin
    }

    /// Bilinear sample with the border replicated outward, so a search near
    /// the image edge still reads a profile.
    pub fn sample_clamped(&self, x: f64, y: f64) -> f32 {
        let max_x = self.width as f64 - 1.001;
        let max_y = self.height as f64 - 1.001;
        let x = if x.is_finite() {
            x.clamp(0.0, max_x)
        } else {
            0.0
        };
        let y = if y.is_finite() {
            y.clamp(0.0, max_y)
        } else {
            0.0
        };
        // Clamped inside the image, so the sample exists.
        self.sample(x, y).unwrap_or(0.0)
    }

    /// Bilinear sample at a sub-pixel position (pixel centres at integers);
    /// `None` outside the image.
    pub fn sample(&self, x: f64, y: f64) -> Option<f32> {
        if !(x >= 0.0 && y >= 0.0) {
            return None;
        }
        // Truncation is the floor here (both are non-negative), and spares
        // a call into libm's `floor` per sample: the default x86-64 target
        // has no SSE4.1 rounding instruction to inline.
        let (x0, y0) = (x as usize, y as usize);
        if x0 + 1 >= self.width || y0 + 1 >= self.height {
            return None;
        }
        let (fx, fy) = ((x - x0 as f64) as f32, (y - y0 as f64) as f32);
        let at = |xx: usize, yy: usize| self.data[yy * self.width + xx];
        let top = at(x0, y0) * (1.0 - fx) + at(x0 + 1, y0) * fx;
        let bottom = at(x0, y0 + 1) * (1.0 - fx) + at(x0 + 1, y0 + 1) * fx;
        Some(top * (1.0 - fy) + bottom * fy)
    }
}

/// The frame as 8-bit grey (BGR, BGRA or grey input).
pub fn to_grey(frame: &Mat) -> Result<Mat, CalibrateError> {
    let code = match frame.channels() {
        1 => None,
        3 => Some(imgproc::COLOR_BGR2GRAY),
        4 => Some(imgproc::COLOR_BGRA2GRAY),
        n => {
            return Err(CalibrateError::BadImage(format!(
                "{n} channels per pixel (expected grey, BGR or BGRA)"
            )))
        }
    };
    let mut grey = Mat::default();
    match code {
        Some(code) => cv(
            "converting to grey",
            imgproc::cvt_color_def(frame, &mut grey, code),
        )?,
        None => grey = cv("copying", frame.try_clone())?,
    }
    if grey.depth() != opencv::core::CV_8U {
        let mut eight = Mat::default();
        cv(
            "converting to 8 bits",
            grey.convert_to(&mut eight, opencv::core::CV_8U, 1.0, 0.0),
        )?;
        grey = eight;
    }
    Ok(grey)
}
