//! Frames of the ICF board seen by cameras whose truth is known: the
//! simulator's random club cameras, and a renderer that paints the
//! board model into its image pixel by pixel (supersampled, with lamp
//! falloff, grain and optional coins). The tests and the accuracy benchmark
//! measure the calibration against these truths.

use nalgebra::{Matrix3, Point2};
use opencv::core::{Mat, Size, BORDER_REPLICATE, CV_8UC3};
use opencv::{imgproc, prelude::*};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;

use super::calibration::SouthSide;
use super::error::{cv, CalibrateError};
use super::lens::{apply_homography, Lens};
use crate::geometry::spec::{
    CARROMMAN_RADIUS_MM, CENTRE_CIRCLE_RADIUS_MM, CIRCLE_LINE_THICKNESS_MM, FRAME_WIDTH_MM,
    HALF_SURFACE_MM, OUTER_CIRCLE_RADIUS_MM, POCKET_CENTRE_OFFSET_MM,
};
use crate::geometry::{arrow, pocket_hole, seat_markings, Circle, Pocket, Seat, Stroke};
use crate::sim::camera::Camera;

/// A camera with known truth: lens and board-to-undistorted-pixel homography.
#[derive(Debug, Clone, PartialEq)]
pub struct TruthCamera {
    /// Image width, pixels.
    pub width: u32,
    /// Image height, pixels.
    pub height: u32,
    /// The lens.
    pub lens: Lens,
    /// Board mm → undistorted pixels.
    pub homography: Matrix3<f64>,
}

/// A small deterministic generator (SplitMix64) for the scene's grain, light
/// and coins: the same seed gives the same frame on every machine.
#[derive(Debug, Clone)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator from a seed.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `low..high`.
    pub fn range(&mut self, low: f64, high: f64) -> f64 {
        let unit = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        low + (high - low) * unit
    }

    /// A standard normal deviate (Box–Muller).
    pub fn normal(&mut self) -> f64 {
        let u = self.range(f64::EPSILON, 1.0);
        let v = self.range(0.0, 1.0);
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
}

impl TruthCamera {
    /// The truth of one of the simulator's random club cameras
    /// ([`crate::sim::camera::Camera::random`]) drawn from `seed`: roughly
    /// overhead, any roll, mild distortion, slightly off-centre principal
    /// point, the board filling most of the image height.
    pub fn generated(seed: u64, width: u32, height: u32) -> Result<TruthCamera, CalibrateError> {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let camera = Camera::random(&mut rng, width, height)
            .map_err(|e| CalibrateError::BadImage(format!("no camera for seed {seed}: {e}")))?;
        Ok(TruthCamera::from_sim(&camera))
    }

    /// The truth of a simulator camera.
    pub fn from_sim(camera: &Camera) -> TruthCamera {
        let i = camera.intrinsics();
        TruthCamera {
            width: i.width,
            height: i.height,
            lens: Lens {
                fx: i.fx,
                fy: i.fy,
                cx: i.cx,
                cy: i.cy,
                k1: i.k1,
                k2: i.k2,
            },
            homography: *camera.homography(),
        }
    }

    /// Where a board point appears in the image (distorted pixels).
    pub fn board_to_image(&self, board: Point2<f64>) -> Option<Point2<f64>> {
        apply_homography(&self.homography, board).map(|u| self.lens.distort(u))
    }

    /// The board point at an image pixel.
    pub fn image_to_board(&self, image: Point2<f64>) -> Option<Point2<f64>> {
        let u = self.lens.undistort(image).ok()?;
        apply_homography(&self.homography.try_inverse()?, u)
    }

