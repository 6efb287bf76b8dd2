//! Departures over the frame squared with the discs seen flying over it
//! ([`crate::detect::flight`]). A piece lost running at the frame may have
//! jumped it or come back off the cushion, and the count at rest, which
//! otherwise decides, miscounts where pieces hide prints or lie unseen: a
//! disc seen over the frame where and when the piece would have crossed
//! it is direct sight of the piece leaving. The frame is watched only for
//! a few frames after a piece is seen running at it near the edge (see
//! [`FrameWatch`]).

use nalgebra::{Point2, Vector2};

use crate::detect::flight::{outward, outward_of, FrameSighting};
use crate::geometry::spec::{CARROMMAN_RADIUS_MM, HALF_SURFACE_MM};
use crate::geometry::{Piece, Seat};
use crate::track::{TrackFrame, TrackId};

/// A departure over the frame, as recorded: the piece, the departure's time
/// (s), where its course met the frame's cushion (board mm), and when it
/// was last seen (s).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct FrameCrossing {
    pub piece: Piece,
    pub t: f64,
    pub meets_frame_at: Point2<f64>,
    pub seen_t: f64,
}

/// A disc seen over the frame this long (s) after its piece was last seen
/// on the board may be that piece in flight: the simulator's jumping pieces
/// cross the frame 1–4 frames after it.
const FLIGHT_WINDOW_S: f64 = 0.25;

/// ...and this far (mm) from where its course met the cushion: a piece
/// flies out past the frame's inner edge, shows farther out still for its
/// height in the top view, and drifts along the frame as it flies.
const FLIGHT_REACH_MM: f64 = 110.0;

/// Sightings this near in time (s) and space (mm) belong to one flight.
const ONE_FLIGHT_S: f64 = 0.15;
const ONE_FLIGHT_MM: f64 = 100.0;

/// One disc followed over the frame: its first sighting's time (s) and
/// place (board mm), and whether it showed clearly darker than the frame
/// (by [`CLEARLY_DARKER`] in some sighting), which no white does.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Flight {
    pub t: f64,
    pub at: Point2<f64>,
    pub clearly_darker: bool,
    /// No stronger in any frame than the empty frame reads
    /// ([`CLEAR_OF_THE_EMPTY_FRAME`]).
    pub faint: bool,
}

/// A disc over the frame with no departure to account for it must differ
/// from the empty frame at least this much in some frame (see
/// [`crate::detect::flight::MIN_FLIGHT_STRENGTH`]) to be a piece that left:
/// away from arms the empty frame read up to 6 in session 45's look at
/// 300 dev clips, the 33 pieces that flew over it 6.8 and up, each in 2–4
/// frames (clip 3473: a patch of the north frame's lettering read 5.3 in
/// one frame, no shade darker or lighter, and a white the tracker had lost
/// was taken as leaving the board there). The empty frame reads so in
/// successive frames too: clip 3767's south frame read 5.0–5.4 in four
/// frames along 60 mm of it, and 6.3 in one, clip 3722's west frame 6.2
/// once, and whites the count missed were taken as leaving there.
const CLEAR_OF_THE_EMPTY_FRAME: f32 = 6.5;

/// Levels (0–255) of luma by which a disc over the frame must show darker
/// than it to be taken for a black. A black in the air, nearer the lamp,
/// may show a little lighter than a dark frame (dev clips 2897, 2945,
/// 3198: 5–12 levels), so lighter says nothing.
const CLEARLY_DARKER: f32 = 10.0;

/// What a stroke's watch over the frame saw: the discs over it, and the
/// departures over it that the stroke recorded.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct FlightLog {
    sightings: Vec<(f64, FrameSighting)>,
    crossings: Vec<FrameCrossing>,
    /// The sides looked over, with a clear view, and when (s), and whether
    /// the frame there is light enough to show a black.
    watched: Vec<(f64, Seat, bool)>,
}

impl FlightLog {
    /// The frame's `watched` sides looked over at `t` (s), those of them
    /// too dark to show a black, and the discs seen there.
    pub fn seen(
        &mut self,
        t: f64,
        watched: &[Seat],
        hiding_blacks: &[Seat],
        sightings: &[FrameSighting],
    ) {
        self.watched.extend(
            watched
                .iter()
                .map(|&side| (t, side, !hiding_blacks.contains(&side))),
        );
        self.sightings.extend(sightings.iter().map(|&s| (t, s)));
    }

