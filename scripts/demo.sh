#!/usr/bin/env bash
# The demo: builds cairn, generates tests for the C files in examples/, then
# compiles and runs the generated drivers with gcov and prints the measured
# coverage next to what cairn predicted.
#
#   scripts/demo.sh [OUT_DIR]      (default: ./out-demo)
set -euo pipefail
cd "$(dirname "$0")/.."

out_dir=${1:-out-demo}

scripts/setup.sh
echo "== building cairn (release)"
cargo build --release --quiet -p cairn

rm -rf "$out_dir"
echo "== cairn gen examples/*.c -o $out_dir --check"
"${CARGO_TARGET_DIR:-target}"/release/cairn gen examples/*.c -o "$out_dir" --check
echo "== drivers and test descriptions are in $out_dir/"
