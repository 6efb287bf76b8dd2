//! Disc physics on the playing surface: the striker, carrommen and Queen slide
//! with constant friction, bounce off each other and off the frame, fall into
//! the pockets and now and then jump off the board on a hard cushion hit.
//!
//! The world is deterministic: the same discs, strokes and seed give the same
//! motion bit for bit. Time advances in sub-steps short enough that no disc
//! moves more than [`PhysicsConfig::max_travel_per_substep_mm`] in one, so a
//! striker at full force cannot tunnel through a carromman.

use nalgebra::{Point2, Vector2};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use thiserror::Error;

use crate::geometry::spec::{
    CARROMMAN_DIAMETER_MM, CARROMMAN_MASS_G, HALF_SURFACE_MM, STRIKER_DIAMETER_MM,
    STRIKER_MAX_MASS_G,
};
use crate::geometry::{disc_on_playing_surface, pocket_centre, pocket_containing, Piece, Pocket};
use crate::sim::scene::{PieceState, PieceTruth};

/// How far two discs set down touching may seem to overlap through rounding
/// (the break arrangement packs them exactly touching), mm.
const PLACEMENT_TOLERANCE_MM: f64 = 1e-6;

/// Standard gravity in mm/s², for the flight of a piece that jumps the frame.
const GRAVITY_MM_S2: f64 = 9_806.65;

/// Piece identities in a full set (the numbering [`PieceTruth::id`] documents).
pub const QUEEN_ID: u8 = 0;
/// The first white carromman's id; whites are 1–9.
pub const FIRST_WHITE_ID: u8 = 1;
/// The first black carromman's id; blacks are 10–18.
pub const FIRST_BLACK_ID: u8 = 10;
/// The striker's id.
pub const STRIKER_ID: u8 = 19;
/// Carrommen of each colour in a set.
pub const CARROMMEN_PER_COLOUR: u8 = 9;
/// Discs in a full set: 9 white, 9 black, the Queen and the striker.
pub const FULL_SET: usize = 20;

/// Tunable physical constants. [`PhysicsConfig::default`] is tuned so that a
/// striker at [`PhysicsConfig::max_strike_speed`] makes the ICF's "three and a
/// half runs" (ICF A.1, see the unit test).
#[derive(Debug, Clone, PartialEq)]
pub struct PhysicsConfig {
    /// Sliding friction as a constant deceleration, mm/s² (μ·g; a powdered
    /// board is about μ = 0.23).
    pub friction_deceleration: f64,
    /// Coefficient of restitution between two discs.
    pub piece_restitution: f64,
    /// Coefficient of restitution of the frame (normal component).
    pub cushion_restitution: f64,
    /// Fraction of the velocity along the frame kept through a cushion contact.
    pub cushion_tangential_keep: f64,
    /// The fastest a player can send the striker, mm/s ("maximum force").
    pub max_strike_speed: f64,
    /// Longest sub-step, s, even when everything is slow.
    pub max_substep_s: f64,
    /// Furthest any disc may travel in one sub-step, mm (prevents tunnelling).
    pub max_travel_per_substep_mm: f64,
    /// Speed below which a sliding disc stops, mm/s.
    pub rest_speed: f64,
    /// When hard cushion hits send a piece off the board.
    pub jump: JumpConfig,
}

/// How likely a piece is to jump the frame, and how it flies when it does.
#[derive(Debug, Clone, PartialEq)]
pub struct JumpConfig {
    /// Normal impact speed at the frame below which a piece never jumps, mm/s.
    pub min_impact_speed: f64,
    /// Normal impact speed at which the probability reaches `max_probability`.
    pub full_impact_speed: f64,
    /// Probability of a jump at or above `full_impact_speed`.
    pub max_probability: f64,
    /// Upward speed given to a jumping piece per unit of normal impact speed.
    pub lift_per_impact: f64,
    /// Fraction of the normal impact speed that carries the piece outwards.
    pub outward_keep: f64,
}

