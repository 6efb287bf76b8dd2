#!/usr/bin/env bash
# Accuracy and speed benchmark of `carrom calibrate` on generated cameras.
# Reports on seeds 4000..4049 by default: held out until their one report
# (calib3); tuning used 1000..1119 and 5000..5099, and 2000..2049 and
# 3000..3049 were each held out once and looked at since, so a fresh range is
# needed for the next held-out report. It prints the
# success rate, marking-point error against the truth camera (median, max, mm),
# calibration time at 720p and 1080p, rectification time at 720p.
#   scripts/bench-calibrate.sh            # seeds 4000..4050
#   SEEDS=1000..1020 scripts/bench-calibrate.sh
#   LOOK=realistic SEEDS=1020..1120 scripts/bench-calibrate.sh   # one kind of frame
set -euo pipefail
cd "$(dirname "$0")/.."
export CALIBRATE_BENCH_SEEDS="${SEEDS:-4000..4050}"
export CALIBRATE_BENCH_LOOK="${LOOK:-both}"
echo "command: CALIBRATE_BENCH_LOOK=$CALIBRATE_BENCH_LOOK CALIBRATE_BENCH_SEEDS=$CALIBRATE_BENCH_SEEDS cargo test --release --test calibrate_accuracy benchmark -- --ignored --nocapture"
cargo test --release --test calibrate_accuracy benchmark -- --ignored --nocapture
