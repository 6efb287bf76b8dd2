//! The calibration document: what the camera sees of the board, saved as JSON
//! and used to map between image pixels and board millimetres.

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use nalgebra::{Matrix3, Point2, Point3};
use serde::{Deserialize, Serialize};

use super::error::CalibrateError;
use super::lens::{apply_homography, Lens};

/// The `format` field of every calibration file.
pub const CALIBRATION_FORMAT: &str = "carrom-calibration";

/// The version of the calibration file this program writes and reads.
pub const CALIBRATION_VERSION: u32 = 1;

/// Which side of the image the south seat (the bottom of the top view) is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum SouthSide {
    /// South is the board side nearest the bottom of the image (the default).
    #[default]
    Bottom,
    /// South is the side nearest the top of the image.
    Top,
    /// South is the side nearest the left of the image.
    Left,
    /// South is the side nearest the right of the image.
    Right,
}

impl SouthSide {
    /// All sides, in the order `--south` lists them.
    pub const ALL: [SouthSide; 4] = [
        SouthSide::Bottom,
        SouthSide::Top,
        SouthSide::Left,
        SouthSide::Right,
    ];

    /// The lowercase name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            SouthSide::Bottom => "bottom",
            SouthSide::Top => "top",
            SouthSide::Left => "left",
            SouthSide::Right => "right",
        }
    }

    /// How far a side midpoint lies towards this side of an image, pixels:
    /// larger is nearer. Used to pick which board side is south.
    pub fn nearness(self, point: Point2<f64>) -> f64 {
        match self {
            SouthSide::Bottom => point.y,
            SouthSide::Top => -point.y,
            SouthSide::Left => -point.x,
            SouthSide::Right => point.x,
        }
    }
}

impl fmt::Display for SouthSide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SouthSide {
    type Err = String;

    fn from_str(s: &str) -> Result<SouthSide, String> {
        SouthSide::ALL
            .into_iter()
            .find(|side| side.name() == s)
            .ok_or_else(|| format!("'{s}' is not a side: use bottom, top, left or right"))
    }
}

/// How well the ICF model fits the image, over the marking points whose edge
/// was found.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Residuals {
    /// Median distance between a marking edge and the model, image pixels.
    pub median_px: f64,
    /// 95th percentile of that distance over the agreeing points, pixels.
    pub p95_px: f64,
    /// Largest distance over the agreeing points, pixels.
    pub max_px: f64,
    /// Median distance, board millimetres.
    pub median_mm: f64,
    /// 95th percentile, board millimetres.
    pub p95_mm: f64,
    /// Largest distance over the agreeing points, board millimetres.
    pub max_mm: f64,
    /// Marking points the model placed in view.
    pub points: usize,
    /// Points whose edge was found and agrees with the model (the rest are
    /// hidden by coins, hands, or print that differs from the ICF figures).
    pub inliers: usize,
}

/// A camera's view of the board: the plane homography, the lens, which side
/// is south, and how well the fit went. Board coordinates are ICF board mm
/// (origin at the centre, +x east, +y north).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    /// Always [`CALIBRATION_FORMAT`].
    pub format: String,
    /// Always [`CALIBRATION_VERSION`] for files this program writes.
    pub version: u32,
    /// Width of the images this calibration applies to, pixels.
    pub image_width: u32,
    /// Height of the images, pixels.
    pub image_height: u32,
    /// Homography from board mm to undistorted image pixels, row-major.
    pub board_to_image_h: [[f64; 3]; 3],
    /// Its inverse: undistorted image pixels to board mm, row-major.
    pub image_to_board_h: [[f64; 3]; 3],
    /// Focal lengths, principal point and radial distortion.
    pub lens: Lens,
    /// Whether the focal length was measured from the view (a tilted camera)
    /// rather than assumed (a camera straight overhead does not reveal it;
    /// the mapping between pixels and board mm is exact either way).
    pub focal_measured: bool,
    /// Which side of the image the south seat is on.
    pub south: SouthSide,
    /// How well the ICF model fits.
    pub residuals: Residuals,
    /// Mean contrast of the markings at calibration time (grey levels), the
    /// reference for [`Calibration::drift_check`].
    pub marking_contrast: f64,
    /// The input the calibration was made from (file name, frame index).
    pub source: String,
}

