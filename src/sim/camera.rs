//! The simulated overhead camera: where it hangs over the board, its lens,
//! and the exact mapping between board millimetres and image pixels.
//!
//! The model is the usual pinhole camera with two-term radial distortion:
//!
//! `image = distort(H · board)`
//!
//! where `board = (x, y, 1)` is a point of the board plane (z = 0, in mm,
//! origin at the board centre, +x east, +y north), `H` the 3×3 homography
//! to *undistorted* pixels, and `distort` the radial lens model
//! `p_d = c + f · n · (1 + k1·r² + k2·r⁴)` on normalised coordinates
//! `n = (p_u − c) / f`, `r = |n|`. `camera.json` holds exactly these numbers,
//! so any program can reproduce the mapping.
//!
//! A camera may also shake a little now and then (a club camera on a pole
//! that someone bumps). The shake is a whole-image shift in pixels that is a
//! pure function of the frame number ([`Camera::shake_offset`]), so it needs
//! no per-frame record: `image_at(frame) = distort(H · board) + shake(frame)`.

use nalgebra::{Matrix3, Point2, Point3, Rotation3, Unit, Vector2, Vector3};
use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};

use crate::calibrate::Lens;
use crate::geometry::spec::BOARD_OUTER_SIDE_MM;

/// Largest tilt of the optical axis away from straight down that
/// [`Camera::random`] produces, degrees: club cameras hang roughly overhead.
pub const MAX_TILT_DEG: f64 = 15.0;

/// The range of the board's (outer frame's) image height, as a fraction of
/// the image height, that [`Camera::random`] aims for.
pub const BOARD_HEIGHT_FRACTION: std::ops::RangeInclusive<f64> = 0.70..=0.95;

/// Draws of [`Camera::random`] before it gives up on a generator.
const CAMERA_DRAWS: usize = 20;

/// Why a camera could not be built or a point could not be mapped.
#[derive(Debug, thiserror::Error)]
pub enum CameraError {
    /// The requested image size cannot hold a picture.
    #[error("image size {width}x{height} is too small (at least 16x16 pixels)")]
    ImageTooSmall { width: u32, height: u32 },
    /// A number describing the camera is not finite or out of its range.
    #[error("camera parameter `{name}` = {value} is invalid: {why}")]
    InvalidParameter {
        name: &'static str,
        value: f64,
        why: &'static str,
    },
    /// The homography cannot be inverted (the board plane is seen edge-on).
    #[error("the board-to-image homography is singular")]
    SingularHomography,
    /// The point lies where the lens model folds back (far outside the
    /// image), so it has no unique undistorted position.
    #[error(
        "image point ({x:.1}, {y:.1}) lies outside the region where the lens model is invertible"
    )]
    NotInvertible { x: f64, y: f64 },
    /// The point lies on or behind the camera's horizon.
    #[error("point ({x:.1}, {y:.1}) is on or beyond the horizon of the camera")]
    BeyondHorizon { x: f64, y: f64 },
}

/// Where the camera is and how it is turned, in board millimetres.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CameraPose {
    /// Centre of projection in board mm (z up, above the board plane).
    pub position_mm: [f64; 3],
    /// The board point the optical axis passes through.
    pub aim_mm: [f64; 2],
    /// Angle between the optical axis and straight down, degrees.
    pub tilt_deg: f64,
    /// Compass direction (from +x, counter-clockwise) in which the camera
    /// is displaced from above the aim point, degrees.
    pub tilt_azimuth_deg: f64,
    /// Rotation of the image about the optical axis, degrees; 0 puts board
    /// north at the top of the image when the camera looks straight down.
    pub roll_deg: f64,
}

/// Occasional small whole-image shifts, as a deterministic function of the
/// frame number. Frames are grouped in windows of `window_frames`; in each
/// window a bump happens with probability `probability`, lasts a few frames
/// and decays.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Shake {
    /// Seeds the per-window choices.
    pub seed: u64,
    /// Frames per window; at most one bump per window.
    pub window_frames: u32,
    /// Chance that a window holds a bump (0 disables shaking).
    pub probability: f64,
    /// Largest displacement of a bump, pixels.
    pub max_amplitude_px: f64,
    /// Frames a bump lasts.
    pub duration_frames: u32,
}

