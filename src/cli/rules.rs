//! `carrom rules`: applies the laws to a stroke log and prints the board log
//! (or a report of it).

use std::path::PathBuf;

use anyhow::Context as _;

use carrom::contract::StrokeLog;
use carrom::report;
use carrom::rules::Engine;

/// How to print the scored match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The board log (`carrom-boardlog` JSON).
    Json,
    /// One readable line per stroke, board results and running scores.
    Text,
    /// The ICF score card.
    Scorecard,
    /// The boards as the SoL tournament manager records them (JSON).
    Sol,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The stroke log (`carrom-strokes` JSON).
    pub strokes: PathBuf,
    /// Write here instead of standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Json)]
    pub format: Format,
    /// Award every extra point the ICF laws give "if demanded" (ICF 102–112).
    #[arg(long)]
    pub demand_extra_points: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let file = args.strokes.display().to_string();
    let mut log = StrokeLog::from_path(&args.strokes)
        .with_context(|| format!("cannot read stroke log {file}"))?;
    log.match_setup.demand_extra_points |= args.demand_extra_points;
    let mut engine = Engine::new(&log.match_setup)
        .with_context(|| format!("{file}: cannot score this match"))?;
    for stroke in &log.strokes {
        engine
            .play(stroke)
            .with_context(|| format!("{file}: cannot score this stroke"))?;
    }
    let board_log = engine.board_log();
    let mut rendered = match args.format {
        Format::Json => board_log.to_json()?,
        Format::Text => report::text(&board_log),
        Format::Scorecard => report::scorecard(&board_log),
        Format::Sol => report::sol(&board_log)?,
    };
    if !rendered.ends_with('\n') {
        rendered.push('\n');
    }
    match &args.output {
        Some(path) => std::fs::write(path, rendered)
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => print!("{rendered}"),
    }
    Ok(())
}
