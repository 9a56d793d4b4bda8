"""The Tesseract engine (tesseract-search): its move for a board, at a tier or within explicit limits.

``play(board, tier="club", *, nodes=None, depth=None, seed=0, tablebases=None) -> Move`` and
``analyse(...) -> Analysis``. With ``tablebases`` (a ``tesseract.Tablebases``), a position the tables cover
is answered by their move with the exact mate (``Analysis.mate``), and positions of up to four pieces
inside the search take their values.
Both are deterministic: the same board (position and earlier positions), tier, limits and seed give the
same move on any machine (no clock is involved), and both run without the GIL. Ctrl-C interrupts them
(KeyboardInterrupt).
"""

from ._tesseract import Analysis, engine_analyse as analyse, engine_play as play

__all__ = ["Analysis", "analyse", "play"]
