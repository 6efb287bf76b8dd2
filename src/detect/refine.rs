//! Resting pieces' centres refined on the camera frame itself. The top view
//! the tracker works in has 2 mm pixels, so a centre found there is off by
//! about 1.5 mm; a piece at rest can afford a closer look. Its outline is
//! sampled straight from the camera frame at [`PATCH_PX_PER_MM`], the
//! strongest edge is found along rays from the tracked centre, and a circle
//! is fitted to those edge points, neighbours' edges and glints thrown out
//! as outliers. The fitted circle is the disc's outline in the board plane's
//! mapping (its top is seen a little farther out than its foot), so the
//! caller still stands it on the board with [`super::stand_on_the_board`].

use nalgebra::{Matrix3, Point2, Vector2, Vector3};
use opencv::core::{Mat, Size, BORDER_REPLICATE, CV_32F};
use opencv::imgproc;
use opencv::prelude::*;

use super::shake::Shift;
use super::topview::TopView;
use crate::calibrate::gray::GrayImage;

/// Resolution (px per mm) of the patch a resting piece is fitted in: a
/// 720p camera over a 740 mm board sees about 1.2 px per mm, so this
/// samples every camera pixel several times and loses nothing to the patch.
pub const PATCH_PX_PER_MM: f64 = 4.0;

/// The ring sampled reaches this far (mm) beyond the band the edges are
/// looked for in: the blur and the Sobel kernel read 6 patch pixels round
/// each pixel, so the ring's own border never shows in the band.
const RING_MARGIN_MM: f64 = 2.0;

/// Patch pixels between the points where the camera's mapping is looked up
/// (2 mm, the remap table's own spacing).
const GRID_PX: usize = 8;

/// How far (mm) inside and outside the expected radius the outline is
/// looked for. It is seen wider than the disc (about 1.4 mm in the renders:
/// the side wall and blur), farther out still on the side away from the
/// camera, where the raised top stands out, and the tracked centre it is
/// looked for from may be 2–3 mm off; a real piece may also be off its
/// nominal size by the ICF tolerance.
const EDGE_INSIDE_MM: f64 = 3.5;
const EDGE_OUTSIDE_MM: f64 = 5.5;

/// Rays cast from the tracked centre, one edge point each.
const RAYS: usize = 72;

/// A ray's strongest edge weaker than this (Sobel on blurred grey levels:
/// about a 3-level step) is noise on a flat surface.
const MIN_EDGE_STRENGTH: f32 = 6.0;

/// A ray's strongest edge weaker than this fraction of the outline's
/// (the 90th percentile of all rays') crosses no edge at all.
const WEAK_EDGE_FRACTION: f32 = 0.2;

/// Gaussian smoothing (patch px) before the gradient: a camera pixel is
/// about 3.3 patch pixels wide, and its blocky edges would otherwise be the
/// strongest ones.
const BLUR_SIGMA_PX: f64 = 1.2;

/// An edge point off the fitted circle by more than this many times the
/// median miss (and more than [`MIN_OUTLIER_PX`]) is another piece's edge,
/// a print line or a glint.
const OUTLIER_FACTOR: f64 = 2.5;
const MIN_OUTLIER_PX: f64 = 0.5;

/// Refits after throwing out outliers.
const FIT_ROUNDS: usize = 3;

/// An edge point this near (patch px: 0.75 mm) a candidate circle agrees
/// with it: loose, because a disc seen off the camera's axis is not quite a
/// circle (its raised top stretches the outline by up to 2 mm), and tighter
/// tolerances refused good fits on the tuning clips.
const CONSENSUS_PX: f64 = 3.0;

/// Candidate circles are drawn through rays 0, a and b twelfths of the way
/// round from each ray: spread wide, so that three rays clear of a hidden
/// or touching stretch of the outline are always among them.
const TRIPLE_SPREADS: [(usize, usize); 3] = [(4, 8), (3, 6), (2, 5)];

/// Fewer rays than this agreeing on the circle (a third of them) and the
/// outline is not trusted: a hand over the piece, a cluster.
const MIN_AGREEING_RAYS: usize = 24;

