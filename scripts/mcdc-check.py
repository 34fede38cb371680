#!/usr/bin/env python3
"""MC/DC over the corpus, measured by llvm-cov: for each C file,

  1. `cairn gen FILE` (branch coverage) and `cairn gen FILE --coverage mcdc`,
     each timed, with their test counts;
  2. `cairn check OUT --coverage mcdc --json` on the MC/DC run: the driver
     built with clang's MC/DC instrumentation, llvm-cov's records compared
     with the conditions cairn claims shown independent;
  3. per file: conditions, shown independent as llvm-cov measured, proved
     impossible to show (a constant, or every pair needs an evaluation the
     search proved infeasible), and those left unexplained.

Prints a Markdown table and the total of measured / (conditions - proved
impossible); exits 1 when a check fails (a driver does not compile, a test
fails, a claim llvm-cov does not confirm) or when that ratio is under
--target (default 0.95).

    scripts/mcdc-check.py [--target R] [FILE.c...]
        (default: tests/corpus/scalar/*.c tests/corpus/heap/*.c tests/corpus/mcdc/*.c)

Environment: CAIRN (the binary; default the release build, made first, under
CARGO_TARGET_DIR or target/),
MCDC_FLAGS (flags for both gen runs; default "--max-time 60"), MCDC_BRANCH=0
(skip the branch-coverage runs: their columns read 0).
"""

import glob
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cairn():
    binary = os.environ.get("CAIRN")
    if binary:
        return binary
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "cairn"], cwd=ROOT, check=True)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    return os.path.join(os.path.abspath(target), "release/cairn")


def gen(binary, path, out, flags):
    start = time.monotonic()
    ran = subprocess.run([binary, "gen", path, "-o", out, "--json"] + flags,
                         capture_output=True, text=True)
    seconds = time.monotonic() - start
    tests = 0
    # One JSON summary per file read, one per line.
    for line in ran.stdout.splitlines():
        try:
            summaries = json.loads(line)
        except ValueError:
            continue
        for summary in summaries if isinstance(summaries, list) else [summaries]:
            tests += sum(f["tests"] for f in summary.get("functions", []))
    return ran, seconds, tests


def main():
    args = sys.argv[1:]
    target = 0.95
    if args[:1] == ["--target"]:
        target = float(args[1])
        args = args[2:]
    files = args or sorted(
        glob.glob(os.path.join(ROOT, "tests/corpus/scalar/*.c"))
        + glob.glob(os.path.join(ROOT, "tests/corpus/heap/*.c"))
        + glob.glob(os.path.join(ROOT, "tests/corpus/mcdc/*.c")))
    flags = shlex.split(os.environ.get("MCDC_FLAGS", "--max-time 60"))
    binary = cairn()
    work = tempfile.mkdtemp(prefix="cairn-mcdc.")
    failed = []
    totals = dict(conditions=0, measured=0, claimed=0, impossible=0, unexplained=0,
                  branch_tests=0, mcdc_tests=0, branch_s=0.0, mcdc_s=0.0)
    print("| file | tests (branch) | s (branch) | tests (MC/DC) | s (MC/DC) | decisions | conditions "
          "| shown (llvm-cov) | claimed | impossible | unexplained |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for path in files:
        stem = os.path.splitext(os.path.basename(path))[0]
        branch_s, branch_tests = 0.0, 0
        if os.environ.get("MCDC_BRANCH", "1") != "0":
            _, branch_s, branch_tests = gen(binary, path, os.path.join(work, stem + "-branch"), flags)
        out = os.path.join(work, stem + "-mcdc")
        ran, mcdc_s, mcdc_tests = gen(binary, path, out, flags + ["--coverage", "mcdc"])
        if ran.returncode != 0:
            failed.append(f"{stem}: cairn gen --coverage mcdc exited {ran.returncode}: {ran.stderr[-500:]}")
            continue
        check = subprocess.run([binary, "check", out, "--coverage", "mcdc", "--json"],
                               capture_output=True, text=True)
        try:
            report = json.loads(check.stdout)
        except ValueError:
            failed.append(f"{stem}: unreadable check report: {check.stderr[-500:]}")
            continue
        decisions = conditions = measured = claimed = impossible = unexplained = 0
        for file in report["files"]:
            for problem in file["problems"]:
                failed.append(f"{stem}: {problem['kind']}: {problem['message'][:300]}")
            mcdc = file.get("mcdc") or {}
            decisions += mcdc.get("decisions", 0)
            conditions += mcdc.get("conditions", 0)
            measured += mcdc.get("measured", 0)
            claimed += mcdc.get("claimed", 0)
        for tests_json in glob.glob(os.path.join(out, "**", "*.tests.json"), recursive=True):
            with open(tests_json) as f:
                for function in json.load(f)["functions"]:
                    for decision in function.get("decisions", []):
                        for condition in decision["conditions"]:
                            if condition["shown_by"]:
                                continue
                            if condition.get("infeasible"):
                                impossible += 1
                            else:
                                unexplained += 1
                                print(f"  unexplained: {stem}:{condition['line']}:{condition['col']}: "
                                      f"{condition['text']}: {condition['reason']}", file=sys.stderr)
        print(f"| {stem} | {branch_tests} | {branch_s:.1f} | {mcdc_tests} | {mcdc_s:.1f} | {decisions} "
              f"| {conditions} | {measured} | {claimed} | {impossible} | {unexplained} |")
        for key, value in [("conditions", conditions), ("measured", measured), ("claimed", claimed),
                           ("impossible", impossible), ("unexplained", unexplained),
                           ("branch_tests", branch_tests), ("mcdc_tests", mcdc_tests),
                           ("branch_s", branch_s), ("mcdc_s", mcdc_s)]:
            totals[key] += value
    feasible = totals["conditions"] - totals["impossible"]
    ratio = totals["measured"] / feasible if feasible else 1.0
    print(f"| total | {totals['branch_tests']} | {totals['branch_s']:.1f} | {totals['mcdc_tests']} "
          f"| {totals['mcdc_s']:.1f} | | {totals['conditions']} | {totals['measured']} | {totals['claimed']} "
          f"| {totals['impossible']} | {totals['unexplained']} |")
    print(f"MC/DC measured by llvm-cov: {totals['measured']} of {feasible} conditions that can be shown "
          f"independent ({ratio:.3f}; {totals['impossible']} proved impossible)")
    for failure in failed:
        print(f"FAILED: {failure}")
    if failed or ratio < target:
        sys.exit(1)


if __name__ == "__main__":
    main()
