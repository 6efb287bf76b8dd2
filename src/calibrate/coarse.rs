//! Coarse board finding: the playing surface is the largest light
//! quadrilateral inside a dark frame. Threshold the lightness, take the
//! largest outline, fit its four sides robustly (so pockets, coins, hands and
//! the image edge cutting into the outline don't bend them) and intersect
//! them into the four surface corners.

use nalgebra::{Matrix3, Point2, Vector2};
use opencv::core::{Mat, Point, Size, Vector, BORDER_REPLICATE};
use opencv::{imgproc, prelude::*};

use super::calibration::SouthSide;
use super::error::{cv, CalibrateError};
use super::gray::to_grey;
use crate::geometry::spec::HALF_SURFACE_MM;

/// The coarse search works on a copy no larger than this (longest side,
/// pixels): the outline needs no more, and it keeps the search fast.
const WORK_SIDE_PX: f64 = 800.0;

/// The surface must cover at least this share of the image.
const MIN_AREA_FRACTION: f64 = 0.08;

/// Share of each side, at both ends, left out of the line fit: the pocket
/// holes and the frame's rounded corners bend the outline there.
const CORNER_SKIP_FRACTION: f64 = 0.12;

/// Outline points this close to the image border (pixels) are the image
/// edge, not the board's.
const IMAGE_BORDER_PX: f64 = 2.5;

/// How many of each mask's largest light regions are tried as the surface
/// (a light floor or table split by grout or shadows can outsize it).
const MAX_OUTLINES: usize = 3;

/// An outline with more of its points on the image border than this share is
/// the surroundings, not the board.
const MAX_BORDER_SHARE: f64 = 0.4;

/// RANSAC inlier distance, pixels of the working copy.
const RANSAC_TOLERANCE_PX: f64 = 1.5;

/// RANSAC trials per side.
const RANSAC_TRIALS: usize = 300;

/// The four corners of the playing surface in image pixels, in the order
/// south-west, south-east, north-east, north-west.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SurfaceCorners(pub [Point2<f64>; 4]);

/// The board corners the [`SurfaceCorners`] stand for, in the same order.
pub fn board_corners() -> [Point2<f64>; 4] {
    let h = HALF_SURFACE_MM;
    [
        Point2::new(-h, -h),
        Point2::new(h, -h),
        Point2::new(h, h),
        Point2::new(-h, h),
    ]
}

impl SurfaceCorners {
    /// Orders four image corners of the surface (any order) so that the side
    /// nearest `south` becomes the south side: SW, SE, NE, NW. Fails unless
    /// they form a convex quadrilateral.
    pub fn oriented(
        points: [Point2<f64>; 4],
        south: SouthSide,
    ) -> Result<SurfaceCorners, CalibrateError> {
        let centre = points.iter().fold(Vector2::zeros(), |a, p| a + p.coords) / 4.0;
        let mut sorted = points;
        // Sort by angle, then make the order run SW→SE→NE→NW, which in
        // image coordinates (rows grow downwards) has negative signed area.
        sorted.sort_by(|a, b| {
            let angle = |p: &Point2<f64>| (p.y - centre.y).atan2(p.x - centre.x);
            angle(a).total_cmp(&angle(b))
        });
        if signed_area(&sorted) > 0.0 {
            sorted.reverse();
        }
        if !is_convex(&sorted) {
            return Err(CalibrateError::BadCorners(
                "the four points do not form a convex quadrilateral".into(),
            ));
        }
        let midpoint =
            |i: usize| Point2::from((sorted[i].coords + sorted[(i + 1) % 4].coords) / 2.0);
        let south_index = (0..4)
            .max_by(|&a, &b| {
                south
                    .nearness(midpoint(a))
                    .total_cmp(&south.nearness(midpoint(b)))
            })
            .unwrap_or(0);
        Ok(SurfaceCorners(std::array::from_fn(|i| {
            sorted[(south_index + i) % 4]
        })))
    }

    /// The homography from board mm to image pixels these corners imply
    /// (ignoring lens distortion).
    pub fn homography(&self) -> Result<Matrix3<f64>, CalibrateError> {
        homography_from_points(&board_corners(), &self.0).ok_or_else(|| {
            CalibrateError::BadCorners("the corners do not define a homography".into())
        })
    }
}

