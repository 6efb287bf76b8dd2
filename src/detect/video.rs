//! Decoded video frames, read one at a time into a reused buffer, with errors
//! that say which file and which frame went wrong.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use ffmpeg_next as ffmpeg;
use opencv::core::{Mat, Rect, Scalar, CV_8UC3};
use opencv::prelude::*;
use opencv::videoio::{self, VideoCapture};
use thiserror::Error;

use super::yuv::{PlaneTooShort, Yuv420, YuvRange};

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
    /// FFmpeg's decoder failed.
    #[error("FFmpeg failed decoding {} at frame {frame}", path.display())]
    Libav {
        /// The file being read.
        path: PathBuf,
        /// The frame being read.
        frame: u64,
        /// FFmpeg's error.
        source: ffmpeg::Error,
    },
    /// The frames changed pixel format mid-clip.
    #[error("video {} changes its frames' pixel format to {format} at frame {frame}", path.display())]
    FormatChanged {
        /// The file being read.
        path: PathBuf,
        /// The first frame in the new format.
        frame: u64,
        /// The new format.
        format: String,
    },
    /// A decoded frame's planes do not hold its size.
    #[error("video {} at frame {frame}: {source}", path.display())]
    BadPlanes {
        /// The file being read.
        path: PathBuf,
        /// The frame.
        frame: u64,
        /// What is short.
        source: PlaneTooShort,
    },
}

/// One decoded frame of a clip.
#[derive(Debug)]
pub struct Frame {
    /// Index in the clip, from 0.
    pub index: u64,
    /// Seconds from the start of the clip (`index / fps`).
    pub t: f64,
    /// The decoded image, BGR, 8 bits per channel. A frame FFmpeg decoded
    /// for a reader told to convert a region only ([`FrameReader::convert_only`])
    /// holds that region, the rest as the buffer was.
    pub image: Mat,
    /// The decoder's own planes, where FFmpeg decoded the frame.
    decoded: Option<Decoded>,
}

/// A frame as libavcodec gave it.
struct Decoded {
    frame: ffmpeg::frame::Video,
    range: YuvRange,
}

impl std::fmt::Debug for Decoded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Decoded")
            .field("width", &self.frame.width())
            .field("height", &self.frame.height())
            .field("range", &self.range)
            .finish()
    }
}

impl Frame {
    /// An empty frame to decode into.
    pub fn empty() -> Frame {
        Frame::from_bgr(0, 0.0, Mat::default())
    }

    /// A frame holding a BGR image (a camera's, a test's).
    pub fn from_bgr(index: u64, t: f64, image: Mat) -> Frame {
        Frame {
            index,
            t,
            image,
            decoded: None,
        }
    }

    /// A frame as FFmpeg would decode it from `grey` (one channel, 8 bits):
    /// that luma, grey chroma, and no BGR image.
    #[cfg(test)]
    pub(crate) fn from_luma(index: u64, grey: &Mat) -> Frame {
        let (width, height) = (grey.cols() as u32, grey.rows() as u32);
        let mut decoded = ffmpeg::frame::Video::new(ffmpeg::format::Pixel::YUV420P, width, height);
        let stride = decoded.stride(0);
        let levels = grey.data_bytes().unwrap_or_default();
        for (row, levels) in levels.chunks_exact(width as usize).enumerate() {
            decoded.data_mut(0)[row * stride..][..width as usize].copy_from_slice(levels);
        }
        for plane in 1..3 {
            decoded.data_mut(plane).fill(128);
        }
        Frame {
            index,
            t: 0.0,
            image: Mat::default(),
            decoded: Some(Decoded {
                frame: decoded,
                range: YuvRange::Studio,
            }),
        }
    }

    /// Hands the decoder's planes back to it (they are kept until the next
    /// frame is read into this one otherwise); [`Frame::planes`] is `None`
    /// from then on.
    pub fn release_planes(&mut self) {
        if let Some(decoded) = &mut self.decoded {
            // SAFETY: unreferencing a frame this struct owns; it stays a
            // valid, empty frame to decode into.
            unsafe { ffmpeg::ffi::av_frame_unref(decoded.frame.as_mut_ptr()) };
        }
    }

    /// The decoder's Y'CbCr 4:2:0 planes, where FFmpeg decoded this frame
    /// (the shake meter reads luma from them); `None` for frames OpenCV
    /// decoded.
    pub fn planes(&self) -> Option<Yuv420<'_>> {
        let decoded = self.decoded.as_ref()?;
        planes_of(&decoded.frame, decoded.range).ok()
    }
}

