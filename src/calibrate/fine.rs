//! The fine fit: project the ICF model's marking edges into the image, find
//! each edge along its normal, and solve for the homography and the lens
//! distortion by robust least squares (Levenberg–Marquardt with Huber
//! weights), repeating with a narrowing search.

use nalgebra::{DMatrix, DVector, Matrix3, Point2, Vector2, Vector3};
use rayon::prelude::*;

use super::gray::GrayImage;
use super::lens::Lens;
use super::model::{EdgeKind, MarkingGroup, MarkingSample};
use crate::geometry::spec::HALF_SURFACE_MM;

/// Index of the first distortion parameter in the parameter vector (the
/// eight before it are the normalised homography).
const K1: usize = 8;
const K2: usize = 9;
const CX: usize = 10;
const CY: usize = 11;
/// First of the four surface-edge offsets (east, west, north, south side),
/// then one radius offset for each kind of circle (outer, centre, base): mm
/// along the samples' normals, see [`offset_index`].
const EDGE_OFFSETS: usize = 12;
const CIRCLE_OFFSETS: usize = 16;
const PARAMS: usize = 19;

/// Step of the profile sampled across an edge, pixels.
const PROFILE_STEP_PX: f64 = 0.5;

/// Weakest edge response accepted, grey levels.
const MIN_RESPONSE: f64 = 6.0;

/// Pseudo-observation weights pulling the poorly constrained parameters
/// towards their neutral values: pixels of residual per unit of parameter.
const K2_PRIOR_PX: f64 = 40.0;
const CENTRE_PRIOR_PX: f64 = 30.0;

/// Pseudo-observation weight keeping the edge and circle offsets defined
/// where none of their samples are in view: pixels per mm of offset, small
/// beside the hundreds of edge points that measure a visible one.
const OFFSET_PRIOR_PX: f64 = 1.0;

/// The model being fitted: board mm → undistorted pixels (a homography in
/// normalised coordinates) → distorted pixels (radial lens).
#[derive(Debug, Clone)]
pub struct FitState {
    centre: Point2<f64>,
    scale: f64,
    focal: f64,
    theta: [f64; PARAMS],
}

impl FitState {
    /// Starts from a homography (board mm → undistorted px) and a lens.
    pub fn new(h: &Matrix3<f64>, lens: &Lens, image_size: (usize, usize)) -> Option<FitState> {
        let centre = Point2::new(
            (image_size.0 as f64 - 1.0) / 2.0,
            (image_size.1 as f64 - 1.0) / 2.0,
        );
        let scale = image_size.0.max(image_size.1) as f64 / 2.0;
        let to_normal = Matrix3::new(
            1.0 / scale,
            0.0,
            -centre.x / scale,
            0.0,
            1.0 / scale,
            -centre.y / scale,
            0.0,
            0.0,
            1.0,
        );
        let from_board = Matrix3::new(
            HALF_SURFACE_MM,
            0.0,
            0.0,
            0.0,
            HALF_SURFACE_MM,
            0.0,
            0.0,
            0.0,
            1.0,
        );
        let hn = to_normal * h * from_board;
        let z = hn[(2, 2)];
        if !(z.is_finite() && z.abs() > 1e-12) {
            return None;
        }
        let hn = hn / z;
        let mut theta = [0.0; PARAMS];
        for (i, value) in theta.iter_mut().take(8).enumerate() {
            *value = hn[(i / 3, i % 3)];
        }
        // The fit keeps fx = fy; a lens with unequal ones is refocused on fx.
        theta[K1] = lens.k1;
        theta[K2] = lens.k2;
        theta[CX] = (lens.cx - centre.x) / scale;
        theta[CY] = (lens.cy - centre.y) / scale;
        Some(FitState {
            centre,
            scale,
            focal: lens.fx,
            theta,
        })
    }

