"""The world table (markdown), its failures section grouped by class, the
front end's exclusion reasons summed over the corpus, and the CI verdict."""

import os
import re
from collections import OrderedDict

COLUMNS = ["library", "build", "C files", "defined", "lowered", "with tests", "drivers compile",
           "findings compile", "tests passed", "left out", "sanitizer-clean", "branch coverage",
           "findings claimed / confirmed / not", "withdrawn", "claimed not measured", "gen s",
           "gen MB"]


def pct(a, b):
    return f"{100 * a / b:.0f}%" if b else "-"


def ratio(a, b):
    return f"{a}/{b}"


def cells(lib):
    row = lib.get("row") or {}
    front = lib.get("front") or {}
    gen = lib.get("gen") or {}
    defined = front.get("lowered", 0) + front.get("excluded", 0) if front else None
    lowered = front.get("lowered") if front else lib.get("lowered_pairs")
    gen_note = ""
    if gen.get("timed_out"):
        gen_note = " (timeout)"
    elif gen.get("rc"):
        gen_note = f" (exit {gen.get('rc')})"
    if gen.get("per_file"):
        gen_note += " (refused; per file)"
    return [
        f"{lib['package']} {lib['version']}", lib["system"], str(lib["c_files"]),
        "-" if defined is None else str(defined),
        "-" if lowered is None else f"{lowered} ({pct(lowered, defined)})" if defined else str(lowered),
        ratio(row.get("with_tests", 0), row.get("sampled", 0)),
        ratio(row.get("drivers_ok", 0), row.get("drivers", 0)),
        ratio(row.get("findings_files_ok", 0), row.get("findings_files", 0)),
        ratio(row.get("tests_passed", 0), row.get("tests_run", 0)),
        str(row.get("dropped_tests", 0)),
        ratio(row.get("sanitizer_clean", 0), row.get("sanitized", 0)),
        f"{row.get('branches_covered', 0)}/{row.get('branches_total', 0)} "
        f"{pct(row.get('branches_covered', 0), row.get('branches_total', 0))}",
        f"{row.get('findings', 0)} / {row.get('confirmed', 0)} / {row.get('unconfirmed', 0)}",
        str(row.get("withdrawn", 0)),
        str(row.get("claimed_not_measured", 0)),
        f"{gen.get('seconds', '-')}{gen_note}",
        str(gen.get("peak_mb", "-")),
    ]


def total_cells(libs):
    def s(key, where="row"):
        return sum((lib.get(where) or {}).get(key, 0) or 0 for lib in libs)
    defined = sum((lib.get("front") or {}).get("lowered", 0) + (lib.get("front") or {}).get("excluded", 0)
                  for lib in libs)
    lowered = s("lowered", "front")
    gen_seconds = sum((lib.get("gen") or {}).get("seconds", 0) or 0 for lib in libs)
    peaks = [(lib.get("gen") or {}).get("peak_mb") or 0 for lib in libs]
    return [
        f"**total ({len(libs)})**", "", str(sum(lib["c_files"] for lib in libs)), str(defined),
        f"{lowered} ({pct(lowered, defined)})", ratio(s("with_tests"), s("sampled")),
        ratio(s("drivers_ok"), s("drivers")), ratio(s("findings_files_ok"), s("findings_files")),
        ratio(s("tests_passed"), s("tests_run")), str(s("dropped_tests")),
        ratio(s("sanitizer_clean"), s("sanitized")),
        f"{s('branches_covered')}/{s('branches_total')} {pct(s('branches_covered'), s('branches_total'))}",
        f"{s('findings')} / {s('confirmed')} / {s('unconfirmed')}", str(s("withdrawn")),
        str(s("claimed_not_measured")),
        f"{gen_seconds:.0f}", f"max {max(peaks, default=0)}",
    ]


def table(rows):
    out = ["| " + " | ".join(COLUMNS) + " |", "|" + "|".join("---" for _ in COLUMNS) + "|"]
    out += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
    return "\n".join(out) + "\n"


