//! A picture of the empty board predicted from the ICF drawing and one frame:
//! the lamp-lit wood as a smooth surface fitted robustly to the frame's wood
//! pixels, times the ink of every marking at its exact drawn place. Pieces
//! and hands are outliers of the fit, so the prediction holds where they
//! cover the board, which the frame alone cannot show.

use nalgebra::{Matrix3, Point2, SMatrix, SVector, Vector3};
use opencv::prelude::*;

use crate::geometry::spec::{HALF_SURFACE_MM, POCKET_RADIUS_MM};
use crate::geometry::{pocket_centre, Pocket};
use crate::template::{colours, draw_board, TemplateError, TemplateFrame, TemplateOptions};

/// Every this many pixels (each way) one is sampled for the fits.
const FIT_STRIDE: usize = 2;

/// Rounds of the wood fit; each drops the pixels far from the last fit.
const FIT_ROUNDS: usize = 3;

/// A wood pixel is kept for the next round within this many robust
/// deviations of the fit.
const FIT_KEEP_DEVIATIONS: f64 = 2.5;

/// Weight of its main ink a drawn pixel needs to count as pure (not an
/// anti-aliased edge) when measuring the inks.
const PURE_WEIGHT: f64 = 0.97;

/// The drawing and the rendered or real board disagree by up to this many
/// pixels at the edges of markings (resampling blur, ink spread), so a pixel
/// is compared with the range the prediction takes this close to it.
const EDGE_SLACK_PX: usize = 1;

/// The frame shades the surface along its inner edge in a way the smooth
/// lamp model does not follow; the prediction stops this far (mm) short.
const EDGE_SHADOW_MM: f64 = 1.0;

/// Number of terms of the quadratic surface in (x, y).
const TERMS: usize = 6;

/// The predicted empty board, BGR per top-view pixel, and where the
/// prediction applies (the playing surface away from the pocket holes,
/// whose depth the drawing does not show).
#[derive(Debug, Clone)]
pub struct BoardPrior {
    /// Predicted BGR, `side * side * 3`.
    pub bgr: Vec<f32>,
    /// Whether the prediction applies at each pixel.
    pub applies: Vec<bool>,
    /// Per channel, the least and greatest prediction within
    /// [`EDGE_SLACK_PX`] of each pixel.
    low: Vec<f32>,
    high: Vec<f32>,
}

impl BoardPrior {
    /// A prediction of `side` pixels square from its BGR values.
    pub fn new(bgr: Vec<f32>, applies: Vec<bool>, side: usize) -> BoardPrior {
        let low = window_extreme(&bgr, side, f32::min);
        let high = window_extreme(&bgr, side, f32::max);
        BoardPrior {
            bgr,
            applies,
            low,
            high,
        }
    }

    /// How far (largest channel, 0–255) pixel `i` of `bgr` lies outside the
    /// range the prediction takes near it, the prediction scaled by `gain`.
    #[inline]
    pub fn distance(&self, i: usize, pixel: &[u8], gain: f32) -> f32 {
        (0..3)
            .map(|c| {
                let v = f32::from(pixel[c]);
                let (low, high) = (gain * self.low[3 * i + c], gain * self.high[3 * i + c]);
                (v - high).max(low - v).max(0.0)
            })
            .fold(0.0, f32::max)
    }
}

/// Per channel, the extreme (`pick` = min or max) of `bgr` over the square
/// window of [`EDGE_SLACK_PX`] round each pixel, rows then columns.
fn window_extreme(bgr: &[f32], side: usize, pick: fn(f32, f32) -> f32) -> Vec<f32> {
    let r = EDGE_SLACK_PX;
    let mut rows = bgr.to_vec();
    for y in 0..side {
        for x in 0..side {
            for c in 0..3 {
                let mut v = bgr[3 * (y * side + x) + c];
                for xx in x.saturating_sub(r)..=(x + r).min(side - 1) {
                    v = pick(v, bgr[3 * (y * side + xx) + c]);
                }
                rows[3 * (y * side + x) + c] = v;
            }
        }
    }
    let mut out = rows.clone();
    for y in 0..side {
        for x in 0..side {
            for c in 0..3 {
                let mut v = rows[3 * (y * side + x) + c];
                for yy in y.saturating_sub(r)..=(y + r).min(side - 1) {
                    v = pick(v, rows[3 * (yy * side + x) + c]);
                }
                out[3 * (y * side + x) + c] = v;
            }
        }
    }
    out
}