    /// The fitted homography, board mm → undistorted pixels.
    pub fn homography(&self) -> Matrix3<f64> {
        let t = &self.theta;
        let hn = Matrix3::new(t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], 1.0);
        let from_normal = Matrix3::new(
            self.scale,
            0.0,
            self.centre.x,
            0.0,
            self.scale,
            self.centre.y,
            0.0,
            0.0,
            1.0,
        );
        let to_board = Matrix3::new(
            1.0 / HALF_SURFACE_MM,
            0.0,
            0.0,
            0.0,
            1.0 / HALF_SURFACE_MM,
            0.0,
            0.0,
            0.0,
            1.0,
        );
        let h = from_normal * hn * to_board;
        h / h[(2, 2)]
    }

    /// The fitted lens.
    pub fn lens(&self) -> Lens {
        lens_of(self, &self.theta)
    }

    fn project(&self, theta: &[f64; PARAMS], board: Point2<f64>) -> Option<Point2<f64>> {
        let b = Vector3::new(board.x / HALF_SURFACE_MM, board.y / HALF_SURFACE_MM, 1.0);
        let v = Vector3::new(
            theta[0] * b.x + theta[1] * b.y + theta[2],
            theta[3] * b.x + theta[4] * b.y + theta[5],
            theta[6] * b.x + theta[7] * b.y + 1.0,
        );
        if v.z <= 1e-9 {
            return None;
        }
        let undistorted = Point2::new(
            self.centre.x + self.scale * v.x / v.z,
            self.centre.y + self.scale * v.y / v.z,
        );
        Some(lens_of(self, theta).distort(undistorted))
    }
}

/// Which offset parameter moves a sample, if any. Where the surface edge
/// shows depends on more than the ICF figures: the frame's wall hides a
/// strip of the surface from a tilted camera, bevels and shadows darken its
/// rim; and printed circles vary in size between boards. Each side of the
/// edge and each kind of circle therefore gets its own offset along the
/// normal, so those samples constrain the lens through their shape (a
/// straight edge that bows in the image, a circle's centre) without their
/// distance from the painted lines biasing it.
fn offset_index(sample: &MarkingSample) -> Option<usize> {
    match sample.group {
        MarkingGroup::SurfaceEdge => {
            let n = sample.normal;
            let side = if n.x > 0.5 {
                0
            } else if n.x < -0.5 {
                1
            } else if n.y > 0.5 {
                2
            } else {
                3
            };
            Some(EDGE_OFFSETS + side)
        }
        MarkingGroup::OuterCircle => Some(CIRCLE_OFFSETS),
        MarkingGroup::CentreCircle => Some(CIRCLE_OFFSETS + 1),
        MarkingGroup::BaseCircle => Some(CIRCLE_OFFSETS + 2),
        MarkingGroup::BaseLine | MarkingGroup::Arrow => None,
    }
}

/// The board point of a sample with its offset applied.
fn offset_board(theta: &[f64; PARAMS], sample: &MarkingSample) -> Point2<f64> {
    match offset_index(sample) {
        Some(j) => sample.board + sample.normal * theta[j],
        None => sample.board,
    }
}

fn lens_of(state: &FitState, theta: &[f64; PARAMS]) -> Lens {
    Lens {
        fx: state.focal,
        fy: state.focal,
        cx: state.centre.x + theta[CX] * state.scale,
        cy: state.centre.y + theta[CY] * state.scale,
        k1: theta[K1],
        k2: theta[K2],
    }
}

/// An edge found in the image for one model sample.
#[derive(Debug, Clone, Copy)]
pub struct FoundEdge {
    /// Which sample (index into the model's samples).
    pub sample: usize,
    /// Where the edge is, distorted image pixels.
    pub point: Point2<f64>,
    /// Unit image direction of the sample's normal there.
    pub direction: Vector2<f64>,
    /// Image pixels per board mm along the normal.
    pub px_per_mm: f64,
    /// The filter response at the edge, grey levels.
    pub response: f64,
}

/// Where a sample lands in the image and which way its normal points there.
#[derive(Debug, Clone, Copy)]
pub struct Projected {
    /// Distorted image position, pixels.
    pub point: Point2<f64>,
    /// Unit image direction of the board normal.
    pub direction: Vector2<f64>,
    /// Image pixels per board mm along the normal.
    pub px_per_mm: f64,
}

/// Projects a sample and its normal through the current model.
pub fn project_sample(state: &FitState, sample: &MarkingSample) -> Option<Projected> {
    const PROBE_MM: f64 = 0.5;
    let point = state.project(&state.theta, sample.board)?;
    let ahead = state.project(&state.theta, sample.board + sample.normal * PROBE_MM)?;
    let step = ahead - point;
    let length = step.norm();
    (length > 1e-9).then(|| Projected {
        point,
        direction: step / length,
        px_per_mm: length / PROBE_MM,
    })
}

/// The filter geometry for a sample at a scale: (half band or zero for a
/// step, flank width), pixels.
fn filter_extent(kind: EdgeKind, px_per_mm: f64) -> (f64, f64) {
    match kind {
        EdgeKind::Step { reach_mm } => (0.0, (reach_mm * px_per_mm).clamp(1.5, 8.0)),
        EdgeKind::Band { width_mm } => {
            let half = (width_mm * px_per_mm / 2.0).max(0.5);
            (half, half.clamp(1.5, 6.0))
        }
    }
}

