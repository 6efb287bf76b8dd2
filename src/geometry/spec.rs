//! The ICF equipment figures (ICF Laws, section I: A.1–A.7, B, C), each named
//! once, in millimetres (grams for masses), with the admissible range the laws
//! allow and the nominal value the board model uses.
//!
//! The ICF text gives metric figures that are conversions of inch measures
//! (10.15 cm = 4", 3.18 cm = 1¼", 4.45 cm = 1¾", 47 cm ≈ 18½"). Taken
//! together they fit exactly on a 29" (736.6 mm) playing surface, the size of
//! a standard tournament board, so that is the nominal surface here (see
//! [`PLAYING_SURFACE_SIDE_MM`] and the consistency tests at the bottom).
//!
//! Placement figures that the laws state only as relations (base circles
//! touching the lines, arrows pointing at the pockets) are derived below from
//! the named figures, never typed in as numbers.

/// An ICF figure: the admissible range and the value the board model uses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Figure {
    /// The smallest value the laws admit.
    pub min: f64,
    /// The value the board model uses (inside `min..=max`).
    pub nominal: f64,
    /// The largest value the laws admit.
    pub max: f64,
}

impl Figure {
    /// Whether a measured value lies within the admissible range.
    pub fn admits(&self, value: f64) -> bool {
        (self.min..=self.max).contains(&value)
    }

    const fn with_variation(nominal: f64, variation: f64) -> Figure {
        Figure {
            min: nominal - variation,
            nominal,
            max: nominal + variation,
        }
    }
}

// ---------------------------------------------------------------------------
// A.1 Playing surface
// ---------------------------------------------------------------------------

/// Side of the square playing surface (ICF A.1: 73.50–74 cm). Nominal 736.6 mm
/// = 29", the standard tournament size; it is also the one size at which the
/// base-line length (A.4 a), the base-line distances and the base-circle
/// tangency rule (A.4 b) agree exactly (see `tests`).
pub const PLAYING_SURFACE_SIDE: Figure = Figure {
    min: 735.0,
    nominal: 736.6,
    max: 740.0,
};

/// Nominal side of the playing surface, mm.
pub const PLAYING_SURFACE_SIDE_MM: f64 = PLAYING_SURFACE_SIDE.nominal;

/// Half the nominal side: the surface spans `-HALF_SURFACE_MM..=HALF_SURFACE_MM`
/// on both axes of board coordinates. South's frame edge is `y = -HALF_SURFACE_MM`.
pub const HALF_SURFACE_MM: f64 = PLAYING_SURFACE_SIDE_MM / 2.0;

/// Minimum thickness of the plywood of the playing surface (ICF A.1), mm.
pub const PLAYING_SURFACE_MIN_THICKNESS_MM: f64 = 8.0;

// ---------------------------------------------------------------------------
// A.2 Frame
// ---------------------------------------------------------------------------

/// Breadth of the wooden frame around the surface (ICF A.2: 6.35–7.60 cm).
/// Nominal 76 mm (3"), the usual tournament frame.
pub const FRAME_WIDTH: Figure = Figure {
    min: 63.5,
    nominal: 76.0,
    max: 76.0,
};

/// Nominal frame breadth, mm.
pub const FRAME_WIDTH_MM: f64 = FRAME_WIDTH.nominal;

/// Height of the frame above the playing surface (ICF A.2: 1.90–2.54 cm).
pub const FRAME_HEIGHT: Figure = Figure {
    min: 19.0,
    nominal: 25.4,
    max: 25.4,
};

/// Side of the whole board, frame included, mm.
pub const BOARD_OUTER_SIDE_MM: f64 = PLAYING_SURFACE_SIDE_MM + 2.0 * FRAME_WIDTH_MM;

// ---------------------------------------------------------------------------
// A.3 Pockets
// ---------------------------------------------------------------------------

/// Diameter of each corner pocket hole (ICF A.3: 4.45 cm ± 0.15 cm).
pub const POCKET_DIAMETER: Figure = Figure::with_variation(44.5, 1.5);

/// Nominal pocket diameter, mm.
pub const POCKET_DIAMETER_MM: f64 = POCKET_DIAMETER.nominal;

/// Nominal pocket radius, mm.
pub const POCKET_RADIUS_MM: f64 = POCKET_DIAMETER_MM / 2.0;

/// Distance of each pocket centre from both frame edges of its corner, mm.
///
/// ICF A.3 says the pockets are "round inwardly" and that the plywood
/// adjoining the corners of the frame is cut off: the hole is cut into the
/// corner of the surface and its rim meets the two frame edges, the frame's
/// curved inside corner continuing the hole's outline. So the hole is tangent
/// to both frame edges and its centre sits one pocket radius in from each.
pub const POCKET_CENTRE_INSET_MM: f64 = POCKET_RADIUS_MM;

