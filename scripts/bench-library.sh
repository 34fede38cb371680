#!/usr/bin/env bash
# Measures `cairn gen -p` on one built library (a compile_commands.json
# directory, e.g. one fetched by scripts/world-check.sh under
# /tmp/cairn-world/libs/<name>/db) and prints one markdown row: functions
# reported, functions with at least one test, tests left out by gen's own
# run (dropped_tests), branches covered / total, cheap-phase candidates,
# solver calls and Z3 seconds summed over functions, wall seconds, peak
# resident MB of the whole run.
#
#   scripts/bench-library.sh DB_DIR OUT [cairn gen flags...]
#
# Environment: CAIRN (path of the binary; default: build target/release/cairn).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/use-cairn.sh

db=$1 out=$2
shift 2
rm -rf "$out"
mkdir -p "$out"
timing=$(mktemp /tmp/cairn-bench-library.XXXXXX)
trap 'rm -f "$timing"' EXIT
start=$(date +%s.%N)
status=0
/usr/bin/time -f %M -o "$timing" "$CAIRN" gen -p "$db" -o "$out" "$@" >"$out/gen.log" 2>&1 || status=$?
end=$(date +%s.%N)
peak_kb=$(tail -n1 "$timing")
python3 - "$out" "$status" "$(python3 -c "print(round($end - $start, 1))")" "$peak_kb" "$db" "$*" <<'PY'
import json, os, sys
out, status, wall, peak_kb, db, flags = sys.argv[1:]
functions = with_tests = dropped = covered = total = candidates = calls = 0
z3_ms = 0
for root, _, files in os.walk(out):
    for name in files:
        if not name.endswith(".tests.json"):
            continue
        for f in json.load(open(os.path.join(root, name)))["functions"]:
            functions += 1
            with_tests += bool(f["tests"])
            dropped += len(f.get("dropped_tests") or [])
            total += len(f["goals"])
            covered += sum(g["covered"] for g in f["goals"])
            stats = f.get("stats") or {}
            candidates += stats.get("cheap_candidates", 0)
            calls += stats.get("solver_calls", 0)
            z3_ms += stats.get("solver_ms", 0)
library = os.path.basename(os.path.dirname(os.path.abspath(db)))
print(f"| {library} | `{flags}` | {functions} | {with_tests} | {dropped} | {covered}/{total} | "
      f"{candidates} | {calls} | {z3_ms / 1000:.1f} | {float(wall):.1f} | {int(peak_kb) // 1024} | {status} |")
PY
