#!/usr/bin/env python3
"""Mutation score of cairn's generated drivers.

For each C file: cairn generates tests once; gcov marks the lines the
driver executes; every mutant of an executed line (one small change: a
comparison or arithmetic operator swapped, && and || swapped, a constant
plus or minus one, a condition negated, a statement deleted, a returned
value replaced by 0) is compiled into the same driver and run. A mutant is
killed when the driver fails (a test fails, crashes or hangs); it survives
when every test passes. Mutants that do not compile are not counted, nor
are mutants that gcc -O2 compiles to the same assembly as the original
(trivial compiler equivalence: no test can tell them apart); the score is
over the others, and those equivalents are listed apart.

    scripts/mutation-check.py [--max-mutants N] [--max-time S] FILE.c...

Prints one row per file and the survivors (file:line: the change), so that
they can be classified: equivalent to the original, or missed by the
oracles. Needs gcc, gcov and cairn (CAIRN, default target/release/cairn).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUN_LIMIT_S = 20

# (pattern, replacement, name). Patterns avoid the operators they are part
# of: `<` is not the start of `<<` or `<=`, `-` is not `->` or `--`.
SWAPS = [
    (r"(?<![<>=!])<=(?!=)", "<", "<= to <"),
    (r"(?<![<>=!])>=(?!=)", ">", ">= to >"),
    (r"(?<![<>-])<(?![<=])", "<=", "< to <="),
    (r"(?<![<>-])>(?![>=])", ">=", "> to >="),
    (r"==", "!=", "== to !="),
    (r"!=", "==", "!= to =="),
    (r"&&", "||", "&& to ||"),
    (r"\|\|", "&&", "|| to &&"),
    (r"(?<=\s)\+(?=\s)", "-", "+ to -"),
    (r"(?<=\s)-(?=\s)", "+", "- to +"),
    (r"(?<=\s)\*(?=\s)", "/", "* to /"),
]


def code_part(line):
    """The line with string and character literals and comments blanked,
    so that operators inside them are not mutated (same length)."""
    out = []
    i = 0
    while i < len(line):
        c = line[i]
        if line.startswith("//", i):
            out.append(" " * (len(line) - i))
            break
        if line.startswith("/*", i):
            end = line.find("*/", i + 2)
            end = len(line) if end < 0 else end + 2
            out.append(" " * (end - i))
            i = end
            continue
        if c in "\"'":
            j = i + 1
            while j < len(line) and line[j] != c:
                j += 2 if line[j] == "\\" else 1
            j = min(j + 1, len(line))
            out.append(c + " " * (j - i - 2) + (c if j - i >= 2 else ""))
            i = j
            continue
        out.append(c)
        i += 1
    return "".join(out)[: len(line)]


def matching_paren(code, open_at):
    depth = 0
    for k in range(open_at, len(code)):
        if code[k] == "(":
            depth += 1
        elif code[k] == ")":
            depth -= 1
            if depth == 0:
                return k
    return -1


def mutants_of_line(line):
    """Every single change to `line`: (new line, description)."""
    code = code_part(line)
    stripped = code.strip()
    if not stripped or stripped.startswith("#"):
        return []
    found = []
    for pattern, repl, name in SWAPS:
        for m in re.finditer(pattern, code):
            found.append((line[: m.start()] + repl + line[m.end():], name))
    for m in re.finditer(r"(?<![\w.])(\d+)(?![\w.])", code):
        n = int(m.group(1))
        for k, name in ((n + 1, f"{n} to {n + 1}"), (n - 1, f"{n} to {n - 1}")):
            if k >= 0:
                found.append((line[: m.start()] + str(k) + line[m.end():], name))
    for m in re.finditer(r"\b(if|while)\s*\(", code):
        open_at = m.end() - 1
        close = matching_paren(code, open_at)
        if close > 0:
            cond = line[open_at + 1: close]
            found.append(
                (line[: open_at + 1] + "!(" + cond + ")" + line[close:], f"{m.group(1)} condition negated")
            )
    m = re.match(r"^(\s*)return\s+(.+);\s*$", code)
    if m and m.group(2).strip() != "0":
        found.append((m.group(1) + "return 0;", "returns 0"))
    is_statement = (
        stripped.endswith(";")
        and not re.match(r"^(return|break|continue|goto|case|default)\b", stripped)
        and not re.match(r"^(static\s+|const\s+|unsigned\s+|signed\s+|struct\s+\w+\s+\**\w|"
                         r"(int|char|long|short|size_t|double|float|bool|_Bool|uint\w*|int\w*)\b)",
                         stripped)
        and "(" + ")" not in stripped[:1]
        and stripped.count(";") == 1
        and "{" not in stripped
        and "}" not in stripped
    )
    if is_statement:
        indent = line[: len(line) - len(line.lstrip())]
        found.append((indent + ";", "statement deleted"))
    return found


def run(cmd, cwd, timeout):
    try:
        return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None


def executed_lines(work, stem):
    """Lines of the source the original driver executes (gcov)."""
    build = run(["gcc", "-std=gnu11", "-O0", "--coverage", "-w", f"out/{stem}_test.c",
                 "-o", "cov", "-lm"], work, 120)
    if build is None or build.returncode != 0:
        return None
    run(["./cov"], work, RUN_LIMIT_S * 5)
    report = run(["gcov", "--json-format", "--stdout", "cov-" + stem + "_test.gcda"], work, 60)
    if report is None or report.returncode != 0:
        return None
    lines = set()
    for doc in report.stdout.splitlines():
        if not doc.strip():
            continue
        for f in json.loads(doc).get("files", []):
            if os.path.basename(f["file"]) == stem + ".c":
                lines |= {ln["line_number"] for ln in f["lines"] if ln["count"] > 0}
    return lines


def optimized_assembly(work, source):
    """gcc -O2's assembly of `source`, without the lines that name the file
    or the compiler, or None when it does not compile."""
    built = run(["gcc", "-std=gnu11", "-O2", "-w", "-S", "-o", "-", source], work, 120)
    if built is None or built.returncode != 0:
        return None
    return [ln for ln in built.stdout.splitlines() if not ln.startswith(("\t.file", "\t.ident"))]


def check_file(path, cairn, max_mutants, max_time):
    stem = os.path.splitext(os.path.basename(path))[0]
    work = tempfile.mkdtemp(prefix="cairn-mutants.")
    try:
        os.mkdir(os.path.join(work, "src"))
        source = os.path.join(work, "src", stem + ".c")
        shutil.copy(path, source)
        for extra in os.listdir(os.path.dirname(os.path.abspath(path))):
            if extra.endswith(".h"):
                shutil.copy(os.path.join(os.path.dirname(os.path.abspath(path)), extra),
                            os.path.join(work, "src", extra))
        gen = run([cairn, "gen", "src/" + stem + ".c", "-o", "out", "--max-time", str(max_time)],
                  work, 3600)
        if gen is None or not os.path.exists(os.path.join(work, "out", stem + "_test.c")):
            return {"file": stem, "error": "cairn gen failed"}
        lines = executed_lines(work, stem)
        if lines is None:
            return {"file": stem, "error": "the original driver does not build or run"}
        with open(source) as f:
            original = f.read().split("\n")
        candidates = []
        for number, line in enumerate(original, start=1):
            if number in lines:
                for new, what in mutants_of_line(line):
                    candidates.append((number, new, what))
        # A deterministic, evenly spread sample when there are too many.
        if len(candidates) > max_mutants:
            step = len(candidates) / max_mutants
            candidates = [candidates[int(k * step)] for k in range(max_mutants)]
        original_assembly = optimized_assembly(work, source)
        killed, survivors, stillborn, equivalents = 0, [], 0, []
        for number, new, what in candidates:
            mutant = list(original)
            mutant[number - 1] = new
            with open(source, "w") as f:
                f.write("\n".join(mutant))
            if original_assembly is not None and optimized_assembly(work, source) == original_assembly:
                equivalents.append(f"{stem}.c:{number}: {what}: {new.strip()}")
                continue
            build = run(["gcc", "-std=gnu11", "-O0", "-w", f"out/{stem}_test.c", "-o", "mutant",
                         "-lm"], work, 120)
            if build is None or build.returncode != 0:
                stillborn += 1
                continue
            ran = run(["./mutant"], work, RUN_LIMIT_S)
            if ran is None or ran.returncode != 0:
                killed += 1
            else:
                survivors.append(f"{stem}.c:{number}: {what}: {new.strip()}")
        with open(source, "w") as f:
            f.write("\n".join(original))
        return {"file": stem, "mutants": killed + len(survivors), "killed": killed,
                "stillborn": stillborn, "survivors": survivors, "equivalents": equivalents}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--max-mutants", type=int, default=60,
                        help="most mutants per file (an even sample of all)")
    parser.add_argument("--max-time", type=int, default=10, help="cairn gen --max-time")
    args = parser.parse_args()
    cairn = os.environ.get("CAIRN", os.path.join(REPO, "target", "release", "cairn"))
    if not os.access(cairn, os.X_OK):
        sys.exit(f"no cairn binary at {cairn}: run cargo build --release or set CAIRN")
    cairn = os.path.abspath(cairn)
    total_mutants = total_killed = 0
    all_survivors, all_equivalents = [], []
    print(f"| {'file':<12} | {'mutants':>7} | {'killed':>6} | {'score':>5} | {'not compiled':>12} "
          f"| {'equivalent':>10} |")
    print(f"|{'-' * 14}|{'-' * 9}|{'-' * 8}|{'-' * 7}|{'-' * 14}|{'-' * 12}|")
    for path in args.files:
        r = check_file(path, cairn, args.max_mutants, args.max_time)
        if "error" in r:
            print(f"| {r['file']:<12} | {r['error']} |")
            continue
        score = r["killed"] / r["mutants"] if r["mutants"] else 1.0
        print(f"| {r['file']:<12} | {r['mutants']:>7} | {r['killed']:>6} | {score:>5.2f} | "
              f"{r['stillborn']:>12} | {len(r['equivalents']):>10} |", flush=True)
        total_mutants += r["mutants"]
        total_killed += r["killed"]
        all_survivors += r["survivors"]
        all_equivalents += r["equivalents"]
    if total_mutants:
        print(f"\ntotal: {total_killed} of {total_mutants} mutants killed "
              f"({total_killed / total_mutants:.2f})")
    for title, listed in (("survivors", all_survivors),
                          ("equivalent (same gcc -O2 assembly as the original)", all_equivalents)):
        if listed:
            print(f"\n{title}:")
            for s in listed:
                print("  " + s)


if __name__ == "__main__":
    main()
