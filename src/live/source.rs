//! Where live frames come from: a V4L2 camera, a network stream or a file,
//! the file optionally played at its real speed. A camera or stream that
//! stops delivering is a drop-out to reconnect, not the end of the match.
//! A camera or stream is read on a thread of its own, so that its frames
//! are timed as they come, not when a busy tracker gets to them.

use std::path::PathBuf;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::time::{Duration, Instant};

use opencv::core::Mat;
use opencv::prelude::*;
use opencv::videoio::{self, VideoCapture};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::clock::{ClockSummary, StreamClock, FALLBACK_FPS};
use crate::detect::video::open_capture;

/// What the session watches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceSpec {
    /// A local camera by index (`/dev/video0` is 0).
    Camera(i32),
    /// A network stream (`rtsp://…`, `http://…`).
    Stream(String),
    /// A recorded video.
    File(PathBuf),
}

impl SourceSpec {
    /// Reads `--camera`: a number is a camera index, text with `://` a
    /// stream, anything else a file.
    pub fn parse(text: &str) -> SourceSpec {
        if let Ok(index) = text.parse::<i32>() {
            SourceSpec::Camera(index)
        } else if text.contains("://") {
            SourceSpec::Stream(text.to_owned())
        } else {
            SourceSpec::File(PathBuf::from(text))
        }
    }

    /// Whether the source ends (a file) rather than dropping out (a camera).
    pub fn is_file(&self) -> bool {
        matches!(self, SourceSpec::File(_))
    }

    fn describe(&self) -> String {
        match self {
            SourceSpec::Camera(index) => format!("camera {index}"),
            SourceSpec::Stream(url) => url.clone(),
            SourceSpec::File(path) => path.display().to_string(),
        }
    }
}

/// Why frames could not be had.
#[derive(Debug, Error)]
pub enum SourceError {
    /// The source could not be opened.
    #[error("cannot open {0}")]
    Unavailable(String),
    /// The recorded video does not exist.
    #[error("video {} does not exist", .0.display())]
    Missing(PathBuf),
    /// OpenCV failed.
    #[error("{what}: {source}")]
    OpenCv { what: String, source: opencv::Error },
    /// The thread that reads a camera or stream could not be started.
    #[error("cannot start the thread that reads the camera: {0}")]
    Thread(String),
}

/// What [`FrameSource::read`] found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Read {
    /// A frame, with its time in seconds: the file position for a file,
    /// session seconds for a camera or stream (see [`StreamClock`]).
    Frame { t: f64 },
    /// The file has ended.
    End,
    /// The camera or stream delivered nothing from `lost_at` (session
    /// seconds) on: reconnect.
    Dropout { lost_at: f64 },
}

/// A camera's or stream's frames are read ahead by their own thread, up to
/// this much memory of decoded frames...
const READ_AHEAD_BYTES: usize = 192 << 20;
/// ...and at most this many seconds of them.
const READ_AHEAD_S: f64 = 3.0;

/// An open source of frames.
pub struct FrameSource {
    spec: SourceSpec,
    kind: Kind,
}

/// How frames are had from the source.
enum Kind {
    /// A file, read on the caller's thread and timed by its position.
    File(FileFrames),
    /// A camera or stream, read and timed on a thread of its own.
    Live(LiveFrames),
}

struct FileFrames {
    capture: VideoCapture,
    fps: f64,
    /// Play a file no faster than real time (as if it were a camera).
    realtime: bool,
    /// Wall-clock time of the file's first frame, for real-time pacing.
    started: Option<Instant>,
    /// File frames before this time are read as fast as possible (a restart
    /// catching up with its journal).
    fast_until_t: f64,
    next_index: u64,
}

/// What the reading thread of a camera or stream hands over.
enum Delivery {
    Frame {
        image: Mat,
        t: f64,
        clock: ClockSummary,
    },
    /// The source stopped delivering at this session time.
    Dropout {
        lost_at: f64,
    },
    Failed(SourceError),
}

