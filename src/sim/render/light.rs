//! What the lamps and the sensor do to the picture: uneven lamp light with
//! its colour, the lacquer's glare, vignetting, white balance, exposure,
//! flicker and sensor noise. The per-pixel gains are computed once per clip;
//! the noise comes from a precomputed tile read at a new offset each frame
//! (a fresh random number per pixel per frame would cost more than all the
//! rest of the frame).

use nalgebra::Point2;
use rayon::prelude::*;

use super::appearance::{Appearance, Bgr};
use super::texture::{cell_value, normal_from_uniforms};
use crate::geometry::spec::HALF_SURFACE_MM;
use crate::sim::camera::Camera;

/// Side of the square noise tile, pixels (a power of two: wrapping is a mask).
const NOISE_TILE: usize = 512;

/// Fractional bits of the fixed-point gains.
const GAIN_BITS: u32 = 12;

/// Noise tile samples are standard normals times this (so ±7.9 σ fit in i8).
const NOISE_UNIT: f32 = 16.0;

/// Per-pixel light and the sensor's noise, ready to apply to frames. Kept in
/// fixed point: the per-frame pass is integer arithmetic over small tables.
pub struct Exposure {
    width: usize,
    /// Multiplicative gain per pixel and channel, `GAIN_BITS` fraction bits.
    gain: Vec<[u16; 3]>,
    /// Additive glare per pixel and channel, in levels, `GAIN_BITS` fraction
    /// bits; empty when the board is matte.
    glare: Vec<[u32; 3]>,
    /// Unit-variance noise times `NOISE_UNIT`, mixed between grey and colour.
    noise: Vec<[i8; 3]>,
    /// Noise standard deviation for each 8-bit level, times 256.
    sigma: [i32; 256],
    flicker: f32,
    seed: u64,
}

impl Exposure {
    /// Computes the gains for every image pixel; `board_at` gives the board
    /// point each pixel sees (row-major, `width` per row).
    pub fn new(look: &Appearance, camera: &Camera, board_at: &[Point2<f64>]) -> Exposure {
        let width = camera.width() as usize;
        let height = camera.height() as usize;
        let lighting = &look.lighting;
        let irradiance = |q: Point2<f64>| -> Bgr {
            let mut light = [lighting.ambient; 3];
            for lamp in &lighting.lamps {
                let [lx, ly, lz] = lamp.position_mm;
                let d2 = (q.x - lx).powi(2) + (q.y - ly).powi(2) + lz * lz;
                // Lambert's cosine over the inverse square, relative to the
                // lamp's own foot.
                let e = (lz * lz * lz / (d2 * d2.sqrt())) as f32 * lamp.power;
                for (channel, gain) in light.iter_mut().zip(lamp.colour) {
                    *channel += e * gain;
                }
            }
            light
        };
        let centre = irradiance(Point2::origin());
        let reference = (centre[1] * lighting.white_balance[1]).max(1e-3);
        let (cx, cy) = (width as f64 / 2.0, height as f64 / 2.0);
        let half_diagonal = cx.hypot(cy);
        let eye = camera.centre_mm();
        // The glare is the lamp's mirror image in the lacquer: where the ray
        // from the camera to the lamp's reflection crosses the board.
        let glints: Vec<(Point2<f64>, Bgr)> = lighting
            .lamps
            .iter()
            .map(|lamp| {
                let [lx, ly, lz] = lamp.position_mm;
                let t = eye.z / (eye.z + lz);
                let spot = Point2::new(eye.x + (lx - eye.x) * t, eye.y + (ly - eye.y) * t);
                (spot, lamp.colour.map(|c| c * lamp.power))
            })
            .collect();
        let gloss = look.plywood.gloss;
        let glare_radius = 90.0;
        let mut gain = vec![[0u16; 3]; width * height];
        let mut glare = vec![[0u32; 3]; width * height];
        let unit = (1u32 << GAIN_BITS) as f32;
        gain.par_chunks_mut(width)
            .zip(glare.par_chunks_mut(width))
            .enumerate()
            .for_each(|(row, (gain_row, glare_row))| {
                for column in 0..width {
                    let q = board_at[row * width + column];
                    let light = irradiance(q);
                    let r = (column as f64 - cx).hypot(row as f64 - cy) / half_diagonal;
                    let vignette = (1.0 - f64::from(lighting.vignetting) * r * r) as f32;
                    for c in 0..3 {
                        let g = lighting.exposure * lighting.white_balance[c] * light[c] * vignette
                            / reference;
                        gain_row[column][c] =
                            (g * unit).round().clamp(0.0, f32::from(u16::MAX)) as u16;
                    }
                    let on_surface = q.x.abs() < HALF_SURFACE_MM && q.y.abs() < HALF_SURFACE_MM;
                    if gloss > 0.0 && on_surface {
                        for (spot, colour) in &glints {
                            let d2 = (q - spot).norm_squared() / (glare_radius * glare_radius);
                            let g = gloss * 90.0 * (-d2 / 2.0).exp() as f32;
                            for c in 0..3 {
                                glare_row[column][c] +=
                                    (g * colour[c] * lighting.white_balance[c] * unit).round()
                                        as u32;
                            }
                        }
                    }
                }
            });

        let sensor = &look.sensor;
        let seed = look.seed ^ 0x0153;
        let chroma = sensor.chroma_noise.clamp(0.0, 1.0);
        // Mixing grey and per-channel noise keeps unit variance per channel.
        let (mono_weight, colour_weight) = ((1.0 - chroma), chroma);
        let norm = (mono_weight * mono_weight + colour_weight * colour_weight)
            .sqrt()
            .max(1e-3);
        let noise = (0..NOISE_TILE * NOISE_TILE)
            .map(|i| {
                let (x, y) = ((i % NOISE_TILE) as i64, (i / NOISE_TILE) as i64);
                let normal = |k: u64| {
                    normal_from_uniforms(
                        cell_value(seed + 2 * k, x, y),
                        cell_value(seed + 2 * k + 1, x, y),
                    )
                };
                let mono = normal(0);
                [normal(1), normal(2), normal(3)].map(|n| {
                    let mixed = (mono_weight * mono + colour_weight * n) / norm;
                    (mixed * NOISE_UNIT).round().clamp(-127.0, 127.0) as i8
                })
            })
            .collect();
        let sigma = std::array::from_fn(|level| {
            let sigma = (sensor.read_noise.powi(2) + sensor.shot_noise * level as f32).sqrt();
            (sigma * 256.0).round() as i32
        });
        let glare = if glare.iter().any(|g| g.iter().any(|&v| v > 0)) {
            glare
        } else {
            Vec::new()
        };
        Exposure {
            width,
            gain,
            glare,
            noise,
            sigma,
            flicker: sensor.flicker,
            seed,
        }
    }