    /// Frames in which the side of the frame that `piece`'s departure at
    /// `t` met was looked over in its flight's time, where the frame could
    /// show it (a black over a frame as dark cannot be seen).
    pub fn looks_at_crossing(&self, piece: Piece, t: f64) -> usize {
        let Some(crossing) = self.crossing(piece, t) else {
            return 0;
        };
        let side = side_met(crossing.meets_frame_at);
        self.watched
            .iter()
            .filter(|&&(seen_t, s, shows_blacks)| {
                s == side
                    && (shows_blacks || piece != Piece::Black)
                    && in_window(crossing, seen_t)
                    && seen_t >= crossing.seen_t
            })
            .count()
    }

    /// A departure over the frame recorded.
    pub fn crossed(&mut self, crossing: FrameCrossing) {
        self.crossings.push(crossing);
    }

    /// Where `piece` was seen in flight, for its departure recorded at
    /// `t`: a disc over the frame near where its course met the cushion,
    /// about when it was last seen; else a disc seen over the frame then
    /// anywhere that no other departure accounts for (a track handed to
    /// another disc on the way leaves its course pointing elsewhere). The
    /// disc's shade says nothing of the piece's kind: a black in the air,
    /// nearer the lamp, shows lighter than a dark frame in some renders.
    pub fn flight_of(&self, piece: Piece, t: f64) -> Option<Point2<f64>> {
        let flights = self.flights();
        let crossing = self.crossing(piece, t)?;
        self.explaining(crossing, &flights).map(|(_, at)| at)
    }

    fn crossing(&self, piece: Piece, t: f64) -> Option<&FrameCrossing> {
        self.crossings.iter().find(|c| c.piece == piece && c.t == t)
    }

    /// The flight among `flights` that shows `crossing`'s piece leaving (see
    /// [`FlightLog::flight_of`]), and where it was seen then.
    fn explaining(
        &self,
        crossing: &FrameCrossing,
        flights: &[FollowedOverTheFrame],
    ) -> Option<(usize, Point2<f64>)> {
        // A disc over the frame while this piece was still seen on the
        // board, and just after a piece of another kind heading there was
        // last seen, is that other piece (clip 6441: a black jumped the
        // east frame at the break, and a white's track running east, seen
        // on the board 0.1 s longer, was lost by the cushion; the black's
        // flight made the white leave too).
        let another_had_gone = |seen_t: f64, at: Point2<f64>| {
            seen_t < crossing.seen_t
                && self.crossings.iter().any(|c| {
                    c.piece != crossing.piece && c.seen_t <= seen_t && in_flight_from(c, seen_t, at)
                })
        };
        let near = flights.iter().enumerate().find_map(|(k, f)| {
            f.sightings
                .iter()
                .find(|&&(seen_t, s)| {
                    in_flight_from(crossing, seen_t, s.centre)
                        && !another_had_gone(seen_t, s.centre)
                })
                .map(|&(_, s)| (k, s.centre))
        });
        if near.is_some() {
            return near;
        }
        let others: Vec<&FrameCrossing> =
            self.crossings.iter().filter(|c| *c != crossing).collect();
        flights.iter().enumerate().find_map(|(k, f)| {
            let theirs = f
                .sightings
                .iter()
                .any(|&(seen_t, s)| others.iter().any(|c| in_flight_from(c, seen_t, s.centre)));
            if theirs {
                return None;
            }
            f.sightings
                .iter()
                .find(|(seen_t, _)| in_window(crossing, *seen_t))
                .map(|&(_, s)| (k, s.centre))
        })
    }

    /// The discs followed over the frame that none of the `kept`
    /// departures (piece, time) accounts for, in time order.
    pub fn unexplained(&self, kept: &[(Piece, f64)]) -> Vec<Flight> {
        let flights = self.flights();
        let explained: Vec<usize> = kept
            .iter()
            .filter_map(|&(piece, t)| self.crossing(piece, t))
            .filter_map(|c| self.explaining(c, &flights))
            .map(|(k, _)| k)
            .collect();
        flights
            .iter()
            .enumerate()
            .filter(|(k, _)| !explained.contains(k))
            .map(|(_, f)| {
                let (t, first) = f.sightings[0];
                let darkest = f
                    .sightings
                    .iter()
                    .map(|(_, s)| s.luma_change)
                    .fold(f32::INFINITY, f32::min);
                let strongest = f
                    .sightings
                    .iter()
                    .map(|(_, s)| s.strength)
                    .fold(0.0f32, f32::max);
                Flight {
                    t,
                    at: first.centre,
                    clearly_darker: darkest <= -CLEARLY_DARKER,
                    faint: strongest < CLEAR_OF_THE_EMPTY_FRAME,
                }
            })
            .collect()
    }

