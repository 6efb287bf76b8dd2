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
readonly SEARCH_LIMIT=300

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
# `true` is the test for fixtures that need no particular event.

# Seconds of video rendered to estimate a seed's bitrate before committing to
# the whole clip (the look, and with it the sensor noise, varies by seed).
readonly PREVIEW_SECONDS=3

# estimate_bytes SEED ARGS...: the fixture's size if rendered in full, from
# a short preview of its video and the full truth (from the search run).
estimate_bytes() {
    local seed="$1"
    shift
    local truth frames preview_frames clip
    truth=$(du -sb "$search_dir/run" | cut -f1)
    frames=$(wc -l <"$search_dir/run/truth.tracks.jsonl")
    # The same options with a short --max-seconds (clap refuses it twice).
    local options=()
    while (($#)); do
        if [[ "$1" == --max-seconds ]]; then
            shift 2
        else
            options+=("$1")
            shift
        fi
    done
    rm -rf "$search_dir/preview"
    "$CARROM" sim --seed "$seed" --out "$search_dir/preview" "${options[@]}" \
        --max-seconds "$PREVIEW_SECONDS" 2>/dev/null || return 1
    preview_frames=$(wc -l <"$search_dir/preview/truth.tracks.jsonl")
    clip=$(stat -c %s "$search_dir/preview/clip.mp4")
    echo $((truth + clip * frames / (preview_frames > 0 ? preview_frames : 1)))
}

notes=()
# make_fixture NAME WHAT CAP_MB TEST ARGS...: renders the first seed whose
# truth passes TEST (`true` for any) and whose fixture should fit in CAP_MB.
make_fixture() {
    local name="$1" what="$2" cap_mb="$3" test="$4"
    shift 4
    local dir="fixtures/$name" cap=$((cap_mb * 1024 * 1024)) seed estimate size
    for ((seed = 0; seed < SEARCH_LIMIT; seed++)); do
        try_seed "$seed" "$@" && "$test" || continue
        if [[ -z "${NO_VIDEO:-}" ]]; then
            estimate=$(estimate_bytes "$seed" "$@") || continue
            # Leave a margin: the preview's bitrate is only an estimate.
            if ((estimate > cap * 9 / 10)); then
                echo "$name: seed $seed would make ~$estimate bytes, over $cap_mb MB" >&2
                continue
            fi
        fi
        rm -rf "$dir"
        "$CARROM" sim --seed "$seed" --out "$dir" "${video_flag[@]}" "$@"
        size=$(du -sb "$dir" | cut -f1)
        if ((size <= cap)); then
            notes+=("| \`$name/\` | $what | \`carrom sim --seed $seed $*\` |")
            return 0
        fi
        echo "$name: seed $seed made $size bytes, over $cap_mb MB" >&2
    done
    echo "$name: no seed below $SEARCH_LIMIT fits in $cap_mb MB" >&2
    return 1
}

make_fixture board-full "one singles board played to its finish (the README's sample clip)" 10 \
    has_finished_board --skill 1 --boards 1 --max-seconds 60
make_fixture jump "a carromman jumps the frame and is put back at the centre" 2 \
    has_jump --skill 0.3 --max-seconds 12
make_fixture striker-pocketed "the striker falls into a pocket (a due)" 6 \
    has_pocketed_striker --skill 0.5 --max-seconds 15
make_fixture queen-covered "the Queen is pocketed and covered" 4 \
    has_covered_queen --skill 1 --max-seconds 25
make_fixture fps60 "60 frames a second, doubles" 2 \
    true --fps 60 --event doubles --max-seconds 8
make_fixture hd1080 "1920x1080" 3 \
    true --width 1920 --height 1080 --max-seconds 6

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