impl Default for PhysicsConfig {
    fn default() -> Self {
        PhysicsConfig {
            friction_deceleration: 2_300.0,
            piece_restitution: 0.9,
            cushion_restitution: 0.75,
            cushion_tangential_keep: 0.95,
            max_strike_speed: 5_000.0,
            max_substep_s: 0.002,
            max_travel_per_substep_mm: 1.0,
            rest_speed: 2.0,
            jump: JumpConfig {
                min_impact_speed: 2_000.0,
                full_impact_speed: 4_500.0,
                max_probability: 0.12,
                lift_per_impact: 0.25,
                outward_keep: 0.35,
            },
        }
    }
}

/// Why the physics refused a request.
#[derive(Debug, Error, PartialEq)]
pub enum PhysicsError {
    #[error("no disc with id {0}")]
    UnknownDisc(u8),
    #[error("disc {id} cannot be placed at ({x:.1}, {y:.1}) mm: {reason}")]
    BadPlacement {
        id: u8,
        x: f64,
        y: f64,
        reason: &'static str,
    },
    #[error("disc {id} is not on the board, so it cannot be struck")]
    NotOnBoard { id: u8 },
    #[error("strike speed {speed:.0} mm/s is not a finite speed in 0..={max:.0}")]
    BadStrike { speed: f64, max: f64 },
}

/// Something that happened during [`Table::advance`], with the simulation
/// time it happened at.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Event {
    /// Two discs touched (`a` < `b`), closing at `speed` mm/s.
    Contact { t: f64, a: u8, b: u8, speed: f64 },
    /// A disc hit the frame with normal speed `speed` mm/s.
    Cushion { t: f64, id: u8, speed: f64 },
    /// A disc's centre went over a pocket hole and it fell in.
    Pocketed { t: f64, id: u8, pocket: Pocket },
    /// A disc jumped the frame and is in the air.
    Jumped { t: f64, id: u8 },
    /// A jumping disc landed off the board.
    LandedOff { t: f64, id: u8 },
}

/// One disc: its identity, size and where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Disc {
    /// Identity (see [`PieceTruth::id`]).
    pub id: u8,
    pub kind: Piece,
    pub radius: f64,
    /// Mass in grams (only ratios matter).
    pub mass: f64,
    /// Centre in board mm.
    pub position: Point2<f64>,
    /// Velocity in mm/s.
    pub velocity: Vector2<f64>,
    /// Height above the surface, mm.
    pub z: f64,
    vz: f64,
    pub state: PieceState,
    /// Where it fell, when pocketed.
    pub pocket: Option<Pocket>,
}

impl Disc {
    /// A disc of the given kind with ICF size and mass, held off the board.
    pub fn new(id: u8, kind: Piece) -> Disc {
        let (diameter, mass) = match kind {
            Piece::Striker => (STRIKER_DIAMETER_MM, STRIKER_MAX_MASS_G),
            Piece::White | Piece::Black | Piece::Queen => {
                (CARROMMAN_DIAMETER_MM, CARROMMAN_MASS_G.nominal)
            }
        };
        Disc {
            id,
            kind,
            radius: diameter / 2.0,
            mass,
            position: Point2::origin(),
            velocity: Vector2::zeros(),
            z: 0.0,
            vz: 0.0,
            state: PieceState::InHand,
            pocket: None,
        }
    }

    /// Whether the disc lies on the surface and is still.
    pub fn is_resting_on_board(&self) -> bool {
        self.state == PieceState::OnBoard && self.velocity == Vector2::zeros()
    }

    /// The frame truth for this disc.
    pub fn truth(&self) -> PieceTruth {
        PieceTruth {
            id: self.id,
            kind: self.kind,
            x: self.position.x,
            y: self.position.y,
            vx: self.velocity.x,
            vy: self.velocity.y,
            z: self.z,
            state: self.state,
            pocket: self.pocket,
        }
    }
}

/// The discs on the playing surface and everything that moves them.
#[derive(Debug, Clone)]
pub struct Table {
    config: PhysicsConfig,
    discs: Vec<Disc>,
    rng: Pcg64Mcg,
    time: f64,
}

