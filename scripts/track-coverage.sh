#!/usr/bin/env bash
# How much of the time two builds of `carrom track` follow the pieces, on the
# same simulated clips: the share of frames in which each piece on the board
# has a track seen within 20 mm, pieces in motion and pieces at rest apart
# (`examples/track-coverage.rs`). A missed pocketing starts as a piece in
# motion nobody follows.
# Usage: scripts/track-coverage.sh OLD_CARROM NEW_CARROM [FIRST_SEED] [COUNT] [MAX_SECONDS]
#   CLIPS_DIR=DIR   keep the simulated clips there (and reuse those already there)
set -euo pipefail
old=$1
new=$2
first=${3:-800}
count=${4:-20}
seconds=${5:-20}
coverage=${CARGO_TARGET_DIR:-$(dirname "$0")/../target}/release/examples/track-coverage
[[ -x $coverage ]] || { echo "build it first: cargo build --release --example track-coverage" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
clips=${CLIPS_DIR:-$work}
for seed in $(seq "$first" $((first + count - 1))); do
  dir=$clips/$seed
  if [[ ! -f $dir/clip.mp4 ]] && ! "$new" sim --seed "$seed" --out "$dir" --max-seconds "$seconds" --boards 1 >/dev/null 2>&1; then
    echo "seed $seed: no clip" >&2
    continue
  fi
  for tag in old new; do
    bin=$old; [[ $tag == new ]] && bin=$new
    "$bin" track "$dir/clip.mp4" --calibration "$dir/camera.json" -o "$work/$tag.strokes.json" \
        --tracks "$work/$tag.tracks.jsonl" >/dev/null 2>&1 || true
    echo "$tag $("$coverage" "$work/$tag.tracks.jsonl" "$dir/truth.tracks.jsonl")"
  done
done | python3 -c '
import json, sys
totals = {}
for line in sys.stdin:
    tag, row = line.split(" ", 1)
    t = totals.setdefault(tag, [0, 0, 0, 0])
    r = json.loads(row)
    for i, k in enumerate(("moving", "moving_covered", "resting", "resting_covered")):
        t[i] += r[k]
for tag, (m, mc, r, rc) in totals.items():
    print(f"{tag}: pieces in motion followed in {mc}/{m} frames ({100 * mc / max(m, 1):.1f} %), at rest {rc}/{r} ({100 * rc / max(r, 1):.2f} %)")
'
