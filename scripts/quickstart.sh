#!/usr/bin/env bash
# Sets everything up on a fresh Debian/Ubuntu machine, builds the release binary
# and runs the main job on the bundled sample.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cargo build --release --locked
carrom=target/release/carrom
mkdir -p out

"$carrom" board --png out/board.png --arrangement
echo "wrote out/board.png (the ICF board with the break arrangement)"

"$carrom" rules fixtures/strokes/singles-match.strokes.json -o out/singles-match.boardlog.json
"$carrom" rules fixtures/strokes/singles-match.strokes.json --format text
echo "wrote out/singles-match.boardlog.json"