/// |x| and |y| of every pocket centre in board coordinates, mm.
pub const POCKET_CENTRE_OFFSET_MM: f64 = HALF_SURFACE_MM - POCKET_CENTRE_INSET_MM;

/// Radius of the frame's curved inside corner, mm. ICF A.2 asks for curved
/// corners without a figure; boards round them to the pocket's outline.
pub const FRAME_INNER_CORNER_RADIUS_MM: f64 = POCKET_RADIUS_MM;

// ---------------------------------------------------------------------------
// A.4 Base lines and base circles
// ---------------------------------------------------------------------------

/// Length of each base line, base circles included (ICF A.4 a: 47 cm with an
/// admissible variation of 0.30 cm). "Closed by circles at both ends" is read
/// as the 47 cm spanning the whole drawn figure, outer rims of the circles
/// included: only that reading agrees with the tangency rule of A.4 b (see
/// [`BASE_CIRCLE_CENTRE_ALONG_MM`] and the tests).
pub const BASE_LINE_LENGTH: Figure = Figure::with_variation(470.0, 3.0);

/// Distance from the frame to the near (frame-side) edge of the outer base
/// line, the "lower" one (ICF A.4 a: 10.15 cm), mm.
pub const OUTER_BASE_LINE_FROM_FRAME_MM: f64 = 101.5;

/// Thickness of the outer (lower) base line (ICF A.4 a: 0.50–0.65 cm).
/// Nominal: the middle of the range.
pub const OUTER_BASE_LINE_THICKNESS: Figure = Figure {
    min: 5.0,
    nominal: 5.75,
    max: 6.5,
};

/// Nominal thickness of the outer base line, mm.
pub const OUTER_BASE_LINE_THICKNESS_MM: f64 = OUTER_BASE_LINE_THICKNESS.nominal;

/// Distance from the lower (frame-side) edge of the outer base line to the far
/// edge of the inner ("upper") base line (ICF A.4 a: 3.18 cm), mm. It equals
/// the base-circle diameter: the circle fits exactly between the lines'
/// outer edges, which is how it "touches both the base lines" (A.4 b).
pub const BASE_LINE_SPACING_MM: f64 = 31.8;

/// Thickness of the inner (upper) base line, mm. The ICF gives no figure;
/// boards draw it as a thin line, and the arrows' maximum thickness is used.
pub const INNER_BASE_LINE_THICKNESS_MM: f64 = ARROW_MAX_THICKNESS_MM;

/// Diameter of the base circles closing the base lines (ICF A.4 b: 3.18 cm).
pub const BASE_CIRCLE_DIAMETER_MM: f64 = 31.8;

/// Radius of a base circle, mm.
pub const BASE_CIRCLE_RADIUS_MM: f64 = BASE_CIRCLE_DIAMETER_MM / 2.0;

/// Diameter of the red disc inside each base circle (ICF A.4 b: 2.54 cm).
pub const BASE_CIRCLE_RED_DIAMETER_MM: f64 = 25.4;

/// Distance from the board centre to the frame-side edge of a seat's outer
/// base line (the edge of the base-line band nearest the player), mm.
pub const BASE_BAND_NEAR_EDGE_FROM_CENTRE_MM: f64 = HALF_SURFACE_MM - OUTER_BASE_LINE_FROM_FRAME_MM;

/// Distance from the board centre to the far edge of a seat's inner base line
/// (the edge of the base-line band nearest the board centre), mm.
pub const BASE_BAND_FAR_EDGE_FROM_CENTRE_MM: f64 =
    BASE_BAND_NEAR_EDGE_FROM_CENTRE_MM - BASE_LINE_SPACING_MM;

/// Distance from the board centre to the centre line of a seat's base-line
/// band, where the base-circle centres lie, mm.
pub const BASE_CIRCLE_CENTRE_DEPTH_MM: f64 =
    BASE_BAND_NEAR_EDGE_FROM_CENTRE_MM - BASE_LINE_SPACING_MM / 2.0;

/// Distance of each base-circle centre from the seat's centre line (along the
/// base lines), mm. ICF A.4 b: the circle also touches the adjacent side's
/// upper base line "when imaginably extended"; that line's far edge lies at
/// [`BASE_BAND_FAR_EDGE_FROM_CENTRE_MM`], and the circle touches it from the
/// board-centre side (from the other side it would coincide with the adjacent
/// side's own base circle).
pub const BASE_CIRCLE_CENTRE_ALONG_MM: f64 =
    BASE_BAND_FAR_EDGE_FROM_CENTRE_MM - BASE_CIRCLE_RADIUS_MM;

