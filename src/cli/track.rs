//! `carrom track`: a video in, the stroke log out (and a review video).

use std::path::{Path, PathBuf};

use anyhow::Context;
use carrom::detect::video::open_capture;

use carrom::calibrate::{calibrate_best, CalibrateOptions, SouthSide};
use carrom::contract::{MatchSetup, StrokeLog};
use carrom::live::CameraModel;
use carrom::strokes::{track_clip, ClipOutcome, SessionOptions};

/// Frames sampled across the clip for `--calibration auto`: the best fit
/// counts, so hands or pieces over the markings in a few do not matter.
const AUTO_CALIBRATION_FRAMES: usize = 8;

/// What `carrom track` and `carrom score` share: the clip, its camera and match.
#[derive(Debug, clap::Args)]
pub struct Input {
    /// The video of the board from the overhead camera.
    pub video: PathBuf,
    /// The camera calibration: a file from `carrom calibrate`, a camera JSON
    /// (as `carrom sim` writes beside its clips), or `auto` to calibrate from
    /// frames of the clip itself. Default: camera.json beside the video.
    #[arg(long, value_name = "FILE|auto")]
    pub calibration: Option<String>,
    /// With `--calibration auto`: the side of the image the south seat is
    /// on (bottom, top, left, right), as for `carrom calibrate`.
    #[arg(long, default_value = "bottom", value_parser = super::calibrate::parse_south)]
    pub south: SouthSide,
    /// The match (players, seats, first breaker) as the `match` object of a
    /// stroke log. Default: singles between the seat of the first stroke and
    /// the seat across, the first striker breaking.
    #[arg(long = "match", value_name = "FILE")]
    pub match_file: Option<PathBuf>,
    /// Write a review video of the top view with tracks, identities, the
    /// stroke number and event labels.
    #[arg(long, value_name = "FILE")]
    pub overlay: Option<PathBuf>,
    /// Write every frame's tracks (identity, kind, position, velocity,
    /// hidden), the arms' seats and the events as JSON Lines, shaped like the
    /// simulator's truth.tracks.jsonl.
    #[arg(long, value_name = "FILE")]
    pub tracks: Option<PathBuf>,
    /// Scale of the top view the vision works on, px per board mm.
    #[arg(long, value_name = "N", default_value_t = SessionOptions::default().px_per_mm)]
    pub px_per_mm: f64,
    /// Look at every frame in full, even those that show nothing new since
    /// the last one looked at (by default those are passed over, and the
    /// last frame's pieces stand for theirs): slower, for comparison.
    #[arg(long)]
    pub every_frame: bool,
}

/// Recognise the strokes in a video and write the stroke log.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub input: Input,
    /// The stroke log to write. Default: the video's name with .strokes.json.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let output = args
        .output
        .unwrap_or_else(|| beside(&args.input.video, "strokes.json"));
    let outcome = track(&args.input)?;
    write_log(&outcome.log, &output)?;
    eprintln!(
        "carrom: {} strokes in {} frames ({} unchanged, passed over) of {} → {}",
        outcome.log.strokes.len(),
        outcome.frames,
        outcome.passed_over,
        args.input.video.display(),
        output.display()
    );
    fail_after_writing(outcome, &output)
}

/// Runs the vision over the clip.
pub fn track(input: &Input) -> anyhow::Result<ClipOutcome> {
    // Said first: the calibration looked for beside a missing video would
    // be missing too, and that is not what went wrong.
    if !input.video.exists() {
        anyhow::bail!("video {} does not exist", input.video.display());
    }
    let camera = load_camera(input)?;
    let setup = match &input.match_file {
        Some(path) => Some(load_match(path)?),
        None => None,
    };
    let options = SessionOptions {
        px_per_mm: input.px_per_mm,
        overlay: input.overlay.clone(),
        tracks: input.tracks.clone(),
        pass_over_unchanged: !input.every_frame,
        ..SessionOptions::default()
    };
    track_clip(&input.video, &camera, setup, &options)
        .with_context(|| format!("cannot track {}", input.video.display()))
}

/// Turns a failure part-way through into the command's error, once the
/// strokes recognised before it are safely written.
pub fn fail_after_writing(outcome: ClipOutcome, written: &Path) -> anyhow::Result<()> {
    match outcome.failure {
        None => Ok(()),
        Some(failure) => Err(anyhow::Error::new(failure).context(format!(
            "tracking stopped after frame {}; the {} strokes recognised before it are in {}",
            outcome.frames,
            outcome.log.strokes.len(),
            written.display()
        ))),
    }
}

/// `VIDEO` with its extension replaced by `extension`.
pub fn beside(video: &Path, extension: &str) -> PathBuf {
    video.with_extension(extension)
}

pub fn write_log(log: &StrokeLog, path: &Path) -> anyhow::Result<()> {
    let text = log.to_json().context("cannot encode the stroke log")?;
    std::fs::write(path, text + "\n")
        .with_context(|| format!("cannot write the stroke log {}", path.display()))
}

fn load_camera(input: &Input) -> anyhow::Result<CameraModel> {
    let path = match input.calibration.as_deref() {
        Some("auto") => return auto_calibration(input),
        Some(file) => PathBuf::from(file),
        None => input.video.with_file_name("camera.json"),
    };
    if !path.exists() {
        anyhow::bail!(
            "cannot read the calibration {} (pass --calibration FILE or --calibration auto)",
            path.display()
        );
    }
    CameraModel::load(&path)
        .with_context(|| format!("{} is not a camera calibration", path.display()))
}

/// Calibrates from frames sampled across the clip, as `carrom calibrate
/// VIDEO` does, and says how well the board's markings fitted.
fn auto_calibration(input: &Input) -> anyhow::Result<CameraModel> {
    let label = input.video.display().to_string();
    let capture = open_capture(&label)
        .with_context(|| format!("cannot open {label} to calibrate from it"))?;
    let frames = super::calibrate::sample_frames(capture, &label, AUTO_CALIBRATION_FRAMES)
        .with_context(|| format!("cannot read {label} to calibrate from it"))?;
    let options = CalibrateOptions {
        south: input.south,
        corners: None,
        source: label.clone(),
    };
    let calibration = calibrate_best(frames, &options).with_context(|| {
        format!("cannot calibrate from {label}; calibrate once with `carrom calibrate` and pass --calibration FILE")
    })?;
    let r = &calibration.residuals;
    eprintln!(
        "carrom: calibrated from {}: residual median {:.2} mm, max {:.2} mm over {} marking points",
        calibration.source, r.median_mm, r.max_mm, r.inliers
    );
    Ok(CameraModel::Calibrated(calibration))
}

fn load_match(path: &Path) -> anyhow::Result<MatchSetup> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the match file {}", path.display()))?;
    serde_json::from_str(&text)
        .with_context(|| format!("{} is not a match description", path.display()))
}
