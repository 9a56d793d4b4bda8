#!/usr/bin/env python3
"""python-chess's chess.engine drives tesseract-uci with endgame tables (the TablebasePath option).

Usage: uci_tablebase.py ENGINE_BINARY TABLES_DIR FEN MATE

TABLES_DIR holds table files (*.ttb, as `cargo run --release --example tablebase -- --save-dir DIR`
writes them) covering FEN, a White win in MATE moves (the Rust test passes the longest KRK win, mate in 16).

- the handshake offers TablebasePath, a string option;
- without tables a depth-3 search of FEN reports no mate;
- with TablebasePath set, the engine plays both sides from FEN to checkmate: every White move reports
  `score mate N`, N counting down from MATE, every PV python-chess reads is legal, and the mate comes on
  White's MATE-th move;
- a TablebasePath that is not a folder is answered with an `info string error` (python-chess does not
  fail), and the engine plays on without tables.

Prints one JSON line of figures and exits 0 when all passed, 1 otherwise.
"""

import json
import logging
import sys

import chess
import chess.engine

from client_common import ErrorLog, fail


def main():
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    binary, tables, fen, mate = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    errors = ErrorLog()
    logging.getLogger("chess.engine").addHandler(errors)
    engine = chess.engine.SimpleEngine.popen_uci([binary])
    try:
        option = engine.options.get("TablebasePath")
        if option is None or option.type != "string":
            fail(f"TablebasePath: {option}")
        start = chess.Board(fen)
        plain = engine.analyse(start, chess.engine.Limit(depth=3))
        if plain["score"].is_mate():
            fail(f"without tables, depth 3 sees a mate: {plain}")

        engine.configure({"TablebasePath": tables})
        board = start.copy()
        scores = []
        while not board.is_game_over():
            if board.ply() > 2 * mate:
                fail(f"no mate within {mate} moves: {board.fen()}")
            result = engine.play(board, chess.engine.Limit(depth=3), info=chess.engine.INFO_ALL)
            if result.move not in board.legal_moves:
                fail(f"illegal bestmove {result.move} in {board.fen()}")
            pv = result.info.get("pv", [])
            b = board.copy()
            for m in pv:
                if m not in b.legal_moves:
                    fail(f"illegal pv move {m} in {pv}")
                b.push(m)
            score = result.info["score"].white()
            if board.turn == chess.WHITE:
                left = mate - board.ply() // 2
                if score != chess.engine.Mate(left):
                    fail(f"move {board.ply() // 2 + 1}: score {score}, the table says mate in {left}")
                if not b.is_checkmate():
                    fail(f"the pv {pv} does not end in mate")
                scores.append(score.mate())
            board.push(result.move)
        if not board.is_checkmate() or board.turn != chess.BLACK:
            fail(f"the game ended without White's mate: {board.fen()} {board.outcome()}")
        white_moves = (board.ply() + 1) // 2
        if white_moves != mate:
            fail(f"mate on White's move {white_moves}, the table says {mate}")

        # A folder that does not exist: an error line, no tables, and the engine plays on.
        engine.configure({"TablebasePath": tables + "/no-such-folder"})
        after = engine.analyse(start, chess.engine.Limit(depth=3))
        if after["score"].is_mate():
            fail(f"the tables stayed loaded after a bad TablebasePath: {after}")
    finally:
        engine.quit()
    if errors.records:
        fail("chess.engine logged: " + " | ".join(errors.records[:5]))
    print(json.dumps({"check": "tablebase", "fen": fen, "mate": mate, "scores": scores}), flush=True)
    print("all checks passed", flush=True)


if __name__ == "__main__":
    main()