/// The edge profile across a projected sample: grey levels at
/// `PROFILE_STEP_PX` spacing from `-reach` to `+reach` pixels (the image
/// border replicated beyond the image).
fn profile(image: &GrayImage, at: &Projected, reach: f64) -> Vec<f64> {
    let n = (reach / PROFILE_STEP_PX).ceil() as i64;
    (-n..=n)
        .map(|i| {
            let s = i as f64 * PROFILE_STEP_PX;
            let p = at.point + at.direction * s;
            f64::from(image.sample_clamped(p.x, p.y))
        })
        .collect()
}

/// Responses of the edge filter at every profile position within `radius`
/// pixels of the centre; index 0 is offset `-radius`.
fn responses(values: &[f64], kind: EdgeKind, half_band: f64, flank: f64, radius: f64) -> Vec<f64> {
    let mut prefix = Vec::with_capacity(values.len() + 1);
    prefix.push(0.0);
    for v in values {
        prefix.push(prefix[prefix.len() - 1] + v);
    }
    let mean = |from: i64, to: i64| {
        // Inclusive index range, clamped; empty ranges read as None.
        let from = from.max(0) as usize;
        let to = (to.min(values.len() as i64 - 1)).max(-1);
        if to < from as i64 {
            return None;
        }
        let to = to as usize;
        Some((prefix[to + 1] - prefix[from]) / (to + 1 - from) as f64)
    };
    let centre = (values.len() / 2) as i64;
    let r = (radius / PROFILE_STEP_PX).round() as i64;
    let hb = (half_band / PROFILE_STEP_PX).round() as i64;
    let fl = (flank / PROFILE_STEP_PX).round().max(1.0) as i64;
    (-r..=r)
        .map(|offset| {
            let t = centre + offset;
            let value = match kind {
                EdgeKind::Step { .. } => {
                    let light = mean(t - fl, t - 1);
                    let dark = mean(t + 1, t + fl);
                    light.zip(dark).map(|(l, d)| l - d)
                }
                EdgeKind::Band { .. } => {
                    let paint = mean(t - hb, t + hb);
                    let before = mean(t - hb - fl, t - hb - 1);
                    let after = mean(t + hb + 1, t + hb + fl);
                    match (paint, before, after) {
                        // Both sides must be lighter than the paint: a plain
                        // step would otherwise score as half a band.
                        (Some(p), Some(b), Some(a)) => Some((b - p).min(a - p)),
                        _ => None,
                    }
                }
            };
            value.unwrap_or(f64::NEG_INFINITY)
        })
        .collect()
}

/// Searches along a sample's normal, within `radius` pixels of where the
/// model puts it, for the strongest matching edge.
pub fn find_edge(
    image: &GrayImage,
    sample: &MarkingSample,
    at: &Projected,
    radius: f64,
) -> Option<(f64, f64)> {
    let (half_band, flank) = filter_extent(sample.kind, at.px_per_mm);
    let support = half_band + flank + 1.0;
    if !image.contains(at.point, 1.0) {
        return None;
    }
    let values = profile(image, at, radius + support);
    let scores = responses(&values, sample.kind, half_band, flank, radius);
    let (best, &score) = scores
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))?;
    if score < MIN_RESPONSE || best == 0 || best + 1 == scores.len() {
        return None;
    }
    let (left, right) = (scores[best - 1], scores[best + 1]);
    let curvature = left - 2.0 * score + right;
    let shift = if curvature < 0.0 {
        (0.5 * (left - right) / curvature).clamp(-0.5, 0.5)
    } else {
        0.0
    };
    let r = (scores.len() / 2) as f64;
    Some(((best as f64 - r + shift) * PROFILE_STEP_PX, score))
}

/// The filter response exactly where the model puts a sample (no search):
/// what [`super::drift`] compares against calibration time.
pub fn response_at(image: &GrayImage, sample: &MarkingSample, at: &Projected) -> Option<f64> {
    let (half_band, flank) = filter_extent(sample.kind, at.px_per_mm);
    if !image.contains(at.point, half_band + flank + 2.0) {
        return None;
    }
    let values = profile(image, at, half_band + flank + 1.0);
    let scores = responses(&values, sample.kind, half_band, flank, 0.0);
    scores.first().copied().filter(|s| s.is_finite())
}

