#!/usr/bin/env bash
# Recomputes the published endgame results of tesseract-tablebase's README: for each board and material
# below, the output of the tablebase example (wins, draws, the longest mate, an example and its line),
# appended to tesseract-tablebase/data/results-<board>.txt. Every row of the README's table is the last
# lines of one block there; a single row is `cargo run --release --example tablebase -- --board B
# --material M --line`.
#
# Usage: scripts/tablebase_results.sh [raumschach|tesseract ...]   (default: both)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --example tablebase
boards=("$@")
[ ${#boards[@]} -eq 0 ] && boards=(raumschach tesseract)
for board in "${boards[@]}"; do
    case "$board" in
        raumschach) materials="KQK KRK KBK KNK KUK KQQK KQRK KRRK KBBK KUUK KNNK KQKR KQKQ" ;;
        # The four-piece tables of the 4D board need about 15 GB and hours on 2 cores (README): by hand.
        tesseract) materials="KQK KRK KBK KNK KUK KDK" ;;
        *) echo "unknown board $board" >&2; exit 2 ;;
    esac
    out="tesseract-tablebase/data/results-$board.txt"
    : > "$out"
    for m in $materials; do
        echo "== $board $m" | tee -a "$out"
        ./target/release/examples/tablebase --board "$board" --material "$m" --line | tee -a "$out"
        echo >> "$out"
    done
done