impl Table {
    /// A table with a full set (ids as [`PieceTruth::id`] documents), every
    /// disc in hand, at time 0. `seed` drives the chance of jumps.
    pub fn with_full_set(config: PhysicsConfig, seed: u64) -> Table {
        let mut discs = Vec::with_capacity(FULL_SET);
        discs.push(Disc::new(QUEEN_ID, Piece::Queen));
        for i in 0..CARROMMEN_PER_COLOUR {
            discs.push(Disc::new(FIRST_WHITE_ID + i, Piece::White));
        }
        for i in 0..CARROMMEN_PER_COLOUR {
            discs.push(Disc::new(FIRST_BLACK_ID + i, Piece::Black));
        }
        discs.push(Disc::new(STRIKER_ID, Piece::Striker));
        Table {
            config,
            discs,
            rng: Pcg64Mcg::seed_from_u64(seed),
            time: 0.0,
        }
    }

    /// The physical constants in use.
    pub fn config(&self) -> &PhysicsConfig {
        &self.config
    }

    /// Simulation time, s.
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Every disc, in id order.
    pub fn discs(&self) -> &[Disc] {
        &self.discs
    }

    /// One disc by id.
    pub fn disc(&self, id: u8) -> Result<&Disc, PhysicsError> {
        self.discs
            .iter()
            .find(|d| d.id == id)
            .ok_or(PhysicsError::UnknownDisc(id))
    }

    fn disc_mut(&mut self, id: u8) -> Result<&mut Disc, PhysicsError> {
        self.discs
            .iter_mut()
            .find(|d| d.id == id)
            .ok_or(PhysicsError::UnknownDisc(id))
    }

    /// The frame truth of every disc, in id order.
    pub fn truth(&self) -> Vec<PieceTruth> {
        self.discs.iter().map(Disc::truth).collect()
    }

    /// Whether a disc of `radius` centred at `centre` would lie wholly on the
    /// surface, off the pocket holes, and clear of every other disc on the
    /// board (ignoring `ignore`).
    pub fn is_free(&self, centre: &Point2<f64>, radius: f64, ignore: Option<u8>) -> bool {
        let clear = self
            .discs
            .iter()
            .filter(|d| d.state == PieceState::OnBoard && Some(d.id) != ignore)
            .all(|d| (d.position - centre).norm() >= d.radius + radius - PLACEMENT_TOLERANCE_MM);
        disc_on_playing_surface(*centre, radius) && clear
    }

    /// Puts a disc down at rest on the surface. Fails where it would overlap
    /// another disc, a pocket hole or the frame.
    pub fn place(&mut self, id: u8, centre: Point2<f64>) -> Result<(), PhysicsError> {
        let radius = self.disc(id)?.radius;
        if !self.is_free(&centre, radius, Some(id)) {
            return Err(PhysicsError::BadPlacement {
                id,
                x: centre.x,
                y: centre.y,
                reason: "it would overlap a disc, a pocket or the frame",
            });
        }
        let disc = self.disc_mut(id)?;
        disc.position = centre;
        disc.velocity = Vector2::zeros();
        disc.z = 0.0;
        disc.vz = 0.0;
        disc.state = PieceState::OnBoard;
        disc.pocket = None;
        Ok(())
    }

    /// Takes a disc into a hand (off the surface) at `centre`, `z` mm up.
    /// Used for the striker between strokes and pieces being put back.
    pub fn hold(&mut self, id: u8, centre: Point2<f64>, z: f64) -> Result<(), PhysicsError> {
        let disc = self.disc_mut(id)?;
        disc.position = centre;
        disc.velocity = Vector2::zeros();
        disc.z = z;
        disc.vz = 0.0;
        disc.state = PieceState::InHand;
        disc.pocket = None;
        Ok(())
    }