struct LiveFrames {
    fps: f64,
    frames: Receiver<Delivery>,
    /// How the frames handed over so far were timed.
    clock: Option<ClockSummary>,
    /// Session seconds at the opening, and when that was.
    session_seconds: f64,
    opened: Instant,
    /// The most a frame waited for the tracker so far, seconds.
    max_waiting_s: f64,
}

impl FrameSource {
    /// Opens the source. `session_seconds` is how long the session has been
    /// running (camera times carry on from it across restarts).
    pub fn open(
        spec: &SourceSpec,
        realtime: bool,
        session_seconds: f64,
    ) -> Result<FrameSource, SourceError> {
        let what = spec.describe();
        let cv = |source| SourceError::OpenCv {
            what: what.clone(),
            source,
        };
        let capture = match spec {
            SourceSpec::Camera(index) => VideoCapture::new(*index, videoio::CAP_ANY),
            SourceSpec::Stream(url) => open_capture(url),
            // A missing file is said so, without asking OpenCV's backends
            // one after another to open it.
            SourceSpec::File(path) if !path.exists() => {
                return Err(SourceError::Missing(path.clone()));
            }
            SourceSpec::File(path) => open_capture(path),
        }
        .map_err(cv)?;
        if !capture.is_opened().map_err(cv)? {
            return Err(SourceError::Unavailable(what));
        }
        let declared = capture.get(videoio::CAP_PROP_FPS).map_err(cv)?;
        let fps = if declared.is_finite() && declared > 0.0 {
            declared
        } else {
            FALLBACK_FPS
        };
        let kind = if spec.is_file() {
            Kind::File(FileFrames {
                capture,
                fps,
                realtime,
                started: None,
                fast_until_t: 0.0,
                next_index: 0,
            })
        } else {
            let width = capture.get(videoio::CAP_PROP_FRAME_WIDTH).unwrap_or(0.0);
            let height = capture.get(videoio::CAP_PROP_FRAME_HEIGHT).unwrap_or(0.0);
            // Where the size is not known, 1080p colour.
            let frame_bytes = if width >= 1.0 && height >= 1.0 {
                (width * height * 3.0) as usize
            } else {
                1920 * 1080 * 3
            };
            let by_time = (READ_AHEAD_S * fps.min(240.0)).ceil() as usize;
            let capacity = (READ_AHEAD_BYTES / frame_bytes.max(1)).clamp(2, by_time.max(2));
            let (sender, frames) = sync_channel(capacity);
            let clock = StreamClock::new(declared);
            let opened = Instant::now();
            std::thread::Builder::new()
                .name("live-capture".into())
                .spawn(move || {
                    capture_frames(capture, what, clock, session_seconds, opened, sender)
                })
                .map_err(|e| SourceError::Thread(e.to_string()))?;
            Kind::Live(LiveFrames {
                fps,
                frames,
                clock: None,
                session_seconds,
                opened,
                max_waiting_s: 0.0,
            })
        };
        Ok(FrameSource {
            spec: spec.clone(),
            kind,
        })
    }

    /// Frames per second (declared, or assumed).
    pub fn fps(&self) -> f64 {
        match &self.kind {
            Kind::File(file) => file.fps,
            Kind::Live(live) => live.fps,
        }
    }

    /// How a camera's or stream's frames have been timed (`None` for a file,
    /// whose frames are timed by their position, or before any frame).
    pub fn clock_summary(&self) -> Option<ClockSummary> {
        match &self.kind {
            Kind::File(_) => None,
            Kind::Live(live) => live.clock,
        }
    }

    /// Reads file frames up to `t` seconds without real-time pacing.
    pub fn catch_up_to(&mut self, t: f64) {
        if let Kind::File(file) = &mut self.kind {
            file.fast_until_t = t;
        }
    }

