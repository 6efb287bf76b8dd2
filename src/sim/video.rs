//! Writing rendered frames to a video file through OpenCV's FFmpeg backend.
//!
//! H.264 (`avc1`, libx264 through FFmpeg) is tried first because it is what
//! real cameras and phones record and its block artefacts are what the vision
//! must live with. Debian 12's OpenCV 4.6 encodes it (FFmpeg 5 linked to
//! libx264). Where a build cannot, the writer falls back to MPEG-4 Part 2
//! (`mp4v`, FFmpeg's own encoder, valid in MP4) and then to Motion JPEG
//! (`MJPG`, valid in AVI/MKV only: FFmpeg refuses it in an MP4 container).

use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, sync_channel, Receiver, SyncSender};
use std::thread::JoinHandle;

use opencv::core::{Mat, MatTraitConst, Size};
use opencv::prelude::{VideoWriterTrait, VideoWriterTraitConst};
use opencv::videoio::{self, VideoWriter};

/// Why a clip could not be written.
#[derive(Debug, thiserror::Error)]
pub enum VideoError {
    /// No codec that the writer tries could open the file.
    #[error("cannot open {path} for writing a {width}x{height} video at {fps} fps with any of the codecs tried ({tried})")]
    NoCodec {
        path: PathBuf,
        width: u32,
        height: u32,
        fps: f64,
        tried: String,
    },
    /// The frame rate or size makes no sense.
    #[error("invalid clip settings: {0}")]
    InvalidSettings(String),
    /// A frame of the wrong size or type was pushed.
    #[error("frame {index} is {got_width}x{got_height} with type {got_type}, the clip is {width}x{height} 8-bit BGR")]
    WrongFrame {
        index: u64,
        got_width: i32,
        got_height: i32,
        got_type: i32,
        width: u32,
        height: u32,
    },
    /// The encoder thread stopped (it panicked or failed before).
    #[error("the video encoder stopped unexpectedly")]
    EncoderStopped,
    /// OpenCV reported an error.
    #[error("OpenCV: {0}")]
    OpenCv(#[from] opencv::Error),
}

/// The codec a clip was written with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Codec {
    /// H.264 (fourcc `avc1`) in an MP4 container.
    H264,
    /// MPEG-4 Part 2 (fourcc `mp4v`), FFmpeg's built-in encoder.
    Mpeg4,
    /// Motion JPEG (fourcc `MJPG`); every frame a JPEG (AVI or MKV only).
    Mjpeg,
}

impl Codec {
    /// The codecs tried, in order of preference.
    pub const PREFERENCE: [Codec; 3] = [Codec::H264, Codec::Mpeg4, Codec::Mjpeg];

    fn fourcc(self) -> Result<i32, opencv::Error> {
        match self {
            Codec::H264 => VideoWriter::fourcc('a', 'v', 'c', '1'),
            Codec::Mpeg4 => VideoWriter::fourcc('m', 'p', '4', 'v'),
            Codec::Mjpeg => VideoWriter::fourcc('M', 'J', 'P', 'G'),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Codec::H264 => "H.264 (avc1)",
            Codec::Mpeg4 => "MPEG-4 Part 2 (mp4v)",
            Codec::Mjpeg => "Motion JPEG (MJPG)",
        }
    }
}

/// A video file being written, one BGR frame at a time.
///
/// Encoding runs on a worker thread, so the next frame can be rendered while
/// the last one is compressed; [`ClipWriter::write`] copies the frame into a
/// recycled buffer and returns at once unless the worker is a few frames
/// behind.
pub struct ClipWriter {
    frames_out: Option<SyncSender<Mat>>,
    buffers_back: Receiver<Mat>,
    worker: Option<JoinHandle<Result<(), VideoError>>>,
    codec: Codec,
    width: u32,
    height: u32,
    frames: u64,
    path: PathBuf,
}

/// Frames that may wait for the encoder before `write` blocks.
const QUEUE_FRAMES: usize = 3;

impl ClipWriter {
    /// Opens `path` for a clip of `width`×`height` pixels at `fps`, with the
    /// first codec of [`Codec::PREFERENCE`] that works here.
    pub fn create(
        path: &Path,
        fps: f64,
        (width, height): (u32, u32),
    ) -> Result<ClipWriter, VideoError> {
        ClipWriter::create_with(path, fps, (width, height), &Codec::PREFERENCE)
    }

    /// Like [`ClipWriter::create`], trying only `codecs`, in order.
    pub fn create_with(
        path: &Path,
        fps: f64,
        (width, height): (u32, u32),
        codecs: &[Codec],
    ) -> Result<ClipWriter, VideoError> {
        if !(fps.is_finite() && fps > 0.0 && fps <= 1000.0) {
            return Err(VideoError::InvalidSettings(format!(
                "frame rate {fps} is not in (0, 1000]"
            )));
        }
        let size = Size::new(
            i32::try_from(width)
                .map_err(|_| VideoError::InvalidSettings(format!("width {width}")))?,
            i32::try_from(height)
                .map_err(|_| VideoError::InvalidSettings(format!("height {height}")))?,
        );
        // H.264 encoders work on 2x2 chroma blocks.
        if width < 16 || height < 16 || width % 2 == 1 || height % 2 == 1 {
            return Err(VideoError::InvalidSettings(format!(
                "frame size {width}x{height} must be even and at least 16x16"
            )));
        }
        for &codec in codecs {
            let mut writer = VideoWriter::new_with_backend(
                path,
                videoio::CAP_FFMPEG,
                codec.fourcc()?,
                fps,
                size,
                true,
            )?;
            if !writer.is_opened()? {
                continue;
            }
            let (frames_out, frames_in) = sync_channel::<Mat>(QUEUE_FRAMES);
            let (buffers_out, buffers_back) = channel::<Mat>();
            let worker = std::thread::Builder::new()
                .name("clip-encoder".into())
                .spawn(move || -> Result<(), VideoError> {
                    for frame in frames_in {
                        writer.write(&frame)?;
                        // The writer may have finished; then the buffer is
                        // simply dropped.
                        let _ = buffers_out.send(frame);
                    }
                    writer.release()?;
                    Ok(())
                })
                .map_err(|e| {
                    VideoError::InvalidSettings(format!("cannot start the encoder thread: {e}"))
                })?;
            return Ok(ClipWriter {
                frames_out: Some(frames_out),
                buffers_back,
                worker: Some(worker),
                codec,
                width,
                height,
                frames: 0,
                path: path.to_path_buf(),
            });
        }
        Err(VideoError::NoCodec {
            path: path.to_path_buf(),
            width,
            height,
            fps,
            tried: codecs
                .iter()
                .map(|c| c.name())
                .collect::<Vec<_>>()
                .join(", "),
        })
    }