/// Finds the edges of all samples (those in view) within `radius_mm` (at
/// least `min_radius_px`) of the model.
pub fn search_edges(
    image: &GrayImage,
    state: &FitState,
    samples: &[MarkingSample],
    radius_mm: f64,
    min_radius_px: f64,
) -> (usize, Vec<FoundEdge>) {
    let projected: Vec<Option<Projected>> = samples
        .par_iter()
        .map(|s| project_sample(state, s).filter(|p| image.contains(p.point, 2.0)))
        .collect();
    let in_view = projected.iter().filter(|p| p.is_some()).count();
    let found = samples
        .par_iter()
        .zip(projected.par_iter())
        .enumerate()
        .filter_map(|(index, (sample, at))| {
            let at = at.as_ref()?;
            let radius = (radius_mm * at.px_per_mm).max(min_radius_px);
            let (offset, response) = find_edge(image, sample, at, radius)?;
            Some(FoundEdge {
                sample: index,
                point: at.point + at.direction * offset,
                direction: at.direction,
                px_per_mm: at.px_per_mm,
                response,
            })
        })
        .collect();
    (in_view, found)
}

/// Signed distances (pixels) of the found edges from the model, along the
/// normal.
pub fn residuals(state: &FitState, samples: &[MarkingSample], found: &[FoundEdge]) -> Vec<f64> {
    found
        .iter()
        .map(|f| {
            state
                .project(&state.theta, samples[f.sample].board)
                .map_or(f64::INFINITY, |p| f.direction.dot(&(p - f.point)))
        })
        .collect()
}

/// Signed distances (pixels) of the found edges from the model with the
/// edge and circle offsets applied: what the solve minimises.
fn offset_residuals(state: &FitState, samples: &[MarkingSample], found: &[FoundEdge]) -> Vec<f64> {
    found
        .iter()
        .map(|f| {
            state
                .project(&state.theta, offset_board(&state.theta, &samples[f.sample]))
                .map_or(f64::INFINITY, |p| f.direction.dot(&(p - f.point)))
        })
        .collect()
}

/// Robust scale of residuals: 1.4826 × median absolute value, at least
/// `floor` pixels.
pub fn robust_sigma(residuals: &[f64], floor: f64) -> f64 {
    let mut abs: Vec<f64> = residuals
        .iter()
        .filter(|r| r.is_finite())
        .map(|r| r.abs())
        .collect();
    if abs.is_empty() {
        return floor;
    }
    let mid = abs.len() / 2;
    abs.select_nth_unstable_by(mid, f64::total_cmp);
    (1.4826 * abs[mid]).max(floor)
}

fn huber_weight(r: f64, sigma: f64) -> f64 {
    let a = r.abs();
    if !a.is_finite() || a > 4.0 * sigma {
        0.0
    } else if a <= 1.5 * sigma {
        1.0
    } else {
        1.5 * sigma / a
    }
}

/// Which parameters a solve may change.
#[derive(Debug, Clone, Copy)]
pub struct Freedom {
    /// Second-order distortion.
    pub k1: bool,
    /// Fourth-order distortion.
    pub k2: bool,
    /// The principal point (distortion centre).
    pub centre: bool,
    /// The surface-edge and circle offsets (see `offset_index`).
    pub offsets: bool,
}

/// Weight of each marking group in the solve: the long straight edges carry
/// the fit; circles, whose printed size varies most between real boards,
/// only help. The surface edge weighs `edge_weight`: it is where the fit
/// starts, but the frame's wall, bevels and shadows move where it shows by
/// up to a millimetre or more, so until its sides have offsets of their own
/// (`Freedom::offsets`) the painted markings have the last word.
fn group_weight(group: MarkingGroup, edge_weight: f64) -> f64 {
    match group {
        MarkingGroup::SurfaceEdge => edge_weight,
        MarkingGroup::BaseLine | MarkingGroup::Arrow => 1.0,
        MarkingGroup::BaseCircle | MarkingGroup::CentreCircle | MarkingGroup::OuterCircle => 0.5,
    }
}