    /// The sightings gathered into discs followed from frame to frame, in
    /// time order; a disc seen again and again in one place is a mark on
    /// the frame, not a piece flying over it, and is left out.
    fn flights(&self) -> Vec<FollowedOverTheFrame> {
        let mut sightings = self.sightings.clone();
        sightings.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut followed: Vec<FollowedOverTheFrame> = Vec::new();
        for (t, s) in sightings {
            let joined = followed.iter_mut().find(|f| {
                let &(last_t, last) = f.sightings.last().expect("never empty");
                t - last_t <= ONE_FLIGHT_S && (s.centre - last.centre).norm() <= ONE_FLIGHT_MM
            });
            match joined {
                Some(f) => f.sightings.push((t, s)),
                None => followed.push(FollowedOverTheFrame {
                    sightings: vec![(t, s)],
                }),
            }
        }
        followed.retain(|f| !f.stands_still());
        followed
    }
}

/// One disc followed over the frame: its sightings and their times (s), in
/// time order, never none.
#[derive(Debug, Clone, PartialEq)]
struct FollowedOverTheFrame {
    sightings: Vec<(f64, FrameSighting)>,
}

impl FollowedOverTheFrame {
    /// Seen in [`STILL_SIGHTINGS`] frames or more, all within
    /// [`STILL_MM`] of the first.
    fn stands_still(&self) -> bool {
        let first = self.sightings[0].1.centre;
        self.sightings.len() >= STILL_SIGHTINGS
            && self
                .sightings
                .iter()
                .all(|(_, s)| (s.centre - first).norm() <= STILL_MM)
    }
}

/// A disc over the frame seen in this many frames...
const STILL_SIGHTINGS: usize = 3;

/// ...all within this distance (mm) of the first stands still: a piece in
/// flight crosses the frame in a frame or two.
const STILL_MM: f64 = 8.0;

/// Whether a sighting at `t` (s) falls in the time a piece of `crossing`
/// could be over the frame: from a little before it was last seen (its
/// track may have gone on over another disc for a frame or so) to
/// [`FLIGHT_WINDOW_S`] after.
fn in_window(crossing: &FrameCrossing, t: f64) -> bool {
    t >= crossing.seen_t - FLIGHT_LEAD_S && t - crossing.seen_t <= FLIGHT_WINDOW_S
}

/// How long (s) before its piece was last seen a disc over the frame may
/// be that piece in flight (see [`in_window`]).
const FLIGHT_LEAD_S: f64 = 0.1;

/// Whether a disc seen over the frame at `at`, `t`, could be the piece of
/// `crossing` in flight.
fn in_flight_from(crossing: &FrameCrossing, t: f64, at: Point2<f64>) -> bool {
    in_window(crossing, t) && (at - crossing.meets_frame_at).norm() <= FLIGHT_REACH_MM
}

/// The side of the frame nearest a board point.
fn side_met(at: Point2<f64>) -> Seat {
    match (at.x.abs() >= at.y.abs(), at.x >= 0.0, at.y >= 0.0) {
        (true, true, _) => Seat::East,
        (true, false, _) => Seat::West,
        (false, _, true) => Seat::North,
        (false, _, false) => Seat::South,
    }
}

/// A piece seen this near the surface's edge (mm, its centre from the
/// edge)...
const WATCH_FROM_EDGE_MM: f64 = 120.0;

/// ...running at it this fast (mm/s) or faster has the frame on that side
/// watched: only a hard hit lifts a piece over it.
const WATCH_SPEED: f64 = 600.0;

/// Frames the frame is watched after such a sighting: the simulator's
/// jumping pieces show over it up to four frames after leaving.
const WATCH_FRAMES: u8 = 5;

/// A piece seen running at a side of the frame near the edge: when (s),
/// where (board mm) and how fast (mm/s).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Approach {
    pub t: f64,
    pub side: Seat,
    pub at: Point2<f64>,
    pub velocity: Vector2<f64>,
}

