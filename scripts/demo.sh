#!/usr/bin/env bash
# The demo: builds cairn, generates tests for the C files in examples/ (scalar
# code and a linked-list playlist), then compiles and runs the generated
# drivers with gcov and the sanitizers and prints the measured coverage next
# to what cairn predicted.
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
# --sanitize also runs every driver under AddressSanitizer, UBSan and
# LeakSanitizer; --alloc-may-fail lets malloc return NULL where a branch needs it.
echo "== cairn gen examples/*.c -o $out_dir --check --sanitize --alloc-may-fail   (drivers, tests.json and shapes/ go to $out_dir/)"
"${CARGO_TARGET_DIR:-target}"/release/cairn gen examples/*.c -o "$out_dir" --check --sanitize --alloc-may-fail
