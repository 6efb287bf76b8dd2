//! Why a calibration could not be made, loaded or used.

use std::path::PathBuf;

use thiserror::Error;

/// Everything that can go wrong while calibrating or using a calibration.
#[derive(Debug, Error)]
pub enum CalibrateError {
    /// No light quadrilateral that could be the playing surface was found.
    #[error(
        "no board found: {reason} (try --corners x1,y1,...,x4,y4 to give the surface corners)"
    )]
    NoBoard {
        /// What the coarse search saw.
        reason: String,
    },
    /// The ICF model did not fit the image well enough to be trusted.
    #[error(
        "the ICF model does not fit the image: {reason} \
         (median residual {median_mm:.2} mm, {inlier_percent:.0}% of the markings found; \
         try --corners, or a frame where the board is clear and in focus)"
    )]
    PoorFit {
        /// Which limit the fit broke.
        reason: String,
        /// Median residual of the marking points, mm.
        median_mm: f64,
        /// Share of the marking points whose edge was found and agreed, percent.
        inlier_percent: f64,
        /// The refused fit, for drawing an overlay that shows what went wrong
        /// (absent when the fit did not get that far).
        attempt: Option<Box<super::Calibration>>,
    },
    /// Manually given corners are not a usable quadrilateral.
    #[error("the given corners are not a convex quadrilateral inside the image: {0}")]
    BadCorners(String),
    /// The image is empty or of a pixel type the calibration cannot read.
    #[error("unusable image: {0}")]
    BadImage(String),
    /// A calibration file could not be read.
    #[error("cannot read calibration {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// A calibration file could not be written.
    #[error("cannot write calibration {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// A calibration file is not valid calibration JSON.
    #[error("{} is not a calibration file: {source}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// Where and why the JSON did not match.
        source: serde_json::Error,
    },
    /// A calibration file holds numbers that cannot describe a camera.
    #[error("{} holds an unusable calibration: {reason}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A pixel lies where the lens model cannot be inverted.
    #[error("pixel ({x:.1}, {y:.1}) lies outside the range where the lens model can be inverted")]
    NotInvertible {
        /// Column of the pixel.
        x: f64,
        /// Row of the pixel.
        y: f64,
    },
    /// OpenCV failed.
    #[error("OpenCV failed while {action}: {source}")]
    OpenCv {
        /// What was being done.
        action: &'static str,
        /// OpenCV's error.
        source: opencv::Error,
    },
}

/// Attaches what was being done to an OpenCV error.
pub(crate) fn cv<T>(action: &'static str, result: opencv::Result<T>) -> Result<T, CalibrateError> {
    result.map_err(|source| CalibrateError::OpenCv { action, source })
}
