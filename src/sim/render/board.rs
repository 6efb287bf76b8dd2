//! The still part of the scene painted once per clip in a top-view canvas of
//! the board plane: the table around the board, the wooden frame (seen in
//! perspective, its inner wall showing), the plywood with its grain and
//! powder, the pocket holes, the printed markings, the centre design and the
//! brand lettering.

use nalgebra::{Matrix3, Point2, Vector3};
use opencv::core::{
    self, Mat, MatTraitConst, MatTraitConstManual, MatTraitManual, Point, Rect, Scalar, Size,
    Vector, CV_8UC1, CV_8UC3,
};
use opencv::imgproc;
use rayon::prelude::*;

use super::appearance::{Appearance, Bgr, DecorStyle, SurroundingsKind};
use super::texture::{cell_value, fbm, value_noise};
use super::RenderError;
use crate::geometry::spec::{
    CENTRE_CIRCLE_RADIUS_MM, FRAME_INNER_CORNER_RADIUS_MM, HALF_SURFACE_MM, OUTER_CIRCLE_RADIUS_MM,
    POCKET_RADIUS_MM,
};
use crate::geometry::{pocket_centre, Pocket};
use crate::sim::camera::Camera;
use crate::template::{self, colours, TemplateFrame, TemplateOptions, MIN_PX_PER_MM};

/// The mapping between board millimetres and canvas pixels. Pixel centres
/// sit at integer coordinates; +y (north) is up.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CanvasFrame {
    /// Canvas pixels per board millimetre.
    pub px_per_mm: f64,
    /// Board x of the centre of pixel column 0.
    pub left_mm: f64,
    /// Board y of the centre of pixel row 0.
    pub top_mm: f64,
    pub width: usize,
    pub height: usize,
}

impl CanvasFrame {
    /// Canvas pixel (column, row) of a board point.
    pub fn to_px(&self, board: Point2<f64>) -> (f64, f64) {
        (
            (board.x - self.left_mm) * self.px_per_mm,
            (self.top_mm - board.y) * self.px_per_mm,
        )
    }

    /// Board point at a canvas pixel position.
    pub fn to_board(&self, column: f64, row: f64) -> Point2<f64> {
        Point2::new(
            self.left_mm + column / self.px_per_mm,
            self.top_mm - row / self.px_per_mm,
        )
    }

    /// Whole-pixel offset of a template drawn at the same scale: template
    /// pixel (c, r) is canvas pixel (c + x, r + y). The canvas is built
    /// aligned to the template grid, so the offset is exact.
    pub fn template_offset(&self, template: &TemplateFrame) -> (i64, i64) {
        let (column, row) = self.to_px(Point2::origin());
        (
            (column - template.origin.x).round() as i64,
            (row - template.origin.y).round() as i64,
        )
    }

