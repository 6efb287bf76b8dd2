//! The ICF board as data and queries, in board millimetres: origin at the
//! centre of the playing surface, +x east, +y north. South is the bottom edge
//! of the rectified top view.
//!
//! Every ICF figure the program uses is named once here (see `spec`), never
//! repeated as a literal elsewhere.

mod arrangement;
mod board;
mod names;
mod placement;
mod seat;
mod shapes;
pub mod spec;

pub use arrangement::{break_arrangement, PlacedPiece};
pub use board::{
    arrow, centre_circle, diagonal_towards, disc_covers_centre_circle, disc_inside_outer_circle,
    disc_on_playing_surface, nearest_pocket, on_playing_surface, outer_circle, pocket_centre,
    pocket_containing, pocket_hole,
};
pub use names::{Piece, Pocket, Seat};
pub use placement::{striker_placement, IllegalPlacement, Placement};
pub use seat::{
    rotate_from_seat, rotate_to_seat, rotate_vector_to_seat, seat_at, seat_markings, seat_pockets,
    BaseLineZone, SeatMarkings,
};
pub use shapes::{Circle, Stroke, GEOMETRY_EPSILON_MM};
pub use spec::{Figure, IcfTolerances};
