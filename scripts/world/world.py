#!/usr/bin/env python3
"""The world corpus check (scripts/world-check.sh): cairn on C libraries of
Debian 12 drawn at random, each built with its own build system. See the
header of scripts/world-check.sh for what it does and prints."""

import argparse
import datetime
import fcntl
import hashlib
import json
import os
import platform
import queue
import re
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import build as builder  # noqa: E402
import cairn_run  # noqa: E402
import debian  # noqa: E402
import report  # noqa: E402

# The CI slice: libraries of the seed-1 draw (positions 11, 13, 46, 58) that
# configure without extra build dependencies and build in about 2 minutes
# at most on 2 cores, one of each build system among them.
CI_SLICE = ["libkal", "potrace", "miniupnpc", "faad2"]
PREPARE_VERSION = 2  # bump to redo every library's preparation
RESULT_VERSION = 3  # bump when what run_cairn records changes


def log(message):
    print(f"world: {message}", file=sys.stderr, flush=True)


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def load(path):
    try:
        return json.load(open(path))
    except (OSError, ValueError):
        return None


def save(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
    os.replace(tmp, path)


def log_reason(log_file, offset):
    """The line of a failed configure that says why."""
    try:
        with open(log_file, errors="replace") as f:
            f.seek(offset)
            lines = f.read().splitlines()
    except OSError:
        return "no log"
    for pattern in (r"configure: error: .*", r"CMake Error.*", r"^ERROR: .*", r"meson\.build:\d+.*ERROR.*",
                    r"(?i)error: .*", r"timed out.*"):
        for i, line in enumerate(lines):
            if re.search(pattern, line):
                text = line.strip()
                # CMake puts its reason on the following lines.
                if text.startswith("CMake Error"):
                    text += " " + " ".join(l.strip() for l in lines[i + 1:i + 4] if l.strip())
                return text[:300]
    return (lines[-1].strip() if lines else "no output")[:300]


def build(apt, name, info, directory, build_deps, system, root, state):
    """Configures and builds with `system` in `root` under bear; None when
    the database holds a C file of the library, else why not."""
    src = os.path.join(directory, "src")
    log_file = os.path.join(directory, "build.log")
    state.update(system=system, root=os.path.relpath(root, src))
    build_dir = os.path.join(directory, "build")
    offset = os.path.getsize(log_file)
    rc = builder.configure(system, root, build_dir, log_file)
    state["build_deps"] = state.get("build_deps", False)

    def install_build_deps():
        # Most failures are missing dependencies: Debian's own list, once.
        apt.run(["build-dep", "--no-install-recommends", "-y", "-qq", f"{name}={info['version']}"],
                log_file, timeout=900)
        state["build_deps"] = True

    if rc != 0 and build_deps and not state["build_deps"]:
        state["first_configure_error"] = log_reason(log_file, offset)
        install_build_deps()
        offset = os.path.getsize(log_file)
        rc = builder.configure(system, root, build_dir, log_file)
    if rc != 0:
        return f"{system}: configure failed: {log_reason(log_file, offset)}"
    db = os.path.join(directory, "db", "compile_commands.json")
    t = time.monotonic()
    if os.path.exists(db + ".raw"):
        os.remove(db + ".raw")
    raw, rc = builder.build_all(system, root, build_dir, log_file, db)
    if rc != 0 and build_deps and not state["build_deps"]:
        # Some builds configure without an optional-looking dependency and
        # then fail to compile (a missing header): the same remedy, once.
        state["first_build_error"] = log_reason(log_file, offset)
        install_build_deps()
        if builder.configure(system, root, build_dir, log_file) == 0:
            raw, rc = builder.build_all(system, root, build_dir, log_file, db)
    state["build_rc"] = rc
    state["build_seconds"] = round(time.monotonic() - t, 1)
    files = builder.filter_database(raw, db, [src, build_dir])
    state["c_files"] = files
    if files == 0:
        return f"{system}: no C file of the library in compile_commands.json"
    return None


def prepare(apt, name, info, directory, build_deps):
    """Fetch, extract, classify and build one library: {"status": "ok", ...}
    or {"status": "replaced", "reason": ...}. Cached in directory/prepare.json."""
    state_file = os.path.join(directory, "prepare.json")
    state = load(state_file)
    if state and state.get("version") == PREPARE_VERSION and state.get("package_version") == info["version"]:
        # A failed download is tried again after a day: the mirror may have it then.
        if not state.get("download_failed") or time.time() - state.get("when", 0) < 86400:
            return state
    os.makedirs(directory, exist_ok=True)
    log_file = os.path.join(directory, "build.log")
    open(log_file, "w").close()
    state = {"version": PREPARE_VERSION, "package_version": info["version"], "status": "replaced"}
    start = time.monotonic()

    def done(**fields):
        state.update(fields, prepare_seconds=round(time.monotonic() - start, 1))
        save(state_file, state)
        return state

    error = debian.fetch(apt, name, info["version"], directory, log_file)
    if error:
        return done(reason=error, download_failed=True, when=time.time())
    src = os.path.join(directory, "src")
    c, other = builder.count_languages(src)
    state.update(c_sources=c, other_sources=other)
    if c == 0:
        return done(reason="no .c files")
    if c <= other:
        return done(reason=f"not mostly C ({c} .c, {other} other compiled sources)")
    system, root = builder.detect(src)
    if system is None:
        return done(reason="no build system found (no configure, Makefile, CMakeLists.txt, meson.build)")
    failure = build(apt, name, info, directory, build_deps, system, root, state)
    if failure and os.path.realpath(root) != os.path.realpath(src):
        # debian/rules may name the directory of a second build (demos next
        # to the library): the top directory's own build, then.
        top_system, top = builder.detect(src, use_hints=False)
        if top_system is not None:
            state["first_root_failure"] = failure
            failure = build(apt, name, info, directory, build_deps, top_system, top, state)
    if failure:
        return done(reason=failure)
    return done(status="ok")


def run_cairn(name, info, directory, opts, cairn_sha, parse_share):
    """cairn on one prepared library; cached by binary, options and sample."""
    result_file = os.path.join(directory, "result.json")
    key = {"format": RESULT_VERSION, "cairn": cairn_sha, "seed": opts.seed, "functions": opts.functions,
           "max_time": opts.max_time, "parse_share": opts.parse_share_sha}
    old = load(result_file)
    if old and old.get("key") == key:
        if opts.remeasure and old.get("gen") and old.get("sample"):
            # The row and failures again from the outputs on disk (after a
            # change to what this script reads from them).
            chosen = [(os.path.join(directory, p), fn) for p, fn in old["sample"]]
            report_json = load(os.path.join(directory, "logs", "check.json"))
            old["row"], old["failures"] = cairn_run.measure(
                chosen, os.path.join(directory, "out"), report_json, old["gen"])
            add_cairn_failures(old)
            save(result_file, old)
        return old
    db = os.path.join(directory, "db")
    logs = os.path.join(directory, "logs")
    os.makedirs(logs, exist_ok=True)
    result = {"key": key}
    files = cairn_run.database_files(db)
    if parse_share:
        result["front"] = cairn_run.parse_share(parse_share, db, os.path.join(logs, "parse_share.txt"))
    open(os.path.join(logs, "ir.log"), "w").close()
    pairs, ir_failed = cairn_run.lowered_functions(opts.cairn, db, files, os.path.join(logs, "ir.log"))
    result["lowered_pairs"] = len(pairs)
    result["ir_failed_files"] = ir_failed
    chosen = cairn_run.sample(pairs, opts.functions, opts.seed, name)
    result["sample"] = [[os.path.relpath(p, directory), fn] for p, fn in chosen]
    out = os.path.join(directory, "out")
    if not chosen:
        result.update(gen=None, check=None, row=None, failures=[
            {"class": "no function lowered", "file": "", "function": "", "detail": ""}])
        save(result_file, result)
        return result
    g = cairn_run.gen(opts.cairn, db, out, chosen, opts.jobs, opts.max_time, logs)
    result["gen"] = g
    limit = 900 if opts.slice != "ci" else 400
    c, check_report = cairn_run.check(opts.cairn, out, logs, limit)
    result["check"] = c
    result["row"], result["failures"] = cairn_run.measure(chosen, out, check_report, g)
    add_cairn_failures(result)
    save(result_file, result)
    return result


def add_cairn_failures(result):
    g, c, failures = result["gen"], result["check"], result["failures"]
    if g["crashed"]:
        failures.insert(0, {"class": "cairn gen timed out" if g["timed_out"] else "cairn gen crashed",
                            "file": "", "function": "", "detail": g["panic"] or f"exit {g['rc']}"})
    if c["crashed"]:
        failures.insert(0, {"class": "cairn check timed out" if c["timed_out"]
                            else "cairn check crashed", "file": "", "function": "",
                            "detail": c["panic"] or f"exit {c['rc']}: {' | '.join(c['stderr_tail'])}"})


def write_library_log(directory, name, info, prep, result):
    with open(os.path.join(directory, "world.log"), "w") as f:
        f.write(f"{name} {info['version']}\n")
        f.write(json.dumps({k: v for k, v in prep.items()}, indent=1) + "\n")
        if result:
            if result.get("gen"):
                f.write(f"gen: {json.dumps(result['gen'], indent=1)}\n")
            if result.get("check"):
                f.write(f"check: {json.dumps(result['check'], indent=1)}\n")
            f.write(f"sample: {result.get('sample')}\n")
            for failure in result.get("failures", []):
                f.write(f"[{failure['class']}] {failure.get('file')} {failure.get('function')} "
                        f"{failure.get('test', '')}: {failure.get('detail')}\n")


def write_outputs(work, opts, every, pool, libraries, replaced, run_start, cairn_sha, done):
    """The JSON, table and exclusions; rewritten after every library, so that
    a run cut short still leaves its figures."""
    summary = {
        "command": "scripts/world-check.sh " + " ".join(sys.argv[1:]),
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "machine": f"{platform.node()}, {os.cpu_count()} cores", "cairn": opts.cairn,
        "cairn_sha256": cairn_sha, "seed": opts.seed, "count": opts.count,
        "functions": opts.functions, "max_time": opts.max_time, "slice": opts.slice,
        "max_size_mb": opts.max_size_mb, "candidates": len(every), "within_size": len(pool),
        "seconds": round(time.monotonic() - run_start), "finished": done,
        "libraries": libraries, "replaced": replaced,
    }
    name = "world-ci" if opts.slice == "ci" else "world-only" if opts.only else "world"
    save(os.path.join(work, f"{name}.json"), summary)
    with open(os.path.join(work, f"{name}-table.md"), "w") as f:
        f.write(report.markdown(summary))
    with open(os.path.join(work, f"{name}-excluded.md"), "w") as f:
        f.write(report.excluded(summary))
    return summary


def main():
    parser = argparse.ArgumentParser(prog="world-check.sh", description=__doc__)
    parser.add_argument("workdir", nargs="?", default="/tmp/cairn-world")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--functions", type=int, default=None,
                        help="functions sampled per library (default 30, 8 for --slice ci)")
    parser.add_argument("--max-time", type=float, default=3)
    parser.add_argument("--max-size-mb", type=float, default=15,
                        help="leave out packages whose upstream tarballs are larger")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--slice", choices=["ci"])
    parser.add_argument("--only", default=None,
                        help="comma-separated packages of the draw: run these alone, in draw order "
                             "(to compare two binaries on some libraries; tables go to world-only*)")
    parser.add_argument("--ahead", type=int, default=0,
                        help="prepare up to N libraries ahead while cairn runs (default 0: one thing at a time)")
    parser.add_argument("--prepare-only", action="store_true",
                        help="fetch, configure and build the libraries of the draw, run no cairn "
                             "(to measure them later on an idle machine)")
    parser.add_argument("--remeasure", action="store_true",
                        help="read the rows and failures of cached cairn results again from their outputs")
    parser.add_argument("--no-build-deps", action="store_true",
                        help="never install build dependencies (replace the library instead)")
    opts = parser.parse_args()
    if opts.functions is None:
        opts.functions = 8 if opts.slice == "ci" else 30
    opts.cairn = os.environ.get("CAIRN")
    if not opts.cairn or not os.access(opts.cairn, os.X_OK):
        raise SystemExit("world: set CAIRN to the cairn binary")
    parse_share = os.environ.get("PARSE_SHARE") or None
    opts.parse_share_sha = sha256_file(parse_share)[:16] if parse_share else None
    work = os.path.abspath(opts.workdir)
    os.makedirs(os.path.join(work, "libs"), exist_ok=True)
    # Two checks over one directory overwrite each other's outputs: the
    # second stops at once (the lock goes with this process, however it ends).
    lock = open(os.path.join(work, ".world.lock"), "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise SystemExit(f"world: another world check is running in {work}; wait for it or stop it")
    run_start = time.monotonic()
    cairn_sha = sha256_file(opts.cairn)

    apt = debian.Apt(work)
    apt.update(os.path.join(work, "apt.log"))
    every = debian.candidates(apt.sources_text())
    cap = opts.max_size_mb * 1e6
    pool = {n: i for n, i in every.items() if i["bytes"] <= cap}
    if opts.slice == "ci":
        order = [n for n in CI_SLICE if n in pool]
        wanted = len(order)
    elif opts.only:
        chosen = set(opts.only.split(","))
        order = [n for n in debian.draw_order(pool, opts.seed) if n in chosen]
        wanted = len(order)
    else:
        order = debian.draw_order(pool, opts.seed)
        wanted = opts.count
    log(f"{len(every)} C library source packages, {len(pool)} within {opts.max_size_mb:g} MB; "
        f"drawing {wanted} with seed {opts.seed}")

    libraries, replaced = [], []
    stop = threading.Event()

    def prepared():
        for position, name in enumerate(order, 1):
            if stop.is_set():
                return
            info = pool[name]
            directory = os.path.join(work, "libs", name)
            try:
                prep = prepare(apt, name, info, directory, not opts.no_build_deps)
            except Exception as e:  # a failed step is a row, never the end of the run
                prep = {"status": "replaced", "reason": f"world-check error: {e!r}"}
            yield position, name, info, directory, prep

    if opts.ahead > 0:
        # Configure scripts and cairn check are mostly one process: the next
        # library's preparation runs meanwhile (at some cost to gen's timing).
        ready = queue.Queue(maxsize=opts.ahead)

        def producer():
            for item in prepared():
                ready.put(item)
            ready.put(None)

        worker = threading.Thread(target=producer, daemon=True)
        worker.start()
        items = iter(ready.get, None)
    else:
        items = prepared()
    for position, name, info, directory, prep in items:
        if len(libraries) >= wanted:
            break
        t = time.monotonic()
        if prep["status"] != "ok":
            replaced.append({"position": position, "package": name, "version": info["version"],
                             "reason": prep.get("reason", "?")})
            log(f"#{position} {name}: replaced: {prep.get('reason')}")
            write_library_log(directory, name, info, prep, None) if os.path.isdir(directory) else None
            continue
        if opts.prepare_only:
            log(f"#{position} {name} {info['version']}: {prep['system']}, {prep['c_files']} C files; prepared")
            libraries.append({"position": position, "package": name})
            continue
        log(f"#{position} {name} {info['version']}: {prep['system']}, {prep['c_files']} C files; running cairn")
        try:
            result = run_cairn(name, info, directory, opts, cairn_sha, parse_share)
        except Exception as e:
            result = {"row": None, "failures": [{"class": "world-check error", "file": "",
                                                  "function": "", "detail": repr(e)}]}
        write_library_log(directory, name, info, prep, result)
        libraries.append({"position": position, "package": name, "version": info["version"],
                          "system": prep["system"], "c_files": prep["c_files"],
                          "build_deps": prep.get("build_deps", False),
                          "prepare_seconds": prep.get("prepare_seconds"),
                          "build_seconds": prep.get("build_seconds"),
                          "log": os.path.join(directory, "world.log"), **result})
        write_outputs(work, opts, every, pool, libraries, replaced, run_start, cairn_sha, done=False)
        if len(libraries) >= wanted:
            break
        row = result.get("row") or {}
        log(f"  {name}: {row.get('with_tests', 0)}/{row.get('sampled', 0)} functions with tests, "
            f"drivers {row.get('drivers_ok', 0)}/{row.get('drivers', 0)}, tests "
            f"{row.get('tests_passed', 0)}/{row.get('tests_run', 0)}, "
            f"{round(time.monotonic() - t)} s")

    stop.set()
    if opts.prepare_only:
        log(f"{len(libraries)} libraries prepared, {len(replaced)} replaced")
        return 0
    summary = write_outputs(work, opts, every, pool, libraries, replaced, run_start, cairn_sha,
                            done=True)
    print(report.markdown(summary))
    if opts.ahead > 0:
        # Let a preparation in progress end (it is cached), not orphan its build.
        while worker.is_alive():
            try:
                ready.get(timeout=1)
            except queue.Empty:
                pass
    if len(libraries) < wanted:
        log(f"only {len(libraries)} of {wanted} libraries could be prepared")
    if opts.slice == "ci":
        bad = report.ci_failures(summary, wanted)
        for line in bad:
            print(f"CI slice: {line}")
        if bad:
            print("world check (ci slice) FAILED")
            return 1
        print("world check (ci slice) passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
