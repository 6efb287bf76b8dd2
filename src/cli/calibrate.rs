//! `carrom calibrate`: finds the board in an image, a video or a live camera,
//! fits the ICF model, and writes the calibration and an overlay picture.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use nalgebra::Point2;
use opencv::core::{Mat, Vector};
use opencv::{imgcodecs, prelude::*, videoio};

use carrom::calibrate::overlay::draw_overlay;
use carrom::calibrate::{
    calibrate_best, calibrate_frame, CalibrateError, CalibrateOptions, Calibration, SouthSide,
};
use carrom::detect::video::open_capture;

/// File endings read as still images; anything else is opened as a video.
const IMAGE_EXTENSIONS: [&str; 8] = ["png", "jpg", "jpeg", "bmp", "tif", "tiff", "webp", "ppm"];

/// Find the board in a frame and fit the ICF model to it.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// An image, a video (several frames are tried, the best fit kept) or a
    /// camera index (0, 1, ...).
    pub input: String,
    /// Where to write the calibration JSON (printed to stdout when omitted).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Where to write a PNG of the frame with the fitted model drawn over it.
    #[arg(long)]
    pub overlay: Option<PathBuf>,
    /// Which side of the image the south seat is on.
    #[arg(long, default_value = "bottom", value_parser = parse_south)]
    pub south: SouthSide,
    /// The four surface corners in image pixels, `x1,y1,...,x4,y4`, in any
    /// order; skips the automatic board search.
    #[arg(long, value_parser = parse_corners, allow_hyphen_values = true)]
    pub corners: Option<Corners>,
    /// How many frames of a video or camera to try.
    #[arg(long, default_value_t = 8)]
    pub frames: usize,
}

/// Four image points given on the command line.
#[derive(Debug, Clone, Copy)]
pub struct Corners(pub [Point2<f64>; 4]);

pub(crate) fn parse_south(text: &str) -> Result<SouthSide, String> {
    text.parse()
}

fn parse_corners(text: &str) -> Result<Corners, String> {
    let numbers: Vec<f64> = text
        .split(',')
        .map(|s| {
            s.trim()
                .parse::<f64>()
                .map_err(|_| format!("'{}' is not a number", s.trim()))
        })
        .collect::<Result<_, _>>()?;
    if numbers.len() != 8 || numbers.iter().any(|n| !n.is_finite()) {
        return Err(format!(
            "expected 8 numbers x1,y1,...,x4,y4, got {}",
            numbers.len()
        ));
    }
    Ok(Corners(std::array::from_fn(|i| {
        Point2::new(numbers[2 * i], numbers[2 * i + 1])
    })))
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<()> {
    let options = CalibrateOptions {
        south: args.south,
        corners: args.corners.map(|c| c.0),
        source: args.input.clone(),
    };
    let (calibration, frame) = match classify(&args.input) {
        Input::Image(path) => {
            let frame = read_image(&path)?;
            let calibration = match calibrate_frame(&frame, &options) {
                Ok(c) => c,
                Err(error) => {
                    // A refused fit still gets its overlay: it shows why.
                    if let (
                        CalibrateError::PoorFit {
                            attempt: Some(attempt),
                            ..
                        },
                        Some(out),
                    ) = (&error, &args.overlay)
                    {
                        let picture =
                            draw_overlay(&frame, attempt).context("drawing the overlay")?;
                        write_png(&picture, out)?;
                    }
                    return Err(error).with_context(|| format!("calibrating {}", path.display()));
                }
            };
            (calibration, frame)
        }
        Input::Video(path) => {
            let capture =
                open_capture(&path).with_context(|| format!("opening video {}", path.display()))?;
            let frames = sample_frames(capture, &args.input, args.frames)
                .with_context(|| format!("reading video {}", path.display()))?;
            best_of(frames, &options).with_context(|| format!("calibrating {}", path.display()))?
        }
        Input::Camera(index) => {
            let capture = videoio::VideoCapture::new_def(index)
                .with_context(|| format!("opening camera {index}"))?;
            let frames = sample_frames(capture, &args.input, args.frames)
                .with_context(|| format!("reading camera {index}"))?;
            best_of(frames, &options).with_context(|| format!("calibrating camera {index}"))?
        }
    };
    let r = &calibration.residuals;
    eprintln!(
        "calibrated {}: {}x{}, south at the {}, residual median {:.2} mm ({:.2} px), p95 {:.2} mm, \
         max {:.2} mm over {} of {} marking points; f {:.0} px{}, k1 {:.4}, k2 {:.4}",
        calibration.source,
        calibration.image_width,
        calibration.image_height,
        calibration.south,
        r.median_mm,
        r.median_px,
        r.p95_mm,
        r.max_mm,
        r.inliers,
        r.points,
        calibration.lens.fx,
        if calibration.focal_measured { "" } else { " (assumed)" },
        calibration.lens.k1,
        calibration.lens.k2,
    );
    if let Some(path) = &args.overlay {
        let picture = draw_overlay(&frame, &calibration).context("drawing the overlay")?;
        write_png(&picture, path)?;
    }
    match &args.out {
        Some(path) => {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("creating directory {}", dir.display()))?;
            }
            calibration.save(path)?;
        }
        None => println!("{}", serde_json::to_string_pretty(&calibration)?),
    }
    Ok(())
}

