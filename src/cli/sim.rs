//! `carrom sim`: plays a match by the laws and writes the clip with its
//! ground truth (stroke log, board log, per-frame tracks, camera).

use std::path::PathBuf;

use anyhow::{bail, Context};
use opencv::core::Mat;

use carrom::contract::Event;
use carrom::sim::camera::Camera;
use carrom::sim::play::{self, PlayConfig, Simulation};
use carrom::sim::render::{Appearance, Renderer};
use carrom::sim::video::ClipWriter;
use carrom::sim::{seeded_rng, Stream};

/// The camera model, as `camera.json` in the output directory.
pub const CAMERA_FILE: &str = "camera.json";
/// The rendered footage, in the output directory.
pub const CLIP_FILE: &str = "clip.mp4";

/// Play and render a match clip with ground truth.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Seed: the same seed gives the same match, camera and look.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Directory to write into (created if missing).
    #[arg(long)]
    out: PathBuf,
    /// Boards to play to their finish.
    #[arg(long, default_value_t = 1)]
    boards: u32,
    /// Video width in pixels.
    #[arg(long, default_value_t = 1280)]
    width: u32,
    /// Video height in pixels.
    #[arg(long, default_value_t = 720)]
    height: u32,
    /// Frames per second.
    #[arg(long, default_value_t = 30)]
    fps: u32,
    /// Longest clip in seconds: play stops before a stroke that would end later.
    #[arg(long, default_value_t = 600.0)]
    max_seconds: f64,
    /// Players' skill from 0 (wild aim) to 1 (expert).
    #[arg(long, default_value_t = 0.8)]
    skill: f64,
    /// Singles (south v north) or doubles (all four seats).
    #[arg(long, value_enum, default_value_t = EventArg::Singles)]
    event: EventArg,
    /// Write only the truth files and the camera, no video (fast).
    #[arg(long)]
    no_video: bool,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum EventArg {
    Singles,
    Doubles,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.width < 16 || args.height < 16 {
        bail!(
            "--width/--height {}x{} is too small (at least 16x16)",
            args.width,
            args.height
        );
    }
    let config = PlayConfig {
        seed: args.seed,
        fps: args.fps,
        boards: args.boards,
        max_seconds: args.max_seconds,
        skill: args.skill,
        event: match args.event {
            EventArg::Singles => Event::Singles,
            EventArg::Doubles => Event::Doubles,
        },
        ..PlayConfig::default()
    };
    config.validate()?;
    let camera = Camera::random(
        &mut seeded_rng(args.seed, Stream::Camera),
        args.width,
        args.height,
    )
    .context("cannot set up the camera")?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create the output directory {}", args.out.display()))?;
    let simulation = play::simulate(&config).context("cannot play the match")?;
    simulation
        .write_truth(&args.out)
        .context("cannot write the truth")?;
    let camera_path = args.out.join(CAMERA_FILE);
    let camera_json = serde_json::to_string_pretty(&camera).context("cannot encode the camera")?;
    std::fs::write(&camera_path, camera_json + "\n")
        .with_context(|| format!("cannot write {}", camera_path.display()))?;
    if !args.no_video {
        write_clip(&simulation, &camera, &args)?;
    }
    eprintln!(
        "carrom sim: seed {}: {} strokes, {} boards finished, {} frames ({:.1} s) in {}",
        args.seed,
        simulation.strokes.strokes.len(),
        simulation.boards_finished,
        simulation.frames.len(),
        simulation.frames.len() as f64 / f64::from(args.fps),
        args.out.display()
    );
    Ok(())
}

/// Renders every frame of truth through the camera into [`CLIP_FILE`], with
/// a look drawn from the seed's appearance stream.
fn write_clip(simulation: &Simulation, camera: &Camera, args: &Args) -> anyhow::Result<()> {
    let look = Appearance::random(&mut seeded_rng(args.seed, Stream::Appearance));
    let mut renderer = Renderer::new(&look, camera).context("cannot set up the renderer")?;
    let path = args.out.join(CLIP_FILE);
    let mut writer = ClipWriter::create(
        &path,
        f64::from(args.fps),
        (camera.width(), camera.height()),
    )
    .with_context(|| format!("cannot open {} for writing", path.display()))?;
    let mut image = Mat::default();
    for frame in &simulation.frames {
        renderer
            .render(frame, &mut image)
            .with_context(|| format!("cannot render frame {}", frame.frame))?;
        writer
            .write(&image)
            .with_context(|| format!("cannot write frame {} to {}", frame.frame, path.display()))?;
    }
    writer
        .finish()
        .with_context(|| format!("cannot finish {}", path.display()))?;
    Ok(())
}
