"""Building a library with its own build system, for a compile_commands.json
whose every file has its real flags and whose generated headers (config.h,
...) exist: CMake and Meson write the database at configure time, autotools
and plain Makefiles are built under bear. Builds run with -k so that one
file that fails does not stop the others."""

import json
import os
import re
import shutil
import subprocess

C_EXT = {".c"}
# Compiled languages other than C; a package is "mostly C" when .c files are
# more than half of these and the .c files together.
OTHER_EXT = {".cc", ".cpp", ".cxx", ".c++", ".C", ".cp", ".rs", ".go", ".java", ".m",
             ".mm", ".f", ".f90", ".f95", ".for", ".d", ".cs", ".swift", ".kt",
             ".scala", ".ml", ".hs", ".pas", ".vala", ".adb", ".ads", ".zig", ".nim"}
SKIP_TREES = {"debian", ".pc", ".git"}
# Directories whose programs are not the library: test programs, examples,
# fuzzers, benchmarks, demos. Their files are left out of the database.
NOT_LIBRARY = {"test", "tests", "testing", "testsuite", "t", "unittests",
               "example", "examples", "fuzz", "fuzzing", "fuzzer", "oss-fuzz",
               "demo", "demos", "bench", "benchmark", "benchmarks", "sample", "samples"}

CONFIGURE_LIMIT = 300
BUILD_LIMIT = 600


def count_languages(src):
    c = other = 0
    for root, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if d not in SKIP_TREES]
        for f in files:
            ext = os.path.splitext(f)[1]
            if ext in C_EXT:
                c += 1
            elif ext in OTHER_EXT:
                other += 1
    return c, other


def rules_hints(src):
    """--buildsystem and --sourcedirectory from debian/rules, where given."""
    try:
        text = open(os.path.join(src, "debian", "rules")).read()
    except OSError:
        return None, None
    system = re.search(r"--buildsystem[= ]+(\w+)", text)
    sourcedir = re.search(r"(?:--sourcedirectory|--sourcedir)[= ]+([\w./-]+)", text)
    return (system.group(1) if system else None,
            sourcedir.group(1).strip("/") if sourcedir else None)


def detect(src, use_hints=True):
    """(build system, directory) the way debhelper would pick them: a hint in
    debian/rules (unless use_hints is false), else configure(.ac) before a
    Makefile before CMake before Meson (dh_autoreconf makes configure from
    configure.ac first)."""
    system, sourcedir = rules_hints(src) if use_hints else (None, None)
    root = os.path.join(src, sourcedir) if sourcedir else src
    if not os.path.isdir(root):
        root = src
    has = lambda *names: any(os.path.exists(os.path.join(root, n)) for n in names)
    mapping = {"autoconf": "autotools", "cmake": "cmake", "meson": "meson",
               "makefile": "make", "ninja": None}
    if system in mapping and mapping[system]:
        return mapping[system], root
    if has("configure", "configure.ac", "configure.in"):
        return "autotools", root
    if has("GNUmakefile", "Makefile", "makefile"):
        return "make", root
    if has("CMakeLists.txt"):
        return "cmake", root
    if has("meson.build"):
        return "meson", root
    return None, root


def run(cmd, cwd, log, timeout, env=None):
    with open(log, "a") as out:
        out.write(f"$ (cd {cwd} && {' '.join(cmd)})\n")
        out.flush()
        try:
            return subprocess.run(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL, timeout=timeout,
                                  env=dict(os.environ, **(env or {}))).returncode
        except subprocess.TimeoutExpired:
            out.write(f"timed out after {timeout} s\n")
            return 124
        except OSError as e:
            out.write(f"{e}\n")
            return 127


def configure(system, root, build, log):
    """0 when configured; the build directory is `build` for CMake and Meson,
    the source tree otherwise."""
    if system == "cmake":
        shutil.rmtree(build, ignore_errors=True)
        return run(["cmake", "-S", root, "-B", build, "-G", "Ninja",
                    "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", "-DCMAKE_BUILD_TYPE=RelWithDebInfo"],
                   root, log, CONFIGURE_LIMIT)
    if system == "meson":
        shutil.rmtree(build, ignore_errors=True)
        return run(["meson", "setup", build, root], root, log, CONFIGURE_LIMIT)
    if system == "autotools":
        if not os.path.exists(os.path.join(root, "configure")):
            # gtk-doc's and NOCONFIGURE-aware autogen.sh files would be
            # nicer, but autoreconf is what every one of them runs.
            rc = run(["autoreconf", "-fi"], root, log, CONFIGURE_LIMIT)
            if rc != 0:
                return rc
        # A tarball may lose the executable bit (dpkg-source keeps what
        # the upstream archive has): run it through the shell.
        return run(["sh", "./configure"], root, log, CONFIGURE_LIMIT)
    return 0  # a plain Makefile


def build_all(system, root, build, log, database):
    """Builds (-k); returns the path of the raw compile_commands.json and the
    build's exit status."""
    if system in ("cmake", "meson"):
        rc = run(["timeout", str(BUILD_LIMIT), "ninja", "-C", build, "-k", "0", "-j2"], root, log,
                 BUILD_LIMIT + 60)
        return os.path.join(build, "compile_commands.json"), rc
    # bear writes what it saw even when make failed or timeout stopped it.
    raw = database + ".raw"
    os.makedirs(os.path.dirname(raw), exist_ok=True)
    # A second build (after build-dep) recompiles only part: --append keeps the rest.
    append = ["--append"] if os.path.exists(raw) else []
    rc = run(["bear", "--output", raw, *append, "--", "timeout", str(BUILD_LIMIT), "make", "-k",
              "-j2"], root, log, BUILD_LIMIT + 120)
    return raw, rc


def is_library_file(path, roots):
    for r in roots:
        if path.startswith(r.rstrip("/") + "/"):
            parts = os.path.relpath(path, r).split("/")[:-1]
            return not any(p.lower() in NOT_LIBRARY for p in parts)
    return False


def filter_database(raw, out, roots):
    """The library's C files of raw, once each, that exist: written to out.
    Returns the number of files."""
    try:
        entries = json.load(open(raw))
    except (OSError, ValueError):
        return 0
    kept, seen = [], set()
    for e in entries:
        path = os.path.normpath(os.path.join(e.get("directory", ""), e.get("file", "")))
        if not path.endswith(".c") or path in seen or not os.path.isfile(path):
            continue
        if not is_library_file(path, roots):
            continue
        seen.add(path)
        e = dict(e, file=path)
        kept.append(e)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        json.dump(kept, f, indent=1)
    return len(kept)
