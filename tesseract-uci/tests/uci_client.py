#!/usr/bin/env python3
"""python-chess's chess.engine drives tesseract-uci as a GUI would.

Usage: uci_client.py ENGINE_BINARY

- a classic game and a Chess960 game to the end on a 1+0.01 s clock each side (the script keeps the
  clocks, counting everything between sending `go` and reading `bestmove` against the engine): the full
  strength engine against the beginner tier (UCI_LimitStrength with the lowest UCI_Elo);
- a long blitz: two full-strength engines with the default Move Overhead make 200 moves each on one
  2+0.05 s clock (games follow one another, the clocks run on), and neither clock may fall below 0.4 s;
- `go movetime`, `go infinite` + `stop` (python-chess's analysis), `go depth`, the 4D options in the
  handshake;
- every PV python-chess reads must be legal (python-chess logs and drops an illegal PV move: any error
  logged by chess.engine fails the run), and every bestmove legal.

Prints one JSON line of figures per check and exits 0 when all passed, 1 otherwise.
"""

import json
import logging
import random
import sys
import time

import chess
import chess.engine

from client_common import ErrorLog, fail

CLOCK = 1.0
INC = 0.01
MAX_PLIES = 800
# The long blitz check: moves each engine makes on one clock, the clock, and the time left it must keep.
LONG_MOVES = 200
LONG_CLOCK = 2.0
LONG_INC = 0.05
LONG_FLOOR = 0.4


def check_pv(board, info, where):
    pv = info.get("pv")
    if not pv:
        fail(f"{where}: no pv in {info}")
    b = board.copy()
    for move in pv:
        if move not in b.legal_moves:
            fail(f"{where}: illegal pv move {move} in {pv}")
        b.push(move)
    return pv


def castle_early(board, seed):
    """Plays seeded random moves until a castling move is legal, then castles, so that the engine gets a
    game history with castling in it (e1g1 in classic chess, king takes rook in Chess960)."""
    rng = random.Random(seed)
    for _ in range(200):
        castles = [m for m in board.legal_moves if board.is_castling(m)]
        if castles:
            board.push(castles[0])
            return board
        moves = [m for m in board.legal_moves if not board.is_capture(m)] or list(board.legal_moves)
        board.push(rng.choice(moves))
        if board.is_game_over():
            break
    fail(f"no castling reached from seed {seed}")


def castlings(board):
    """The castling moves of the game."""
    b = board.root()
    found = []
    for m in board.move_stack:
        if b.is_castling(m):
            found.append(b.uci(m))
        b.push(m)
    return found


def play_game(binary, board, name):
    """The full-strength engine (White) against the beginner tier (Black), to the end of the game."""
    strong = chess.engine.SimpleEngine.popen_uci([binary])
    weak = chess.engine.SimpleEngine.popen_uci([binary])
    try:
        weak.configure({"UCI_LimitStrength": True, "UCI_Elo": weak.options["UCI_Elo"].min})
        clocks = {chess.WHITE: CLOCK, chess.BLACK: CLOCK}
        longest = 0.0
        start = time.perf_counter()
        pvs = 0
        while not board.is_game_over(claim_draw=True):
            if board.ply() >= MAX_PLIES:
                fail(f"{name}: no end after {MAX_PLIES} plies")
            engine = strong if board.turn == chess.WHITE else weak
            limit = chess.engine.Limit(
                white_clock=clocks[chess.WHITE],
                black_clock=clocks[chess.BLACK],
                white_inc=INC,
                black_inc=INC,
            )
            t = time.perf_counter()
            result = engine.play(board, limit, info=chess.engine.INFO_ALL)
            spent = time.perf_counter() - t
            longest = max(longest, spent)
            clocks[board.turn] -= spent
            if clocks[board.turn] < 0:
                fail(f"{name}: {'White' if board.turn else 'Black'} lost on time at ply {board.ply() + 1}")
            clocks[board.turn] += INC
            if result.move is None or result.move not in board.legal_moves:
                fail(f"{name}: illegal bestmove {result.move} in {board.fen()}")
            if "pv" in result.info:
                check_pv(board, result.info, name)
                pvs += 1
            board.push(result.move)
        outcome = board.outcome(claim_draw=True)
        print(
            json.dumps(
                {
                    "check": name,
                    "plies": board.ply(),
                    "seconds": round(time.perf_counter() - start, 2),
                    "result": board.result(claim_draw=True),
                    "termination": outcome.termination.name,
                    "clock_left": {"white": round(clocks[chess.WHITE], 3), "black": round(clocks[chess.BLACK], 3)},
                    "longest_move": round(longest, 3),
                    "moves_with_pv": pvs,
                    "castlings": castlings(board),
                }
            ),
            flush=True,
        )
    finally:
        strong.quit()
        weak.quit()