    /// Lights `src` (the remapped scene, 8-bit BGR) into `dst` for video
    /// frame `frame`.
    pub fn apply(&self, src: &[u8], dst: &mut [u8], frame: u32) {
        let width = self.width;
        let wobble = 1.0 + self.flicker * 2.0 * (cell_value(self.seed, i64::from(frame), 7) - 0.5);
        let wobble = (wobble * 256.0).round() as u32;
        let offset_x = (cell_value(self.seed, i64::from(frame), 1) * NOISE_TILE as f32) as usize;
        let offset_y = (cell_value(self.seed, i64::from(frame), 2) * NOISE_TILE as f32) as usize;
        // σ·256 times noise·16 gives levels times 4096.
        let noise_shift = 8 + NOISE_UNIT.log2() as u32;
        // Halves, so the shifts round instead of flooring.
        let half_gain = 1u32 << (GAIN_BITS - 1);
        let half_noise = 1i32 << (noise_shift - 1);
        dst.par_chunks_mut(width * 3)
            .zip(src.par_chunks(width * 3))
            .enumerate()
            .for_each(|(row, (out, input))| {
                let gains = &self.gain[row * width..(row + 1) * width];
                let glares = if self.glare.is_empty() {
                    None
                } else {
                    Some(&self.glare[row * width..(row + 1) * width])
                };
                let noise_row =
                    &self.noise[((row + offset_y) & (NOISE_TILE - 1)) * NOISE_TILE..][..NOISE_TILE];
                for column in 0..width {
                    let noise = noise_row[(column + offset_x) & (NOISE_TILE - 1)];
                    for c in 0..3 {
                        let mut lit =
                            u32::from(input[3 * column + c]) * u32::from(gains[column][c]);
                        lit = (lit >> 8) * wobble;
                        if let Some(glares) = glares {
                            lit += glares[column][c];
                        }
                        let level = ((lit + half_gain) >> GAIN_BITS).min(255) as usize;
                        let grain =
                            (i32::from(noise[c]) * self.sigma[level] + half_noise) >> noise_shift;
                        let noisy = level as i32 + grain;
                        out[3 * column + c] = noisy.clamp(0, 255) as u8;
                    }
                }
            });
    }
}