fn to_rows(m: &Matrix3<f64>) -> [[f64; 3]; 3] {
    let mut rows = [[0.0; 3]; 3];
    for (r, row) in rows.iter_mut().enumerate() {
        for (c, value) in row.iter_mut().enumerate() {
            *value = m[(r, c)];
        }
    }
    rows
}

fn from_rows(rows: &[[f64; 3]; 3]) -> Matrix3<f64> {
    Matrix3::from_fn(|r, c| rows[r][c])
}

impl Calibration {
    /// The camera's centre in board mm (z up, towards the camera), from the
    /// board-to-image homography and the lens: `K⁻¹ H` is the rotation's
    /// first two columns and the translation, up to scale. `None` for a
    /// mapping no camera above the board makes.
    pub fn viewpoint(&self) -> Option<Point3<f64>> {
        let h = Matrix3::from_fn(|r, c| self.board_to_image_h[r][c]);
        self.lens.viewpoint(&h)
    }

    /// Builds a calibration from a fitted homography (board mm → undistorted
    /// pixels) and lens; fails if the homography cannot be inverted.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        image_size: (u32, u32),
        board_to_image: Matrix3<f64>,
        lens: Lens,
        focal_measured: bool,
        south: SouthSide,
        residuals: Residuals,
        marking_contrast: f64,
        source: String,
    ) -> Result<Calibration, CalibrateError> {
        let scale = board_to_image[(2, 2)];
        let inverse = board_to_image.try_inverse().filter(|_| scale.abs() > 1e-15);
        let Some(inverse) = inverse else {
            return Err(CalibrateError::PoorFit {
                reason: "the fitted homography is singular".into(),
                median_mm: residuals.median_mm,
                inlier_percent: 0.0,
                attempt: None,
            });
        };
        let forward = board_to_image / scale;
        let inverse = inverse / inverse[(2, 2)];
        Ok(Calibration {
            format: CALIBRATION_FORMAT.into(),
            version: CALIBRATION_VERSION,
            image_width: image_size.0,
            image_height: image_size.1,
            board_to_image_h: to_rows(&forward),
            image_to_board_h: to_rows(&inverse),
            lens,
            focal_measured,
            south,
            residuals,
            marking_contrast,
            source,
        })
    }

    /// The homography from board mm to undistorted image pixels.
    pub fn homography(&self) -> Matrix3<f64> {
        from_rows(&self.board_to_image_h)
    }

    /// The homography from undistorted image pixels to board mm.
    pub fn inverse_homography(&self) -> Matrix3<f64> {
        from_rows(&self.image_to_board_h)
    }

    /// Where a board point (mm) appears in the image (distorted pixels, as
    /// the camera delivers them); `None` for points on the horizon.
    pub fn board_to_image(&self, board: Point2<f64>) -> Option<Point2<f64>> {
        apply_homography(&self.homography(), board).map(|u| self.lens.distort(u))
    }

    /// The board point (mm) seen at an image pixel.
    pub fn image_to_board(&self, image: Point2<f64>) -> Result<Point2<f64>, CalibrateError> {
        let undistorted = self.lens.undistort(image)?;
        apply_homography(&self.inverse_homography(), undistorted).ok_or(
            CalibrateError::NotInvertible {
                x: image.x,
                y: image.y,
            },
        )
    }

    /// Reads a calibration file, checking its format, version and numbers.
    pub fn load(path: &Path) -> Result<Calibration, CalibrateError> {
        let text = std::fs::read_to_string(path).map_err(|source| CalibrateError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let calibration: Calibration =
            serde_json::from_str(&text).map_err(|source| CalibrateError::Parse {
                path: path.to_path_buf(),
                source,
            })?;
        calibration
            .validate()
            .map_err(|reason| CalibrateError::Invalid {
                path: path.to_path_buf(),
                reason,
            })?;
        Ok(calibration)
    }

    /// Writes the calibration as pretty JSON.
    pub fn save(&self, path: &Path) -> Result<(), CalibrateError> {
        let write_error = |source| CalibrateError::Write {
            path: path.to_path_buf(),
            source,
        };
        let text = serde_json::to_string_pretty(self)
            .map_err(|e| write_error(std::io::Error::other(e)))?;
        std::fs::write(path, text + "\n").map_err(write_error)
    }

    fn validate(&self) -> Result<(), String> {
        if self.format != CALIBRATION_FORMAT {
            return Err(format!(
                "format is '{}', expected '{CALIBRATION_FORMAT}'",
                self.format
            ));
        }
        if self.version != CALIBRATION_VERSION {
            return Err(format!(
                "version {} is not supported (this program reads version {CALIBRATION_VERSION})",
                self.version
            ));
        }
        if self.image_width == 0 || self.image_height == 0 {
            return Err("the image size is zero".into());
        }
        if !self.lens.is_valid() {
            return Err("the lens figures are not finite positive numbers".into());
        }
        let h = self.homography();
        let product = h * self.inverse_homography();
        let scale = product[(2, 2)];
        let identity_error = (product / scale - Matrix3::identity()).abs().max();
        if !(identity_error.is_finite() && identity_error < 1e-6) {
            return Err("board_to_image_h and image_to_board_h are not inverses".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calibrate::synthetic::TruthCamera;

    fn example() -> Calibration {
        let truth = TruthCamera::generated(3, 640, 480).unwrap();
        Calibration::new(
            (640, 480),
            truth.homography,
            truth.lens,
            true,
            SouthSide::Left,
            Residuals {
                median_px: 0.1,
                p95_px: 0.3,
                max_px: 0.5,
                median_mm: 0.2,
                p95_mm: 0.5,
                max_mm: 0.9,
                points: 100,
                inliers: 95,
            },
            42.0,
            "example".into(),
        )
        .unwrap()
    }

    #[test]
    fn board_and_image_mappings_invert_each_other() {
        let c = example();
        for p in [
            Point2::new(0.0, 0.0),
            Point2::new(300.0, -250.0),
            Point2::new(-360.0, 360.0),
        ] {
            let image = c.board_to_image(p).unwrap();
            let back = c.image_to_board(image).unwrap();
            assert!((back - p).norm() < 1e-6, "{p:?} -> {back:?}");
        }
    }

    #[test]
    fn save_then_load_gives_the_same_calibration() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cal.json");
        let c = example();
        c.save(&path).unwrap();
        let loaded = Calibration::load(&path).unwrap();
        assert_eq!(loaded.south, SouthSide::Left);
        assert_eq!(loaded.residuals, c.residuals);
        let p = Point2::new(100.0, 50.0);
        let (a, b) = (
            c.board_to_image(p).unwrap(),
            loaded.board_to_image(p).unwrap(),
        );
        assert!((a - b).norm() < 1e-9);
    }

    #[test]
    fn load_names_the_file_and_the_problem() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.json");
        let error = Calibration::load(&missing).unwrap_err().to_string();
        assert!(error.contains("missing.json"), "{error}");

        let bad_version = dir.path().join("v9.json");
        let mut c = example();
        c.version = 9;
        c.save(&bad_version).unwrap();
        let error = Calibration::load(&bad_version).unwrap_err().to_string();
        assert!(
            error.contains("v9.json") && error.contains("version 9"),
            "{error}"
        );

        let mismatched = dir.path().join("mismatch.json");
        let mut c = example();
        c.image_to_board_h[0][0] += 1.0;
        c.save(&mismatched).unwrap();
        let error = Calibration::load(&mismatched).unwrap_err().to_string();
        assert!(error.contains("not inverses"), "{error}");

        let garbage = dir.path().join("garbage.json");
        std::fs::write(&garbage, "{\"format\": 3}").unwrap();
        let error = Calibration::load(&garbage).unwrap_err().to_string();
        assert!(error.contains("garbage.json"), "{error}");
    }

    #[test]
    fn south_side_names_parse_back() {
        for side in SouthSide::ALL {
            assert_eq!(side.name().parse::<SouthSide>(), Ok(side));
        }
        assert!("up".parse::<SouthSide>().is_err());
    }
}
