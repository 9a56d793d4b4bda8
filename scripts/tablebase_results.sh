#!/usr/bin/env bash
# Recomputes the published endgame results of tesseract-tablebase's README: for each board and material
# below, the output of the tablebase example (wins, draws, the longest mate, an example and its line),
# appended to tesseract-tablebase/data/results-<board>.txt. Every row of the README's table is the last
# lines of one block there; a single row is `cargo run --release --example tablebase -- --board B
# --material M --line`.
#
# Usage: scripts/tablebase_results.sh [chess|raumschach|tesseract|tesseract4 ...]
#   (default: chess raumschach tesseract; tesseract4, the four-piece tables of the 4D board, takes hours)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --example tablebase
boards=("$@")
[ ${#boards[@]} -eq 0 ] && boards=(chess raumschach tesseract)
for board in "${boards[@]}"; do
    case "$board" in
        chess) materials="KQK KRK KBK KNK KQQK KQRK KRRK KBBK KBNK KNNK KQKR KQKQ KRKB KRKN" ;;
        raumschach) materials="KQK KRK KBK KNK KUK KQQK KQRK KRRK KBBK KUUK KNNK KQKR KQKQ" ;;
        tesseract) materials="KQK KRK KBK KNK KUK KDK" ;;
        # The four-piece tables of the 4D board: about 14 GB of memory and 10 to 60 minutes each on 2 cores.
        tesseract4) materials="KRRK KQKR KDDK KBBK KUUK KNNK KQQK KQRK KQKQ" ;;
        *) echo "unknown board $board" >&2; exit 2 ;;
    esac
    out="tesseract-tablebase/data/results-$board.txt"
    shape=$board
    [ "$board" = tesseract4 ] && shape=tesseract
    : > "$out"
    for m in $materials; do
        echo "== $shape $m" | tee -a "$out"
        ./target/release/examples/tablebase --board "$shape" --material "$m" --line | tee -a "$out"
        echo >> "$out"
    done
done
