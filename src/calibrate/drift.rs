//! A cheap check that a calibration still fits the camera: do the markings
//! still sit where the model puts them, as sharply as at calibration time?

use opencv::core::Mat;
use serde::{Deserialize, Serialize};

use super::calibration::Calibration;
use super::error::CalibrateError;
use super::fine::{self, project_sample, response_at, search_edges, FitState};
use super::gray::GrayImage;
use super::model::{marking_samples, MarkingGroup, MarkingSample};
use super::SEARCH_SMOOTHING_PX;

/// Sample spacing of the drift check, mm: a few hundred points suffice.
const DRIFT_SPACING_MM: f64 = 12.0;

/// Search radius of the drift check, pixels.
const DRIFT_SEARCH_PX: f64 = 4.0;

/// The markings have drifted when their contrast at the modelled place falls
/// below this share of the calibration-time contrast...
pub const MIN_CONTRAST_RATIO: f64 = 0.6;

/// ...or when they are found this far (median, pixels) from the model.
pub const MAX_MEDIAN_SHIFT_PX: f64 = 1.0;

/// How well a calibration still fits a frame.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct DriftReport {
    /// Median marking contrast at the modelled places now, grey levels.
    pub contrast: f64,
    /// The same at calibration time.
    pub reference_contrast: f64,
    /// `contrast / reference_contrast`.
    pub contrast_ratio: f64,
    /// Median distance between where the markings are found and the model,
    /// pixels.
    pub median_shift_px: f64,
    /// Whether the calibration should be refitted ([`super::refit`]).
    pub drifted: bool,
}

/// The median edge-filter response of the markings exactly where the model
/// puts them, grey levels.
pub(crate) fn marking_contrast(
    image: &GrayImage,
    state: &FitState,
    samples: &[MarkingSample],
) -> f64 {
    let mut values: Vec<f64> = samples
        .iter()
        .filter_map(|s| {
            let at = project_sample(state, s)?;
            response_at(image, s, &at)
        })
        .collect();
    if values.is_empty() {
        return 0.0;
    }
    let mid = values.len() / 2;
    values.select_nth_unstable_by(mid, f64::total_cmp);
    values[mid]
}

impl Calibration {
    /// Checks the calibration against a later frame of the same camera (a
    /// few milliseconds: a few hundred profiles). Coins and hands lower the
    /// contrast a little; a moved camera or a moved board lowers it a lot and
    /// shifts the edges.
    pub fn drift_check(&self, frame: &Mat) -> Result<DriftReport, CalibrateError> {
        let image = GrayImage::from_frame(frame, SEARCH_SMOOTHING_PX)?;
        let size = (image.width(), image.height());
        if (size.0 as u32, size.1 as u32) != (self.image_width, self.image_height) {
            return Err(CalibrateError::BadImage(format!(
                "the frame is {}x{}, the calibration is for {}x{}",
                size.0, size.1, self.image_width, self.image_height
            )));
        }
        let state = FitState::new(&self.homography(), &self.lens, size).ok_or_else(|| {
            CalibrateError::BadImage("the calibration's homography is degenerate".into())
        })?;
        // The painted markings, as at calibration time (see `super::fit`).
        let samples: Vec<MarkingSample> = marking_samples(DRIFT_SPACING_MM)
            .into_iter()
            .filter(|s| s.group != MarkingGroup::SurfaceEdge)
            .collect();
        let contrast = marking_contrast(&image, &state, &samples);
        let (_, found) = search_edges(&image, &state, &samples, 0.0, DRIFT_SEARCH_PX);
        let shifts: Vec<f64> = fine::residuals(&state, &samples, &found);
        let median_shift_px = if shifts.is_empty() {
            f64::INFINITY
        } else {
            fine::robust_sigma(&shifts, 0.0) / 1.4826
        };
        let contrast_ratio = if self.marking_contrast > 0.0 {
            contrast / self.marking_contrast
        } else {
            0.0
        };
        Ok(DriftReport {
            contrast,
            reference_contrast: self.marking_contrast,
            contrast_ratio,
            median_shift_px,
            drifted: contrast_ratio < MIN_CONTRAST_RATIO || median_shift_px > MAX_MEDIAN_SHIFT_PX,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::calibrate::synthetic::{render, SceneOptions, TruthCamera};
    use crate::calibrate::{calibrate_frame, refit, CalibrateOptions};

    #[test]
    fn a_moved_camera_is_noticed_and_refitted() {
        let truth = TruthCamera::generated(1011, 640, 480).unwrap();
        let frame = render(
            &truth,
            &SceneOptions {
                seed: 5,
                ..SceneOptions::default()
            },
        )
        .unwrap();
        let options = CalibrateOptions {
            south: truth.south_side(),
            ..CalibrateOptions::default()
        };
        let calibration = calibrate_frame(&frame, &options).unwrap();
        let same = calibration.drift_check(&frame).unwrap();
        assert!(!same.drifted, "{same:?}");
        assert!(same.median_shift_px < 0.3, "{same:?}");

        let moved = crate::detect::test_shifted(&frame, 4.0, -3.0);
        let report = calibration.drift_check(&moved).unwrap();
        assert!(report.drifted, "{report:?}");

        let again = refit(&calibration, &moved).unwrap();
        let p = nalgebra::Point2::new(120.0, -200.0);
        let (before, after) = (
            calibration.board_to_image(p).unwrap(),
            again.board_to_image(p).unwrap(),
        );
        assert!(((after - before) - nalgebra::Vector2::new(4.0, -3.0)).norm() < 0.3);
        assert!(!again.drift_check(&moved).unwrap().drifted);
    }
}
