#!/usr/bin/env bash
# Acceptance check of the faulty corpus: for each file,
#   1. every line marked `/* fault: ... */` must carry a finding of cairn
#      whose reproducer `cairn check --sanitize` confirms (sanitizer report,
#      LeakSanitizer, or the reproducer's own evidence);
#   2. for a fault marked `/* fault (wrong output): ... */`, every branch on
#      the line marked `reached only through the fault` must be covered.
# Prints one line per fault and exits 1 when any is missed.
#
#   scripts/faults-check.sh [FILE.c...]     (default: tests/corpus/faulty/*.c)
#
# Environment: CAIRN (path of the binary; default: build target/release/cairn),
# FAULTS_FLAGS (flags for cairn gen; default "--max-time 60 --alloc-may-fail").
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/use-cairn.sh
default_flags="--max-time 60 --alloc-may-fail"
read -r -a extra_flags <<<"${FAULTS_FLAGS-$default_flags}"

if (($# > 0)); then
    files=("$@")
else
    files=(tests/corpus/faulty/*.c)
fi

work=$(mktemp -d /tmp/cairn-faults.XXXXXX)
trap 'rm -rf "$work"' EXIT

missed=0 faults=0
for file in "${files[@]}"; do
    stem=$(basename "$file" .c)
    out=$work/$stem
    if ! "$CAIRN" gen "$file" -o "$out" "${extra_flags[@]}" >"$work/$stem.log" 2>&1; then
        sed 's/^/    | /' "$work/$stem.log" | tail -n 40
        echo "FAIL $file: cairn gen failed"
        missed=$((missed + 1))
        continue
    fi
    tests_json=$out/$stem.tests.json
    # cairn check exits non-zero when a driver fails; the report still says which.
    "$CAIRN" check "$out" --sanitize --json >"$work/$stem.check.json" 2>"$work/$stem.check.log" || true
    confirmed=$(jq -r '[.files[].reproducers[] | select(.confirmed) | .number] | join(" ")' "$work/$stem.check.json")

    while IFS=: read -r line text; do
        faults=$((faults + 1))
        if [[ $text == *"fault (wrong output):"* ]]; then
            target=$(grep -n "reached only through the fault" "$file" | head -n 1 | cut -d: -f1)
            uncovered=$(jq --argjson line "${target:-0}" \
                '[.functions[].goals[] | select(.line == $line and (.covered | not))] | length' "$tests_json")
            covered=$(jq --argjson line "${target:-0}" \
                '[.functions[].goals[] | select(.line == $line and .covered)] | length' "$tests_json")
            if [[ -n $target ]] && ((uncovered == 0 && covered > 0)); then
                echo "ok   $file:$line: wrong output shown: the branches of line $target are covered"
            else
                echo "MISS $file:$line: line ${target:-?} (reached only through the fault) has $uncovered uncovered branches"
                missed=$((missed + 1))
            fi
            continue
        fi
        found=$(jq -r --argjson line "$line" \
            '.functions[].findings[] | select(.line == $line) | "\(.reproducer // 0) \(.kind)"' "$tests_json")
        verdict="MISS" what="no finding on this line"
        while read -r number kind; do
            [[ -n ${number:-} ]] || continue
            what="$kind, reproducer $number not confirmed"
            if [[ " $confirmed " == *" $number "* ]]; then
                verdict="ok  " what="$kind, reproducer $number confirmed"
                break
            fi
        done <<<"$found"
        echo "$verdict $file:$line: $what"
        [[ $verdict == "ok  " ]] || missed=$((missed + 1))
    done < <(grep -n "/\* fault" "$file")
done

echo
if ((missed > 0)); then
    echo "faults check FAILED: $missed of $faults faults missed"
    exit 1
fi
echo "faults check passed: $faults of $faults faults reported and confirmed"
