#!/usr/bin/env python3
"""SAN and PGN by python-chess, the external oracle of tesseract-movegen's tests/san.rs.

Plays seeded random legal games, from the classic start and from random Chess960 starts, with a random mover
biased toward the moves that SAN and PGN have to get right (castling on both sides, en passant, promotions to
every piece, checks, mates, captures), and writes what python-chess says about them.

    san_oracle.py games SEED COUNT > games.txt
        One game per line: `std` or `960`, a tab, the start FEN (Shredder-FEN in Chess960), a tab, then each
        move as `uci san` pairs separated by spaces (UCI castling is king-to-destination in classic games and
        king-takes-rook in Chess960, as python-chess writes it).

    san_oracle.py pgn SEED COUNT GAMES.pgn MAINLINES.txt
        COUNT games written by python-chess's PGN exporter (80 columns) with tags, comments, NAGs and
        variations (some nested, some with comments), some from Chess960 starts and some from set-up
        positions; MAINLINES.txt has one line per game, the mainline's moves in UCI.

The shipped data in tesseract-movegen/tests/data/ was made by
    python3 scripts/san_oracle.py games 2024 2000 > tesseract-movegen/tests/data/san_games.txt
    python3 scripts/san_oracle.py pgn 2025 300 tesseract-movegen/tests/data/san_corpus.pgn \\
        tesseract-movegen/tests/data/san_corpus.uci
"""

import random
import sys

try:
    import chess
    import chess.pgn
except ImportError:
    sys.exit("san_oracle.py: the python-chess package is not installed (pip install chess)")

MAX_PLIES = 120


def weight(board: chess.Board, move: chess.Move) -> float:
    """How much more likely than a quiet move `move` is to be played."""
    w = 1.0
    if board.is_castling(move):
        w += 40.0
    if board.is_en_passant(move):
        w += 60.0
    if move.promotion:
        # Every promotion piece, the queen a little more often.
        w += 30.0 if move.promotion == chess.QUEEN else 15.0
    if board.is_capture(move):
        w += 3.0
    piece = board.piece_type_at(move.from_square)
    if piece == chess.PAWN:
        w += 1.5
    if board.gives_check(move):
        w += 4.0
        board.push(move)
        mate = board.is_checkmate()
        board.pop()
        if mate:
            w += 300.0
    return w


def random_game(rng: random.Random, chess960: bool, plies: int = MAX_PLIES) -> chess.Board:
    """A random game from a random start; the board keeps its move stack."""
    if chess960:
        board = chess.Board.from_chess960_pos(rng.randrange(960))
        board.chess960 = True
    else:
        board = chess.Board()
    return random_game_from(rng, board, plies)


def crowded_start(rng: random.Random) -> chess.Board:
    """A random valid position with several queens, rooks and knights a side (so that moves need the file,
    the rank or both to tell pieces apart) and pawns about to promote, White to move."""
    while True:
        board = chess.Board(None)
        squares = list(chess.SQUARES)
        rng.shuffle(squares)
        pieces = [chess.Piece(chess.KING, c) for c in chess.COLORS]
        for color in chess.COLORS:
            pieces += [chess.Piece(chess.QUEEN, color)] * rng.randrange(2, 5)
            pieces += [chess.Piece(chess.KNIGHT, color)] * rng.randrange(2, 5)
            pieces += [chess.Piece(chess.ROOK, color)] * rng.randrange(0, 3)
            pieces += [chess.Piece(chess.PAWN, color)] * rng.randrange(0, 4)
        for piece, square in zip(pieces, squares):
            if piece.piece_type == chess.PAWN and chess.square_rank(square) in (0, 7):
                continue
            board.set_piece_at(square, piece)
        board.turn = chess.WHITE
        if board.is_valid() and not board.is_game_over():
            return board


def disambiguated(board: chess.Board, move: chess.Move) -> bool:
    """Whether python-chess writes the move with both the file and the rank of its piece (`Qh4e1`)."""
    piece = board.piece_type_at(move.from_square)
    if piece in (None, chess.PAWN, chess.KING):
        return False
    san = board.san(move).rstrip("+#")
    return len(san) >= 5 and san[1] in "abcdefgh" and san[2] in "12345678"


def random_game_from(rng: random.Random, board: chess.Board, plies: int = MAX_PLIES, crowded: bool = False) -> chess.Board:
    """Random plies from `board`, which keeps its move stack; in crowded positions moves that need both the
    file and the rank of their piece are played whenever there is one."""
    for _ in range(plies):
        if board.is_game_over(claim_draw=False):
            break
        moves = list(board.legal_moves)
        weights = [weight(board, m) + (1000.0 if crowded and disambiguated(board, m) else 0.0) for m in moves]
        board.push(rng.choices(moves, weights)[0])
    return board


