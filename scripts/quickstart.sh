#!/usr/bin/env bash
# Sets everything up on a fresh Debian/Ubuntu machine, builds the release binary
# and runs the main job on the bundled sample clip: track it and score it.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cargo build --release --locked
carrom=target/release/carrom
mkdir -p out

# The main job: video in, scored board log out (the readable log is printed).
"$carrom" score fixtures/board-full/clip.mp4 \
  --strokes out/sample.strokes.json -o out/sample.boardlog.json
echo "wrote out/sample.strokes.json and out/sample.boardlog.json"

# How close that came to what really happened in the clip.
"$carrom" eval --truth fixtures/board-full/truth.strokes.json --got out/sample.strokes.json \
  --truth-boards fixtures/board-full/truth.boardlog.json --got-boards out/sample.boardlog.json

"$carrom" board --png out/board.png --arrangement
echo "wrote out/board.png (the ICF board with the break arrangement)"