/// The drawing's inks at each pixel as weights of surface, line ink and red.
pub struct InkMap {
    side: usize,
    weights: Vec<[f32; 3]>,
    applies: Vec<bool>,
}

impl InkMap {
    /// Draws the board at the top view's scale and solves each pixel's
    /// colour for its mixture of surface, line ink and red.
    pub fn new(frame: &TemplateFrame) -> Result<InkMap, TemplateError> {
        let template = draw_board(&TemplateOptions {
            px_per_mm: frame.px_per_mm,
            arrangement_for: None,
        })?;
        let side = template.frame.side_px() as usize;
        let bytes = template
            .image
            .data_bytes()
            .map_err(|source| TemplateError::OpenCv {
                action: "reading the drawing",
                source,
            })?;
        let column = |c: colours::Bgr| Vector3::from(c.map(f64::from));
        let basis = Matrix3::from_columns(&[
            column(colours::SURFACE),
            column(colours::INK),
            column(colours::RED),
        ]);
        // The three drawing colours are linearly independent (checked by a
        // test), so the inverse exists; identity keeps this total anyway.
        let inverse = basis.try_inverse().unwrap_or_else(Matrix3::identity);
        let hole = POCKET_RADIUS_MM * 1.3;
        let mut weights = vec![[0.0f32; 3]; side * side];
        let mut applies = vec![false; side * side];
        for row in 0..side {
            for col in 0..side {
                let board = frame.px_to_board(Point2::new(col as f64, row as f64));
                let inside = HALF_SURFACE_MM - EDGE_SHADOW_MM;
                let on_surface = board.x.abs() < inside
                    && board.y.abs() < inside
                    && Pocket::ALL
                        .iter()
                        .all(|&p| (board - pocket_centre(p)).norm() > hole);
                if !on_surface {
                    continue;
                }
                let i = row * side + col;
                let seen = Vector3::new(
                    f64::from(bytes[3 * i]),
                    f64::from(bytes[3 * i + 1]),
                    f64::from(bytes[3 * i + 2]),
                );
                let w = (inverse * seen).map(|v| v.max(0.0));
                let total = w.sum().max(1e-6);
                weights[i] = [
                    (w.x / total) as f32,
                    (w.y / total) as f32,
                    (w.z / total) as f32,
                ];
                applies[i] = true;
            }
        }
        Ok(InkMap {
            side,
            weights,
            applies,
        })
    }

