//! The camera model a calibration holds: a plane-to-image homography (board mm
//! to undistorted pixels) followed by two-term radial lens distortion, the
//! same model OpenCV and the simulator's camera use.

use nalgebra::{Matrix3, Point2, Point3, Vector3};
use serde::{Deserialize, Serialize};

use super::error::CalibrateError;

/// Smallest tilt measure (about the sine of the camera's tilt) at which the
/// focal length is taken from the view.
const MIN_TILT_FOR_FOCAL: f64 = 0.03;

/// Newton steps allowed when removing distortion; the lenses seen in practice
/// converge in under ten.
const UNDISTORT_MAX_STEPS: usize = 30;

/// The lens and sensor: focal lengths and principal point in pixels, and the
/// radial distortion `x_d = x (1 + k1 r² + k2 r⁴)` in normalised coordinates
/// `x = (u - cx) / fx`. Negative `k1` is barrel distortion.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Lens {
    /// Focal length along rows, pixels.
    pub fx: f64,
    /// Focal length along columns, pixels.
    pub fy: f64,
    /// Principal point column, pixels (pixel centres at integers).
    pub cx: f64,
    /// Principal point row, pixels.
    pub cy: f64,
    /// Second-order radial distortion coefficient.
    pub k1: f64,
    /// Fourth-order radial distortion coefficient.
    pub k2: f64,
}

impl Lens {
    /// Applies the distortion to an undistorted pixel position.
    pub fn distort(&self, undistorted: Point2<f64>) -> Point2<f64> {
        let nx = (undistorted.x - self.cx) / self.fx;
        let ny = (undistorted.y - self.cy) / self.fy;
        let r2 = nx * nx + ny * ny;
        let factor = 1.0 + self.k1 * r2 + self.k2 * r2 * r2;
        Point2::new(
            self.cx + self.fx * nx * factor,
            self.cy + self.fy * ny * factor,
        )
    }

    /// Removes the distortion from a pixel position (Newton's method on the
    /// radius). Fails where the distortion stops being monotonic.
    pub fn undistort(&self, distorted: Point2<f64>) -> Result<Point2<f64>, CalibrateError> {
        let dx = (distorted.x - self.cx) / self.fx;
        let dy = (distorted.y - self.cy) / self.fy;
        let target = dx.hypot(dy);
        if target == 0.0 {
            return Ok(distorted);
        }
        let not_invertible = || CalibrateError::NotInvertible {
            x: distorted.x,
            y: distorted.y,
        };
        let mut radius = target;
        for _ in 0..UNDISTORT_MAX_STEPS {
            let r2 = radius * radius;
            let value = radius * (1.0 + self.k1 * r2 + self.k2 * r2 * r2) - target;
            let slope = 1.0 + 3.0 * self.k1 * r2 + 5.0 * self.k2 * r2 * r2;
            if slope <= f64::EPSILON {
                return Err(not_invertible());
            }
            let step = value / slope;
            radius -= step;
            if !(radius.is_finite() && radius >= 0.0) {
                return Err(not_invertible());
            }
            if step.abs() <= 1e-13 * radius.max(1e-3) {
                let scale = radius / target;
                return Ok(Point2::new(
                    self.cx + self.fx * dx * scale,
                    self.cy + self.fy * dy * scale,
                ));
            }
        }
        Err(not_invertible())
    }

    /// The centre (board mm, z its height) of the pinhole camera with this
    /// lens's focal lengths and principal point that maps the board plane
    /// by `board_to_image`: with `H = K [r1 r2 t]` up to scale, the centre
    /// is `-Rᵀ t`. `None` where no camera makes that mapping.
    pub fn viewpoint(&self, board_to_image: &Matrix3<f64>) -> Option<Point3<f64>> {
        let k_inverse = Matrix3::new(
            1.0 / self.fx,
            0.0,
            -self.cx / self.fx,
            0.0,
            1.0 / self.fy,
            -self.cy / self.fy,
            0.0,
            0.0,
            1.0,
        );
        let m = k_inverse * board_to_image;
        let (m1, m2, m3) = (m.column(0), m.column(1), m.column(2));
        // The board lies in front of the camera.
        let scale = 2.0 / (m1.norm() + m2.norm()) * m3.z.signum();
        let (r1, r2, t) = (m1 * scale, m2 * scale, m3 * scale);
        let rotation = Matrix3::from_columns(&[r1, r2, r1.cross(&r2)]);
        let centre = -(rotation.transpose() * t);
        (centre.iter().all(|v| v.is_finite()) && centre.z != 0.0)
            .then(|| Point3::new(centre.x, centre.y, centre.z.abs()))
    }

    /// The same distortion expressed for another focal length: the mapping
    /// between distorted and undistorted pixels does not change.
    pub fn with_focal(&self, focal: f64) -> Lens {
        let ratio = focal / self.fx;
        Lens {
            fx: focal,
            fy: focal * self.fy / self.fx,
            k1: self.k1 * ratio * ratio,
            k2: self.k2 * ratio.powi(4),
            ..*self
        }
    }

    /// Whether every figure is a finite number and the focal lengths positive.
    pub fn is_valid(&self) -> bool {
        [self.fx, self.fy, self.cx, self.cy, self.k1, self.k2]
            .iter()
            .all(|v| v.is_finite())
            && self.fx > 0.0
            && self.fy > 0.0
    }
}