/// A fitted radius this far below or above the expected one is another
/// outline (a print circle, a neighbour pair's hull), not this disc's.
const RADIUS_BELOW_MM: f64 = 2.5;
const RADIUS_ABOVE_MM: f64 = 3.5;

/// A fitted centre farther than this (mm) from the tracked one is not a
/// refinement but a different answer; the tracker's stands.
const MAX_SHIFT_MM: f64 = 5.0;

/// The centre (board mm, through the board plane's mapping, like the
/// tracker's) of the disc of about `radius_mm` seen near `seen` in the
/// camera `frame` (its grey levels, unsmoothed, the image moved by `shift`
/// since the calibration's frames), or `None` where its
/// outline cannot be trusted (partly hidden, off the image, touching too
/// much); the caller then keeps the tracker's centre.
pub fn refine_centre(
    frame: &GrayImage,
    top_view: &TopView,
    shift: Shift,
    seen: Point2<f64>,
    radius_mm: f64,
) -> Option<Point2<f64>> {
    fit_outline_of(frame, top_view, shift, seen, radius_mm).map(|outline| outline.centre)
}

/// A disc's outline fitted on the camera frame: its centre and radius in
/// the board plane's mapping, board mm. The radius is the outline's as
/// seen, a little over the disc's own (its side wall and blur).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FittedOutline {
    /// Centre, board mm.
    pub centre: Point2<f64>,
    /// Radius, mm.
    pub radius_mm: f64,
}

/// As [`refine_centre`], with the radius the outline measures.
pub fn fit_outline_of(
    frame: &GrayImage,
    top_view: &TopView,
    shift: Shift,
    seen: Point2<f64>,
    radius_mm: f64,
) -> Option<FittedOutline> {
    let ring = (
        radius_mm - EDGE_INSIDE_MM - RING_MARGIN_MM,
        radius_mm + EDGE_OUTSIDE_MM + RING_MARGIN_MM,
    );
    let patch = GrayPatch::sample_ring(frame, top_view, shift, seen, ring)?;
    let (dx, dy) = patch.gradients()?;
    let circle = fit_outline(&patch.middle_px(), &dx, &dy, radius_mm)?;
    patch.outline_of(circle, seen, radius_mm)
}

/// The gradients of the camera frame over a patch round a point, wide
/// enough for fits from every seed of [`outline_seeds`] round it: sampling
/// a patch and blurring it costs most of a fit, and the seeds' patches
/// overlap nearly whole. A fit's rays look only 2 mm
/// ([`RING_MARGIN_MM`]) inside its own patch's ring, farther than the blur
/// and the derivative reach, so a fit here sees what one on its own patch
/// does (but for sampling the camera frame at pixels a fraction apart).
struct OutlineField {
    patch: GrayPatch,
    dx: GrayImage,
    dy: GrayImage,
}

impl OutlineField {
    /// The field round `at` for outlines of up to `largest_mm` radius;
    /// `None` where any of it falls off the camera image.
    fn round(
        frame: &GrayImage,
        top_view: &TopView,
        shift: Shift,
        at: Point2<f64>,
        largest_mm: f64,
    ) -> Option<Self> {
        let reach = OUTLINE_SEEDS_MM + largest_mm + EDGE_OUTSIDE_MM + RING_MARGIN_MM;
        let patch = GrayPatch::sample_ring(frame, top_view, shift, at, (0.0, reach))?;
        let (dx, dy) = patch.gradients()?;
        Some(OutlineField { patch, dx, dy })
    }

    /// As [`fit_outline_of`] from `seen`, on this field.
    fn fit(&self, seen: Point2<f64>, radius_mm: f64) -> Option<FittedOutline> {
        let circle = fit_outline(&self.patch.to_px(seen), &self.dx, &self.dy, radius_mm)?;
        self.patch.outline_of(circle, seen, radius_mm)
    }
}

