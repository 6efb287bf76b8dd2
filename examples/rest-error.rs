//! How far the tracker's rest positions are from the simulator's truth:
//! for every stroke that `carrom track` saw come to rest, the pieces in its
//! `extra.vision.rest` snapshot are paired (same kind, nearest first) with
//! the truth pieces lying on the board in that frame, and the distances are
//! summed. `scripts/accuracy.sh` uses it.
//!
//! Usage: `rest-error GOT.strokes.json truth.tracks.jsonl`; prints one JSON
//! object: `{"strokes": n, "pieces": n, "unpaired": n, "sum_mm": x, "max_mm": x}`.

use std::path::PathBuf;

use anyhow::{bail, Context};
use serde::Deserialize;

use carrom::contract::StrokeLog;
use carrom::geometry::Piece;
use carrom::sim::play::read_tracks;
use carrom::sim::scene::PieceState;

/// A piece farther than this (mm) from every truth piece of its kind is a
/// tracking mistake, not a position error, and is counted apart.
const PAIR_LIMIT_MM: f64 = 20.0;

#[derive(Deserialize)]
struct Extra {
    vision: Vision,
}

#[derive(Deserialize)]
struct Vision {
    rest: Option<Rest>,
}

#[derive(Deserialize)]
struct Rest {
    frame: usize,
    pieces: Vec<Resting>,
}

#[derive(Deserialize)]
struct Resting {
    piece: Piece,
    x: f64,
    y: f64,
}

fn main() -> anyhow::Result<()> {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let [got_path, truth_path] = args.as_slice() else {
        bail!("usage: rest-error GOT.strokes.json truth.tracks.jsonl");
    };
    let got = StrokeLog::from_path(got_path)
        .with_context(|| format!("cannot read {}", got_path.display()))?;
    let truth = read_tracks(truth_path)?;
    let (mut strokes, mut pieces, mut unpaired) = (0usize, 0usize, 0usize);
    let (mut sum, mut max) = (0.0f64, 0.0f64);
    for (index, stroke) in got.strokes.iter().enumerate() {
        let Some(extra) = &stroke.extra else { continue };
        let extra: Extra = serde_json::from_value(extra.clone())
            .with_context(|| format!("stroke {index}: extra.vision is malformed"))?;
        let Some(rest) = extra.vision.rest else {
            continue;
        };
        let frame = truth.get(rest.frame).with_context(|| {
            format!(
                "stroke {index}: frame {} is past the truth's end",
                rest.frame
            )
        })?;
        strokes += 1;
        // The striker is usually back in a hand by then; carrommen only.
        let seen: Vec<&Resting> = rest
            .pieces
            .iter()
            .filter(|p| p.piece != Piece::Striker)
            .collect();
        let mut truth_used = vec![false; frame.pieces.len()];
        let mut seen_used = vec![false; seen.len()];
        let mut pairs = Vec::new();
        for (si, s) in seen.iter().enumerate() {
            for (ti, t) in frame.pieces.iter().enumerate() {
                if t.kind == s.piece && t.state == PieceState::OnBoard {
                    let d = (s.x - t.x).hypot(s.y - t.y);
                    if d <= PAIR_LIMIT_MM {
                        pairs.push((d, si, ti));
                    }
                }
            }
        }
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
        for (d, si, ti) in pairs {
            if seen_used[si] || truth_used[ti] {
                continue;
            }
            seen_used[si] = true;
            truth_used[ti] = true;
            pieces += 1;
            sum += d;
            max = max.max(d);
        }
        unpaired += seen_used.iter().filter(|u| !**u).count();
    }
    println!(
        "{{\"strokes\": {strokes}, \"pieces\": {pieces}, \"unpaired\": {unpaired}, \"sum_mm\": {sum:.3}, \"max_mm\": {max:.3}}}"
    );
    Ok(())
}
