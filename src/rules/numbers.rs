//! The numbers the laws of play fix, each named once: points, board and game
//! lengths, break chances. (The equipment figures live in `geometry`.)

/// Carrommen of each colour at the start of a board (ICF 41).
pub const CARROMMEN_PER_COLOUR: u32 = 9;
/// Chances a breaker gets to touch a carromman (one plus "two more", ICF 45(a)).
pub const BREAK_CHANCES: u32 = 3;
/// The Queen's value (ICF 52(b)(i)), and the fixed award of ICF 102–112.
pub const QUEEN_POINTS: u32 = 3;
/// The Queen is credited only while the side's score is at most this (ICF 52(b)(i), 54).
pub const QUEEN_CREDIT_MAX_SCORE: u32 = 21;
/// What the fixed 3-point awards of ICF 102–112 become from 22 points on.
pub const LATE_FIXED_AWARD: u32 = 1;
/// The most points one board can give (ICF 55).
pub const MAX_BOARD_POINTS: u32 = 12;
/// Points that win a game (ICF 56(a)).
pub const GAME_POINTS: u32 = 25;
/// Boards in a league-stage game before an extra board on a tie (ICF 56(a),(b)).
pub const LEAGUE_GAME_BOARDS: u32 = 8;
/// Games that win a match, best of three (ICF 57).
pub const GAMES_TO_WIN_MATCH: u32 = 2;
/// Third-game change of sides: at this score (ICF 60(a),(b)) ...
pub const THIRD_GAME_CHANGE_POINTS: u32 = 13;
/// ... or, at the league stage, after this many boards (ICF 60(a)).
pub const THIRD_GAME_CHANGE_BOARDS: u32 = 4;
/// ECC 39–40: seconds of play before the first bell (50 minutes).
pub const ECC_FIRST_BELL_SECONDS: f64 = 50.0 * 60.0;
/// ECC 40–41: seconds from the start of the game to the final bell (50 + 7 minutes).
pub const ECC_FINAL_BELL_SECONDS: f64 = 57.0 * 60.0;