    /// The nearest free spot to `target` for a disc of `radius` within
    /// `max_offset` mm of it, searching outwards on rings (deterministic).
    pub fn free_spot_near(
        &self,
        target: Point2<f64>,
        radius: f64,
        max_offset: f64,
    ) -> Option<Point2<f64>> {
        const RING_STEP_MM: f64 = 2.0;
        if self.is_free(&target, radius, None) {
            return Some(target);
        }
        let rings = (max_offset / RING_STEP_MM).floor() as u32;
        (1..=rings).find_map(|ring| {
            let r = f64::from(ring) * RING_STEP_MM;
            // Enough angles that neighbouring candidates are ~RING_STEP apart.
            let count = ((std::f64::consts::TAU * r / RING_STEP_MM).ceil() as u32).max(6);
            (0..count).find_map(|k| {
                let angle = std::f64::consts::TAU * f64::from(k) / f64::from(count);
                let candidate = target + Vector2::new(angle.cos(), angle.sin()) * r;
                self.is_free(&candidate, radius, None).then_some(candidate)
            })
        })
    }

    /// Sends a disc lying on the board off with `velocity` (mm/s).
    pub fn strike(&mut self, id: u8, velocity: Vector2<f64>) -> Result<(), PhysicsError> {
        let max = self.config.max_strike_speed;
        let speed = velocity.norm();
        if !speed.is_finite() || speed > max * (1.0 + 1e-9) {
            return Err(PhysicsError::BadStrike { speed, max });
        }
        let disc = self.disc_mut(id)?;
        if disc.state != PieceState::OnBoard {
            return Err(PhysicsError::NotOnBoard { id });
        }
        disc.velocity = velocity;
        Ok(())
    }

    /// Whether nothing moves: every disc on the board is still and none is in
    /// the air.
    pub fn is_at_rest(&self) -> bool {
        self.discs.iter().all(|d| match d.state {
            PieceState::OnBoard => d.velocity == Vector2::zeros(),
            PieceState::Airborne => false,
            PieceState::InHand | PieceState::Pocketed | PieceState::OffBoard => true,
        })
    }

    /// Advances the world by `dt` seconds, returning what happened in order.
    pub fn advance(&mut self, dt: f64) -> Vec<Event> {
        let mut events = Vec::new();
        let end = self.time + dt.max(0.0);
        while self.time < end {
            if self.is_at_rest() {
                self.time = end;
                break;
            }
            let fastest = self
                .discs
                .iter()
                .filter(|d| matches!(d.state, PieceState::OnBoard | PieceState::Airborne))
                .map(|d| d.velocity.norm())
                .fold(0.0, f64::max);
            let mut h = self.config.max_substep_s;
            if fastest > 0.0 {
                h = h.min(self.config.max_travel_per_substep_mm / fastest);
            }
            h = h.min(end - self.time);
            self.substep(h, &mut events);
        }
        events
    }

    fn substep(&mut self, h: f64, events: &mut Vec<Event>) {
        self.time += h;
        let t = self.time;
        let decel = self.config.friction_deceleration;
        let rest = self.config.rest_speed;
        for disc in &mut self.discs {
            match disc.state {
                PieceState::OnBoard => {
                    let speed = disc.velocity.norm();
                    if speed == 0.0 {
                        continue;
                    }
                    disc.position += disc.velocity * h;
                    let slowed = speed - decel * h;
                    disc.velocity = if slowed <= rest {
                        Vector2::zeros()
                    } else {
                        disc.velocity * (slowed / speed)
                    };
                }
                PieceState::Airborne => {
                    disc.position += disc.velocity * h;
                    disc.z += disc.vz * h;
                    disc.vz -= GRAVITY_MM_S2 * h;
                    if disc.z <= 0.0 {
                        disc.z = 0.0;
                        disc.vz = 0.0;
                        disc.velocity = Vector2::zeros();
                        disc.state = PieceState::OffBoard;
                        events.push(Event::LandedOff { t, id: disc.id });
                    }
                }
                PieceState::InHand | PieceState::Pocketed | PieceState::OffBoard => {}
            }
        }
        self.resolve_contacts(t, events);
        self.resolve_cushions(t, events);
        self.capture_in_pockets(t, events);
    }

