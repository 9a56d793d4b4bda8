#!/usr/bin/env bash
# The fit of the 8×8 weights to Stockfish's judgement (tesseract-search README, "The king's cover, unsafe
# mobility and blocked passed pawns (2D)"; the first such fit, "Fitted to Stockfish's judgement (2D)", was
# made by this script as of fcf8051): the engine's games, every quiet position labelled by Stockfish, the fit.
#
#   bash scripts/tune_samples_sf.sh OUT_DIR [STOCKFISH [GAMES_TUNE]]
#
# 1. Seeded engine games at 3,000 nodes a move after 6 random plies, every quiet position from ply 10 on:
#    1,200 games from the classic start and 45 from each of the Chess960 starts 0, 32, ..., 864 (train);
#    200 more classic games (another seed) and 60 from each of the Chess960 starts 896 and 928 (check, held
#    out of the fit).
# 2. Each position labelled by Stockfish at 8,000 nodes (scripts/label_samples.py: 1 / (1 + 10^(-cp/400))
#    of its centipawns for White).
# 3. The stepwise fit of every weight but the piece-square corrections (4 passes) from the engine's weights
#    before this fit (scripts/weights/2d-before-cover.txt), then the corrections (--squares --ridge 1e-8)
#    from those: OUT_DIR/fit.txt, a weights text (the engine's WEIGHTS_2D and SQUARES_2D are its values).
#
# The games are those of the engine whose tune example plays them: this tree's, or GAMES_TUNE (the engine's
# fit was made on the games of fcf8051's, whose tune binary can be built in a worktree of that commit);
# the labels those of the Stockfish given (Debian's 15.1 here). About 45 minutes on two cores; needs
# python-chess.
set -euo pipefail
out=${1:?usage: tune_samples_sf.sh OUT_DIR [STOCKFISH [GAMES_TUNE]]}
stockfish=$(realpath "${2:-/usr/games/stockfish}")
games_tune=${3:+$(realpath "$3")}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.."
source scripts/tune_games.sh
fit=$tune
tune=${games_tune:-$tune}
run classic 1200 11 "$out/classic.txt"
run classic 200 12 "$out/check-classic.txt"
for n in $(seq 0 32 864); do
    run "chess960:$n" 45 $((2000 + n)) "$out/chess960-$n.txt"
done
run chess960:896 60 3896 "$out/check-chess960-896.txt"
run chess960:928 60 3928 "$out/check-chess960-928.txt"
cat "$out/classic.txt" $(for n in $(seq 0 32 864); do echo "$out/chess960-$n.txt"; done) > "$out/train.txt"
cat "$out/check-classic.txt" "$out/check-chess960-896.txt" "$out/check-chess960-928.txt" > "$out/check.txt"
wc -l "$out/train.txt" "$out/check.txt"
for set in train check; do
    python3 scripts/label_samples.py --engine "$stockfish" --nodes 8000 --jobs 2 "$out/$set.txt" "$out/$set-sf.txt"
done
"$fit" --start classic --samples "$out/train-sf.txt" --check "$out/check-sf.txt" --passes 4 \
    --only value,centre,mobility,advance,attack,shelter,tempo,passed,unstoppable,protected,doubled,isolated,rook_,bishop_pair,threat_,shield,king_open_file \
    --weights scripts/weights/2d-before-cover.txt --write-weights "$out/fit-other.txt" | tail -n 1
"$fit" --start classic --samples "$out/train-sf.txt" --check "$out/check-sf.txt" --squares --ridge 1e-8 \
    --weights "$out/fit-other.txt" --write-weights "$out/fit.txt" | tail -n 2