    /// The canvas that covers everything the camera sees, at a resolution
    /// of `sharpness` canvas pixels per image pixel at the board centre.
    pub fn covering(camera: &Camera, sharpness: f64) -> Result<CanvasFrame, RenderError> {
        let (w, h) = (f64::from(camera.width()), f64::from(camera.height()));
        let mut min = Point2::new(f64::INFINITY, f64::INFINITY);
        let mut max = Point2::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
        const STEPS: usize = 32;
        for i in 0..=STEPS {
            let t = i as f64 / STEPS as f64;
            for image in [
                Point2::new(t * w, 0.0),
                Point2::new(t * w, h),
                Point2::new(0.0, t * h),
                Point2::new(w, t * h),
            ] {
                let board = camera.image_to_board(image)?;
                min = Point2::new(min.x.min(board.x), min.y.min(board.y));
                max = Point2::new(max.x.max(board.x), max.y.max(board.y));
            }
        }
        // The image of one board millimetre at the centre.
        let centre = camera.board_to_image(Point2::origin())?;
        let east = camera.board_to_image(Point2::new(1.0, 0.0))?;
        let north = camera.board_to_image(Point2::new(0.0, 1.0))?;
        let image_px_per_mm = 0.5 * ((east - centre).norm() + (north - centre).norm());
        let px_per_mm = (image_px_per_mm * sharpness).clamp(MIN_PX_PER_MM, 4.0);
        // Far corners of a tilted view can reach a long way; nothing out there
        // matters, so the canvas stops at a few board widths.
        let limit = 2000.0;
        let margin = 20.0;
        let (left, right) = ((min.x - margin).max(-limit), (max.x + margin).min(limit));
        let (bottom, top) = ((min.y - margin).max(-limit), (max.y + margin).min(limit));
        // Snap the grid so the board centre falls where it does in a template
        // drawn at this scale: markings then copy pixel for pixel.
        let template = TemplateFrame::for_scale(px_per_mm)?;
        let snap = |extent: f64, origin: f64| {
            let fraction = origin - origin.floor();
            ((extent * px_per_mm - fraction).ceil() + fraction) / px_per_mm
        };
        let left = -snap(-left, template.origin.x);
        let top = snap(top, template.origin.y);
        let width = ((right - left) * px_per_mm).ceil() as usize + 1;
        let height = ((top - bottom) * px_per_mm).ceil() as usize + 1;
        Ok(CanvasFrame {
            px_per_mm,
            left_mm: left,
            top_mm: top,
            width,
            height,
        })
    }
}

/// Coverage of a pixel by a shape, from the signed distance (mm, negative
/// inside) of its centre to the shape's edge: a one-pixel ramp, which
/// anti-aliases every edge.
fn coverage(signed_distance_mm: f64, px_per_mm: f64) -> f32 {
    (0.5 - signed_distance_mm * px_per_mm).clamp(0.0, 1.0) as f32
}

/// Signed distance from a point to a square of half side `half` centred on
/// the origin with corners rounded to `radius` (negative inside).
fn rounded_square_distance(p: Point2<f64>, half: f64, radius: f64) -> f64 {
    let qx = p.x.abs() - (half - radius);
    let qy = p.y.abs() - (half - radius);
    let outside = qx.max(0.0).hypot(qy.max(0.0));
    outside + qx.max(qy).min(0.0) - radius
}

fn mix(a: Bgr, b: Bgr, t: f32) -> Bgr {
    [0, 1, 2].map(|c| a[c] + (b[c] - a[c]) * t)
}

fn scale(a: Bgr, s: f32) -> Bgr {
    a.map(|v| v * s)
}