/// The fits of a disc's outline of each of `radii_mm` from each of `seeds`
/// round `at` (offsets, mm), on one [`OutlineField`] where it can be
/// sampled, else each on its own patch.
fn fits_from_seeds<'a>(
    frame: &'a GrayImage,
    top_view: &'a TopView,
    shift: Shift,
    at: Point2<f64>,
    seeds: impl Iterator<Item = Vector2<f64>> + 'a,
    radii_mm: &'a [f64],
) -> impl Iterator<Item = FittedOutline> + 'a {
    let largest = radii_mm.iter().copied().fold(0.0, f64::max);
    let field = OutlineField::round(frame, top_view, shift, at, largest);
    seeds
        .flat_map(move |seed| radii_mm.iter().map(move |&r| (at + seed, r)))
        .filter_map(move |(seen, r)| match &field {
            Some(field) => field.fit(seen, r),
            None => fit_outline_of(frame, top_view, shift, seen, r),
        })
}

/// Where round a point a disc's outline is looked for by [`outline_near`]
/// (mm from it): a track's centre can lie a little off its piece, drawn by
/// a print or a neighbour beside it.
const OUTLINE_SEEDS_MM: f64 = 8.0;

/// A ring of seeds halfway out: a fit reaches only [`EDGE_INSIDE_MM`] inside
/// the outline from its seed, so a centre 4 mm off lies beyond the fit from
/// `at` on its near side and beyond those from the outer seeds on theirs
/// (clip 3643: a black on the centre star followed 4 mm off its centre
/// showed no outline from any of the seven, and was dropped as a print).
const OUTLINE_INNER_SEEDS_MM: f64 = 4.0;

/// An outline found this far (mm) from the point is still its piece's.
const OUTLINE_REACH_MM: f64 = 9.0;

/// The disc outline of about `radius_mm` nearest `at` on the camera frame,
/// within [`OUTLINE_REACH_MM`] of it, looked for from `at` and twelve points
/// round it ([`outline_seeds`]): a track's centre can lie off its
/// piece by more than a fit from it reaches (clip 3099: the striker at
/// rest, followed as a black 8 mm off its centre).
pub fn fit_outline_near(
    frame: &GrayImage,
    top_view: &TopView,
    shift: Shift,
    at: Point2<f64>,
    radius_mm: f64,
) -> Option<FittedOutline> {
    fits_from_seeds(frame, top_view, shift, at, outline_seeds(), &[radius_mm])
        .filter(|outline| (outline.centre - at).norm() <= OUTLINE_REACH_MM)
        .min_by(|a, b| (a.centre - at).norm().total_cmp(&(b.centre - at).norm()))
}

/// `at` itself, then six points round it [`OUTLINE_INNER_SEEDS_MM`] away
/// (between the outer ones' bearings), then six [`OUTLINE_SEEDS_MM`] away.
fn outline_seeds() -> impl Iterator<Item = Vector2<f64>> {
    let ring = |distance: f64, turn: f64| {
        (0..6).map(move |k| {
            let angle = (f64::from(k) + turn) * std::f64::consts::FRAC_PI_3;
            Vector2::new(angle.cos(), angle.sin()) * distance
        })
    };
    std::iter::once(Vector2::zeros())
        .chain(ring(OUTLINE_INNER_SEEDS_MM, 0.5))
        .chain(ring(OUTLINE_SEEDS_MM, 0.0))
}

/// Whether a disc's outline of one of `radii_mm` shows on the camera frame
/// within [`OUTLINE_REACH_MM`] of `at`, looked for from `at` and twelve points
/// round it: a piece shows one there, a print on the board does not.
pub fn outline_near(
    frame: &GrayImage,
    top_view: &TopView,
    shift: Shift,
    at: Point2<f64>,
    radii_mm: &[f64],
) -> bool {
    let near = |outline: &FittedOutline| (outline.centre - at).norm() <= OUTLINE_REACH_MM;
    // From `at` itself first, on patches of their own: a piece is mostly
    // found there, and one patch for every seed costs more than one.
    radii_mm
        .iter()
        .filter_map(|&r| fit_outline_of(frame, top_view, shift, at, r))
        .any(|outline| near(&outline))
        || fits_from_seeds(
            frame,
            top_view,
            shift,
            at,
            outline_seeds().skip(1),
            radii_mm,
        )
        .any(|outline| near(&outline))
}

