#!/usr/bin/env bash
# Accuracy of `carrom track` + `carrom score` on freshly simulated clips.
# Usage: scripts/accuracy.sh [FIRST_SEED] [COUNT]   (report: 500 30; tuning: 100 30)
# Prints `carrom eval` per clip and the totals; exits non-zero below the targets.
set -euo pipefail
first=${1:-500}
count=${2:-30}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/work/main/target}
cargo build --release --quiet
bin="$CARGO_TARGET_DIR/release/carrom"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
exact=0; total=0; boards_ok=0; boards=0
for seed in $(seq "$first" $((first + count - 1))); do
  dir="$work/$seed"
  "$bin" sim --seed "$seed" --out "$dir" >/dev/null
  "$bin" score "$dir/clip.mp4" --calibration "$dir/camera.json" \
      --strokes "$dir/got.strokes.json" -o "$dir/got.boardlog.json" >/dev/null || true
  report=$("$bin" eval --truth "$dir/truth.strokes.json" --got "$dir/got.strokes.json" \
      --truth-boards "$dir/truth.boardlog.json" --got-boards "$dir/got.boardlog.json" --format json || true)
  echo "seed $seed: $report" | head -c 400; echo
  read -r e t bo b < <(python3 -c '
import json,sys
r=json.loads(sys.argv[1] or "{}")
b=r.get("boards") or []
print(r.get("exactly_right",0), r.get("truth_strokes",0), sum(1 for x in b if x.get("right")), len(b))' "$report")
  exact=$((exact + e)); total=$((total + t)); boards_ok=$((boards_ok + bo)); boards=$((boards + b))
done
echo "strokes exactly right: $exact / $total"
echo "finished boards right: $boards_ok / $boards"
python3 -c "import sys; sys.exit(0 if $total and $exact >= 0.99*$total and $boards_ok == $boards else 1)"