def long_blitz(binary):
    """Two full-strength engines with the default Move Overhead, each making LONG_MOVES moves on one clock
    of LONG_CLOCK + LONG_INC s: when a game ends, the next starts from a seeded opening and the clocks run
    on. The time left must never fall below LONG_FLOOR: a time allocation that spends more than the
    increment once the clock is low sinks to a few tenths of a second (an outside review saw 0.07 s at
    10+0.1), which a loaded machine's latency turns into a loss on time."""
    engines = [chess.engine.SimpleEngine.popen_uci([binary]) for _ in range(2)]
    try:
        clocks = [LONG_CLOCK, LONG_CLOCK]
        lowest = [LONG_CLOCK, LONG_CLOCK]
        made = [0, 0]
        games = 0
        start = time.perf_counter()
        rng = random.Random(5)
        board = None
        while min(made) < LONG_MOVES:
            if board is None or board.is_game_over(claim_draw=True) or board.ply() >= MAX_PLIES:
                board = chess.Board()
                for _ in range(4):
                    board.push(rng.choice(list(board.legal_moves)))
                games += 1
            # Engine 0 plays White in even games, Black in odd ones.
            side = (board.ply() + games) % 2
            white_clock, black_clock = (clocks[side], clocks[1 - side]) if board.turn == chess.WHITE else (
                clocks[1 - side],
                clocks[side],
            )
            limit = chess.engine.Limit(
                white_clock=white_clock, black_clock=black_clock, white_inc=LONG_INC, black_inc=LONG_INC
            )
            t = time.perf_counter()
            # A new `game` key makes python-chess send `ucinewgame` first.
            result = engines[side].play(board, limit, game=games)
            clocks[side] -= time.perf_counter() - t
            lowest[side] = min(lowest[side], clocks[side])
            if clocks[side] < LONG_FLOOR:
                fail(f"long blitz: engine {side} down to {clocks[side]:.3f} s after {made[side] + 1} moves")
            clocks[side] += LONG_INC
            if result.move is None or result.move not in board.legal_moves:
                fail(f"long blitz: illegal bestmove {result.move} in {board.fen()}")
            board.push(result.move)
            made[side] += 1
        print(
            json.dumps(
                {
                    "check": "long blitz",
                    "clock": f"{LONG_CLOCK}+{LONG_INC}",
                    "moves": made,
                    "games": games,
                    "seconds": round(time.perf_counter() - start, 2),
                    "lowest_clock": [round(x, 3) for x in lowest],
                    "clock_left": [round(x, 3) for x in clocks],
                }
            ),
            flush=True,
        )
    finally:
        for engine in engines:
            engine.quit()


