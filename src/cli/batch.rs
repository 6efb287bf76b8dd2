//! `carrom batch`: many clips scored in parallel, summed up as a table,
//! JSON and CSV.

use std::path::PathBuf;

use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressStyle};

use carrom::batch::{
    find_clips, run_batch, summary_csv, summary_table, BatchOptions, ClipSummary, Shard,
};
use carrom::strokes::SessionOptions;

/// Summary files written into `--out`.
const SUMMARY_TEXT: &str = "summary.txt";
const SUMMARY_JSON: &str = "summary.json";
const SUMMARY_CSV: &str = "summary.csv";

/// Score many clips in parallel and sum them up.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Clips, folders (searched for videos to any depth) or glob patterns
    /// (quoted, e.g. 'runs/*/clip.mp4'). Each clip needs camera.json beside it
    /// (a simulator camera or a calibration) or --calibration; truth.strokes.json
    /// beside it adds the accuracy columns.
    #[arg(required = true, value_name = "DIR|GLOB|CLIP")]
    pub inputs: Vec<PathBuf>,
    /// Clips scored at the same time. Default: one per core.
    #[arg(short, long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Where each clip's logs (a folder per clip) and the summaries go.
    #[arg(long, value_name = "DIR", default_value = "batch-out")]
    pub out: PathBuf,
    /// Score only this share of the sorted clip list: every n-th clip from
    /// the i-th (1 ≤ i ≤ n), for spreading a batch over machines.
    #[arg(long, value_name = "i/n")]
    pub shard: Option<Shard>,
    /// The camera for clips without a camera.json beside them: a
    /// calibration from `carrom calibrate` (many recordings of one table)
    /// or a simulator camera.
    #[arg(long, value_name = "FILE")]
    pub calibration: Option<PathBuf>,
    /// Scale of the top view the vision works on, px per board mm.
    #[arg(long, value_name = "N", default_value_t = SessionOptions::default().px_per_mm)]
    pub px_per_mm: f64,
    /// Exit non-zero when any clip failed.
    #[arg(long)]
    pub strict: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let mut clips = find_clips(&args.inputs).context("cannot list the clips")?;
    if let Some(shard) = args.shard {
        clips = shard.select(&clips);
    }
    if clips.is_empty() {
        bail!("no clips to score in {:?}", args.inputs);
    }
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if jobs > 1 {
        // Clips in parallel use the cores better than OpenCV's threads inside
        // each frame, which would only contend with them.
        opencv::core::set_num_threads(1).context("cannot set OpenCV's thread count")?;
    }
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let options = BatchOptions {
        jobs,
        out: args.out.clone(),
        session: SessionOptions {
            px_per_mm: args.px_per_mm,
            // With a clip on every core, a decoding thread per clip only
            // adds hand-over costs.
            decode_ahead: jobs == 1,
            ..SessionOptions::default()
        },
        calibration: args.calibration.clone(),
    };
    let progress = ProgressBar::new(clips.len() as u64);
    progress.set_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} clips, {elapsed} elapsed, eta {eta} {msg}",
        )
        .context("bad progress template")?,
    );
    let on_done = |summary: &ClipSummary| {
        match &summary.error {
            Some(error) => progress.println(format!("{}: FAILED: {error}", summary.name)),
            None => progress.set_message(summary.name.clone()),
        }
        progress.inc(1);
    };
    let rows = run_batch(&clips, &options, &on_done);
    progress.finish_and_clear();

    let table = summary_table(&rows);
    print!("{table}");
    let write = |name: &str, text: String| {
        let path = args.out.join(name);
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
    };
    write(SUMMARY_TEXT, table)?;
    write(
        SUMMARY_JSON,
        serde_json::to_string_pretty(&rows).context("cannot encode the summary")? + "\n",
    )?;
    write(SUMMARY_CSV, summary_csv(&rows))?;
    let failed = rows.iter().filter(|r| !r.ok()).count();
    eprintln!(
        "carrom batch: {} clips, {failed} failed; summaries in {}",
        rows.len(),
        args.out.display()
    );
    if args.strict && failed > 0 {
        bail!("{failed} of {} clips failed", rows.len());
    }
    Ok(())
}
