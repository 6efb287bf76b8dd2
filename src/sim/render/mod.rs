//! Turns the ground truth of a frame into the picture an overhead club camera
//! would take of it.
//!
//! The scene is drawn in a top-view canvas of the board plane at a fixed
//! px/mm: the still parts once per clip ([`board`]), the pieces, shadows and
//! hands every frame as sprites ([`sprite`]) into a few dirty rectangles.
//! The canvas is then warped into the camera image through a remap table
//! computed once from [`Camera::image_to_board`] (perspective and lens
//! distortion in one lookup), and lit, with sensor noise ([`light`]).
//! Optional camera shake and a JPEG pass come last.

mod appearance;
mod board;
mod light;
mod sprite;
mod texture;

pub use appearance::{
    Appearance, Bgr, Brand, CarrommenLook, Decor, DecorStyle, FrameLook, HandLook, InkLook, Lamp,
    Lighting, Plywood, Sensor, StrikerLook, StrikerPrint, Surroundings, SurroundingsKind,
    WhiteStyle,
};
pub use board::CanvasFrame;

use std::time::{Duration, Instant};

use nalgebra::{Point2, Vector2};
use opencv::core::{
    self, Mat, MatTraitConst, MatTraitConstManual, MatTraitManual, Rect, Scalar, Vec2f, Vector,
    CV_16SC2, CV_32FC2, CV_8UC3,
};
use opencv::{imgcodecs, imgproc};
use rayon::prelude::*;

use self::light::Exposure;
use self::sprite::{CanvasPixels, DiscSprites, HandSprites, Placement, Sprite};
use crate::geometry::spec::{BLACK_CARROMMEN, HALF_SURFACE_MM, WHITE_CARROMMEN};
use crate::geometry::Piece;
use crate::sim::camera::{Camera, CameraError};
use crate::sim::scene::{FrameTruth, HandTruth, PieceState, PieceTruth};

