#!/usr/bin/env bash
# Benchmarks cairn on a corpus, one `cairn gen --json` run per function, and
# prints a markdown table: goals, goals covered, tests, input objects the
# tests build (the most in one test / all tests together), paths, solver
# calls, engine seconds, wall seconds of the whole run (front end and emit
# included), its peak resident memory, and the goals the cheap phase covered
# (sampled inputs, no solver asked per branch).
#
#   scripts/bench.sh [FILE.c...]     (default: tests/corpus/scalar/*.c)
#
# Environment: CAIRN (path of the binary; default: build target/release/cairn),
# BENCH_FLAGS (extra flags for cairn gen, e.g. "--max-time 30").
# Figures are measurements, not assertions; record them in BENCHMARKS.md with
# the machine and the date.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/use-cairn.sh
read -r -a extra_flags <<<"${BENCH_FLAGS:-}"

if (($# > 0)); then
    files=("$@")
else
    files=(tests/corpus/scalar/*.c)
fi

work=$(mktemp -d /tmp/cairn-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

echo "| file | function | goals | covered | tests | input objects (most / all) | paths | solver calls | engine s | wall s | peak MB | cheap goals |"
echo "|------|----------|------:|--------:|------:|------:|------:|-------------:|---------:|-------:|--------:|------:|"

total_wall=0 runs=0 worst_rss=0
for file in "${files[@]}"; do
    # `cairn goals` prints a "NAME (N goals)" header line per function.
    functions=$("$CAIRN" goals "$file" | awk '/^[A-Za-z_][A-Za-z0-9_]* \([0-9]+ goals\)$/ { print $1 }')
    for fn in $functions; do
        json=$work/$fn.json timing=$work/$fn.time
        status=0
        /usr/bin/time -v -o "$timing" "$CAIRN" gen "$file" -f "$fn" --json -o "$work/$fn" \
            "${extra_flags[@]}" >"$json" 2>"$work/$fn.stderr" || status=$?
        wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {
            n = split($2, t, ":"); s = 0
            for (i = 1; i <= n; i++) s = s * 60 + t[i]
            printf "%.2f", s }' "$timing")
        rss_kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$timing")
        if ((status != 0)); then
            printf '| %s | %s | cairn exited with %d: %s |||||||||\n' "$(basename "$file")" "$fn" "$status" \
                "$(head -n1 "$work/$fn.stderr")"
            continue
        fi
        # The summary on stdout names tests.json, which holds the engine statistics.
        tests_json=$(jq -r '.tests_json' "$json")
        jq -r --slurpfile summary "$json" --arg file "$(basename "$file")" --arg fn "$fn" \
            --arg wall "$wall" --arg rss "$rss_kb" '
            (.functions[] | select(.name == $fn)) as $f |
            ($summary[0].functions[] | select(.name == $fn)) as $s |
            ([$f.tests[].inputs.objects | length]) as $objects |
            "| \($file) | \($fn) | \($s.branches_total) | \($s.branches_covered) | \($s.tests) | \($objects | max // 0) / \($objects | add // 0) | \($f.stats.paths) | \($f.stats.solver_calls) | \($f.stats.elapsed_ms / 10 | round / 100) | \($wall) | \(($rss | tonumber) / 1024 | floor) | \($f.stats.cheap_goals // 0) |"
        ' "$tests_json"
        total_wall=$(awk -v a="$total_wall" -v b="$wall" 'BEGIN { print a + b }')
        runs=$((runs + 1))
        if ((rss_kb > worst_rss)); then worst_rss=$rss_kb; fi
    done
done
echo
printf 'functions: %d, total wall time: %.1f s, largest peak memory: %d MB\n' \
    "$runs" "$total_wall" $((worst_rss / 1024))
