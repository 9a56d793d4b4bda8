#!/usr/bin/env bash
# Builds the JavaScript package of tesseract-wasm into web/pkg (tesseract_wasm.js, tesseract_wasm_bg.wasm,
# the .d.ts types), for the page in web/ and the node tests (tesseract-wasm/tests/node).
#
# Idempotent: adds the wasm32-unknown-unknown target if it is missing, and installs wasm-bindgen-cli
# 0.2.130 (the version the wasm-bindgen crate is pinned to; the two must match) into target/tools unless
# that version is already on the PATH. Then builds tesseract-wasm in release and runs wasm-bindgen.
# Honours CARGO_TARGET_DIR (default target/).
#
# Usage: scripts/wasm.sh
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=0.2.130
TARGET=wasm32-unknown-unknown
TARGET_DIR="${CARGO_TARGET_DIR:-target}"

step() { printf '\n== %s\n' "$*"; }

if ! rustup target list --installed | grep -qx "$TARGET"; then
    step "adding the $TARGET target"
    rustup target add "$TARGET"
fi

version_of() { "$1" --version 2>/dev/null | awk '{print $2}'; }
if [[ "$(version_of wasm-bindgen)" == "$WASM_BINDGEN_VERSION" ]]; then
    BINDGEN=wasm-bindgen
else
    BINDGEN="$TARGET_DIR/tools/bin/wasm-bindgen"
    if [[ "$(version_of "$BINDGEN")" != "$WASM_BINDGEN_VERSION" ]]; then
        step "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION into $TARGET_DIR/tools: compiled from source, \
once (about 2 minutes on two cores)..."
        # Not --locked: the registry lacks a version its lock file names (webpki-roots 1.0.11). Without the
        # default feature (rustls-tls: the test runner's downloads, which this script never makes).
        # --debug: an unoptimised build compiles in 1 min 48 s here against 3 min 53 s in release (CI's
        # run), and still turns this crate's .wasm into web/pkg in 1.5 s (1,275,419 bytes, the size the
        # release build gave).
        cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --no-default-features --debug \
            --root "$TARGET_DIR/tools"
    fi
fi

step "building the crates in WebAssembly (first time: about 2 minutes; cargo build --release --target $TARGET -p tesseract-wasm)..."
cargo build --release --target "$TARGET" -p tesseract-wasm

step "$BINDGEN --target web --out-dir web/pkg"
"$BINDGEN" --target web --out-dir web/pkg "$TARGET_DIR/$TARGET/release/tesseract_wasm.wasm"

wasm=web/pkg/tesseract_wasm_bg.wasm
printf '%s: %s bytes (%s KiB; gzip -9: %s bytes)\n' "$wasm" "$(wc -c <"$wasm")" "$(($(wc -c <"$wasm") / 1024))" \
    "$(gzip -9c "$wasm" | wc -c)"