    /// The image side the board's south edge is nearest to, judged as the
    /// calibration judges it (the side of the corner quadrilateral whose
    /// midpoint lies furthest that way): what `--south` must say for the
    /// calibration to name the seats as the truth does.
    pub fn south_side(&self) -> SouthSide {
        let h = HALF_SURFACE_MM;
        // SW, SE, NE, NW: side 0 (SW→SE) is south.
        let corners = [(-h, -h), (h, -h), (h, h), (-h, h)]
            .map(|(x, y)| self.board_to_image(Point2::new(x, y)));
        let Some(corners) = corners.into_iter().collect::<Option<Vec<_>>>() else {
            return SouthSide::Bottom;
        };
        let midpoints: Vec<Point2<f64>> = (0..4)
            .map(|i| Point2::from((corners[i].coords + corners[(i + 1) % 4].coords) / 2.0))
            .collect();
        SouthSide::ALL
            .into_iter()
            .find(|side| {
                let nearest = (0..4).max_by(|&a, &b| {
                    side.nearness(midpoints[a])
                        .total_cmp(&side.nearness(midpoints[b]))
                });
                nearest == Some(0)
            })
            .unwrap_or(SouthSide::Bottom)
    }
}

/// What else the rendered frame shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SceneOptions {
    /// Standard deviation of the sensor grain, grey levels.
    pub grain: f64,
    /// Darkening at the image corners from an off-centre lamp (0: even light).
    pub falloff: f64,
    /// Coins scattered over the surface (some on the markings).
    pub coins: usize,
    /// Seed for grain, light and coins.
    pub seed: u64,
}

impl Default for SceneOptions {
    fn default() -> SceneOptions {
        SceneOptions {
            grain: 3.0,
            falloff: 0.3,
            coins: 6,
            seed: 1,
        }
    }
}

/// BGR colours of the painted board (as the template draws it).
mod paint {
    pub const TABLE: [f64; 3] = [95.0, 100.0, 105.0];
    pub const SURFACE: [f64; 3] = [150.0, 200.0, 228.0];
    pub const FRAME: [f64; 3] = [28.0, 46.0, 84.0];
    pub const POCKET: [f64; 3] = [10.0, 10.0, 10.0];
    pub const INK: [f64; 3] = [25.0, 25.0, 25.0];
    pub const RED: [f64; 3] = [35.0, 35.0, 190.0];
    pub const BLACK_COIN: [f64; 3] = [30.0, 30.0, 30.0];
    pub const WOOD_COIN: [f64; 3] = [120.0, 170.0, 205.0];
}

/// The board, its markings and the coins, as shapes in board mm.
struct Scene {
    strokes: Vec<Stroke>,
    rings: Vec<Circle>,
    red_discs: Vec<Circle>,
    coins: Vec<(Circle, [f64; 3])>,
}

impl Scene {
    fn new(coins: usize, rng: &mut SplitMix) -> Scene {
        let mut strokes = Vec::new();
        let mut rings = vec![
            Circle::new(Point2::origin(), OUTER_CIRCLE_RADIUS_MM),
            Circle::new(Point2::origin(), CENTRE_CIRCLE_RADIUS_MM),
        ];
        let mut red_discs = vec![Circle::new(
            Point2::origin(),
            CENTRE_CIRCLE_RADIUS_MM - CIRCLE_LINE_THICKNESS_MM,
        )];
        for seat in Seat::TURN_ORDER {
            let m = seat_markings(seat);
            strokes.push(m.outer_line);
            strokes.push(m.inner_line);
            rings.extend(m.base_circles);
            red_discs.extend(m.red_discs);
        }
        for pocket in Pocket::ALL {
            strokes.push(arrow(pocket));
        }
        let coins = (0..coins)
            .map(|i| {
                let limit = HALF_SURFACE_MM - 60.0;
                let centre = Point2::new(rng.range(-limit, limit), rng.range(-limit, limit));
                let colour = if i % 2 == 0 {
                    paint::BLACK_COIN
                } else {
                    paint::WOOD_COIN
                };
                (Circle::new(centre, CARROMMAN_RADIUS_MM), colour)
            })
            .collect();
        Scene {
            strokes,
            rings,
            red_discs,
            coins,
        }
    }

