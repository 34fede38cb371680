#!/usr/bin/env python3
"""Test-Comp check: cairn's suites against a random tester, both measured by TestCov.

For every task definition (`*.yml` with the coverage-branches property)
under TASKS (a folder of sv-benchmarks tasks, copied beside their input
files; not committed), runs

    cairn testcomp INPUT -o OUT --max-time T [-m32]

and TestCov on the suite it wrote (and gcov: the suite run in TestCov's
harness on the program built with --coverage, its branch directions
taken of all those cairn did not prove unreachable), then a random tester in the same
harness: a suite of RANDOM_TESTS tests of RANDOM_INPUTS values each
(half of them small numbers, a quarter bytes, a quarter any 32-bit
number), seeded by the task's name, run by TestCov alike. Prints one row
per task and a mean per category, and writes TASKS-results.json (every
figure, to compare two runs).

    scripts/testcomp-check.py TASKS [--max-time T] [--cairn BIN] [--baseline BIN]
                              [--only NAME,...] [--random-from RESULTS.json]
    scripts/testcomp-check.py TASKS --error-call [--max-time T] [--cairn BIN]

Needs TestCov (`scripts/setup-testcov.sh`) and cairn (default:
target/release/cairn).
"""
import argparse
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RANDOM_TESTS = 50
RANDOM_INPUTS = 200
TESTCOV_TIME = 300


def task_definitions(tasks: Path):
    for yml in sorted(tasks.rglob("*.yml")):
        text = yml.read_text()
        if "coverage-branches.prp" not in text:
            continue
        match = re.search(r"input_files:\s*'?\"?([^'\"\n]+)", text)
        if not match:
            continue
        model = "ILP32" if "ILP32" in text else "LP64"
        # Whether the error call is reachable, when the task says.
        verdict = re.search(r"unreach-call\.prp\s*\n\s*expected_verdict:\s*(true|false)", text)
        reachable = None if verdict is None else verdict.group(1) == "false"
        yield yml, yml.parent / match.group(1).strip(), model, reachable


def testcov_coverage(testcov: Path, program: Path, suite: Path, model: str, work: Path):
    start = time.monotonic()
    run = subprocess.run(
        [str(testcov), "--no-isolation", "-32" if model == "ILP32" else "-64",
         "--no-plots", "--timelimit-per-run", "3", "--test-suite", str(suite), str(program)],
        cwd=work, capture_output=True, text=True, timeout=TESTCOV_TIME)
    results = dict(line.split(": ", 1) for line in run.stdout.splitlines() if ": " in line)
    coverage = results.get("Coverage", "").strip().rstrip("%")
    try:
        value = float(coverage) / 100.0
    except ValueError:
        value = None
    return value, results.get("Tests run", "?").strip(), time.monotonic() - start


def random_suite(name: str, program: Path, model: str, path: Path):
    rng = random.Random(f"cairn-random:{name}")
    metadata = (
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
        '<!DOCTYPE test-metadata PUBLIC "+//IDN sosy-lab.org//DTD test-format test-metadata 1.1//EN" '
        '"https://sosy-lab.org/test-format/test-metadata-1.1.dtd">\n<test-metadata>\n'
        "  <sourcecodelang>C</sourcecodelang>\n  <producer>random</producer>\n"
        "  <specification>COVER( init(main()), FQL(cover EDGES(@DECISIONEDGE)) )</specification>\n"
        f"  <programfile>{program.name}</programfile>\n"
        f"  <programhash>{hashlib.sha256(program.read_bytes()).hexdigest()}</programhash>\n"
        f"  <entryfunction>main</entryfunction>\n  <architecture>{'32bit' if model == 'ILP32' else '64bit'}</architecture>\n"
        "  <creationtime>2026-01-01T00:00:00Z</creationtime>\n</test-metadata>\n")
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("test-suite/metadata.xml", metadata)
        for n in range(RANDOM_TESTS):
            values = []
            for _ in range(RANDOM_INPUTS):
                pick = rng.random()
                if pick < 0.5:
                    values.append(rng.randint(-16, 16))
                elif pick < 0.75:
                    values.append(rng.randint(0, 255))
                else:
                    values.append(rng.randint(-2**31, 2**31 - 1))
            body = "".join(f"  <input>{v}</input>\n" for v in values)
            zf.writestr(
                f"test-suite/test{n + 1}.xml",
                '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
                '<!DOCTYPE testcase PUBLIC "+//IDN sosy-lab.org//DTD test-format testcase 1.1//EN" '
                '"https://sosy-lab.org/test-format/testcase-1.1.dtd">\n'
                f"<testcase>\n{body}</testcase>\n")