def limits(binary):
    engine = chess.engine.SimpleEngine.popen_uci([binary])
    try:
        board = chess.Board()
        board.push_uci("e2e4")
        # go movetime
        t = time.perf_counter()
        result = engine.play(board, chess.engine.Limit(time=0.3), info=chess.engine.INFO_ALL)
        took = time.perf_counter() - t
        if not 0.15 <= took <= 0.6:
            fail(f"go movetime 300 took {took:.3f} s")
        if result.move not in board.legal_moves:
            fail(f"go movetime: illegal {result.move}")
        check_pv(board, result.info, "go movetime")
        # go depth
        result = engine.play(board, chess.engine.Limit(depth=4), info=chess.engine.INFO_ALL)
        if result.info.get("depth") != 4:
            fail(f"go depth 4: last info {result.info}")
        # go infinite + stop, through analysis: infinite until stopped.
        t = time.perf_counter()
        with engine.analysis(board) as analysis:
            deepest = {}
            for info in analysis:
                if "pv" in info:
                    deepest = info
                if info.get("depth", 0) >= 6:
                    break
            stop_sent = time.perf_counter()
        best = analysis.wait()
        stop_latency = time.perf_counter() - stop_sent
        if best.move not in board.legal_moves:
            fail(f"go infinite: illegal bestmove {best.move}")
        pv = check_pv(board, deepest, "go infinite")
        # Mate in one, announced.
        mate = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
        result = engine.play(mate, chess.engine.Limit(mate=1), info=chess.engine.INFO_ALL)
        if result.move != chess.Move.from_uci("a1a8") or result.info["score"].white() != chess.engine.Mate(1):
            fail(f"go mate 1: {result.move} {result.info}")
        # go searchmoves, through python-chess's root_moves: the engine answers with one of them, even a
        # poor one, and one move alone is still searched (its score and line).
        only = [chess.Move.from_uci("a7a6"), chess.Move.from_uci("h7h6")]
        result = engine.play(board, chess.engine.Limit(depth=3), root_moves=only, info=chess.engine.INFO_ALL)
        if result.move not in only:
            fail(f"go searchmoves a7a6 h7h6: played {result.move}")
        check_pv(board, result.info, "go searchmoves")
        result = engine.play(mate, chess.engine.Limit(depth=3), root_moves=[chess.Move.from_uci("g1f2")], info=chess.engine.INFO_ALL)
        if result.move != chess.Move.from_uci("g1f2") or result.info.get("depth", 0) < 1:
            fail(f"go searchmoves g1f2 (instead of the mate): {result.move} {result.info}")
        print(
            json.dumps(
                {
                    "check": "limits",
                    "movetime_300_took": round(took, 3),
                    "infinite_depth": deepest.get("depth"),
                    "infinite_pv": " ".join(m.uci() for m in pv),
                    "stop_latency": round(stop_latency, 4),
                }
            ),
            flush=True,
        )
    finally:
        engine.quit()


def handshake_4d(binary):
    engine = chess.engine.SimpleEngine.popen_uci([binary])
    try:
        variant = engine.options["UCI_Variant"]
        if "tesseract" not in variant.var or "chess" not in variant.var:
            fail(f"UCI_Variant: {variant}")
        army = engine.options["Army"]
        if army.default != "standard" or set(army.var) != {"light", "standard", "dense"}:
            fail(f"Army: {army}")
        tier = engine.options["Tier"]
        if tier.default != "full strength":
            fail(f"Tier: {tier}")
        engine.configure({"Tier": "club", "Army": "dense"})
        engine.ping()
        print(json.dumps({"check": "handshake", "id": engine.id, "options": sorted(engine.options)}), flush=True)
    finally:
        engine.quit()


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    binary = sys.argv[1]
    errors = ErrorLog()
    logging.getLogger("chess.engine").addHandler(errors)
    handshake_4d(binary)
    limits(binary)
    play_game(binary, castle_early(chess.Board(), 1), "classic")
    # Chess960 position 518 is the classic array; take one with the king and rooks elsewhere.
    play_game(binary, castle_early(chess.Board.from_chess960_pos(100), 2), "chess960")
    long_blitz(binary)
    if errors.records:
        fail("chess.engine logged: " + " | ".join(errors.records[:5]))
    print("all checks passed", flush=True)


if __name__ == "__main__":
    main()