/// Length of a base line including its closing circles, as derived from the
/// tangency rule; checked against [`BASE_LINE_LENGTH`] in the tests, mm.
pub const BASE_LINE_DERIVED_LENGTH_MM: f64 =
    2.0 * BASE_CIRCLE_CENTRE_ALONG_MM + BASE_CIRCLE_DIAMETER_MM;

/// The gap between a base circle of one side and the nearest base circle of
/// the adjacent side that ICF A.4 b quotes ("1.27 cm approximately"), mm.
pub const BASE_CIRCLE_GAP_APPROX_MM: f64 = 12.7;

// ---------------------------------------------------------------------------
// A.5 Arrows
// ---------------------------------------------------------------------------

/// Maximum thickness of an arrow (ICF A.5: not more than 0.15 cm), mm.
pub const ARROW_MAX_THICKNESS_MM: f64 = 1.5;

/// Maximum length of an arrow (ICF A.5: not more than 26.70 cm), mm. The model
/// draws the arrows at this length.
pub const ARROW_MAX_LENGTH_MM: f64 = 267.0;

/// Clear distance between an arrow's head and the edge of its pocket
/// (ICF A.5: 5.00 cm), mm.
pub const ARROW_CLEARANCE_FROM_POCKET_MM: f64 = 50.0;

/// Angle of each arrow to the adjacent sides (ICF A.5: 45°), degrees.
pub const ARROW_ANGLE_DEG: f64 = 45.0;

/// Diameter of the optional decorative arc at the arrow's start (ICF A.5:
/// 6.35 cm), mm.
pub const ARROW_ARC_DIAMETER_MM: f64 = 63.5;

/// Distance from the board centre to the centre of a pocket, along the
/// diagonal, mm.
pub const POCKET_CENTRE_DIAGONAL_MM: f64 = POCKET_CENTRE_OFFSET_MM * std::f64::consts::SQRT_2;

/// Distance from the board centre, along the diagonal, to an arrow's head
/// (the end pointing at the pocket), mm.
pub const ARROW_HEAD_DIAGONAL_MM: f64 =
    POCKET_CENTRE_DIAGONAL_MM - POCKET_RADIUS_MM - ARROW_CLEARANCE_FROM_POCKET_MM;

/// Distance from the board centre, along the diagonal, to an arrow's start
/// (its tail, where the decorative arc is drawn), mm.
pub const ARROW_TAIL_DIAGONAL_MM: f64 = ARROW_HEAD_DIAGONAL_MM - ARROW_MAX_LENGTH_MM;

// ---------------------------------------------------------------------------
// A.6 Centre circle, A.7 Outer circle
// ---------------------------------------------------------------------------

/// Diameter of the red centre circle (ICF A.6: 3.18 cm ± 0.16 cm).
pub const CENTRE_CIRCLE_DIAMETER: Figure = Figure::with_variation(31.8, 1.6);

/// Nominal centre-circle diameter, mm.
pub const CENTRE_CIRCLE_DIAMETER_MM: f64 = CENTRE_CIRCLE_DIAMETER.nominal;

/// Nominal centre-circle radius, mm.
pub const CENTRE_CIRCLE_RADIUS_MM: f64 = CENTRE_CIRCLE_DIAMETER_MM / 2.0;

/// Diameter of the outer circle (ICF A.7: 17.00 cm ± 0.30 cm).
pub const OUTER_CIRCLE_DIAMETER: Figure = Figure::with_variation(170.0, 3.0);

/// Nominal outer-circle diameter, mm.
pub const OUTER_CIRCLE_DIAMETER_MM: f64 = OUTER_CIRCLE_DIAMETER.nominal;

/// Nominal outer-circle radius, mm.
pub const OUTER_CIRCLE_RADIUS_MM: f64 = OUTER_CIRCLE_DIAMETER_MM / 2.0;

/// Thickness the model draws the black circle outlines (centre, outer and
/// base circles) with, mm. The ICF gives no figure; the arrows' is reused.
pub const CIRCLE_LINE_THICKNESS_MM: f64 = ARROW_MAX_THICKNESS_MM;

// ---------------------------------------------------------------------------
// B Carrommen, C Striker
// ---------------------------------------------------------------------------

