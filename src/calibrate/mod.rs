//! Calibration: finds the board in a camera frame, fits the exact ICF model to
//! it (plane homography, radial distortion, principal point) and knows how
//! well it fits; then maps pixels to board millimetres, rectifies frames to
//! the top view and notices when the camera has moved.
//!
//! The stages: [`coarse`] finds the playing surface's corners, [`fine`] fits
//! the [`model`]'s marking edges, [`Calibration`] is the result (saved as
//! JSON), [`Rectifier`] warps frames, [`drift`] checks a calibration against a
//! later frame, and [`synthetic`] makes frames of known cameras for tests and
//! the accuracy benchmark.

pub mod calibration;
pub mod coarse;
pub mod drift;
mod error;
pub mod fine;
pub mod gray;
pub mod lens;
pub mod model;
pub mod overlay;
pub mod rectify;
pub mod synthetic;

use nalgebra::Point2;

use crate::geometry::spec::OUTER_BASE_LINE_THICKNESS;
use opencv::core::Mat;

pub use calibration::{Calibration, Residuals, SouthSide, CALIBRATION_FORMAT, CALIBRATION_VERSION};
pub use coarse::SurfaceCorners;
pub use drift::DriftReport;
pub use error::CalibrateError;
pub use lens::Lens;
pub use rectify::Rectifier;

use fine::{search_edges, solve, FitState, Freedom};
use gray::GrayImage;
use model::{marking_samples, MarkingGroup, MarkingSample};

/// Spacing of the model's edge samples along the markings, mm.
const SAMPLE_SPACING_MM: f64 = 3.0;

/// Smoothing applied before the edge search, pixels (sigma).
const SEARCH_SMOOTHING_PX: f64 = 0.7;

/// A fit whose median residual exceeds this is refused, mm.
pub const MAX_MEDIAN_RESIDUAL_MM: f64 = 1.0;

/// A fit in which fewer of the visible surface-edge points agree than this
/// share is refused.
pub const MIN_INLIER_SHARE: f64 = 0.5;

/// A fit in which fewer of the visible marking points agree than this share
/// is refused: coins and hands hide some, but a fit locked onto the frame's
/// outer edge still finds half the markings near a line of some kind, where
/// a right one finds 80–90%.
pub const MIN_MARKING_SHARE: f64 = 0.6;

/// A fit in which this share of the visible marking points agree needs no
/// second opinion from another coarse candidate.
const CONVINCING_INLIER_SHARE: f64 = 0.85;

/// What the caller knows before calibrating.
#[derive(Debug, Clone, Default)]
pub struct CalibrateOptions {
    /// Which side of the image south is on.
    pub south: SouthSide,
    /// The four surface corners in image pixels (any order), when the coarse
    /// search should be skipped.
    pub corners: Option<[Point2<f64>; 4]>,
    /// What the frame came from, recorded in the calibration.
    pub source: String,
}

/// One round of the fine fit: which samples, how far to search, what to free.
struct Round {
    border_only: bool,
    edge_weight: f64,
    radius_mm: f64,
    freedom: Freedom,
    repeats: usize,
}

const ROUNDS: [Round; 4] = [
    // The frame edge is the only edge for a long way either side with dark
    // wood beyond it: a wide search finds it even from rough corners.
    Round {
        border_only: true,
        edge_weight: 1.0,
        radius_mm: 60.0,
        freedom: Freedom {
            k1: false,
            k2: false,
            centre: false,
            offsets: false,
        },
        repeats: 3,
    },
    Round {
        border_only: true,
        edge_weight: 1.0,
        radius_mm: 15.0,
        freedom: Freedom {
            k1: true,
            k2: false,
            centre: false,
            offsets: false,
        },
        repeats: 2,
    },
    Round {
        border_only: false,
        edge_weight: FIXED_EDGE_WEIGHT,
        radius_mm: 8.0,
        freedom: Freedom {
            k1: true,
            k2: false,
            centre: false,
            offsets: false,
        },
        repeats: 2,
    },
    // The surface edge and the circles each get an offset of their own here,
    // so they bend the lens by their shape, not by where they lie.
    Round {
        border_only: false,
        edge_weight: OFFSET_EDGE_WEIGHT,
        radius_mm: 4.0,
        freedom: Freedom {
            k1: true,
            k2: true,
            centre: true,
            offsets: true,
        },
        repeats: 3,
    },
];

