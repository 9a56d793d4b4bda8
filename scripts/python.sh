#!/usr/bin/env bash
# The Python bindings (tesseract-py) in a virtual environment: creates target/py-venv with python3 -m venv
# (once), installs maturin, pytest, python-chess and mypy into it, builds and installs the package with pip
# from tesseract-py/ (maturin as the build backend, in the `ci` profile: release speed without LTO's long
# link; the build reuses target/), then runs the pytest suite in tesseract-py/tests.
#
# Usage: scripts/python.sh [pytest arguments...]
#        PYTHON=python3.12 scripts/python.sh     another interpreter for the environment (CPython 3.9 or later)
#        PROFILE=release scripts/python.sh       the profile `pip install ./tesseract-py` uses
set -euo pipefail
cd "$(dirname "$0")/.."

venv=target/py-venv
python=${PYTHON:-python3}
profile=${PROFILE:-ci}

step() { printf '\n== %s\n' "$*"; }

if ! "$venv/bin/python" -c 'import sys' 2>/dev/null; then
    rm -rf "$venv"
    # Debian's own python3 has no ensurepip until python3-venv is installed.
    if ! "$python" -c 'import ensurepip' 2>/dev/null; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
    fi
    step "creating the virtual environment $venv (once)..."
    "$python" -m venv "$venv"
fi
# As an activated environment: the build backend runs the `maturin` executable from the PATH.
export VIRTUAL_ENV="$PWD/$venv"
export PATH="$VIRTUAL_ENV/bin:$PATH"
"$venv/bin/python" --version
# distributed and bokeh: the `distributed` extra of pyproject.toml (tesseract.distributed's tests start
# LocalClusters of worker processes).
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "maturin>=1.9.4,<2" pytest chess mypy \
    "distributed>=2024.8" "bokeh>=3.1"

# --no-build-isolation: the maturin just installed builds it (no second download); --force-reinstall:
# the same version number is installed again after a change.
step "building the Python extension with maturin, profile $profile (first time: a few \
minutes; pip install ./tesseract-py, in release: about 2.5 minutes, as the review measured)..."
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-build-isolation --no-deps \
    --force-reinstall --config-settings=build-args="--profile $profile" ./tesseract-py

"$venv/bin/python" -m pytest tesseract-py/tests -q "$@"
