#!/usr/bin/env bash
# Trust check on the library corpus (tests/corpus/library): for each file,
#   1. cairn gen + cairn check --sanitize: every driver runs to the end and
#      its tests pass;
#   2. the driver rebuilt with -DCORPUS_CHECK_INVARIANTS (each public
#      function then checks its input and its result with the library's own
#      predicate): no test calls a function with an input the library could
#      never hold ("INVALID INPUT" lines);
#   3. findings: how many are on valid inputs, how many the sanitizers or
#      the reproducer confirm, and for the buggy/ copies, that each planted
#      bug listed in buggy/EXPECTED is found on a valid input and confirmed.
# Prints one table row per file and exits 1 when any check fails.
#
#   scripts/library-check.sh [FILE.c...]   (default: the corpus and its buggy copies)
#
# Environment: CAIRN (path of the binary; default: build target/release/cairn),
# LIBRARY_FLAGS (flags for cairn gen; default "--max-time 20 --alloc-may-fail").
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/use-cairn.sh
default_flags="--max-time 20 --alloc-may-fail"
read -r -a extra_flags <<<"${LIBRARY_FLAGS-$default_flags}"

if (($# > 0)); then
    files=("$@")
else
    files=(tests/corpus/library/*.c tests/corpus/library/buggy/*.c)
fi
expected_file=tests/corpus/library/buggy/EXPECTED

work=$(mktemp -d /tmp/cairn-library.XXXXXX)
trap 'rm -rf "$work"' EXIT

failed=0
printf '| %-16s | %-20s | %7s | %8s | %-9s | %-17s | %7s |\n' \
    file driver invalid branches findings "planted found" seconds
printf '|%s|%s|%s|%s|%s|%s|%s|\n' ------------------ ---------------------- --------- \
    ---------- ----------- ------------------- ---------
for file in "${files[@]}"; do
    stem=$(basename "$file" .c)
    label=$stem
    [[ $file == */buggy/* ]] && label="buggy/$stem"
    out=$work/$label
    mkdir -p "$out"
    start=$(date +%s%N)
    if ! "$CAIRN" gen "$file" -o "$out" "${extra_flags[@]}" >"$out/gen.log" 2>&1; then
        sed 's/^/    | /' "$out/gen.log" | tail -n 20
        echo "FAIL $file: cairn gen failed"
        failed=$((failed + 1))
        continue
    fi
    tenths=$((($(date +%s%N) - start) / 100000000))
    seconds="$((tenths / 10)).$((tenths % 10))"
    "$CAIRN" check "$out" --sanitize --json >"$out/check.json" 2>"$out/check.log" || true
    tests_json=$out/$stem.tests.json

    # The library's own checks of every call the generated tests make.
    driver_bin=$out/with-checks
    if gcc -std=gnu11 -w -DCORPUS_CHECK_INVARIANTS "$out/${stem}_test.c" -o "$driver_bin" -lm \
        2>"$out/with-checks.log"; then
        "$driver_bin" >"$out/with-checks.log" 2>&1 || true
    fi
    invalid=$(grep -c "^INVALID INPUT" "$out/with-checks.log" || true)
    summary=$(grep -E "^[0-9]+ passed, [0-9]+ failed" "$out/with-checks.log" | tail -n 1)
    problems=$(jq '[.files[].problems[]?] | length' "$out/check.json")

    covered=$(jq '[.functions[].goals[] | select(.covered)] | length' "$tests_json")
    total=$(jq '[.functions[].goals[]] | length' "$tests_json")
    valid=$(jq '[.functions[].findings[] | select(.unvouched_inputs == [])] | length' "$tests_json")
    all=$(jq '[.functions[].findings[]] | length' "$tests_json")
    confirmed=$(jq -r '[.files[].reproducers[] | select(.confirmed) | .number] | join(" ")' "$out/check.json")

    planted="-"
    if [[ $file == */buggy/* ]]; then
        found=0 wanted=0
        while read -r expected_file_name function kind; do
            [[ $expected_file_name == "$stem.c" ]] || continue
            wanted=$((wanted + 1))
            numbers=$(jq -r --arg f "$function" --arg k "$kind" \
                '.functions[] | select(.name == $f) | .findings[]
                 | select(.kind == $k and .unvouched_inputs == []) | .reproducer // 0' "$tests_json")
            hit=""
            for n in $numbers; do
                [[ " $confirmed " == *" $n "* ]] && hit=$n
            done
            if [[ -n $hit ]]; then
                found=$((found + 1))
            else
                echo "MISS $file: no confirmed $kind on a valid input in $function"
                failed=$((failed + 1))
            fi
        done < <(grep -v '^#' "$expected_file")
        planted="$found of $wanted"
    elif ((valid > 0)); then
        echo "FAIL $file: $valid finding(s) on valid inputs in the bug-free file"
        failed=$((failed + 1))
    fi
    if ((invalid > 0)); then
        echo "FAIL $file: $invalid call(s) on inputs the library could never hold"
        grep "^INVALID INPUT" "$out/with-checks.log" | sort | uniq -c | sed 's/^/    /'
        failed=$((failed + 1))
    fi
    if [[ $summary != *" 0 failed" ]] || ((problems > 0)); then
        echo "FAIL $file: the driver does not pass (${summary:-no summary}; $problems problem(s) in cairn check)"
        failed=$((failed + 1))
    fi
    printf '| %-16s | %-20s | %7s | %8s | %-9s | %-17s | %7s |\n' \
        "$label" "$summary" "$invalid" "$covered/$total" "$valid/$all" "$planted" "$seconds"
done

echo
echo "invalid: calls the library's own entry checks reject; findings: on valid inputs / all"
if ((failed > 0)); then
    echo "library check FAILED: $failed problem(s)"
    exit 1
fi
echo "library check passed"
