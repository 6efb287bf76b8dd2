#!/usr/bin/env bash
# Regenerates the simulated clips in fixtures/ (everything but fixtures/strokes/).
#
# Each fixture is one `carrom sim` run: clip.mp4, truth.strokes.json,
# truth.boardlog.json, truth.tracks.jsonl and camera.json. Seeds that show an
# event (a jump, a pocketed striker, a covered Queen) are found by a search
# over seeds with --no-video, which is deterministic, so the script always
# picks the same seeds; fixtures/README.md records them.
#
# Usage: scripts/make-fixtures.sh            (builds carrom, then renders)
#        CARROM=path/to/carrom scripts/make-fixtures.sh
#        NO_VIDEO=1 scripts/make-fixtures.sh (truth only, for a quick check)
set -euo pipefail

cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}"
if [[ -z "${CARROM:-}" ]]; then
    cargo build --quiet --bin carrom
    CARROM="$CARGO_TARGET_DIR/debug/carrom"
fi
video_flag=()
if [[ -n "${NO_VIDEO:-}" ]]; then
    video_flag=(--no-video)
fi

# fixtures/ holds at most this much (the repository stays small).
readonly BUDGET_BYTES=$((25 * 1024 * 1024))
readonly SEARCH_LIMIT=500

search_dir="$(mktemp -d)"
trap 'rm -rf "$search_dir"' EXIT

# Truth-only run into the search directory.
try_seed() {
    local seed="$1"
    shift
    rm -rf "$search_dir/run"
    "$CARROM" sim --seed "$seed" --out "$search_dir/run" --no-video "$@" 2>/dev/null
}

# Pocketed-or-overboard tests on the pretty-printed truth.
has_jump() { grep -q '"overboard": \[$' "$search_dir/run/truth.strokes.json"; }
has_pocketed_striker() {
    grep -A1 '"piece": "striker"' "$search_dir/run/truth.strokes.json" | grep -q '"pocket"'
}
has_covered_queen() { grep -q '"queen": "covered"' "$search_dir/run/truth.boardlog.json"; }
has_finished_board() { grep -q '"result": {' "$search_dir/run/truth.boardlog.json"; }

# find_seed TEST ARGS...: the first seed whose truth passes TEST.
find_seed() {
    local test="$1"
    shift
    local seed
    for ((seed = 0; seed < SEARCH_LIMIT; seed++)); do
        if try_seed "$seed" "$@" && "$test"; then
            echo "$seed"
            return 0
        fi
    done
    echo "no seed below $SEARCH_LIMIT passes $test with $*" >&2
    return 1
}

notes=()
# make NAME WHAT SEED ARGS...: renders one fixture.
make() {
    local name="$1" what="$2" seed="$3"
    shift 3
    local dir="fixtures/$name"
    rm -rf "$dir"
    "$CARROM" sim --seed "$seed" --out "$dir" "${video_flag[@]}" "$@"
    notes+=("| \`$name/\` | $what | \`carrom sim --seed $seed $*\` |")
}

full_args=(--skill 1 --boards 1 --max-seconds 75)
make board-full "one singles board played to its finish (the README's sample clip)" \
    "$(find_seed has_finished_board "${full_args[@]}")" "${full_args[@]}"

jump_args=(--skill 0.3 --max-seconds 12)
make jump "a carromman jumps the frame and is put back at the centre" \
    "$(find_seed has_jump "${jump_args[@]}")" "${jump_args[@]}"

striker_args=(--skill 0.5 --max-seconds 15)
make striker-pocketed "the striker falls into a pocket (a due)" \
    "$(find_seed has_pocketed_striker "${striker_args[@]}")" "${striker_args[@]}"

queen_args=(--skill 1 --max-seconds 45)
make queen-covered "the Queen is pocketed and covered" \
    "$(find_seed has_covered_queen "${queen_args[@]}")" "${queen_args[@]}"

make fps60 "60 frames a second, doubles" 1 --fps 60 --event doubles --max-seconds 10
make hd1080 "1920x1080" 2 --width 1920 --height 1080 --max-seconds 8

{
    echo "# Simulated clips with ground truth"
    echo
    echo "Made by \`scripts/make-fixtures.sh\` (do not edit by hand). Each directory holds"
    echo "\`clip.mp4\`, \`truth.strokes.json\` (what really happened), \`truth.boardlog.json\`"
    echo "(what the laws make of it), \`truth.tracks.jsonl\` (one frame of truth per line)"
    echo "and \`camera.json\` (the true camera). \`strokes/\` holds hand-written stroke logs."
    echo
    echo "| fixture | shows | made with |"
    echo "| --- | --- | --- |"
    printf '%s\n' "${notes[@]}"
} >fixtures/README.md

total=$(du -sb --exclude=strokes fixtures | cut -f1)
echo "fixtures/: $total bytes of simulated clips (budget $BUDGET_BYTES)"
if ((total > BUDGET_BYTES)); then
    echo "fixtures/ is over its budget: shorten the clips" >&2
    exit 1
fi
