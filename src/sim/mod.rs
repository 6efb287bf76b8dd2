//! The match simulator: plays carrom by the laws with disc physics and renders
//! the footage an overhead club camera would take, with ground truth.
//!
//! Data flows one way: `physics` moves discs, `play` decides strokes and asks
//! the rules engine what goes back on the board, both yield [`FrameTruth`]s,
//! and `render` turns each into a camera image. The truth types here are the
//! only thing the two halves share.

pub mod camera;
pub mod physics;
pub mod play;
pub mod render;
pub mod scene;
pub mod video;
