//! The names the whole program shares for seats, pockets and pieces, with the
//! spellings the public JSON formats use.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A player's seat: the side of the board whose base lines they strike from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Seat {
    South,
    East,
    North,
    West,
}

impl Seat {
    /// All four seats in the order the turn passes (to the right, ICF 48):
    /// south → east → north → west.
    pub const TURN_ORDER: [Seat; 4] = [Seat::South, Seat::East, Seat::North, Seat::West];

    /// The seat that plays after this one (to the right, ICF 48).
    pub fn next(self) -> Seat {
        match self {
            Seat::South => Seat::East,
            Seat::East => Seat::North,
            Seat::North => Seat::West,
            Seat::West => Seat::South,
        }
    }

    /// The seat across the board (a doubles partner's seat).
    pub fn opposite(self) -> Seat {
        match self {
            Seat::South => Seat::North,
            Seat::East => Seat::West,
            Seat::North => Seat::South,
            Seat::West => Seat::East,
        }
    }

    /// The spelling used in the JSON formats and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Seat::South => "south",
            Seat::East => "east",
            Seat::North => "north",
            Seat::West => "west",
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One of the four corner pockets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Pocket {
    Ne,
    Nw,
    Se,
    Sw,
}

impl Pocket {
    pub const ALL: [Pocket; 4] = [Pocket::Ne, Pocket::Nw, Pocket::Se, Pocket::Sw];

    /// The signs of the pocket's corner: (+1, +1) for north-east, and so on.
    pub fn corner_signs(self) -> (f64, f64) {
        match self {
            Pocket::Ne => (1.0, 1.0),
            Pocket::Nw => (-1.0, 1.0),
            Pocket::Se => (1.0, -1.0),
            Pocket::Sw => (-1.0, -1.0),
        }
    }

    /// The spelling used in the JSON formats.
    pub fn name(self) -> &'static str {
        match self {
            Pocket::Ne => "ne",
            Pocket::Nw => "nw",
            Pocket::Se => "se",
            Pocket::Sw => "sw",
        }
    }
}

impl fmt::Display for Pocket {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece on the board: a carromman of either colour, the Queen, or the striker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Piece {
    White,
    Black,
    Queen,
    Striker,
}

impl Piece {
    /// The spelling used in the JSON formats.
    pub fn name(self) -> &'static str {
        match self {
            Piece::White => "white",
            Piece::Black => "black",
            Piece::Queen => "queen",
            Piece::Striker => "striker",
        }
    }

    /// Whether this is a carromman (white or black), not the Queen or striker.
    pub fn is_carromman(self) -> bool {
        matches!(self, Piece::White | Piece::Black)
    }

    /// Its nominal radius, mm (the Queen is a carromman's size).
    pub fn radius_mm(self) -> f64 {
        match self {
            Piece::Striker => super::spec::STRIKER_RADIUS_MM,
            _ => super::spec::CARROMMAN_RADIUS_MM,
        }
    }
}

/// Takes one `piece` out of `pieces` (a tally of kinds, in no order);
/// whether there was one to take.
pub fn take_piece(pieces: &mut Vec<Piece>, piece: Piece) -> bool {
    match pieces.iter().position(|&p| p == piece) {
        Some(k) => {
            pieces.swap_remove(k);
            true
        }
        None => false,
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_is_taken_once_for_each_in_the_tally() {
        let mut tally = vec![Piece::White, Piece::Black, Piece::White];
        assert!(take_piece(&mut tally, Piece::White));
        assert!(take_piece(&mut tally, Piece::White));
        assert!(!take_piece(&mut tally, Piece::White));
        assert!(!take_piece(&mut tally, Piece::Queen));
        assert_eq!(tally, vec![Piece::Black]);
    }

    #[test]
    fn turn_passes_to_the_right_and_comes_back() {
        let mut seat = Seat::South;
        let mut seen = Vec::new();
        for _ in 0..4 {
            seen.push(seat);
            seat = seat.next();
        }
        assert_eq!(seen, Seat::TURN_ORDER);
        assert_eq!(seat, Seat::South);
    }

    #[test]
    fn json_spellings_match_the_contract() {
        assert_eq!(serde_json::to_string(&Seat::West).unwrap(), "\"west\"");
        assert_eq!(serde_json::to_string(&Pocket::Ne).unwrap(), "\"ne\"");
        assert_eq!(serde_json::to_string(&Piece::Queen).unwrap(), "\"queen\"");
        assert!(serde_json::from_str::<Piece>("\"red\"").is_err());
    }
}
