"""Running cairn on one built library: the functions the front end lowers,
the seeded sample of them, `cairn gen -p` on the sample, `cairn check
--sanitize --json`, and the figures of one table row read back from the
outputs."""

import concurrent.futures
import json
import os
import random
import re
import subprocess
import time

PANIC = re.compile(r"panicked at|RUST_BACKTRACE|internal error", re.I)


def run_capture(cmd, timeout, cwd=None):
    """(returncode, stdout, stderr); 124 on timeout."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                           timeout=timeout, cwd=cwd, stdin=subprocess.DEVNULL)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
        return 124, out, err


def database_files(db):
    try:
        return sorted({e["file"] for e in json.load(open(os.path.join(db, "compile_commands.json")))})
    except (OSError, ValueError, KeyError):
        return []


def parse_share(binary, db, out):
    """Counts of the front end over the library (crates/front/examples/parse_share.rs)."""
    rc, stdout, stderr = run_capture([binary, "-p", db], timeout=1800)
    with open(out, "w") as f:
        f.write(stdout + stderr)
    result = {"files_parsed": 0, "files_failed": 0, "lowered": 0, "excluded": 0,
              "exclusions": {}, "file_failures": {}, "rc": rc}
    m = re.search(r"^files: (\d+) parsed, (\d+) failed; functions in parsed files: (\d+) lowered, "
                  r"(\d+) excluded", stdout, re.M)
    if m:
        result.update(files_parsed=int(m[1]), files_failed=int(m[2]), lowered=int(m[3]),
                      excluded=int(m[4]))
    for n, why in re.findall(r"^function excluded: (\d+) x (.*)$", stdout, re.M):
        result["exclusions"][why] = result["exclusions"].get(why, 0) + int(n)
    for n, why in re.findall(r"^file fails: (\d+) x (.*)$", stdout, re.M):
        result["file_failures"][why] = result["file_failures"].get(why, 0) + int(n)
    return result


IR_FUNCTION = re.compile(r"^(?:\w+ )*fn @f\d+ ([A-Za-z_]\w*)\(.*\{$", re.M)


def lowered_functions(cairn, db, files, log, jobs=2):
    """(file, function) for every function with a body the front end lowers,
    per file through `cairn ir` (the same binary as gen), `jobs` files at a
    time. A function of a header shows up in every file including it: it is
    kept in the file whose own text defines it."""
    def one(path):
        return path, run_capture([cairn, "ir", path, "-p", db], timeout=120)

    pairs, failed = [], []
    with open(log, "a") as out, concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for path, (rc, stdout, stderr) in pool.map(one, files):
            if rc != 0:
                failed.append(path)
                first = (stderr.strip().splitlines() or ["(no message)"])[0]
                out.write(f"ir {path}: exit {rc}: {first}\n")
                continue
            try:
                text = open(path, errors="replace").read()
            except OSError:
                continue
            for name in IR_FUNCTION.findall(stdout):
                # Defined here: the name followed by "(" in the file's own text
                # (a macro-made definition would be missed; it then stays out).
                if re.search(r"\b" + re.escape(name) + r"\s*\(", text):
                    pairs.append((path, name))
    return sorted(set(pairs)), failed


def sample(pairs, count, seed, library):
    rng = random.Random(f"{seed}:{library}")
    chosen = pairs if len(pairs) <= count else rng.sample(pairs, count)
    return sorted(chosen)


def gen_once(cairn, db, out, names, jobs, max_time, limit, log_dir, attempt):
    subprocess.run(["rm", "-rf", out])
    mem_file = os.path.join(log_dir, "gen.mem")
    cmd = ["/usr/bin/time", "-f", "%M", "-o", mem_file, "timeout", "-k", "10", str(limit),
           cairn, "gen", "-p", db, "-o", out, "-j", str(jobs), "--max-time", str(max_time)]
    for n in names:
        cmd += ["-f", n]
    start = time.monotonic()
    rc, stdout, stderr = run_capture(cmd, timeout=limit + 60)
    seconds = time.monotonic() - start
    with open(os.path.join(log_dir, "gen.log"), "a" if attempt else "w") as f:
        f.write(f"=== attempt {attempt + 1}\n$ " + " ".join(cmd) + "\n" + stdout
                + "\n--- stderr\n" + stderr)
    try:
        # GNU time writes "Command exited with non-zero status N" before %M.
        peak_kb = int(open(mem_file).read().strip().splitlines()[-1])
    except (OSError, ValueError, IndexError):
        peak_kb = None
    return rc, stderr, seconds, peak_kb


def gen(cairn, db, out, chosen, jobs, max_time, log_dir):
    """cairn gen -p on the sample, timed and bounded. When gen refuses the
    whole run (exit 2, nothing written: a file or function it cannot take),
    that is recorded, and gen then runs once per file holding sampled
    functions, each with a database of that file alone, into OUT/<file>/,
    so that the rest of the library is still measured."""
    names = sorted({fn for _, fn in chosen})
    limit = int(120 + 3 * len(chosen) * max_time)
    rc, stderr, seconds, peak_kb = gen_once(cairn, db, out, names, jobs, max_time, limit,
                                            log_dir, 0)
    result = {"rc": rc, "seconds": round(seconds, 1), "limit": limit, "refused": [],
              "per_file": False,
              "peak_mb": None if peak_kb is None else round(peak_kb / 1024, 1)}
    fatal = [l for l in stderr.splitlines() if l.startswith("cairn: ")]
    stderr_all = stderr
    if rc == 2 and not os.path.exists(out):
        result["refused"].append({"files": [], "lines": fatal[:20]})
        result["per_file"] = True
        entries = {e["file"]: e for e in json.load(open(os.path.join(db, "compile_commands.json")))}
        by_file = {}
        for path, fn in chosen:
            by_file.setdefault(path, []).append(fn)
        fatal = []
        peaks = []
        for i, (path, fns) in enumerate(sorted(by_file.items()), 1):
            if path not in entries:
                continue
            one = os.path.join(log_dir, "db-per-file", str(i))
            os.makedirs(one, exist_ok=True)
            with open(os.path.join(one, "compile_commands.json"), "w") as f:
                json.dump([entries[path]], f)
            file_out = os.path.join(out, os.path.splitext(os.path.basename(path))[0] + f"-{i}")
            rc_i, err_i, sec_i, peak_i = gen_once(cairn, one, file_out, sorted(set(fns)), jobs,
                                                  max_time, int(120 + 3 * len(fns) * max_time),
                                                  log_dir, i)
            seconds += sec_i
            peaks.append(peak_i or 0)
            stderr_all += err_i
            lines = [l for l in err_i.splitlines() if l.startswith("cairn: ")]
            if rc_i == 2 and not os.path.exists(file_out):
                result["refused"].append({"files": [path], "lines": lines[:5]})
            else:
                fatal += lines
            if rc_i not in (0, 1, 2, 5):
                rc = rc_i
        result.update(seconds=round(seconds, 1), peak_mb=round(max(peaks, default=0) / 1024, 1))
        if rc == 2:
            rc = 0
        result["rc"] = rc
    unread = {}
    for m in re.finditer(r"could not be read \(see above\): (.*)", stderr_all):
        for path in m[1].split(", "):
            path = path.strip()
            first = next((l for l in stderr_all.splitlines()
                          if l.startswith(path + ":") and re.search(r"\berror\b|unsupported", l)), "")
            unread[path] = first or "(no diagnostic)"
    result["unread"] = unread
    crashed = rc in (124, 137) or rc >= 101 and rc != 130 or bool(PANIC.search(stderr_all))
    panic = PANIC.search(stderr_all)
    result.update(crashed=crashed, timed_out=rc == 124, stderr_lines=fatal[:200],
                  panic=stderr_all[panic.start():][:500] if panic else None)
    return result


def check(cairn, out, log_dir, limit):
    cmd = ["timeout", "-k", "10", str(limit), cairn, "check", out, "--sanitize", "--json"]
    start = time.monotonic()
    rc, stdout, stderr = run_capture(cmd, timeout=limit + 60)
    seconds = time.monotonic() - start
    with open(os.path.join(log_dir, "check.json"), "w") as f:
        f.write(stdout)
    with open(os.path.join(log_dir, "check.err"), "w") as f:
        f.write("$ " + " ".join(cmd) + "\n" + stderr)
    try:
        report = json.loads(stdout)
    except ValueError:
        report = None
    crashed = rc == 124 or rc >= 101 or bool(PANIC.search(stderr)) or report is None and rc != 0
    return {"rc": rc, "seconds": round(seconds, 1), "crashed": crashed,
            "timed_out": rc == 124, "panic": (PANIC.search(stderr) and
                                               stderr[PANIC.search(stderr).start():][:500]) or None,
            "stderr_tail": stderr.strip().splitlines()[-5:]}, report


def tests_files(out):
    found = {}
    for root, _, files in os.walk(out):
        # .cairn/ holds run records, .cairn-build/ check's builds; a source
        # under the project's build/ (generated code) has its outputs there.
        if "/.cairn" in root:
            continue
        for f in files:
            if f.endswith(".tests.json"):
                try:
                    data = json.load(open(os.path.join(root, f)))
                except (OSError, ValueError):
                    continue
                found[os.path.realpath(data.get("source", ""))] = (root, data)
    return found


def first_error(message):
    lines = message.splitlines()
    for line in lines:
        if re.search(r"\berror\b:", line):
            return line.strip()
    for line in lines[1:]:
        if line.strip():
            return line.strip()
    return lines[0].strip() if lines else ""


def measure(chosen, out, report, gen_result):
    """The figures of one row and the failures behind them."""
    wanted = {(os.path.realpath(p), fn) for p, fn in chosen}
    by_source = tests_files(out)
    row = {"sampled": len(chosen), "with_tests": 0, "drivers": 0, "drivers_ok": 0,
           "findings_files": 0, "findings_files_ok": 0, "tests_run": 0, "tests_passed": 0,
           "sanitized": 0, "sanitizer_clean": 0, "branches_covered": 0, "branches_total": 0,
           "findings": 0, "confirmed": 0, "unconfirmed": 0, "claimed_not_measured": 0,
           "predicted_covered": 0, "predicted_total": 0, "dropped_tests": 0, "withdrawn": 0}
    failures = []
    for source, (root, data) in by_source.items():
        for fn in data.get("functions", []):
            if (source, fn["name"]) in wanted:
                written = [t for t in fn.get("tests", []) if not t.get("skipped")]
                row["with_tests"] += bool(written)
                # gen ran its tests and reproducers: what the run contradicted
                # it left out (tests) or withdrew (findings), with the reason.
                for dropped in fn.get("dropped_tests", []):
                    row["dropped_tests"] += 1
                    failures.append({"class": "test left out by gen (its run contradicted cairn)",
                                     "file": source, "function": fn["name"],
                                     "test": dropped["name"], "detail": dropped["reason"][:400]})
                row["withdrawn"] += sum(1 for f in fn.get("findings", []) if f.get("not_confirmed"))
                row["predicted_covered"] += sum(1 for g in fn.get("goals", []) if g.get("covered"))
                row["predicted_total"] += len(fn.get("goals", []))
    for file in (report or {}).get("files", []):
        source = os.path.realpath(file.get("source", ""))
        # A driver that does not compile has no functions in the check
        # report: its tests.json still names them.
        generated = by_source.get(source, (None, {}))[1].get("functions", [])
        names = {f["name"] for f in file.get("functions", [])} | {f["name"] for f in generated}
        sampled_here = {n for n in names if (source, n) in wanted}
        if not sampled_here:
            continue
        short = file.get("source", "")
        row["drivers"] += 1
        problems = file.get("problems", [])
        compile_errors = [p["message"] for p in problems if p["kind"] == "compile-error"]
        findings_errors = [m for m in compile_errors if "does not compile" in m.split("\n")[0]]
        driver_errors = [m for m in compile_errors if m not in findings_errors]
        if not driver_errors:
            row["drivers_ok"] += 1
        else:
            failures.append({"class": "driver does not compile", "file": short,
                             "function": ",".join(sorted(sampled_here)),
                             "detail": first_error(driver_errors[0])})
        has_findings = bool(by_source.get(source, (None, {}))[1].get("findings_driver"))
        if has_findings:
            row["findings_files"] += 1
            if findings_errors:
                failures.append({"class": "findings file does not compile", "file": short,
                                 "function": ",".join(sorted(sampled_here)),
                                 "detail": first_error(findings_errors[0])})
            else:
                row["findings_files_ok"] += 1
        if not any("sanitize" in m.split("\n")[0] for m in driver_errors) and not driver_errors:
            row["sanitized"] += 1
            sanitizer = [p["message"] for p in problems if p["kind"] == "sanitizer"]
            if sanitizer:
                failures.append({"class": "sanitizer report in a driver", "file": short,
                                 "function": ",".join(sorted(sampled_here)),
                                 "detail": sanitizer_line(sanitizer[0])})
            else:
                row["sanitizer_clean"] += 1
        for p in problems:
            if p["kind"] == "crash":
                failures.append({"class": "driver stopped", "file": short,
                                 "function": ",".join(sorted(sampled_here)),
                                 "detail": first_error(p["message"])})
            if p["kind"] == "claimed-not-measured" and p["message"].split(":")[0] in sampled_here:
                row["claimed_not_measured"] += 1
                failures.append({"class": "claimed but not measured", "file": short,
                                 "function": p["message"].split(":")[0],
                                 "detail": p["message"]})
            if p["kind"] == "coverage":
                failures.append({"class": "coverage not measured", "file": short,
                                 "function": ",".join(sorted(sampled_here)),
                                 "detail": first_error(p["message"])})
        for t in file.get("tests", []):
            if t["function"] not in sampled_here:
                continue
            if t["outcome"] in ("passed", "failed", "error"):
                row["tests_run"] += 1
                row["tests_passed"] += t["outcome"] == "passed"
            if t["outcome"] in ("failed", "error"):
                failures.append({"class": "test fails" if t["outcome"] == "failed"
                                 else "test crashes or is stopped", "file": short,
                                 "function": t["function"], "test": t["name"],
                                 "detail": "; ".join(t.get("messages", []))[:400]})
        measured = {f["name"]: f for f in file.get("functions", [])}
        for g in generated:
            if g["name"] not in sampled_here:
                continue
            m = (measured.get(g["name"]) or {}).get("measured_branches")
            if m:
                row["branches_covered"] += m["covered"]
                row["branches_total"] += m["total"]
            else:  # not measured: cairn's own goals count, none covered
                row["branches_total"] += len(g.get("goals", []))
        confirmed = {r["number"]: r for r in file.get("reproducers", [])}
        # A claim is a finding cairn reports as a fault: on inputs something
        # vouches for, and not withdrawn by gen's run of its reproducer.
        claims = {(f["name"], x.get("line"), x.get("col"), x.get("kind"))
                  for f in generated for x in f.get("findings", [])
                  if not x.get("unvouched_inputs") and not x.get("not_confirmed")}
        for finding in file.get("findings", []):
            if finding["function"] not in sampled_here:
                continue
            if (finding["function"], finding.get("line"), finding.get("col"),
                    finding.get("kind")) not in claims:
                continue
            row["findings"] += 1
            run = confirmed.get(finding.get("reproducer"))
            if run and run.get("confirmed"):
                row["confirmed"] += 1
            else:
                row["unconfirmed"] += 1
                failures.append({"class": f"finding not confirmed ({finding['kind']})",
                                 "file": short, "function": finding["function"],
                                 "detail": f"{finding.get('line')}:{finding.get('col')} "
                                           f"{finding.get('message', '')}"
                                           + (" [inputs not vouched for: "
                                              + ", ".join(finding["unvouched_inputs"]) + "]"
                                              if finding.get("unvouched_inputs") else "")})
    for i, r in enumerate(gen_result.get("refused", [])):
        failures.append({"class": "cairn gen -p refused the whole run (exit 2, nothing written)"
                         if i == 0 else "cairn gen refused a file alone (exit 2)",
                         "file": (r["files"] or [""])[0], "function": "",
                         "detail": " | ".join(r["lines"][:3])[:400]})
    unread = dict(gen_result.get("unread", {}))
    no_body = {m[1] for l in gen_result.get("stderr_lines", [])
               for m in [re.match(r"cairn: function `(\w+)` has no body", l)] if m}
    for path, why in unread.items():
        if why == "(no diagnostic)":
            mine = sorted(fn for p, fn in wanted if p == path and fn in no_body)
            if mine:
                unread[path] = ("no diagnostic but `function has no body cairn can analyse` for "
                                "the sampled " + ", ".join(mine) + " (which `cairn ir` lowers)")
    for path, why in sorted(unread.items()):
        failures.append({"class": "cairn gen: a file could not be read", "file": path,
                         "function": "", "detail": why[:400]})
    for line in gen_result.get("stderr_lines", []):
        if line.startswith(("cairn: project:", "cairn: wrote")) or "could not be read" in line:
            continue
        m = re.match(r"cairn: (/[^:]+): (.*)", line)
        failures.append({"class": "cairn gen: a file or function left out",
                         "file": m[1] if m else "", "function": "", "detail": line[:400]})
    # Sampled functions gen wrote nothing for, or no test.
    seen = {(source, fn["name"]): fn for source, (_, data) in by_source.items()
            for fn in data.get("functions", [])}
    for path, name in sorted(wanted):
        fn = seen.get((path, name))
        if fn is None:
            why = unread.get(path) or next((" | ".join(r["lines"][:2]) for r in gen_result.get("refused", [])
                                            if path in r["files"]), "")
            failures.append({"class": "sampled function missing from gen's output", "file": path,
                             "function": name, "detail": "lowered by `cairn ir`, absent from tests.json"
                                                         + (f": {why}" if why else "")})
        elif not [t for t in fn.get("tests", []) if not t.get("skipped")]:
            reasons = {}
            for g in fn.get("goals", []):
                if not g.get("covered"):
                    key = re.sub(r"`[^`]*`", "_", g.get("reason") or "no reason")
                    reasons[key] = reasons.get(key, 0) + 1
            untested = fn.get("untested")
            top = re.sub(r"`[^`]*`", "_", untested) if untested else \
                max(reasons.items(), key=lambda kv: kv[1])[0] if reasons else "no goals"
            failures.append({"class": "function got no test", "file": path, "function": name,
                             "detail": f"{len(fn.get('goals', []))} goals, "
                                       f"{len(fn.get('findings', []))} findings; uncovered: {top}"})
    return row, failures


def sanitizer_line(message):
    for line in message.splitlines():
        if "ERROR: AddressSanitizer" in line or "runtime error:" in line \
                or "ERROR: LeakSanitizer" in line:
            return line.strip()
    return first_error(message)
