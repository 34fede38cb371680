#!/usr/bin/env bash
# Measures what share of real GNU C the front end takes (BENCHMARKS.md, "GNU C
# in real code"): fetches the Debian 12 sources of json-c, jansson, kmod and
# libbsd into DIR, configures each (for its config.h and a
# compile_commands.json) and runs the `parse_share` example of crates/front
# on each library's files: files that parse, functions lowered or excluded,
# by reason.
#
#   scripts/gnu-share.sh [DIR]        (default: /tmp/cairn-gnu-share)
#
# Environment: PARSE_SHARE (path of the example's binary; default: build it).
# Source packages come through a private apt directory in DIR (the system's
# apt sources are not changed); cmake, autotools and libmd-dev are installed
# through apt-get when missing.
set -euo pipefail
[[ -z ${PARSE_SHARE:-} ]] || PARSE_SHARE=$(realpath "$PARSE_SHARE")
cd "$(dirname "$0")/.."
repo=$PWD
dir=${1:-/tmp/cairn-gnu-share}
mkdir -p "$dir/apt/lists/partial" "$dir/apt/parts" "$dir/src"

if [[ -z ${PARSE_SHARE:-} ]]; then
    cargo build --release -q -p front --example parse_share
    PARSE_SHARE=$repo/target/release/examples/parse_share
fi

sudo=""
((EUID == 0)) || sudo=sudo
missing=()
for tool in cmake autoreconf libtoolize pkg-config; do
    command -v "$tool" >/dev/null || missing+=("$tool")
done
[[ -e /usr/include/md5.h ]] || missing+=(libmd-dev)
if ((${#missing[@]})); then
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        cmake autoconf automake libtool pkg-config libmd-dev >/dev/null
fi

cat >"$dir/apt/parts/bookworm-src.sources" <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
apt=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$dir/apt/parts"
    -o "Dir::State::Lists=$dir/apt/lists")
cd "$dir/src"
if [[ ! -e .fetched ]]; then
    apt-get "${apt[@]}" update -qq
    for package in json-c jansson kmod libbsd; do
        apt-get "${apt[@]}" source --download-only -qq "$package" 2>/dev/null
    done
    for tarball in *.orig.tar.gz *.orig.tar.xz; do tar xf "$tarball"; done
    touch .fetched
fi

jsonc=$(echo json-c-json-c-*/) jansson=$(echo jansson-*/) kmod=$(echo kmod-*/) libbsd=$(echo libbsd-*/)
for project in "$jsonc" "$jansson"; do
    [[ -e $project/build/compile_commands.json ]] ||
        (mkdir -p "$project/build" && cd "$project/build" &&
            cmake .. -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null 2>&1)
done
[[ -e $kmod/config.h ]] ||
    (cd "$kmod" && touch libkmod/docs/gtk-doc.make && autoreconf -fi >/dev/null 2>&1 &&
        ./configure --disable-manpages --without-openssl --without-zstd --without-xz \
            --without-zlib >/dev/null)
[[ -e $libbsd/config.h ]] || (cd "$libbsd" && ./configure >/dev/null)

# kmod and libbsd build with automake: their compile_commands.json is written
# here from the flags of their Makefile.am.
database() { # DIR FLAGS... -- FILES...
    local root=$1 flags=() files=()
    shift
    while [[ $1 != -- ]]; do flags+=("$1"); shift; done
    shift
    files=("$@")
    python3 - "$root" "${#flags[@]}" "${flags[@]}" "${files[@]}" <<'EOF'
import json, sys
root, count = sys.argv[1], int(sys.argv[2])
flags, files = sys.argv[3:3 + count], sys.argv[3 + count:]
entries = [{"directory": root, "file": f, "arguments": ["cc", *flags, "-c", f]} for f in files]
json.dump(entries, open(root + "/compile_commands.json", "w"), indent=1)
EOF
}
k=$PWD/${kmod%/}
database "$k" -include "$k/config.h" "-I$k" '-DSYSCONFDIR="/etc"' -- \
    "$k"/libkmod/*.c "$k"/shared/*.c "$k"/tools/*.c
b=$PWD/${libbsd%/}
database "$b" "-I$b" -isystem "$b/include/bsd/" -include "$b/config.h" -DLIBBSD_OVERLAY \
    -DLIBBSD_DISABLE_DEPRECATED -D__REENTRANT -- "$b"/src/*.c

for db in "${jsonc}build" "${jansson}build" "$kmod" "$libbsd"; do
    echo "== ${db%%/*}"
    "$PARSE_SHARE" -p "$db" | tee "$dir/${db%%/*}.txt" | sed -n '/^files:/,$p'
done