/// A square of grey levels sampled from the camera frame round a board
/// point, rows running south like the top view's.
struct GrayPatch {
    side: usize,
    /// Board point (mm) at the middle of the patch.
    centre: Point2<f64>,
    half_mm: f64,
    values: Vec<f32>,
}

impl GrayPatch {
    /// Samples the ring `(inner, outer)` mm round `centre` (a square patch
    /// `outer` each way, zero inside and outside the ring: the edges are
    /// looked for well within it); `None` where any of it falls off the
    /// camera image.
    fn sample_ring(
        frame: &GrayImage,
        top_view: &TopView,
        shift: Shift,
        centre: Point2<f64>,
        (inner, outer): (f64, f64),
    ) -> Option<Self> {
        let half_mm = outer;
        let side = (2.0 * half_mm * PATCH_PX_PER_MM).round() as usize;
        let mut patch = GrayPatch {
            side,
            centre,
            half_mm,
            values: Vec::with_capacity(side * side),
        };
        // The camera's mapping at every GRID_PX-th pixel, bilinear between:
        // the remap table it comes from is itself bilinear between 2 mm
        // entries, and this spares all but one lookup in 64.
        let nodes = side / GRID_PX + 2;
        let mut grid = Vec::with_capacity(nodes * nodes);
        for row in 0..nodes {
            for column in 0..nodes {
                let px = Point2::new((column * GRID_PX) as f64, (row * GRID_PX) as f64);
                grid.push(shift.moved(top_view.image_point(patch.to_board(px))?));
            }
        }
        let step = GRID_PX as f64;
        let middle = patch.middle_px();
        let (inner_px, outer_px) = (inner * PATCH_PX_PER_MM, outer * PATCH_PX_PER_MM);
        let (inner_sq, outer_sq) = (inner_px * inner_px, outer_px * outer_px);
        for row in 0..side {
            let (cell_row, fy) = (row / GRID_PX, (row % GRID_PX) as f64 / step);
            // This row's image points at the grid's columns.
            let along: Vec<Point2<f64>> = (0..nodes)
                .map(|c| {
                    let top = grid[cell_row * nodes + c].coords;
                    let bottom = grid[(cell_row + 1) * nodes + c].coords;
                    Point2::from(top * (1.0 - fy) + bottom * fy)
                })
                .collect();
            let dy = row as f64 - middle.y;
            for column in 0..side {
                let dx = column as f64 - middle.x;
                let from_middle_sq = dx * dx + dy * dy;
                if from_middle_sq < inner_sq || from_middle_sq > outer_sq {
                    patch.values.push(0.0);
                    continue;
                }
                let (cell, fx) = (column / GRID_PX, (column % GRID_PX) as f64 / step);
                let image = along[cell] + (along[cell + 1] - along[cell]) * fx;
                patch.values.push(frame.sample(image.x, image.y)?);
            }
        }
        Some(patch)
    }

    /// The board point (mm) at a patch pixel (column, row).
    fn to_board(&self, px: Point2<f64>) -> Point2<f64> {
        Point2::new(
            self.centre.x - self.half_mm + (px.x + 0.5) / PATCH_PX_PER_MM,
            self.centre.y + self.half_mm - (px.y + 0.5) / PATCH_PX_PER_MM,
        )
    }

    /// The patch pixel (column, row) at a board point (mm): the inverse
    /// of [`GrayPatch::to_board`].
    fn to_px(&self, board: Point2<f64>) -> Point2<f64> {
        Point2::new(
            (board.x - self.centre.x + self.half_mm) * PATCH_PX_PER_MM - 0.5,
            (self.centre.y + self.half_mm - board.y) * PATCH_PX_PER_MM - 0.5,
        )
    }

