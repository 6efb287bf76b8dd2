//! The overlay picture: the fitted ICF model drawn over the frame it was
//! fitted to, so a person can see at a glance whether it lies on the lines.

use nalgebra::{Point2, Vector2};
use opencv::core::{Mat, Point, Scalar, Vector};
use opencv::{imgproc, prelude::*};

use super::calibration::Calibration;
use super::error::{cv, CalibrateError};
use crate::geometry::spec::{CIRCLE_LINE_THICKNESS_MM, HALF_SURFACE_MM};
use crate::geometry::{arrow, centre_circle, outer_circle, seat_markings, Pocket, Seat, Stroke};

/// Spacing of the drawn polylines' points, mm: curves stay smooth through
/// the lens distortion.
const DRAW_STEP_MM: f64 = 4.0;

/// Sub-pixel bits for OpenCV drawing.
const SHIFT: i32 = 4;

/// Colour of the model's lines (BGR): green shows on wood and paint alike.
const MODEL_COLOUR: (f64, f64, f64) = (40.0, 230.0, 40.0);

/// Colour of the south marker and the caption (BGR).
const LABEL_COLOUR: (f64, f64, f64) = (255.0, 0.0, 255.0);

/// Draws the fitted model over a copy of `frame`, with the south side marked
/// and the residuals in a caption.
pub fn draw_overlay(frame: &Mat, calibration: &Calibration) -> Result<Mat, CalibrateError> {
    let mut canvas = cv("copying the frame", frame.try_clone())?;
    if canvas.channels() == 1 {
        let mut colour = Mat::default();
        cv(
            "colouring the frame",
            imgproc::cvt_color_def(&canvas, &mut colour, imgproc::COLOR_GRAY2BGR),
        )?;
        canvas = colour;
    }
    let mut polylines: Vec<Vec<Point2<f64>>> = Vec::new();
    let h = HALF_SURFACE_MM;
    let square = [
        Point2::new(-h, -h),
        Point2::new(h, -h),
        Point2::new(h, h),
        Point2::new(-h, h),
        Point2::new(-h, -h),
    ];
    polylines.push(square.to_vec());
    for seat in Seat::TURN_ORDER {
        let m = seat_markings(seat);
        for line in [m.outer_line, m.inner_line] {
            polylines.extend(stroke_edges(&line));
        }
        for c in m.base_circles {
            polylines.push(circle(c.centre, c.radius));
        }
    }
    for pocket in Pocket::ALL {
        let a = arrow(pocket);
        polylines.push(vec![a.start, a.end]);
    }
    for c in [centre_circle(), outer_circle()] {
        polylines.push(circle(c.centre, c.radius));
        polylines.push(circle(c.centre, c.radius - CIRCLE_LINE_THICKNESS_MM));
    }
    let thickness = if frame.cols() > 1000 { 2 } else { 1 };
    let colour = Scalar::new(MODEL_COLOUR.0, MODEL_COLOUR.1, MODEL_COLOUR.2, 0.0);
    let mut pts = Vector::<Vector<Point>>::new();
    for line in &polylines {
        let image: Vector<Point> = densify(line)
            .into_iter()
            .filter_map(|b| calibration.board_to_image(b))
            .map(subpixel)
            .collect();
        pts.push(image);
    }
    cv(
        "drawing the model",
        imgproc::polylines(
            &mut canvas,
            &pts,
            false,
            colour,
            thickness,
            imgproc::LINE_AA,
            SHIFT,
        ),
    )?;
    let label = Scalar::new(LABEL_COLOUR.0, LABEL_COLOUR.1, LABEL_COLOUR.2, 0.0);
    if let Some(south) = calibration.board_to_image(Point2::new(0.0, -h + 40.0)) {
        cv(
            "marking south",
            imgproc::circle(
                &mut canvas,
                subpixel(south),
                6 << SHIFT,
                label,
                -1,
                imgproc::LINE_AA,
                SHIFT,
            ),
        )?;
    }
    let r = &calibration.residuals;
    let caption = format!(
        "south={} median {:.2} mm / {:.2} px, p95 {:.2} mm, {}/{} points",
        calibration.south, r.median_mm, r.median_px, r.p95_mm, r.inliers, r.points
    );
    let scale = (f64::from(frame.cols()) / 1400.0).max(0.35);
    cv(
        "writing the caption",
        imgproc::put_text(
            &mut canvas,
            &caption,
            Point::new(8, (24.0 * scale / 0.6).round() as i32),
            imgproc::FONT_HERSHEY_SIMPLEX,
            scale,
            label,
            1,
            imgproc::LINE_AA,
            false,
        ),
    )?;
    Ok(canvas)
}

fn subpixel(p: Point2<f64>) -> Point {
    let scale = f64::from(1 << SHIFT);
    Point::new((p.x * scale).round() as i32, (p.y * scale).round() as i32)
}

fn stroke_edges(stroke: &Stroke) -> [Vec<Point2<f64>>; 2] {
    let along = stroke.direction();
    let across = Vector2::new(-along.y, along.x) * (stroke.thickness / 2.0);
    [
        vec![stroke.start + across, stroke.end + across],
        vec![stroke.start - across, stroke.end - across],
    ]
}

fn circle(centre: Point2<f64>, radius: f64) -> Vec<Point2<f64>> {
    let count = (std::f64::consts::TAU * radius / DRAW_STEP_MM)
        .ceil()
        .max(16.0) as usize;
    (0..=count)
        .map(|i| {
            let a = std::f64::consts::TAU * i as f64 / count as f64;
            centre + Vector2::new(a.cos(), a.sin()) * radius
        })
        .collect()
}

fn densify(polyline: &[Point2<f64>]) -> Vec<Point2<f64>> {
    let mut out = Vec::new();
    for pair in polyline.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let steps = ((b - a).norm() / DRAW_STEP_MM).ceil().max(1.0) as usize;
        for i in 0..steps {
            out.push(a + (b - a) * (i as f64 / steps as f64));
        }
    }
    if let Some(last) = polyline.last() {
        out.push(*last);
    }
    out
}
