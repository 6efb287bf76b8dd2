//! How far the tracker's rest positions are from the simulator's truth
//! ([`carrom::eval::rest_error`]): for every stroke that `carrom track` saw
//! come to rest, the pieces in its `extra.vision.rest` snapshot are paired
//! (same kind, nearest first) with the truth pieces lying on the board in
//! that frame. `scripts/accuracy.sh` uses it.
//!
//! Usage: `rest-error GOT.strokes.json truth.tracks.jsonl`; prints one JSON
//! object: `{"strokes": n, "pieces": n, "unpaired": n, "sum_mm": x, "max_mm": x,
//! "paired_without_outline": n, "unpaired_without_outline": n}` (the last
//! two: how many of the paired and unpaired pieces the snapshot marks
//! `no_outline`).

use std::path::PathBuf;

use anyhow::{bail, Context};

use carrom::contract::StrokeLog;
use carrom::eval::rest_error;
use carrom::sim::play::read_tracks;

fn main() -> anyhow::Result<()> {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let [got_path, truth_path] = args.as_slice() else {
        bail!("usage: rest-error GOT.strokes.json truth.tracks.jsonl");
    };
    let got = StrokeLog::from_path(got_path)
        .with_context(|| format!("cannot read {}", got_path.display()))?;
    let truth = read_tracks(truth_path)?;
    let error = rest_error(&got, &truth).with_context(|| format!("{}", got_path.display()))?;
    println!(
        "{{\"strokes\": {}, \"pieces\": {}, \"unpaired\": {}, \"sum_mm\": {:.3}, \"max_mm\": {:.3}, \"paired_without_outline\": {}, \"unpaired_without_outline\": {}}}",
        error.strokes,
        error.pieces,
        error.unpaired,
        error.sum_mm,
        error.max_mm,
        error.paired_without_outline,
        error.unpaired_without_outline
    );
    Ok(())
}