impl Shake {
    /// A camera that never moves.
    pub const NONE: Shake = Shake {
        seed: 0,
        window_frames: 1,
        probability: 0.0,
        max_amplitude_px: 0.0,
        duration_frames: 0,
    };

    /// The image shift in pixels at `frame` (added after distortion).
    pub fn offset(&self, frame: u32) -> Vector2<f64> {
        if self.probability <= 0.0 || self.window_frames == 0 || self.duration_frames == 0 {
            return Vector2::zeros();
        }
        let window = frame / self.window_frames;
        let mut state = self.seed ^ (u64::from(window).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut unit = || split_mix_unit(&mut state);
        if unit() >= self.probability {
            return Vector2::zeros();
        }
        let room = self
            .window_frames
            .saturating_sub(self.duration_frames)
            .max(1);
        let start = window * self.window_frames + (unit() * f64::from(room)) as u32;
        if frame < start || frame >= start + self.duration_frames {
            return Vector2::zeros();
        }
        let amplitude = self.max_amplitude_px * (0.4 + 0.6 * unit());
        let direction = unit() * std::f64::consts::TAU;
        let wobble_hz = 0.15 + 0.2 * unit();
        // A damped oscillation: a bump, then the pole settles.
        let age = f64::from(frame - start);
        let envelope = (-3.0 * age / f64::from(self.duration_frames)).exp();
        let swing = (std::f64::consts::TAU * wobble_hz * age).cos();
        let size = amplitude * envelope * swing;
        Vector2::new(size * direction.cos(), size * direction.sin())
    }
}

/// A uniform number in [0, 1) from a SplitMix64 state; used where a value
/// must be a pure function of a seed and an index (the shake), without
/// carrying a generator around.
fn split_mix_unit(state: &mut u64) -> f64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// A perspective camera over the board with radial lens distortion.
///
/// Cheap to copy around; every mapping is a few dozen flops.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "CameraFile", into = "CameraFile")]
pub struct Camera {
    width: u32,
    height: u32,
    fx: f64,
    fy: f64,
    cx: f64,
    cy: f64,
    k1: f64,
    k2: f64,
    pose: CameraPose,
    shake: Shake,
    homography: Matrix3<f64>,
    inverse: Matrix3<f64>,
}

/// The lens and sensor: everything but the pose.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Intrinsics {
    /// Image size in pixels.
    pub width: u32,
    pub height: u32,
    /// Focal lengths in pixels.
    pub fx: f64,
    pub fy: f64,
    /// Principal point in pixels.
    pub cx: f64,
    pub cy: f64,
    /// Radial distortion coefficients (negative k1: barrel).
    pub k1: f64,
    pub k2: f64,
}

impl Camera {
    /// A camera with the given lens and pose. The focal lengths are used as
    /// given; see [`Camera::random`] for one framed on the board.
    pub fn new(
        intrinsics: Intrinsics,
        pose: CameraPose,
        shake: Shake,
    ) -> Result<Camera, CameraError> {
        let Intrinsics {
            width,
            height,
            fx,
            fy,
            cx,
            cy,
            k1,
            k2,
        } = intrinsics;
        if width < 16 || height < 16 {
            return Err(CameraError::ImageTooSmall { width, height });
        }
        for (name, value) in [("fx", fx), ("fy", fy)] {
            if !(value.is_finite() && value > 0.0) {
                return Err(CameraError::InvalidParameter {
                    name,
                    value,
                    why: "focal length must be a positive number of pixels",
                });
            }
        }
        for (name, value) in [("cx", cx), ("cy", cy), ("k1", k1), ("k2", k2)] {
            if !value.is_finite() {
                return Err(CameraError::InvalidParameter {
                    name,
                    value,
                    why: "must be finite",
                });
            }
        }
        let [px, py, pz] = pose.position_mm;
        if !(pz.is_finite() && pz > 0.0 && px.is_finite() && py.is_finite()) {
            return Err(CameraError::InvalidParameter {
                name: "pose.position_mm",
                value: pz,
                why: "the camera must be above the board plane",
            });
        }
        let rotation = world_to_camera(&pose)?;
        let centre = Vector3::new(px, py, pz);
        let translation = -(rotation * centre);
        let r1 = rotation * Vector3::x();
        let r2 = rotation * Vector3::y();
        let extrinsic = Matrix3::from_columns(&[r1, r2, translation]);
        let k = Matrix3::new(fx, 0.0, cx, 0.0, fy, cy, 0.0, 0.0, 1.0);
        let homography = k * extrinsic;
        Camera::from_parts(intrinsics, pose, shake, homography)
    }

