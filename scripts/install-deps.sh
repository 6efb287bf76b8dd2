#!/usr/bin/env bash
# Installs the system packages carrom-vision builds against, only those missing.
# Usage: scripts/install-deps.sh [--test]
# Debian 12 / Ubuntu 22.04+: OpenCV 4.6 headers and libraries, FFmpeg's
# (which `carrom track` decodes with directly), and clang, which the opencv
# and ffmpeg-next crates use to generate their bindings.
set -euo pipefail

packages=(libopencv-dev libavcodec-dev libavformat-dev libavutil-dev clang libclang-dev pkg-config)
# `--test` adds what only the test suite needs: headless Chromium, which
# watches the live scoreboard page end to end.
if [[ ${1:-} == --test ]]; then
  packages+=(chromium)
fi
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if ((${#missing[@]})); then
  echo "carrom setup: installing ${missing[*]}" >&2
  if [[ $(id -u) -eq 0 ]]; then
    sudo=()
  elif command -v sudo >/dev/null; then
    sudo=(sudo)
  else
    echo "carrom setup: need root or sudo to install: ${missing[*]}" >&2
    exit 1
  fi
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v cargo >/dev/null; then
  cat >&2 <<'MSG'
carrom setup: no Rust toolchain found. Install it with rustup
(https://rustup.rs), then run this command again.
MSG
  exit 1
fi