impl Approach {
    /// Whether a disc seen over the frame at `at`, `t`, could be this
    /// piece flown on: on its side, after it, no later than
    /// [`FLIGHT_WINDOW_S`], and along the frame near where its course meets
    /// the cushion.
    pub fn could_fly_to(&self, t: f64, at: Point2<f64>) -> bool {
        let dt = t - self.t;
        if side_met(at) != self.side || dt <= 0.0 || dt > FLIGHT_WINDOW_S {
            return false;
        }
        let speed_out = outward_of(self.side, self.velocity).max(1.0);
        let to_edge = (HALF_SURFACE_MM - outward_of(self.side, self.at.coords)).max(0.0);
        let meets = self.at + self.velocity * (to_edge / speed_out);
        along_the_frame(self.side, at, meets) <= APPROACH_REACH_MM
    }
}

/// How far (mm) along the frame from where a piece's course met the
/// cushion it may show in flight (its course read off blurred sightings
/// points only roughly).
const APPROACH_REACH_MM: f64 = 100.0;

/// A disc over the frame this near (mm, along it) a piece seen lying at
/// the cushion beside it is that piece's edge, blur or shadow showing
/// over the frame's inner edge.
const BESIDE_A_PIECE_MM: f64 = 3.0 * CARROMMAN_RADIUS_MM;

/// Which sides of the frame to look over for pieces in flight (those a
/// piece was lately seen running at near the edge), and the pieces seen
/// running at them.
#[derive(Debug, Clone, Default)]
pub struct FrameWatch {
    /// Frames left to watch, per side in [`Seat::TURN_ORDER`].
    frames_left: [u8; 4],
    /// Tentative tracks' last sightings (s, board mm): their velocity is
    /// read off the next.
    tentative: Vec<(TrackId, f64, Point2<f64>)>,
    /// The approaches of the last [`FLIGHT_WINDOW_S`].
    approaches: Vec<Approach>,
    /// Where pieces lay at the cushion in the latest frame (board mm).
    at_the_cushion: Vec<Point2<f64>>,
}

impl FrameWatch {
    /// The sides watched this frame.
    pub fn sides(&self) -> Vec<Seat> {
        Seat::TURN_ORDER
            .iter()
            .zip(self.frames_left)
            .filter(|(_, left)| *left > 0)
            .map(|(&side, _)| side)
            .collect()
    }

    /// The discs seen over the frame at `t` (s) that a piece seen running
    /// at it lately could have become, but for the edges of pieces lying
    /// at the cushion now: call after [`FrameWatch::after`] for the frame.
    pub fn in_flight(&self, t: f64, sightings: Vec<FrameSighting>) -> Vec<FrameSighting> {
        sightings
            .into_iter()
            .filter(|s| {
                !self.beside_a_piece_at_the_cushion(s.centre)
                    && self.approaches.iter().any(|a| a.could_fly_to(t, s.centre))
            })
            .collect()
    }

    /// Whether a disc seen over the frame at `at` lies beside a piece seen
    /// at the cushion in the latest frame (see [`BESIDE_A_PIECE_MM`]).
    fn beside_a_piece_at_the_cushion(&self, at: Point2<f64>) -> bool {
        let side = side_met(at);
        self.at_the_cushion.iter().any(|&piece| {
            side_met(piece) == side && along_the_frame(side, piece, at) <= BESIDE_A_PIECE_MM
        })
    }