    fn from_parts(
        intrinsics: Intrinsics,
        pose: CameraPose,
        shake: Shake,
        homography: Matrix3<f64>,
    ) -> Result<Camera, CameraError> {
        let scale = homography[(2, 2)];
        if !(scale.is_finite() && scale.abs() > f64::EPSILON) {
            return Err(CameraError::SingularHomography);
        }
        let homography = homography / scale;
        let inverse = homography
            .try_inverse()
            .ok_or(CameraError::SingularHomography)?;
        Ok(Camera {
            width: intrinsics.width,
            height: intrinsics.height,
            fx: intrinsics.fx,
            fy: intrinsics.fy,
            cx: intrinsics.cx,
            cy: intrinsics.cy,
            k1: intrinsics.k1,
            k2: intrinsics.k2,
            pose,
            shake,
            homography,
            inverse,
        })
    }

    /// A random club camera for an image of `width`×`height` pixels: height
    /// over the board, tilt up to [`MAX_TILT_DEG`], any roll, a slightly
    /// off-centre principal point, mild barrel or pincushion distortion, and
    /// a focal length chosen so the board with its frame fills a random
    /// fraction (within [`BOARD_HEIGHT_FRACTION`]) of the image height.
    /// Every choice comes from `rng`, so a seed fixes the camera.
    pub fn random<R: Rng + ?Sized>(
        rng: &mut R,
        width: u32,
        height: u32,
    ) -> Result<Camera, CameraError> {
        // A draw whose lens cannot be undone out to the image corners is no
        // camera anyone would mount; the next draw from the same generator
        // is taken, so a seed still gives one camera every time.
        let mut last = None;
        for _ in 0..CAMERA_DRAWS {
            match Camera::random_once(rng, width, height) {
                Err(error @ CameraError::InvalidParameter { .. }) => last = Some(error),
                drawn => return drawn,
            }
        }
        Err(last.unwrap_or(CameraError::ImageTooSmall { width, height }))
    }