    /// Disc–disc contacts: an impulse along the line of centres for each
    /// approaching pair, then the overlap split by inverse mass. A few passes
    /// let an impulse run through a touching cluster (the break).
    fn resolve_contacts(&mut self, t: f64, events: &mut Vec<Event>) {
        const PASSES: usize = 4;
        let e = self.config.piece_restitution;
        for _ in 0..PASSES {
            let mut any = false;
            for i in 0..self.discs.len() {
                for j in (i + 1)..self.discs.len() {
                    let (left, right) = self.discs.split_at_mut(j);
                    let (a, b) = (&mut left[i], &mut right[0]);
                    if a.state != PieceState::OnBoard || b.state != PieceState::OnBoard {
                        continue;
                    }
                    let offset = b.position - a.position;
                    let reach = a.radius + b.radius;
                    let distance_sq = offset.norm_squared();
                    if distance_sq >= reach * reach {
                        continue;
                    }
                    let distance = distance_sq.sqrt();
                    // Coincident centres cannot happen from motion; pick an axis.
                    let normal = if distance > 1e-9 {
                        offset / distance
                    } else {
                        Vector2::x()
                    };
                    let (inv_a, inv_b) = (1.0 / a.mass, 1.0 / b.mass);
                    let closing = (a.velocity - b.velocity).dot(&normal);
                    if closing > 0.0 {
                        let impulse = (1.0 + e) * closing / (inv_a + inv_b);
                        a.velocity -= normal * (impulse * inv_a);
                        b.velocity += normal * (impulse * inv_b);
                        any = true;
                        events.push(Event::Contact {
                            t,
                            a: a.id,
                            b: b.id,
                            speed: closing,
                        });
                    }
                    let overlap = reach - distance;
                    let share_a = inv_a / (inv_a + inv_b);
                    a.position -= normal * (overlap * share_a);
                    b.position += normal * (overlap * (1.0 - share_a));
                }
            }
            if !any {
                break;
            }
        }
    }

    /// Frame contacts: reflect the normal velocity with restitution, or, on a
    /// hard hit and by chance, launch the disc over the frame.
    fn resolve_cushions(&mut self, t: f64, events: &mut Vec<Event>) {
        let half = HALF_SURFACE_MM;
        let config = self.config.clone();
        for disc in &mut self.discs {
            if disc.state != PieceState::OnBoard {
                continue;
            }
            for axis in 0..2 {
                let limit = half - disc.radius;
                let coordinate = disc.position[axis];
                if coordinate.abs() <= limit {
                    continue;
                }
                let side = coordinate.signum();
                let impact = disc.velocity[axis] * side;
                disc.position[axis] = side * limit;
                if impact <= 0.0 {
                    continue;
                }
                events.push(Event::Cushion {
                    t,
                    id: disc.id,
                    speed: impact,
                });
                let jump = &config.jump;
                let ramp = ((impact - jump.min_impact_speed)
                    / (jump.full_impact_speed - jump.min_impact_speed))
                    .clamp(0.0, 1.0);
                let probability = ramp * jump.max_probability;
                if probability > 0.0 && self.rng.random_bool(probability) {
                    disc.velocity[axis] = side * impact * jump.outward_keep;
                    disc.vz = impact * jump.lift_per_impact;
                    disc.z = f64::EPSILON;
                    disc.state = PieceState::Airborne;
                    events.push(Event::Jumped { t, id: disc.id });
                    break;
                }
                disc.velocity[axis] = -side * impact * config.cushion_restitution;
                let other = 1 - axis;
                disc.velocity[other] *= config.cushion_tangential_keep;
            }
        }
    }

