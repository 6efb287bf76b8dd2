//! `carrom track`: a video in, the stroke log out (and a review video).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

use carrom::contract::{MatchSetup, StrokeLog};
use carrom::sim::camera::Camera;
use carrom::strokes::{track_clip, ClipOutcome, SessionOptions};

/// What `carrom track` and `carrom score` share: the clip, its camera and match.
#[derive(Debug, clap::Args)]
pub struct Input {
    /// The video of the board from the overhead camera.
    pub video: PathBuf,
    /// The camera calibration: a camera JSON file (as `carrom sim` writes
    /// beside its clips), or `auto`. Default: camera.json beside the video.
    #[arg(long, value_name = "FILE|auto")]
    pub calibration: Option<String>,
    /// The match (players, seats, first breaker) as the `match` object of a
    /// stroke log. Default: singles between the seat of the first stroke and
    /// the seat across, the first striker breaking.
    #[arg(long = "match", value_name = "FILE")]
    pub match_file: Option<PathBuf>,
    /// Write a review video of the top view with tracks, identities, the
    /// stroke number and event labels.
    #[arg(long, value_name = "FILE")]
    pub overlay: Option<PathBuf>,
    /// Scale of the top view the vision works on, px per board mm.
    #[arg(long, value_name = "N", default_value_t = SessionOptions::default().px_per_mm)]
    pub px_per_mm: f64,
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
        "carrom: {} strokes in {} frames of {} → {}",
        outcome.log.strokes.len(),
        outcome.frames,
        args.input.video.display(),
        output.display()
    );
    fail_after_writing(outcome, &output)
}

/// Runs the vision over the clip.
pub fn track(input: &Input) -> anyhow::Result<ClipOutcome> {
    let camera = load_camera(input)?;
    let setup = match &input.match_file {
        Some(path) => Some(load_match(path)?),
        None => None,
    };
    let options = SessionOptions {
        px_per_mm: input.px_per_mm,
        overlay: input.overlay.clone(),
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

fn load_camera(input: &Input) -> anyhow::Result<Camera> {
    let path = match input.calibration.as_deref() {
        Some("auto") => bail!(
            "automatic calibration is not available yet; pass --calibration with a camera JSON file"
        ),
        Some(file) => PathBuf::from(file),
        None => input.video.with_file_name("camera.json"),
    };
    let text = std::fs::read_to_string(&path).with_context(|| {
        format!(
            "cannot read the calibration {} (pass --calibration FILE)",
            path.display()
        )
    })?;
    serde_json::from_str(&text)
        .with_context(|| format!("{} is not a camera calibration", path.display()))
}

fn load_match(path: &Path) -> anyhow::Result<MatchSetup> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the match file {}", path.display()))?;
    serde_json::from_str(&text)
        .with_context(|| format!("{} is not a match description", path.display()))
}