/// Levenberg–Marquardt on the found edges with Huber weights; returns the
/// robust residual scale used. `sigma_floor` (pixels) keeps that scale from
/// shrinking below what the search radius allows, so that while the model is
/// still far off, the edges it is furthest from are pulled in, not rejected.
pub fn solve(
    state: &mut FitState,
    samples: &[MarkingSample],
    found: &[FoundEdge],
    freedom: Freedom,
    iterations: usize,
    sigma_floor: f64,
    edge_weight: f64,
) -> f64 {
    let mut active: Vec<usize> = (0..8).collect();
    if freedom.k1 {
        active.push(K1);
    }
    if freedom.k2 {
        active.push(K2);
    }
    if freedom.centre {
        active.extend([CX, CY]);
    }
    if freedom.offsets {
        active.extend(EDGE_OFFSETS..PARAMS);
    }
    let m = active.len();
    let mut lambda = 1e-3;
    let mut sigma = robust_sigma(&offset_residuals(state, samples, found), sigma_floor);
    for _ in 0..iterations {
        let current = offset_residuals(state, samples, found);
        sigma = robust_sigma(&current, sigma_floor);
        let weights: Vec<f64> = current
            .iter()
            .zip(found)
            .map(|(r, f)| {
                huber_weight(*r, sigma) * group_weight(samples[f.sample].group, edge_weight)
            })
            .collect();
        let cost = |theta: &[f64; PARAMS]| -> f64 {
            let mut total = 0.0;
            for (f, w) in found.iter().zip(&weights) {
                if *w == 0.0 {
                    continue;
                }
                let Some(p) = state.project(theta, offset_board(theta, &samples[f.sample])) else {
                    return f64::INFINITY;
                };
                let r = f.direction.dot(&(p - f.point));
                total += w * r * r;
            }
            total + prior_cost(theta)
        };
        let rows: Vec<Option<(f64, Vec<f64>)>> = found
            .par_iter()
            .zip(weights.par_iter())
            .map(|(f, &w)| {
                if w == 0.0 {
                    return None;
                }
                let sample = &samples[f.sample];
                let p = state.project(&state.theta, offset_board(&state.theta, sample))?;
                let r = f.direction.dot(&(p - f.point));
                let mut row = Vec::with_capacity(m);
                for &j in &active {
                    let eps = 1e-6;
                    let mut plus = state.theta;
                    plus[j] += eps;
                    let mut minus = state.theta;
                    minus[j] -= eps;
                    let a = state.project(&plus, offset_board(&plus, sample))?;
                    let b = state.project(&minus, offset_board(&minus, sample))?;
                    row.push(f.direction.dot(&(a - b)) / (2.0 * eps));
                }
                Some((
                    r * w.sqrt(),
                    row.into_iter().map(|x| x * w.sqrt()).collect(),
                ))
            })
            .collect();
        let mut jtj = DMatrix::<f64>::zeros(m, m);
        let mut jtr = DVector::<f64>::zeros(m);
        for (r, row) in rows.into_iter().flatten() {
            for a in 0..m {
                jtr[a] += row[a] * r;
                for b in a..m {
                    jtj[(a, b)] += row[a] * row[b];
                }
            }
        }
        for a in 0..m {
            for b in 0..a {
                jtj[(a, b)] = jtj[(b, a)];
            }
        }
        add_priors(&state.theta, &active, &mut jtj, &mut jtr);
        let before = cost(&state.theta);
        let mut improved = false;
        for _ in 0..8 {
            let mut damped = jtj.clone();
            for a in 0..m {
                damped[(a, a)] += lambda * jtj[(a, a)].max(1e-9);
            }
            let Some(step) = damped.cholesky().map(|c| c.solve(&(-&jtr))) else {
                lambda *= 10.0;
                continue;
            };
            let mut trial = state.theta;
            for (k, &j) in active.iter().enumerate() {
                trial[j] += step[k];
            }
            if cost(&trial) < before {
                state.theta = trial;
                lambda = (lambda / 3.0).max(1e-9);
                improved = true;
                break;
            }
            lambda *= 10.0;
        }
        if !improved {
            break;
        }
    }
    sigma
}

fn prior_cost(theta: &[f64; PARAMS]) -> f64 {
    (K2_PRIOR_PX * theta[K2]).powi(2)
        + (CENTRE_PRIOR_PX * theta[CX]).powi(2)
        + (CENTRE_PRIOR_PX * theta[CY]).powi(2)
        + theta[EDGE_OFFSETS..]
            .iter()
            .map(|o| (OFFSET_PRIOR_PX * o).powi(2))
            .sum::<f64>()
}

fn add_priors(
    theta: &[f64; PARAMS],
    active: &[usize],
    jtj: &mut DMatrix<f64>,
    jtr: &mut DVector<f64>,
) {
    for (k, &j) in active.iter().enumerate() {
        let weight = match j {
            K2 => K2_PRIOR_PX,
            CX | CY => CENTRE_PRIOR_PX,
            j if j >= EDGE_OFFSETS => OFFSET_PRIOR_PX,
            _ => continue,
        };
        jtj[(k, k)] += weight * weight;
        jtr[k] += weight * weight * theta[j];
    }
}
