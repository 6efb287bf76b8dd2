#!/usr/bin/env bash
# Runs the whole test suite, installing whatever a fresh machine lacks first.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh --test
cargo test --locked --all-targets