/// The robust scale of a round is kept above this share of its search
/// radius.
const SIGMA_FLOOR_SHARE: f64 = 0.3;

/// Weight of the surface edge once the painted markings are in the fit while
/// it still has to lie exactly on the ICF figure (see `fine::group_weight`):
/// low, since the frame's wall, bevels and shadows move where it shows.
const FIXED_EDGE_WEIGHT: f64 = 0.2;

/// Weight of the surface edge once each side has an offset of its own: as
/// much as a painted line, since only its shape is then used — and it is
/// the only marking that reaches the corners, where a lens fitted on the
/// painted lines alone is extrapolated.
const OFFSET_EDGE_WEIGHT: f64 = 1.0;

/// Radius of the surface-edge search that checks a fit has the right edge,
/// mm: wide enough to find an edge the frame's wall hides a strip of, far
/// narrower than the gap to the base lines a wrong fit would lock onto.
const EDGE_CHECK_RADIUS_MM: f64 = 15.0;

/// Radius of the last edge search, the one the residuals are measured on, mm.
const FINAL_RADIUS_MM: f64 = 3.0;

/// The smallest search radius, pixels: below it sub-pixel peaks can't be told
/// from the window's edge.
const MIN_RADIUS_PX: f64 = 2.5;

/// Calibrates from one frame: finds the board (or takes the given corners),
/// fits the ICF model and measures the fit. A fit too poor to trust is an
/// error, never a calibration.
pub fn calibrate_frame(
    frame: &Mat,
    options: &CalibrateOptions,
) -> Result<Calibration, CalibrateError> {
    let image = GrayImage::from_frame(frame, SEARCH_SMOOTHING_PX)?;
    let size = (image.width(), image.height());
    let candidates = match options.corners {
        Some(points) => {
            let inside = points.iter().all(|p| {
                p.x.is_finite()
                    && p.y.is_finite()
                    && image.contains(*p, -0.25 * size.0.max(size.1) as f64)
            });
            if !inside {
                return Err(CalibrateError::BadCorners(
                    "a corner lies far outside the image".into(),
                ));
            }
            vec![SurfaceCorners::oriented(points, options.south)?]
        }
        None => coarse::find_surface_candidates(frame, options.south)?,
    };
    // Fit every candidate; keep the best fit, or the most telling failure.
    let mut best: Option<Calibration> = None;
    let mut failure: Option<CalibrateError> = None;
    for corners in candidates {
        match fit_from_corners(&image, &corners, options) {
            Ok(c) => {
                let share =
                    |c: &Calibration| c.residuals.inliers as f64 / c.residuals.points.max(1) as f64;
                let convincing = share(&c) >= CONVINCING_INLIER_SHARE;
                if best.as_ref().is_none_or(|b| share(&c) > share(b)) {
                    best = Some(c);
                }
                if convincing {
                    break;
                }
            }
            Err(e) => {
                if failure
                    .as_ref()
                    .is_none_or(|f| failure_rank(&e) > failure_rank(f))
                {
                    failure = Some(e);
                }
            }
        }
    }
    match (best, failure) {
        (Some(c), _) => Ok(c),
        (None, Some(e)) => Err(e),
        (None, None) => Err(CalibrateError::NoBoard {
            reason: "no candidate for the playing surface".into(),
        }),
    }
}