def games(seed: int, count: int) -> None:
    rng = random.Random(seed)
    out = sys.stdout
    for i in range(count):
        chess960 = i % 5 >= 3  # two games in five from Chess960 starts
        if i % 10 == 1:
            # One game in ten from a crowded set-up position, for disambiguation by file and rank.
            played = random_game_from(rng, crowded_start(rng), 40, crowded=True)
        else:
            played = random_game(rng, chess960)
        board = played.root()
        board.chess960 = chess960
        fen = board.fen(shredder=chess960)
        pairs = []
        for move in played.move_stack:
            pairs.append(f"{board.uci(move)} {board.san(move)}")
            board.push(move)
        out.write(f"{'960' if chess960 else 'std'}\t{fen}\t{' '.join(pairs)}\n")


COMMENTS = [
    "a quiet move",
    "the only move",
    "White threatens mate",
    "Black is better here, see the game Anderssen - Kieseritzky, London 1851",
    "with the idea of castling long and then pushing the h-pawn all the way down the board to open a file",
    "[%clk 0:03:21]",
    "(parentheses), $5 and ; inside a comment",
    "!?",
]


def annotate(rng: random.Random, node: chess.pgn.GameNode, depth: int) -> None:
    """Adds comments, NAGs and variations along the mainline from `node`."""
    while node.variations:
        child = node.variations[0]
        r = rng.random()
        if r < 0.08:
            child.comment = rng.choice(COMMENTS)
        if rng.random() < 0.06:
            child.nags.add(rng.choice([1, 2, 3, 4, 5, 6, 10, 13, 14, 16, 18, 22, 36, 132, 146]))
        if depth < 2 and rng.random() < 0.05:
            board = node.board()
            alternatives = [m for m in board.legal_moves if m != child.move]
            if alternatives:
                alt = node.add_variation(rng.choice(alternatives))
                if rng.random() < 0.3:
                    alt.starting_comment = rng.choice(COMMENTS)
                sub = alt
                for _ in range(rng.randrange(0, 6)):
                    b = sub.board()
                    if b.is_game_over():
                        break
                    sub = sub.add_variation(rng.choice(list(b.legal_moves)))
                    if rng.random() < 0.2:
                        sub.comment = rng.choice(COMMENTS)
                if depth < 1 and rng.random() < 0.5:
                    annotate(rng, alt, depth + 1)
        node = child


def pgn(seed: int, count: int, pgn_path: str, uci_path: str) -> None:
    rng = random.Random(seed)
    with open(pgn_path, "w", encoding="utf-8") as pgn_out, open(uci_path, "w", encoding="utf-8") as uci_out:
        for i in range(count):
            kind = i % 6
            chess960 = kind >= 4
            if kind == 3:
                # A set-up position: the start after some random plies.
                start = random_game(rng, False, rng.randrange(4, 40))
                start = chess.Board(start.fen())
                if start.is_game_over():
                    start = chess.Board()
                played = random_game_from(rng, start.copy())
            else:
                played = random_game(rng, chess960, rng.randrange(1, MAX_PLIES))
            game = chess.pgn.Game.from_board(played)
            game.headers["Event"] = rng.choice(["Random games", "Oracle corpus", "Casual game"])
            game.headers["Site"] = rng.choice(["?", "Internet", "London ENG"])
            game.headers["Date"] = f"2024.{rng.randrange(1, 13):02}.{rng.randrange(1, 29):02}"
            game.headers["Round"] = str(i + 1)
            game.headers["White"] = rng.choice(["Random, Alice", "Mover, Bob", "?"])
            game.headers["Black"] = rng.choice(["Random, Carol", "Mover, Dan", "?"])
            outcome = played.outcome()
            if outcome is None and rng.random() < 0.3:
                game.headers["Result"] = rng.choice(["1-0", "0-1", "1/2-1/2"])  # resigned or agreed
            if rng.random() < 0.3:
                game.headers["Annotator"] = "san_oracle.py"
            if rng.random() < 0.2:
                game.headers["TimeControl"] = "300+2"
            if rng.random() < 0.1:
                game.comment = rng.choice(COMMENTS)
            annotate(rng, game, 0)
            exporter = chess.pgn.StringExporter(columns=80, headers=True, comments=True, variations=True)
            pgn_out.write(game.accept(exporter))
            pgn_out.write("\n\n")
            uci_out.write(" ".join(m.uci() for m in game.mainline_moves()) + "\n")


def main() -> int:
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == "games":
        games(int(args[1]), int(args[2]))
    elif len(args) == 5 and args[0] == "pgn":
        pgn(int(args[1]), int(args[2]), args[3], args[4])
    else:
        sys.exit(__doc__)
    return 0


if __name__ == "__main__":
    sys.exit(main())
