#!/usr/bin/env python3
"""The summary line of scripts/selfplay_uci.py: a 100% or 0% score gives a one-sided bound, not the
`+1200 [+1200, +1200]` of a clamped score; all draws give the exact interval; other matches keep the normal
interval, open where it leaves the possible scores. The same figures as the `match` example's
(tests/match_elo.rs). Needs python-chess, as the script does.

    python3 scripts/test_selfplay_uci.py
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from selfplay_uci import elo_estimate, summary  # noqa: E402


class EloEstimate(unittest.TestCase):
    def test_every_game_won_or_lost_is_a_one_sided_bound(self):
        self.assertEqual(elo_estimate([1.0] * 10), "Elo > +183 (95%, one-sided)")
        self.assertEqual(elo_estimate([1.0] * 40), "Elo > +444 (95%, one-sided)")
        self.assertEqual(elo_estimate([1.0] * 2), "Elo > -216 (95%, one-sided)")
        self.assertEqual(elo_estimate([1.0]), "Elo > -512 (95%, one-sided)")
        self.assertEqual(elo_estimate([0.0] * 10), "Elo < -183 (95%, one-sided)")
        self.assertEqual(elo_estimate([0.0] * 2), "Elo < +216 (95%, one-sided)")

    def test_every_game_drawn_is_the_exact_interval(self):
        self.assertEqual(elo_estimate([0.5] * 10), "Elo +0 [-111, +111]")
        self.assertEqual(elo_estimate([0.5] * 40), "Elo +0 [-31, +31]")

    def test_other_matches_keep_the_normal_interval(self):
        self.assertEqual(elo_estimate([1.0] * 30 + [0.0] * 10 + [0.5] * 20), "Elo +120 [+50, +202]")
        self.assertEqual(elo_estimate([1.0] * 9 + [0.5]), "Elo +512 [+304, +inf]")
        self.assertEqual(elo_estimate([0.0] * 9 + [0.5]), "Elo -512 [-inf, -304]")
        self.assertEqual(elo_estimate([1.0, 0.0]), "Elo +0 [-inf, +inf]")

    def test_the_summary_line(self):
        self.assertEqual(summary([1.0] * 4), "A vs B: +4 =0 -0 score 100.0% Elo > -19 (95%, one-sided)")
        self.assertEqual(summary([0.5] * 4), "A vs B: +0 =4 -0 score 50.0% Elo +0 [-242, +242]")
        self.assertNotIn("1200", summary([0.0] * 4))


if __name__ == "__main__":
    unittest.main()
