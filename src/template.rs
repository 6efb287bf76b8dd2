//! The exact ICF top view as an image: every marking drawn at its true size
//! from the `geometry` model, at a chosen scale, with the mapping between
//! board millimetres and image pixels.
//!
//! Calibration fits this image to camera frames, and the simulator draws its
//! scenes on it, so both see the same board the laws describe.

use std::path::{Path, PathBuf};

use nalgebra::{Point2, Vector2};
use opencv::core::{Mat, Point, Scalar, Vector, CV_8UC3};
use opencv::{imgcodecs, imgproc};
use thiserror::Error;

use crate::geometry::spec::{
    ARROW_ARC_DIAMETER_MM, ARROW_MAX_THICKNESS_MM, BOARD_OUTER_SIDE_MM, CARROMMAN_RADIUS_MM,
    CENTRE_CIRCLE_RADIUS_MM, CIRCLE_LINE_THICKNESS_MM, HALF_SURFACE_MM, OUTER_CIRCLE_RADIUS_MM,
    POCKET_CENTRE_OFFSET_MM, STRIKER_RADIUS_MM,
};
use crate::geometry::{
    arrow, break_arrangement, pocket_hole, seat_markings, Circle, Piece, PlacedPiece, Pocket, Seat,
    Stroke,
};

/// The smallest scale the template is drawn at: below it the markings fall
/// under a pixel and the drawing stops being a carrom board.
pub const MIN_PX_PER_MM: f64 = 0.1;

/// The largest scale the template is drawn at: 10 px/mm is already an image
/// of about 8,900 px square (240 MB in memory), beyond any camera's detail.
pub const MAX_PX_PER_MM: f64 = 10.0;

/// Sub-pixel bits for OpenCV drawing: coordinates are passed ×16, so shapes
/// land within 1/16 px of their true place.
const SUBPIXEL_SHIFT: i32 = 4;
const SUBPIXEL_SCALE: f64 = (1 << SUBPIXEL_SHIFT) as f64;

/// Colours (BGR) of the drawing: what a typical tournament board looks like.
pub mod colours {
    /// A BGR colour as OpenCV stores it.
    pub type Bgr = [u8; 3];
    /// The light, lacquered plywood of the playing surface.
    pub const SURFACE: Bgr = [150, 200, 228];
    /// The dark rosewood of the frame.
    pub const FRAME: Bgr = [28, 46, 84];
    /// Pocket holes.
    pub const POCKET: Bgr = [10, 10, 10];
    /// The black paint of lines and circle outlines.
    pub const INK: Bgr = [25, 25, 25];
    /// The red of the centre circle and the base-circle discs.
    pub const RED: Bgr = [35, 35, 190];
    /// White carrommen.
    pub const WHITE_PIECE: Bgr = [205, 232, 244];
    /// The turned ring on a white carromman.
    pub const WHITE_PIECE_RING: Bgr = [150, 185, 205];
    /// Black carrommen.
    pub const BLACK_PIECE: Bgr = [30, 30, 30];
    /// The turned ring on a black carromman.
    pub const BLACK_PIECE_RING: Bgr = [70, 70, 70];
    /// The Queen.
    pub const QUEEN: Bgr = [40, 40, 200];
    /// The ring on the Queen.
    pub const QUEEN_RING: Bgr = [20, 20, 130];
    /// The striker.
    pub const STRIKER: Bgr = [225, 235, 240];
    /// The ring on the striker.
    pub const STRIKER_RING: Bgr = [170, 120, 60];
}

/// Proportions of the drawing that the ICF leaves to the board maker.
mod style {
    /// Length of an arrowhead, mm.
    pub const ARROWHEAD_LENGTH_MM: f64 = 12.0;
    /// Width of an arrowhead at its base, mm.
    pub const ARROWHEAD_WIDTH_MM: f64 = 7.0;
    /// Half the angle the decorative arc spans, degrees (seen from its centre,
    /// either side of the direction back towards the board centre).
    pub const ARC_HALF_SPAN_DEG: f64 = 115.0;
    /// Size of the pointers at the decorative arc's ends, mm.
    pub const ARC_POINTER_MM: f64 = 6.0;
    /// Radius of a piece's turned ring, as a fraction of the piece's radius.
    pub const PIECE_RING_FRACTION: f64 = 0.62;
    /// Width of a piece's turned ring, as a fraction of the piece's radius.
    pub const PIECE_RING_WIDTH_FRACTION: f64 = 0.1;
    /// Width of the darker bevel round a piece's edge, as a fraction of its
    /// radius: it sets a white piece off against the light plywood.
    pub const PIECE_EDGE_FRACTION: f64 = 0.08;
}

