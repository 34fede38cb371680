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

Survivors are then classified where a proof is at hand: for a survivor in
a function that takes and returns values (no pointer or array parameter,
no static or global state in the file), `cairn reach` is asked for an
input on which the mutant's result differs from the original's. "proved
equivalent": every path was explored and none exists (a native random
trial of the same comparison double-checks the proof); "tells apart": the
input it found, which the generated tests lack; otherwise not classified.
The score is given over all mutants and over those not proved equivalent.

    scripts/mutation-check.py [--max-mutants N] [--max-time S] FILE.c...

Prints one row per file and the survivors (file:line: the change). Needs
gcc, gcov and cairn (CAIRN, default target/release/cairn).
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


def matching(code, open_at, pair="()"):
    """Where the bracket opening at `open_at` closes, or -1."""
    depth = 0
    for k in range(open_at, len(code)):
        if code[k] == pair[0]:
            depth += 1
        elif code[k] == pair[1]:
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
        close = matching(code, open_at)
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


def blank_comments_and_literals(text):
    """`text` with comments, string and character literals and preprocessor
    lines turned to spaces (newlines kept), so that braces and parentheses
    in it are code."""
    out = list(text)
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c == "#":
            while i < n and text[i] != "\n":
                out[i] = " "
                i += 1
            continue
        if c == "\n":
            at_line_start = True
            i += 1
            continue
        if not c.isspace():
            at_line_start = False
        if text.startswith("//", i) or text.startswith("/*", i):
            end = text.find("\n" if text[i + 1] == "/" else "*/", i + 2)
            end = n if end < 0 else end + (0 if text[i + 1] == "/" else 2)
        elif c in "\"'":
            end = i + 1
            while end < n and text[end] != c:
                end += 2 if text[end] == "\\" else 1
            end = min(end + 1, n)
        else:
            i += 1
            continue
        for k in range(i, end):
            if out[k] != "\n":
                out[k] = " "
        i = end
    return "".join(out)


def function_definitions(text):
    """The function definitions of a C file: dicts with name, return type,
    parameter text, first and last line, and the body's blanked text; and
    whether the file has state (a non-constant object at file scope or a
    static local)."""
    code = blank_comments_and_literals(text)
    functions, has_state = [], False
    depth, segment_start = 0, 0
    i = 0
    while i < len(code):
        c = code[i]
        if c == "{" and depth == 0:
            head = code[segment_start:i].rstrip()
            close = matching(code, i, "{}")
            if close < 0:
                close = len(code) - 1
            if head.endswith(")"):
                open_paren = head.rfind("(", 0, len(head))
                level = 0
                for k in range(len(head) - 1, -1, -1):
                    level += {")": 1, "(": -1}.get(head[k], 0)
                    if level == 0:
                        open_paren = k
                        break
                before = head[:open_paren].rstrip()
                name = re.search(r"(\w+)$", before)
                if name:
                    start = segment_start + len(head) - len(head.lstrip())
                    body = code[i:close + 1]
                    has_state |= re.search(r"\bstatic\b", body) is not None
                    functions.append({
                        "name": name.group(1),
                        "returns": before[: name.start()].strip(),
                        "params": head[open_paren + 1: -1].strip(),
                        "first": code.count("\n", 0, start) + 1,
                        "last": code.count("\n", 0, close) + 1,
                    })
                    i = close + 1
                    segment_start = i
                    continue
            # A struct, union, enum or initializer: its declaration ends at `;`.
            i = close + 1
            continue
        if c == ";" and depth == 0:
            has_state |= is_mutable_object(code[segment_start:i])
            segment_start = i + 1
        i += 1
    return functions, has_state


def is_mutable_object(declaration):
    """Does this file-scope declaration (blanked, without its `;`) declare
    an object a function could change? Errs toward yes."""
    text = " ".join(declaration.split())
    if not text or text.startswith("typedef"):
        return False
    if re.fullmatch(r"(struct|union|enum)\s*\w*\s*\{.*\}", text):
        return False
    if "=" not in text and re.search(r"\w\s*\([^()]*\)(\s*__attribute__.*)?$", text):
        return False
    declarator = text.split("=")[0]
    return not (re.search(r"\bconst\b", declarator) and "*" not in declarator)


