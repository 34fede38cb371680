#!/usr/bin/env python3
"""How the solver's layers answered the questions of `cairn gen` runs.

    scripts/solver-counts.py OUT...

Sums the statistics of every function in the tests.json files under each
output directory OUT and prints one markdown row per OUT: the questions
the search asked, the share the result cache, the last model and guessed
values answered without Z3, the Z3 checks made, the time inside them and the engine's
time. The time the two layers saved is estimated as their answers times
the mean time of a Z3 check (the guesses' answers counted with them). Figures are measurements; record them in
BENCHMARKS.md with the machine and the date.
"""
import json
import pathlib
import sys


def totals(out):
    keys = ("solver_questions", "answered_by_cache", "answered_by_last_model",
            "answered_by_guesses", "solver_calls", "solver_ms", "elapsed_ms")
    sums = dict.fromkeys(keys, 0)
    for path in pathlib.Path(out).rglob("*.tests.json"):
        for function in json.loads(path.read_text())["functions"]:
            for key in keys:
                sums[key] += function["stats"].get(key, 0)
    return sums


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    print("| run | questions | by cache | by last model | by guesses | Z3 checks | Z3 s | engine s | saved s (estimate) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for out in sys.argv[1:]:
        t = totals(out)
        asked = t["solver_questions"] or 1
        per_check = t["solver_ms"] / max(t["solver_calls"], 1)
        answered = (t["answered_by_cache"] + t["answered_by_last_model"]
                    + t["answered_by_guesses"])
        print(f"| {out} | {t['solver_questions']:,} "
              f"| {t['answered_by_cache']:,} ({100 * t['answered_by_cache'] / asked:.0f}%) "
              f"| {t['answered_by_last_model']:,} ({100 * t['answered_by_last_model'] / asked:.0f}%) "
              f"| {t['answered_by_guesses']:,} ({100 * t['answered_by_guesses'] / asked:.0f}%) "
              f"| {t['solver_calls']:,} | {t['solver_ms'] / 1000:.1f} "
              f"| {t['elapsed_ms'] / 1000:.1f} | {answered * per_check / 1000:.1f} |")


if __name__ == "__main__":
    main()
