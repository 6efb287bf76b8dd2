//! The ICF board as data and queries, in board millimetres: origin at the
//! centre of the playing surface, +x east, +y north. South is the bottom edge
//! of the rectified top view; the surface spans
//! `±spec::HALF_SURFACE_MM` on both axes.
//!
//! Every ICF figure the program uses is named once here (see [`spec`]), never
//! repeated as a literal elsewhere. The rest is pure geometry with no image
//! code, cheap to call from any stage:
//!
//! - where things are: [`pocket_centre`], [`arrow`], [`seat_markings`],
//!   [`break_arrangement`];
//! - what a point or disc is on: [`pocket_containing`], [`nearest_pocket`],
//!   [`on_playing_surface`], [`disc_on_playing_surface`],
//!   [`disc_inside_outer_circle`], [`disc_covers_centre_circle`], [`seat_at`];
//! - whether a striker may be played from where it lies: [`striker_placement`];
//! - turning south's geometry to another seat: [`rotate_to_seat`].

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
    pocket_containing, pocket_hole, pocket_on_the_way,
};
pub use names::{take_piece, Piece, Pocket, Seat};
pub use placement::{striker_placement, IllegalPlacement, Placement};
pub use seat::{
    rotate_from_seat, rotate_to_seat, rotate_vector_to_seat, seat_at, seat_markings, seat_pockets,
    BaseLineZone, SeatMarkings,
};
pub use shapes::{segment_distance, Circle, Stroke, GEOMETRY_EPSILON_MM};
pub use spec::{Figure, IcfTolerances};