    /// The outline of `circle` (patch pixels), fitted for one of
    /// `radius_mm` from `seen`, if its size and place pass: within
    /// [`RADIUS_BELOW_MM`] under and [`RADIUS_ABOVE_MM`] over that radius,
    /// within [`MAX_SHIFT_MM`] of `seen`.
    fn outline_of(
        &self,
        circle: Circle,
        seen: Point2<f64>,
        radius_mm: f64,
    ) -> Option<FittedOutline> {
        let radius = circle.radius_px / PATCH_PX_PER_MM;
        if radius < radius_mm - RADIUS_BELOW_MM || radius > radius_mm + RADIUS_ABOVE_MM {
            return None;
        }
        let centre = self.to_board(circle.centre);
        ((centre - seen).norm() <= MAX_SHIFT_MM).then_some(FittedOutline {
            centre,
            radius_mm: radius,
        })
    }

    /// The patch pixel (column, row) at its middle.
    fn middle_px(&self) -> Point2<f64> {
        let middle = self.half_mm * PATCH_PX_PER_MM - 0.5;
        Point2::new(middle, middle)
    }

    /// Derivatives along columns (east) and rows (south) of the patch
    /// blurred with a Gaussian of [`BLUR_SIGMA_PX`]: OpenCV's Gaussian and
    /// 3×3 Sobel. `None` only if OpenCV fails.
    fn gradients(&self) -> Option<(GrayImage, GrayImage)> {
        let side = i32::try_from(self.side).ok()?;
        let flat = Mat::from_slice(&self.values).ok()?;
        let grey = flat.reshape(1, side).ok()?;
        let mut blurred = Mat::default();
        imgproc::gaussian_blur(
            &grey,
            &mut blurred,
            Size::new(0, 0),
            BLUR_SIGMA_PX,
            BLUR_SIGMA_PX,
            BORDER_REPLICATE,
        )
        .ok()?;
        let derivative = |dx: i32, dy: i32| -> Option<GrayImage> {
            let mut out = Mat::default();
            imgproc::sobel(
                &blurred,
                &mut out,
                CV_32F,
                dx,
                dy,
                3,
                1.0,
                0.0,
                BORDER_REPLICATE,
            )
            .ok()?;
            let values = out.data_typed::<f32>().ok()?.to_vec();
            GrayImage::from_values(self.side, self.side, values)
        };
        Some((derivative(1, 0)?, derivative(0, 1)?))
    }
}

/// A circle in patch pixels.
#[derive(Debug, Clone, Copy)]
struct Circle {
    centre: Point2<f64>,
    radius_px: f64,
}

/// The strongest edge along each ray from `middle` (patch px), within
/// [`EDGE_INSIDE_MM`] / [`EDGE_OUTSIDE_MM`] of `radius_mm`, fitted with a
/// circle (outliers out); `None` where too few rays agree.
fn fit_outline(
    middle: &Point2<f64>,
    dx: &GrayImage,
    dy: &GrayImage,
    radius_mm: f64,
) -> Option<Circle> {
    let (inner, outer) = (
        (radius_mm - EDGE_INSIDE_MM) * PATCH_PX_PER_MM,
        (radius_mm + EDGE_OUTSIDE_MM) * PATCH_PX_PER_MM,
    );
    // Half-pixel steps along the ray.
    let steps = ((outer - inner) * 2.0) as usize;
    let mut edges = Vec::with_capacity(RAYS);
    let mut strength = vec![0.0f32; steps];
    for ray in 0..RAYS {
        let angle = ray as f64 * std::f64::consts::TAU / RAYS as f64;
        let (cos, sin) = (angle.cos(), angle.sin());
        for (k, s) in strength.iter_mut().enumerate() {
            let r = inner + k as f64 * 0.5;
            let (x, y) = (middle.x + r * cos, middle.y + r * sin);
            // Off the patch (never, for a band inside it) reads as no edge.
            let at = |image: &GrayImage| f64::from(image.sample(x, y).unwrap_or(0.0));
            let along = at(dx) * cos + at(dy) * sin;
            *s = along.abs() as f32;
        }
        let Some(peak) = (0..steps).max_by(|&a, &b| strength[a].total_cmp(&strength[b])) else {
            continue;
        };
        // Strongest at either end of the band: the edge lies beyond it, or
        // there is none (a flat face, a hand), and the ray says nothing.
        if peak == 0 || peak + 1 >= steps || strength[peak] < MIN_EDGE_STRENGTH {
            continue;
        }
        // The peak to a fraction of a step, from the parabola through it.
        let (a, b, c) = (
            f64::from(strength[peak - 1]),
            f64::from(strength[peak]),
            f64::from(strength[peak + 1]),
        );
        let curvature = a - 2.0 * b + c;
        let offset = if curvature < 0.0 {
            0.5 * (a - c) / curvature
        } else {
            0.0
        };
        let r = inner + (peak as f64 + offset) * 0.5;
        edges.push((
            strength[peak],
            Point2::new(middle.x + r * cos, middle.y + r * sin),
        ));
    }
    // A ray crossing no edge (under a hand, along a print line) still has a
    // strongest point; only edges near the strength of the outline count.
    let mut strengths: Vec<f32> = edges.iter().map(|(s, _)| *s).collect();
    strengths.sort_by(f32::total_cmp);
    let typical = strengths
        .get(strengths.len() * 9 / 10)
        .copied()
        .unwrap_or(0.0);
    let floor = WEAK_EDGE_FRACTION * typical;
    let edges: Vec<Point2<f64>> = edges
        .into_iter()
        .filter_map(|(s, p)| (s > floor).then_some(p))
        .collect();
    fit_circle_robustly(&edges)
}