/// The planes of a decoded 4:2:0 frame, checked against its size.
fn planes_of(frame: &ffmpeg::frame::Video, range: YuvRange) -> Result<Yuv420<'_>, PlaneTooShort> {
    let size = (frame.width() as usize, frame.height() as usize);
    let refused = PlaneTooShort {
        width: size.0,
        height: size.1,
        plane: 0,
        got: 0,
        needed: 0,
        stride: 0,
    };
    if frame.planes() < 3 {
        return Err(refused);
    }
    // SAFETY: reading the first three line sizes of a frame that has (at
    // least) three planes.
    let linesizes = unsafe { (*frame.as_ptr()).linesize };
    let mut strides = [0usize; 3];
    for (stride, &linesize) in strides.iter_mut().zip(&linesizes) {
        // A bottom-up frame (negative stride) is not one libavcodec's video
        // decoders make; it is refused rather than read.
        *stride = usize::try_from(linesize).map_err(|_| refused.clone())?;
    }
    Yuv420::new(
        [frame.data(0), frame.data(1), frame.data(2)],
        strides,
        size,
        range,
    )
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

/// Which library decodes a clip.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Decoder {
    /// FFmpeg's libavcodec directly where the clip's frames are Y'CbCr
    /// 4:2:0 (nearly every camera's and encoder's output), converted to BGR
    /// by this program; OpenCV otherwise.
    #[default]
    Ffmpeg,
    /// OpenCV's `VideoCapture`, every frame converted whole.
    OpenCv,
}

impl Decoder {
    /// The default, or OpenCV where the environment's `CARROM_DECODER`
    /// says `opencv`.
    pub fn from_env() -> Decoder {
        match std::env::var("CARROM_DECODER") {
            Ok(value) if value.eq_ignore_ascii_case("opencv") => Decoder::OpenCv,
            _ => Decoder::Ffmpeg,
        }
    }
}

/// Where the frames come from.
enum Source {
    OpenCv(VideoCapture),
    Ffmpeg(Box<FfmpegClip>),
}

/// A clip read with libavformat and decoded with libavcodec.
struct FfmpegClip {
    input: ffmpeg::format::context::Input,
    stream: usize,
    /// The stream's codec parameters, to open the decoder again from.
    parameters: ffmpeg::codec::Parameters,
    decoder: ffmpeg::decoder::Video,
    /// The end of the packets has been told to the decoder.
    draining: bool,
}

/// What opening a clip with FFmpeg found.
struct FfmpegOpened {
    clip: FfmpegClip,
    fps: f64,
    declared_frames: Option<u64>,
    size: (u32, u32),
}

impl FfmpegClip {
    /// Opens `path` for decoding; `None` where FFmpeg cannot, or the frames
    /// are not 4:2:0 (OpenCV then reads the clip and says what is wrong).
    fn open(path: &Path) -> Option<FfmpegOpened> {
        static READY: OnceLock<bool> = OnceLock::new();
        let ready = *READY.get_or_init(|| {
            // As quiet as OpenCV keeps FFmpeg: errors only.
            ffmpeg::util::log::set_level(ffmpeg::util::log::Level::Error);
            ffmpeg::init().is_ok()
        });
        if !ready {
            return None;
        }
        let input = ffmpeg::format::input(&path).ok()?;
        let stream = input.streams().best(ffmpeg::media::Type::Video)?;
        let index = stream.index();
        let fps = [stream.avg_frame_rate(), stream.rate()]
            .into_iter()
            .map(f64::from)
            .find(|fps| fps.is_finite() && *fps > 0.0)?;
        // OpenCV turns the frames of a clip whose container says to show
        // them rotated (a phone held upright); its calibrations were made
        // on turned frames, so such a clip is left to OpenCV.
        let turned = stream.side_data().any(|side| {
            side.kind() == ffmpeg::codec::packet::side_data::Type::DisplayMatrix
                && display_rotation(side.data()).is_none_or(|degrees| degrees != 0)
        });
        if turned {
            return None;
        }
        let parameters = stream.parameters();
        let decoder = FfmpegClip::open_decoder(&parameters).ok()?;
        if !is_420(decoder.format()) {
            return None;
        }
        let declared_frames = match stream.frames() {
            n if n > 0 => Some(n as u64),
            _ => {
                // No count in the container: its duration at the frame rate,
                // as OpenCV estimates it.
                let seconds = if stream.duration() > 0 {
                    stream.duration() as f64 * f64::from(stream.time_base())
                } else {
                    input.duration() as f64 / f64::from(ffmpeg::ffi::AV_TIME_BASE)
                };
                let frames = (seconds * fps).round();
                (frames.is_finite() && frames >= 1.0).then_some(frames as u64)
            }
        };
        let size = (decoder.width(), decoder.height());
        Some(FfmpegOpened {
            clip: FfmpegClip {
                input,
                stream: index,
                parameters,
                decoder,
                draining: false,
            },
            fps,
            declared_frames,
            size,
        })
    }

