//! `carrom eval`: compares recognised strokes and boards with the truth.

use std::path::PathBuf;

use anyhow::{bail, Context};

use carrom::contract::{BoardLog, StrokeLog};
use carrom::eval::{evaluate, EvalOptions};

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The true stroke log (e.g. a simulator's truth.strokes.json).
    #[arg(long)]
    truth: PathBuf,
    /// The recognised stroke log (e.g. from `carrom track`).
    #[arg(long)]
    got: PathBuf,
    /// The true board log, to compare finished boards too (needs --got-boards).
    #[arg(long, requires = "got_boards")]
    truth_boards: Option<PathBuf>,
    /// The recognised board log (needs --truth-boards).
    #[arg(long, requires = "truth_boards")]
    got_boards: Option<PathBuf>,
    /// Largest start-time difference, in seconds, at which two strokes pair.
    #[arg(long, default_value_t = EvalOptions::default().time_tolerance_s)]
    tolerance: f64,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Exit non-zero unless at least this fraction of strokes is exactly right.
    #[arg(long)]
    min_exact: Option<f64>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if !(args.tolerance.is_finite() && args.tolerance >= 0.0) {
        bail!(
            "--tolerance must be a non-negative number of seconds, not {}",
            args.tolerance
        );
    }
    let read_strokes = |path: &PathBuf| {
        StrokeLog::from_path(path).with_context(|| format!("reading {}", path.display()))
    };
    let read_boards = |path: &PathBuf| {
        BoardLog::from_path(path).with_context(|| format!("reading {}", path.display()))
    };
    let truth = read_strokes(&args.truth)?;
    let got = read_strokes(&args.got)?;
    let boards = match (&args.truth_boards, &args.got_boards) {
        (Some(truth), Some(got)) => Some((read_boards(truth)?, read_boards(got)?)),
        _ => None,
    };
    let options = EvalOptions {
        time_tolerance_s: args.tolerance,
    };
    let report = evaluate(
        &truth,
        &got,
        boards.as_ref().map(|(truth, got)| (truth, got)),
        options,
    );
    match args.format {
        Format::Text => print!("{}", report.to_text()),
        Format::Json => println!("{}", serde_json::to_string_pretty(&report)?),
    }
    if let Some(minimum) = args.min_exact {
        if report.exact_fraction < minimum {
            bail!(
                "{:.1}% of strokes exactly right, below the required {:.1}%",
                100.0 * report.exact_fraction,
                100.0 * minimum
            );
        }
    }
    Ok(())
}