def parameter_names(params):
    """Names of a value-only parameter list, or None when a parameter is a
    pointer, an array or variadic (its effects are not in the result)."""
    if params in ("", "void"):
        return []
    names = []
    for param in params.split(","):
        if any(mark in param for mark in "*[.") or "(" in param:
            return None
        name = re.search(r"(\w+)\s*$", param)
        if not name:
            return None
        names.append(name.group(1))
    return names


def equivalence_harness(original, mutant, function):
    """C source holding the original file, the mutated function renamed and
    `cairn_mutant_differs`, which returns 1 on the line it names exactly
    when the two results differ in any byte."""
    name = function["name"]
    names = parameter_names(function["params"])
    returns = re.sub(r"\b(static|inline|extern|__inline__|__inline)\b", "", function["returns"]).strip()
    lines = mutant[function["first"] - 1: function["last"]]
    renamed = [re.sub(rf"\b{name}\b", f"cairn_mutant_{name}", ln) for ln in lines]
    args = ", ".join(names)
    params = function["params"] or "void"
    header = ["#include <string.h>"]
    differs = [
        f"int cairn_mutant_differs({params})",
        "{",
        f"    {returns} original = {name}({args});",
        f"    {returns} mutant = cairn_mutant_{name}({args});",
        "    if (memcmp(&original, &mutant, sizeof original) != 0)",
        "        return 1;",
        "    return 0;",
        "}",
    ]
    source = header + original + [""] + renamed + [""] + differs
    return "\n".join(source) + "\n", len(source) - 2


RANDOM_TRIAL = r"""
static unsigned long long cairn_trial_state = 0x9E3779B97F4A7C15ull;
static unsigned long long cairn_trial_next(void)
{
    cairn_trial_state ^= cairn_trial_state << 13;
    cairn_trial_state ^= cairn_trial_state >> 7;
    cairn_trial_state ^= cairn_trial_state << 17;
    return cairn_trial_state;
}
/* Random bytes, a small number, or a type's extremes give or take a few. */
static void cairn_trial_fill(void *to, size_t size)
{
    unsigned char *bytes = to;
    unsigned long long mode = cairn_trial_next() % 3;
    long long small = (long long)(cairn_trial_next() % 601) - 300;
    for (size_t i = 0; i < size; i++)
        bytes[i] = mode == 0 ? (unsigned char)cairn_trial_next() : small < 0 ? 0xff : 0;
    if (mode == 2)
        bytes[size - 1] ^= 0x80;
    if (mode != 0)
        memcpy(to, &small, size < 8 ? size : 8);
}
int main(void)
{
    for (long trial = 0; trial < 300000; trial++) {
"""


def random_trial(work, harness, function):
    """Runs cairn_mutant_differs natively on many random inputs: True when
    one of them tells the mutant from the original."""
    names = parameter_names(function["params"])
    decls = [re.sub(r"\bconst\b", "", p).strip() for p in function["params"].split(",")] if names else []
    body = "".join(f"        {d};\n        cairn_trial_fill(&{n}, sizeof {n});\n" for d, n in zip(decls, names))
    body += f"        if (cairn_mutant_differs({', '.join(names)}))\n            return 1;\n    }}\n    return 0;\n}}\n"
    with open(os.path.join(work, "src", "cairn_trial.c"), "w") as f:
        f.write(harness + RANDOM_TRIAL + body)
    built = run(["gcc", "-std=gnu11", "-O0", "-w", "src/cairn_trial.c", "-o", "trial", "-lm"], work, 120)
    if built is None or built.returncode != 0:
        return False
    ran = run(["./trial"], work, 60)
    return ran is not None and ran.returncode == 1