/// Why the template could not be drawn or written.
#[derive(Debug, Error)]
pub enum TemplateError {
    /// The scale is not a number within `MIN_PX_PER_MM..=MAX_PX_PER_MM`.
    #[error("scale {0} px/mm is outside {MIN_PX_PER_MM}..={MAX_PX_PER_MM} px/mm")]
    ScaleOutOfRange(f64),
    /// OpenCV failed while drawing or encoding.
    #[error("OpenCV failed while {action}")]
    OpenCv {
        /// What was being done.
        action: &'static str,
        /// OpenCV's error.
        source: opencv::Error,
    },
    /// OpenCV declined to encode the image as PNG.
    #[error("the image could not be encoded as PNG")]
    PngEncoding,
    /// The PNG file could not be written.
    #[error("cannot write {}", path.display())]
    Write {
        /// The file that was to be written.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
}

fn cv<T>(action: &'static str, result: opencv::Result<T>) -> Result<T, TemplateError> {
    result.map_err(|source| TemplateError::OpenCv { action, source })
}

/// The mapping between board millimetres and template pixels. Pixel
/// coordinates are (column, row) with the centre of pixel (0, 0) at (0, 0);
/// south is the bottom of the image, so `row = origin.y - y * px_per_mm`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TemplateFrame {
    /// Pixels per board millimetre.
    pub px_per_mm: f64,
    /// Where the board centre lies in the image, (column, row) pixels.
    pub origin: Point2<f64>,
}

impl TemplateFrame {
    /// The frame for a template of the whole board (frame included) at
    /// `px_per_mm`, with the board centre in the middle of the image.
    pub fn for_scale(px_per_mm: f64) -> Result<TemplateFrame, TemplateError> {
        if !(MIN_PX_PER_MM..=MAX_PX_PER_MM).contains(&px_per_mm) {
            return Err(TemplateError::ScaleOutOfRange(px_per_mm));
        }
        let side = Self::side_px_for(px_per_mm);
        let middle = (side as f64 - 1.0) / 2.0;
        Ok(TemplateFrame {
            px_per_mm,
            origin: Point2::new(middle, middle),
        })
    }

    fn side_px_for(px_per_mm: f64) -> i32 {
        // The scale is bounded, so the side fits an i32 with room to spare.
        (BOARD_OUTER_SIDE_MM * px_per_mm).ceil() as i32
    }

    /// Width and height of the template image, pixels.
    pub fn side_px(&self) -> i32 {
        Self::side_px_for(self.px_per_mm)
    }

    /// The pixel (column, row) at a board point.
    pub fn board_to_px(&self, board: Point2<f64>) -> Point2<f64> {
        Point2::new(
            self.origin.x + board.x * self.px_per_mm,
            self.origin.y - board.y * self.px_per_mm,
        )
    }

    /// The board point at a pixel (column, row).
    pub fn px_to_board(&self, px: Point2<f64>) -> Point2<f64> {
        Point2::new(
            (px.x - self.origin.x) / self.px_per_mm,
            (self.origin.y - px.y) / self.px_per_mm,
        )
    }

    fn subpixel(&self, board: Point2<f64>) -> Point {
        let px = self.board_to_px(board);
        Point::new(
            (px.x * SUBPIXEL_SCALE).round() as i32,
            (px.y * SUBPIXEL_SCALE).round() as i32,
        )
    }

    fn subpixel_length(&self, mm: f64) -> i32 {
        (mm * self.px_per_mm * SUBPIXEL_SCALE).round() as i32
    }
}

/// What to draw besides the board itself.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TemplateOptions {
    /// Pixels per board millimetre.
    pub px_per_mm: f64,
    /// Draw the break arrangement (ICF 41) for a breaker at this seat.
    pub arrangement_for: Option<Seat>,
}

