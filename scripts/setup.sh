#!/usr/bin/env bash
# Installs what cairn needs on Debian 12 (with Rust and gcc already present) and
# nothing else. Safe to run again: every package is checked before installing.
#
#   libz3-dev   the Z3 solver, linked by the z3 crate through pkg-config
#               (z3-sys builds without bindgen, so libclang is not needed)
#   pkg-config  lets z3-sys find the system Z3
#   time, jq    GNU /usr/bin/time (peak memory) and jq (reads cairn --json)
#               for scripts/bench.sh
#   csmith, libcsmith-dev  random C programs (and their csmith.h) for
#               scripts/csmith-check.sh
#   z3          the Z3 binary: the engine's tests replay a query written by
#               --dump-queries with it
#   libcmocka-dev, libgtest-dev, g++  the test frameworks of
#               `cairn gen --framework cmocka|gtest` (Debian's libgtest-dev
#               ships the built libgtest.a and libgtest_main.a), for their
#               end-to-end tests
#   gcc-multilib  gcc -m32: `cairn gen --data-model ilp32` preprocesses and
#               its drivers build for i386 (crates/cairn/tests/data_model.rs)
#   clang-19, llvm-19  clang's MC/DC instrumentation and llvm-cov, which
#               `cairn check --coverage mcdc` measures with (clang 18 or
#               later; crates/cairn/tests/mcdc.rs, scripts/mcdc-check.py)
# Left out on purpose: chromium (155 MB of packages). With it on PATH the
# HTML report's end-to-end test (crates/cairn/tests/reports.rs) also renders
# the report headless and checks the screenshot; without it that step is
# skipped with a loud message (`apt-get install chromium` to run it).
set -euo pipefail

missing=()

# Z3 counts as present only when both the pkg-config entry and the header exist.
if ! command -v pkg-config >/dev/null 2>&1; then
    missing+=(pkg-config)
fi
if ! pkg-config --exists z3 2>/dev/null || [[ ! -f /usr/include/z3.h ]]; then
    missing+=(libz3-dev)
fi
[[ -x /usr/bin/time ]] || missing+=(time)
command -v jq >/dev/null 2>&1 || missing+=(jq)
command -v csmith >/dev/null 2>&1 || missing+=(csmith)
[[ -f /usr/include/csmith/csmith.h ]] || missing+=(libcsmith-dev)
command -v z3 >/dev/null 2>&1 || missing+=(z3)
command -v gcov >/dev/null 2>&1 || missing+=(gcc)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
[[ -f /usr/include/cmocka.h ]] || missing+=(libcmocka-dev)
[[ -f /usr/include/gtest/gtest.h ]] || missing+=(libgtest-dev)
[[ -d /usr/lib/gcc/x86_64-linux-gnu/12/32 ]] || missing+=(gcc-multilib)
if ! command -v clang-19 >/dev/null 2>&1 && ! command -v clang-18 >/dev/null 2>&1; then
    missing+=(clang-19)
fi
if ! command -v llvm-cov-19 >/dev/null 2>&1 && ! command -v llvm-cov-18 >/dev/null 2>&1; then
    missing+=(llvm-19)
fi
# clang's profile runtime, which an instrumented driver links: a package of
# its own, which a machine with clang-19 may lack.
if ! command -v clang-18 >/dev/null 2>&1 &&
    ! ls /usr/lib/llvm-19/lib/clang/19/lib/*/libclang_rt.profile*.a >/dev/null 2>&1; then
    missing+=(libclang-rt-19-dev)
fi

if ((${#missing[@]} == 0)); then
    exit 0
fi
source "$(dirname "$0")/apt-install.sh"
apt_install setup "${missing[@]}"
echo "setup: done"