/// Applies a homography to a point; `None` where it maps to infinity.
pub fn apply_homography(h: &Matrix3<f64>, p: Point2<f64>) -> Option<Point2<f64>> {
    let v = h * Vector3::new(p.x, p.y, 1.0);
    if v.z.abs() < 1e-12 || !v.z.is_finite() {
        return None;
    }
    Some(Point2::new(v.x / v.z, v.y / v.z))
}

/// The focal length (pixels, square pixels) implied by a board-to-image
/// homography for a principal point, or `None` where the view does not
/// constrain it (a camera looking nearly straight down). `typical_focal`
/// (pixels, e.g. the image's longest side) only sets the scale at which the
/// view's tilt is judged.
///
/// With `H = K [r1 r2 t]`, the columns of `K⁻¹H` are orthogonal and of equal
/// length; with `K = diag(f, f, 1)` after moving the principal point to the
/// origin, each condition gives `f²` from the ratio of two terms that vanish
/// for a fronto-parallel view.
pub fn focal_from_homography(
    h: &Matrix3<f64>,
    cx: f64,
    cy: f64,
    typical_focal: f64,
) -> Option<f64> {
    let shift = Matrix3::new(1.0, 0.0, -cx, 0.0, 1.0, -cy, 0.0, 0.0, 1.0);
    let g = shift * h;
    let (h1, h2) = (g.column(0), g.column(1));
    // Orthogonality: h1x h2x + h1y h2y + f² h1z h2z = 0.
    let ortho_num = -(h1.x * h2.x + h1.y * h2.y);
    let ortho_den = h1.z * h2.z;
    // Equal norms: (h1x² + h1y² - h2x² - h2y²) + f² (h1z² - h2z²) = 0.
    let norm_num = -(h1.x * h1.x + h1.y * h1.y - h2.x * h2.x - h2.y * h2.y);
    let norm_den = h1.z * h1.z - h2.z * h2.z;
    // Solve both in least squares, weighting each by its denominator.
    let den = ortho_den * ortho_den + norm_den * norm_den;
    let scale = (h1.x * h1.x + h1.y * h1.y).max(f64::EPSILON);
    // The perspective terms against the in-plane ones, made dimensionless
    // with a typical focal length: about the sine of the tilt. Below a couple
    // of degrees, f is noise (the view is nearly fronto-parallel).
    if den.sqrt() * typical_focal * typical_focal / scale < MIN_TILT_FOR_FOCAL {
        return None;
    }
    let f2 = (ortho_num * ortho_den + norm_num * norm_den) / den;
    (f2.is_finite() && f2 > 0.0).then(|| f2.sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_viewpoint_from_a_homography_is_the_cameras_centre() {
        use rand::SeedableRng;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
        for _ in 0..20 {
            let camera = crate::sim::camera::Camera::random(&mut rng, 1280, 720).unwrap();
            let found = camera.lens().viewpoint(camera.homography()).unwrap();
            let centre = camera.centre_mm();
            assert!(
                (found - centre).norm() < 0.5,
                "{found:?} against {centre:?}"
            );
        }
    }

    fn lens(k1: f64, k2: f64) -> Lens {
        Lens {
            fx: 900.0,
            fy: 900.0,
            cx: 640.0,
            cy: 360.0,
            k1,
            k2,
        }
    }

    #[test]
    fn undistort_inverts_distort() {
        for (k1, k2) in [(-0.2, 0.05), (0.1, -0.02), (0.0, 0.0)] {
            let lens = lens(k1, k2);
            for p in [
                Point2::new(0.0, 0.0),
                Point2::new(1279.0, 719.0),
                Point2::new(640.0, 10.0),
                Point2::new(640.0, 360.0),
            ] {
                let back = lens.undistort(lens.distort(p)).unwrap();
                assert!((back - p).norm() < 1e-6, "{k1} {k2} {p:?} -> {back:?}");
            }
        }
    }

    #[test]
    fn refocusing_keeps_the_pixel_mapping() {
        let a = lens(-0.15, 0.03);
        let b = a.with_focal(1400.0);
        let p = Point2::new(100.0, 650.0);
        assert!((a.distort(p) - b.distort(p)).norm() < 1e-9);
        assert!((b.fx - 1400.0).abs() < 1e-12);
    }

    #[test]
    fn focal_is_recovered_from_a_tilted_view() {
        let f = 1000.0;
        let k = Matrix3::new(f, 0.0, 640.0, 0.0, f, 360.0, 0.0, 0.0, 1.0);
        let r = nalgebra::Rotation3::from_euler_angles(0.3, -0.2, 0.4);
        let t = Vector3::new(30.0, -20.0, 1500.0);
        let rt = Matrix3::from_columns(&[
            r.matrix().column(0).into_owned(),
            r.matrix().column(1).into_owned(),
            t,
        ]);
        let h = k * rt;
        let estimated = focal_from_homography(&h, 640.0, 360.0, 1280.0).unwrap();
        assert!((estimated - f).abs() < 1e-6 * f, "{estimated}");
    }

    #[test]
    fn focal_is_unknown_straight_overhead() {
        let h = Matrix3::new(1.0, 0.0, 640.0, 0.0, -1.0, 360.0, 0.0, 0.0, 1.0);
        assert_eq!(focal_from_homography(&h, 640.0, 360.0, 1280.0), None);
    }
}
