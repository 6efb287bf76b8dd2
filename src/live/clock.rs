//! When a camera's or stream's frames were taken, as far as the reader can
//! tell. The tracker's rules run on these times (a hand within a second of a
//! strike, a striker's speed), so they must not bend when the reading falls
//! behind: frames that waited in a socket or driver buffer and are read in a
//! burst were still taken one frame period apart. (The reading runs on its
//! own thread, see [`super::source`], so a busy tracker does not delay it.)
//!
//! Within one connected run of a source:
//!
//! - Where the source stamps its frames (`CAP_PROP_POS_MSEC`: the kernel's
//!   capture time for a V4L2 camera, the presentation time for RTSP), the
//!   stamps are used. They show a frame the camera dropped as a longer
//!   interval, and they do not care how late the reader is. Stamps that are
//!   missing (an HTTP MJPEG stream gives none), do not increase, or run ahead
//!   of the arrivals are given up on for the rest of the run.
//! - Otherwise a frame's time is the earliest that any frame of the last
//!   [`ENVELOPE_WINDOW_S`] seconds vouches for, counting on from its arrival
//!   at the stream's frame period: `t_k = min_j (arrival_j + (k − j)·period)`
//!   (kept as a running schedule, so a new period estimate bends no time
//!   already given).
//!   A frame read late (the reader was busy) is timed by a frame that arrived
//!   on time; frames read in a burst get one period each. The period is
//!   measured from the arrivals (the declared rate is only the first guess:
//!   FFmpeg declares 25 fps for any MJPEG stream), from the least delayed
//!   frame of each half second over the last [`RATE_SPAN_S`] seconds (along
//!   their lower convex hull, so a drop or a late spell does not bend it).
//!
//! Frames a camera dropped without stamps (too slow a reader on a network
//! camera) make the later frames arrive late for good: their times stay
//! behind the wall clock until the frames from before the drop leave the
//! window, then catch up in one step. Across a reconnection the first frame
//! of the new run is timed by its arrival, so the gap is the wall-clock gap.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

/// Frames this far back vouch for the time of the current one, seconds:
/// longer than the reading is expected to fall behind for; also how long the
/// frames after an unstamped drop stay behind the wall clock.
pub const ENVELOPE_WINDOW_S: f64 = 4.0;
/// The frame rate is measured over this much of the latest arrivals, seconds.
pub const RATE_SPAN_S: f64 = 10.0;
/// Arrivals are grouped into spells this long; the least delayed frame of
/// each is one point of the arrival schedule.
const RATE_BUCKET_S: f64 = 0.5;
/// Frame rates outside this range are not believed (declared or measured).
const PLAUSIBLE_FPS: std::ops::RangeInclusive<f64> = 1.0..=240.0;
/// Frame rate assumed where a source declares none.
pub const FALLBACK_FPS: f64 = 30.0;
/// A source stamp may run ahead of the arrivals by this much (the run's
/// first frame, which anchors the stamps, may itself have come late).
const STAMP_AHEAD_SLACK_S: f64 = 1.0;
/// The smallest step between two frames' times, in frame periods: times
/// never go backwards, also where the timing turns from stamps to arrivals.
const MIN_STEP_PERIODS: f64 = 0.25;

/// How the current run's frames are being timed.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Timing {
    /// By the source's own stamps.
    SourceStamps,
    /// By the arrival schedule at the measured (or declared) frame rate.
    Arrivals,
}

/// How one connected run was timed, for the event log.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ClockSummary {
    /// How the run's last frames were timed.
    pub timing: Timing,
    /// Frames in the run.
    pub frames: u64,
    /// The frame rate in use at the end (measured, else declared).
    pub fps: f64,
    /// The most any frame arrived after the time it was given, seconds:
    /// how far the reading fell behind (plus any delivery delay).
    pub max_behind_s: f64,
    /// The most any frame waited, from its time until the tracker took it,
    /// seconds (filled in by the reader: the clock cannot know).
    #[serde(default)]
    pub max_waiting_s: f64,
}

#[derive(Debug, Clone, Copy)]
struct Arrival {
    index: u64,
    at: f64,
}

/// The state of the source's stamps in this run.
#[derive(Debug, Clone, Copy)]
enum Stamps {
    /// No frame yet.
    Unknown,
    /// Stamps are believed: `first_ms` was stamped on a frame timed `first_t`.
    Trusted {
        first_ms: f64,
        first_t: f64,
        last_ms: f64,
    },
    /// Stamps are missing or wrong for this run.
    Refused,
}