/// Why a frame could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The camera could not map a point the renderer needed.
    #[error("camera: {0}")]
    Camera(#[from] CameraError),
    /// OpenCV reported an error.
    #[error("OpenCV: {0}")]
    OpenCv(#[from] opencv::Error),
    /// The ICF template drawing failed.
    #[error("board template: {0}")]
    Template(#[from] crate::template::TemplateError),
    /// A canvas or image dimension does not fit OpenCV's integer sizes.
    #[error("dimension {0} is too large to render")]
    TooLarge(usize),
}

/// How high a hand's fingers are over the board, mm, for its parallax and
/// its shadow's offset.
const HAND_HEIGHT_MM: f64 = 45.0;

/// Renders frames of one clip: one camera, one look.
pub struct Renderer {
    cast: Cast,
    still: Mat,
    work: Mat,
    dirty: Vec<Rect>,
    map_xy: Mat,
    map_fraction: Mat,
    warped: Mat,
    staged: Mat,
    exposure: Exposure,
    jpeg_buffer: Vector<u8>,
    times: StageTimes,
}

/// Time spent in each stage of rendering, summed over the frames so far
/// (for benchmarks).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct StageTimes {
    /// Restoring the canvas and drawing pieces, shadows and hands.
    pub draw: Duration,
    /// Warping the canvas into the camera image.
    pub remap: Duration,
    /// Light, noise, shake and the JPEG pass.
    pub finish: Duration,
    /// Frames rendered.
    pub frames: u32,
}

/// What the moving part of a frame is drawn with: the camera, the look and
/// every sprite, fixed for the clip.
struct Cast {
    camera: Camera,
    look: Appearance,
    frame: CanvasFrame,
    whites: Vec<DiscSprites>,
    blacks: Vec<DiscSprites>,
    queen: DiscSprites,
    striker: DiscSprites,
    carromman_shadow: (Sprite, Sprite),
    striker_shadow: (Sprite, Sprite),
    hand: HandSprites,
}

impl Renderer {
    /// Prepares everything that does not change during a clip: the still
    /// canvas, the sprites, the remap table and the light. Costs a fraction
    /// of a second; frames are then cheap.
    pub fn new(look: &Appearance, camera: &Camera) -> Result<Renderer, RenderError> {
        let frame = CanvasFrame::covering(camera, look.sensor.sharpness)?;
        let still = board::paint(look, camera, &frame)?;
        let work = still.try_clone()?;
        let (width, height) = (camera.width() as usize, camera.height() as usize);

        // Every image pixel's board point, once: the remap table and the
        // light both need it.
        let board_at: Vec<Point2<f64>> = (0..width * height)
            .into_par_iter()
            .map(|i| camera.image_to_board(Point2::new((i % width) as f64, (i / width) as f64)))
            .collect::<Result<_, _>>()?;
        let coordinates: Vec<Vec2f> = board_at
            .iter()
            .map(|p| {
                let (u, v) = frame.to_px(*p);
                Vec2f::from([u as f32, v as f32])
            })
            .collect();
        let rows = to_i32(height)?;
        let cols = to_i32(width)?;
        let float_map = Mat::new_rows_cols_with_data(rows, cols, &coordinates)?.try_clone()?;
        debug_assert_eq!(float_map.typ(), CV_32FC2);
        // Fixed-point maps remap about twice as fast, at 1/32 px precision.
        let mut map_xy = Mat::default();
        let mut map_fraction = Mat::default();
        imgproc::convert_maps(
            &float_map,
            &core::no_array(),
            &mut map_xy,
            &mut map_fraction,
            CV_16SC2,
            false,
        )?;
        let exposure = Exposure::new(look, camera, &board_at);

        let s = frame.px_per_mm;
        let whites = (0..WHITE_CARROMMEN as u32)
            .map(|v| sprite::disc_sprites(look, Piece::White, v, s))
            .collect();
        let blacks = (0..BLACK_CARROMMEN as u32)
            .map(|v| sprite::disc_sprites(look, Piece::Black, v, s))
            .collect();
        let queen = sprite::disc_sprites(look, Piece::Queen, 0, s);
        let striker = sprite::disc_sprites(look, Piece::Striker, 0, s);
        let shadows = |radius: f64| {
            (
                // Contact shadow right under the rim, and the lamp's soft one.
                sprite::disc_shadow(radius + 0.4, 0.7, s),
                sprite::disc_shadow(radius, 2.5, s),
            )
        };
        let carromman_shadow = shadows(queen.radius_mm);
        let striker_shadow = shadows(striker.radius_mm);
        let hand = sprite::hand_sprites(look, s)?;
        let image = Mat::new_rows_cols_with_default(rows, cols, CV_8UC3, Scalar::all(0.0))?;
        Ok(Renderer {
            cast: Cast {
                camera: camera.clone(),
                look: look.clone(),
                frame,
                whites,
                blacks,
                queen,
                striker,
                carromman_shadow,
                striker_shadow,
                hand,
            },
            still,
            work,
            dirty: Vec::new(),
            map_xy,
            map_fraction,
            warped: image.try_clone()?,
            staged: image,
            exposure,
            jpeg_buffer: Vector::new(),
            times: StageTimes::default(),
        })
    }

    /// The camera frames are rendered through.
    pub fn camera(&self) -> &Camera {
        &self.cast.camera
    }

    /// The look frames are rendered with.
    pub fn appearance(&self) -> &Appearance {
        &self.cast.look
    }

    /// The board-plane canvas geometry.
    pub fn canvas_frame(&self) -> &CanvasFrame {
        &self.cast.frame
    }

    /// Renders one frame into `image` (8-bit BGR of the camera's size;
    /// reallocated if it is not). Buffers are reused between frames.
    pub fn render(&mut self, truth: &FrameTruth, image: &mut Mat) -> Result<(), RenderError> {
        let started = Instant::now();
        self.restore_dirty()?;
        {
            let mut canvas = CanvasPixels {
                bytes: self.work.data_bytes_mut()?,
                width: self.cast.frame.width,
                height: self.cast.frame.height,
            };
            self.cast
                .draw_pieces(&mut canvas, &truth.pieces, &mut self.dirty);
            self.cast
                .draw_hands(&mut canvas, &truth.hands, &mut self.dirty);
        }
        let drawn = Instant::now();
        imgproc::remap(
            &self.work,
            &mut self.warped,
            &self.map_xy,
            &self.map_fraction,
            imgproc::INTER_LINEAR,
            core::BORDER_REPLICATE,
            Scalar::all(0.0),
        )?;
        let warped = Instant::now();
        let size = self.warped.size()?;
        if image.size()? != size || image.typ() != CV_8UC3 {
            *image = Mat::new_rows_cols_with_default(
                size.height,
                size.width,
                CV_8UC3,
                Scalar::all(0.0),
            )?;
        }
        let shake = self.cast.camera.shake().offset(truth.frame);
        let lit_target: &mut Mat = if shake.norm() > 0.0 {
            &mut self.staged
        } else {
            image
        };
        self.exposure.apply(
            self.warped.data_bytes()?,
            lit_target.data_bytes_mut()?,
            truth.frame,
        );
        if shake.norm() > 0.0 {
            let shift = Mat::from_slice_2d(&[[1.0, 0.0, shake.x], [0.0, 1.0, shake.y]])?;
            imgproc::warp_affine(
                &self.staged,
                image,
                &shift,
                size,
                imgproc::INTER_LINEAR,
                core::BORDER_REPLICATE,
                Scalar::all(0.0),
            )?;
        }
        if let Some(quality) = self.cast.look.sensor.jpeg_quality {
            let params = Vector::from_slice(&[imgcodecs::IMWRITE_JPEG_QUALITY, quality]);
            imgcodecs::imencode(".jpg", image, &mut self.jpeg_buffer, &params)?;
            *image = imgcodecs::imdecode(&self.jpeg_buffer, imgcodecs::IMREAD_COLOR)?;
        }
        self.times.draw += drawn - started;
        self.times.remap += warped - drawn;
        self.times.finish += warped.elapsed();
        self.times.frames += 1;
        Ok(())
    }

    /// Time spent per stage over all frames rendered so far.
    pub fn stage_times(&self) -> StageTimes {
        self.times
    }

    /// Renders one frame into a new image.
    pub fn render_new(&mut self, truth: &FrameTruth) -> Result<Mat, RenderError> {
        let mut image = Mat::default();
        self.render(truth, &mut image)?;
        Ok(image)
    }

    /// Puts the still canvas back where last frame's pieces and hands were.
    fn restore_dirty(&mut self) -> Result<(), RenderError> {
        let width = self.cast.frame.width;
        let still = self.still.data_bytes()?;
        let work = self.work.data_bytes_mut()?;
        for rect in self.dirty.drain(..) {
            for y in rect.y..rect.y + rect.height {
                let start = 3 * (y as usize * width + rect.x as usize);
                let end = start + 3 * rect.width as usize;
                work[start..end].copy_from_slice(&still[start..end]);
            }
        }
        Ok(())
    }
}

impl Cast {
    fn disc_sprites(&self, piece: &PieceTruth) -> &DiscSprites {
        let variant = usize::from(piece.id);
        match piece.kind {
            Piece::White => &self.whites[variant % self.whites.len().max(1)],
            Piece::Black => &self.blacks[variant % self.blacks.len().max(1)],
            Piece::Queen => &self.queen,
            Piece::Striker => &self.striker,
        }
    }

    /// Whether a piece can be seen: on the board, held or flying, or lying on
    /// the floor beyond the frame after jumping off.
    fn visible(&self, piece: &PieceTruth) -> bool {
        match piece.state {
            PieceState::OnBoard | PieceState::InHand | PieceState::Airborne => true,
            PieceState::Pocketed => false,
            PieceState::OffBoard => {
                let outside = HALF_SURFACE_MM + self.look.frame.width_mm;
                piece.x.abs() > outside || piece.y.abs() > outside
            }
        }
    }

    /// The placement of a disc at `centre` (board mm) drawn at `scale`, and
    /// its travel over the exposure in canvas pixels, centred on the frame
    /// time so the smear's middle is where the truth says.
    fn motion(
        &self,
        centre: Point2<f64>,
        velocity: Vector2<f64>,
        scale: f64,
    ) -> (Placement, (f64, f64)) {
        let travel = velocity * self.look.sensor.exposure_s * self.frame.px_per_mm;
        let placement = Placement {
            scale,
            ..Placement::at(self.frame.to_px(centre))
        };
        // Canvas rows run south.
        (placement, (travel.x, -travel.y))
    }

    fn lamp_share(&self) -> f32 {
        1.0 / self.look.lighting.lamps.len().max(1) as f32
    }

    fn draw_pieces(&self, canvas: &mut CanvasPixels, pieces: &[PieceTruth], dirty: &mut Vec<Rect>) {
        let mut visible: Vec<&PieceTruth> = pieces.iter().filter(|p| self.visible(p)).collect();
        // Lower pieces first, so a lifted or flying piece covers the others.
        visible.sort_by(|a, b| a.z.total_cmp(&b.z));
        let camera_height = self.camera.centre_mm().z;
        // Shadows first: a piece's shadow never covers a piece.
        for piece in &visible {
            let (contact, soft) = match piece.kind {
                Piece::Striker => &self.striker_shadow,
                _ => &self.carromman_shadow,
            };
            let sprites = self.disc_sprites(piece);
            let base = Point2::new(piece.x, piece.y);
            let velocity = Vector2::new(piece.vx, piece.vy);
            if piece.z <= 0.5 {
                let (placement, travel) = self.motion(base, velocity, 1.0);
                dirty.extend(sprite::darken(canvas, contact, &placement, travel, 0.45));
            }
            let height_mm = piece.z + sprites.thickness_mm * 0.5;
            for lamp in &self.look.lighting.lamps {
                let [lx, ly, lz] = lamp.position_mm;
                let reach = height_mm / (lz - height_mm).max(1.0);
                let shadow_at = base + Vector2::new(base.x - lx, base.y - ly) * reach;
                // Higher pieces throw fainter shadows.
                let strength = 0.5 * self.lamp_share() / (1.0 + piece.z as f32 / 40.0);
                let (placement, travel) = self.motion(shadow_at, velocity, 1.0);
                dirty.extend(sprite::darken(canvas, soft, &placement, travel, strength));
            }
        }
        let scale_at = |h: f64| camera_height / (camera_height - h).max(1.0);
        for piece in &visible {
            let sprites = self.disc_sprites(piece);
            let base = Point2::new(piece.x, piece.y);
            let velocity = Vector2::new(piece.vx, piece.vy);
            let bottom = self.camera.parallax_on_board(base, piece.z);
            let top_height = piece.z + sprites.thickness_mm;
            let top = self.camera.parallax_on_board(base, top_height);
            // The side wall: the disc's outline swept from its foot to its top.
            for k in 0..3 {
                let t = f64::from(k) / 3.0;
                let at = bottom + (top - bottom) * t;
                let (placement, travel) =
                    self.motion(at, velocity, scale_at(piece.z + sprites.thickness_mm * t));
                dirty.extend(sprite::composite(
                    canvas,
                    &sprites.side,
                    &placement,
                    travel,
                    1.0,
                ));
            }
            let (placement, travel) = self.motion(top, velocity, scale_at(top_height));
            dirty.extend(sprite::composite(
                canvas,
                &sprites.top,
                &placement,
                travel,
                1.0,
            ));
        }
    }

    fn draw_hands(&self, canvas: &mut CanvasPixels, hands: &[HandTruth], dirty: &mut Vec<Rect>) {
        let camera_height = self.camera.centre_mm().z;
        let scale = camera_height / (camera_height - HAND_HEIGHT_MM).max(1.0);
        for hand in hands {
            let tip = Point2::new(hand.x, hand.y);
            // The forearm runs from the fingertip towards the player; canvas
            // rows run south, hence the flipped sine.
            let axis = (hand.arm_angle.cos(), -hand.arm_angle.sin());
            for lamp in &self.look.lighting.lamps {
                let [lx, ly, lz] = lamp.position_mm;
                let reach = HAND_HEIGHT_MM / (lz - HAND_HEIGHT_MM).max(1.0);
                let at = tip + Vector2::new(tip.x - lx, tip.y - ly) * reach;
                let placement = Placement {
                    at: self.frame.to_px(at),
                    axis,
                    scale: 1.0,
                };
                let strength = 0.55 * self.lamp_share();
                dirty.extend(sprite::darken(
                    canvas,
                    &self.hand.shadow,
                    &placement,
                    (0.0, 0.0),
                    strength,
                ));
            }
            let seen = self.camera.parallax_on_board(tip, HAND_HEIGHT_MM * 0.3);
            let placement = Placement {
                at: self.frame.to_px(seen),
                axis,
                scale,
            };
            dirty.extend(sprite::composite(
                canvas,
                &self.hand.hand,
                &placement,
                (0.0, 0.0),
                1.0,
            ));
        }
    }
}

fn to_i32(value: usize) -> Result<i32, RenderError> {
    i32::try_from(value).map_err(|_| RenderError::TooLarge(value))
}