# Linked into the program gcov measures: a test ending in abort() (an
# error call), a crash or its time limit still writes its counts, as
# TestCov's instrumented programs do.
GCOV_DUMP_ON_SIGNAL = r"""
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
extern void __gcov_dump(void);
static void dump_and_die(int sig) { __gcov_dump(); _exit(128 + sig); }
/* Older tasks call __VERIFIER_error without defining it. */
__attribute__((weak)) void __VERIFIER_error(void) { abort(); }
__attribute__((constructor)) static void dump_on_signals(void) {
  signal(SIGABRT, dump_and_die);
  signal(SIGSEGV, dump_and_die);
  signal(SIGFPE, dump_and_die);
  signal(SIGALRM, dump_and_die);
  alarm(3);
}
"""


def suite_inputs(suite: Path):
    """Each test of a Test-Comp suite as its values, one per line."""
    with zipfile.ZipFile(suite) as zf:
        for name in sorted(zf.namelist()):
            if name.endswith(".xml") and not name.endswith("metadata.xml"):
                text = zf.read(name).decode()
                values = re.findall(r"<input[^>]*>(.*?)</input>", text, re.S)
                yield "".join(v.strip() + "\n" for v in values)


def gcov_branches(program: Path, suite: Path, model: str, work: Path):
    """Branch directions of the program gcov sees the suite take, and all
    it counts: the suite run in TestCov's own harness (left in
    work/output by its run) on the program built with --coverage."""
    harness = work / "output" / "harness.c"
    if not harness.is_file():
        return None
    build = work / "gcov"
    build.mkdir(exist_ok=True)
    local = build / program.name
    local.write_bytes(program.read_bytes())
    (build / "dump.c").write_text(GCOV_DUMP_ON_SIGNAL)
    flags = ["-m32" if model == "ILP32" else "-m64", "-w", "-O0"]
    try:
        subprocess.run(["gcc", *flags, "--coverage", "-c", local.name, "-o", "program.o"],
                       cwd=build, check=True, capture_output=True)
    except subprocess.CalledProcessError:
        return None
    link = ["gcc", *flags, "program.o", str(harness), "dump.c", "--coverage", "-o", "program",
            "-lm"]
    # TestCov's harness may use size_t, stdin or malloc without declaring them.
    headers = [[], ["stddef.h"], ["stdio.h", "stdlib.h", "string.h"]]
    if all(subprocess.run(link[:1] + [f for h in included for f in ("-include", h)] + link[1:],
                          cwd=build, capture_output=True).returncode != 0
           for included in headers):
        return None
    for values in suite_inputs(suite):
        try:
            subprocess.run(["./program"], cwd=build, input=values.encode(),
                           capture_output=True, timeout=10)
        except subprocess.TimeoutExpired:
            pass
    subprocess.run(["gcov", "-b", "-j", "-o", ".", "program.o"], cwd=build, capture_output=True)
    report = next(build.glob("*.gcov.json.gz"), None)
    if report is None:
        return None
    import gzip
    data = json.loads(gzip.decompress(report.read_bytes()))
    taken = total = 0
    for source in data["files"]:
        # A preprocessed task names its sources in line markers: every
        # file but the harness's and the system's.
        if source["file"] in ("dump.c", str(harness)) or source["file"].startswith("/usr/") \
                or Path(source["file"]).name == "harness.c":
            continue
        for line in source["lines"]:
            for branch in line.get("branches", []):
                if branch.get("throw"):
                    continue
                total += 1
                taken += branch["count"] > 0
    return taken, total


def proved_unreachable(out: Path):
    """cairn's goals (edges, as gcov counts them) and those it proved no
    input takes (every path toward them explored, no bound cut one), from
    OUT/<stem>.tests.json."""
    results = next(out.glob("*.tests.json"), None)
    if results is None:
        return None
    edges, unreachable = set(), set()
    for function in json.loads(results.read_text())["functions"]:
        for goal in function["goals"]:
            edge = (function["name"], goal["site"], goal["target"])
            edges.add(edge)
            if goal.get("reason") == "infeasible":
                unreachable.add(edge)
    return len(edges), len(unreachable)


