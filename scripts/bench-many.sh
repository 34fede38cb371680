#!/usr/bin/env bash
# Many small functions in one file: is `cairn gen` linear in the number of
# functions? Generates a C file of N small functions (eight templates taken
# in turn: integer branches, a bounded loop over an array, a struct read
# through a pointer, an out-parameter, a switch, unsigned bit tests, a string
# scan and a list search; constants vary with the function's number, so the
# file is the same for the same N), then times `cairn gen` on it with
# /usr/bin/time -v (wall time and peak memory). Prints one markdown row per N.
#
#   scripts/bench-many.sh [N...]     (default: 500 1000 5000)
#   scripts/bench-many.sh --source N  (prints the C file of N functions)
#
# Environment: CAIRN (path of the binary; default: build target/release/cairn),
# BENCH_FLAGS (extra flags for cairn gen, e.g. "-j 1"; default none: -j is the
# machine's cores), KEEP (a directory to keep the C files and outputs in).
# Figures are measurements, not assertions; record them in BENCHMARKS.md with
# the machine and the date.
set -euo pipefail
cd "$(dirname "$0")/.."

# Function number $1 of the file, by template $1 mod 8.
function_text() {
    local i=$1 c=$(($1 % 97 - 48)) k=$(($1 % 7 + 2))
    case $((i % 8)) in
    0) cat <<EOF
int classify_$i(int a, int b)
{
    if (a < $c)
        return -1;
    if (a > $c + 100 && b != $k)
        return 1;
    return a == b ? 2 : 0;
}
EOF
        ;;
    1) cat <<EOF
int sum_above_$i(const int *v, int n)
{
    int s = 0;
    for (int j = 0; j < n && j < 4; j++)
        if (v[j] > $c && v[j] < 1000)
            s += v[j];
    return s;
}
EOF
        ;;
    2) cat <<EOF
int quadrant_$i(const struct point *p)
{
    if (!p)
        return -1;
    if (p->x > $c)
        return p->y > $k ? 1 : 4;
    return p->y > $k ? 2 : 3;
}
EOF
        ;;
    3) cat <<EOF
int clamp_$i(int v, int *out)
{
    if (v < $c) {
        *out = $c;
        return 1;
    }
    if (v > $c + $k * 10) {
        *out = $c + $k * 10;
        return 2;
    }
    *out = v;
    return 0;
}
EOF
        ;;
    4) cat <<EOF
int code_$i(int c)
{
    switch (c % 5) {
    case 0: return $k;
    case 1: return c > $c ? 3 : 4;
    case 3: return -$k;
    default: return 0;
    }
}
EOF
        ;;
    5) cat <<EOF
unsigned mix_$i(unsigned a, unsigned b)
{
    if ((a ^ b) & ${k}u)
        return a >> $k;
    if (a & 1u)
        return b | ${k}u;
    return 0;
}
EOF
        ;;
    6) cat <<EOF
int count_$i(const char *s)
{
    int n = 0;
    if (!s)
        return -1;
    for (int j = 0; s[j] && j < 6; j++)
        if (s[j] == 'a' + $k)
            n++;
    return n;
}
EOF
        ;;
    7) cat <<EOF
int find_$i(const struct node *h, int key)
{
    for (int d = 0; h && d < 3; d++, h = h->next)
        if (h->key == key)
            return d + $k;
    return -1;
}
EOF
        ;;
    esac
}

# The C file of $1 functions.
many_functions() {
    local n=$1 i
    echo "struct point { int x, y; };"
    echo "struct node { int key; struct node *next; };"
    for ((i = 0; i < n; i++)); do
        echo
        function_text "$i"
    done
}

if [[ ${1:-} == --source ]]; then
    many_functions "$2"
    exit 0
fi

source scripts/use-cairn.sh
read -r -a extra_flags <<<"${BENCH_FLAGS-}"

if (($# > 0)); then
    sizes=("$@")
else
    sizes=(500 1000 5000)
fi

if [[ -n ${KEEP:-} ]]; then
    work=$KEEP
    mkdir -p "$work"
else
    work=$(mktemp -d /tmp/cairn-many.XXXXXX)
    trap 'rm -rf "$work"' EXIT
fi

echo "| functions | wall s | user s | peak memory MiB | tests | branches covered |"
echo "|----------:|-------:|-------:|----------------:|------:|-----------------:|"
for n in "${sizes[@]}"; do
    file=$work/many$n.c out=$work/out$n
    many_functions "$n" >"$file"
    rm -rf "$out"
    /usr/bin/time -v -o "$work/time$n.txt" "$CAIRN" gen "$file" -o "$out" --json "${extra_flags[@]}" \
        >"$work/summary$n.json" 2>"$work/stderr$n.txt" || {
        echo "cairn gen failed on $n functions (see $work/stderr$n.txt)" >&2
        exit 1
    }
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {
        n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; printf "%.1f", s }' "$work/time$n.txt")
    user=$(awk -F': ' '/User time/ { print $2 }' "$work/time$n.txt")
    peak=$(awk -F': ' '/Maximum resident/ { printf "%.0f", $2 / 1024 }' "$work/time$n.txt")
    counts=$(python3 - "$out/many$n.tests.json" <<'EOF'
import json, sys
functions = json.load(open(sys.argv[1]))["functions"]
tests = sum(len(f["tests"]) for f in functions)
goals = [g for f in functions for g in f["goals"]]
print(tests, "%d/%d" % (sum(g["covered"] for g in goals), len(goals)))
EOF
    )
    read -r tests branches <<<"$counts"
    echo "| $n | $wall | $user | $peak | $tests | $branches |"
done
