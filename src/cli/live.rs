//! `carrom live`: score a match as it is played, with an optional
//! scoreboard page.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context};

use carrom::contract::MatchSetup;
use carrom::live::server::{serve, Hub};
use carrom::live::source::SourceSpec;
use carrom::live::{calibration_to_carry_on, run_session, CameraModel, LiveOptions, LiveView};
use carrom::strokes::SessionOptions;

/// Score a match live from a camera, stream or file.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A camera index (0 is /dev/video0), a stream URL (rtsp://, http://)
    /// or a video file.
    #[arg(long, value_name = "0|URL|FILE")]
    pub camera: String,
    /// Play a file at its real speed, as a camera would deliver it.
    #[arg(long)]
    pub realtime: bool,
    /// Where the journal and the documents go. A folder that already holds
    /// a journal for the same source is carried on from.
    #[arg(long, value_name = "DIR", default_value = "live-out")]
    pub out: PathBuf,
    /// Serve the scoreboard page at this address (e.g. 127.0.0.1:8080).
    #[arg(long, value_name = "ADDR")]
    pub serve: Option<String>,
    /// The camera: a calibration from `carrom calibrate` (checked for drift
    /// and refitted when the board is bumped) or a camera JSON of
    /// `carrom sim`. Default for a file: camera.json beside it.
    #[arg(long, value_name = "FILE")]
    pub calibration: Option<PathBuf>,
    /// The match (players, seats, first breaker) as the `match` object of a
    /// stroke log. Default: singles between the first striker's seat and the
    /// seat across.
    #[arg(long = "match", value_name = "FILE")]
    pub match_file: Option<PathBuf>,
    /// Give up when the camera has delivered nothing for this many seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 300.0)]
    pub reconnect_for: f64,
    /// Check the calibration for drift this often while the board is still, seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub drift_every: f64,
    /// Keep serving the page this many seconds after a file ends.
    #[arg(long, value_name = "SECONDS", default_value_t = 0.0)]
    pub linger: f64,
    /// Scale of the top view the vision works on, px per board mm.
    #[arg(long, value_name = "N", default_value_t = SessionOptions::default().px_per_mm)]
    pub px_per_mm: f64,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let source = SourceSpec::parse(&args.camera);
    let calibration = match (&args.calibration, &source) {
        (Some(path), _) => path.clone(),
        (None, SourceSpec::File(video)) => video.with_file_name("camera.json"),
        (None, _) => bail!("a camera or stream needs --calibration FILE (from carrom calibrate)"),
    };
    let calibration =
        match calibration_to_carry_on(&source, &calibration, &args.out).with_context(|| {
            format!(
                "cannot look for refitted calibrations in {}",
                args.out.display()
            )
        })? {
            Some(refit) => {
                eprintln!(
                    "carrom live: carrying on with the board as last refitted, {} (newer than {})",
                    refit.display(),
                    calibration.display()
                );
                refit
            }
            None => calibration,
        };
    let camera = CameraModel::load(&calibration)
        .with_context(|| format!("cannot load the camera {}", calibration.display()))?;
    let setup: Option<MatchSetup> = match &args.match_file {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read the match file {}", path.display()))?;
            Some(
                serde_json::from_str(&text)
                    .with_context(|| format!("{} is not a match description", path.display()))?,
            )
        }
        None => None,
    };
    if !(args.reconnect_for.is_finite() && args.reconnect_for >= 0.0) {
        bail!(
            "--reconnect-for must be a number of seconds, not {}",
            args.reconnect_for
        );
    }
    if !(args.drift_every.is_finite() && args.drift_every > 0.0) {
        bail!(
            "--drift-every must be a positive number of seconds, not {}",
            args.drift_every
        );
    }
    let options = LiveOptions {
        source: source.clone(),
        realtime: args.realtime,
        out: args.out.clone(),
        session: SessionOptions {
            px_per_mm: args.px_per_mm,
            ..SessionOptions::default()
        },
        reconnect_for: Duration::from_secs_f64(args.reconnect_for),
        drift_check_every_s: args.drift_every,
    };
    let hub = Hub::new(LiveView::new(&source));
    if let Some(addr) = &args.serve {
        let bound = serve(addr, hub.clone())
            .with_context(|| format!("cannot serve the scoreboard at {addr}"))?;
        // Tests and scripts read this line to find the page.
        eprintln!("carrom live: scoreboard at http://{bound}/");
    }
    let mut publish = |view: &LiveView| hub.publish(view);
    let summary = run_session(&options, camera, setup, &mut publish)
        .with_context(|| format!("live session on {} stopped", args.camera))?;
    eprintln!(
        "carrom live: {} strokes in {} ({} carried over from an earlier run), {} frames",
        summary.strokes,
        args.out.display(),
        summary.resumed,
        summary.frames
    );
    if args.serve.is_some() && args.linger > 0.0 {
        std::thread::sleep(Duration::from_secs_f64(args.linger));
    }
    Ok(())
}