/// A drawn board: the BGR 8-bit image and its mapping to board millimetres.
#[derive(Debug)]
pub struct Template {
    /// The image, `frame.side_px()` square, BGR, 8 bits per channel.
    pub image: Mat,
    /// The mapping between board mm and the image's pixels.
    pub frame: TemplateFrame,
}

/// Draws the ICF board seen from above, south at the bottom.
pub fn draw_board(options: &TemplateOptions) -> Result<Template, TemplateError> {
    let frame = TemplateFrame::for_scale(options.px_per_mm)?;
    let side = frame.side_px();
    let mut image = cv(
        "allocating the image",
        Mat::new_rows_cols_with_default(side, side, CV_8UC3, scalar(colours::FRAME)),
    )?;
    let mut canvas = Canvas {
        image: &mut image,
        frame,
    };
    canvas.draw_surface()?;
    canvas.draw_circle_markings()?;
    for seat in Seat::TURN_ORDER {
        canvas.draw_seat_markings(seat)?;
    }
    for pocket in Pocket::ALL {
        canvas.draw_arrow(pocket)?;
    }
    for pocket in Pocket::ALL {
        canvas.disc(&pocket_hole(pocket), colours::POCKET)?;
    }
    if let Some(breaker) = options.arrangement_for {
        draw_pieces(&mut image, &frame, &break_arrangement(breaker))?;
    }
    Ok(Template { image, frame })
}

/// Draws pieces (carrommen, Queen, striker) onto a template image; the
/// simulator uses this to render scenes on a copy of the board.
pub fn draw_pieces(
    image: &mut Mat,
    frame: &TemplateFrame,
    pieces: &[PlacedPiece],
) -> Result<(), TemplateError> {
    let mut canvas = Canvas {
        image,
        frame: *frame,
    };
    for placed in pieces {
        canvas.draw_piece(placed)?;
    }
    Ok(())
}

/// Encodes an image as PNG and writes it to `path`.
pub fn write_png(image: &Mat, path: &Path) -> Result<(), TemplateError> {
    let mut bytes = Vector::<u8>::new();
    let encoded = cv(
        "encoding PNG",
        imgcodecs::imencode(".png", image, &mut bytes, &Vector::new()),
    )?;
    if !encoded {
        return Err(TemplateError::PngEncoding);
    }
    std::fs::write(path, bytes.as_slice()).map_err(|source| TemplateError::Write {
        path: path.to_path_buf(),
        source,
    })
}

fn scalar(bgr: colours::Bgr) -> Scalar {
    Scalar::new(bgr[0] as f64, bgr[1] as f64, bgr[2] as f64, 0.0)
}

/// A template image being drawn on, in board millimetres.
struct Canvas<'a> {
    image: &'a mut Mat,
    frame: TemplateFrame,
}

