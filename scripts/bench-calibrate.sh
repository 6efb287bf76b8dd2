#!/usr/bin/env bash
# Accuracy and speed benchmark of `carrom calibrate` on generated cameras.
# Reports on the held-out seeds 3000..3049 (tuning used 1000..1019 and
# 1020..1119; 2000..2049 were held out once and have been looked at since):
# success rate, marking-point error against the truth camera (median, max, mm),
# calibration time at 720p and 1080p, rectification time at 720p.
#   scripts/bench-calibrate.sh            # held-out seeds
#   SEEDS=1000..1020 scripts/bench-calibrate.sh
#   LOOK=realistic SEEDS=1020..1120 scripts/bench-calibrate.sh   # one kind of frame
set -euo pipefail
cd "$(dirname "$0")/.."
export CALIBRATE_BENCH_SEEDS="${SEEDS:-3000..3050}"
export CALIBRATE_BENCH_LOOK="${LOOK:-both}"
echo "command: CALIBRATE_BENCH_LOOK=$CALIBRATE_BENCH_LOOK CALIBRATE_BENCH_SEEDS=$CALIBRATE_BENCH_SEEDS cargo test --release --test calibrate_accuracy benchmark -- --ignored --nocapture"
cargo test --release --test calibrate_accuracy benchmark -- --ignored --nocapture