    fn capture_in_pockets(&mut self, t: f64, events: &mut Vec<Event>) {
        for disc in &mut self.discs {
            if disc.state != PieceState::OnBoard {
                continue;
            }
            if let Some(pocket) = pocket_containing(disc.position) {
                disc.state = PieceState::Pocketed;
                disc.pocket = Some(pocket);
                disc.position = pocket_centre(pocket);
                disc.velocity = Vector2::zeros();
                events.push(Event::Pocketed {
                    t,
                    id: disc.id,
                    pocket,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::spec::BASE_CIRCLE_CENTRE_DEPTH_MM;
    use crate::geometry::{break_arrangement, Seat};

    fn quiet_config() -> PhysicsConfig {
        PhysicsConfig {
            jump: JumpConfig {
                max_probability: 0.0,
                ..PhysicsConfig::default().jump
            },
            ..PhysicsConfig::default()
        }
    }

    /// The ICF break arrangement for a south breaker.
    fn place_break_arrangement(table: &mut Table) {
        let mut white = FIRST_WHITE_ID;
        let mut black = FIRST_BLACK_ID;
        for placed in break_arrangement(Seat::South) {
            let id = match placed.piece {
                Piece::White => {
                    white += 1;
                    white - 1
                }
                Piece::Black => {
                    black += 1;
                    black - 1
                }
                Piece::Queen | Piece::Striker => QUEEN_ID,
            };
            table.place(id, placed.centre).unwrap();
        }
        assert_eq!(white, FIRST_BLACK_ID);
        assert_eq!(black, STRIKER_ID);
    }

    fn run_to_rest(table: &mut Table) -> Vec<Event> {
        let mut events = Vec::new();
        for _ in 0..20_000 {
            if table.is_at_rest() {
                return events;
            }
            events.extend(table.advance(0.001));
        }
        panic!("the table never came to rest");
    }

    #[test]
    fn striker_at_maximum_force_makes_three_and_a_half_runs() {
        // ICF A.1: "at least three and a half runs of a normally smooth striker
        // of 15 gms weight, when struck with the maximum force, from one of the
        // base lines, to the opposite frame". A run is the distance its centre
        // travels from the base line to touching the opposite frame.
        let mut table = Table::with_full_set(quiet_config(), 1);
        let half = HALF_SURFACE_MM;
        let start = Point2::new(0.0, -BASE_CIRCLE_CENTRE_DEPTH_MM);
        table.place(STRIKER_ID, start).unwrap();
        let striker_radius = table.disc(STRIKER_ID).unwrap().radius;
        let run = (half - striker_radius) - start.y;
        let max = table.config().max_strike_speed;
        table.strike(STRIKER_ID, Vector2::new(0.0, max)).unwrap();
        let mut travelled = 0.0;
        let mut last = start;
        while !table.is_at_rest() {
            table.advance(0.0005);
            let now = table.disc(STRIKER_ID).unwrap().position;
            travelled += (now - last).norm();
            last = now;
        }
        let runs = travelled / run;
        assert!(runs >= 3.5, "only {runs:.2} runs");
        assert!(
            runs <= 4.5,
            "{runs:.2} runs: the board is unrealistically fast"
        );
    }

    #[test]
    fn head_on_collision_conserves_momentum_and_loses_energy_by_restitution() {
        let config = PhysicsConfig {
            friction_deceleration: 0.0,
            ..quiet_config()
        };
        let e = config.piece_restitution;
        let mut table = Table::with_full_set(config, 2);
        table.place(STRIKER_ID, Point2::new(-100.0, 0.0)).unwrap();
        table.place(FIRST_WHITE_ID, Point2::new(0.0, 0.0)).unwrap();
        table
            .strike(STRIKER_ID, Vector2::new(3_000.0, 0.0))
            .unwrap();
        let striker = table.disc(STRIKER_ID).unwrap().clone();
        let white = table.disc(FIRST_WHITE_ID).unwrap().clone();
        let before = striker.velocity * striker.mass + white.velocity * white.mass;
        let events = table.advance(0.05);
        assert!(events.iter().any(|e| matches!(
            e,
            Event::Contact {
                a: FIRST_WHITE_ID,
                b: STRIKER_ID,
                ..
            }
        )));
        let striker_after = table.disc(STRIKER_ID).unwrap().velocity;
        let white_after = table.disc(FIRST_WHITE_ID).unwrap().velocity;
        let after = striker_after * striker.mass + white_after * white.mass;
        assert!((after - before).norm() < 1e-6 * before.norm());
        let separating = (white_after - striker_after).x;
        assert!((separating - e * 3_000.0).abs() < 1e-6, "{separating}");
        assert!(striker_after.x > 0.0, "the heavier striker follows through");
    }

    #[test]
    fn a_disc_aimed_at_a_pocket_falls_into_it() {
        for pocket in Pocket::ALL {
            let mut table = Table::with_full_set(quiet_config(), 3);
            let (sx, sy) = pocket.corner_signs();
            let start = Point2::new(sx * 150.0, sy * 100.0);
            table.place(FIRST_BLACK_ID, start).unwrap();
            let aim = (pocket_centre(pocket) - start).normalize();
            table.strike(FIRST_BLACK_ID, aim * 1_500.0).unwrap();
            let events = run_to_rest(&mut table);
            let disc = table.disc(FIRST_BLACK_ID).unwrap();
            assert_eq!(disc.state, PieceState::Pocketed);
            assert_eq!(disc.pocket, Some(pocket));
            assert!(events.iter().any(|e| matches!(e,
                Event::Pocketed { id: FIRST_BLACK_ID, pocket: p, .. } if *p == pocket)));
        }
    }

    #[test]
    fn a_slow_disc_stops_short_of_the_pocket() {
        let mut table = Table::with_full_set(quiet_config(), 4);
        let start = Point2::new(0.0, 0.0);
        table.place(FIRST_WHITE_ID, start).unwrap();
        let aim = (pocket_centre(Pocket::Sw) - start).normalize();
        table.strike(FIRST_WHITE_ID, aim * 300.0).unwrap();
        run_to_rest(&mut table);
        let disc = table.disc(FIRST_WHITE_ID).unwrap();
        assert_eq!(disc.state, PieceState::OnBoard);
        // v²/2a: 300² / 4600 ≈ 19.6 mm.
        assert!((disc.position - start).norm() < 25.0);
    }

    fn break_shot(seed: u64) -> (Table, Vec<Event>) {
        let mut table = Table::with_full_set(PhysicsConfig::default(), seed);
        place_break_arrangement(&mut table);
        let start = Point2::new(12.0, -BASE_CIRCLE_CENTRE_DEPTH_MM);
        table.place(STRIKER_ID, start).unwrap();
        let speed = table.config().max_strike_speed;
        let aim = (Point2::origin() - start).normalize();
        table.strike(STRIKER_ID, aim * speed).unwrap();
        let events = run_to_rest(&mut table);
        (table, events)
    }

    #[test]
    fn no_discs_overlap_after_a_break() {
        for seed in 0..3 {
            let (table, events) = break_shot(seed);
            assert!(events.len() > 10, "a break moves many pieces");
            let on_board: Vec<&Disc> = table
                .discs()
                .iter()
                .filter(|d| d.state == PieceState::OnBoard)
                .collect();
            let half = HALF_SURFACE_MM;
            for (i, a) in on_board.iter().enumerate() {
                assert!(a.position.x.abs() + a.radius <= half + 1e-9);
                assert!(a.position.y.abs() + a.radius <= half + 1e-9);
                for b in &on_board[i + 1..] {
                    let gap = (a.position - b.position).norm() - a.radius - b.radius;
                    assert!(gap > -0.05, "discs {} and {} overlap by {gap}", a.id, b.id);
                }
            }
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_motion() {
        let (first, first_events) = break_shot(7);
        let (second, second_events) = break_shot(7);
        assert_eq!(first.truth(), second.truth());
        assert_eq!(first_events, second_events);
        assert!(first.time() > 0.5);
    }

    #[test]
    fn a_six_metre_per_second_striker_does_not_tunnel() {
        let config = PhysicsConfig {
            max_strike_speed: 6_000.0,
            ..quiet_config()
        };
        let mut table = Table::with_full_set(config, 5);
        table.place(STRIKER_ID, Point2::new(0.0, -250.0)).unwrap();
        // Offset so only a glancing slice of the carromman lies in the path.
        table.place(QUEEN_ID, Point2::new(34.0, 0.0)).unwrap();
        table
            .strike(STRIKER_ID, Vector2::new(0.0, 6_000.0))
            .unwrap();
        let events = table.advance(0.1);
        assert!(events.iter().any(|e| matches!(
            e,
            Event::Contact {
                a: QUEEN_ID,
                b: STRIKER_ID,
                ..
            }
        )));
        assert!(table.disc(QUEEN_ID).unwrap().velocity.norm() > 0.0);
    }

    #[test]
    fn a_hard_cushion_hit_can_send_a_piece_off_the_board() {
        let config = PhysicsConfig {
            jump: JumpConfig {
                max_probability: 1.0,
                ..PhysicsConfig::default().jump
            },
            ..PhysicsConfig::default()
        };
        let mut table = Table::with_full_set(config, 6);
        table
            .place(FIRST_WHITE_ID, Point2::new(0.0, 200.0))
            .unwrap();
        table
            .strike(FIRST_WHITE_ID, Vector2::new(0.0, 5_000.0))
            .unwrap();
        let mut saw_airborne_above_surface = false;
        let mut events = Vec::new();
        while !table.is_at_rest() {
            events.extend(table.advance(1.0 / 30.0));
            let disc = table.disc(FIRST_WHITE_ID).unwrap();
            if disc.state == PieceState::Airborne && disc.z > 1.0 {
                saw_airborne_above_surface = true;
            }
        }
        assert!(saw_airborne_above_surface);
        assert!(events.iter().any(|e| matches!(e, Event::Jumped { .. })));
        let disc = table.disc(FIRST_WHITE_ID).unwrap();
        assert_eq!(disc.state, PieceState::OffBoard);
        assert!(disc.position.y > HALF_SURFACE_MM);
    }

    #[test]
    fn a_gentle_cushion_hit_never_jumps() {
        let config = PhysicsConfig {
            jump: JumpConfig {
                max_probability: 1.0,
                ..PhysicsConfig::default().jump
            },
            ..PhysicsConfig::default()
        };
        let mut table = Table::with_full_set(config, 6);
        table
            .place(FIRST_WHITE_ID, Point2::new(0.0, 200.0))
            .unwrap();
        table
            .strike(FIRST_WHITE_ID, Vector2::new(0.0, 1_000.0))
            .unwrap();
        let events = run_to_rest(&mut table);
        assert!(events.iter().any(|e| matches!(e, Event::Cushion { .. })));
        assert_eq!(
            table.disc(FIRST_WHITE_ID).unwrap().state,
            PieceState::OnBoard
        );
    }

    #[test]
    fn placing_refuses_overlaps_and_strikes_refuse_impossible_speeds() {
        let mut table = Table::with_full_set(quiet_config(), 8);
        table.place(QUEEN_ID, Point2::origin()).unwrap();
        assert!(matches!(
            table.place(FIRST_WHITE_ID, Point2::new(10.0, 0.0)),
            Err(PhysicsError::BadPlacement { .. })
        ));
        assert!(table
            .place(FIRST_WHITE_ID, pocket_centre(Pocket::Ne))
            .is_err());
        assert!(matches!(table.disc(99), Err(PhysicsError::UnknownDisc(99))));
        assert!(table.strike(QUEEN_ID, Vector2::new(f64::NAN, 0.0)).is_err());
        assert!(table.strike(QUEEN_ID, Vector2::new(1e6, 0.0)).is_err());
        assert!(matches!(
            table.strike(FIRST_WHITE_ID, Vector2::new(10.0, 0.0)),
            Err(PhysicsError::NotOnBoard { .. })
        ));
        let spot = table
            .free_spot_near(Point2::origin(), CARROMMAN_DIAMETER_MM / 2.0, 60.0)
            .unwrap();
        assert!(table.is_free(&spot, CARROMMAN_DIAMETER_MM / 2.0, None));
        assert!((spot - Point2::origin()).norm() >= CARROMMAN_DIAMETER_MM - 1e-9);
    }
}
