"""The write-up's mate studies and tutorial lessons from Python (tesseract-verify's tutor)."""

import pytest

import tesseract
from tesseract import Board, Lesson, Study


def test_the_lists():
    studies = tesseract.studies()
    lessons = tesseract.lessons()
    assert [s["number"] for s in studies] == list(range(1, 13))
    assert [lesson["number"] for lesson in lessons] == list(range(1, 9))
    first = studies[0]
    assert first["n"] == 1 and first["title"] and first["idea"] and first["line"][0] == first["key"]
    # Every study's position reads as a board where its key is legal.
    for s in studies:
        assert Board(s["fen"]).is_legal(s["key"]), s["name"]
    assert lessons[0]["goal"] in {"capture", "reach", "check", "promote"}
    assert lessons[0]["explain"] and lessons[0]["bound"] >= 1 and lessons[0]["pieces"]


def test_study_1_by_its_key():
    key = tesseract.studies()[0]["key"]
    study = Study(1)
    assert study.n == 1 and not study.solved
    assert study.hint() == key[:4]
    reply = study.play(key)
    assert reply["reply"] == "solved" and reply["defence"] is None and reply["moves"] == 1
    assert study.solved and not study.failed
    assert Board(study.fen).is_checkmate()
    # Over: another move is refused, and nothing changes.
    with pytest.raises(ValueError, match="over"):
        study.play(key)
    assert study.moves == [key]


def test_a_wrong_move_is_refuted_and_taken_back():
    info = tesseract.studies()[0]
    board = Board(info["fen"])
    wrong = next(m.text() for m in board.legal_moves if m.text() != info["key"])
    study = Study(1)
    reply = study.play(wrong)
    assert reply["reply"] == "refuted" and study.failed
    assert study.take_back() and not study.failed and study.moves == []
    assert study.play(info["key"])["reply"] == "solved"


def test_a_mate_in_2_names_the_defence():
    info = next(s for s in tesseract.studies() if s["n"] == 2)
    study = Study(info["number"])
    reply = study.play(info["key"])
    assert reply["reply"] == "defence" and reply["defence"] and reply["defence_name"]
    assert study.moves_left == 1 and len(study.moves) == 2
    assert study.moves == info["line"][:2]
    assert study.play(info["line"][2])["reply"] == "solved"


def test_lesson_1_by_its_solution():
    solution = tesseract.lesson_solution(1)
    lesson = Lesson(1)
    assert solution and len(solution) <= lesson.bound
    for i, text in enumerate(solution):
        assert text in lesson.legal_moves()
        assert lesson.play(text) == (i == len(solution) - 1)
    assert lesson.done and lesson.count == len(solution)
    assert lesson.legal_moves() == []
    with pytest.raises(ValueError):
        lesson.play(solution[0])
    lesson.restart()
    assert not lesson.done and lesson.count == 0 and lesson.fen == tesseract.lessons()[0]["fen"]


def test_a_piece_the_lesson_does_not_teach_is_refused():
    info = tesseract.lessons()[0]
    board = Board(info["fen"])
    other = next(m.text() for m in board.legal_moves if m.text()[:4] not in info["pieces"])
    lesson = Lesson(1)
    with pytest.raises(ValueError, match="only the taught pieces"):
        lesson.play(other)
    assert lesson.fen == info["fen"] and lesson.count == 0


def test_errors_are_value_errors():
    for bad in (0, 13, -1):
        with pytest.raises(ValueError, match="numbered 1 to 12"):
            Study(bad)
    with pytest.raises(ValueError, match="numbered 1 to 8"):
        Lesson(9)
    with pytest.raises(ValueError):
        tesseract.lesson_solution(0)
    study = Study(1)
    for text in ("", "x" * 100, "hello", "11111111", "0000"):
        with pytest.raises(ValueError):
            study.play(text)
    assert study.moves == []