def shape(text):
    """A message with its names and numbers blanked, so that alike ones group."""
    text = re.sub(r"^[^ :]*:\d+:\d+: ", "", text.strip())
    text = re.sub(r"[‘'`\"][^’'`\"]*[’'`\"]", "_", text)
    text = re.sub(r"0x[0-9a-fA-F]+|\b\d+\b", "N", text)
    text = re.sub(r"\btest_\w+", "test_", text)
    text = re.sub(r"(/[\w.+-]+)+", "PATH", text)
    return text[:140]


def subclass(failure):
    cls = failure["class"]
    detail = failure.get("detail", "")
    if cls in ("driver does not compile", "findings file does not compile",
               "cairn gen: a file or function left out", "driver stopped",
               "cairn gen: a file could not be read", "coverage not measured",
               "cairn gen -p refused the whole run (exit 2, nothing written)",
               "cairn gen refused a file alone (exit 2)"):
        m = re.search(r"\b(error|warning): (.*)", detail)
        return shape(m.group(2) if m else detail)
    if cls == "sanitizer report in a driver":
        m = re.search(r"(AddressSanitizer: [\w-]+|LeakSanitizer: [\w ]+|runtime error: [^0-9']*)", detail)
        return shape(m.group(1) if m else detail)
    if cls in ("test fails", "test crashes or is stopped", "claimed but not measured"):
        return shape(detail.split(";")[0])
    if cls == "sampled function missing from gen's output":
        why = detail.split("tests.json: ", 1)
        return shape(re.sub(r"^cairn: \S+: ", "", why[1])) if len(why) > 1 else "no reason given"
    if cls == "function got no test":
        return shape(detail.split("uncovered: ")[-1])
    return ""


def group(libs, replaced):
    classes = OrderedDict()

    def add(cls, sub, example):
        c = classes.setdefault(cls, {"count": 0, "libraries": set(), "subs": {}})
        c["count"] += 1
        c["libraries"].add(example["library"])
        s = c["subs"].setdefault(sub, {"count": 0, "example": example})
        s["count"] += 1

    for r in replaced:
        reason = r["reason"]
        cls = "library replaced: " + re.sub(r"[:(].*", "", reason).strip()
        sub = re.sub(r"^download failed: \S+\s+", "download failed: ", reason)
        add(cls, shape(sub), {"library": r["package"], "file": "", "function": "",
                                 "detail": reason})
    for lib in libs:
        for f in lib.get("failures", []):
            add(f["class"], subclass(f), dict(f, library=lib["package"]))
    return sorted(classes.items(), key=lambda kv: -kv[1]["count"])


def failures_section(libs, replaced, per_class=6):
    out = ["## Failures by class", ""]
    for cls, c in group(libs, replaced):
        out.append(f"### {cls}: {c['count']} (in {len(c['libraries'])} libraries)")
        subs = sorted(c["subs"].items(), key=lambda kv: -kv[1]["count"])
        for sub, s in subs[:per_class]:
            e = s["example"]
            where = " ".join(x for x in (e["library"], rel(e.get("file", "")), e.get("function", ""),
                                         e.get("test", "")) if x)
            label = f"{s['count']} x `{sub}`" if sub else f"{s['count']}"
            out.append(f"- {label}; e.g. {where}: {e.get('detail', '')[:300]}")
        if len(subs) > per_class:
            rest = sum(s["count"] for _, s in subs[per_class:])
            out.append(f"- {len(subs) - per_class} other kinds, {rest} cases (see the JSON and logs)")
        out.append("")
    return "\n".join(out) + "\n"


def rel(path):
    # Paths under WORK/libs/PKG/ are shown from the package's directory.
    m = re.search(r"/libs/[^/]+/(.*)", path or "")
    return m.group(1) if m else (path or "")