    /// A decoder for the stream: as many threads as cores, each decoding a
    /// frame, as OpenCV asks of libavcodec too.
    fn open_decoder(
        parameters: &ffmpeg::codec::Parameters,
    ) -> Result<ffmpeg::decoder::Video, ffmpeg::Error> {
        let mut context = ffmpeg::codec::context::Context::from_parameters(parameters.clone())?;
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        context.set_threading(ffmpeg::threading::Config {
            kind: ffmpeg::threading::Type::Frame,
            count: cores,
            ..Default::default()
        });
        context.decoder().video()
    }

    /// Decodes the next frame into `frame`: `Ok(false)` at the end of the
    /// packets, or where reading them failed for good (the frame count
    /// then tells a truncated clip).
    fn next_into(&mut self, frame: &mut ffmpeg::frame::Video) -> Result<bool, ffmpeg::Error> {
        loop {
            match self.decoder.receive_frame(frame) {
                Ok(()) => return Ok(true),
                Err(ffmpeg::Error::Eof) => return Ok(false),
                Err(ffmpeg::Error::Other { errno }) if errno == ffmpeg::util::error::EAGAIN => {}
                Err(error) => return Err(error),
            }
            if self.draining {
                return Ok(false);
            }
            // A packet of its own each time: `av_read_frame` does not free
            // what a packet read into already holds (reusing one leaked the
            // whole file's worth over a clip).
            let mut packet = ffmpeg::Packet::empty();
            match packet.read(&mut self.input) {
                Ok(()) if packet.stream() == self.stream => {
                    // A packet the decoder refuses (corrupt data) is skipped,
                    // as players and OpenCV skip it.
                    let _ = self.decoder.send_packet(&packet);
                }
                // Another stream's packet, or a corrupt one the demuxer can
                // resynchronise past.
                Ok(()) | Err(ffmpeg::Error::InvalidData) => {}
                Err(_) => {
                    self.decoder.send_eof()?;
                    self.draining = true;
                }
            }
        }
    }
}