fn smoothstep(edge0: f32, edge1: f32, x: f32) -> f32 {
    let t = ((x - edge0) / (edge1 - edge0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// Paints the still scene. Returns the BGR canvas.
pub fn paint(look: &Appearance, camera: &Camera, frame: &CanvasFrame) -> Result<Mat, RenderError> {
    let (rows, cols) = (to_i32(frame.height)?, to_i32(frame.width)?);
    let mut ink = Mat::new_rows_cols_with_default(rows, cols, CV_8UC3, Scalar::all(255.0))?;
    draw_markings(&mut ink, look, frame)?;
    draw_decor(&mut ink, look, frame)?;
    draw_surface_lettering(&mut ink, look, frame)?;
    let mut decal = Mat::new_rows_cols_with_default(rows, cols, CV_8UC3, Scalar::all(0.0))?;
    let mut decal_mask = Mat::new_rows_cols_with_default(rows, cols, CV_8UC1, Scalar::all(0.0))?;
    draw_frame_lettering(&mut decal, &mut decal_mask, look, frame)?;

    let mut canvas = Mat::new_rows_cols_with_default(rows, cols, CV_8UC3, Scalar::all(0.0))?;
    let ink_bytes = ink.data_bytes()?;
    let decal_bytes = decal.data_bytes()?;
    let decal_mask_bytes = decal_mask.data_bytes()?;
    let nadir = camera.centre_mm();
    let painter = Painter {
        look,
        frame: *frame,
        camera_height: nadir.z,
        nadir: Point2::new(nadir.x, nadir.y),
    };
    let row_len = frame.width * 3;
    canvas
        .data_bytes_mut()?
        .par_chunks_mut(row_len)
        .enumerate()
        .for_each(|(row, out)| {
            for column in 0..frame.width {
                let i = row * frame.width + column;
                let ink_px = [ink_bytes[3 * i], ink_bytes[3 * i + 1], ink_bytes[3 * i + 2]];
                let colour =
                    painter.colour_at(column, row, ink_px, (decal_bytes, decal_mask_bytes));
                for c in 0..3 {
                    out[3 * column + c] = colour[c].round().clamp(0.0, 255.0) as u8;
                }
            }
        });
    Ok(canvas)
}

fn to_i32(value: usize) -> Result<i32, RenderError> {
    i32::try_from(value).map_err(|_| RenderError::TooLarge(value))
}

/// Per-pixel colour of the still scene.
struct Painter<'a> {
    look: &'a Appearance,
    frame: CanvasFrame,
    camera_height: f64,
    nadir: Point2<f64>,
}

impl Painter<'_> {
    fn colour_at(&self, column: usize, row: usize, ink: [u8; 3], decal: (&[u8], &[u8])) -> Bgr {
        let s = self.frame.px_per_mm;
        let q = self.frame.to_board(column as f64, row as f64);
        let look = self.look;
        let frame_look = &look.frame;
        // The frame's top is raised: the camera sees it where its ray meets
        // the board plane, pushed outwards from the nadir, and sees the frame's
        // inner wall between the top's inner edge and the playing surface.
        let lift = (self.camera_height - frame_look.height_mm) / self.camera_height;
        let top = Point2::new(
            self.nadir.x + (q.x - self.nadir.x) * lift,
            self.nadir.y + (q.y - self.nadir.y) * lift,
        );
        let outer_half = HALF_SURFACE_MM + frame_look.width_mm;
        let surface_distance =
            rounded_square_distance(q, HALF_SURFACE_MM, FRAME_INNER_CORNER_RADIUS_MM);

        let mut colour = self.surroundings(q);
        let frame_cover = coverage(rounded_square_distance(top, outer_half, 3.0), s);
        if frame_cover > 0.0 {
            let inner_distance =
                rounded_square_distance(top, HALF_SURFACE_MM, FRAME_INNER_CORNER_RADIUS_MM);
            let top_cover = coverage(-inner_distance, s);
            let mut wood = self.frame_top(top, inner_distance, outer_half);
            if let Some(decal_colour) = self.decal_at(top, decal) {
                wood = mix(wood, decal_colour.0, decal_colour.1);
            }
            let wall = self.frame_wall(surface_distance);
            colour = mix(colour, mix(wall, wood, top_cover), frame_cover);
        }
        let surface_cover = coverage(surface_distance, s);
        if surface_cover > 0.0 {
            let mut surface = self.plywood(q);
            for c in 0..3 {
                surface[c] *= f32::from(ink[c]) / 255.0;
            }
            let pocket = Pocket::ALL
                .iter()
                .map(|&p| (q - pocket_centre(p)).norm() - POCKET_RADIUS_MM)
                .fold(f64::INFINITY, f64::min);
            let hole_cover = coverage(pocket, s);
            if hole_cover > 0.0 {
                surface = mix(surface, self.pocket_inside(q, pocket), hole_cover);
            }
            colour = mix(colour, surface, surface_cover);
        }
        colour
    }

    fn surroundings(&self, q: Point2<f64>) -> Bgr {
        let look = &self.look.surroundings;
        let seed = self.look.seed ^ 0x5EED_0001;
        let (x, y) = (q.x as f32, q.y as f32);
        let mottle = 1.0 + 0.12 * (fbm(seed, x * 0.004, y * 0.004, 3) - 0.5);
        let pattern = look.pattern_mm.max(1.0);
        match look.kind {
            SurroundingsKind::Tiles => {
                let (tx, ty) = ((x / pattern).floor(), (y / pattern).floor());
                let (fx, fy) = (x / pattern - tx, y / pattern - ty);
                let grout = 3.0 / pattern;
                let tone = 1.0 + 0.08 * (cell_value(seed, tx as i64, ty as i64) - 0.5);
                if fx < grout || fy < grout {
                    look.accent
                } else {
                    scale(look.colour, tone * mottle)
                }
            }
            SurroundingsKind::Planks => {
                let plank = (y / pattern).floor();
                let fy = y / pattern - plank;
                let offset = cell_value(seed, 0, plank as i64) * 2000.0;
                let joint = ((x + offset) / 1200.0).fract();
                let tone = 1.0 + 0.2 * (cell_value(seed, 1, plank as i64) - 0.5);
                let grain = 1.0 - 0.12 * value_noise(seed, (x + offset) * 0.01, y * 0.4);
                if fy < 0.03 || joint < 0.003 {
                    look.accent
                } else {
                    scale(look.colour, tone * grain * mottle)
                }
            }
            SurroundingsKind::Cloth => {
                let weave = 1.0 + 0.08 * (value_noise(seed, x / pattern, y / pattern) - 0.5);
                let folds = 1.0 + 0.2 * (fbm(seed ^ 7, x * 0.002, y * 0.0015, 2) - 0.5);
                scale(look.colour, weave * folds * mottle)
            }
            SurroundingsKind::Plain => {
                let fine = 1.0 + 0.06 * (value_noise(seed, x * 0.3, y * 0.3) - 0.5);
                scale(
                    look.colour,
                    fine * mottle
                        * (1.0 + 0.1 * (fbm(seed ^ 3, x / pattern, y / pattern, 2) - 0.5)),
                )
            }
        }
    }

    /// The top of the frame at a board point of the raised top.
    fn frame_top(&self, p: Point2<f64>, inner_distance: f64, outer_half: f64) -> Bgr {
        let look = &self.look.frame;
        let seed = self.look.seed ^ 0xF4A3;
        // Each strip's grain runs along it; the strips meet in mitre joints.
        let along_y = p.x.abs() > p.y.abs();
        let (along, across) = if along_y {
            (p.y as f32, p.x as f32)
        } else {
            (p.x as f32, p.y as f32)
        };
        let warp = 4.0 * fbm(seed, along * 0.004, across * 0.05, 2);
        let grain = ((across + warp) / 2.2).fract();
        let line = smoothstep(0.6, 0.95, grain) * (1.0 - smoothstep(0.95, 1.0, grain));
        let tone = 1.0 + 0.25 * (fbm(seed ^ 1, along * 0.01, across * 0.1, 3) - 0.5);
        let mut colour = scale(look.colour, tone * (1.0 - look.grain_contrast * line));
        // Lacquered edges catch the light: a bright bevel along the inner
        // edge and a darker outer rim.
        let from_inner = inner_distance as f32;
        let bevel = smoothstep(0.0, 1.5, from_inner) * (1.0 - smoothstep(2.0, 5.0, from_inner));
        colour = mix(
            colour,
            scale(look.colour, 2.6).map(|v| v.min(255.0)),
            0.35 * bevel,
        );
        let from_outer = (outer_half - p.x.abs().max(p.y.abs())) as f32;
        colour = scale(colour, 0.75 + 0.25 * smoothstep(0.0, 4.0, from_outer));
        let mitre = ((p.x.abs() - p.y.abs()).abs() / std::f64::consts::SQRT_2) as f32;
        if mitre < 0.6 && inner_distance > 0.0 {
            colour = scale(colour, 0.7);
        }
        colour
    }

    /// The frame's inner wall, seen between the top's edge and the surface.
    fn frame_wall(&self, surface_distance: f64) -> Bgr {
        let depth = (surface_distance as f32 / 8.0).clamp(0.0, 1.0);
        scale(self.look.frame.colour, 0.45 + 0.25 * depth)
    }

    /// Lettering painted on the frame top, sampled at the raised top point.
    fn decal_at(&self, p: Point2<f64>, (colours, mask): (&[u8], &[u8])) -> Option<(Bgr, f32)> {
        let (u, v) = self.frame.to_px(p);
        let (u, v) = (u.round(), v.round());
        if u < 0.0 || v < 0.0 || u >= self.frame.width as f64 || v >= self.frame.height as f64 {
            return None;
        }
        let i = v as usize * self.frame.width + u as usize;
        let alpha = f32::from(*mask.get(i)?) / 255.0;
        if alpha <= 0.0 {
            return None;
        }
        Some((
            [
                f32::from(colours[3 * i]),
                f32::from(colours[3 * i + 1]),
                f32::from(colours[3 * i + 2]),
            ],
            alpha,
        ))
    }

    fn plywood(&self, q: Point2<f64>) -> Bgr {
        let look = &self.look.plywood;
        let seed = self.look.seed ^ 0x9A1D;
        let (x, y) = (q.x as f32, q.y as f32);
        let (along, across) = if look.grain_along_x { (x, y) } else { (y, x) };
        // Rotary-cut veneer: long wavy lines whose spacing drifts.
        let warp =
            (fbm(seed, along * 0.0025, across * 0.006, 3) - 0.5) * 2.0 * look.waviness * 45.0;
        let phase = (across + warp) / look.grain_spacing_mm
            + 0.8 * fbm(seed ^ 2, along * 0.01, across * 0.03, 2);
        let f = phase.fract();
        let late_wood = smoothstep(0.55, 0.85, f) * (1.0 - smoothstep(0.88, 1.0, f));
        let tone = 1.0 + 0.10 * (fbm(seed ^ 3, x * 0.004, y * 0.004, 3) - 0.5);
        let fibre = 1.0 + 0.05 * (value_noise(seed ^ 4, along * 0.05, across * 1.3) - 0.5);
        let shade = tone * fibre;
        let line = look.grain_contrast * late_wood;
        // Late wood is darker and more saturated: blue drops most.
        let mut colour = [
            look.base[0] * shade * (1.0 - 1.4 * line),
            look.base[1] * shade * (1.0 - 1.1 * line),
            look.base[2] * shade * (1.0 - 0.8 * line),
        ];
        let powder = self.look.powder;
        if powder > 0.0 {
            let haze = powder * smoothstep(0.35, 0.8, fbm(seed ^ 5, x * 0.006, y * 0.006, 4));
            colour = mix(colour, [222.0, 226.0, 229.0], 0.3 * haze);
            if cell_value(seed ^ 6, (x * 1.3) as i64, (y * 1.3) as i64) > 1.0 - 0.03 * powder {
                colour = scale(colour, 1.08);
            }
        }
        colour
    }

    /// Looking into a pocket hole: dark, with the cut plywood wall showing on
    /// the rim.
    fn pocket_inside(&self, q: Point2<f64>, distance_to_rim: f64) -> Bgr {
        let rim = (-distance_to_rim as f32 / 4.0).clamp(0.0, 1.0);
        let wall = scale(self.look.plywood.base, 0.35);
        let deep = [12.0, 12.0, 14.0];
        let _ = q;
        mix(wall, deep, smoothstep(0.0, 1.0, rim))
    }
}

/// Colour as an OpenCV scalar.
fn scalar(colour: Bgr) -> Scalar {
    Scalar::new(
        f64::from(colour[0]),
        f64::from(colour[1]),
        f64::from(colour[2]),
        0.0,
    )
}

/// Sub-pixel drawing: OpenCV takes fixed-point coordinates with this many
/// fractional bits.
const SHIFT: i32 = 4;

fn fixed(frame: &CanvasFrame, board: Point2<f64>) -> Point {
    let (u, v) = frame.to_px(board);
    let unit = f64::from(1 << SHIFT);
    Point::new((u * unit).round() as i32, (v * unit).round() as i32)
}

fn fixed_len(frame: &CanvasFrame, mm: f64) -> i32 {
    (mm * frame.px_per_mm * f64::from(1 << SHIFT)).round() as i32
}

/// Every ICF marking, copied from the exact `template` drawing and re-inked
/// in this board's colours, onto the white ink layer.
///
/// Each template pixel is a blend (anti-aliased edges) of the template's
/// surface, ink and red; solving for the three weights and mixing white,
/// this board's line ink and its red with them keeps the template's exact
/// geometry and edge coverage.
fn draw_markings(ink: &mut Mat, look: &Appearance, frame: &CanvasFrame) -> Result<(), RenderError> {
    let drawn = template::draw_board(&TemplateOptions {
        px_per_mm: frame.px_per_mm,
        arrangement_for: None,
    })?;
    let (offset_x, offset_y) = frame.template_offset(&drawn.frame);
    let side = drawn.frame.side_px() as i64;
    let basis = Matrix3::from_columns(&[
        Vector3::from(colours::SURFACE.map(f64::from)),
        Vector3::from(colours::INK.map(f64::from)),
        Vector3::from(colours::RED.map(f64::from)),
    ]);
    // The three template colours are far apart, so the basis is invertible;
    // if a future palette made it singular, the markings would be skipped
    // rather than smeared.
    let Some(unmix) = basis.try_inverse() else {
        return Ok(());
    };
    let paper = Vector3::new(255.0, 255.0, 255.0);
    let line = Vector3::from(look.ink.line.map(f64::from));
    let red = Vector3::from(look.ink.red.map(f64::from));
    let source = drawn.image.data_bytes()?;
    let width = frame.width;
    let bytes = ink.data_bytes_mut()?;
    let half = HALF_SURFACE_MM * frame.px_per_mm;
    for row in 0..frame.height {
        let ty = row as i64 - offset_y;
        if ty < 0 || ty >= side {
            continue;
        }
        for column in 0..width {
            let tx = column as i64 - offset_x;
            if tx < 0 || tx >= side {
                continue;
            }
            let (u, v) = (
                tx as f64 - drawn.frame.origin.x,
                ty as f64 - drawn.frame.origin.y,
            );
            if u.abs() > half || v.abs() > half {
                continue;
            }
            let i = 3 * (ty as usize * side as usize + tx as usize);
            let px = Vector3::new(
                f64::from(source[i]),
                f64::from(source[i + 1]),
                f64::from(source[i + 2]),
            );
            let w = unmix * px;
            let (surface, ink_w, red_w) = (w.x.max(0.0), w.y.max(0.0), w.z.max(0.0));
            let total = (surface + ink_w + red_w).max(1e-6);
            let colour = (paper * surface + line * ink_w + red * red_w) / total;
            let o = 3 * (row * width + column);
            for c in 0..3 {
                bytes[o + c] = colour[c].round().clamp(0.0, 255.0) as u8;
            }
        }
    }
    Ok(())
}

/// The decorative star or rosette inside the outer circle.
fn draw_decor(ink: &mut Mat, look: &Appearance, frame: &CanvasFrame) -> Result<(), RenderError> {
    let decor = &look.decor;
    let outer = OUTER_CIRCLE_RADIUS_MM * decor.radius_mm;
    let inner = CENTRE_CIRCLE_RADIUS_MM + 2.0;
    if outer <= inner + 5.0 {
        return Ok(());
    }
    let at = |radius: f64, angle: f64| Point2::new(radius * angle.cos(), radius * angle.sin());
    let polygon = |ink: &mut Mat, points: &[Point2<f64>], colour: Bgr| -> Result<(), RenderError> {
        let pts: Vector<Point> = points.iter().map(|&p| fixed(frame, p)).collect();
        imgproc::fill_convex_poly(ink, &pts, scalar(colour), imgproc::LINE_AA, SHIFT)?;
        Ok(())
    };
    let turn = f64::from(look.seed as u32 % 360).to_radians();
    match decor.style {
        DecorStyle::None => {}
        DecorStyle::Star { points } => {
            let n = f64::from(points.max(3));
            let half = std::f64::consts::PI / n;
            for k in 0..points {
                let a = turn + f64::from(k) * 2.0 * half;
                let tip = at(outer, a);
                let axis = at(inner, a);
                // Two halves of each point in two inks: a bevelled star.
                polygon(ink, &[axis, at(inner, a - half), tip], decor.primary)?;
                polygon(ink, &[axis, at(inner, a + half), tip], decor.secondary)?;
            }
        }
        DecorStyle::Rosette { petals } => {
            let n = f64::from(petals.max(3));
            for k in 0..petals {
                let a = turn + f64::from(k) * std::f64::consts::TAU / n;
                let centre = at((inner + outer) / 2.0, a);
                let (u, v) = frame.to_px(centre);
                let unit = f64::from(1 << SHIFT);
                let axes = Size::new(
                    fixed_len(frame, (outer - inner) / 2.0),
                    fixed_len(frame, (outer - inner) * 0.18),
                );
                let colour = if k % 2 == 0 {
                    decor.primary
                } else {
                    decor.secondary
                };
                imgproc::ellipse(
                    ink,
                    Point::new((u * unit).round() as i32, (v * unit).round() as i32),
                    axes,
                    -a.to_degrees(),
                    0.0,
                    360.0,
                    scalar(colour),
                    -1,
                    imgproc::LINE_AA,
                    SHIFT,
                )?;
            }
        }
        DecorStyle::Compass => {
            for k in 0..8u8 {
                let a = turn + f64::from(k) * std::f64::consts::FRAC_PI_4;
                let reach = if k % 2 == 0 { outer } else { outer * 0.6 };
                let half = std::f64::consts::PI / 8.0;
                polygon(
                    ink,
                    &[Point2::origin(), at(inner * 1.6, a - half), at(reach, a)],
                    decor.primary,
                )?;
                polygon(
                    ink,
                    &[Point2::origin(), at(inner * 1.6, a + half), at(reach, a)],
                    decor.secondary,
                )?;
            }
        }
    }
    Ok(())
}

/// A line of printed text.
struct Lettering<'a> {
    text: &'a str,
    /// Board point the text is centred on.
    centre: Point2<f64>,
    /// Height of the capitals, mm.
    height_mm: f64,
    /// OpenCV Hershey font.
    font: i32,
    colour: Bgr,
    /// Counter-clockwise quarter turns from reading left to right.
    quarter_turns: u8,
}

