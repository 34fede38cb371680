#!/usr/bin/env bash
# The world corpus check: cairn on real C that nobody here wrote. Draws C
# library source packages of Debian 12 (bookworm main: those building a
# lib*-dev package of section libdevel, upstream tarballs of at most 15 MB)
# in a seeded random order (sha256 of "SEED:package"), and walks the draw:
# a package is replaced by the next one when it is not mostly C (.c files
# against C++, Rust, Go... sources), its build cannot be configured (even
# after `apt-get build-dep`), or its compile_commands.json has no C file of
# the library. Each library is built with its own build system (CMake or
# Meson with ninja -k 0; autotools or a plain Makefile under bear with
# make -k -j2), so that every file has its real flags and its generated
# headers; configure gets 5 minutes and the build 10 (a build cut short
# keeps the files it compiled), so that one huge project does not eat the
# run. Test programs, examples, fuzzers and benchmarks (files under
# test/, tests/, examples/, fuzz/, bench/... directories) are left out of
# the database: they are not the library.
#
# Then, per library: the front end's counts (parse_share), a seeded sample of
# at most --functions of the functions it lowers (`cairn ir` per file),
# `cairn gen -p DB -o OUT -j 2 --max-time T -f FN...` (wall time, peak memory
# with GNU time, bounded by timeout) and `cairn check OUT --sanitize --json`.
# A failed step is a row with the failure, never the end of the run.
#
# Prints one row per library plus a total, the replaced packages and the
# failures grouped by class, and writes into WORKDIR: world-table.md,
# world.json (every detail, to compare two runs), world-excluded.md (the
# front end's exclusion reasons summed over the corpus) and per library
# libs/PKG/world.log (build.log, logs/ for cairn's own outputs). Downloads,
# trees, builds and cairn's results (per binary and options) are cached
# there: a second run skips finished steps.
#
#   scripts/world-check.sh [WORKDIR] [--seed N] [--count N] [--functions N]
#                          [--max-time T] [--max-size-mb M] [--slice ci]
#                          [--no-build-deps] [--ahead N] [--remeasure]
#                          [--only PKG,PKG...]
#       WORKDIR default /tmp/cairn-world; defaults: seed 1, 40 libraries,
#       30 functions a library, 3 s a function. --ahead 1 prepares the next
#       library while cairn runs on this one (faster on 2 cores, at some
#       cost to gen's timing); --remeasure reads the rows of cached cairn
#       results again from their outputs (after a change to this script).
#   scripts/world-check.sh --slice ci
#       a fixed small slice (4 libraries that build fast without extra
#       build dependencies, 8 functions each): exits 1 when a driver or
#       findings file does not compile, a test fails, or cairn crashes.
#
# Environment: CAIRN (the binary; default: build target/release/cairn),
# PARSE_SHARE (the front end's parse_share example; default: build it).
# Source packages come through a private apt directory in WORKDIR (the
# system's apt sources are not changed); build tools are installed through
# apt-get when missing, and a library's build dependencies when its first
# configure fails (as root, or through sudo).
set -euo pipefail
[[ -z ${CAIRN:-} ]] || CAIRN=$(realpath "$CAIRN")
[[ -z ${PARSE_SHARE:-} ]] || PARSE_SHARE=$(realpath "$PARSE_SHARE")
cd "$(dirname "$0")/.."

source scripts/apt-install.sh
missing=()
for pair in bear:bear cmake:cmake meson:meson ninja:ninja-build autoreconf:autoconf \
    automake:automake libtoolize:libtool pkg-config:pkg-config jq:jq \
    dpkg-source:dpkg-dev autopoint:autopoint msgfmt:gettext; do
    command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
done
[[ -x /usr/bin/time ]] || missing+=(time)
apt_install world-check "${missing[@]}"

source scripts/use-cairn.sh
if [[ -z ${PARSE_SHARE:-} ]]; then
    cargo build --release -q -p front --example parse_share
    PARSE_SHARE=$(realpath "${CARGO_TARGET_DIR:-target}")/release/examples/parse_share
fi
export CAIRN PARSE_SHARE
exec python3 scripts/world/world.py "$@"
