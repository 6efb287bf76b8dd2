//! Small pictures painted once per clip (each coin, the striker, a hand, soft
//! shadows) and composited into the board canvas every frame at sub-pixel
//! positions, turned and scaled, with motion blur by averaging placements.

use opencv::core::{Mat, MatTraitConstManual, Point, Rect, Scalar, Size, Vector, CV_32F, CV_8UC1};
use opencv::imgproc;

use super::appearance::{Appearance, Bgr, StrikerPrint, WhiteStyle};
use super::texture::{cell_value, value_noise};
use super::RenderError;
use crate::geometry::Piece;

/// A premultiplied blue-green-red-alpha picture with an anchor point.
#[derive(Debug, Clone)]
pub struct Sprite {
    width: usize,
    height: usize,
    /// Sprite pixel position that lands on the placement point.
    pivot: (f64, f64),
    /// For round sprites: the radius (sprite px, from the pivot) outside
    /// which they are transparent; lets a moving disc be smeared in one pass.
    reach: Option<f64>,
    /// Premultiplied colour and coverage, row-major.
    pixels: Vec<[f32; 4]>,
}

/// Where a sprite goes in the canvas: its pivot at `at` (canvas pixels), its
/// +x axis along the unit vector `axis`, enlarged by `scale`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placement {
    pub at: (f64, f64),
    pub axis: (f64, f64),
    pub scale: f64,
}

impl Placement {
    /// Unrotated, unscaled at a canvas position.
    pub fn at(at: (f64, f64)) -> Placement {
        Placement {
            at,
            axis: (1.0, 0.0),
            scale: 1.0,
        }
    }

    /// The affine map from canvas to sprite coordinates, as
    /// `(sx, sy) = (c0 + cx·x + cy·y, d0 + dx·x + dy·y)`.
    fn inverse(&self, sprite: &Sprite) -> [f64; 6] {
        let (ax, ay) = self.axis;
        let k = 1.0 / self.scale;
        let (px, py) = self.at;
        [
            sprite.pivot.0 - (px * ax + py * ay) * k,
            ax * k,
            ay * k,
            sprite.pivot.1 - (-px * ay + py * ax) * k,
            -ay * k,
            ax * k,
        ]
    }

    /// Canvas-pixel bounds (min x, min y, max x, max y) of the placed sprite.
    fn bounds(&self, sprite: &Sprite) -> (f64, f64, f64, f64) {
        let (ax, ay) = self.axis;
        let corners = [
            (0.0, 0.0),
            (sprite.width as f64, 0.0),
            (0.0, sprite.height as f64),
            (sprite.width as f64, sprite.height as f64),
        ];
        let mut b = (
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        );
        for (sx, sy) in corners {
            let (lx, ly) = (
                (sx - sprite.pivot.0) * self.scale,
                (sy - sprite.pivot.1) * self.scale,
            );
            let x = self.at.0 + lx * ax - ly * ay;
            let y = self.at.1 + lx * ay + ly * ax;
            b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y));
        }
        b
    }
}

impl Sprite {
    /// A sprite of `width`×`height` pixels from a per-pixel painter that
    /// returns straight (not premultiplied) colour and coverage.
    fn paint(
        width: usize,
        height: usize,
        pivot: (f64, f64),
        mut paint: impl FnMut(f64, f64) -> (Bgr, f32),
    ) -> Sprite {
        let mut pixels = Vec::with_capacity(width * height);
        for row in 0..height {
            for column in 0..width {
                let (colour, alpha) = paint(column as f64, row as f64);
                let a = alpha.clamp(0.0, 1.0);
                pixels.push([colour[0] * a, colour[1] * a, colour[2] * a, a]);
            }
        }
        Sprite {
            width,
            height,
            pivot,
            reach: None,
            pixels,
        }
    }

    /// Marks the sprite as a disc transparent beyond `reach` sprite pixels.
    fn round(mut self, reach: f64) -> Sprite {
        self.reach = Some(reach);
        self
    }