    fn random_once<R: Rng + ?Sized>(
        rng: &mut R,
        width: u32,
        height: u32,
    ) -> Result<Camera, CameraError> {
        if width < 16 || height < 16 {
            return Err(CameraError::ImageTooSmall { width, height });
        }
        let (w, h) = (f64::from(width), f64::from(height));
        let distance: f64 = rng.random_range(900.0..2200.0);
        let tilt_deg = rng.random_range(0.0f64..1.0).sqrt() * MAX_TILT_DEG;
        let tilt_azimuth_deg: f64 = rng.random_range(0.0..360.0);
        // Most club cameras are mounted square to the board, some are not.
        let roll_deg = if rng.random_bool(0.5) {
            f64::from(rng.random_range(0..4u8)) * 90.0 + rng.random_range(-4.0..4.0)
        } else {
            rng.random_range(0.0..360.0)
        };
        let aim = [rng.random_range(-30.0..30.0), rng.random_range(-30.0..30.0)];
        let (tilt, azimuth) = (tilt_deg.to_radians(), tilt_azimuth_deg.to_radians());
        let position_mm = [
            aim[0] + distance * tilt.sin() * azimuth.cos(),
            aim[1] + distance * tilt.sin() * azimuth.sin(),
            distance * tilt.cos(),
        ];
        let pose = CameraPose {
            position_mm,
            aim_mm: aim,
            tilt_deg,
            tilt_azimuth_deg,
            roll_deg: roll_deg.rem_euclid(360.0),
        };
        let aspect = rng.random_range(0.995..1.005);
        let cx = w / 2.0 + rng.random_range(-0.02..0.02) * w;
        let cy = h / 2.0 + rng.random_range(-0.02..0.02) * h;
        let k1 = rng.random_range(-0.10..0.05);
        let k2 = rng.random_range(-0.01..0.02);
        let target_fraction = rng.random_range(0.74..0.91);
        let shake = if rng.random_bool(0.4) {
            Shake {
                seed: rng.random(),
                window_frames: rng.random_range(90..300),
                probability: rng.random_range(0.2..0.6),
                max_amplitude_px: rng.random_range(1.0..4.0),
                duration_frames: rng.random_range(6..20),
            }
        } else {
            Shake::NONE
        };

        // The board's image height is nearly proportional to the focal
        // length (distortion bends it a little), so a few rescalings land on
        // the target fraction; a tilted camera sees the board off-centre, so
        // the focal length then shrinks until the whole frame is in view.
        let mut focal = h;
        let mut camera = Camera::new(
            Intrinsics {
                width,
                height,
                fx: focal,
                fy: focal * aspect,
                cx,
                cy,
                k1,
                k2,
            },
            pose,
            shake,
        )?;
        for _ in 0..8 {
            let fraction = camera.board_height_fraction()?;
            let inside = camera.board_margin_scale()?;
            let scale = (target_fraction / fraction).min(inside);
            if (scale - 1.0).abs() < 1e-5 {
                break;
            }
            focal *= scale;
            camera = Camera::new(
                Intrinsics {
                    width,
                    height,
                    fx: focal,
                    fy: focal * aspect,
                    cx,
                    cy,
                    k1,
                    k2,
                },
                pose,
                shake,
            )?;
        }
        camera.checked_framing()
    }

    /// The factor by which the focal length may grow (> 1) or must shrink
    /// (< 1) for the board's outer edge to stay a small margin inside the
    /// image on every side.
    fn board_margin_scale(&self) -> Result<f64, CameraError> {
        let (w, h) = (f64::from(self.width), f64::from(self.height));
        let margin = 0.02 * h;
        let mut scale = f64::INFINITY;
        for p in self.outer_edge_samples()? {
            let (dx, dy) = (p.x - self.cx, p.y - self.cy);
            let room_x = if dx > 0.0 {
                w - margin - self.cx
            } else {
                self.cx - margin
            };
            let room_y = if dy > 0.0 {
                h - margin - self.cy
            } else {
                self.cy - margin
            };
            if dx.abs() > f64::EPSILON {
                scale = scale.min(room_x / dx.abs());
            }
            if dy.abs() > f64::EPSILON {
                scale = scale.min(room_y / dy.abs());
            }
        }
        Ok(scale)
    }

    /// Rejects a framing whose lens cannot be inverted across the image.
    fn checked_framing(self) -> Result<Camera, CameraError> {
        // The lens map must stay monotonic out to the image corners, or
        // `image_to_board` would have two answers.
        let corner = self.max_normalised_radius();
        let slope = 1.0 + 3.0 * self.k1 * corner * corner + 5.0 * self.k2 * corner.powi(4);
        if slope <= 0.2 {
            return Err(CameraError::InvalidParameter {
                name: "k1",
                value: self.k1,
                why: "distortion folds back inside the image",
            });
        }
        let (w, h) = (f64::from(self.width), f64::from(self.height));
        for (u, v) in [(0.0, 0.0), (w, 0.0), (0.0, h), (w, h)] {
            if self.undistort(Point2::new(u, v)).is_err() {
                return Err(CameraError::InvalidParameter {
                    name: "k1",
                    value: self.k1,
                    why: "distortion cannot be undone at the image corners",
                });
            }
        }
        Ok(self)
    }

    /// The largest normalised (undistorted-model) radius of the image corners.
    fn max_normalised_radius(&self) -> f64 {
        let (w, h) = (f64::from(self.width), f64::from(self.height));
        [(0.0, 0.0), (w, 0.0), (0.0, h), (w, h)]
            .iter()
            .map(|&(u, v)| ((u - self.cx) / self.fx).hypot((v - self.cy) / self.fy))
            .fold(0.0, f64::max)
    }