/// The circle most edge points agree with: every circle through three
/// rays spread round the disc is tried, the one with the most points within
/// [`CONSENSUS_PX`] wins (a neighbour's edge or a shadow takes a run of
/// neighbouring rays, and a least-squares fit alone leans towards it),
/// then least squares over those points, refitted [`FIT_ROUNDS`] times
/// without the points far off it. `None` with fewer than
/// [`MIN_AGREEING_RAYS`] points agreeing.
fn fit_circle_robustly(points: &[Point2<f64>]) -> Option<Circle> {
    let n = points.len();
    if n < MIN_AGREEING_RAYS {
        return None;
    }
    let agreeing = |circle: &Circle, limit: f64| -> Vec<bool> {
        points
            .iter()
            .map(|p| ((p - circle.centre).norm() - circle.radius_px).abs() < limit)
            .collect()
    };
    let mut best: Option<(usize, Vec<bool>)> = None;
    for (second, third) in TRIPLE_SPREADS.map(|(a, b)| (n * a / 12, n * b / 12)) {
        for first in 0..n {
            let triple = [
                points[first],
                points[(first + second) % n],
                points[(first + third) % n],
            ];
            let Some(circle) = fit_circle(&triple) else {
                continue;
            };
            let keep = agreeing(&circle, CONSENSUS_PX);
            let count = keep.iter().filter(|&&k| k).count();
            if best.as_ref().is_none_or(|(most, _)| count > *most) {
                best = Some((count, keep));
            }
        }
    }
    let (_, mut keep) = best?;
    let mut circle = None;
    for _ in 0..FIT_ROUNDS {
        let kept: Vec<Point2<f64>> = points
            .iter()
            .zip(&keep)
            .filter_map(|(p, &k)| k.then_some(*p))
            .collect();
        if kept.len() < MIN_AGREEING_RAYS {
            return None;
        }
        let fitted = fit_circle(&kept)?;
        let mut misses: Vec<f64> = kept
            .iter()
            .map(|p| ((p - fitted.centre).norm() - fitted.radius_px).abs())
            .collect();
        misses.sort_by(f64::total_cmp);
        let limit = (OUTLIER_FACTOR * misses[misses.len() / 2]).max(MIN_OUTLIER_PX);
        keep = agreeing(&fitted, limit);
        circle = Some(fitted);
    }
    let agreeing = keep.iter().filter(|&&k| k).count();
    circle.filter(|_| agreeing >= MIN_AGREEING_RAYS)
}

