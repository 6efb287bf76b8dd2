//! Rectification: warps camera frames to the exact top view (the template's
//! frame: board centre in the middle, south at the bottom) through remap
//! tables computed once per calibration.

use nalgebra::Point2;
use opencv::core::{Mat, Scalar, BORDER_CONSTANT, CV_16SC2, CV_32FC1};
use opencv::{imgproc, prelude::*};

use super::calibration::Calibration;
use super::error::{cv, CalibrateError};
use super::lens::apply_homography;
use crate::geometry::spec::BOARD_OUTER_SIDE_MM;

/// Warps frames of one camera to the board's top view at a fixed scale. The
/// maps are built once (tens of milliseconds); each frame then costs one
/// fixed-point `remap`.
pub struct Rectifier {
    map_xy: Mat,
    map_fraction: Mat,
    px_per_mm: f64,
    side_px: i32,
    image_size: (u32, u32),
}

impl Rectifier {
    /// Precomputes the remap tables for a calibration at `px_per_mm` pixels
    /// per board millimetre (the whole board, frame included, is shown).
    pub fn new(calibration: &Calibration, px_per_mm: f64) -> Result<Rectifier, CalibrateError> {
        if !(px_per_mm.is_finite() && px_per_mm > 0.0 && px_per_mm <= 10.0) {
            return Err(CalibrateError::BadImage(format!(
                "rectification scale {px_per_mm} px/mm is outside 0..=10"
            )));
        }
        // Bounded scale: the side fits an i32 with room to spare.
        let side_px = (BOARD_OUTER_SIDE_MM * px_per_mm).ceil() as i32;
        let middle = (f64::from(side_px) - 1.0) / 2.0;
        let h = calibration.homography();
        let lens = calibration.lens;
        let mut map_x = cv(
            "allocating the x map",
            Mat::new_rows_cols_with_default(side_px, side_px, CV_32FC1, Scalar::all(-1.0)),
        )?;
        let mut map_y = cv(
            "allocating the y map",
            Mat::new_rows_cols_with_default(side_px, side_px, CV_32FC1, Scalar::all(-1.0)),
        )?;
        {
            let xs = cv("writing the x map", map_x.data_typed_mut::<f32>())?;
            let ys = cv("writing the y map", map_y.data_typed_mut::<f32>())?;
            for row in 0..side_px {
                for col in 0..side_px {
                    let board = Point2::new(
                        (f64::from(col) - middle) / px_per_mm,
                        (middle - f64::from(row)) / px_per_mm,
                    );
                    if let Some(u) = apply_homography(&h, board) {
                        let d = lens.distort(u);
                        let i = (row * side_px + col) as usize;
                        xs[i] = d.x as f32;
                        ys[i] = d.y as f32;
                    }
                }
            }
        }
        let mut map_xy = Mat::default();
        let mut map_fraction = Mat::default();
        cv(
            "converting the maps to fixed point",
            imgproc::convert_maps(
                &map_x,
                &map_y,
                &mut map_xy,
                &mut map_fraction,
                CV_16SC2,
                false,
            ),
        )?;
        Ok(Rectifier {
            map_xy,
            map_fraction,
            px_per_mm,
            side_px,
            image_size: (calibration.image_width, calibration.image_height),
        })
    }

    /// Warps a frame into `top_view` (reused between calls: no allocation
    /// once it has the right size and type).
    pub fn rectify_into(&self, frame: &Mat, top_view: &mut Mat) -> Result<(), CalibrateError> {
        let size = (frame.cols().max(0) as u32, frame.rows().max(0) as u32);
        if size != self.image_size {
            return Err(CalibrateError::BadImage(format!(
                "the frame is {}x{}, the calibration is for {}x{}",
                size.0, size.1, self.image_size.0, self.image_size.1
            )));
        }
        cv(
            "remapping",
            imgproc::remap(
                frame,
                top_view,
                &self.map_xy,
                &self.map_fraction,
                imgproc::INTER_LINEAR,
                BORDER_CONSTANT,
                Scalar::all(0.0),
            ),
        )
    }

