#!/usr/bin/env bash
# Installs TestCov, the Test-Comp test-suite validator, for the TestCov part
# of crates/cairn/tests/testcomp.rs and for validating `cairn testcomp`
# suites by hand. Not part of scripts/setup.sh: clang-tidy brings clang
# (some 300 MB) and TestCov comes from PyPI, neither needed by cairn itself.
#
#   lcov, gcc-multilib, clang-tidy   what TestCov runs (apt-get, Debian 12)
#   python3-venv                      for the virtual environment
#   testcov                           pip, into target/testcov-venv
#
# Then: target/testcov-venv/bin/testcov --no-isolation -64 \
#           --test-suite OUT/test-suite.zip PROGRAM.c
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v lcov >/dev/null 2>&1 || missing+=(lcov)
command -v clang-tidy >/dev/null 2>&1 || missing+=(clang-tidy)
[[ -d /usr/lib/gcc/x86_64-linux-gnu/12/32 ]] || missing+=(gcc-multilib)
python3 -c 'import ensurepip, venv' 2>/dev/null || missing+=(python3-venv)

source scripts/apt-install.sh
apt_install setup-testcov "${missing[@]}"

venv=target/testcov-venv
if [[ ! -x $venv/bin/testcov ]]; then
    echo "setup-testcov: installing testcov into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q testcov
fi
echo "setup-testcov: $("$venv/bin/testcov" --version 2>&1 | tail -n 1)"
