#!/usr/bin/env bash
# Every test of the workspace, as CI runs it. Idempotent: installs what the tests need from outside cargo
# (python-chess for the perft oracle), then runs formatting and lint checks, the debug-build tests (debug
# assertions on: a validity check after every make and unmake) and the release-build tests including the
# ignored ones (deep perft counts, the naive generator's perft(3), the python-chess oracle).
#
# Usage: scripts/test.sh            everything
#        scripts/test.sh --quick    debug-build tests only, no installs
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" == "--quick" ]]; then
    exec cargo test --workspace --all-features
fi

step() { printf '\n== %s\n' "$*"; }

step "installing test dependencies"
if ! python3 -c 'import chess' 2>/dev/null; then
    python3 -m pip install --quiet --disable-pip-version-check chess
fi
python3 -c 'import chess; print("python-chess", chess.__version__)'

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy"
cargo clippy --workspace --all-targets --all-features -- -D warnings

step "tests, debug build"
cargo test --workspace --all-features

step "tests, release build, including the ignored deep ones"
cargo test --workspace --all-features --release -- --include-ignored