/// Draws the lettering's glyphs into a tile, turns it and paints it into
/// `layer` (and its coverage into `mask`, when given).
fn stamp_text(
    layer: &mut Mat,
    mask: Option<&mut Mat>,
    frame: &CanvasFrame,
    lettering: &Lettering,
) -> Result<(), RenderError> {
    let Lettering {
        text,
        centre,
        height_mm,
        font,
        colour,
        quarter_turns,
    } = *lettering;
    let glyph_px = (height_mm * frame.px_per_mm).max(4.0);
    let mut baseline = 0;
    let unit_size = imgproc::get_text_size(text, font, 1.0, 1, &mut baseline)?;
    let font_scale = glyph_px / f64::from(unit_size.height.max(1));
    let weight = ((font_scale * 1.6).round() as i32).max(1);
    let size = imgproc::get_text_size(text, font, font_scale, weight, &mut baseline)?;
    let (tw, th) = (size.width + 4, size.height + baseline + 4);
    // A mask of the glyphs (white on black), turned, then used to paint.
    let mut tile = Mat::new_rows_cols_with_default(th, tw, CV_8UC1, Scalar::all(0.0))?;
    imgproc::put_text(
        &mut tile,
        text,
        Point::new(2, size.height + 2),
        font,
        font_scale,
        Scalar::all(255.0),
        weight,
        imgproc::LINE_AA,
        false,
    )?;
    let tile = match quarter_turns % 4 {
        0 => tile,
        turns => {
            let code = match turns {
                1 => core::ROTATE_90_COUNTERCLOCKWISE,
                2 => core::ROTATE_180,
                _ => core::ROTATE_90_CLOCKWISE,
            };
            let mut turned = Mat::default();
            core::rotate(&tile, &mut turned, code)?;
            turned
        }
    };
    let (cu, cv) = frame.to_px(centre);
    let (tw, th) = (tile.cols(), tile.rows());
    let x0 = cu.round() as i32 - tw / 2;
    let y0 = cv.round() as i32 - th / 2;
    let bounds = Rect::new(0, 0, layer.cols(), layer.rows());
    let target = Rect::new(x0, y0, tw, th) & bounds;
    if target.width <= 0 || target.height <= 0 {
        return Ok(());
    }
    let glyphs = tile.data_bytes()?.to_vec();
    let layer_cols = layer.cols() as usize;
    let mut mask = mask;
    for y in target.y..target.y + target.height {
        for x in target.x..target.x + target.width {
            let a = f32::from(glyphs[((y - y0) * tw + (x - x0)) as usize]) / 255.0;
            if a <= 0.0 {
                continue;
            }
            let i = y as usize * layer_cols + x as usize;
            let bytes = layer.data_bytes_mut()?;
            for c in 0..3 {
                let old = f32::from(bytes[3 * i + c]);
                bytes[3 * i + c] = (old + (colour[c] - old) * a).round().clamp(0.0, 255.0) as u8;
            }
            if let Some(mask) = mask.as_deref_mut() {
                let m = mask.data_bytes_mut()?;
                m[i] = m[i].max((a * 255.0) as u8);
            }
        }
    }
    Ok(())
}

