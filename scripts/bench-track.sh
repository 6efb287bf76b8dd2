#!/usr/bin/env bash
# Speed of `carrom track` on a 720p30 simulated clip: decoding alone with
# OpenCV (the baseline), the whole pipeline, their ratio, real-time factor,
# and max RSS for a short and a long clip (memory must stay flat), with the
# 1-minute load average before and after the timed runs (the machine may be
# shared). Also decoding alone as `carrom track` decodes (FFmpeg called
# directly, no frame converted), for reference: not the ratio's baseline.
# Usage: scripts/bench-track.sh [SHORT_SECONDS] [LONG_SECONDS]
# BASELINE_CARROM=/path/to/carrom: also times that build of `carrom track` on
# the same clips, right after this one's, and prints its line too (before and
# after figures taken side by side under the same load).
# ROUNDS=N: times decoding and each build N times on each clip, in turn.
set -euo pipefail
short=${1:-60}
long=${2:-600}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/work/main/target}
# CARGO_FLAGS: extra cargo arguments, e.g. --config for a shared target dir.
# shellcheck disable=SC2086
cargo build --release --quiet ${CARGO_FLAGS:-} --bin carrom --example decode-only
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Copies, so another worktree building into the shared target dir cannot
# swap the binaries mid-run.
cp "$CARGO_TARGET_DIR/release/carrom" "$CARGO_TARGET_DIR/release/examples/decode-only" "$work/"
bin="$work/carrom"
decode="$work/decode-only"
builds=("this build:$bin")
if [ -n "${BASELINE_CARROM:-}" ]; then
  cp "$BASELINE_CARROM" "$work/carrom-baseline"
  builds+=("baseline:$work/carrom-baseline")
fi
for seconds in "$short" "$long"; do
  dir="$work/$seconds"
  "$bin" sim --seed 900 --out "$dir" --width 1280 --height 720 --fps 30 \
      --max-seconds "$seconds" --boards 8 >/dev/null
  for _ in $(seq "${ROUNDS:-1}"); do
    load0=$(cut -d' ' -f1 /proc/loadavg)
    t0=$(date +%s.%N); "$decode" "$dir/clip.mp4" > "$dir/frames"; t1=$(date +%s.%N)
    f0=$(date +%s.%N); "$decode" "$dir/clip.mp4" --ffmpeg > /dev/null; f1=$(date +%s.%N)
    python3 -c "import sys; print(f'decode only with FFmpeg directly (no conversion; reference): {float(sys.argv[2]) - float(sys.argv[1]):.2f} s')" "$f0" "$f1"
    for build in "${builds[@]}"; do
      name=${build%%:*}
      carrom=${build#*:}
      t2=$(date +%s.%N)
      /usr/bin/time -f "%M" -o "$dir/rss" "$carrom" track "$dir/clip.mp4" --calibration "$dir/camera.json" \
          -o "$dir/got.json" 2>"$dir/said"
      t3=$(date +%s.%N)
      load1=$(cut -d' ' -f1 /proc/loadavg)
      # A build that says how many frames it passed over as unchanged.
      passed=$(grep -o '([0-9]* unchanged' "$dir/said" | tr -dc 0-9 || true)
      python3 - "$seconds" "$(cat "$dir/frames")" "$t0" "$t1" "$t2" "$t3" "$(cat "$dir/rss")" "$load0" "$load1" "$name" "$passed" <<'PY'
import sys
limit, frames = sys.argv[1], int(sys.argv[2])
t0, t1, t2, t3 = map(float, sys.argv[3:7])
rss, load0, load1, name = int(sys.argv[7]), sys.argv[8], sys.argv[9], sys.argv[10]
passed = f", {sys.argv[11]} frames passed over as unchanged" if sys.argv[11] else ""
clip = frames / 30.0
decode, track = t1 - t0, t3 - t2
print(f"clip {clip:.0f} s ({frames} frames, --max-seconds {limit}): decode only (OpenCV) {decode:.2f} s, "
      f"track {track:.2f} s ({name}), ratio {track/decode:.2f}x, {clip/track:.1f}x real time, "
      f"max RSS {rss/1024:.0f} MiB, load average {load0} before, {load1} after{passed}")
PY
    done
  done
done