    /// Counts a frame down, notes the pieces of `frame` running at the
    /// frame near the edge and watches their sides (and those of tentative
    /// tracks lying within a diameter of the cushion, new and without a
    /// velocity yet).
    pub fn after(&mut self, frame: &TrackFrame) {
        for left in self.frames_left.iter_mut() {
            *left = left.saturating_sub(1);
        }
        let t = frame.t;
        self.approaches.retain(|a| t - a.t <= FLIGHT_WINDOW_S);
        let mut running: Vec<(Point2<f64>, Vector2<f64>)> = frame
            .tracks
            .iter()
            .filter(|track| track.seen_this_frame())
            .map(|track| (track.position, track.velocity))
            .collect();
        for &(id, at) in &frame.tentative {
            if let Some(&(_, before_t, before)) = self.tentative.iter().find(|(k, ..)| *k == id) {
                if t > before_t {
                    running.push((at, (at - before) / (t - before_t)));
                }
            }
        }
        self.tentative = frame
            .tentative
            .iter()
            .map(|&(id, at)| (id, t, at))
            .collect();
        let mut watch = Vec::new();
        for (at, velocity) in running {
            for side in Seat::TURN_ORDER {
                let out = outward_of(side, at.coords);
                if out >= HALF_SURFACE_MM - WATCH_FROM_EDGE_MM
                    && outward_of(side, velocity) >= WATCH_SPEED
                {
                    self.approaches.push(Approach {
                        t,
                        side,
                        at,
                        velocity,
                    });
                    watch.push(side);
                }
            }
        }
        self.at_the_cushion.clear();
        let lying = frame
            .tracks
            .iter()
            .filter(|track| track.seen_this_frame())
            .map(|track| track.position)
            .chain(frame.tentative.iter().map(|&(_, at)| at));
        for at in lying {
            for side in Seat::TURN_ORDER {
                let out = outward_of(side, at.coords);
                if out >= HALF_SURFACE_MM - 3.0 * CARROMMAN_RADIUS_MM {
                    watch.push(side);
                }
                if out >= HALF_SURFACE_MM - 2.0 * CARROMMAN_RADIUS_MM {
                    self.at_the_cushion.push(at);
                }
            }
        }
        for side in watch {
            if let Some(k) = Seat::TURN_ORDER.iter().position(|&s| s == side) {
                self.frames_left[k] = WATCH_FRAMES;
            }
        }
    }

    /// Stops watching (between strokes).
    pub fn clear(&mut self) {
        self.frames_left = [0; 4];
        self.tentative.clear();
        self.approaches.clear();
        self.at_the_cushion.clear();
    }
}

