#!/usr/bin/env python3
"""Perft by python-chess, the external oracle of tesseract-movegen's tests/oracle.rs.

Reads lines `<fen>\t<depth>\t<960|std>` from stdin and prints, for each, one line with the number of
leaves of the legal move tree of that position at that depth, as counted by python-chess. `960` reads the
FEN in Chess960 mode (castling rights in Shredder-FEN or X-FEN); `std` reads it as classic chess. Blank
lines are ignored.

Usage: printf '%s\t%s\t%s\n' "$FEN" 3 std | python3 scripts/python_perft.py
"""

import sys

try:
    import chess
except ImportError:
    sys.exit("python_perft.py: the python-chess package is not installed (pip install chess)")


def perft(board: "chess.Board", depth: int) -> int:
    """Leaves of the legal move tree at `depth`; the last ply is counted without being played."""
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += perft(board, depth - 1)
        board.pop()
    return nodes


def main() -> int:
    for number, line in enumerate(sys.stdin, start=1):
        line = line.rstrip("\r\n")
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) != 3 or fields[2] not in ("960", "std"):
            sys.exit(f"python_perft.py: line {number}: expected <fen>TAB<depth>TAB<960|std>, got {line!r}")
        fen, depth_text, mode = fields
        try:
            depth = int(depth_text)
            board = chess.Board(fen, chess960=(mode == "960"))
        except ValueError as e:
            sys.exit(f"python_perft.py: line {number}: {e}")
        print(perft(board, depth), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
