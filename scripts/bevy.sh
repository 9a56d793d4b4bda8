#!/usr/bin/env bash
# The Bevy plugin (tesseract-bevy), a package of its own outside the workspace: its headless tests
# (MinimalPlugins, no window), clippy and rustfmt. The window example is not built here (it needs Bevy's
# default features and a desktop's system libraries).
#
# Usage: scripts/bevy.sh   (CARGO_TARGET_DIR defaults to target/bevy, kept apart from the workspace's)
#
# The package has its own Cargo.lock, used with --locked: a change to the workspace crates' dependencies
# fails here until `cargo update --manifest-path tesseract-bevy/Cargo.toml --workspace` refreshes it.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target/bevy}"
manifest=tesseract-bevy/Cargo.toml

cargo fmt --manifest-path "$manifest" --check
cargo clippy --manifest-path "$manifest" --locked --all-targets -- -D warnings
cargo test --manifest-path "$manifest" --locked
