#!/usr/bin/env bash
# Self-tests of the library corpus (tests/corpus/library, see its README).
#
#   1. every corpus file, bug-free and buggy, compiles warning-free with
#      `gcc -std=c99 -Wall -Wextra -c`, with and without CORPUS_CHECK_INVARIANTS;
#   2. each <lib>_selftest.c drives the bug-free <lib>.c through its API
#      under AddressSanitizer, UBSan and LeakSanitizer with the entry and
#      exit checks on: it must pass, sanitizer-clean, with no INVALID line;
#   3. each planted bug of buggy/ is shown by a scenario of <lib>_bugs.c:
#      the run must fail and print the evidence listed below.
#
#   tests/corpus/library/selftest/run.sh        (CC=... to use another gcc)
set -u
cd "$(dirname "$0")"

CC=${CC:-gcc}
FLAGS=(-std=c99 -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined
       -fno-sanitize-recover=all -DCORPUS_CHECK_INVARIANTS -Wall -Wextra -Werror)
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
LIBS=(dlist intset jtree avl verify)

work=$(mktemp -d "${TMPDIR:-/tmp}/library-selftest.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

echo "== compile the corpus files warning-free"
for file in ../*.c ../buggy/*.c; do
    for define in "" -DCORPUS_CHECK_INVARIANTS; do
        if ! $CC -std=c99 -Wall -Wextra -Werror $define -c "$file" -o "$work/obj.o" 2>"$work/cc.log"; then
            fail "$file does not compile cleanly ${define:-}"
            cat "$work/cc.log"
        fi
    done
done

echo "== self-tests of the bug-free files"
for lib in "${LIBS[@]}"; do
    if ! $CC "${FLAGS[@]}" "${lib}_selftest.c" -o "$work/${lib}_selftest" 2>"$work/cc.log"; then
        fail "${lib}_selftest.c does not build"
        cat "$work/cc.log"
        continue
    fi
    "$work/${lib}_selftest" >"$work/out.log" 2>&1
    rc=$?
    tail -n 1 "$work/out.log"
    if ((rc != 0)) || grep -qE 'INVALID|runtime error|Sanitizer|CHECK FAILED' "$work/out.log"; then
        fail "${lib}_selftest (exit $rc)"
        head -n 40 "$work/out.log"
    fi
done

echo "== planted bugs of buggy/"
for lib in "${LIBS[@]}"; do
    if ! $CC "${FLAGS[@]}" "${lib}_bugs.c" -o "$work/${lib}_bugs" 2>"$work/cc.log"; then
        fail "${lib}_bugs.c does not build"
        cat "$work/cc.log"
    fi
done

# expect_bug PROGRAM SCENARIO DESCRIPTION PATTERN...: the run fails and its
# output matches every PATTERN (extended regular expressions).
expect_bug() {
    local program=$1 scenario=$2 what=$3 rc pattern missing=""
    shift 3
    ("$work/$program" "$scenario"; exit $?) >"$work/out.log" 2>&1
    rc=$?
    for pattern in "$@"; do
        grep -qE -- "$pattern" "$work/out.log" || missing+=" [$pattern]"
    done
    if ((rc == 0)) || [[ -n $missing ]]; then
        fail "$program $scenario: $what not shown (exit $rc, missing:$missing)"
        head -n 30 "$work/out.log"
    else
        echo "shown: $what ($program $scenario, exit $rc)"
    fi
}

expect_bug dlist_bugs index "dlist_index: NULL dereference for index == len" \
    'dlist_index\(l, 3\)' 'buggy/dlist\.c:[0-9]+:[0-9]+: runtime error: member access within null pointer'
expect_bug dlist_bugs len "dlist_remove: missed len update, seen by the next call" \
    'INVALID RESULT dlist_remove' 'INVALID INPUT dlist_length' 'removing 1 of 2 nodes: 2$'
expect_bug dlist_bugs len-destroy "dlist_remove: missed len update, dlist_destroy runs off the list" \
    'INVALID INPUT dlist_destroy' 'buggy/dlist\.c:[0-9]+:[0-9]+: runtime error: member access within null pointer'
expect_bug intset_bugs get "intset_get: reachable assertion for pos == length" \
    "intset_get: Assertion \`pos < is->length' failed"
expect_bug jtree_bugs replace "jt_replace_item_in_array: use after free" \
    'heap-use-after-free' 'in jt_replace_item_in_array .*buggy/jtree\.c'
expect_bug jtree_bugs leak "jt_create_string: leak when the string copy fails" \
    'detected memory leaks' 'in jt_create_string .*buggy/jtree\.c'
expect_bug avl_bugs rotate "avl rotate_left: wrong heights after a rotation" \
    'INVALID RESULT avl_insert' 'avl_is_valid after inserting 1, 2, 3: 0'
expect_bug verify_bugs reach "verify main: reach_error() reachable with 1, 2, 2" \
    'reach_error\(\) reached'

if ((failures > 0)); then
    echo "$failures failure(s)"
    exit 1
fi
echo "all self-tests passed, all planted bugs shown"
