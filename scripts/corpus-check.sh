#!/usr/bin/env bash
# Acceptance check of the test corpus, measured independently of cairn's own
# report: for each file,
#   1. `cairn gen FILE --check` must succeed (drivers pass, claims measured);
#   2. the generated driver, rebuilt here with `gcc --coverage`, must print
#      "K passed, 0 failed";
#   3. every branch gcov saw untaken must be on a line marked
#      `/* infeasible: <why> */` in the source.
# Prints a table per file (branches taken/total, uncovered explained,
# uncovered unexplained) and exits 1 when any file fails a condition.
#
#   scripts/corpus-check.sh [FILE.c...]     (default: tests/corpus/scalar/*.c)
#
# Environment: CAIRN (path of the binary; default: build target/release/cairn),
# CORPUS_FLAGS (flags for cairn gen; default "--max-time 60": a budget generous
# enough that coverage does not hinge on the speed of a shared machine; the
# figures at default budgets are in BENCHMARKS.md).
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/use-cairn.sh
default_flags="--max-time 60"
read -r -a extra_flags <<<"${CORPUS_FLAGS-$default_flags}"

if (($# > 0)); then
    files=("$@")
else
    files=(tests/corpus/scalar/*.c)
fi

work=$(mktemp -d /tmp/cairn-corpus.XXXXXX)
trap 'rm -rf "$work"' EXIT

failures=0
printf '| %-12s | %-4s | %-20s | %-8s | %-10s | %-11s | %-7s |\n' file gen driver branches infeasible unexplained seconds
echo "|--------------|------|----------------------|----------|------------|-------------|---------|"
for file in "${files[@]}"; do
    stem=$(basename "$file" .c)
    out=$work/$stem build=$work/$stem-build
    mkdir -p "$build"
    problems=()

    start=$EPOCHREALTIME
    gen_status=ok
    if ! "$CAIRN" gen "$file" -o "$out" --check "${extra_flags[@]}" >"$work/$stem.log" 2>&1; then
        gen_status=FAIL
        problems+=("cairn gen --check failed: see below")
    fi
    seconds=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')

    driver_status="not built"
    taken=0 total=0 explained=0 unexplained=()
    # Built and gcov-ed from inside OUT, where the driver's relative #include
    # of the source resolves, so that gcov finds the source too.
    if [[ -f $out/${stem}_test.c ]] &&
        (cd "$out" && gcc -w --coverage -c "${stem}_test.c" -o "$build/${stem}_test.o" &&
            gcc --coverage "$build/${stem}_test.o" -o "$build/driver" -lm) 2>"$work/$stem.cc.log"; then
        verdict=$(cd "$build" && timeout 60 ./driver 2>&1 | tail -n 1) || true
        driver_status=$verdict
        [[ $verdict =~ ^[0-9]+\ passed,\ 0\ failed$ ]] || problems+=("driver: ${verdict:-no output}")

        (cd "$out" && gcov -b -c -o "$build" "${stem}_test.c" >/dev/null 2>&1) || true
        gcov_file=$out/$stem.c.gcov
        if [[ -f $gcov_file ]]; then
            # Per branch: source line number and text, taken or not.
            while IFS=$'\t' read -r state line text; do
                total=$((total + 1))
                if [[ $state == taken ]]; then
                    taken=$((taken + 1))
                elif [[ $text == *"/* infeasible:"* ]]; then
                    explained=$((explained + 1))
                else
                    unexplained+=("$line: ${text#"${text%%[![:space:]]*}"}")
                fi
            done < <(awk '
                match($0, /^ *[^ :]+: *[0-9]+:/) { split($0, f, ":"); line = f[2] + 0; text = substr($0, RLENGTH + 1) }
                /^branch / { state = ($0 ~ /taken [1-9]/) ? "taken" : "untaken"; print state "\t" line "\t" text }
            ' "$gcov_file")
        else
            problems+=("gcov produced no report for $stem.c")
        fi
    else
        problems+=("driver does not build")
    fi
    if ((${#unexplained[@]} > 0)); then
        problems+=("branches not covered and not marked infeasible (count, line):")
        mapfile -t grouped < <(printf '%s\n' "${unexplained[@]}" | uniq -c)
        problems+=("${grouped[@]}")
    fi

    printf '| %-12s | %-4s | %-20s | %4d/%-3d | %10d | %11d | %7s |\n' "$stem" "$gen_status" "$driver_status" \
        "$taken" "$total" "$explained" "${#unexplained[@]}" "$seconds"
    if ((${#problems[@]} > 0)); then
        failures=$((failures + 1))
        printf '    %s\n' "${problems[@]}"
        if [[ $gen_status == FAIL ]]; then
            sed 's/^/    | /' "$work/$stem.log" | tail -n 40
        fi
        if [[ $driver_status == "not built" && -s $work/$stem.cc.log ]]; then
            sed 's/^/    | /' "$work/$stem.cc.log" | head -n 20
        fi
    fi
done

echo
if ((failures > 0)); then
    echo "corpus check FAILED for $failures of ${#files[@]} files"
    exit 1
fi
echo "corpus check passed: ${#files[@]} files, all feasible branches covered"