    /// Predicts the empty board as `bgr` (a top view of `side` pixels
    /// square, BGR) would show it.
    pub fn predict(&self, bgr: &[u8]) -> BoardPrior {
        let side = self.side;
        let pixel = |i: usize| [bgr[3 * i], bgr[3 * i + 1], bgr[3 * i + 2]].map(f64::from);
        let scale = 2.0 / side as f64;
        let terms = |i: usize| -> SVector<f64, TERMS> {
            let x = (i % side) as f64 * scale - 1.0;
            let y = (i / side) as f64 * scale - 1.0;
            SVector::<f64, TERMS>::from([1.0, x, y, x * x, x * y, y * y])
        };
        let wood: Vec<usize> = (0..side)
            .step_by(FIT_STRIDE)
            .flat_map(|row| (0..side).step_by(FIT_STRIDE).map(move |c| row * side + c))
            .filter(|&i| self.applies[i] && self.weights[i][0] >= PURE_WEIGHT as f32)
            .collect();
        let mut keep = vec![true; wood.len()];
        let mut fits = [SVector::<f64, TERMS>::zeros(); 3];
        for _ in 0..FIT_ROUNDS {
            for (channel, fit) in fits.iter_mut().enumerate() {
                let mut normal = SMatrix::<f64, TERMS, TERMS>::zeros();
                let mut rhs = SVector::<f64, TERMS>::zeros();
                for (k, &i) in wood.iter().enumerate() {
                    if keep[k] {
                        let t = terms(i);
                        normal += t * t.transpose();
                        rhs += t * pixel(i)[channel];
                    }
                }
                if let Some(solution) = normal.lu().solve(&rhs) {
                    *fit = solution;
                }
            }
            let residual = |i: usize| -> f64 {
                let t = terms(i);
                let p = pixel(i);
                (0..3)
                    .map(|c| (p[c] - fits[c].dot(&t)).abs())
                    .fold(0.0, f64::max)
            };
            let mut residuals: Vec<f64> = wood.iter().map(|&i| residual(i)).collect();
            let mut sorted = residuals.clone();
            let middle = sorted.len() / 2;
            let typical = if sorted.is_empty() {
                0.0
            } else {
                *sorted.select_nth_unstable_by(middle, f64::total_cmp).1
            };
            let limit = (FIT_KEEP_DEVIATIONS * 1.4826 * typical).max(4.0) + typical;
            for (k, r) in residuals.iter_mut().enumerate() {
                keep[k] = *r <= limit;
            }
        }
        let wood_at = |i: usize| -> [f64; 3] {
            let t = terms(i);
            [0, 1, 2].map(|c| fits[c].dot(&t).max(1.0))
        };
        // Each ink darkens the wood by its own ratio (ink is printed on the
        // wood), measured where the drawing has pure ink.
        let ink_ratio = |slot: usize, fallback: colours::Bgr| -> [f64; 3] {
            let mut ratios: [Vec<f64>; 3] = Default::default();
            for row in (0..side).step_by(FIT_STRIDE) {
                for col in (0..side).step_by(FIT_STRIDE) {
                    let i = row * side + col;
                    if self.applies[i] && self.weights[i][slot] >= PURE_WEIGHT as f32 {
                        let (w, p) = (wood_at(i), pixel(i));
                        for c in 0..3 {
                            ratios[c].push(p[c] / w[c]);
                        }
                    }
                }
            }
            [0, 1, 2].map(|c| {
                let values = &mut ratios[c];
                if values.len() < 8 {
                    f64::from(fallback[c]) / f64::from(colours::SURFACE[c])
                } else {
                    let middle = values.len() / 2;
                    *values.select_nth_unstable_by(middle, f64::total_cmp).1
                }
            })
        };
        let line = ink_ratio(1, colours::INK);
        let red = ink_ratio(2, colours::RED);
        let mut prediction = vec![0.0f32; side * side * 3];
        for i in 0..side * side {
            if !self.applies[i] {
                for c in 0..3 {
                    prediction[3 * i + c] = f32::from(bgr[3 * i + c]);
                }
                continue;
            }
            let [s, k, r] = self.weights[i].map(f64::from);
            let w = wood_at(i);
            for c in 0..3 {
                prediction[3 * i + c] = (w[c] * (s + k * line[c] + r * red[c])) as f32;
            }
        }
        BoardPrior::new(prediction, self.applies.clone(), side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{break_arrangement, Seat};
    use crate::template::draw_pieces;

    #[test]
    fn the_drawing_colours_are_independent() {
        let column = |c: colours::Bgr| Vector3::from(c.map(f64::from));
        let basis = Matrix3::from_columns(&[
            column(colours::SURFACE),
            column(colours::INK),
            column(colours::RED),
        ]);
        assert!(basis.determinant().abs() > 1.0);
    }

    #[test]
    fn the_empty_board_is_predicted_under_the_pieces_of_a_dimmer_board() {
        let frame = TemplateFrame::for_scale(0.5).unwrap();
        let empty = draw_board(&TemplateOptions {
            px_per_mm: 0.5,
            arrangement_for: None,
        })
        .unwrap()
        .image;
        let mut with_pieces = empty.try_clone().unwrap();
        draw_pieces(&mut with_pieces, &frame, &break_arrangement(Seat::South)).unwrap();
        // A dimmer lamp: every channel at 80 %.
        let dim = |m: &Mat| -> Vec<u8> {
            m.data_bytes()
                .unwrap()
                .iter()
                .map(|&v| (f64::from(v) * 0.8).round() as u8)
                .collect()
        };
        let (empty, seen) = (dim(&empty), dim(&with_pieces));
        let map = InkMap::new(&frame).unwrap();
        let prior = map.predict(&seen);
        let side = frame.side_px() as usize;
        let centre = frame.board_to_px(Point2::new(0.0, 0.0));
        let i = centre.y.round() as usize * side + centre.x.round() as usize;
        assert!(prior.applies[i]);
        for c in 0..3 {
            let error = (prior.bgr[3 * i + c] - f32::from(empty[3 * i + c])).abs();
            assert!(error < 6.0, "channel {c}: off by {error}");
        }
    }
}