    /// Bilinear sample (premultiplied); transparent outside.
    #[inline]
    fn sample(&self, x: f64, y: f64) -> [f32; 4] {
        let (fx, fy) = (x.floor(), y.floor());
        let (tx, ty) = ((x - fx) as f32, (y - fy) as f32);
        let (x0, y0) = (fx as i64, fy as i64);
        let get = |cx: i64, cy: i64| -> [f32; 4] {
            if cx < 0 || cy < 0 || cx >= self.width as i64 || cy >= self.height as i64 {
                [0.0; 4]
            } else {
                self.pixels[cy as usize * self.width + cx as usize]
            }
        };
        let (a, b, c, d) = (
            get(x0, y0),
            get(x0 + 1, y0),
            get(x0, y0 + 1),
            get(x0 + 1, y0 + 1),
        );
        let mut out = [0.0; 4];
        for k in 0..4 {
            let top = a[k] + (b[k] - a[k]) * tx;
            let bottom = c[k] + (d[k] - c[k]) * tx;
            out[k] = top + (bottom - top) * ty;
        }
        out
    }
}

/// A mutable view of an 8-bit BGR canvas.
pub struct CanvasPixels<'a> {
    pub bytes: &'a mut [u8],
    pub width: usize,
    pub height: usize,
}

impl CanvasPixels<'_> {
    /// Whole-pixel rectangle of canvas-pixel bounds, clipped to the canvas.
    fn clip(&self, (x0, y0, x1, y1): (f64, f64, f64, f64)) -> Option<Rect> {
        let x0 = (x0.floor() as i64 - 1).max(0);
        let y0 = (y0.floor() as i64 - 1).max(0);
        let x1 = (x1.ceil() as i64 + 1).min(self.width as i64);
        let y1 = (y1.ceil() as i64 + 1).min(self.height as i64);
        if x1 <= x0 || y1 <= y0 {
            return None;
        }
        Some(Rect::new(
            x0 as i32,
            y0 as i32,
            (x1 - x0) as i32,
            (y1 - y0) as i32,
        ))
    }

    #[inline]
    fn blend(&mut self, x: usize, y: usize, colour: [f32; 3], alpha: f32, mode: Blend) {
        let i = 3 * (y * self.width + x);
        let px = &mut self.bytes[i..i + 3];
        match mode {
            Blend::Over => {
                for c in 0..3 {
                    px[c] = (f32::from(px[c]) * (1.0 - alpha) + colour[c] * alpha)
                        .round()
                        .clamp(0.0, 255.0) as u8;
                }
            }
            Blend::Darken => {
                let keep = 1.0 - alpha.min(1.0);
                for value in px.iter_mut() {
                    *value = (f32::from(*value) * keep).round() as u8;
                }
            }
        }
    }
}

/// How a sprite's coverage changes the canvas.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Blend {
    /// Paint the sprite's colour over the canvas.
    Over,
    /// Darken the canvas by the coverage (a shadow).
    Darken,
}

/// Paints the sprite over the canvas at `opacity`. A round sprite moving by
/// `travel` canvas pixels during the exposure is smeared along it (motion
/// blur); other sprites are drawn still. Returns the rectangle it touched.
pub fn composite(
    canvas: &mut CanvasPixels,
    sprite: &Sprite,
    placement: &Placement,
    travel: (f64, f64),
    opacity: f32,
) -> Option<Rect> {
    draw(canvas, sprite, placement, travel, opacity, Blend::Over)
}

/// Darkens the canvas by the sprite's coverage times `strength` (a shadow),
/// smeared like [`composite`].
pub fn darken(
    canvas: &mut CanvasPixels,
    sprite: &Sprite,
    placement: &Placement,
    travel: (f64, f64),
    strength: f32,
) -> Option<Rect> {
    draw(canvas, sprite, placement, travel, strength, Blend::Darken)
}

fn draw(
    canvas: &mut CanvasPixels,
    sprite: &Sprite,
    placement: &Placement,
    travel: (f64, f64),
    opacity: f32,
    mode: Blend,
) -> Option<Rect> {
    let length = travel.0.hypot(travel.1);
    match sprite.reach {
        Some(reach) if length >= 0.5 => {
            smear(canvas, sprite, placement, travel, reach, opacity, mode)
        }
        _ => stamp(canvas, sprite, placement, opacity, mode),
    }
}

