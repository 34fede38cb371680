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
cargo build --release -p cairn

# Clear what an earlier demo wrote there (only cairn's own outputs).
for example in examples/*.c; do
    stem=$(basename "$example" .c)
    rm -f "$out_dir/${stem}_test.c" "$out_dir/${stem}_findings.c" "$out_dir/$stem.tests.json"
done
rm -rf "$out_dir/shapes"
echo "== cairn gen examples/*.c -o $out_dir --check   (drivers and tests.json go to $out_dir/)"
"${CARGO_TARGET_DIR:-target}"/release/cairn gen examples/*.c -o "$out_dir" --check