/// Diameter of a carromman (and the Queen) (ICF B: 3.02–3.18 cm). Nominal:
/// the maximum, 1¼", the size of tournament pieces.
pub const CARROMMAN_DIAMETER: Figure = Figure {
    min: 30.2,
    nominal: 31.8,
    max: 31.8,
};

/// Nominal carromman diameter, mm.
pub const CARROMMAN_DIAMETER_MM: f64 = CARROMMAN_DIAMETER.nominal;

/// Nominal carromman radius, mm.
pub const CARROMMAN_RADIUS_MM: f64 = CARROMMAN_DIAMETER_MM / 2.0;

/// Thickness of a carromman (ICF B: 0.70–0.90 cm), mm.
pub const CARROMMAN_THICKNESS: Figure = Figure {
    min: 7.0,
    nominal: 8.0,
    max: 9.0,
};

/// Mass of a carromman (ICF B: 5.25–5.50 g), grams.
pub const CARROMMAN_MASS_G: Figure = Figure {
    min: 5.25,
    nominal: 5.5,
    max: 5.5,
};

/// Number of white carrommen, of black carrommen (ICF B), and of Queens.
pub const WHITE_CARROMMEN: usize = 9;
/// Number of black carrommen (ICF B).
pub const BLACK_CARROMMEN: usize = 9;
/// All pieces of the break arrangement: 9 white, 9 black and the Queen.
pub const PIECES_AT_BREAK: usize = WHITE_CARROMMEN + BLACK_CARROMMEN + 1;

/// Diameter of the striker (ICF C: not more than 4.13 cm). No minimum is set;
/// 38 mm is taken as the smallest striker seen in play. Nominal: the maximum,
/// the usual tournament striker (1⅝").
pub const STRIKER_DIAMETER: Figure = Figure {
    min: 38.0,
    nominal: 41.3,
    max: 41.3,
};

/// Nominal striker diameter, mm.
pub const STRIKER_DIAMETER_MM: f64 = STRIKER_DIAMETER.nominal;

/// Nominal striker radius, mm.
pub const STRIKER_RADIUS_MM: f64 = STRIKER_DIAMETER_MM / 2.0;

/// Maximum mass of the striker (ICF C: not more than 15.00 g), grams.
pub const STRIKER_MAX_MASS_G: f64 = 15.0;

/// The ICF figures a calibrated board can be checked against: each measured
/// quantity's admissible range, by name.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IcfTolerances {
    /// Side of the playing surface (A.1).
    pub playing_surface_side: Figure,
    /// Breadth of the frame (A.2).
    pub frame_width: Figure,
    /// Pocket diameter (A.3).
    pub pocket_diameter: Figure,
    /// Base-line length, circles included (A.4 a).
    pub base_line_length: Figure,
    /// Thickness of the outer base line (A.4 a).
    pub outer_base_line_thickness: Figure,
    /// Centre-circle diameter (A.6).
    pub centre_circle_diameter: Figure,
    /// Outer-circle diameter (A.7).
    pub outer_circle_diameter: Figure,
    /// Carromman diameter (B).
    pub carromman_diameter: Figure,
    /// Striker diameter (C).
    pub striker_diameter: Figure,
}

impl IcfTolerances {
    /// The ranges the ICF laws admit.
    pub const ICF: IcfTolerances = IcfTolerances {
        playing_surface_side: PLAYING_SURFACE_SIDE,
        frame_width: FRAME_WIDTH,
        pocket_diameter: POCKET_DIAMETER,
        base_line_length: BASE_LINE_LENGTH,
        outer_base_line_thickness: OUTER_BASE_LINE_THICKNESS,
        centre_circle_diameter: CENTRE_CIRCLE_DIAMETER,
        outer_circle_diameter: OUTER_CIRCLE_DIAMETER,
        carromman_diameter: CARROMMAN_DIAMETER,
        striker_diameter: STRIKER_DIAMETER,
    };