/// The least-squares circle through `points` (Kåsa's algebraic fit: linear
/// in the centre and radius² − |centre|²); `None` for collinear points.
fn fit_circle(points: &[Point2<f64>]) -> Option<Circle> {
    let mut normal = Matrix3::<f64>::zeros();
    let mut rhs = Vector3::<f64>::zeros();
    for p in points {
        let row = Vector3::new(2.0 * p.x, 2.0 * p.y, 1.0);
        normal += row * row.transpose();
        rhs += row * (p.x * p.x + p.y * p.y);
    }
    let solution = normal.lu().solve(&rhs)?;
    let centre = Point2::new(solution.x, solution.y);
    let radius_squared = solution.z + centre.coords.norm_squared();
    (radius_squared > 0.0).then(|| Circle {
        centre,
        radius_px: radius_squared.sqrt(),
    })
}

/// A camera over the board like the simulator's, and a frame from it of
/// light wood with dark discs (`centre`, radius) and, optionally, a
/// dark band (a forearm) over everything north of `arm_north_of`.
#[cfg(test)]
pub(crate) fn camera_and_frame(
    discs: &[(Point2<f64>, f64)],
    arm_north_of: Option<f64>,
) -> (crate::sim::camera::Camera, Mat) {
    camera_and_frame_on_print(discs, arm_north_of, |_| false)
}

