//! The `carrom` command: argument parsing and output over the `carrom` library.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cli;

/// Watches a carrom board and keeps the score by the ICF laws.
#[derive(Debug, Parser)]
#[command(name = "carrom", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Draw the exact ICF board as seen from above (the calibration template).
    Board(cli::board::Args),
    /// Find the board in an image, video or camera and fit the ICF model to it.
    Calibrate(cli::calibrate::Args),
    /// Apply the laws to a stroke log and write the scored board log.
    Rules(cli::rules::Args),
    /// Play and render a match clip with ground truth (for testing the vision).
    Sim(cli::sim::Args),
    /// Compare recognised strokes and boards with the truth.
    Eval(cli::eval::Args),
    /// Recognise the strokes in a video of a match and write the stroke log.
    Track(cli::track::Args),
    /// Recognise the strokes in a video, apply the laws and print the score.
    Score(cli::score::Args),
    /// Score a match live from a camera, stream or file, with a scoreboard page.
    Live(cli::live::Args),
    /// Score many clips in parallel and sum them up (text, JSON, CSV).
    Batch(cli::batch::Args),
    /// Write a match report as one self-contained HTML page.
    Report(cli::report::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Board(args) => cli::board::run(args),
        Command::Calibrate(args) => cli::calibrate::run(args),
        Command::Rules(args) => cli::rules::run(args),
        Command::Sim(args) => cli::sim::run(args),
        Command::Eval(args) => cli::eval::run(args),
        Command::Track(args) => cli::track::run(args),
        Command::Score(args) => cli::score::run(args),
        Command::Live(args) => cli::live::run(args),
        Command::Batch(args) => cli::batch::run(args),
        Command::Report(args) => cli::report::run(args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            // `{:#}` prints the whole context chain on one line: what failed and why.
            eprintln!("carrom: error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
