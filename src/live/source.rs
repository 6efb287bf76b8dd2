//! Where live frames come from: a V4L2 camera, a network stream or a file,
//! the file optionally played at its real speed. A camera or stream that
//! stops delivering is a drop-out to reconnect, not the end of the match.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use opencv::core::Mat;
use opencv::prelude::*;
use opencv::videoio::{self, VideoCapture};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::clock::{ClockSummary, StreamClock, FALLBACK_FPS};

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
    /// OpenCV failed.
    #[error("{what}: {source}")]
    OpenCv { what: String, source: opencv::Error },
}

/// What [`FrameSource::read`] found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Read {
    /// A frame, with its time in seconds: the file position for a file,
    /// session seconds for a camera or stream (see [`StreamClock`]).
    Frame { t: f64 },
    /// The file has ended.
    End,
    /// The camera or stream delivered nothing: reconnect.
    Dropout,
}

/// An open source of frames.
pub struct FrameSource {
    spec: SourceSpec,
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
    /// Seconds from the session's start to this source's opening.
    clock_offset: f64,
    opened: Instant,
    /// Times a camera's or stream's frames.
    clock: StreamClock,
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
            SourceSpec::Stream(url) => VideoCapture::from_file(url, videoio::CAP_ANY),
            SourceSpec::File(path) => VideoCapture::from_file(path, videoio::CAP_ANY),
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
        Ok(FrameSource {
            spec: spec.clone(),
            capture,
            fps,
            realtime,
            started: None,
            fast_until_t: 0.0,
            next_index: 0,
            clock_offset: session_seconds,
            opened: Instant::now(),
            clock: StreamClock::new(declared),
        })
    }

    /// Frames per second (declared, or assumed).
    pub fn fps(&self) -> f64 {
        self.fps
    }

    /// How a camera's or stream's frames have been timed (`None` for a file,
    /// whose frames are timed by their position).
    pub fn clock_summary(&self) -> Option<ClockSummary> {
        (!self.spec.is_file()).then(|| self.clock.summary())
    }

    /// Reads file frames up to `t` seconds without real-time pacing.
    pub fn catch_up_to(&mut self, t: f64) {
        self.fast_until_t = t;
    }

    /// Decodes the next frame into `image`.
    pub fn read(&mut self, image: &mut Mat) -> Result<Read, SourceError> {
        let decoded = self
            .capture
            .read(image)
            .map_err(|source| SourceError::OpenCv {
                what: self.spec.describe(),
                source,
            })?;
        if !decoded || image.empty() {
            return Ok(if self.spec.is_file() {
                Read::End
            } else {
                Read::Dropout
            });
        }
        let index = self.next_index;
        self.next_index += 1;
        if !self.spec.is_file() {
            let arrival = self.clock_offset + self.opened.elapsed().as_secs_f64();
            // A backend that cannot say answers an error or nonsense; the
            // clock refuses both and times the frames by their arrivals.
            let stamp_ms = self
                .capture
                .get(videoio::CAP_PROP_POS_MSEC)
                .unwrap_or(f64::NAN);
            let t = self.clock.time(arrival, stamp_ms);
            return Ok(Read::Frame { t });
        }
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
    fn a_missing_file_cannot_be_opened() {
        let spec = SourceSpec::File("/nonexistent/clip.mp4".into());
        assert!(FrameSource::open(&spec, false, 0.0).is_err());
    }
}
