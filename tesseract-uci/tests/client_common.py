"""What the python-chess client scripts of these tests share: a log handler that collects chess.engine's
warnings (an illegal PV move, an unexpected bestmove), and the one way a check fails."""

import logging
import sys


class ErrorLog(logging.Handler):
    """Collects what chess.engine logs at WARNING or above (an illegal PV move, an unexpected bestmove)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(self.format(record))


def fail(message):
    print(f"FAIL: {message}", flush=True)
    sys.exit(1)