/// How far a failed fit got: a refused fit with most markings found says
/// more than a board that was never found.
fn failure_rank(error: &CalibrateError) -> f64 {
    match error {
        CalibrateError::PoorFit { inlier_percent, .. } => 1.0 + inlier_percent / 100.0,
        _ => 0.0,
    }
}

fn fit_from_corners(
    image: &GrayImage,
    corners: &SurfaceCorners,
    options: &CalibrateOptions,
) -> Result<Calibration, CalibrateError> {
    let size = (image.width(), image.height());
    let h = corners.homography()?;
    let centre = Point2::new((size.0 as f64 - 1.0) / 2.0, (size.1 as f64 - 1.0) / 2.0);
    let longest = size.0.max(size.1) as f64;
    let focal = lens::focal_from_homography(&h, centre.x, centre.y, longest)
        .filter(|f| (0.5 * longest..=4.0 * longest).contains(f))
        .unwrap_or(longest);
    let start_lens = Lens {
        fx: focal,
        fy: focal,
        cx: centre.x,
        cy: centre.y,
        k1: 0.0,
        k2: 0.0,
    };
    let state = FitState::new(&h, &start_lens, size).ok_or_else(|| CalibrateError::NoBoard {
        reason: "the board corners put the board behind the camera".into(),
    })?;
    fit(image, state, options.south, options.source.clone())
}

/// Fits the model again on a new frame, starting from an existing
/// calibration (after [`Calibration::drift_check`] reports drift).
pub fn refit(calibration: &Calibration, frame: &Mat) -> Result<Calibration, CalibrateError> {
    let image = GrayImage::from_frame(frame, SEARCH_SMOOTHING_PX)?;
    let size = (image.width(), image.height());
    if (size.0 as u32, size.1 as u32) != (calibration.image_width, calibration.image_height) {
        return Err(CalibrateError::BadImage(format!(
            "the frame is {}x{}, the calibration is for {}x{}",
            size.0, size.1, calibration.image_width, calibration.image_height
        )));
    }
    let state =
        FitState::new(&calibration.homography(), &calibration.lens, size).ok_or_else(|| {
            CalibrateError::BadImage("the calibration's homography is degenerate".into())
        })?;
    fit(&image, state, calibration.south, calibration.source.clone())
}