/// How far apart `a` and `b` lie along `side`'s frame (mm), whatever
/// their distances out.
fn along_the_frame(side: Seat, a: Point2<f64>, b: Point2<f64>) -> f64 {
    let out = outward(side);
    let d = a - b;
    (d - out * out.dot(&d)).norm()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sighting(x: f64, y: f64, luma_change: f32) -> FrameSighting {
        FrameSighting {
            side: Seat::East,
            centre: Point2::new(x, y),
            strength: 20.0,
            luma_change,
        }
    }

    fn crossing(piece: Piece, t: f64) -> FrameCrossing {
        FrameCrossing {
            piece,
            t,
            meets_frame_at: Point2::new(352.0, -50.0),
            seen_t: t - 0.1,
        }
    }

    #[test]
    fn a_disc_over_the_frame_soon_after_and_near_a_departure_is_its_flight() {
        let mut log = FlightLog::default();
        log.crossed(crossing(Piece::Black, 2.8));
        log.seen(2.77, &[], &[], &[sighting(400.0, -58.0, -30.0)]);
        assert!(log.flight_of(Piece::Black, 2.8).is_some());
        assert!(log.flight_of(Piece::White, 2.8).is_none());
        assert!(log.unexplained(&[(Piece::Black, 2.8)]).is_empty());
        // Not kept: the flight is then unexplained.
        let left = log.unexplained(&[]);
        assert_eq!(left.len(), 1, "{left:?}");
    }

    #[test]
    fn a_disc_over_the_frame_late_is_no_flight_of_it() {
        let mut log = FlightLog::default();
        log.crossed(crossing(Piece::White, 2.8));
        // Last seen at 2.7 s: a disc there at 2.5 s, or at 3.5 s, is another.
        log.seen(2.5, &[], &[], &[sighting(400.0, -50.0, -30.0)]);
        log.seen(3.5, &[], &[], &[sighting(400.0, -50.0, 30.0)]);
        assert!(log.flight_of(Piece::White, 2.8).is_none());
        assert_eq!(log.unexplained(&[(Piece::White, 2.8)]).len(), 2);
    }

    #[test]
    fn a_disc_seen_elsewhere_then_is_its_flight_unless_another_departure_explains_it() {
        let mut log = FlightLog::default();
        log.crossed(crossing(Piece::Black, 2.8));
        log.seen(2.77, &[], &[], &[sighting(400.0, 150.0, -30.0)]);
        assert_eq!(
            log.flight_of(Piece::Black, 2.8),
            Some(Point2::new(400.0, 150.0))
        );
        assert!(log.unexplained(&[(Piece::Black, 2.8)]).is_empty());
        log.crossed(FrameCrossing {
            meets_frame_at: Point2::new(352.0, 140.0),
            ..crossing(Piece::Black, 2.81)
        });
        assert!(log.flight_of(Piece::Black, 2.8).is_none());
    }

    #[test]
    fn a_disc_over_the_frame_after_another_kind_went_there_and_while_this_piece_was_seen_is_the_other(
    ) {
        // Clip 6441: a black last seen at 2.80 s, a white at 2.92 s, both
        // running at the east frame; a disc over it at 2.83 s.
        let log = black_then_white_running_east(2.92);
        assert!(log.flight_of(Piece::Black, 2.83).is_some());
        assert_eq!(log.flight_of(Piece::White, 2.92 + 0.04), None);
        // The white last seen before the disc too: it may be either.
        let later = black_then_white_running_east(2.82);
        assert!(later.flight_of(Piece::White, 2.82 + 0.04).is_some());
    }

    /// A black last seen at 2.80 s and a white at `white_seen_t`, both
    /// running at the east frame (their departures 0.04 s on), and a disc
    /// over it at 2.83 s.
    fn black_then_white_running_east(white_seen_t: f64) -> FlightLog {
        let mut log = FlightLog::default();
        log.crossed(FrameCrossing {
            seen_t: 2.8,
            ..crossing(Piece::Black, 2.83)
        });
        log.crossed(FrameCrossing {
            meets_frame_at: Point2::new(352.0, -16.0),
            seen_t: white_seen_t,
            ..crossing(Piece::White, white_seen_t + 0.04)
        });
        log.seen(2.83, &[], &[], &[sighting(434.0, -66.0, -30.0)]);
        log
    }

    #[test]
    fn a_piece_running_at_the_frame_may_fly_over_it_ahead_of_it_soon_after() {
        let approach = Approach {
            t: 2.7,
            side: Seat::East,
            at: Point2::new(330.0, -50.0),
            velocity: Vector2::new(2000.0, -100.0),
        };
        assert!(approach.could_fly_to(2.75, Point2::new(405.0, -55.0)));
        // Too far along the frame, too soon, too late, another side.
        assert!(!approach.could_fly_to(2.75, Point2::new(405.0, 120.0)));
        assert!(!approach.could_fly_to(2.7, Point2::new(405.0, -55.0)));
        assert!(!approach.could_fly_to(3.2, Point2::new(405.0, -55.0)));
        assert!(!approach.could_fly_to(2.75, Point2::new(-55.0, 405.0)));
    }

    #[test]
    fn a_disc_seen_again_and_again_in_one_place_over_the_frame_is_no_flight() {
        let mut log = FlightLog::default();
        for k in 0..4 {
            log.seen(
                2.7 + f64::from(k) / 30.0,
                &[],
                &[],
                &[sighting(412.0, -30.0, 5.0)],
            );
        }
        assert!(log.unexplained(&[]).is_empty());
    }

    #[test]
    fn a_disc_seen_no_stronger_than_the_empty_frame_reads_is_faint() {
        let faint = |strengths: &[f32]| {
            let mut log = FlightLog::default();
            for (k, &strength) in strengths.iter().enumerate() {
                let seen = FrameSighting {
                    strength,
                    ..sighting(400.0, -60.0 + 30.0 * k as f64, -1.0)
                };
                log.seen(3.1 + k as f64 / 30.0, &[], &[], &[seen]);
            }
            let flights = log.unexplained(&[]);
            assert_eq!(flights.len(), 1, "{flights:?}");
            flights[0].faint
        };
        // Clip 3473's lettering on the north frame, read once; clip 3722's
        // west frame; clip 3767's south frame, read in successive frames.
        assert!(faint(&[5.3]));
        assert!(faint(&[6.2]));
        assert!(faint(&[5.0, 5.1, 5.4, 5.3]));
        // The weakest piece seen flying read 6.8.
        assert!(!faint(&[6.8]));
        assert!(!faint(&[5.3, 6.8]));
    }

    #[test]
    fn sightings_in_successive_frames_along_the_frame_are_one_flight() {
        let mut log = FlightLog::default();
        log.seen(2.767, &[], &[], &[sighting(396.0, -60.0, 10.0)]);
        log.seen(2.8, &[], &[], &[sighting(438.0, -50.0, 12.0)]);
        let flights = log.unexplained(&[]);
        assert_eq!(flights.len(), 1, "{flights:?}");
        assert_eq!(flights[0].at, Point2::new(396.0, -60.0));
    }
}