/// As [`camera_and_frame`], the board dark too (a print, darker still than
/// the discs: an edge far fainter than the wood's) where `print` says.
#[cfg(test)]
fn camera_and_frame_on_print(
    discs: &[(Point2<f64>, f64)],
    arm_north_of: Option<f64>,
    print: impl Fn(Point2<f64>) -> bool,
) -> (crate::sim::camera::Camera, Mat) {
    let camera = crate::detect::test_camera();
    let mut bytes = vec![0u8; 1280 * 720 * 3];
    for row in 0..720 {
        for column in 0..1280 {
            // 3×3 samples a pixel: edges shade as a camera's do.
            let mut dark = 0.0;
            for (sx, sy) in (0..9).map(|k| (k % 3, k / 3)) {
                let image = Point2::new(
                    column as f64 + (f64::from(sx) + 0.5) / 3.0 - 0.5,
                    row as f64 + (f64::from(sy) + 0.5) / 3.0 - 0.5,
                );
                let board = camera.image_to_board(image).unwrap();
                let on_disc = discs.iter().any(|(c, r)| (board - c).norm() <= *r);
                let on_arm = arm_north_of.is_some_and(|north| board.y > north);
                if on_disc || on_arm {
                    dark += 1.0 / 9.0;
                } else if print(board) {
                    dark += 1.1 / 9.0;
                }
            }
            let grey = (200.0 - 160.0 * dark) as u8;
            let i = 3 * (row * 1280 + column);
            bytes[i..i + 3].copy_from_slice(&[grey.saturating_sub(40), grey, grey]);
        }
    }
    let frame = Mat::from_slice(&bytes)
        .unwrap()
        .reshape(3, 720)
        .unwrap()
        .try_clone()
        .unwrap();
    (camera, frame)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::spec::CARROMMAN_RADIUS_MM;

    #[test]
    fn a_circle_through_exact_points_is_found_exactly() {
        let points: Vec<Point2<f64>> = (0..20)
            .map(|k| {
                let a = f64::from(k) * 0.3;
                Point2::new(10.0 + 7.0 * a.cos(), -4.0 + 7.0 * a.sin())
            })
            .collect();
        let circle = fit_circle(&points).unwrap();
        assert!((circle.centre - Point2::new(10.0, -4.0)).norm() < 1e-9);
        assert!((circle.radius_px - 7.0).abs() < 1e-9);
        assert!(fit_circle(&[
            Point2::new(0.0, 0.0),
            Point2::new(1.0, 1.0),
            Point2::new(2.0, 2.0)
        ])
        .is_none());
    }

    #[test]
    fn a_neighbour_s_edge_on_some_rays_is_thrown_out() {
        // 72 rays on a circle of 60 px round (100, 100); 14 of them caught
        // a touching neighbour's edge 10 px farther out.
        let points: Vec<Point2<f64>> = (0..RAYS)
            .map(|k| {
                let a = k as f64 * std::f64::consts::TAU / RAYS as f64;
                let r = if k < 14 { 70.0 } else { 60.0 } + 0.2 * (k as f64 * 1.7).sin();
                Point2::new(100.0 + r * a.cos(), 100.0 + r * a.sin())
            })
            .collect();
        let plain = fit_circle(&points).unwrap();
        let robust = fit_circle_robustly(&points).unwrap();
        assert!((plain.centre - Point2::new(100.0, 100.0)).norm() > 1.5);
        assert!(
            (robust.centre - Point2::new(100.0, 100.0)).norm() < 0.1,
            "{:?}",
            robust.centre
        );
    }

    #[test]
    fn a_resting_disc_s_centre_is_found_to_a_tenth_of_a_millimetre() {
        let (disc, neighbour) = (Point2::new(201.3, -148.6), Point2::new(232.4, -148.6));
        let (camera, frame) = camera_and_frame(
            &[
                (disc, CARROMMAN_RADIUS_MM),
                (neighbour, CARROMMAN_RADIUS_MM),
            ],
            None,
        );
        let view = TopView::new(&camera, 0.5).unwrap();
        // The tracker's centre, 1.5 mm off as the 2 mm top view leaves it.
        let tracked = disc + nalgebra::Vector2::new(1.2, -0.9);
        let frame = GrayImage::from_frame(&frame, 0.0).unwrap();
        let refined =
            refine_centre(&frame, &view, Shift::NONE, tracked, CARROMMAN_RADIUS_MM).unwrap();
        assert!((refined - disc).norm() < 0.1, "{refined} for {disc}");
    }

    #[test]
    fn a_disc_mostly_on_a_dark_print_shows_its_outline_from_a_point_4_mm_off() {
        // A black on the centre star (clip 3643): the print round the west
        // of it, under 117 degrees each way, leaves an edge too faint to
        // count; the track lies 4 mm east of the piece's centre. From there
        // and from the six points 8 mm round it, no outline was found.
        let disc = Point2::new(20.0, 5.0);
        let on_print = |p: Point2<f64>| {
            let v = p - disc;
            v.norm() < 60.0 && v.y.atan2(-v.x).abs() < 0.65 * std::f64::consts::PI
        };
        let (camera, frame) =
            camera_and_frame_on_print(&[(disc, CARROMMAN_RADIUS_MM)], None, on_print);
        let view = TopView::new(&camera, 0.5).unwrap();
        let grey = GrayImage::from_frame(&frame, 0.0).unwrap();
        let tracked = disc + Vector2::new(4.0, 0.0);
        assert!(outline_near(
            &grey,
            &view,
            Shift::NONE,
            tracked,
            &[CARROMMAN_RADIUS_MM]
        ));
        // The print alone shows none.
        let (_, bare) = camera_and_frame_on_print(&[], None, on_print);
        let bare = GrayImage::from_frame(&bare, 0.0).unwrap();
        assert!(!outline_near(
            &bare,
            &view,
            Shift::NONE,
            tracked,
            &[CARROMMAN_RADIUS_MM]
        ));
    }

    #[test]
    fn a_disc_mostly_under_a_forearm_keeps_the_tracker_s_centre() {
        let disc = Point2::new(-120.0, 90.0);
        let (camera, frame) = camera_and_frame(&[(disc, CARROMMAN_RADIUS_MM)], Some(disc.y - 12.0));
        let view = TopView::new(&camera, 0.5).unwrap();
        let frame = GrayImage::from_frame(&frame, 0.0).unwrap();
        assert_eq!(
            refine_centre(&frame, &view, Shift::NONE, disc, CARROMMAN_RADIUS_MM),
            None
        );
        // Off the camera image altogether.
        assert_eq!(
            refine_centre(
                &frame,
                &view,
                Shift::NONE,
                Point2::new(5000.0, 0.0),
                CARROMMAN_RADIUS_MM
            ),
            None
        );
    }
}
