//! Ground truth of one video frame: where every piece and hand is, in board
//! millimetres. The simulator writes these (as `truth.tracks.jsonl`) and the
//! renderer draws them.

use serde::{Deserialize, Serialize};

use crate::geometry::{Piece, Pocket};

/// Where a piece is, as far as the game is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PieceState {
    /// Lying or sliding on the playing surface.
    OnBoard,
    /// Held by a player (the striker between strokes, a piece being put back).
    InHand,
    /// In the air after jumping off a hard cushion hit; it lands off the board.
    Airborne,
    /// Fell into a pocket.
    Pocketed,
    /// Left the board other than into a pocket.
    OffBoard,
}

/// One piece in one frame.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PieceTruth {
    /// Stable identity for the whole clip: 0 is the Queen, 1–9 white, 10–18
    /// black, 19 the striker.
    pub id: u8,
    pub kind: Piece,
    /// Centre in board mm (origin at the board centre, +x east, +y north).
    pub x: f64,
    pub y: f64,
    /// Velocity in mm/s at the frame time (the renderer smears by it).
    #[serde(default)]
    pub vx: f64,
    #[serde(default)]
    pub vy: f64,
    /// Height above the surface in mm (0 on the board; > 0 when airborne or
    /// lifted by a hand).
    #[serde(default)]
    pub z: f64,
    pub state: PieceState,
    /// The pocket it fell into, when `state` is `Pocketed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pocket: Option<Pocket>,
}

/// A player's hand and forearm over the board in one frame.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct HandTruth {
    /// Fingertip position in board mm.
    pub x: f64,
    pub y: f64,
    /// Direction the forearm comes from, in radians from +x (the arm extends
    /// from the fingertip towards the player, off the board).
    pub arm_angle: f64,
}

/// Everything true about one frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FrameTruth {
    pub frame: u32,
    /// Seconds from the start of the clip.
    pub t: f64,
    pub pieces: Vec<PieceTruth>,
    #[serde(default)]
    pub hands: Vec<HandTruth>,
}

impl FrameTruth {
    /// Pieces in each state, for checking that every piece is accounted for.
    pub fn count(&self, state: PieceState) -> usize {
        self.pieces.iter().filter(|p| p.state == state).count()
    }
}
