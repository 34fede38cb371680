#!/usr/bin/env bash
# Scaling of the engine with path length over linked structures: for each
# K, a generated C file holds `list_walk`, which follows K links of a list
# checking each node's key, and `tree_descend`, which descends K levels of a
# tree (left on even levels, right on odd ones) checking each key. The
# longest path of either reads 2K node fields (a key and a link per node);
# covering both functions needs lists and trees of up to K nodes, and every
# link may also alias an earlier node, so the paths explored grow with K^2.
# Prints a markdown table: K, function, branches covered, paths, solver
# calls, statements executed, engine ms, microseconds per path and per
# executed statement.
#
#   scripts/bench-scaling.sh [K...]     (default: 4 8 16 32 64)
#
# Environment: CAIRN (path of the binary; default: build target/release/cairn).
# Figures are measurements, not assertions; record them in BENCHMARKS.md with
# the machine and the date.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/use-cairn.sh

if (($# > 0)); then
    sizes=("$@")
else
    sizes=(4 8 16 32 64)
fi

work=$(mktemp -d /tmp/cairn-scaling.XXXXXX)
trap 'rm -rf "$work"' EXIT

# The C file for depth $1.
walks() {
    local k=$1 i dir
    echo "struct node { int key; struct node *next; };"
    echo "struct tree { int key; struct tree *left, *right; };"
    echo "int list_walk(const struct node *h)"
    echo "{"
    for ((i = 0; i < k; i++)); do
        echo "    if (h == 0) return -1;"
        echo "    if (h->key != $i) return -2;"
        echo "    h = h->next;"
    done
    echo "    return h == 0;"
    echo "}"
    echo "int tree_descend(const struct tree *t)"
    echo "{"
    for ((i = 0; i < k; i++)); do
        if ((i % 2 == 0)); then dir=left; else dir=right; fi
        echo "    if (t == 0) return -1;"
        echo "    if (t->key != $i) return -2;"
        echo "    t = t->$dir;"
    done
    echo "    return t == 0;"
    echo "}"
}

echo "| K | function | branches | paths | solver calls | statements run | engine ms | µs per path | µs per statement |"
echo "|--:|----------|---------:|------:|-------------:|---------------:|----------:|------------:|-----------------:|"
for k in "${sizes[@]}"; do
    src=$work/walk$k.c
    walks "$k" >"$src"
    # A list or tree of K nodes plus the NULL after it.
    "$CAIRN" gen "$src" -o "$work/out$k" --json --max-nodes $((k + 1)) --max-time 600 >"$work/summary$k.json"
    jq -r --slurpfile summary "$work/summary$k.json" --arg k "$k" '
        .functions[] as $f |
        ($summary[0].functions[] | select(.name == $f.name)) as $s |
        ($f.stats.elapsed_ms * 1000) as $us |
        "| \($k) | \($f.name) | \($s.branches_covered)/\($s.branches_total) | \($f.stats.paths) | \($f.stats.solver_calls) | \($f.stats.statements) | \($f.stats.elapsed_ms) | \($us / $f.stats.paths | round) | \($us / $f.stats.statements * 10 | round / 10) |"
    ' "$work/out$k/walk$k.tests.json"
done