fn fit(
    image: &GrayImage,
    mut state: FitState,
    south: SouthSide,
    source: String,
) -> Result<Calibration, CalibrateError> {
    let samples = marking_samples(SAMPLE_SPACING_MM);
    let border: Vec<MarkingSample> = samples
        .iter()
        .copied()
        .filter(|s| {
            s.group == MarkingGroup::SurfaceEdge
                || matches!(s.kind, model::EdgeKind::Band { width_mm } if width_mm >= OUTER_BASE_LINE_THICKNESS.min)
        })
        .collect();
    for round in &ROUNDS {
        let set: &[MarkingSample] = if round.border_only { &border } else { &samples };
        for _ in 0..round.repeats {
            let (_, found) = search_edges(image, &state, set, round.radius_mm, MIN_RADIUS_PX);
            if found.len() < 16 {
                return Err(CalibrateError::NoBoard {
                    reason: format!(
                        "only {} of the board's edge points were found near where the corners put them",
                        found.len()
                    ),
                });
            }
            let scales: Vec<f64> = found.iter().map(|f| f.px_per_mm).collect();
            let typical_scale = fine::robust_sigma(&scales, 0.0) / 1.4826;
            let sigma_floor = (SIGMA_FLOOR_SHARE * round.radius_mm * typical_scale).max(0.15);
            solve(
                &mut state,
                set,
                &found,
                round.freedom,
                6,
                sigma_floor,
                round.edge_weight,
            );
        }
    }
    // The residuals describe the painted markings; the surface edge is
    // checked on its own below.
    let markings: Vec<MarkingSample> = samples
        .iter()
        .copied()
        .filter(|s| s.group != MarkingGroup::SurfaceEdge)
        .collect();
    let (in_view, found) = search_edges(image, &state, &markings, FINAL_RADIUS_MM, MIN_RADIUS_PX);
    let residuals = measure(&state, &markings, in_view, &found);
    let mut lens = state.lens();
    let h = label_seats(&state.homography(), &lens, south)?;
    let longest = image.width().max(image.height()) as f64;
    let measured = lens::focal_from_homography(&h, lens.cx, lens.cy, longest)
        .filter(|f| (0.3 * longest..=6.0 * longest).contains(f));
    if let Some(focal) = measured {
        lens = lens.with_focal(focal);
    }
    let contrast = drift::marking_contrast(image, &state, &markings);
    let calibration = Calibration::new(
        (image.width() as u32, image.height() as u32),
        h,
        lens,
        measured.is_some(),
        south,
        residuals,
        contrast,
        source,
    )?;
    let inlier_share = residuals.inliers as f64 / residuals.points.max(1) as f64;
    let edge_share = edge_inlier_share(image, &state, &samples);
    if edge_share < MIN_INLIER_SHARE {
        return Err(CalibrateError::PoorFit {
            reason: format!(
                "only {:.0}% of the visible surface edge agrees with the model",
                100.0 * edge_share
            ),
            median_mm: residuals.median_mm,
            inlier_percent: 100.0 * inlier_share,
            attempt: Some(Box::new(calibration)),
        });
    }
    if residuals.median_mm > MAX_MEDIAN_RESIDUAL_MM || inlier_share < MIN_MARKING_SHARE {
        let reason = if inlier_share < MIN_MARKING_SHARE {
            format!(
                "only {} of {} marking points agree with the model",
                residuals.inliers, residuals.points
            )
        } else {
            format!(
                "the markings lie {:.2} mm (median) from the model, more than {MAX_MEDIAN_RESIDUAL_MM} mm",
                residuals.median_mm
            )
        };
        return Err(CalibrateError::PoorFit {
            reason,
            median_mm: residuals.median_mm,
            inlier_percent: 100.0 * inlier_share,
            attempt: Some(Box::new(calibration)),
        });
    }
    Ok(calibration)
}

/// A surface-edge point agrees with the model within this many pixels or
/// millimetres, whichever is more: the frame's wall hides up to a centimetre
/// of surface from a tilted camera, real frames have bevels and shadows, and
/// a fit locked onto the wrong edge is off by several centimetres.
const EDGE_AGREEMENT_PX: f64 = 1.0;
const EDGE_AGREEMENT_MM: f64 = 12.0;

/// Share of the in-view surface-edge samples whose edge was found where the
/// model puts it: a fit locked onto the wrong edge finds few.
fn edge_inlier_share(image: &GrayImage, state: &FitState, samples: &[MarkingSample]) -> f64 {
    let edges: Vec<MarkingSample> = samples
        .iter()
        .copied()
        .filter(|s| s.group == MarkingGroup::SurfaceEdge)
        .collect();
    let (in_view, found) = search_edges(image, state, &edges, EDGE_CHECK_RADIUS_MM, MIN_RADIUS_PX);
    let residuals = fine::residuals(state, &edges, &found);
    let agreeing = found
        .iter()
        .zip(&residuals)
        .filter(|(f, r)| r.abs() <= EDGE_AGREEMENT_PX.max(EDGE_AGREEMENT_MM * f.px_per_mm))
        .count();
    agreeing as f64 / in_view.max(1) as f64
}