/// A still sprite: only the pixels inside its turned rectangle are visited,
/// row by row.
fn stamp(
    canvas: &mut CanvasPixels,
    sprite: &Sprite,
    placement: &Placement,
    opacity: f32,
    mode: Blend,
) -> Option<Rect> {
    let rect = canvas.clip(placement.bounds(sprite))?;
    let [c0, cx, cy, d0, dx, dy] = placement.inverse(sprite);
    let (w, h) = (sprite.width as f64, sprite.height as f64);
    for y in rect.y..rect.y + rect.height {
        let yf = f64::from(y);
        // sx = a + cx·x, sy = b + dx·x along this row; keep 0 ≤ sx ≤ w, 0 ≤ sy ≤ h.
        let (a, b) = (c0 + cy * yf, d0 + dy * yf);
        let (mut lo, mut hi) = (f64::from(rect.x), f64::from(rect.x + rect.width - 1));
        for (start, slope, limit) in [(a, cx, w), (b, dx, h)] {
            if slope.abs() < 1e-12 {
                if start < -1.0 || start > limit {
                    lo = f64::INFINITY;
                }
            } else {
                let (e0, e1) = ((-1.0 - start) / slope, (limit - start) / slope);
                lo = lo.max(e0.min(e1).floor());
                hi = hi.min(e0.max(e1).ceil());
            }
        }
        if lo > hi {
            continue;
        }
        for x in lo as i32..=hi as i32 {
            let xf = f64::from(x);
            let s = sprite.sample(a + cx * xf, b + dx * xf);
            let alpha = s[3] * opacity;
            if alpha <= 1e-3 {
                continue;
            }
            let colour = [s[0] / s[3], s[1] / s[3], s[2] / s[3]];
            canvas.blend(x as usize, y as usize, colour, alpha, mode);
        }
    }
    Some(rect)
}

/// A round sprite moving along `travel` (centred on its placement) over the
/// exposure, in one pass: a pixel's coverage is the share of the path during
/// which the disc covers it (the chord of the path through the disc around
/// the pixel), its colour the sprite's at the middle of that chord.
fn smear(
    canvas: &mut CanvasPixels,
    sprite: &Sprite,
    placement: &Placement,
    travel: (f64, f64),
    reach: f64,
    opacity: f32,
    mode: Blend,
) -> Option<Rect> {
    let length = travel.0.hypot(travel.1);
    let (ux, uy) = (travel.0 / length, travel.1 / length);
    let radius = reach * placement.scale;
    let (mx, my) = placement.at;
    let half = length / 2.0;
    let bounds = (
        mx - half * ux.abs() - radius,
        my - half * uy.abs() - radius,
        mx + half * ux.abs() + radius,
        my + half * uy.abs() + radius,
    );
    let rect = canvas.clip(bounds)?;
    for y in rect.y..rect.y + rect.height {
        for x in rect.x..rect.x + rect.width {
            let (wx, wy) = (f64::from(x) - mx, f64::from(y) - my);
            let along = wx * ux + wy * uy;
            let across = -wx * uy + wy * ux;
            if across.abs() >= radius {
                continue;
            }
            let chord = (radius * radius - across * across).sqrt();
            let lo = (along - chord).max(-half);
            let hi = (along + chord).min(half);
            if hi <= lo {
                continue;
            }
            let share = ((hi - lo) / length) as f32;
            // Where the disc's centre was half-way through covering the pixel.
            let t = (lo + hi) / 2.0;
            let centre = Placement {
                at: (mx + ux * t, my + uy * t),
                ..*placement
            };
            let [c0, cx, cy, d0, dx, dy] = centre.inverse(sprite);
            let (xf, yf) = (f64::from(x), f64::from(y));
            let s = sprite.sample(c0 + cx * xf + cy * yf, d0 + dx * xf + dy * yf);
            if s[3] <= 1e-3 {
                continue;
            }
            let colour = [s[0] / s[3], s[1] / s[3], s[2] / s[3]];
            canvas.blend(x as usize, y as usize, colour, share * s[3] * opacity, mode);
        }
    }
    Some(rect)
}

