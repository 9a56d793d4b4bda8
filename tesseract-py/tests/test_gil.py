"""perft releases the GIL: other Python threads run while it counts."""

import threading
import time

import tesseract
from test_perft import TESSERACT


def test_main_thread_runs_python_while_perft_counts_in_another_thread():
    board = tesseract.Board.tesseract("standard")
    window = {}

    def count():
        window["start"] = time.perf_counter()
        window["nodes"] = board.perft(3, threads=1)
        window["end"] = time.perf_counter()

    worker = threading.Thread(target=count)
    ticks = []
    other = tesseract.Board()
    worker.start()
    while worker.is_alive():
        # Python work that needs the GIL, including calls into the extension.
        assert len(other.legal_moves) == 20
        ticks.append(time.perf_counter())
    worker.join()
    assert window["nodes"] == 11_715_134
    inside = [t for t in ticks if window["start"] < t < window["end"]]
    # With the GIL held for the whole count, the main thread could not run between start and end.
    assert len(inside) >= 20, (len(inside), window["end"] - window["start"])


def test_two_counts_run_at_once():
    boards = [tesseract.Board.tesseract("light"), tesseract.Board.tesseract("dense")]
    results = [None, None]

    def count(i):
        results[i] = boards[i].perft(3, threads=1)

    threads = [threading.Thread(target=count, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [TESSERACT["light"][2], TESSERACT["dense"][2]]


def test_the_board_can_be_used_during_its_own_count():
    # perft counts a copy: the board itself is not borrowed meanwhile.
    board = tesseract.Board.tesseract("standard")
    done = {}
    started = threading.Event()

    def count():
        started.set()
        done["n"] = board.perft(3, threads=1)

    worker = threading.Thread(target=count)
    worker.start()
    started.wait()
    time.sleep(0.02)  # the count has copied the position by now
    board.push_uci("22132313")
    board.pop()
    worker.join()
    assert done["n"] == 11_715_134
    assert board == tesseract.Board.tesseract("standard")