    /// Image width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Image height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The lens and sensor figures.
    pub fn intrinsics(&self) -> Intrinsics {
        Intrinsics {
            width: self.width,
            height: self.height,
            fx: self.fx,
            fy: self.fy,
            cx: self.cx,
            cy: self.cy,
            k1: self.k1,
            k2: self.k2,
        }
    }

    /// Where the camera is and how it is turned.
    pub fn pose(&self) -> &CameraPose {
        &self.pose
    }

    /// The camera's occasional shaking.
    pub fn shake(&self) -> &Shake {
        &self.shake
    }

    /// The 3×3 homography from board mm (x, y, 1) to *undistorted* image
    /// pixels, normalised so that `H[2][2] = 1`.
    pub fn homography(&self) -> &Matrix3<f64> {
        &self.homography
    }

    /// The camera centre in board mm.
    pub fn centre_mm(&self) -> Point3<f64> {
        let [x, y, z] = self.pose.position_mm;
        Point3::new(x, y, z)
    }

    /// The image point of a board point (z = 0): homography, then distortion.
    /// Points behind the camera's horizon have no image.
    pub fn board_to_image(&self, board: Point2<f64>) -> Result<Point2<f64>, CameraError> {
        let projected = self.homography * board.to_homogeneous();
        if projected.z <= f64::EPSILON {
            return Err(CameraError::BeyondHorizon {
                x: board.x,
                y: board.y,
            });
        }
        Ok(self.distort(Point2::new(
            projected.x / projected.z,
            projected.y / projected.z,
        )))
    }

    /// Like [`Camera::board_to_image`] in frame `frame`, shake included.
    pub fn board_to_image_at(
        &self,
        frame: u32,
        board: Point2<f64>,
    ) -> Result<Point2<f64>, CameraError> {
        Ok(self.board_to_image(board)? + self.shake.offset(frame))
    }

    /// The board point (z = 0) seen at an image pixel: undistortion, then the
    /// inverse homography.
    pub fn image_to_board(&self, image: Point2<f64>) -> Result<Point2<f64>, CameraError> {
        let undistorted = self.undistort(image)?;
        let board = self.inverse * undistorted.to_homogeneous();
        if board.z.abs() <= f64::EPSILON {
            return Err(CameraError::BeyondHorizon {
                x: image.x,
                y: image.y,
            });
        }
        Ok(Point2::new(board.x / board.z, board.y / board.z))
    }

    /// The board-plane point that the camera sees in line with a point
    /// `height_mm` above the board at `board` (what parallax does to the top
    /// of a disc or a lifted hand). Equal to `board` for height 0.
    pub fn parallax_on_board(&self, board: Point2<f64>, height_mm: f64) -> Point2<f64> {
        let centre = self.centre_mm();
        let below = (centre.z - height_mm).max(1.0);
        let scale = centre.z / below;
        Point2::new(
            centre.x + (board.x - centre.x) * scale,
            centre.y + (board.y - centre.y) * scale,
        )
    }

    /// The lens as the calibration models it: the simulator draws with the
    /// very model the calibration fits, so a fit can be exact.
    pub fn lens(&self) -> Lens {
        Lens {
            fx: self.fx,
            fy: self.fy,
            cx: self.cx,
            cy: self.cy,
            k1: self.k1,
            k2: self.k2,
        }
    }

    /// Applies the lens distortion to an undistorted pixel position.
    pub fn distort(&self, undistorted: Point2<f64>) -> Point2<f64> {
        self.lens().distort(undistorted)
    }

    /// Removes the lens distortion from a pixel position.
    pub fn undistort(&self, distorted: Point2<f64>) -> Result<Point2<f64>, CameraError> {
        self.lens()
            .undistort(distorted)
            .map_err(|_| CameraError::NotInvertible {
                x: distorted.x,
                y: distorted.y,
            })
    }