ERROR_CALL_PROPERTY = "COVER( init(main()), FQL(COVER EDGES(@CALL(reach_error))) )\n"


def error_calls(args):
    """The error-call property on every task whose error call is reachable."""
    found = 0
    times = []
    tasks = [t for t in task_definitions(args.tasks) if t[3]]
    for yml, program, model, _ in tasks:
        name = f"{yml.parent.name}/{yml.stem}"
        with tempfile.TemporaryDirectory(prefix="cairn-testcomp-") as tmp:
            work = Path(tmp)
            local = work / program.name
            local.write_bytes(program.read_bytes())
            out = work / "out"
            command = [str(args.cairn), "testcomp", str(local), "-o", str(out), "--spec",
                       "error-call", "--max-time", args.max_time]
            if model == "ILP32":
                command.append("-m32")
            start = time.monotonic()
            gen = subprocess.run(command, cwd=work, capture_output=True, text=True)
            took = time.monotonic() - start
            goal = work / "coverage-error-call.prp"
            goal.write_text(ERROR_CALL_PROPERTY)
            verdict = "-"
            if (out / "test-suite.zip").is_file():
                run = subprocess.run(
                    [str(args.testcov), "--no-isolation", "-32" if model == "ILP32" else "-64",
                     "--no-plots", "--timelimit-per-run", "3", "--goal", str(goal),
                     "--test-suite", str(out / "test-suite.zip"), str(local)],
                    cwd=work, capture_output=True, text=True, timeout=TESTCOV_TIME)
                verdict = next((l.split(": ", 1)[1] for l in run.stdout.splitlines()
                                if l.startswith("Result: ")), "?")
            first = re.search(r"error function first entered ([0-9.]+) s", gen.stdout)
            if verdict == "TRUE":
                found += 1
                times.append(took)
            print(f"{name:55} TestCov {verdict:6} cairn {took:5.1f} s"
                  + (f", first run into the error function after {first.group(1)} s" if first else ""),
                  flush=True)
    print(f"\nerror call covered (TestCov TRUE) on {found} of {len(tasks)} tasks; "
          + (f"median time {sorted(times)[len(times) // 2]:.1f} s" if times else ""))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tasks", type=Path)
    parser.add_argument("--max-time", default="10")
    parser.add_argument("--cairn", type=Path, default=ROOT / "target/release/cairn")
    parser.add_argument("--testcov", type=Path, default=ROOT / "target/testcov-venv/bin/testcov")
    parser.add_argument("--baseline", type=Path, help="a second cairn binary, measured alike")
    parser.add_argument("--only", default="")
    parser.add_argument("--error-call", action="store_true",
                        help="the error-call property instead: on the tasks whose error call is "
                             "reachable, `--spec error-call`, the time to the first test calling "
                             "it, and TestCov's verdict on the suite")
    parser.add_argument("--random-from", type=Path,
                        help="the results JSON of an earlier run: its random tester's figures "
                             "(the same for the same tasks) instead of running it again")
    args = parser.parse_args()
    only = {n for n in args.only.split(",") if n}
    earlier_random = {}
    if args.random_from is not None:
        earlier_random = {r["task"]: r["random"] for r in json.loads(args.random_from.read_text())}
    if args.error_call:
        return error_calls(args)
    rows = []
    for yml, program, model, reachable in task_definitions(args.tasks):
        name = f"{yml.parent.name}/{yml.stem}"
        if only and yml.stem not in only:
            continue
        with tempfile.TemporaryDirectory(prefix="cairn-testcomp-") as tmp:
            work = Path(tmp)
            local = work / program.name
            local.write_bytes(program.read_bytes())
            row = {"task": name, "model": model, "error_reachable": reachable}
            for column, binary in [("cairn", args.cairn), ("baseline", args.baseline)]:
                if binary is None:
                    continue
                out = work / f"out-{column}"
                command = [str(binary), "testcomp", str(local), "-o", str(out),
                           "--max-time", args.max_time]
                if model == "ILP32":
                    command.append("-m32")
                start = time.monotonic()
                gen = subprocess.run(command, cwd=work, capture_output=True, text=True)
                row[f"{column}_time"] = round(time.monotonic() - start, 1)
                suite = out / "test-suite.zip"
                if suite.is_file():
                    with zipfile.ZipFile(suite) as zf:
                        row[f"{column}_tests"] = sum(1 for n in zf.namelist() if n.endswith(".xml")) - 1
                    row[column], _, _ = testcov_coverage(args.testcov, local, suite, model, work)
                    if column == "cairn":
                        measured = gcov_branches(local, suite, model, work)
                        goals = proved_unreachable(out)
                        if measured:
                            # No tests.json: the symbolic search did not run, nothing proved.
                            goals = goals or (None, 0)
                            taken, total = measured
                            row["gcov_taken"], row["gcov_total"] = taken, total
                            row["cairn_goals"], row["proved_unreachable"] = goals
                            # gcc folds constant conditions away (`switch (2)`):
                            # where cairn counts more goals, the extra ones are
                            # taken to be among those it proved unreachable.
                            reachable_goals = (total - goals[1] if goals[0] is None
                                               else min(total, goals[0] - goals[1]))
                            row["of_reachable"] = (min(1.0, taken / reachable_goals)
                                                   if reachable_goals > 0 else 1.0)
                else:
                    row[f"{column}_tests"] = 0
                    row[column] = None
                    row[f"{column}_error"] = (gen.stderr.strip().splitlines() or ["?"])[-1]
                row[f"{column}_error_reached"] = "error function reached" in gen.stdout
                native = re.search(r"native runs: .*", gen.stdout)
                if native:
                    row[f"{column}_native"] = native.group(0)
            if name in earlier_random:
                row["random"] = earlier_random[name]
            else:
                random_zip = work / "random.zip"
                random_suite(name, local, model, random_zip)
                row["random"], _, _ = testcov_coverage(args.testcov, local, random_zip, model, work)
        rows.append(row)
        fmt = lambda v: "-" if v is None else f"{v:.3f}"
        line = f"{name:50} cairn {fmt(row['cairn'])} ({row['cairn_tests']} tests, {row['cairn_time']} s)"
        if args.baseline is not None:
            line += f"  baseline {fmt(row['baseline'])} ({row['baseline_tests']} tests, {row['baseline_time']} s)"
        line += f"  random {fmt(row['random'])}"
        if "gcov_total" in row:
            line += (f"  gcov {row['gcov_taken']}/{row['gcov_total']} (cairn's goals "
                     f"{row['cairn_goals']}, proved unreachable {row['proved_unreachable']}:"
                     f" {row['of_reachable']:.3f} of the rest)")
        if reachable:
            line += "  error " + ("found" if row["cairn_error_reached"] else "NOT found")
        for column in ("cairn", "baseline"):
            if row.get(f"{column}_error"):
                line += f"  [{column}: {row[f'{column}_error']}]"
        print(line, flush=True)
    categories = sorted({r["task"].split("/")[0] for r in rows})
    print()
    columns = ["cairn", "random"] + (["baseline"] if args.baseline is not None else [])
    for category in categories + ["all"]:
        chosen = [r for r in rows if category == "all" or r["task"].startswith(category + "/")]
        means = "  ".join(
            f"{c} {sum((r[c] or 0.0) for r in chosen) / len(chosen):.3f}" for c in columns)
        wins = sum(1 for r in chosen if (r["cairn"] or 0.0) >= (r["random"] or 0.0))
        empty = sum(1 for r in chosen if not r["cairn_tests"])
        errors = [r for r in chosen if r["error_reachable"]]
        found = sum(1 for r in errors if r["cairn_error_reached"])
        measured = [r for r in chosen if "of_reachable" in r]
        of_reachable = (sum(r["of_reachable"] for r in measured) / len(measured)
                        if measured else 0.0)
        print(f"{category:22} tasks {len(chosen):3}  {means}  cairn >= random on {wins}, "
              f"empty suites {empty}, error found {found}/{len(errors)}, "
              f"gcov taken of not proved unreachable {of_reachable:.3f} ({len(measured)} measured)")
    (args.tasks.parent / f"{args.tasks.name}-results.json").write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    sys.exit(main())
