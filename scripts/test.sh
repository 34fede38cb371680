#!/usr/bin/env bash
# The whole test suite: unit, golden and end-to-end tests of every crate
# (the end-to-end tests run cairn on tests/corpus and check coverage with gcov).
# Built in release mode because symbolic execution tests are slow in debug.
# Prints compile progress and the test summary lines; exits non-zero on any
# failure, after printing the failing tests' output.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh

log=$(mktemp)
trap 'rm -f "$log"' EXIT

echo "== cargo test --workspace --release"
status=0
cargo test --workspace --release 2>&1 | tee "$log" |
    { grep --line-buffered -E '^ *(Compiling|Finished|Running|Doc-tests) |^test result:|^error' || true; } ||
    status=$?

if ((status != 0)); then
    if grep -q '^failures:$' "$log"; then
        # cargo prints each failing test's output under "failures:".
        sed -n '/^failures:$/,/^test result:/p' "$log"
    else
        tail -n 60 "$log" # a build error
    fi
    echo "== FAILED: cargo test exited with $status"
    exit "$status"
fi
echo "== all tests passed"