fn signed_area(points: &[Point2<f64>; 4]) -> f64 {
    (0..4)
        .map(|i| {
            let (a, b) = (points[i], points[(i + 1) % 4]);
            a.x * b.y - b.x * a.y
        })
        .sum::<f64>()
        / 2.0
}

fn is_convex(points: &[Point2<f64>; 4]) -> bool {
    (0..4).all(|i| {
        let (a, b, c) = (points[i], points[(i + 1) % 4], points[(i + 2) % 4]);
        let cross = (b - a).perp(&(c - b));
        cross < 0.0
    })
}

/// The homography taking four points exactly onto four others (direct linear
/// transform with `h33 = 1`); `None` for degenerate input.
pub fn homography_from_points(
    from: &[Point2<f64>; 4],
    to: &[Point2<f64>; 4],
) -> Option<Matrix3<f64>> {
    let mut a = nalgebra::SMatrix::<f64, 8, 8>::zeros();
    let mut b = nalgebra::SVector::<f64, 8>::zeros();
    for i in 0..4 {
        let (x, y) = (from[i].x, from[i].y);
        let (u, v) = (to[i].x, to[i].y);
        let r = 2 * i;
        a.row_mut(r)
            .copy_from_slice(&[x, y, 1.0, 0.0, 0.0, 0.0, -u * x, -u * y]);
        a.row_mut(r + 1)
            .copy_from_slice(&[0.0, 0.0, 0.0, x, y, 1.0, -v * x, -v * y]);
        b[r] = u;
        b[r + 1] = v;
    }
    let h = a.lu().solve(&b)?;
    let m = Matrix3::new(h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], 1.0);
    m.iter().all(|v| v.is_finite()).then_some(m)
}