    /// The codec in use.
    pub fn codec(&self) -> Codec {
        self.codec
    }

    /// Frames written so far.
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// The file being written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends one 8-bit BGR frame of the clip's size.
    pub fn write(&mut self, frame: &Mat) -> Result<(), VideoError> {
        let size = frame.size()?;
        if size.width != self.width as i32
            || size.height != self.height as i32
            || frame.typ() != opencv::core::CV_8UC3
        {
            return Err(VideoError::WrongFrame {
                index: self.frames,
                got_width: size.width,
                got_height: size.height,
                got_type: frame.typ(),
                width: self.width,
                height: self.height,
            });
        }
        let mut copy = self.buffers_back.try_recv().unwrap_or_default();
        frame.copy_to(&mut copy)?;
        let sent = match &self.frames_out {
            Some(frames_out) => frames_out.send(copy).is_ok(),
            None => false,
        };
        if !sent {
            // The worker stopped: it failed, and says why when joined.
            return Err(self.stop().err().unwrap_or(VideoError::EncoderStopped));
        }
        self.frames += 1;
        Ok(())
    }

    /// Waits for the encoder to write every frame and closes the file.
    /// Dropping the writer also closes it, but only `finish` reports a
    /// failure. Returns the number of frames written.
    pub fn finish(mut self) -> Result<u64, VideoError> {
        self.stop()?;
        Ok(self.frames)
    }

    fn stop(&mut self) -> Result<(), VideoError> {
        self.frames_out = None;
        match self.worker.take() {
            Some(worker) => worker.join().map_err(|_| VideoError::EncoderStopped)?,
            None => Ok(()),
        }
    }
}

impl Drop for ClipWriter {
    fn drop(&mut self) {
        // Closing the file properly matters even when the caller forgot to
        // finish; an error here has nobody to go to.
        let _ = self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{Scalar, CV_8UC3};

    fn gradient_frame(width: i32, height: i32, shade: f64) -> Mat {
        Mat::new_rows_cols_with_default(
            height,
            width,
            CV_8UC3,
            Scalar::new(shade, 128.0, 255.0 - shade, 0.0),
        )
        .unwrap()
    }

    #[test]
    fn writes_a_readable_clip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("clip.mp4");
        let mut writer = ClipWriter::create(&path, 30.0, (64, 48)).unwrap();
        for i in 0..10 {
            writer
                .write(&gradient_frame(64, 48, f64::from(i) * 20.0))
                .unwrap();
        }
        // This machine's OpenCV encodes H.264; a build that cannot would
        // still write the clip, with a fallback codec.
        assert_eq!(writer.codec(), Codec::H264);
        assert_eq!(writer.finish().unwrap(), 10);
        let mut capture =
            videoio::VideoCapture::from_file(path.to_str().unwrap(), videoio::CAP_FFMPEG).unwrap();
        use opencv::prelude::VideoCaptureTrait;
        let mut frame = Mat::default();
        let mut read = 0;
        while capture.read(&mut frame).unwrap() && !frame.empty() {
            read += 1;
        }
        assert_eq!(read, 10);
    }

    #[test]
    fn falls_back_to_motion_jpeg_in_avi() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("clip.avi");
        let mut writer = ClipWriter::create_with(&path, 30.0, (64, 48), &[Codec::Mjpeg]).unwrap();
        writer.write(&gradient_frame(64, 48, 10.0)).unwrap();
        assert_eq!(writer.codec(), Codec::Mjpeg);
        writer.finish().unwrap();
        assert!(std::fs::metadata(&path).unwrap().len() > 0);
    }

    #[test]
    fn rejects_frames_of_the_wrong_size() {
        let dir = tempfile::tempdir().unwrap();
        let mut writer = ClipWriter::create(&dir.path().join("c.mp4"), 30.0, (64, 48)).unwrap();
        let error = writer.write(&gradient_frame(32, 48, 0.0)).unwrap_err();
        assert!(matches!(error, VideoError::WrongFrame { .. }));
    }

    #[test]
    fn rejects_odd_sizes_and_bad_rates() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.mp4");
        assert!(ClipWriter::create(&path, 30.0, (65, 48)).is_err());
        assert!(ClipWriter::create(&path, 0.0, (64, 48)).is_err());
        assert!(ClipWriter::create(&path, f64::NAN, (64, 48)).is_err());
    }

    #[test]
    fn unwritable_path_is_an_error() {
        let error = ClipWriter::create(Path::new("/nonexistent-dir/clip.mp4"), 30.0, (64, 48));
        assert!(error.is_err());
    }
}