    /// The image height the board with its frame occupies (the vertical
    /// extent of its outer square, distortion included), as a fraction of the
    /// image height.
    pub fn board_height_fraction(&self) -> Result<f64, CameraError> {
        let (top, bottom) = self
            .outer_edge_samples()?
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(top, bottom), p| {
                (top.min(p.y), bottom.max(p.y))
            });
        Ok((bottom - top) / f64::from(self.height))
    }

    /// Points along the outer edge of the board frame, in image pixels.
    pub fn outer_edge_samples(&self) -> Result<Vec<Point2<f64>>, CameraError> {
        const PER_SIDE: usize = 64;
        let half = BOARD_OUTER_SIDE_MM / 2.0;
        let corners = [
            Point2::new(-half, -half),
            Point2::new(half, -half),
            Point2::new(half, half),
            Point2::new(-half, half),
        ];
        let mut samples = Vec::with_capacity(4 * PER_SIDE);
        for side in 0..4 {
            let (from, to) = (corners[side], corners[(side + 1) % 4]);
            for step in 0..PER_SIDE {
                let t = step as f64 / PER_SIDE as f64;
                samples.push(self.board_to_image(from + (to - from) * t)?);
            }
        }
        Ok(samples)
    }

    /// The image size in pixels, for allocating frames.
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// Unit vector along the optical axis, in board coordinates.
    pub fn optical_axis(&self) -> Vector3<f64> {
        let centre = self.centre_mm();
        let aim = Vector3::new(self.pose.aim_mm[0], self.pose.aim_mm[1], 0.0);
        (aim - centre.coords).normalize()
    }
}

/// The rotation taking board-frame vectors to camera-frame vectors (camera
/// x right, y down, z forward along the optical axis).
fn world_to_camera(pose: &CameraPose) -> Result<Rotation3<f64>, CameraError> {
    let [px, py, pz] = pose.position_mm;
    let aim = Vector3::new(pose.aim_mm[0], pose.aim_mm[1], 0.0);
    let forward = aim - Vector3::new(px, py, pz);
    let forward = Unit::try_new(forward, 1e-9).ok_or(CameraError::InvalidParameter {
        name: "pose.aim_mm",
        value: pz,
        why: "the camera cannot sit on the point it aims at",
    })?;
    // Image x starts as board east, made perpendicular to the axis; image y
    // then follows (z × x), which puts board north at the image top.
    let east = Vector3::x();
    let across = east - forward.into_inner() * east.dot(&forward);
    let across = Unit::try_new(across, 1e-6).ok_or(CameraError::InvalidParameter {
        name: "pose.tilt_deg",
        value: pose.tilt_deg,
        why: "the camera looks along the board plane",
    })?;
    let down = forward.cross(&across);
    let roll = pose.roll_deg.to_radians();
    let (sin, cos) = roll.sin_cos();
    let image_x = across.into_inner() * cos + down * sin;
    let image_y = -across.into_inner() * sin + down * cos;
    let rows = Matrix3::from_rows(&[
        image_x.transpose(),
        image_y.transpose(),
        forward.into_inner().transpose(),
    ]);
    Ok(Rotation3::from_matrix_unchecked(rows))
}

/// `camera.json`: the camera as a document any program can read.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct CameraFile {
    /// How to map a board point to a pixel, in words.
    model: String,
    image_width: u32,
    image_height: u32,
    fx: f64,
    fy: f64,
    cx: f64,
    cy: f64,
    k1: f64,
    k2: f64,
    /// Board mm (x, y, 1) → undistorted pixels, row-major, `H[2][2] = 1`.
    homography: [[f64; 3]; 3],
    pose: CameraPose,
    shake: Shake,
}

const MODEL_RULE: &str = "image = distort(H * [x_mm, y_mm, 1]) + shake(frame); \
distort(p) = c + f * n * (1 + k1*r^2 + k2*r^4) with n = (p - c) / f, r = |n|; \
board mm: origin at the board centre, +x east, +y north";

impl From<Camera> for CameraFile {
    fn from(camera: Camera) -> CameraFile {
        let h = camera.homography;
        CameraFile {
            model: MODEL_RULE.to_string(),
            image_width: camera.width,
            image_height: camera.height,
            fx: camera.fx,
            fy: camera.fy,
            cx: camera.cx,
            cy: camera.cy,
            k1: camera.k1,
            k2: camera.k2,
            homography: [
                [h[(0, 0)], h[(0, 1)], h[(0, 2)]],
                [h[(1, 0)], h[(1, 1)], h[(1, 2)]],
                [h[(2, 0)], h[(2, 1)], h[(2, 2)]],
            ],
            pose: camera.pose,
            shake: camera.shake,
        }
    }
}