/// A small script brand and a "made in" line on the plywood.
fn draw_surface_lettering(
    ink: &mut Mat,
    look: &Appearance,
    frame: &CanvasFrame,
) -> Result<(), RenderError> {
    let brand = &look.brand;
    // Inside the square of base lines, beside two opposite inner lines.
    let beside = HALF_SURFACE_MM * 0.6;
    if brand.script_on_surface {
        let name = title_case(&brand.name);
        stamp_text(
            ink,
            None,
            frame,
            &Lettering {
                text: &name,
                centre: Point2::new(beside, 0.0),
                height_mm: 12.0,
                font: imgproc::FONT_HERSHEY_SCRIPT_SIMPLEX,
                colour: look.ink.red,
                quarter_turns: 1,
            },
        )?;
    }
    if let Some(made_in) = &brand.made_in {
        stamp_text(
            ink,
            None,
            frame,
            &Lettering {
                text: made_in,
                centre: Point2::new(-beside, 0.0),
                height_mm: 5.0,
                font: imgproc::FONT_HERSHEY_SIMPLEX,
                colour: look.ink.line,
                quarter_turns: 1,
            },
        )?;
    }
    Ok(())
}

/// The brand in large letters on the south and north frame strips.
fn draw_frame_lettering(
    decal: &mut Mat,
    mask: &mut Mat,
    look: &Appearance,
    frame: &CanvasFrame,
) -> Result<(), RenderError> {
    let brand = &look.brand;
    if !brand.on_frame {
        return Ok(());
    }
    let middle = HALF_SURFACE_MM + look.frame.width_mm / 2.0;
    let height = look.frame.width_mm * 0.4;
    stamp_text(
        decal,
        Some(mask),
        frame,
        &Lettering {
            text: &brand.name,
            centre: Point2::new(0.0, -middle),
            height_mm: height,
            font: imgproc::FONT_HERSHEY_DUPLEX,
            colour: brand.frame_text,
            quarter_turns: 0,
        },
    )?;
    stamp_text(
        decal,
        Some(mask),
        frame,
        &Lettering {
            text: &brand.name,
            centre: Point2::new(0.0, middle),
            height_mm: height,
            font: imgproc::FONT_HERSHEY_DUPLEX,
            colour: brand.frame_text,
            quarter_turns: 2,
        },
    )?;
    Ok(())
}

fn title_case(name: &str) -> String {
    name.split(' ')
        .map(|word| {
            let mut chars = word.chars();
            match chars.next() {
                Some(first) => first
                    .to_uppercase()
                    .chain(chars.flat_map(|c| c.to_lowercase()))
                    .collect(),
                None => String::new(),
            }
        })
        .collect::<Vec<String>>()
        .join(" ")
}