enum Input {
    Image(PathBuf),
    Video(PathBuf),
    Camera(i32),
}

fn classify(input: &str) -> Input {
    let path = Path::new(input);
    if !path.exists() {
        if let Ok(index) = input.parse::<i32>() {
            return Input::Camera(index);
        }
    }
    let is_image = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| IMAGE_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()));
    if is_image {
        Input::Image(path.to_path_buf())
    } else {
        Input::Video(path.to_path_buf())
    }
}

fn read_image(path: &Path) -> anyhow::Result<Mat> {
    // Read the bytes ourselves: a missing or unreadable file then gets the
    // operating system's reason instead of OpenCV's silent empty image.
    let bytes =
        std::fs::read(path).with_context(|| format!("cannot read image {}", path.display()))?;
    let buffer = Vector::<u8>::from_slice(&bytes);
    let frame = imgcodecs::imdecode(&buffer, imgcodecs::IMREAD_COLOR)
        .with_context(|| format!("decoding image {}", path.display()))?;
    if frame.empty() {
        bail!(
            "{} is not an image this program can decode (PNG, JPEG, BMP, TIFF, WebP)",
            path.display()
        );
    }
    Ok(frame)
}

/// Up to `count` frames spread over a video (or the next frames of a camera).
pub(crate) fn sample_frames(
    mut capture: videoio::VideoCapture,
    label: &str,
    count: usize,
) -> anyhow::Result<Vec<(String, Mat)>> {
    if !capture.is_opened()? {
        bail!("cannot open it as a video or camera");
    }
    let total = capture.get(videoio::CAP_PROP_FRAME_COUNT).unwrap_or(0.0);
    let count = count.max(1);
    let mut frames = Vec::new();
    for i in 0..count {
        if total > 1.0 {
            let index = ((i as f64 + 0.5) * total / count as f64).floor();
            capture.set(videoio::CAP_PROP_POS_FRAMES, index)?;
        }
        let mut frame = Mat::default();
        if !capture.read(&mut frame)? || frame.empty() {
            continue;
        }
        let position = capture.get(videoio::CAP_PROP_POS_FRAMES).unwrap_or(0.0) - 1.0;
        frames.push((format!("{label}#frame{}", position.max(0.0)), frame));
    }
    if frames.is_empty() {
        bail!("no frame could be read");
    }
    Ok(frames)
}

fn best_of(
    frames: Vec<(String, Mat)>,
    options: &CalibrateOptions,
) -> anyhow::Result<(Calibration, Mat)> {
    let labelled: Vec<(String, Mat)> = frames.clone();
    let calibration = calibrate_best(labelled, options)?;
    let frame = frames
        .into_iter()
        .find(|(label, _)| *label == calibration.source)
        .map(|(_, f)| f)
        .context("the best frame went missing")?;
    Ok((calibration, frame))
}

fn write_png(image: &Mat, path: &Path) -> anyhow::Result<()> {
    let mut bytes = Vector::<u8>::new();
    let encoded = imgcodecs::imencode(".png", image, &mut bytes, &Vector::new())
        .with_context(|| format!("encoding overlay {}", path.display()))?;
    if !encoded {
        bail!(
            "OpenCV declined to encode overlay {} as PNG",
            path.display()
        );
    }
    std::fs::write(path, bytes.as_slice())
        .with_context(|| format!("writing overlay {}", path.display()))
}
