//! Decoded video frames, read one at a time into a reused buffer, with errors
//! that say which file and which frame went wrong.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use opencv::core::Mat;
use opencv::prelude::*;
use opencv::videoio::{self, VideoCapture};
use thiserror::Error;

/// A clip that stops this many frames (or more) before the frame count its
/// container declares is reported as truncated. Containers round their count,
/// so a frame or two of slack avoids false alarms.
const TRUNCATION_SLACK_FRAMES: u64 = 2;

/// Why a clip could not be read.
#[derive(Debug, Error)]
pub enum VideoError {
    /// The file does not exist.
    #[error("video {} does not exist", path.display())]
    Missing {
        /// The file asked for.
        path: PathBuf,
    },
    /// OpenCV could not open the file as a video (not a video, or an unknown codec).
    #[error("video {} cannot be opened as a video (not a video file, or a codec OpenCV lacks)", path.display())]
    Unreadable {
        /// The file asked for.
        path: PathBuf,
    },
    /// The file opened, but not one frame could be decoded.
    #[error("video {} holds no decodable frame", path.display())]
    NoFrames {
        /// The file asked for.
        path: PathBuf,
    },
    /// Decoding stopped before the frame count the container declares.
    #[error("video {} is truncated: decoding stopped at frame {frame} of the {declared} it declares", path.display())]
    Truncated {
        /// The file being read.
        path: PathBuf,
        /// The first frame that could not be decoded.
        frame: u64,
        /// The frame count the container declares.
        declared: u64,
    },
    /// The container declares no usable frame rate, so frame times are unknown.
    #[error("video {} declares no frame rate ({fps})", path.display())]
    NoFrameRate {
        /// The file being read.
        path: PathBuf,
        /// What it declares.
        fps: f64,
    },
    /// OpenCV failed in another way.
    #[error("OpenCV failed reading {} at frame {frame}", path.display())]
    OpenCv {
        /// The file being read.
        path: PathBuf,
        /// The frame being read.
        frame: u64,
        /// OpenCV's error.
        source: opencv::Error,
    },
}

/// One decoded frame of a clip.
#[derive(Debug)]
pub struct Frame {
    /// Index in the clip, from 0.
    pub index: u64,
    /// Seconds from the start of the clip (`index / fps`).
    pub t: f64,
    /// The decoded image, BGR, 8 bits per channel.
    pub image: Mat,
}

impl Frame {
    /// An empty frame to decode into.
    pub fn empty() -> Frame {
        Frame {
            index: 0,
            t: 0.0,
            image: Mat::default(),
        }
    }
}

/// Opens a video file or stream address with OpenCV, one thread at a time.
/// A file FFmpeg cannot read falls through to OpenCV's GStreamer backend,
/// whose start-up is not safe to run on two threads at once: two unreadable
/// clips opened together (the test suite's, or `carrom batch` over a folder
/// with two broken files) crashed the process now and then. Opening takes
/// milliseconds once per clip; reading frames is not serialised.
pub fn open_capture(path: impl AsRef<OsStr>) -> opencv::Result<VideoCapture> {
    static OPENING: Mutex<()> = Mutex::new(());
    // A panic elsewhere while holding the lock leaves nothing to repair.
    let _one_at_a_time = OPENING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    VideoCapture::from_file(path.as_ref(), videoio::CAP_ANY)
}

/// Reads a clip frame by frame. Decoding reuses the frame's buffer, so a long
/// clip costs no more memory than a short one.
pub struct FrameReader {
    path: PathBuf,
    capture: VideoCapture,
    fps: f64,
    declared_frames: Option<u64>,
    next_index: u64,
    size: (u32, u32),
}

impl FrameReader {
    /// Opens a clip and checks that it has a frame rate.
    pub fn open(path: &Path) -> Result<FrameReader, VideoError> {
        let owned = path.to_path_buf();
        if !path.exists() {
            return Err(VideoError::Missing { path: owned });
        }
        let cv_error = |source| VideoError::OpenCv {
            path: path.to_path_buf(),
            frame: 0,
            source,
        };
        let capture = open_capture(path).map_err(cv_error)?;
        if !capture.is_opened().map_err(cv_error)? {
            return Err(VideoError::Unreadable { path: owned });
        }
        let fps = capture.get(videoio::CAP_PROP_FPS).map_err(cv_error)?;
        if !(fps.is_finite() && fps > 0.0) {
            return Err(VideoError::NoFrameRate { path: owned, fps });
        }
        let count = capture
            .get(videoio::CAP_PROP_FRAME_COUNT)
            .map_err(cv_error)?;
        let declared_frames = (count.is_finite() && count >= 1.0).then_some(count as u64);
        let width = capture
            .get(videoio::CAP_PROP_FRAME_WIDTH)
            .map_err(cv_error)?;
        let height = capture
            .get(videoio::CAP_PROP_FRAME_HEIGHT)
            .map_err(cv_error)?;
        Ok(FrameReader {
            path: owned,
            capture,
            fps,
            declared_frames,
            next_index: 0,
            size: (width.max(0.0) as u32, height.max(0.0) as u32),
        })
    }

    /// The clip's frame rate, frames per second.
    pub fn fps(&self) -> f64 {
        self.fps
    }

    /// The frame size the container declares, (width, height) pixels.
    pub fn size(&self) -> (u32, u32) {
        self.size
    }

    /// The number of frames the container declares, if it says.
    pub fn declared_frames(&self) -> Option<u64> {
        self.declared_frames
    }

    /// The file being read.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Decodes the next frame into `frame`. `Ok(false)` at the clean end of
    /// the clip; an error when the clip ends well before its declared length.
    pub fn read_into(&mut self, frame: &mut Frame) -> Result<bool, VideoError> {
        let index = self.next_index;
        let decoded = self
            .capture
            .read(&mut frame.image)
            .map_err(|source| VideoError::OpenCv {
                path: self.path.clone(),
                frame: index,
                source,
            })?;
        if !decoded || frame.image.empty() {
            return match (index, self.declared_frames) {
                (0, _) => Err(VideoError::NoFrames {
                    path: self.path.clone(),
                }),
                (_, Some(declared)) if index + TRUNCATION_SLACK_FRAMES < declared => {
                    Err(VideoError::Truncated {
                        path: self.path.clone(),
                        frame: index,
                        declared,
                    })
                }
                _ => Ok(false),
            };
        }
        frame.index = index;
        frame.t = index as f64 / self.fps;
        self.next_index += 1;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_file_is_named() {
        let path = Path::new("/nonexistent/clip.mp4");
        let error = FrameReader::open(path).err().map(|e| e.to_string());
        assert_eq!(
            error.as_deref(),
            Some("video /nonexistent/clip.mp4 does not exist")
        );
    }

    #[test]
    fn a_file_that_is_not_a_video_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.mp4");
        std::fs::write(&path, b"these are not video frames").unwrap();
        let outcome = FrameReader::open(&path).and_then(|mut reader| {
            let mut frame = Frame::empty();
            reader.read_into(&mut frame)
        });
        let message = outcome.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(message.contains("notes.mp4"), "{message}");
    }
}
