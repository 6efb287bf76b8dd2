//! How much of the time the tracker follows each piece: for every frame of
//! the simulator's truth, each piece on the board is covered when a track
//! seen in that frame (`carrom track --tracks`) lies within 20 mm of it,
//! whatever kind it is read as. Pieces in motion (over 150 mm/s) and pieces
//! lying still are counted apart: a missed pocketing starts as a piece in
//! motion nobody follows.
//!
//! Usage: `track-coverage GOT.tracks.jsonl truth.tracks.jsonl`; prints one
//! JSON object: `{"moving": n, "moving_covered": n, "resting": n,
//! "resting_covered": n}`.

use std::collections::HashMap;
use std::fs;
use std::path::PathBuf;

use anyhow::{bail, Context};

use carrom::sim::play::read_tracks;
use carrom::sim::scene::PieceState;

/// A track this near (mm) a piece follows it.
const COVERED_MM: f64 = 20.0;

/// A piece faster than this (mm/s) is in motion.
const MOVING_MM_S: f64 = 150.0;

fn main() -> anyhow::Result<()> {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let [got_path, truth_path] = args.as_slice() else {
        bail!("usage: track-coverage GOT.tracks.jsonl truth.tracks.jsonl");
    };
    let text = fs::read_to_string(got_path)
        .with_context(|| format!("cannot read {}", got_path.display()))?;
    let mut seen: HashMap<u64, Vec<(f64, f64)>> = HashMap::new();
    for (index, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let row: serde_json::Value = serde_json::from_str(line)
            .with_context(|| format!("{} line {}", got_path.display(), index + 1))?;
        let frame = row["frame"]
            .as_u64()
            .with_context(|| format!("{} line {}: no frame", got_path.display(), index + 1))?;
        let pieces = row["pieces"].as_array().map(Vec::as_slice).unwrap_or(&[]);
        let at = pieces
            .iter()
            .filter(|p| p["seen"].as_bool() == Some(true))
            .filter_map(|p| Some((p["x"].as_f64()?, p["y"].as_f64()?)))
            .collect();
        seen.insert(frame, at);
    }
    let truth = read_tracks(truth_path)?;
    let (mut moving, mut moving_covered, mut resting, mut resting_covered) =
        (0u64, 0u64, 0u64, 0u64);
    for frame in &truth {
        let tracks = seen
            .get(&u64::from(frame.frame))
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        for piece in frame
            .pieces
            .iter()
            .filter(|p| p.state == PieceState::OnBoard)
        {
            let covered = tracks
                .iter()
                .any(|&(x, y)| (x - piece.x).hypot(y - piece.y) <= COVERED_MM);
            let speed = piece.vx.hypot(piece.vy);
            if speed > MOVING_MM_S {
                moving += 1;
                moving_covered += u64::from(covered);
            } else if speed == 0.0 {
                resting += 1;
                resting_covered += u64::from(covered);
            }
        }
    }
    println!(
        "{{\"moving\": {moving}, \"moving_covered\": {moving_covered}, \"resting\": {resting}, \"resting_covered\": {resting_covered}}}"
    );
    Ok(())
}
