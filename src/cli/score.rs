//! `carrom score`: a video in, the scored board log out: track, then the laws.

use std::path::PathBuf;

use anyhow::Context;

use carrom::rules;

use super::track::{beside, fail_after_writing, track, write_log, Input};

/// Recognise the strokes in a video, apply the laws, and print the score.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub input: Input,
    /// The stroke log to write. Default: the video's name with .strokes.json.
    #[arg(long, value_name = "FILE")]
    pub strokes: Option<PathBuf>,
    /// The board log to write. Default: the video's name with .boardlog.json.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let strokes_path = args
        .strokes
        .unwrap_or_else(|| beside(&args.input.video, "strokes.json"));
    let boards_path = args
        .output
        .unwrap_or_else(|| beside(&args.input.video, "boardlog.json"));
    let outcome = track(&args.input)?;
    write_log(&outcome.log, &strokes_path)?;
    let (boards, skipped) = rules::score_recognised(&outcome.log)
        .with_context(|| format!("cannot score the strokes in {}", strokes_path.display()))?;
    for stroke in &skipped {
        eprintln!(
            "carrom: warning: {}: stroke {} left out of the scoring: {}",
            strokes_path.display(),
            stroke.index,
            stroke.reason
        );
    }
    let json = serde_json::to_string_pretty(&boards).context("cannot encode the board log")?;
    std::fs::write(&boards_path, json + "\n")
        .with_context(|| format!("cannot write the board log {}", boards_path.display()))?;
    print!("{}", carrom::report::text(&boards));
    fail_after_writing(outcome, &strokes_path)
}