/// The rotation a display matrix (9 × i32, as containers store it) asks
/// for, in whole degrees; `None` for a matrix of another size.
fn display_rotation(matrix: &[u8]) -> Option<i64> {
    let entries: Vec<i32> = matrix
        .chunks_exact(4)
        .map(|bytes| i32::from_ne_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
        .collect();
    if entries.len() != 9 {
        return None;
    }
    // SAFETY: `entries` holds the 9 values `av_display_rotation_get` reads.
    let degrees = unsafe { ffmpeg::ffi::av_display_rotation_get(entries.as_ptr()) };
    // NaN (a degenerate matrix) is no whole rotation either.
    degrees.is_finite().then(|| degrees.round() as i64)
}

fn is_420(format: ffmpeg::format::Pixel) -> bool {
    matches!(
        format,
        ffmpeg::format::Pixel::YUV420P | ffmpeg::format::Pixel::YUVJ420P
    )
}

/// Reads a clip frame by frame. Decoding reuses the frame's buffers, so a
/// long clip costs no more memory than a short one.
pub struct FrameReader {
    path: PathBuf,
    source: Source,
    fps: f64,
    declared_frames: Option<u64>,
    next_index: u64,
    size: (u32, u32),
    /// The part of each frame FFmpeg decodes that is converted to BGR.
    region: Option<Rect>,
}

impl FrameReader {
    /// Opens a clip and checks that it has a frame rate, decoded as
    /// [`Decoder::from_env`] says.
    pub fn open(path: &Path) -> Result<FrameReader, VideoError> {
        FrameReader::open_with(path, Decoder::from_env())
    }

    /// Opens a clip with the given decoder.
    pub fn open_with(path: &Path, decoder: Decoder) -> Result<FrameReader, VideoError> {
        let owned = path.to_path_buf();
        if !path.exists() {
            return Err(VideoError::Missing { path: owned });
        }
        if decoder == Decoder::Ffmpeg {
            if let Some(opened) = FfmpegClip::open(path) {
                return Ok(FrameReader {
                    path: owned,
                    source: Source::Ffmpeg(Box::new(opened.clip)),
                    fps: opened.fps,
                    declared_frames: opened.declared_frames,
                    next_index: 0,
                    size: opened.size,
                    region: None,
                });
            }
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
            source: Source::OpenCv(capture),
            fps,
            declared_frames,
            next_index: 0,
            size: (width.max(0.0) as u32, height.max(0.0) as u32),
            region: None,
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

    /// Which library decodes the clip.
    pub fn decoder(&self) -> Decoder {
        match self.source {
            Source::OpenCv(_) => Decoder::OpenCv,
            Source::Ffmpeg(_) => Decoder::Ffmpeg,
        }
    }

    /// Opens FFmpeg's decoder again, from the calling thread, before the
    /// first frame is read (a no-op after it, or for OpenCV): libavcodec's
    /// threads take the scheduling priority of the thread that starts them,
    /// and a reader handed to a thread of lower priority should decode at
    /// that priority.
    pub fn reopen_decoder_here(&mut self) -> Result<(), VideoError> {
        if let (Source::Ffmpeg(clip), 0) = (&mut self.source, self.next_index) {
            clip.decoder =
                FfmpegClip::open_decoder(&clip.parameters).map_err(|source| VideoError::Libav {
                    path: self.path.clone(),
                    frame: 0,
                    source,
                })?;
        }
        Ok(())
    }

    /// Converts only `region` of each frame FFmpeg decodes to BGR from now
    /// on (`None`: whole frames); the rest of [`Frame::image`] is left as
    /// the buffer was. Frames OpenCV decodes are whole.
    pub fn convert_only(&mut self, region: Option<Rect>) {
        self.region = region;
    }

    /// Decodes the next frame into `frame`. `Ok(false)` at the clean end of
    /// the clip; an error when the clip ends well before its declared length.
    pub fn read_into(&mut self, frame: &mut Frame) -> Result<bool, VideoError> {
        let index = self.next_index;
        let decoded = match &mut self.source {
            Source::OpenCv(capture) => {
                frame.decoded = None;
                capture
                    .read(&mut frame.image)
                    .map_err(|source| VideoError::OpenCv {
                        path: self.path.clone(),
                        frame: index,
                        source,
                    })?
                    && !frame.image.empty()
            }
            Source::Ffmpeg(clip) => {
                let decoded = frame.decoded.get_or_insert_with(|| Decoded {
                    frame: ffmpeg::frame::Video::empty(),
                    range: YuvRange::Studio,
                });
                let got =
                    clip.next_into(&mut decoded.frame)
                        .map_err(|source| VideoError::Libav {
                            path: self.path.clone(),
                            frame: index,
                            source,
                        })?;
                if got {
                    to_bgr(decoded, &mut frame.image, self.region)
                        .map_err(|error| error.at(&self.path, index))?;
                }
                got
            }
        };
        if !decoded {
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

/// Why a decoded frame could not be converted, before the file and frame
/// are known.
enum ConvertError {
    Format(ffmpeg::format::Pixel),
    Planes(PlaneTooShort),
    OpenCv(opencv::Error),
}

impl ConvertError {
    fn at(self, path: &Path, frame: u64) -> VideoError {
        let path = path.to_path_buf();
        match self {
            ConvertError::Format(format) => VideoError::FormatChanged {
                path,
                frame,
                format: format!("{format:?}"),
            },
            ConvertError::Planes(source) => VideoError::BadPlanes {
                path,
                frame,
                source,
            },
            ConvertError::OpenCv(source) => VideoError::OpenCv {
                path,
                frame,
                source,
            },
        }
    }
}

/// Converts `region` (or all) of a decoded frame into `image` (BGR, made
/// the frame's size if it is not).
fn to_bgr(
    decoded: &mut Decoded,
    image: &mut Mat,
    region: Option<Rect>,
) -> Result<(), ConvertError> {
    let format = decoded.frame.format();
    if !is_420(format) {
        return Err(ConvertError::Format(format));
    }
    decoded.range = match decoded.frame.color_range() {
        ffmpeg::util::color::Range::JPEG => YuvRange::Full,
        _ if format == ffmpeg::format::Pixel::YUVJ420P => YuvRange::Full,
        _ => YuvRange::Studio,
    };
    let planes = planes_of(&decoded.frame, decoded.range).map_err(ConvertError::Planes)?;
    let (width, height) = planes.size();
    let (rows, columns) = (height as i32, width as i32);
    if image.rows() != rows || image.cols() != columns || image.typ() != CV_8UC3 {
        *image = Mat::new_rows_cols_with_default(rows, columns, CV_8UC3, Scalar::all(0.0))
            .map_err(ConvertError::OpenCv)?;
    }
    let bytes = image.data_bytes_mut().map_err(ConvertError::OpenCv)?;
    planes.convert_region(bytes, region.unwrap_or(Rect::new(0, 0, columns, rows)));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures")
            .join(name)
            .join("clip.mp4")
    }

    #[test]
    fn ffmpeg_decodes_opencvs_frames_byte_for_byte_and_as_many() {
        let clip = fixture("fps60");
        let mut ours = FrameReader::open_with(&clip, Decoder::Ffmpeg).unwrap();
        let mut theirs = FrameReader::open_with(&clip, Decoder::OpenCv).unwrap();
        assert_eq!(ours.decoder(), Decoder::Ffmpeg);
        assert_eq!(theirs.decoder(), Decoder::OpenCv);
        assert_eq!(ours.fps(), theirs.fps());
        assert_eq!(ours.size(), theirs.size());
        assert_eq!(ours.declared_frames(), theirs.declared_frames());
        let (mut a, mut b) = (Frame::empty(), Frame::empty());
        let mut frames = 0;
        loop {
            let (got_a, got_b) = (
                ours.read_into(&mut a).unwrap(),
                theirs.read_into(&mut b).unwrap(),
            );
            assert_eq!(got_a, got_b, "frame {frames}: one decoder ended first");
            if !got_a {
                break;
            }
            assert_eq!((a.index, a.t), (b.index, b.t));
            assert!(a.planes().is_some() && b.planes().is_none());
            // Every tenth frame compared whole: libswscale's conversion,
            // reproduced to the bit.
            if frames % 10 == 0 {
                assert_eq!(
                    a.image.data_bytes().unwrap(),
                    b.image.data_bytes().unwrap(),
                    "frame {frames}"
                );
            }
            frames += 1;
        }
        assert!(frames > 30, "{frames} frames");
    }

    #[test]
    fn a_display_matrix_tells_its_rotation() {
        let matrix = |degrees: f64| {
            let mut entries = [0i32; 9];
            // SAFETY: `entries` holds the 9 values the call writes.
            unsafe { ffmpeg::ffi::av_display_rotation_set(entries.as_mut_ptr(), degrees) };
            entries
                .iter()
                .flat_map(|v| v.to_ne_bytes())
                .collect::<Vec<u8>>()
        };
        assert_eq!(display_rotation(&matrix(0.0)), Some(0));
        // FFmpeg's angles run anticlockwise; only whether it is 0 matters.
        assert_eq!(display_rotation(&matrix(90.0)).map(i64::abs), Some(90));
        assert_eq!(display_rotation(&matrix(180.0)).map(i64::abs), Some(180));
        assert_eq!(display_rotation(&[0u8; 12]), None);
        // The fixtures hold no rotation: FFmpeg decodes them.
        let reader = FrameReader::open_with(&fixture("fps60"), Decoder::Ffmpeg).unwrap();
        assert_eq!(reader.decoder(), Decoder::Ffmpeg);
    }

    #[test]
    fn a_reader_told_to_convert_a_region_leaves_the_rest_alone() {
        let clip = fixture("fps60");
        let mut whole = FrameReader::open_with(&clip, Decoder::Ffmpeg).unwrap();
        let mut part = FrameReader::open_with(&clip, Decoder::Ffmpeg).unwrap();
        let region = Rect::new(101, 40, 200, 120);
        part.convert_only(Some(region));
        let (mut a, mut b) = (Frame::empty(), Frame::empty());
        assert!(whole.read_into(&mut a).unwrap() && part.read_into(&mut b).unwrap());
        let (width, height) = whole.size();
        let (a, b) = (a.image.data_bytes().unwrap(), b.image.data_bytes().unwrap());
        for y in 0..height as i32 {
            for x in 0..width as i32 {
                let at = 3 * (y as usize * width as usize + x as usize);
                // The region from its even column on (whole chroma pairs).
                if (100..301).contains(&x) && (40..160).contains(&y) {
                    assert_eq!(a[at..at + 3], b[at..at + 3], "({x}, {y})");
                } else {
                    assert_eq!(b[at..at + 3], [0, 0, 0], "({x}, {y})");
                }
            }
        }
    }

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