/// Times the frames of one connected run of a camera or stream.
#[derive(Debug, Clone)]
pub struct StreamClock {
    period: f64,
    stamps: Stamps,
    /// Where the schedule puts the latest frame: the run's first arrival
    /// plus one period per frame (the period in use at each frame).
    scheduled: Option<f64>,
    /// How late each frame of the last [`ENVELOPE_WINDOW_S`] seconds
    /// arrived against the schedule: `(arrival, arrival − scheduled)`.
    recent: VecDeque<(f64, f64)>,
    /// The least delayed frame of each finished half second, for the rate.
    schedule: VecDeque<Arrival>,
    /// The half second being collected: when it began, its best frame.
    bucket: Option<(f64, Arrival)>,
    next_index: u64,
    last_t: Option<f64>,
    max_behind: f64,
}

impl StreamClock {
    /// A clock for a run whose source declares `declared_fps` (0 or NaN
    /// where it says nothing).
    pub fn new(declared_fps: f64) -> StreamClock {
        let fps = if PLAUSIBLE_FPS.contains(&declared_fps) {
            declared_fps
        } else {
            FALLBACK_FPS
        };
        StreamClock {
            period: 1.0 / fps,
            stamps: Stamps::Unknown,
            scheduled: None,
            recent: VecDeque::new(),
            schedule: VecDeque::new(),
            bucket: None,
            next_index: 0,
            last_t: None,
            max_behind: 0.0,
        }
    }

    /// The frame period in use, seconds.
    pub fn period(&self) -> f64 {
        self.period
    }

    /// How frames are being timed now.
    pub fn timing(&self) -> Timing {
        match self.stamps {
            Stamps::Trusted { .. } => Timing::SourceStamps,
            Stamps::Unknown | Stamps::Refused => Timing::Arrivals,
        }
    }

    /// The time of the next frame of the run, which arrived at `arrival`
    /// (session seconds) and was stamped `stamp_ms` by the source
    /// (`CAP_PROP_POS_MSEC`, whatever it holds).
    pub fn time(&mut self, arrival: f64, stamp_ms: f64) -> f64 {
        let index = self.next_index;
        self.next_index += 1;
        self.learn_rate(Arrival { index, at: arrival });
        let scheduled = self.scheduled.map_or(arrival, |s| s + self.period);
        self.scheduled = Some(scheduled);
        self.recent.push_back((arrival, arrival - scheduled));
        while self
            .recent
            .front()
            .is_some_and(|(at, _)| arrival - at > ENVELOPE_WINDOW_S)
        {
            self.recent.pop_front();
        }
        // The least late frame of the window vouches for the schedule (the
        // current frame is in the window: a frame is never timed after it
        // arrived). A period changed by a new estimate applies from here on.
        let lateness = self
            .recent
            .iter()
            .map(|(_, late)| *late)
            .fold(f64::INFINITY, f64::min);
        let by_schedule = scheduled + lateness;
        let t = self.stamped(arrival, stamp_ms).unwrap_or(by_schedule);
        let t = match self.last_t {
            Some(last) => t.max(last + MIN_STEP_PERIODS * self.period),
            None => t,
        };
        self.last_t = Some(t);
        self.max_behind = self.max_behind.max(arrival - t);
        t
    }

    /// How the run has been timed so far.
    pub fn summary(&self) -> ClockSummary {
        ClockSummary {
            timing: self.timing(),
            frames: self.next_index,
            fps: 1.0 / self.period,
            max_behind_s: self.max_behind,
            max_waiting_s: 0.0,
        }
    }

    /// The frame's time by the source's stamp, while the stamps hold up.
    fn stamped(&mut self, arrival: f64, stamp_ms: f64) -> Option<f64> {
        // Sane stamps are non-negative milliseconds (a V4L2 stamp counts
        // from boot); FFmpeg reports a missing one as about -3.7e20.
        let sane = stamp_ms.is_finite() && (0.0..1e13).contains(&stamp_ms);
        match self.stamps {
            Stamps::Refused => None,
            Stamps::Unknown if !sane => {
                self.stamps = Stamps::Refused;
                None
            }
            Stamps::Unknown => {
                // The first frame is timed by its arrival; stamps count from it.
                self.stamps = Stamps::Trusted {
                    first_ms: stamp_ms,
                    first_t: arrival,
                    last_ms: stamp_ms,
                };
                Some(arrival)
            }
            Stamps::Trusted {
                first_ms,
                first_t,
                last_ms,
            } => {
                let t = first_t + (stamp_ms - first_ms) / 1000.0;
                if sane && stamp_ms > last_ms && t <= arrival + STAMP_AHEAD_SLACK_S {
                    self.stamps = Stamps::Trusted {
                        first_ms,
                        first_t,
                        last_ms: stamp_ms,
                    };
                    Some(t)
                } else {
                    self.stamps = Stamps::Refused;
                    None
                }
            }
        }
    }