impl Canvas<'_> {
    fn disc(&mut self, circle: &Circle, colour: colours::Bgr) -> Result<(), TemplateError> {
        let radius = self.frame.subpixel_length(circle.radius);
        if radius <= 0 {
            return Ok(());
        }
        cv(
            "drawing a disc",
            imgproc::circle(
                self.image,
                self.frame.subpixel(circle.centre),
                radius,
                scalar(colour),
                imgproc::FILLED,
                imgproc::LINE_AA,
                SUBPIXEL_SHIFT,
            ),
        )
    }

    /// A ring whose outer edge is `circle`'s rim, `width` mm wide, filled
    /// inside with `inside`.
    fn ring(
        &mut self,
        circle: &Circle,
        width: f64,
        colour: colours::Bgr,
        inside: colours::Bgr,
    ) -> Result<(), TemplateError> {
        self.disc(circle, colour)?;
        self.disc(&Circle::new(circle.centre, circle.radius - width), inside)
    }

    fn polygon(
        &mut self,
        corners: &[Point2<f64>],
        colour: colours::Bgr,
    ) -> Result<(), TemplateError> {
        let points: Vector<Point> = corners.iter().map(|&c| self.frame.subpixel(c)).collect();
        let contours: Vector<Vector<Point>> = std::iter::once(points).collect();
        cv(
            "filling a polygon",
            imgproc::fill_poly(
                self.image,
                &contours,
                scalar(colour),
                imgproc::LINE_AA,
                SUBPIXEL_SHIFT,
                Point::new(0, 0),
            ),
        )
    }

    /// A painted stroke at its true thickness (a filled rectangle, so thin
    /// lines keep their width at any scale).
    fn stroke(&mut self, stroke: &Stroke, colour: colours::Bgr) -> Result<(), TemplateError> {
        let along = stroke.direction();
        let across = Vector2::new(-along.y, along.x) * (stroke.thickness / 2.0);
        self.polygon(
            &[
                stroke.start + across,
                stroke.end + across,
                stroke.end - across,
                stroke.start - across,
            ],
            colour,
        )
    }

    fn draw_surface(&mut self) -> Result<(), TemplateError> {
        let h = HALF_SURFACE_MM;
        self.polygon(
            &[
                Point2::new(-h, -h),
                Point2::new(h, -h),
                Point2::new(h, h),
                Point2::new(-h, h),
            ],
            colours::SURFACE,
        )?;
        // The frame's inside corners are curved round the pocket holes: the
        // corner squares beyond the holes' centres are frame, and the holes
        // (drawn last) cut the round back out of them.
        for pocket in Pocket::ALL {
            let (sx, sy) = pocket.corner_signs();
            let inner = POCKET_CENTRE_OFFSET_MM;
            self.polygon(
                &[
                    Point2::new(sx * inner, sy * inner),
                    Point2::new(sx * h, sy * inner),
                    Point2::new(sx * h, sy * h),
                    Point2::new(sx * inner, sy * h),
                ],
                colours::FRAME,
            )?;
        }
        Ok(())
    }

    fn draw_circle_markings(&mut self) -> Result<(), TemplateError> {
        let centre = Point2::origin();
        self.ring(
            &Circle::new(centre, OUTER_CIRCLE_RADIUS_MM),
            CIRCLE_LINE_THICKNESS_MM,
            colours::INK,
            colours::SURFACE,
        )?;
        self.ring(
            &Circle::new(centre, CENTRE_CIRCLE_RADIUS_MM),
            CIRCLE_LINE_THICKNESS_MM,
            colours::INK,
            colours::RED,
        )
    }

    fn draw_seat_markings(&mut self, seat: Seat) -> Result<(), TemplateError> {
        let markings = seat_markings(seat);
        self.stroke(&markings.outer_line, colours::INK)?;
        self.stroke(&markings.inner_line, colours::INK)?;
        for (circle, red) in markings.base_circles.iter().zip(markings.red_discs.iter()) {
            self.ring(
                circle,
                CIRCLE_LINE_THICKNESS_MM,
                colours::INK,
                colours::SURFACE,
            )?;
            self.disc(red, colours::RED)?;
        }
        Ok(())
    }

    /// The arrow with its head at the pocket end and the decorative arc (ICF
    /// A.5 permits it) curving round its start.
    fn draw_arrow(&mut self, pocket: Pocket) -> Result<(), TemplateError> {
        let shaft = arrow(pocket);
        let along = shaft.direction();
        let across = Vector2::new(-along.y, along.x);
        let head_base = shaft.end - along * style::ARROWHEAD_LENGTH_MM;
        self.stroke(
            &Stroke {
                end: head_base,
                ..shaft
            },
            colours::INK,
        )?;
        let half_width = style::ARROWHEAD_WIDTH_MM / 2.0;
        self.polygon(
            &[
                shaft.end,
                head_base + across * half_width,
                head_base - across * half_width,
            ],
            colours::INK,
        )?;
        // The arc passes through the arrow's start and opens towards the
        // pocket, like a bow drawn round the arrow's tail.
        let radius = ARROW_ARC_DIAMETER_MM / 2.0;
        let arc_centre = shaft.start + along * radius;
        let back = (-along.y).atan2(-along.x);
        let span = style::ARC_HALF_SPAN_DEG.to_radians();
        self.arc(
            arc_centre,
            radius,
            back - span,
            back + span,
            ARROW_MAX_THICKNESS_MM,
        )?;
        for end_angle in [back - span, back + span] {
            let tip = arc_centre + Vector2::new(end_angle.cos(), end_angle.sin()) * radius;
            // The pointers aim onwards along the arc, away from its middle.
            let onwards_sign = if end_angle > back { 1.0 } else { -1.0 };
            let tangent = Vector2::new(-end_angle.sin(), end_angle.cos()) * onwards_sign;
            let outward = Vector2::new(end_angle.cos(), end_angle.sin());
            let size = style::ARC_POINTER_MM;
            self.polygon(
                &[
                    tip + tangent * size,
                    tip + outward * (size / 2.0),
                    tip - outward * (size / 2.0),
                ],
                colours::INK,
            )?;
        }
        Ok(())
    }

    /// An arc band `thickness` mm wide centred on the circle of `radius`.
    fn arc(
        &mut self,
        centre: Point2<f64>,
        radius: f64,
        from: f64,
        to: f64,
        thickness: f64,
    ) -> Result<(), TemplateError> {
        const ARC_STEPS: usize = 64;
        let at = |angle: f64, r: f64| centre + Vector2::new(angle.cos(), angle.sin()) * r;
        let angles: Vec<f64> = (0..=ARC_STEPS)
            .map(|i| from + (to - from) * i as f64 / ARC_STEPS as f64)
            .collect();
        let outer = angles.iter().map(|&a| at(a, radius + thickness / 2.0));
        let inner = angles
            .iter()
            .rev()
            .map(|&a| at(a, radius - thickness / 2.0));
        let band: Vec<Point2<f64>> = outer.chain(inner).collect();
        self.polygon(&band, colours::INK)
    }

    fn draw_piece(&mut self, placed: &PlacedPiece) -> Result<(), TemplateError> {
        let (radius, body, ring) = match placed.piece {
            Piece::White => (
                CARROMMAN_RADIUS_MM,
                colours::WHITE_PIECE,
                colours::WHITE_PIECE_RING,
            ),
            Piece::Black => (
                CARROMMAN_RADIUS_MM,
                colours::BLACK_PIECE,
                colours::BLACK_PIECE_RING,
            ),
            Piece::Queen => (CARROMMAN_RADIUS_MM, colours::QUEEN, colours::QUEEN_RING),
            Piece::Striker => (STRIKER_RADIUS_MM, colours::STRIKER, colours::STRIKER_RING),
        };
        self.ring(
            &Circle::new(placed.centre, radius),
            radius * style::PIECE_EDGE_FRACTION,
            ring,
            body,
        )?;
        let ring_outer =
            radius * (style::PIECE_RING_FRACTION + style::PIECE_RING_WIDTH_FRACTION / 2.0);
        self.ring(
            &Circle::new(placed.centre, ring_outer),
            radius * style::PIECE_RING_WIDTH_FRACTION,
            ring,
            body,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::spec::{
        BASE_CIRCLE_CENTRE_ALONG_MM, BASE_CIRCLE_CENTRE_DEPTH_MM, FRAME_WIDTH_MM,
        OUTER_BASE_LINE_THICKNESS_MM,
    };
    use crate::geometry::{pocket_centre, rotate_to_seat};
    use opencv::prelude::*;

    const SCALES: [f64; 2] = [1.0, 3.0];

    fn pixel(template: &Template, board: Point2<f64>) -> [u8; 3] {
        let px = template.frame.board_to_px(board);
        let value = template
            .image
            .at_2d::<opencv::core::Vec3b>(px.y.round() as i32, px.x.round() as i32)
            .map(|v| v.0);
        match value {
            Ok(bgr) => bgr,
            Err(error) => panic!("pixel at {board:?} ({px:?}) unreadable: {error}"),
        }
    }

    fn close(actual: [u8; 3], expected: colours::Bgr) -> bool {
        actual
            .iter()
            .zip(expected.iter())
            .all(|(&a, &e)| (a as i32 - e as i32).abs() <= 12)
    }

    fn board(px_per_mm: f64, arrangement_for: Option<Seat>) -> Template {
        match draw_board(&TemplateOptions {
            px_per_mm,
            arrangement_for,
        }) {
            Ok(template) => template,
            Err(error) => panic!("drawing at {px_per_mm} px/mm failed: {error}"),
        }
    }

    #[test]
    fn frame_maps_board_points_and_back() {
        let frame = TemplateFrame::for_scale(2.5).expect("2.5 px/mm is in range");
        let p = Point2::new(-123.4, 56.7);
        assert!((frame.px_to_board(frame.board_to_px(p)) - p).norm() < 1e-9);
        // South (negative y) is below the centre: a larger row.
        assert!(frame.board_to_px(Point2::new(0.0, -100.0)).y > frame.origin.y);
        // The board's outer edge lands on the image's edge.
        let west_edge = frame.board_to_px(Point2::new(-BOARD_OUTER_SIDE_MM / 2.0, 0.0));
        assert!(west_edge.x.abs() <= 1.0);
    }

    #[test]
    fn scales_outside_the_range_are_refused() {
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, MAX_PX_PER_MM * 2.0] {
            assert!(matches!(
                TemplateFrame::for_scale(bad),
                Err(TemplateError::ScaleOutOfRange(_))
            ));
        }
    }

    #[test]
    fn image_size_follows_the_scale() {
        for scale in SCALES {
            let template = board(scale, None);
            let expected = (BOARD_OUTER_SIDE_MM * scale).ceil() as i32;
            assert_eq!(template.image.rows(), expected);
            assert_eq!(template.image.cols(), expected);
            assert_eq!(template.image.typ(), CV_8UC3);
        }
    }

    #[test]
    fn markings_have_their_colours_at_two_scales() {
        for scale in SCALES {
            let t = board(scale, None);
            let depth = BASE_CIRCLE_CENTRE_DEPTH_MM;
            assert!(
                close(pixel(&t, Point2::origin()), colours::RED),
                "centre at {scale}"
            );
            assert!(
                close(pixel(&t, pocket_centre(Pocket::Nw)), colours::POCKET),
                "pocket at {scale}"
            );
            assert!(
                close(pixel(&t, Point2::new(40.0, 150.0)), colours::SURFACE),
                "surface at {scale}"
            );
            let frame_point = Point2::new(0.0, -HALF_SURFACE_MM - FRAME_WIDTH_MM / 2.0);
            assert!(
                close(pixel(&t, frame_point), colours::FRAME),
                "frame at {scale}"
            );
            for seat in Seat::TURN_ORDER {
                let m = seat_markings(seat);
                let on_outer_line =
                    m.outer_line.start + (m.outer_line.end - m.outer_line.start) * 0.3;
                assert!(
                    close(pixel(&t, on_outer_line), colours::INK),
                    "{seat} base line at {scale}"
                );
                let red_disc =
                    rotate_to_seat(Point2::new(BASE_CIRCLE_CENTRE_ALONG_MM, -depth), seat);
                assert!(
                    close(pixel(&t, red_disc), colours::RED),
                    "{seat} base circle at {scale}"
                );
                // Between the two base lines the plywood shows.
                let between = rotate_to_seat(Point2::new(0.0, -depth), seat);
                assert!(
                    close(pixel(&t, between), colours::SURFACE),
                    "{seat} between lines at {scale}"
                );
            }
            // Just beyond the outer line's player-side edge: plywood again.
            let beside = Point2::new(0.0, -depth - 15.9 - OUTER_BASE_LINE_THICKNESS_MM - 2.0);
            assert!(close(pixel(&t, beside), colours::SURFACE));
        }
    }

    #[test]
    fn the_arrangement_puts_pieces_on_the_board() {
        let t = board(2.0, Some(Seat::South));
        for placed in break_arrangement(Seat::South) {
            // Sample a point between the piece's centre and its ring.
            let sample = placed.centre + Vector2::new(0.3 * CARROMMAN_RADIUS_MM, 0.0);
            let expected = match placed.piece {
                Piece::White => colours::WHITE_PIECE,
                Piece::Black => colours::BLACK_PIECE,
                Piece::Queen => colours::QUEEN,
                Piece::Striker => colours::STRIKER,
            };
            assert!(close(pixel(&t, sample), expected), "{placed:?}");
        }
    }

    #[test]
    fn writing_to_a_missing_directory_names_the_file() {
        let t = board(MIN_PX_PER_MM, None);
        let dir = tempfile::tempdir().expect("a temp dir can be made");
        let path = dir.path().join("no-such-dir").join("board.png");
        match write_png(&t.image, &path) {
            Err(TemplateError::Write { path: reported, .. }) => assert_eq!(reported, path),
            other => panic!("expected a write error, got {other:?}"),
        }
        let good = dir.path().join("board.png");
        assert!(write_png(&t.image, &good).is_ok());
        let bytes = std::fs::read(&good).expect("just written");
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    }
}
