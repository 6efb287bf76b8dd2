#!/usr/bin/env bash
# Strokes exactly right, per clip and in total, for two builds of `carrom` on
# the same freshly simulated clips: how a change moved the tracker's accuracy
# on seeds it was never tuned on.
# Usage: scripts/compare-builds.sh OLD_CARROM NEW_CARROM [FIRST_SEED] [COUNT] [MAX_SECONDS]
#   CLIPS_DIR=DIR   keep the simulated clips there (and reuse those already
#                   there), to compare more builds on them later
#   REST_ERROR=BIN  the rest-error example (default: this checkout's release
#                   build, when built): also prints each build's mean rest error
#   SIM_ARGS="..."  extra `carrom sim` options for new clips, e.g.
#                   "--event doubles" or "--fps 60" (other matches and cameras)
set -euo pipefail
old=$1
new=$2
first=${3:-800}
count=${4:-30}
seconds=${5:-20}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
clips=${CLIPS_DIR:-$work}
rest_error=${REST_ERROR:-${CARGO_TARGET_DIR:-$(dirname "$0")/../target}/release/examples/rest-error}
for seed in $(seq "$first" $((first + count - 1))); do
  dir=$clips/$seed
  # shellcheck disable=SC2086
  if [[ ! -f $dir/clip.mp4 ]] && ! "$new" sim --seed "$seed" --out "$dir" --max-seconds "$seconds" --boards 1 ${SIM_ARGS:-} >/dev/null 2>&1; then
    echo "seed $seed: no clip"
    continue
  fi
  line="seed $seed:"
  for tag in old new; do
    bin=$old; [[ $tag == new ]] && bin=$new
    "$bin" score "$dir/clip.mp4" --calibration "$dir/camera.json" --strokes "$dir/$tag.json" \
        -o "$dir/$tag.boardlog.json" >/dev/null 2>&1 || true
    [[ -s $dir/$tag.json ]] || echo '{"version": 1, "strokes": []}' > "$dir/$tag.json"
    result=$("$new" eval --truth "$dir/truth.strokes.json" --got "$dir/$tag.json" --format json 2>/dev/null || echo '{}')
    line+=" $tag $(python3 -c '
import json, sys
r = json.loads(sys.argv[1])
print("%d/%d+%d" % (r.get("exactly_right", 0), r.get("truth_strokes", 0), len(r.get("extra", []))))' "$result")"
  done
  if [[ -x $rest_error ]]; then
    for tag in old new; do
      line+=" rest-$tag $("$rest_error" "$dir/$tag.json" "$dir/truth.tracks.jsonl" 2>/dev/null \
        | python3 -c 'import json, sys; r = json.load(sys.stdin); print("%d:%.3f" % (r["pieces"], r["sum_mm"]))' \
        || echo 0:0)"
    done
  fi
  echo "$line"
done | tee "$work/log"
python3 - "$work/log" <<'PY'
import re, sys
totals = {"old": [0, 0, 0], "new": [0, 0, 0]}
for line in open(sys.argv[1]):
    for tag, e, t, x in re.findall(r"(old|new) (\d+)/(\d+)\+(\d+)", line):
        for i, v in enumerate((e, t, x)):
            totals[tag][i] += int(v)
rest = {"old": [0, 0.0], "new": [0, 0.0]}
for line in open(sys.argv[1]):
    for tag, n, mm in re.findall(r"rest-(old|new) (\d+):([\d.]+)", line):
        rest[tag][0] += int(n)
        rest[tag][1] += float(mm)
for tag, (e, t, x) in totals.items():
    share = 100 * e / (t + x) if t + x else 0
    n, mm = rest[tag]
    at_rest = f"; rest error {mm / n:.2f} mm over {n} positions" if n else ""
    print(f"{tag}: {e}/{t} strokes exactly right, {x} extra ({share:.1f} %){at_rest}")
PY