    /// Keeps the least delayed frame of each half second of the last
    /// [`RATE_SPAN_S`] seconds and measures the frame period from them.
    fn learn_rate(&mut self, frame: Arrival) {
        // How late a frame is against the schedule at the current period.
        let delay = |a: &Arrival| a.at - a.index as f64 * self.period;
        match self.bucket {
            None => self.bucket = Some((frame.at, frame)),
            Some((began, best)) if frame.at - began < RATE_BUCKET_S => {
                if delay(&frame) < delay(&best) {
                    self.bucket = Some((began, frame));
                }
            }
            Some((_, best)) => {
                self.schedule.push_back(best);
                self.bucket = Some((frame.at, frame));
                while self
                    .schedule
                    .front()
                    .is_some_and(|old| best.at - old.at > RATE_SPAN_S)
                {
                    self.schedule.pop_front();
                }
                if let Some(period) = hull_period(&self.schedule) {
                    self.period = period;
                }
            }
        }
    }
}

/// The frame period along the lower convex hull of the arrival schedule
/// (frame number against arrival): every frame arrived on or after the
/// line of its camera's schedule, so the hull follows the frames that came
/// soonest. Its longest edge is taken: a spell of late frames lies above the
/// hull, and a drop (later frames late by the dropped frames) only splits
/// the hull in two.
fn hull_period(schedule: &VecDeque<Arrival>) -> Option<f64> {
    let point = |a: &Arrival| (a.index as f64, a.at);
    let cross = |o: (f64, f64), a: (f64, f64), b: (f64, f64)| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    let mut hull: Vec<(f64, f64)> = Vec::new();
    for p in schedule.iter().map(point) {
        while hull.len() >= 2 && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0 {
            hull.pop();
        }
        hull.push(p);
    }
    hull.windows(2)
        .filter(|edge| edge[1].0 > edge[0].0)
        .max_by(|a, b| (a[1].0 - a[0].0).total_cmp(&(b[1].0 - b[0].0)))
        .map(|edge| (edge[1].1 - edge[0].1) / (edge[1].0 - edge[0].0))
        .filter(|period| *period > 0.0 && PLAUSIBLE_FPS.contains(&(1.0 / period)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No stamps, as from an HTTP MJPEG stream.
    const NO_STAMP: f64 = -3.689_348_814_741_91e20;

    fn intervals(times: &[f64]) -> Vec<f64> {
        times.windows(2).map(|w| w[1] - w[0]).collect()
    }

    #[test]
    fn frames_read_late_and_in_a_burst_keep_their_frame_period() {
        let period = 1.0 / 30.0;
        let mut clock = StreamClock::new(30.0);
        let mut times = Vec::new();
        for k in 0..300u64 {
            let due = 10.0 + k as f64 * period;
            // The reader is busy from frame 100 for 0.4 s, then reads the
            // twelve frames that waited in a burst and is on time again.
            let arrival = match k {
                100..=111 => 10.0 + 112.0 * period + (k - 100) as f64 * 0.0001,
                _ => due + 0.002,
            };
            times.push(clock.time(arrival, NO_STAMP));
        }
        for (k, step) in intervals(&times).iter().enumerate() {
            assert!(
                (step - period).abs() < 1e-6,
                "frame {k}→{}: {step:.4} s between frames",
                k + 1
            );
        }
        let summary = clock.summary();
        assert_eq!(summary.timing, Timing::Arrivals);
        assert_eq!(summary.frames, 300);
        // Frame 100 waited longest: from its time to the burst.
        assert!(
            (summary.max_behind_s - 12.0 * period).abs() < 0.003,
            "{summary:?}"
        );
    }

    #[test]
    fn a_wrongly_declared_rate_is_replaced_by_the_measured_one() {
        // FFmpeg says 25 fps for an MJPEG stream served at 30.
        let mut clock = StreamClock::new(25.0);
        let mut times = Vec::new();
        for k in 0..150u64 {
            let jitter = if k % 7 == 0 { 0.004 } else { 0.0 };
            times.push(clock.time(k as f64 / 30.0 + jitter, NO_STAMP));
        }
        assert!(
            (clock.period() * 30.0 - 1.0).abs() < 0.01,
            "period {:.5} s",
            clock.period()
        );
        let late = &times[60..];
        let rate = (late.len() - 1) as f64 / (late[late.len() - 1] - late[0]);
        assert!((rate - 30.0).abs() < 0.3, "{rate:.2} frames per second");
    }

    #[test]
    fn frames_dropped_without_stamps_catch_up_with_the_wall_clock() {
        let period = 1.0 / 30.0;
        let mut clock = StreamClock::new(30.0);
        let mut last = (0.0, 0.0);
        for k in 0..400u64 {
            // The camera skipped 15 frames after frame 100.
            let arrival = if k <= 100 { k } else { k + 15 } as f64 * period;
            last = (arrival, clock.time(arrival, NO_STAMP));
        }
        let (arrival, t) = last;
        assert!(
            (arrival - t).abs() < 0.01,
            "time {t:.3} at arrival {arrival:.3}"
        );
        assert!(
            (clock.period() / period - 1.0).abs() < 0.01,
            "period {:.5} s",
            clock.period()
        );
    }

    #[test]
    fn a_slow_start_does_not_bend_the_measured_rate() {
        // Declared 25 fps, served at 30; the reader gets the first ten
        // frames in a burst 0.4 s late, then keeps up.
        let mut clock = StreamClock::new(25.0);
        let mut times = Vec::new();
        for k in 0..150u64 {
            let due = k as f64 / 30.0;
            let arrival = if k < 10 {
                0.4 + k as f64 * 0.001
            } else {
                due + 0.002
            };
            times.push(clock.time(arrival, NO_STAMP));
        }
        assert!(
            (clock.period() * 30.0 - 1.0).abs() < 0.005,
            "period {:.5} s",
            clock.period()
        );
        for (k, step) in intervals(&times).iter().enumerate().skip(60) {
            assert!(
                (step * 30.0 - 1.0).abs() < 0.01,
                "frame {k}: step {step:.4} s"
            );
        }
    }

    #[test]
    fn source_stamps_are_used_while_they_hold_up() {
        let mut clock = StreamClock::new(30.0);
        // Kernel stamps (ms since boot) at 30 fps with two dropped frames;
        // the reader gets frames 5..10 late, in a burst.
        let stamp = |k: u64| 123_456_789.0 + k as f64 * 1000.0 / 30.0;
        let mut times = Vec::new();
        for k in (0..20u64).filter(|k| *k != 12 && *k != 13) {
            let arrival = 5.0
                + if (5..10).contains(&k) {
                    0.34
                } else {
                    k as f64 / 30.0
                };
            times.push((k, clock.time(arrival, stamp(k))));
        }
        assert_eq!(clock.timing(), Timing::SourceStamps);
        for (k, t) in &times {
            let want = 5.0 + *k as f64 / 30.0;
            assert!(
                (t - want).abs() < 1e-6,
                "frame {k} at {t:.4}, taken at {want:.4}"
            );
        }
        // A stamp that goes backwards ends their use for the run.
        clock.time(5.0 + 20.0 / 30.0, stamp(3));
        assert_eq!(clock.timing(), Timing::Arrivals);
    }

    #[test]
    fn stamps_running_ahead_of_the_arrivals_are_refused() {
        let mut clock = StreamClock::new(30.0);
        clock.time(1.0, 0.0);
        // A stamp 10 s on after a thirtieth of a second is not a capture time.
        let t = clock.time(1.0 + 1.0 / 30.0, 10_000.0);
        assert_eq!(clock.timing(), Timing::Arrivals);
        assert!(t < 1.1, "{t}");
    }

    #[test]
    fn times_never_go_backwards() {
        let mut clock = StreamClock::new(60.0);
        let mut previous = f64::NEG_INFINITY;
        // Arrivals at a steady 20 fps, so the period estimate moves a lot.
        for k in 0..200u64 {
            let t = clock.time(k as f64 / 20.0, NO_STAMP);
            assert!(t > previous, "frame {k}: {t} after {previous}");
            previous = t;
        }
    }
}
