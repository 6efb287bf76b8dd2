#!/usr/bin/env bash
# Speed of `carrom batch`: N simulated clips scored one after another with
# `carrom score`, then all at once with `carrom batch -j JOBS`; prints both
# wall times and their ratio (target: ratio <= 0.6 on 2 cores). REPEAT=N
# (default 2) runs both N times, interleaved, and keeps the fastest of each.
# It also prints the CPU time each way used and the cores each kept busy: one
# after another can keep more than one core busy (decoding runs on its own
# thread, OpenCV spreads some filters over threads), so on a quiet machine the
# best ratio on JOBS cores is about (cores busy one after another) / JOBS.
#
# Usage: scripts/bench-batch.sh [CLIPS] [SECONDS] [JOBS]
#   CARROM=path/to/carrom   use this binary instead of building one
#   WIDTH=1280 HEIGHT=720   clip size (default 640x360)
#   CLIPS_DIR=DIR           reuse clips made by an earlier run (kept there)
set -euo pipefail
clips=${1:-8}
seconds=${2:-20}
jobs=${3:-$(nproc)}
width=${WIDTH:-640}
height=${HEIGHT:-360}
cd "$(dirname "$0")/.."
if [[ -z "${CARROM:-}" ]]; then
  export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target}
  cargo build --release --quiet --bin carrom
  CARROM="$CARGO_TARGET_DIR/release/carrom"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dir=${CLIPS_DIR:-$work/clips}
for i in $(seq 1 "$clips"); do
  if [[ ! -f "$dir/$i/clip.mp4" ]]; then
    "$CARROM" sim --seed $((100 + i)) --out "$dir/$i" --max-seconds "$seconds" \
        --width "$width" --height "$height" 2>/dev/null
  fi
done

# The machine may be shared: each way runs REPEAT times, interleaved, and
# the fastest run of each counts (the least disturbed by other work).
repeat=${REPEAT:-2}
times=()
cpu=()
# CPU seconds (user + system) of the commands run by "$@".
cpu_of() {
  local log=$work/cpu.log
  : >"$log"
  "$@"
  awk '{ s += $1 + $2 } END { printf "%.2f", s }' "$log"
}
timed() { /usr/bin/time -a -o "$work/cpu.log" -f "%U %S" "$@"; }
one_by_one() {
  for i in $(seq 1 "$clips"); do
    timed "$CARROM" score "$dir/$i/clip.mp4" --strokes "$work/$i.strokes.json" \
        -o "$work/$i.boardlog.json" >/dev/null 2>&1 || echo "clip $i: carrom score failed" >&2
  done
}
all_at_once() {
  timed "$CARROM" batch "$dir" -j "$jobs" --out "$work/batch" >/dev/null 2>&1
}
for r in $(seq 1 "$repeat"); do
  t0=$(date +%s.%N)
  c1=$(cpu_of one_by_one)
  t1=$(date +%s.%N)
  c2=$(cpu_of all_at_once)
  t2=$(date +%s.%N)
  times+=("$t0" "$t1" "$t2")
  cpu+=("$c1" "$c2")
done

python3 - "$clips" "$seconds" "$jobs" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)" "${cpu[*]}" "${times[@]}" <<'PY'
import sys
clips, seconds, jobs, cores, load, cpu = sys.argv[1:7]
t = list(map(float, sys.argv[7:]))
c = list(map(float, cpu.split()))
runs = [(t[i + 1] - t[i], t[i + 2] - t[i + 1]) for i in range(0, len(t), 3)]
one_by_one = min(r[0] for r in runs)
batch = min(r[1] for r in runs)
every = ", ".join(f"{a:.1f}/{b:.1f}" for a, b in runs)
print(f"{clips} clips of {seconds} s on {cores} cores (load average {load}): "
      f"one after another {one_by_one:.1f} s, carrom batch -j {jobs} {batch:.1f} s, "
      f"ratio {batch / one_by_one:.2f} (target <= 0.6); every run (one-by-one/batch): {every}")
best = min(range(len(runs)), key=lambda i: runs[i][0])
fastest = min(range(len(runs)), key=lambda i: runs[i][1])
print("CPU time, every run (one-by-one/batch): "
      + ", ".join(f"{c[i]:.1f}/{c[i + 1]:.1f} s" for i in range(0, len(c), 2))
      + f"; cores kept busy: one after another {c[2 * best] / runs[best][0]:.2f}, "
      f"batch {c[2 * fastest + 1] / runs[fastest][1]:.2f} of {cores} "
      "(on a quiet machine the best ratio is about the first figure / JOBS; "
      "a batch figure well under JOBS means other work held the cores)")
PY