    /// The next frame, into `image`.
    pub fn read(&mut self, image: &mut Mat) -> Result<Read, SourceError> {
        match &mut self.kind {
            Kind::File(file) => file.read(image, &self.spec),
            Kind::Live(live) => match live.frames.recv() {
                Ok(Delivery::Frame {
                    image: frame,
                    t,
                    clock,
                }) => {
                    *image = frame;
                    let now = live.session_seconds + live.opened.elapsed().as_secs_f64();
                    live.max_waiting_s = live.max_waiting_s.max(now - t);
                    live.clock = Some(ClockSummary {
                        max_waiting_s: live.max_waiting_s,
                        ..clock
                    });
                    Ok(Read::Frame { t })
                }
                Ok(Delivery::Failed(error)) => Err(error),
                Ok(Delivery::Dropout { lost_at }) => Ok(Read::Dropout { lost_at }),
                // The thread ends after a drop-out, so this is not reached
                // before one; should it end otherwise, the source is gone too.
                Err(_) => Ok(Read::Dropout {
                    lost_at: live.session_seconds + live.opened.elapsed().as_secs_f64(),
                }),
            },
        }
    }
}

impl FileFrames {
    fn read(&mut self, image: &mut Mat, spec: &SourceSpec) -> Result<Read, SourceError> {
        let decoded = self
            .capture
            .read(image)
            .map_err(|source| SourceError::OpenCv {
                what: spec.describe(),
                source,
            })?;
        if !decoded || image.empty() {
            return Ok(Read::End);
        }
        let index = self.next_index;
        self.next_index += 1;
        let t = index as f64 / self.fps;
        if self.realtime && t >= self.fast_until_t {
            // The pacing clock starts at the first frame played in real time.
            let started = *self
                .started
                .get_or_insert_with(|| Instant::now() - Duration::from_secs_f64(t));
            let due = started + Duration::from_secs_f64(t);
            let now = Instant::now();
            if due > now {
                std::thread::sleep(due - now);
            }
        }
        Ok(Read::Frame { t })
    }
}

/// The reading thread of a camera or stream: reads and times every frame as
/// it comes, so a busy tracker delays neither the reading nor the times
/// (up to the read-ahead; beyond it this thread waits, and the source's own
/// buffering takes over: a network stream waits in the socket, a camera
/// driver drops frames). Ends at a drop-out or when the session lets go.
fn capture_frames(
    mut capture: VideoCapture,
    what: String,
    mut clock: StreamClock,
    session_seconds: f64,
    opened: Instant,
    frames: SyncSender<Delivery>,
) {
    loop {
        let mut image = Mat::default();
        let delivery = match capture.read(&mut image) {
            Ok(true) if !image.empty() => {
                let arrival = session_seconds + opened.elapsed().as_secs_f64();
                // A backend that cannot say answers an error or nonsense; the
                // clock refuses both and times the frames by their arrivals.
                let stamp_ms = capture.get(videoio::CAP_PROP_POS_MSEC).unwrap_or(f64::NAN);
                let t = clock.time(arrival, stamp_ms);
                Delivery::Frame {
                    image,
                    t,
                    clock: clock.summary(),
                }
            }
            Ok(_) => Delivery::Dropout {
                lost_at: session_seconds + opened.elapsed().as_secs_f64(),
            },
            Err(source) => Delivery::Failed(SourceError::OpenCv {
                what: what.clone(),
                source,
            }),
        };
        let last = !matches!(delivery, Delivery::Frame { .. });
        if frames.send(delivery).is_err() || last {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn camera_stream_and_file_are_told_apart() {
        assert_eq!(SourceSpec::parse("0"), SourceSpec::Camera(0));
        assert_eq!(
            SourceSpec::parse("rtsp://10.0.0.5/board"),
            SourceSpec::Stream("rtsp://10.0.0.5/board".into())
        );
        assert_eq!(
            SourceSpec::parse("match.mp4"),
            SourceSpec::File("match.mp4".into())
        );
    }

    #[test]
    fn a_missing_file_cannot_be_opened_and_is_named() {
        let spec = SourceSpec::File("/nonexistent/clip.mp4".into());
        let error = FrameSource::open(&spec, false, 0.0)
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            error.as_deref(),
            Some("video /nonexistent/clip.mp4 does not exist")
        );
    }
}