impl TryFrom<CameraFile> for Camera {
    type Error = CameraError;

    fn try_from(file: CameraFile) -> Result<Camera, CameraError> {
        let intrinsics = Intrinsics {
            width: file.image_width,
            height: file.image_height,
            fx: file.fx,
            fy: file.fy,
            cx: file.cx,
            cy: file.cy,
            k1: file.k1,
            k2: file.k2,
        };
        // Validate the figures the same way a fresh camera would be, then
        // keep the stored homography (it is the documented truth).
        Camera::new(intrinsics, file.pose, file.shake)?;
        let h = file.homography;
        let homography = Matrix3::new(
            h[0][0], h[0][1], h[0][2], h[1][0], h[1][1], h[1][2], h[2][0], h[2][1], h[2][2],
        );
        Camera::from_parts(intrinsics, file.pose, file.shake, homography)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    fn cameras(count: u64, width: u32, height: u32) -> Vec<Camera> {
        (0..count)
            .map(|seed| {
                let mut rng = StdRng::seed_from_u64(seed);
                Camera::random(&mut rng, width, height).expect("random camera")
            })
            .collect()
    }

    #[test]
    fn every_seed_gives_a_camera_whose_lens_can_be_undone_at_the_corners() {
        // `carrom sim --seed 800` (and 4037) once drew a lens the renderer
        // could not invert at pixel (0, 0), and failed.
        for seed in (0..400).chain([800, 4037]) {
            let mut rng = crate::sim::seeded_rng(seed, crate::sim::Stream::Camera);
            let camera = Camera::random(&mut rng, 1280, 720).unwrap();
            for (u, v) in [(0.0, 0.0), (1280.0, 0.0), (0.0, 720.0), (1280.0, 720.0)] {
                assert!(camera.undistort(Point2::new(u, v)).is_ok(), "seed {seed}");
            }
        }
    }

    #[test]
    fn image_to_board_inverts_board_to_image() {
        for camera in cameras(40, 1280, 720) {
            for &(x, y) in &[(0.0, 0.0), (300.0, -250.0), (-440.0, 440.0), (123.4, 367.9)] {
                let board = Point2::new(x, y);
                let image = camera.board_to_image(board).unwrap();
                let back = camera.image_to_board(image).unwrap();
                assert!((back - board).norm() < 1e-6, "{board} -> {image} -> {back}");
            }
        }
    }

    #[test]
    fn board_to_image_inverts_image_to_board_across_the_frame() {
        for camera in cameras(20, 640, 480) {
            for u in (0..=640).step_by(80) {
                for v in (0..=480).step_by(60) {
                    let image = Point2::new(f64::from(u), f64::from(v));
                    let board = camera.image_to_board(image).unwrap();
                    let again = camera.board_to_image(board).unwrap();
                    assert!(
                        (again - image).norm() < 1e-6,
                        "{image} -> {board} -> {again}"
                    );
                }
            }
        }
    }

    #[test]
    fn board_corners_are_inside_the_frame() {
        for (width, height) in [(1280, 720), (640, 480), (1920, 1080)] {
            for camera in cameras(30, width, height) {
                for p in camera.outer_edge_samples().unwrap() {
                    assert!(p.x > 0.0 && p.x < f64::from(width), "{p} outside {width}");
                    assert!(p.y > 0.0 && p.y < f64::from(height), "{p} outside {height}");
                }
            }
        }
    }

    #[test]
    fn board_fills_the_promised_fraction_of_the_height() {
        for camera in cameras(60, 1280, 720) {
            let fraction = camera.board_height_fraction().unwrap();
            assert!(
                BOARD_HEIGHT_FRACTION.contains(&fraction),
                "fraction {fraction}"
            );
        }
    }

    #[test]
    fn straight_overhead_puts_north_up_and_east_right() {
        let intrinsics = Intrinsics {
            width: 800,
            height: 600,
            fx: 700.0,
            fy: 700.0,
            cx: 400.0,
            cy: 300.0,
            k1: 0.0,
            k2: 0.0,
        };
        let pose = CameraPose {
            position_mm: [0.0, 0.0, 1500.0],
            aim_mm: [0.0, 0.0],
            tilt_deg: 0.0,
            tilt_azimuth_deg: 0.0,
            roll_deg: 0.0,
        };
        let camera = Camera::new(intrinsics, pose, Shake::NONE).unwrap();
        let centre = camera.board_to_image(Point2::origin()).unwrap();
        assert!((centre - Point2::new(400.0, 300.0)).norm() < 1e-9);
        let east = camera.board_to_image(Point2::new(150.0, 0.0)).unwrap();
        let north = camera.board_to_image(Point2::new(0.0, 150.0)).unwrap();
        assert!((east.x - (400.0 + 70.0)).abs() < 1e-9 && (east.y - 300.0).abs() < 1e-9);
        assert!((north.y - (300.0 - 70.0)).abs() < 1e-9 && (north.x - 400.0).abs() < 1e-9);
    }

    #[test]
    fn roll_turns_the_image_about_the_axis() {
        let intrinsics = Intrinsics {
            width: 800,
            height: 600,
            fx: 700.0,
            fy: 700.0,
            cx: 400.0,
            cy: 300.0,
            k1: 0.0,
            k2: 0.0,
        };
        let pose = CameraPose {
            position_mm: [0.0, 0.0, 1500.0],
            aim_mm: [0.0, 0.0],
            tilt_deg: 0.0,
            tilt_azimuth_deg: 0.0,
            roll_deg: 90.0,
        };
        let camera = Camera::new(intrinsics, pose, Shake::NONE).unwrap();
        let east = camera.board_to_image(Point2::new(150.0, 0.0)).unwrap();
        // Rolled a quarter turn, east no longer lies to the right.
        assert!((east.x - 400.0).abs() < 1e-9, "{east}");
        assert!((east.y - 300.0).abs() > 69.0, "{east}");
    }

    #[test]
    fn json_round_trip_keeps_the_mapping() {
        for camera in cameras(5, 1280, 720) {
            let text = serde_json::to_string_pretty(&camera).unwrap();
            assert!(text.contains("homography") && text.contains("distort"));
            let back: Camera = serde_json::from_str(&text).unwrap();
            let p = Point2::new(210.0, -95.0);
            let a = camera.board_to_image(p).unwrap();
            let b = back.board_to_image(p).unwrap();
            assert!((a - b).norm() < 1e-9);
        }
    }

    #[test]
    fn bad_json_is_an_error_not_a_panic() {
        let camera = cameras(1, 640, 480).remove(0);
        let mut value = serde_json::to_value(&camera).unwrap();
        value["fx"] = serde_json::json!(-5.0);
        assert!(serde_json::from_value::<Camera>(value).is_err());
    }

    #[test]
    fn shake_is_small_rare_and_deterministic() {
        let shake = Shake {
            seed: 7,
            window_frames: 100,
            probability: 0.5,
            max_amplitude_px: 3.0,
            duration_frames: 10,
        };
        let offsets: Vec<_> = (0..3000).map(|f| shake.offset(f)).collect();
        let moving = offsets.iter().filter(|o| o.norm() > 0.0).count();
        assert!(moving > 0 && moving < 300, "moving frames {moving}");
        assert!(offsets.iter().all(|o| o.norm() <= 3.0 + 1e-9));
        assert_eq!(offsets[1234], shake.offset(1234));
        assert!(Shake::NONE.offset(17).norm() == 0.0);
    }

    #[test]
    fn parallax_pushes_raised_points_away_from_the_camera() {
        let camera = cameras(1, 1280, 720).remove(0);
        let centre = camera.centre_mm();
        let point = Point2::new(centre.x + 300.0, centre.y);
        let lifted = camera.parallax_on_board(point, 8.0);
        assert!(lifted.x > point.x && (lifted.y - point.y).abs() < 1e-9);
    }
}