    fn colour(&self, p: Point2<f64>) -> [f64; 3] {
        let outer = HALF_SURFACE_MM + FRAME_WIDTH_MM;
        if p.x.abs() > outer || p.y.abs() > outer {
            return paint::TABLE;
        }
        if Pocket::ALL
            .iter()
            .any(|&k| pocket_hole(k).contains_point(p))
        {
            return paint::POCKET;
        }
        let corner = p.x.abs() > POCKET_CENTRE_OFFSET_MM && p.y.abs() > POCKET_CENTRE_OFFSET_MM;
        if p.x.abs() > HALF_SURFACE_MM || p.y.abs() > HALF_SURFACE_MM || corner {
            return paint::FRAME;
        }
        if let Some((_, colour)) = self.coins.iter().find(|(c, _)| c.contains_point(p)) {
            return *colour;
        }
        if self.red_discs.iter().any(|c| c.contains_point(p)) {
            return paint::RED;
        }
        let on_ring = self.rings.iter().any(|c| {
            let r = (p - c.centre).norm();
            r <= c.radius && r >= c.radius - CIRCLE_LINE_THICKNESS_MM
        });
        if on_ring || self.strokes.iter().any(|s| s.distance_to(p) == 0.0) {
            return paint::INK;
        }
        paint::SURFACE
    }
}

/// Paints the board as `camera` sees it: 3×3 supersampling per pixel, a
/// slight optical blur, lamp falloff, grain and coins.
pub fn render(camera: &TruthCamera, options: &SceneOptions) -> Result<Mat, CalibrateError> {
    let mut rng = SplitMix::new(options.seed);
    let scene = Scene::new(options.coins, &mut rng);
    let (w, h) = (camera.width as usize, camera.height as usize);
    let inverse = camera
        .homography
        .try_inverse()
        .ok_or_else(|| CalibrateError::BadImage("the camera's homography is singular".into()))?;
    let lamp = Point2::new(
        rng.range(0.3, 0.7) * w as f64,
        rng.range(0.3, 0.7) * h as f64,
    );
    let reach = (w as f64).hypot(h as f64);
    const SUB: usize = 3;
    let mut pixels = vec![0u8; w * h * 3];
    pixels
        .par_chunks_mut(w * 3)
        .enumerate()
        .for_each(|(row, line)| {
            for col in 0..w {
                let mut sum = [0.0; 3];
                for sy in 0..SUB {
                    for sx in 0..SUB {
                        let x = col as f64 + (sx as f64 + 0.5) / SUB as f64 - 0.5;
                        let y = row as f64 + (sy as f64 + 0.5) / SUB as f64 - 0.5;
                        let colour = camera
                            .lens
                            .undistort(Point2::new(x, y))
                            .ok()
                            .and_then(|u| apply_homography(&inverse, u))
                            .map_or(paint::TABLE, |b| scene.colour(b));
                        for c in 0..3 {
                            sum[c] += colour[c];
                        }
                    }
                }
                let d = (Point2::new(col as f64, row as f64) - lamp).norm() / reach;
                let light = 1.0 - options.falloff * d * d * 2.0;
                for c in 0..3 {
                    let v = sum[c] / (SUB * SUB) as f64 * light;
                    line[col * 3 + c] = v.round().clamp(0.0, 255.0) as u8;
                }
            }
        });
    let mut image = cv(
        "allocating the frame",
        Mat::new_rows_cols_with_default(
            h as i32,
            w as i32,
            CV_8UC3,
            opencv::core::Scalar::all(0.0),
        ),
    )?;
    cv("filling the frame", image.data_bytes_mut())?.copy_from_slice(&pixels);
    let mut blurred = Mat::default();
    cv(
        "blurring the frame",
        imgproc::gaussian_blur(
            &image,
            &mut blurred,
            Size::new(0, 0),
            0.6,
            0.6,
            BORDER_REPLICATE,
        ),
    )?;
    if options.grain > 0.0 {
        let bytes = cv("adding grain", blurred.data_bytes_mut())?;
        for b in bytes.iter_mut() {
            let v = f64::from(*b) + options.grain * rng.normal();
            *b = v.round().clamp(0.0, 255.0) as u8;
        }
    }
    Ok(blurred)
}

/// The board points the accuracy is measured on: points along every ICF
/// marking (base lines, circles, arrows, the surface edge).
pub fn marking_points() -> Vec<Point2<f64>> {
    super::model::marking_samples(10.0)
        .into_iter()
        .map(|s| s.board)
        .collect()
}