fn smoothstep(edge0: f64, edge1: f64, x: f64) -> f64 {
    let t = ((x - edge0) / (edge1 - edge0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

fn scale(colour: Bgr, s: f64) -> Bgr {
    colour.map(|v| (v * s as f32).clamp(0.0, 255.0))
}

fn mix(a: Bgr, b: Bgr, t: f64) -> Bgr {
    let t = t as f32;
    [0, 1, 2].map(|c| a[c] + (b[c] - a[c]) * t)
}

/// A narrow bump of half-width `width` at `centre`.
fn groove(x: f64, centre: f64, width: f64) -> f64 {
    let d = (x - centre) / width;
    (-d * d).exp()
}

/// The picture of one disc's top face and its (darker) side.
#[derive(Debug, Clone)]
pub struct DiscSprites {
    pub top: Sprite,
    pub side: Sprite,
    pub radius_mm: f64,
    pub thickness_mm: f64,
}

/// Paints a piece seen from above at `px_per_mm`. `variant` makes each
/// carromman of a set a little different (tone, grain direction).
pub fn disc_sprites(look: &Appearance, kind: Piece, variant: u32, px_per_mm: f64) -> DiscSprites {
    let (radius_mm, thickness_mm) = match kind {
        Piece::Striker => (look.striker.diameter_mm / 2.0, look.striker.thickness_mm),
        _ => (
            look.carrommen.diameter_mm / 2.0,
            look.carrommen.thickness_mm,
        ),
    };
    let r_px = radius_mm * px_per_mm;
    let size = (2.0 * r_px).ceil() as usize + 4;
    let pivot = (size as f64 / 2.0 - 0.5, size as f64 / 2.0 - 0.5);
    let seed = look.seed ^ (u64::from(variant) << 8) ^ kind as u64;
    let tone = 1.0 + 0.08 * (f64::from(cell_value(seed, 1, 2)) - 0.5);
    let grain_angle = f64::from(cell_value(seed, 3, 4)) * std::f64::consts::PI;
    let top = Sprite::paint(size, size, pivot, |x, y| {
        let (dx, dy) = ((x - pivot.0) / px_per_mm, (y - pivot.1) / px_per_mm);
        let r = dx.hypot(dy);
        let alpha = (0.5 + (radius_mm - r) * px_per_mm).clamp(0.0, 1.0) as f32;
        let f = r / radius_mm;
        let colour = disc_colour(look, kind, seed, f, dx, dy, grain_angle, radius_mm);
        // The chamfered rim: a bright line where it turns, darker outside.
        let rim = 1.0 - 0.35 * smoothstep(0.9, 1.0, f) + 0.12 * groove(f, 0.9, 0.02);
        (scale(colour, tone * rim), alpha)
    });
    let side_colour = scale(base_colour(look, kind), 0.5);
    let side = Sprite::paint(size, size, pivot, |x, y| {
        let r = ((x - pivot.0) / px_per_mm).hypot((y - pivot.1) / px_per_mm);
        (
            side_colour,
            (0.5 + (radius_mm - r) * px_per_mm).clamp(0.0, 1.0) as f32,
        )
    });
    let reach = r_px + 1.0;
    DiscSprites {
        top: top.round(reach),
        side: side.round(reach),
        radius_mm,
        thickness_mm,
    }
}

fn base_colour(look: &Appearance, kind: Piece) -> Bgr {
    match kind {
        Piece::White => look.carrommen.white,
        Piece::Black => look.carrommen.black,
        Piece::Queen => look.carrommen.queen,
        Piece::Striker => look.striker.colour,
    }
}

/// Colour of a disc's top at fraction `f` of its radius, offset (dx, dy) mm.
#[allow(clippy::too_many_arguments)]
fn disc_colour(
    look: &Appearance,
    kind: Piece,
    seed: u64,
    f: f64,
    dx: f64,
    dy: f64,
    grain_angle: f64,
    radius_mm: f64,
) -> Bgr {
    let base = base_colour(look, kind);
    let ring = f64::from(look.carrommen.ring_fraction);
    match kind {
        Piece::White => match look.carrommen.white_style {
            WhiteStyle::Cream => {
                let grooves = groove(f, ring, 0.025) + 0.7 * groove(f, ring * 0.55, 0.02);
                scale(base, 1.0 - 0.25 * grooves)
            }
            WhiteStyle::NaturalWood => {
                let along = dx * grain_angle.cos() + dy * grain_angle.sin();
                let across = -dx * grain_angle.sin() + dy * grain_angle.cos();
                let wobble = 0.8
                    * f64::from(value_noise(
                        seed,
                        (along * 0.15) as f32,
                        (across * 0.15) as f32,
                    ));
                let stripe = ((across / 1.3 + wobble).rem_euclid(1.0) - 0.5).abs() * 2.0;
                let grain = 1.0 - 0.1 * smoothstep(0.6, 1.0, stripe);
                let burnt = groove(f, ring, 0.05) * 0.5 + groove(f, 0.22, 0.04) * 0.3;
                scale(base, grain * (1.0 - burnt))
            }
        },
        Piece::Black => {
            // Engraved rings on dark pieces catch the light.
            let shine = groove(f, ring, 0.025) + 0.6 * groove(f, ring * 0.55, 0.02);
            mix(base, scale(base, 2.2).map(|v| v + 18.0), 0.5 * shine)
        }
        Piece::Queen => {
            let grooves = groove(f, ring, 0.03);
            scale(base, 1.0 - 0.3 * grooves)
        }
        Piece::Striker => {
            let print = look.striker.print_colour;
            let angle = dy.atan2(dx);
            let inked = match look.striker.print {
                StrikerPrint::Plain => 0.0,
                StrikerPrint::Rings => {
                    groove(f, 0.3, 0.04) + groove(f, 0.55, 0.04) + groove(f, 0.8, 0.04)
                }
                StrikerPrint::Spokes => {
                    let spoke = ((angle * 4.0 / std::f64::consts::PI).rem_euclid(1.0) - 0.5).abs();
                    if f < 0.8 && f > 0.15 {
                        smoothstep(0.42, 0.47, spoke)
                    } else {
                        0.0
                    }
                }
                StrikerPrint::Star => {
                    // A five-pointed star: radius of the outline at this angle.
                    let sector = (angle * 5.0 / std::f64::consts::TAU).rem_euclid(1.0);
                    let edge = 0.3 + 0.35 * (1.0 - (sector - 0.5).abs() * 2.0);
                    1.0 - smoothstep(edge - 0.02, edge + 0.02, f)
                }
            };
            let _ = radius_mm;
            mix(base, print, inked.clamp(0.0, 1.0))
        }
    }
}

/// A soft round shadow of `radius_mm` with edge softness `blur_mm`.
pub fn disc_shadow(radius_mm: f64, blur_mm: f64, px_per_mm: f64) -> Sprite {
    let reach = radius_mm + 3.0 * blur_mm;
    let size = (2.0 * reach * px_per_mm).ceil() as usize + 4;
    let pivot = (size as f64 / 2.0 - 0.5, size as f64 / 2.0 - 0.5);
    Sprite::paint(size, size, pivot, |x, y| {
        let r = ((x - pivot.0) / px_per_mm).hypot((y - pivot.1) / px_per_mm);
        let a = 1.0 - smoothstep(radius_mm - blur_mm, radius_mm + 1.5 * blur_mm, r);
        ([0.0; 3], a as f32)
    })
    .round((radius_mm + 1.5 * blur_mm) * px_per_mm + 1.0)
}

/// A hand and forearm, and its blurred shadow.
#[derive(Debug, Clone)]
pub struct HandSprites {
    pub hand: Sprite,
    pub shadow: Sprite,
}

/// Paints a hand flicking with the index finger, the fingertip at the pivot
/// and the forearm running along +x, at `px_per_mm` (hand scale included).
pub fn hand_sprites(look: &Appearance, px_per_mm: f64) -> Result<HandSprites, RenderError> {
    let hand = &look.hands;
    let s = px_per_mm * hand.scale;
    // Local mm: x from the fingertip towards the elbow, y across (thumb at −y
    // for a right hand).
    let length_mm = 700.0;
    // Symmetric, so a mirrored (left) hand fits as well.
    let (y_min, y_max) = (-95.0, 95.0);
    let width = (length_mm * s).ceil() as i32 + 8;
    let height = ((y_max - y_min) * s).ceil() as i32 + 8;
    let mirror = if hand.left_handed { -1.0 } else { 1.0 };
    let to_px = |x: f64, y: f64| -> Point {
        let unit = 16.0;
        let yy = y * mirror;
        Point::new(
            (((x + 4.0) * s) * unit).round() as i32,
            (((yy - y_min) * s + 4.0) * unit).round() as i32,
        )
    };
    let shift = 4;
    let mut mask = Mat::new_rows_cols_with_default(height, width, CV_8UC1, Scalar::all(0.0))?;
    let mut sleeve_mask =
        Mat::new_rows_cols_with_default(height, width, CV_8UC1, Scalar::all(0.0))?;
    let mut creases = Mat::new_rows_cols_with_default(height, width, CV_8UC1, Scalar::all(0.0))?;
    let mut nail = Mat::new_rows_cols_with_default(height, width, CV_8UC1, Scalar::all(0.0))?;
    let white = Scalar::all(255.0);
    let capsule =
        |m: &mut Mat, a: (f64, f64), b: (f64, f64), radius: f64| -> Result<(), RenderError> {
            let thickness = ((2.0 * radius * s).round() as i32).max(1);
            imgproc::line(
                m,
                to_px(a.0, a.1),
                to_px(b.0, b.1),
                white,
                thickness,
                imgproc::LINE_8,
                shift,
            )?;
            Ok(())
        };
    let polygon = |m: &mut Mat, points: &[(f64, f64)]| -> Result<(), RenderError> {
        let pts: Vector<Point> = points.iter().map(|&(x, y)| to_px(x, y)).collect();
        imgproc::fill_convex_poly(m, &pts, white, imgproc::LINE_8, shift)?;
        Ok(())
    };
    let fingers = [
        ((0.0, 0.0), (62.0, 3.0), 8.5),
        ((52.0, 17.0), (78.0, 19.0), 9.0),
        ((60.0, 33.0), (84.0, 34.0), 8.5),
        ((70.0, 47.0), (90.0, 46.0), 7.5),
        ((58.0, -20.0), (98.0, -24.0), 10.0),
    ];
    for &(a, b, r) in &fingers {
        capsule(&mut mask, a, b, r)?;
    }
    imgproc::ellipse(
        &mut mask,
        to_px(108.0, 14.0),
        Size::new((46.0 * s * 16.0) as i32, (42.0 * s * 16.0) as i32),
        0.0,
        0.0,
        360.0,
        white,
        -1,
        imgproc::LINE_8,
        shift,
    )?;
    polygon(
        &mut mask,
        &[
            (120.0, -18.0),
            (length_mm, -28.0),
            (length_mm, 62.0),
            (120.0, 46.0),
        ],
    )?;
    if hand.sleeve.is_some() {
        let start = 250.0;
        polygon(
            &mut sleeve_mask,
            &[
                (start, -27.0),
                (length_mm, -36.0),
                (length_mm, 70.0),
                (start, 55.0),
            ],
        )?;
        polygon(
            &mut mask,
            &[
                (start, -27.0),
                (length_mm, -36.0),
                (length_mm, 70.0),
                (start, 55.0),
            ],
        )?;
    }
    for &(a, b, r) in &fingers {
        let outline = ((1.0 * s).round() as i32).max(1);
        let pts = [to_px(a.0, a.1 - r), to_px(b.0, b.1 - r)];
        imgproc::line(
            &mut creases,
            pts[0],
            pts[1],
            white,
            outline,
            imgproc::LINE_AA,
            shift,
        )?;
        let pts = [to_px(a.0, a.1 + r), to_px(b.0, b.1 + r)];
        imgproc::line(
            &mut creases,
            pts[0],
            pts[1],
            white,
            outline,
            imgproc::LINE_AA,
            shift,
        )?;
    }
    imgproc::ellipse(
        &mut nail,
        to_px(6.0, 0.5),
        Size::new((6.5 * s * 16.0) as i32, (5.5 * s * 16.0) as i32),
        0.0,
        0.0,
        360.0,
        white,
        -1,
        imgproc::LINE_AA,
        shift,
    )?;

    // Roundness: brighter towards the middle of each limb. The distance to
    // the outline, over the largest such distance nearby (the limb's half
    // width), says how far across the limb a pixel lies.
    let mut distance = Mat::default();
    imgproc::distance_transform(&mask, &mut distance, imgproc::DIST_L2, 3, CV_32F)?;
    let mut half_width = Mat::default();
    let window = ((30.0 * s).round() as i32).max(3) | 1;
    let kernel = imgproc::get_structuring_element(
        imgproc::MORPH_RECT,
        Size::new(window, window),
        Point::new(-1, -1),
    )?;
    imgproc::dilate(
        &distance,
        &mut half_width,
        &kernel,
        Point::new(-1, -1),
        1,
        opencv::core::BORDER_CONSTANT,
        imgproc::morphology_default_border_value()?,
    )?;
    let mut soft = Mat::default();
    let blur = (0.6 * s).max(0.5);
    imgproc::gaussian_blur(
        &mask,
        &mut soft,
        Size::new(0, 0),
        blur,
        blur,
        opencv::core::BORDER_CONSTANT,
    )?;
    let mut shadow_mask = Mat::default();
    let shadow_blur = 9.0 * s;
    imgproc::gaussian_blur(
        &mask,
        &mut shadow_mask,
        Size::new(0, 0),
        shadow_blur,
        shadow_blur,
        opencv::core::BORDER_CONSTANT,
    )?;

    let distance = distance.data_typed::<f32>()?.to_vec();
    let half_width = half_width.data_typed::<f32>()?.to_vec();
    let soft = soft.data_bytes()?.to_vec();
    let sleeve = sleeve_mask.data_bytes()?.to_vec();
    let creases = creases.data_bytes()?.to_vec();
    let nail = nail.data_bytes()?.to_vec();
    let shadow_alpha = shadow_mask.data_bytes()?.to_vec();
    let (w, h) = (width as usize, height as usize);
    let pivot = (4.0 * s, -y_min * s + 4.0);
    let seed = look.seed ^ 0x4A9D;
    let sprite = Sprite::paint(w, h, pivot, |x, y| {
        let i = y as usize * w + x as usize;
        let alpha = f32::from(soft[i]) / 255.0;
        if alpha <= 0.0 {
            return ([0.0; 3], 0.0);
        }
        let across = f64::from(distance[i]) / f64::from(half_width[i]).max(1e-3);
        let bulge = 1.0 - (1.0 - across.clamp(0.0, 1.0)).powi(2);
        let mottle = 0.94
            + 0.12
                * f64::from(value_noise(
                    seed ^ 9,
                    (x / s * 0.05) as f32,
                    (y / s * 0.05) as f32,
                ));
        let round = (0.5 + 0.55 * bulge) * mottle;
        let mut colour = scale(hand.skin, round);
        let crease = f64::from(creases[i]) / 255.0;
        colour = scale(colour, 1.0 - 0.3 * crease);
        let nail_t = f64::from(nail[i]) / 255.0;
        colour = mix(
            colour,
            scale(hand.skin, 1.25).map(|v| (v + 25.0).min(255.0)),
            0.6 * nail_t,
        );
        if let Some(cloth) = hand.sleeve {
            let t = f64::from(sleeve[i]) / 255.0;
            if t > 0.0 {
                let folds = 0.85
                    + 0.3
                        * f64::from(value_noise(
                            seed,
                            (x / s * 0.03) as f32,
                            (y / s * 0.08) as f32,
                        ));
                colour = mix(colour, scale(cloth, round * folds), t);
            }
        }
        (colour, alpha)
    });
    let shadow = Sprite::paint(w, h, pivot, |x, y| {
        (
            [0.0; 3],
            f32::from(shadow_alpha[y as usize * w + x as usize]) / 255.0,
        )
    });
    Ok(HandSprites {
        hand: sprite,
        shadow,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blank(width: usize, height: usize, value: u8) -> Vec<u8> {
        vec![value; width * height * 3]
    }

    fn red_dot() -> Sprite {
        Sprite::paint(5, 5, (2.0, 2.0), |x, y| {
            let inside = (x - 2.0).abs() <= 1.0 && (y - 2.0).abs() <= 1.0;
            ([0.0, 0.0, 255.0], if inside { 1.0 } else { 0.0 })
        })
    }

    #[test]
    fn composite_puts_the_pivot_at_the_placement() {
        let mut bytes = blank(20, 20, 100);
        let mut canvas = CanvasPixels {
            bytes: &mut bytes,
            width: 20,
            height: 20,
        };
        composite(
            &mut canvas,
            &red_dot(),
            &Placement::at((7.0, 12.0)),
            (0.0, 0.0),
            1.0,
        )
        .unwrap();
        let px = |x: usize, y: usize| &bytes[3 * (y * 20 + x)..3 * (y * 20 + x) + 3];
        assert_eq!(px(7, 12), &[0, 0, 255]);
        assert_eq!(px(8, 13), &[0, 0, 255]);
        assert_eq!(px(10, 12), &[100, 100, 100]);
    }

    #[test]
    fn motion_blur_spreads_and_fades() {
        let mut bytes = blank(40, 10, 0);
        let mut canvas = CanvasPixels {
            bytes: &mut bytes,
            width: 40,
            height: 10,
        };
        let dot = red_dot().round(2.0);
        composite(
            &mut canvas,
            &dot,
            &Placement::at((20.0, 5.0)),
            (20.0, 0.0),
            1.0,
        )
        .unwrap();
        let red = |x: usize| bytes[3 * (5 * 40 + x) + 2];
        assert!(red(20) > 10 && red(20) < 100, "smeared red {}", red(20));
        assert_eq!(red(2), 0);
    }

    #[test]
    fn shadows_darken_only_where_they_fall() {
        let mut bytes = blank(30, 30, 200);
        let mut canvas = CanvasPixels {
            bytes: &mut bytes,
            width: 30,
            height: 30,
        };
        darken(
            &mut canvas,
            &disc_shadow(3.0, 1.0, 1.0),
            &Placement::at((15.0, 15.0)),
            (0.0, 0.0),
            0.5,
        )
        .unwrap();
        assert!(bytes[3 * (15 * 30 + 15)] < 120);
        assert_eq!(bytes[3 * (2 * 30 + 2)], 200);
    }

    #[test]
    fn turned_placement_rotates_the_sprite() {
        // A bar along sprite +x, turned to point down the canvas.
        let bar = Sprite::paint(10, 3, (0.0, 1.0), |_, y| {
            ([255.0; 3], if (y - 1.0).abs() < 0.5 { 1.0 } else { 0.0 })
        });
        let mut bytes = blank(20, 20, 0);
        let mut canvas = CanvasPixels {
            bytes: &mut bytes,
            width: 20,
            height: 20,
        };
        let placement = Placement {
            at: (5.0, 5.0),
            axis: (0.0, 1.0),
            scale: 1.0,
        };
        composite(&mut canvas, &bar, &placement, (0.0, 0.0), 1.0).unwrap();
        assert!(bytes[3 * (12 * 20 + 5)] > 200, "below the pivot");
        assert_eq!(bytes[3 * (5 * 20 + 12)], 0, "not to the right");
    }
}