    /// Warps a frame into a new top-view image.
    pub fn rectify(&self, frame: &Mat) -> Result<Mat, CalibrateError> {
        let mut top_view = Mat::default();
        self.rectify_into(frame, &mut top_view)?;
        Ok(top_view)
    }

    /// Pixels per board millimetre of the top view.
    pub fn px_per_mm(&self) -> f64 {
        self.px_per_mm
    }

    /// Side of the square top view, pixels.
    pub fn side_px(&self) -> i32 {
        self.side_px
    }

    /// The top-view pixel (column, row) of a board point.
    pub fn board_to_top_view(&self, board: Point2<f64>) -> Point2<f64> {
        let middle = (f64::from(self.side_px) - 1.0) / 2.0;
        Point2::new(
            middle + board.x * self.px_per_mm,
            middle - board.y * self.px_per_mm,
        )
    }

    /// The board point at a top-view pixel.
    pub fn top_view_to_board(&self, px: Point2<f64>) -> Point2<f64> {
        let middle = (f64::from(self.side_px) - 1.0) / 2.0;
        Point2::new(
            (px.x - middle) / self.px_per_mm,
            (middle - px.y) / self.px_per_mm,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calibrate::calibration::{Residuals, SouthSide};
    use crate::calibrate::synthetic::{render, SceneOptions, TruthCamera};
    use crate::geometry::spec::OUTER_CIRCLE_RADIUS_MM;

    fn truth_calibration(truth: &TruthCamera) -> Calibration {
        let residuals = Residuals {
            median_px: 0.0,
            p95_px: 0.0,
            max_px: 0.0,
            median_mm: 0.0,
            p95_mm: 0.0,
            max_mm: 0.0,
            points: 0,
            inliers: 0,
        };
        Calibration::new(
            (truth.width, truth.height),
            truth.homography,
            truth.lens,
            true,
            SouthSide::Bottom,
            residuals,
            0.0,
            "truth".into(),
        )
        .unwrap()
    }

    #[test]
    fn the_centre_circle_lands_in_the_middle_of_the_top_view() {
        let truth = TruthCamera::generated(7, 480, 360).unwrap();
        let scene = SceneOptions {
            coins: 0,
            grain: 0.0,
            falloff: 0.0,
            seed: 7,
        };
        let frame = render(&truth, &scene).unwrap();
        let rectifier = Rectifier::new(&truth_calibration(&truth), 0.5).unwrap();
        let top = rectifier.rectify(&frame).unwrap();
        assert_eq!(
            (top.cols(), top.rows()),
            (rectifier.side_px(), rectifier.side_px())
        );
        let middle = rectifier.board_to_top_view(nalgebra::Point2::origin());
        let at = |p: nalgebra::Point2<f64>| {
            let px = top
                .at_2d::<opencv::core::Vec3b>(p.y.round() as i32, p.x.round() as i32)
                .unwrap();
            (f64::from(px[0]), f64::from(px[1]), f64::from(px[2]))
        };
        // Red (BGR: little blue and green, much red) at the centre...
        let (b, g, r) = at(middle);
        assert!(r > 120.0 && b < 90.0 && g < 90.0, "centre is {b},{g},{r}");
        // ...and light plywood between the centre and the outer circle.
        let between =
            rectifier.board_to_top_view(nalgebra::Point2::new(OUTER_CIRCLE_RADIUS_MM / 2.0, 0.0));
        let (b, g, r) = at(between);
        assert!(
            b > 120.0 && g > 160.0 && r > 180.0,
            "plywood is {b},{g},{r}"
        );
        let back = rectifier.top_view_to_board(middle);
        assert!(back.coords.norm() < 1e-9);
    }

    #[test]
    fn a_frame_of_the_wrong_size_is_refused() {
        let truth = TruthCamera::generated(8, 320, 240).unwrap();
        let rectifier = Rectifier::new(&truth_calibration(&truth), 0.25).unwrap();
        let other =
            Mat::new_rows_cols_with_default(100, 100, opencv::core::CV_8UC3, Scalar::all(0.0))
                .unwrap();
        assert!(matches!(
            rectifier.rectify(&other),
            Err(CalibrateError::BadImage(_))
        ));
        assert!(Rectifier::new(&truth_calibration(&truth), 0.0).is_err());
    }
}