/// Finds candidates for the playing surface's four corners in a frame
/// (full-resolution pixels), ordered with south on the `south` side of the
/// image: one per way of telling plywood from frame (lightness relative to
/// the surroundings, which copes with lamp falloff, and Otsu's global
/// split, which copes with large even boards). The fine fit decides between
/// them. Fails only when no way finds a board.
pub fn find_surface_candidates(
    frame: &Mat,
    south: SouthSide,
) -> Result<Vec<SurfaceCorners>, CalibrateError> {
    let grey = to_grey(frame)?;
    let longest = f64::from(grey.cols().max(grey.rows()));
    let scale = (WORK_SIDE_PX / longest).min(1.0);
    let mut small = Mat::default();
    if scale < 1.0 {
        cv(
            "shrinking the frame",
            imgproc::resize(
                &grey,
                &mut small,
                Size::new(0, 0),
                scale,
                scale,
                imgproc::INTER_AREA,
            ),
        )?;
    } else {
        small = grey;
    }
    let mut candidates: Vec<SurfaceCorners> = Vec::new();
    let mut first_error = None;
    let size = (f64::from(small.cols()), f64::from(small.rows()));
    let mut per_mask = Vec::new();
    let mut masks = Vec::new();
    for relative in [true, false] {
        masks.push(light_mask(&small, relative)?);
    }
    // Light text or inlays on the frame can join the surface to a light
    // floor; opening cuts such bridges (far narrower than the surface, whose
    // straight sides it keeps).
    for i in 0..masks.len() {
        let cut = open_bridges(&masks[i])?;
        masks.push(cut);
    }
    for mask in &masks {
        match light_outlines(mask) {
            Ok(outlines) => per_mask.push(outlines),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    // A light frame (or a floor joined to it) holds the surface inside it:
    // the lighter part of each large region is a candidate too.
    let mut nested = Vec::new();
    for outlines in &per_mask {
        if let Some(outline) = outlines.first() {
            if let Ok(inner) = lighter_part(&small, outline).and_then(|m| light_outlines(&m)) {
                nested.push(inner);
            }
        }
    }
    per_mask.extend(nested);
    // Largest regions of every mask first, then the runners-up.
    for rank in 0..MAX_OUTLINES {
        for outline in per_mask.iter().filter_map(|outlines| outlines.get(rank)) {
            match quad_from_outline(outline, size, scale, south) {
                Ok(corners) => {
                    // The same board found twice is fitted once.
                    let duplicate = candidates.iter().any(|c| {
                        c.0.iter()
                            .zip(corners.0.iter())
                            .all(|(a, b)| (a - b).norm() < 2.0 / scale)
                    });
                    if !duplicate {
                        candidates.push(corners);
                    }
                }
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
    }
    match (candidates.is_empty(), first_error) {
        (true, Some(error)) => Err(error),
        (true, None) => Err(CalibrateError::NoBoard {
            reason: "the image has no light region".into(),
        }),
        (false, _) => Ok(candidates),
    }
}

fn quad_from_outline(
    outline: &[Point2<f64>],
    (w, h): (f64, f64),
    scale: f64,
    south: SouthSide,
) -> Result<SurfaceCorners, CalibrateError> {
    let quad = hull_quad(outline)?;
    let sides: Vec<Line> = (0..4)
        .map(|i| fit_side(outline, quad[i], quad[(i + 1) % 4], (w, h)))
        .collect();
    let mut corners = [Point2::origin(); 4];
    for i in 0..4 {
        let previous = &sides[(i + 3) % 4];
        corners[i] = previous
            .intersect(&sides[i])
            .ok_or_else(|| CalibrateError::NoBoard {
                reason: "two sides of the light region are parallel".into(),
            })?;
    }
    let margin = 0.25 * w.max(h);
    if corners
        .iter()
        .any(|c| c.x < -margin || c.y < -margin || c.x > w + margin || c.y > h + margin)
    {
        return Err(CalibrateError::NoBoard {
            reason: "the light region's sides meet far outside the image".into(),
        });
    }
    // Pixel centres sit at integers in both copies: scale about −0.5.
    let full = corners.map(|c| Point2::new((c.x + 0.5) / scale - 0.5, (c.y + 0.5) / scale - 0.5));
    SurfaceCorners::oriented(full, south).map_err(|_| CalibrateError::NoBoard {
        reason: "the light region is not a convex quadrilateral".into(),
    })
}

/// Share of the local mean lightness above which a pixel counts as plywood
/// when lightness is judged relative to the surroundings.
const RELATIVE_LIGHT_SHARE: f64 = 0.85;

/// Light pixels (the plywood), with the painted lines closed over. With
/// `relative`, a pixel is light when it is lighter than most of its wide
/// surroundings (immune to lamp falloff); otherwise Otsu's global split.
fn light_mask(grey: &Mat, relative: bool) -> Result<Mat, CalibrateError> {
    let mut blurred = Mat::default();
    cv(
        "blurring",
        imgproc::gaussian_blur(
            grey,
            &mut blurred,
            Size::new(5, 5),
            0.0,
            0.0,
            BORDER_REPLICATE,
        ),
    )?;
    let mut mask = Mat::default();
    if relative {
        // Two passes of a wide box filter: close to a Gaussian, and its cost
        // does not grow with the width.
        let side = ((f64::from(grey.cols().max(grey.rows())) / 5.0) as i32).max(3) | 1;
        let mut once = Mat::default();
        let mut surroundings = Mat::default();
        cv(
            "measuring the surroundings",
            imgproc::blur(
                &blurred,
                &mut once,
                Size::new(side, side),
                Point::new(-1, -1),
                BORDER_REPLICATE,
            ),
        )?;
        cv(
            "measuring the surroundings",
            imgproc::blur(
                &once,
                &mut surroundings,
                Size::new(side, side),
                Point::new(-1, -1),
                BORDER_REPLICATE,
            ),
        )?;
        let mut scaled = Mat::default();
        cv(
            "scaling the surroundings",
            surroundings.convert_to(&mut scaled, -1, RELATIVE_LIGHT_SHARE, 0.0),
        )?;
        cv(
            "comparing with the surroundings",
            opencv::core::compare(&blurred, &scaled, &mut mask, opencv::core::CMP_GT),
        )?;
    } else {
        cv(
            "thresholding",
            imgproc::threshold(
                &blurred,
                &mut mask,
                0.0,
                255.0,
                imgproc::THRESH_BINARY | imgproc::THRESH_OTSU,
            ),
        )?;
    }
    close_lines(&mask)
}

/// Closes the dark lines and coins so the surface is one region; the kernel
/// is far smaller than the frame, which stays dark.
fn close_lines(mask: &Mat) -> Result<Mat, CalibrateError> {
    morphology(mask, imgproc::MORPH_CLOSE, CLOSE_KERNEL_SHARE)
}

/// Share of the working copy's longest side: the kernel that closes the
/// painted lines, and the wider one that cuts light bridges across the frame.
const CLOSE_KERNEL_SHARE: f64 = 1.0 / 80.0;
const OPEN_KERNEL_SHARE: f64 = 1.0 / 40.0;

/// The mask with light strips narrower than the opening kernel removed.
fn open_bridges(mask: &Mat) -> Result<Mat, CalibrateError> {
    morphology(mask, imgproc::MORPH_OPEN, OPEN_KERNEL_SHARE)
}

fn morphology(mask: &Mat, operation: i32, share: f64) -> Result<Mat, CalibrateError> {
    let side = ((f64::from(mask.cols().max(mask.rows())) * share).round() as i32).max(3) | 1;
    let kernel = cv(
        "making a kernel",
        imgproc::get_structuring_element_def(imgproc::MORPH_ELLIPSE, Size::new(side, side)),
    )?;
    let mut out = Mat::default();
    cv(
        "shaping the mask",
        imgproc::morphology_ex_def(mask, &mut out, operation, &kernel),
    )?;
    Ok(out)
}

/// The lighter part of a region by Otsu's split of the lightness inside it
/// alone: when the frame's wood is lighter than the floor, the first masks
/// find surface and frame as one region, and the surface is its lighter part.
fn lighter_part(grey: &Mat, outline: &[Point2<f64>]) -> Result<Mat, CalibrateError> {
    let contour: Vector<Point> = outline
        .iter()
        .map(|p| Point::new(p.x as i32, p.y as i32))
        .collect();
    let mut inside = Mat::zeros(grey.rows(), grey.cols(), opencv::core::CV_8UC1)
        .and_then(|m| m.to_mat())
        .map_err(|e| CalibrateError::BadImage(format!("making a mask: {e}")))?;
    let mut contours = Vector::<Vector<Point>>::new();
    contours.push(contour);
    cv(
        "filling the region",
        imgproc::draw_contours(
            &mut inside,
            &contours,
            -1,
            opencv::core::Scalar::all(255.0),
            imgproc::FILLED,
            imgproc::LINE_8,
            &opencv::core::no_array(),
            i32::MAX,
            Point::new(0, 0),
        ),
    )?;
    // Lightness relative to the region's own wide surroundings (the dark
    // floor outside left out), so lamp falloff across the surface doesn't
    // split it: blur(grey · inside) / blur(inside).
    let side = ((f64::from(grey.cols().max(grey.rows())) / 5.0) as i32).max(3) | 1;
    let wide = |m: &Mat| -> Result<Vec<f32>, CalibrateError> {
        let mut f = Mat::default();
        cv(
            "converting",
            m.convert_to(&mut f, opencv::core::CV_32F, 1.0, 0.0),
        )?;
        let mut once = Mat::default();
        let mut twice = Mat::default();
        cv(
            "measuring the surroundings",
            imgproc::blur(
                &f,
                &mut once,
                Size::new(side, side),
                Point::new(-1, -1),
                BORDER_REPLICATE,
            ),
        )?;
        cv(
            "measuring the surroundings",
            imgproc::blur(
                &once,
                &mut twice,
                Size::new(side, side),
                Point::new(-1, -1),
                BORDER_REPLICATE,
            ),
        )?;
        let twice = twice
            .try_clone()
            .map_err(|e| CalibrateError::BadImage(format!("copying: {e}")))?;
        Ok(cv("reading pixels", twice.data_typed::<f32>())?.to_vec())
    };
    let bytes = |m: &Mat| -> Result<Vec<u8>, CalibrateError> {
        let m = m
            .try_clone()
            .map_err(|e| CalibrateError::BadImage(format!("copying a mask: {e}")))?;
        Ok(cv("reading pixels", m.data_bytes())?.to_vec())
    };
    let mut masked = Mat::default();
    cv(
        "masking",
        opencv::core::bitwise_and(grey, &inside, &mut masked, &opencv::core::no_array()),
    )?;
    let mut unit = Mat::default();
    cv(
        "masking",
        inside.convert_to(&mut unit, -1, 1.0 / 255.0, 0.0),
    )?;
    let mut masked_f = Mat::default();
    cv(
        "masking",
        masked.convert_to(&mut masked_f, opencv::core::CV_32F, 1.0, 0.0),
    )?;
    let mut unit_f = Mat::default();
    cv(
        "masking",
        unit.convert_to(&mut unit_f, opencv::core::CV_32F, 1.0, 0.0),
    )?;
    let sums = wide(&masked_f)?;
    let weights = wide(&unit_f)?;
    let flags = bytes(&inside)?;
    let grey_values = bytes(grey)?;
    // Lightness over surroundings, 128 for "as light as around it".
    let values: Vec<u8> = grey_values
        .iter()
        .zip(sums.iter().zip(&weights))
        .map(|(v, (s, w))| {
            let around = if *w > 1e-3 { s / w } else { 0.0 };
            if around > 1.0 {
                (128.0 * f32::from(*v) / around).clamp(0.0, 255.0) as u8
            } else {
                0
            }
        })
        .collect();
    let mut histogram = [0u64; 256];
    for (v, f) in values.iter().zip(&flags) {
        if *f > 0 {
            histogram[usize::from(*v)] += 1;
        }
    }
    let threshold = otsu(&histogram);
    let light: Vec<u8> = values
        .iter()
        .zip(&flags)
        .map(|(v, f)| if *f > 0 && *v > threshold { 255 } else { 0 })
        .collect();
    let mut mask = Mat::new_rows_cols_with_default(
        grey.rows(),
        grey.cols(),
        opencv::core::CV_8UC1,
        opencv::core::Scalar::all(0.0),
    )
    .map_err(|e| CalibrateError::BadImage(format!("making a mask: {e}")))?;
    cv("writing the mask", mask.data_bytes_mut())?.copy_from_slice(&light);
    close_lines(&mask)
}

/// Otsu's threshold of a grey-level histogram: the level that best splits it
/// into two classes (largest between-class variance).
fn otsu(histogram: &[u64; 256]) -> u8 {
    let total: u64 = histogram.iter().sum();
    let sum: f64 = histogram
        .iter()
        .enumerate()
        .map(|(i, c)| i as f64 * *c as f64)
        .sum();
    let (mut weight_below, mut sum_below) = (0.0, 0.0);
    let mut best = (0.0, 0u8);
    for (level, count) in histogram.iter().enumerate() {
        weight_below += *count as f64;
        sum_below += level as f64 * *count as f64;
        let weight_above = total as f64 - weight_below;
        if weight_below == 0.0 || weight_above == 0.0 {
            continue;
        }
        let mean_below = sum_below / weight_below;
        let mean_above = (sum - sum_below) / weight_above;
        let between = weight_below * weight_above * (mean_below - mean_above).powi(2);
        if between > best.0 {
            best = (between, level as u8);
        }
    }
    best.1
}

/// The largest light outlines (up to [`MAX_OUTLINES`], largest first) that
/// could be the surface: big enough, and not running along the image border.
fn light_outlines(mask: &Mat) -> Result<Vec<Vec<Point2<f64>>>, CalibrateError> {
    // Outer outlines of every light region, those inside a hole of another
    // included: a light floor round the board has the board as its hole, and
    // the surface sits inside that hole.
    let mut contours = Vector::<Vector<Point>>::new();
    let mut hierarchy = Vector::<opencv::core::Vec4i>::new();
    cv(
        "finding outlines",
        imgproc::find_contours_with_hierarchy_def(
            mask,
            &mut contours,
            &mut hierarchy,
            imgproc::RETR_CCOMP,
            imgproc::CHAIN_APPROX_NONE,
        ),
    )?;
    let mut ranked: Vec<(f64, Vector<Point>)> = Vec::new();
    let (w, h) = (mask.cols() - 1, mask.rows() - 1);
    for (contour, links) in contours.into_iter().zip(hierarchy) {
        // In a two-level hierarchy, holes have a parent; regions do not.
        if links[3] >= 0 {
            continue;
        }
        // The floor or table round the board can be light too, but its
        // outline runs mostly along the image border.
        let on_border = contour
            .iter()
            .filter(|p| p.x <= 1 || p.y <= 1 || p.x >= w - 1 || p.y >= h - 1)
            .count();
        if on_border as f64 > MAX_BORDER_SHARE * contour.len() as f64 {
            continue;
        }
        let area = cv("measuring an outline", imgproc::contour_area_def(&contour))?;
        ranked.push((area, contour));
    }
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
    let image_area = f64::from(mask.cols()) * f64::from(mask.rows());
    let largest = ranked.first().map_or(0.0, |(a, _)| *a);
    let outlines: Vec<Vec<Point2<f64>>> = ranked
        .into_iter()
        .take_while(|(area, _)| *area >= MIN_AREA_FRACTION * image_area)
        .take(MAX_OUTLINES)
        .map(|(_, contour)| {
            contour
                .iter()
                .map(|p| Point2::new(f64::from(p.x), f64::from(p.y)))
                .collect()
        })
        .collect();
    if outlines.is_empty() {
        return Err(CalibrateError::NoBoard {
            reason: format!(
                "the largest light region covers {:.0}% of the image (at least {:.0}% expected)",
                100.0 * largest / image_area,
                100.0 * MIN_AREA_FRACTION
            ),
        });
    }
    Ok(outlines)
}

/// The four corners of the outline: the largest-area quadrilateral with its
/// corners on the convex hull. Unlike simplifying the hull, this ignores the
/// notches pockets and coins cut into the corners and sides.
fn hull_quad(outline: &[Point2<f64>]) -> Result<[Point2<f64>; 4], CalibrateError> {
    let points: Vector<Point> = outline
        .iter()
        .map(|p| Point::new(p.x as i32, p.y as i32))
        .collect();
    let mut hull = Vector::<Point>::new();
    cv(
        "taking the hull",
        imgproc::convex_hull(&points, &mut hull, false, true),
    )?;
    let perimeter = cv("measuring the hull", imgproc::arc_length(&hull, true))?;
    // Thin the hull to a few dozen vertices: the corners survive, and the
    // exhaustive search below stays cheap.
    let mut simplified = Vector::<Point>::new();
    cv(
        "simplifying the hull",
        imgproc::approx_poly_dp(&hull, &mut simplified, 0.004 * perimeter, true),
    )?;
    let v: Vec<Point2<f64>> = simplified
        .iter()
        .map(|p| Point2::new(f64::from(p.x), f64::from(p.y)))
        .collect();
    let n = v.len();
    if n < 4 {
        return Err(CalibrateError::NoBoard {
            reason: "the largest light region is not four-sided".into(),
        });
    }
    let area = |q: [Point2<f64>; 4]| signed_area(&q).abs();
    let mut best = (0.0, [v[0], v[1], v[2], v[3]]);
    for a in 0..n {
        for b in a + 1..n {
            for c in b + 1..n {
                for d in c + 1..n {
                    let quad = [v[a], v[b], v[c], v[d]];
                    let value = area(quad);
                    if value > best.0 {
                        best = (value, quad);
                    }
                }
            }
        }
    }
    Ok(best.1)
}

/// A line `normal · p = offset` with a unit normal.
#[derive(Debug, Clone, Copy)]
struct Line {
    normal: Vector2<f64>,
    offset: f64,
}

impl Line {
    fn through(a: Point2<f64>, b: Point2<f64>) -> Option<Line> {
        let d = b - a;
        let length = d.norm();
        (length > 1e-9).then(|| {
            let normal = Vector2::new(-d.y, d.x) / length;
            Line {
                normal,
                offset: normal.dot(&a.coords),
            }
        })
    }

    fn distance(&self, p: Point2<f64>) -> f64 {
        (self.normal.dot(&p.coords) - self.offset).abs()
    }

    fn intersect(&self, other: &Line) -> Option<Point2<f64>> {
        let det = self.normal.perp(&other.normal);
        (det.abs() > 1e-9).then(|| {
            Point2::new(
                (self.offset * other.normal.y - other.offset * self.normal.y) / det,
                (self.normal.x * other.offset - other.normal.x * self.offset) / det,
            )
        })
    }

    /// Total least squares through points.
    fn fit(points: &[Point2<f64>]) -> Option<Line> {
        if points.len() < 2 {
            return None;
        }
        let n = points.len() as f64;
        let mean = points.iter().fold(Vector2::zeros(), |a, p| a + p.coords) / n;
        let (mut sxx, mut sxy, mut syy) = (0.0, 0.0, 0.0);
        for p in points {
            let d = p.coords - mean;
            sxx += d.x * d.x;
            sxy += d.x * d.y;
            syy += d.y * d.y;
        }
        // Direction of largest spread: the line's direction.
        let angle = 0.5 * (2.0 * sxy).atan2(sxx - syy);
        let normal = Vector2::new(-angle.sin(), angle.cos());
        Some(Line {
            normal,
            offset: normal.dot(&mean),
        })
    }
}

/// Fits one side robustly: the outline points near the hull side, away from
/// its ends and from the image border, by RANSAC then least squares.
fn fit_side(outline: &[Point2<f64>], a: Point2<f64>, b: Point2<f64>, (w, h): (f64, f64)) -> Line {
    let fallback = Line::through(a, b).unwrap_or(Line {
        normal: Vector2::new(0.0, 1.0),
        offset: a.y,
    });
    let length = (b - a).norm();
    let along = (b - a) / length.max(1e-9);
    let band = (0.03 * length).max(4.0);
    let on_border = |p: &Point2<f64>| {
        p.x < IMAGE_BORDER_PX
            || p.y < IMAGE_BORDER_PX
            || p.x > w - 1.0 - IMAGE_BORDER_PX
            || p.y > h - 1.0 - IMAGE_BORDER_PX
    };
    let candidates: Vec<Point2<f64>> = outline
        .iter()
        .copied()
        .filter(|p| {
            let t = (p - a).dot(&along) / length;
            (CORNER_SKIP_FRACTION..=1.0 - CORNER_SKIP_FRACTION).contains(&t)
                && fallback.distance(*p) <= band
                && !on_border(p)
        })
        .collect();
    if candidates.len() < 10 {
        return fallback;
    }
    // A fixed-seed generator: the result must not change run to run.
    let mut state = 0x9E37_79B9_7F4A_7C15_u64 ^ candidates.len() as u64;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut best: Option<(usize, Line)> = None;
    for _ in 0..RANSAC_TRIALS {
        let (i, j) = (next(candidates.len()), next(candidates.len()));
        if (candidates[i] - candidates[j]).norm() < 0.2 * length {
            continue;
        }
        let Some(line) = Line::through(candidates[i], candidates[j]) else {
            continue;
        };
        let count = candidates
            .iter()
            .filter(|p| line.distance(**p) <= RANSAC_TOLERANCE_PX)
            .count();
        if best.as_ref().is_none_or(|(c, _)| count > *c) {
            best = Some((count, line));
        }
    }
    let Some((count, line)) = best else {
        return fallback;
    };
    if count < 10 {
        return fallback;
    }
    let inliers: Vec<Point2<f64>> = candidates
        .iter()
        .copied()
        .filter(|p| line.distance(*p) <= RANSAC_TOLERANCE_PX)
        .collect();
    Line::fit(&inliers).unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_are_ordered_with_south_at_the_chosen_side() {
        // An upright square in the image: TL, TR, BR, BL, shuffled.
        let tl = Point2::new(100.0, 50.0);
        let tr = Point2::new(500.0, 60.0);
        let br = Point2::new(510.0, 450.0);
        let bl = Point2::new(90.0, 440.0);
        let shuffled = [tr, bl, tl, br];
        let bottom = SurfaceCorners::oriented(shuffled, SouthSide::Bottom).unwrap();
        assert_eq!(bottom.0, [bl, br, tr, tl]);
        let top = SurfaceCorners::oriented(shuffled, SouthSide::Top).unwrap();
        assert_eq!(top.0, [tr, tl, bl, br]);
        let left = SurfaceCorners::oriented(shuffled, SouthSide::Left).unwrap();
        assert_eq!(left.0, [tl, bl, br, tr]);
        let right = SurfaceCorners::oriented(shuffled, SouthSide::Right).unwrap();
        assert_eq!(right.0, [br, tr, tl, bl]);
    }

    #[test]
    fn a_bow_tie_is_not_a_surface() {
        let points = [
            Point2::new(0.0, 0.0),
            Point2::new(10.0, 10.0),
            Point2::new(10.0, 0.0),
            Point2::new(0.0, 10.0),
        ];
        // Sorting by angle untangles any order of a convex set; three
        // collinear points cannot be untangled.
        let collinear = [
            Point2::new(0.0, 0.0),
            Point2::new(5.0, 0.0),
            Point2::new(10.0, 0.0),
            Point2::new(5.0, 5.0),
        ];
        assert!(SurfaceCorners::oriented(points, SouthSide::Bottom).is_ok());
        assert!(SurfaceCorners::oriented(collinear, SouthSide::Bottom).is_err());
    }

    #[test]
    fn four_point_homography_is_exact() {
        let to = [
            Point2::new(100.0, 400.0),
            Point2::new(520.0, 410.0),
            Point2::new(480.0, 40.0),
            Point2::new(130.0, 60.0),
        ];
        let h = homography_from_points(&board_corners(), &to).unwrap();
        for (b, i) in board_corners().iter().zip(to.iter()) {
            let p = crate::calibrate::lens::apply_homography(&h, *b).unwrap();
            assert!((p - i).norm() < 1e-9);
        }
    }
}