def markdown(summary):
    libs = summary["libraries"]
    head = [f"# cairn world check, {summary['date']}", "",
            f"`{summary['command']}` with `CAIRN={summary['cairn']}` "
            f"(sha256 {summary['cairn_sha256'][:12]}), on {summary['machine']}; "
            f"{summary['candidates']} C library source packages in bookworm main, "
            f"{summary['within_size']} within {summary['max_size_mb']:g} MB; seed {summary['seed']}, "
            f"{summary['functions']} functions a library at {summary['max_time']:g} s each; "
            f"run took {summary['seconds'] // 60} min {summary['seconds'] % 60} s"
            + ("." if summary.get("finished", True) else
               f" so far (not finished: {len(libs)} libraries done)."), ""]
    rows = [cells(lib) for lib in libs] + [total_cells(libs)]
    out = "\n".join(head) + "\n" + table(rows)
    out += ("\ndefined/lowered: the front end over every library file (parse_share); with tests: "
            "of the sampled functions; drivers and findings files: those compiling / written; "
            "tests passed / run; left out: tests gen ran and left out because the run contradicted "
            "cairn (each one an engine error to fix; listed below); sanitizer-clean: of the drivers "
            "built with the sanitizers; branch "
            "coverage: gcov over the sampled functions (a driver that does not compile counts 0 "
            "of cairn's goals); findings: claimed (on vouched inputs, not withdrawn) / confirmed by "
            "the reproducer / not confirmed (possibly false, listed below); withdrawn: findings gen "
            "ran and did not report because the reproducer did not show them; gen: wall seconds "
            "and peak resident MB of cairn gen.\n\n")
    if summary["replaced"]:
        out += "## Replaced by the next of the draw\n\n| # | package | reason |\n|---|---|---|\n"
        for r in summary["replaced"]:
            out += f"| {r['position']} | {r['package']} {r['version']} | {r['reason'].replace('|', '/')} |\n"
        out += "\n"
    out += failures_section(libs, summary["replaced"])
    unconfirmed = [(lib["package"], f) for lib in libs for f in lib.get("failures", [])
                   if f["class"].startswith("finding not confirmed")]
    if unconfirmed:
        out += "## Findings not confirmed (possibly false)\n\n"
        for package, f in unconfirmed:
            out += f"- {package} {rel(f['file'])} {f['function']}: {f['class'][23:-1]} at {f['detail']}\n"
        out += "\n"
    return out


def excluded(summary):
    reasons, files = {}, {}
    for lib in summary["libraries"]:
        front = lib.get("front") or {}
        for why, n in front.get("exclusions", {}).items():
            reasons[why] = reasons.get(why, 0) + n
        for why, n in front.get("file_failures", {}).items():
            files[why] = files.get(why, 0) + n
    libs = summary["libraries"]
    lowered = sum((lib.get("front") or {}).get("lowered", 0) for lib in libs)
    excl = sum((lib.get("front") or {}).get("excluded", 0) for lib in libs)
    out = [f"# Front-end exclusions over the world corpus ({summary['date']})", "",
           f"{len(libs)} libraries: {lowered} functions lowered, {excl} excluded "
           f"(parse_share over each library's compile_commands.json).", "",
           "| functions | reason |", "|---:|---|"]
    out += [f"| {n} | {why.replace('|', '/')} |" for why, n in sorted(reasons.items(), key=lambda kv: -kv[1])]
    if files:
        out += ["", "| files | why a file fails |", "|---:|---|"]
        out += [f"| {n} | {why.replace('|', '/')} |" for why, n in sorted(files.items(), key=lambda kv: -kv[1])]
    return "\n".join(out) + "\n"


def ci_failures(summary, wanted):
    bad = []
    libs = summary["libraries"]
    if len(libs) < wanted:
        got = {lib["package"] for lib in libs}
        for r in summary["replaced"]:
            if r["package"] not in got:
                bad.append(f"{r['package']} could not be prepared: {r['reason']}")
    for lib in libs:
        row = lib.get("row") or {}
        name = lib["package"]
        for f in lib.get("failures", []):
            if f["class"] in ("cairn gen crashed", "cairn gen timed out", "cairn check crashed",
                              "cairn check timed out", "world-check error"):
                bad.append(f"{name}: {f['class']}: {f['detail'][:300]}")
        if row.get("drivers_ok", 0) < row.get("drivers", 0):
            bad.append(f"{name}: {row['drivers'] - row['drivers_ok']} driver(s) do not compile")
        if row.get("findings_files_ok", 0) < row.get("findings_files", 0):
            bad.append(f"{name}: {row['findings_files'] - row['findings_files_ok']} findings file(s) "
                       "do not compile")
        if row.get("tests_passed", 0) < row.get("tests_run", 0):
            bad.append(f"{name}: {row['tests_run'] - row['tests_passed']} test(s) fail")
    return bad