    /// Every figure with a name for messages ("pocket diameter"), in the
    /// order of the ICF text.
    pub fn named(&self) -> [(&'static str, Figure); 9] {
        [
            ("playing surface side", self.playing_surface_side),
            ("frame width", self.frame_width),
            ("pocket diameter", self.pocket_diameter),
            ("base line length", self.base_line_length),
            ("outer base line thickness", self.outer_base_line_thickness),
            ("centre circle diameter", self.centre_circle_diameter),
            ("outer circle diameter", self.outer_circle_diameter),
            ("carromman diameter", self.carromman_diameter),
            ("striker diameter", self.striker_diameter),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tangency rule of A.4 b fixes where the circles sit; the length the
    /// laws quote must then come out within its admissible variation.
    #[test]
    fn base_line_length_includes_the_circles_and_agrees_with_tangency() {
        assert!(
            BASE_LINE_LENGTH.admits(BASE_LINE_DERIVED_LENGTH_MM),
            "derived length {BASE_LINE_DERIVED_LENGTH_MM} mm"
        );
        // The other reading (47 cm between circle centres) is far outside.
        let centre_to_centre = 2.0 * BASE_CIRCLE_CENTRE_ALONG_MM;
        assert!(!BASE_LINE_LENGTH.admits(centre_to_centre));
    }

    /// ICF A.4 b: "the distance between the base circle on one side and that
    /// of the other may be 1.27 cm approximately".
    #[test]
    fn gap_between_adjacent_sides_base_circles_is_about_half_an_inch() {
        // South's east circle and east's south circle, in board coordinates.
        let south_east = (BASE_CIRCLE_CENTRE_ALONG_MM, -BASE_CIRCLE_CENTRE_DEPTH_MM);
        let east_south = (BASE_CIRCLE_CENTRE_DEPTH_MM, -BASE_CIRCLE_CENTRE_ALONG_MM);
        let centre_distance = (south_east.0 - east_south.0).hypot(south_east.1 - east_south.1);
        let gap = centre_distance - BASE_CIRCLE_DIAMETER_MM;
        assert!(
            (gap - BASE_CIRCLE_GAP_APPROX_MM).abs() < 0.6,
            "gap between base circles {gap} mm"
        );
    }

    #[test]
    fn base_circle_touches_both_lines_and_the_adjacent_upper_line() {
        // Both base lines' outer edges are one radius from the circle centre.
        assert!(
            (BASE_BAND_NEAR_EDGE_FROM_CENTRE_MM
                - BASE_CIRCLE_CENTRE_DEPTH_MM
                - BASE_CIRCLE_RADIUS_MM)
                .abs()
                < 1e-9
        );
        assert!(
            (BASE_CIRCLE_CENTRE_DEPTH_MM
                - BASE_BAND_FAR_EDGE_FROM_CENTRE_MM
                - BASE_CIRCLE_RADIUS_MM)
                .abs()
                < 1e-9
        );
        // The adjacent side's upper line, extended, is one radius away too.
        assert!(
            (BASE_BAND_FAR_EDGE_FROM_CENTRE_MM
                - BASE_CIRCLE_CENTRE_ALONG_MM
                - BASE_CIRCLE_RADIUS_MM)
                .abs()
                < 1e-9
        );
    }

    #[test]
    fn arrow_passes_between_the_base_circles_and_stays_off_the_outer_circle() {
        // Where the two circles' gap crosses the diagonal.
        let gap_midpoint = (BASE_CIRCLE_CENTRE_ALONG_MM + BASE_CIRCLE_CENTRE_DEPTH_MM) / 2.0
            * std::f64::consts::SQRT_2;
        assert!(ARROW_TAIL_DIAGONAL_MM < gap_midpoint && gap_midpoint < ARROW_HEAD_DIAGONAL_MM);
        const { assert!(ARROW_TAIL_DIAGONAL_MM > OUTER_CIRCLE_RADIUS_MM) };
    }

    #[test]
    fn nominal_values_lie_within_their_ranges() {
        let named = IcfTolerances::ICF.named().map(|(_, figure)| figure);
        let others = [FRAME_HEIGHT, CARROMMAN_THICKNESS, CARROMMAN_MASS_G];
        for figure in named.into_iter().chain(others) {
            assert!(
                figure.min <= figure.nominal && figure.nominal <= figure.max,
                "{figure:?}"
            );
            assert!(figure.admits(figure.nominal));
            assert!(!figure.admits(figure.max + 0.01));
        }
    }

    #[test]
    fn tolerances_reject_a_pocket_too_wide_and_accept_a_small_board() {
        let icf = IcfTolerances::ICF;
        assert!(!icf.pocket_diameter.admits(46.5));
        assert!(icf.pocket_diameter.admits(43.0));
        assert!(icf.playing_surface_side.admits(735.0));
        assert!(!icf.playing_surface_side.admits(760.0));
        assert_eq!(icf.named()[2].0, "pocket diameter");
    }

    #[test]
    fn break_pattern_fits_inside_the_outer_circle() {
        // Two full rings of carrommen around the Queen (ICF 41 a).
        let pattern_radius = 2.0 * CARROMMAN_DIAMETER_MM + CARROMMAN_RADIUS_MM;
        assert!(pattern_radius <= OUTER_CIRCLE_RADIUS_MM);
    }
}