def classify_survivor(work, cairn, original, mutant, number, max_time):
    """("equivalent" | "tells apart" | "unclassified", detail) for a
    surviving mutant of line `number`."""
    functions, has_state = function_definitions("\n".join(original))
    function = next((f for f in functions if f["first"] <= number <= f["last"]), None)
    if function is None:
        return "unclassified", "outside a function"
    if has_state:
        return "unclassified", "the file has state"
    if parameter_names(function["params"]) is None or function["returns"].split()[-1:] == ["void"]:
        return "unclassified", "pointer, array or no result"
    harness, line = equivalence_harness(original, mutant, function)
    with open(os.path.join(work, "src", "cairn_harness.c"), "w") as f:
        f.write(harness)
    shutil.rmtree(os.path.join(work, "harness-out"), ignore_errors=True)
    verdict = run([cairn, "reach", "src/cairn_harness.c", "-f", "cairn_mutant_differs", "--line", str(line),
                   "--max-time", str(max_time), "-o", "harness-out"], work, max_time * 3 + 60)
    if verdict is None:
        return "unclassified", "cairn reach did not answer"
    if verdict.returncode == 0:
        with open(os.path.join(work, "harness-out", "cairn_harness_test.c")) as f:
            call = re.search(r"cairn_mutant_differs\(([^)]*)\)", f.read())
        return "tells apart", f"{function['name']}({call.group(1) if call else '?'})"
    if verdict.returncode != 3 or "not followed past a fault" in verdict.stdout:
        return "unclassified", verdict.stdout.strip().split("\n")[0][:100]
    if random_trial(work, harness, function):
        return "unclassified", "CONTRADICTION: cairn reach proved no difference, a random input found one"
    return "equivalent", ""


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
        killed, survivors, stillborn, equivalents, proved = 0, [], 0, [], []
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
                continue
            kind, detail = classify_survivor(work, cairn, original, mutant, number, max_time)
            listed = f"{stem}.c:{number}: {what}: {new.strip()}" + (f" [{detail}]" if detail else "")
            if kind == "equivalent":
                proved.append(listed)
            else:
                survivors.append((kind, listed))
        with open(source, "w") as f:
            f.write("\n".join(original))
        return {"file": stem, "mutants": killed + len(survivors) + len(proved), "killed": killed,
                "stillborn": stillborn, "survivors": survivors, "equivalents": equivalents,
                "proved": proved}
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
    total_mutants = total_killed = total_proved = 0
    survivors_by_kind = {"tells apart": [], "unclassified": []}
    all_equivalents, all_proved = [], []
    print(f"| {'file':<12} | {'mutants':>7} | {'killed':>6} | {'score':>5} | {'proved equivalent':>17} "
          f"| {'score without them':>18} | {'not compiled':>12} | {'same assembly':>13} |")
    print(f"|{'-' * 14}|{'-' * 9}|{'-' * 8}|{'-' * 7}|{'-' * 19}|{'-' * 20}|{'-' * 14}|{'-' * 15}|")
    for path in args.files:
        r = check_file(path, cairn, args.max_mutants, args.max_time)
        if "error" in r:
            print(f"| {r['file']:<12} | {r['error']} |")
            continue
        score = r["killed"] / r["mutants"] if r["mutants"] else 1.0
        distinct = r["mutants"] - len(r["proved"])
        net = r["killed"] / distinct if distinct else 1.0
        print(f"| {r['file']:<12} | {r['mutants']:>7} | {r['killed']:>6} | {score:>5.2f} | "
              f"{len(r['proved']):>17} | {net:>18.2f} | {r['stillborn']:>12} | "
              f"{len(r['equivalents']):>13} |", flush=True)
        total_mutants += r["mutants"]
        total_killed += r["killed"]
        total_proved += len(r["proved"])
        for kind, listed in r["survivors"]:
            survivors_by_kind[kind].append(listed)
        all_equivalents += r["equivalents"]
        all_proved += r["proved"]
    if total_mutants:
        distinct = total_mutants - total_proved
        print(f"\ntotal: {total_killed} of {total_mutants} mutants killed "
              f"({total_killed / total_mutants:.2f}); {total_proved} proved equivalent; "
              f"{total_killed} of the other {distinct} killed "
              f"({total_killed / distinct if distinct else 1.0:.2f})")
    for title, listed in (
            ("survivors an input tells apart (the input cairn reach found)",
             survivors_by_kind["tells apart"]),
            ("survivors not classified", survivors_by_kind["unclassified"]),
            ("proved equivalent (cairn reach: no input gives a different result)", all_proved),
            ("equivalent (same gcc -O2 assembly as the original)", all_equivalents)):
        if listed:
            print(f"\n{title}:")
            for s in listed:
                print("  " + s)


if __name__ == "__main__":
    main()