/// The fitted homography with the board turned by quarter-turns so that the
/// south seat is on the `south` side of the image. The ICF model is 4-fold
/// symmetric, so the fit may settle a quarter-turn away from the coarse
/// labelling; the labels are applied again to the final fit.
fn label_seats(
    h: &nalgebra::Matrix3<f64>,
    lens: &Lens,
    south: SouthSide,
) -> Result<nalgebra::Matrix3<f64>, CalibrateError> {
    let board = coarse::board_corners();
    let image: Vec<Point2<f64>> = board
        .iter()
        .filter_map(|b| lens::apply_homography(h, *b).map(|u| lens.distort(u)))
        .collect();
    let [a, b, c, d] = image[..] else {
        return Err(CalibrateError::NoBoard {
            reason: "the fitted board has a corner on the horizon".into(),
        });
    };
    let oriented = SurfaceCorners::oriented([a, b, c, d], south)?;
    // Which of the current corners is to become south-west.
    let turns = (0..4)
        .min_by(|&i, &j| {
            (image[i] - oriented.0[0])
                .norm()
                .total_cmp(&(image[j] - oriented.0[0]).norm())
        })
        .unwrap_or(0);
    // New board point → old board point: a turn by `turns` quarter-turns
    // counter-clockwise carries corner 0 (SW) to corner `turns`.
    let angle = std::f64::consts::FRAC_PI_2 * turns as f64;
    let (sin, cos) = (angle.sin().round(), angle.cos().round());
    let turn = nalgebra::Matrix3::new(cos, -sin, 0.0, sin, cos, 0.0, 0.0, 0.0, 1.0);
    Ok(h * turn)
}

/// Residual statistics of the final search: median over every found edge,
/// percentiles and maximum over those agreeing with the model.
fn measure(
    state: &FitState,
    samples: &[MarkingSample],
    in_view: usize,
    found: &[fine::FoundEdge],
) -> Residuals {
    let px = fine::residuals(state, samples, found);
    let sigma = fine::robust_sigma(&px, 0.1);
    let limit = (3.0 * sigma).max(0.5);
    let mut all_px: Vec<f64> = px.iter().map(|r| r.abs()).collect();
    let mut all_mm: Vec<f64> = px
        .iter()
        .zip(found)
        .map(|(r, f)| r.abs() / f.px_per_mm)
        .collect();
    let mut in_px: Vec<f64> = all_px.iter().copied().filter(|r| *r <= limit).collect();
    let mut in_mm: Vec<f64> = px
        .iter()
        .zip(found)
        .filter(|(r, _)| r.abs() <= limit)
        .map(|(r, f)| r.abs() / f.px_per_mm)
        .collect();
    for v in [&mut all_px, &mut all_mm, &mut in_px, &mut in_mm] {
        v.sort_by(f64::total_cmp);
    }
    let quantile = |v: &[f64], q: f64| -> f64 {
        if v.is_empty() {
            return f64::INFINITY;
        }
        v[((v.len() - 1) as f64 * q).round() as usize]
    };
    Residuals {
        median_px: quantile(&all_px, 0.5),
        p95_px: quantile(&in_px, 0.95),
        max_px: quantile(&in_px, 1.0),
        median_mm: quantile(&all_mm, 0.5),
        p95_mm: quantile(&in_mm, 0.95),
        max_mm: quantile(&in_mm, 1.0),
        points: in_view,
        inliers: in_px.len(),
    }
}

/// Calibrates from several frames of one camera (a video's samples) and keeps
/// the best fit; fails with the best frame's error when none fits.
pub fn calibrate_best<I>(
    frames: I,
    options: &CalibrateOptions,
) -> Result<Calibration, CalibrateError>
where
    I: IntoIterator<Item = (String, Mat)>,
{
    let mut best: Option<Calibration> = None;
    let mut last_error = None;
    for (label, frame) in frames {
        let frame_options = CalibrateOptions {
            source: label,
            ..options.clone()
        };
        match calibrate_frame(&frame, &frame_options) {
            Ok(c) => {
                if best
                    .as_ref()
                    .is_none_or(|b| c.residuals.median_mm < b.residuals.median_mm)
                {
                    best = Some(c);
                }
            }
            Err(e) => last_error = Some(e),
        }
    }
    best.ok_or_else(|| {
        last_error.unwrap_or_else(|| CalibrateError::BadImage("the input holds no frames".into()))
    })
}
