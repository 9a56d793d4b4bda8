#!/usr/bin/env bash
# The samples of the 8×8 piece-square fit (tesseract-search README, "Piece-square corrections (2D)"):
# seeded engine games at 3,000 nodes a move after 6 random plies, every quiet position from ply 10 on.
# Same output on every machine, whatever THREADS; the games are the engine's of the commit run (the
# engine's fit was made on those of commit de9c86c).
#
#   bash scripts/tune_samples.sh OUT_DIR [THREADS]
#
# OUT_DIR/train.txt: 4,000 games from the classic start and 150 from each of the Chess960 starts 0, 32,
# ..., 864 (28 starts); OUT_DIR/check.txt, held out of the fit: 500 more games from the classic start
# (another seed) and 150 from each of the Chess960 starts 896 and 928. About half an hour on two cores.
set -euo pipefail
out=${1:?usage: tune_samples.sh OUT_DIR [THREADS]}
threads=${2:-2}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.."
source scripts/tune_games.sh
run classic 4000 1 "$out/classic.txt"
run classic 500 2 "$out/check-classic.txt"
for n in $(seq 0 32 928); do
    run "chess960:$n" 150 $((1000 + n)) "$out/chess960-$n.txt"
done
cat "$out/classic.txt" $(for n in $(seq 0 32 864); do echo "$out/chess960-$n.txt"; done) > "$out/train.txt"
cat "$out/check-classic.txt" "$out/chess960-896.txt" "$out/chess960-928.txt" > "$out/check.txt"
wc -l "$out/train.txt" "$out/check.txt"
