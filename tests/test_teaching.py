"""Stepping through a lesson on the board (mostly its session, with no board library): positions, captions, taking over,
languages, options.
"""

from __future__ import annotations

import pathlib
from typing import Any

import pytest

from patiencelab import Klondike, Move, PatienceError
from patiencelab.lessons import Lesson, Quiz, Step
from patiencelab.records import Records
from patiencelab.widget.board import KlondikeWidget
from patiencelab.widget.session import BoardSession, PlainHost

from .session_helpers import Board


def send(board: Board, kind: str, **fields: Any) -> dict[str, Any] | None:
    return board.handle_intent({"type": kind, "version": board.version, **fields})


@pytest.fixture
def board(tmp_path: pathlib.Path) -> BoardSession:
    board = BoardSession(seed=1, records=Records(tmp_path / "r.sqlite3"))
    board.lesson = Lesson.builtin("draw-three")
    return board


def test_stepping_lands_on_exactly_the_recorded_positions(board: BoardSession) -> None:
    lesson = board.lesson
    assert lesson is not None
    steps = len(lesson.steps)
    for k in range(1, steps + 1):
        assert send(board, "lesson", action="forward") is None
        assert board.game.position_json() == lesson.game_at(k).position_json()
        assert board.state["lesson"]["step"] == k
    for k in range(steps - 1, -1, -1):
        assert send(board, "lesson", action="back") is None
        assert board.game.position_json() == lesson.game_at(k).position_json()
    send(board, "lesson", action="last")
    assert board.game.position_json() == lesson.game_at(steps).position_json()
    send(board, "lesson", action="first")
    assert board.game.position_json() == lesson.game_at(0).position_json()


def test_captions_narrate_the_step_and_show_the_note(board: BoardSession) -> None:
    state = board.state["lesson"]
    assert state["step"] == 0 and state["caption"].startswith("Standard rules with draw 3")
    send(board, "lesson", action="forward")
    state = board.state["lesson"]
    assert state["caption"].startswith("Move the A♥ from column 7 to its foundation")
    assert state["note"] == "Always look for Aces first."
    assert state["highlight"] == {"cards": ["AH"], "to": "fH"}
    assert board.state["last_move"]["to"] == "fH"


def test_an_illegal_step_is_shown_not_played(board: BoardSession) -> None:
    for _ in range(4):
        send(board, "lesson", action="forward")
    moves = board.game.moves
    send(board, "lesson", action="forward")
    state = board.state["lesson"]
    assert board.game.moves == moves
    assert state["caption"] == "Not allowed: Only the top card of the waste (9♣) can be played, not the A♣."
    assert state["highlight"] == {"cards": ["AC"], "to": "fC"}
    send(board, "lesson", action="back")
    assert board.game.moves == moves and board.state["lesson"]["step"] == 4


@pytest.mark.parametrize(
    ("lang", "start"),
    [("nl", "Leg de A♥ van kolom 7 op de fundering"), ("sv", "Flytta E♥ från kolumn 7 till en grund")],
)
def test_captions_follow_the_language(board: BoardSession, lang: str, start: str) -> None:
    send(board, "lesson", action="forward")
    assert send(board, "lang", lang=lang) is None
    assert board.state["lesson"]["caption"].startswith(start)
    assert board.labels["undo"] != "Undo"
    assert board.state["rules_text"].splitlines()[0] != "Standard rules"


def test_taking_over_and_returning(board: BoardSession) -> None:
    send(board, "lesson", action="forward")
    send(board, "draw")
    state = board.state["lesson"]
    assert state["taken_over"] and state["note"] is None and "by hand" in state["caption"]
    assert send(board, "lesson", action="forward")["type"] == "rejected"  # type: ignore[index]
    send(board, "lesson", action="resume")
    assert not board.state["lesson"]["taken_over"] and board.game.moves == 1


def test_play_pause_and_pace(board: BoardSession) -> None:
    send(board, "lesson", action="play")
    assert board.state["lesson"]["playing"]
    assert send(board, "lesson", action="pace", pace=0.5) is None
    assert board.state["lesson"]["pace"] == 0.5
    assert send(board, "lesson", action="pace", pace=20)["type"] == "rejected"  # type: ignore[index]
    send(board, "lesson", action="last")
    assert not board.state["lesson"]["playing"]
    send(board, "lesson", action="pause")
    assert not board.state["lesson"]["playing"]


def test_playing_waits_at_a_quiz_until_it_is_answered() -> None:
    board = BoardSession(seed=7, records=None)
    lesson = Lesson(
        title="q",
        deal=board.game.deal,
        steps=(Step(Move.parse("d")), Step(Move.parse("t1-t3"), quiz=Quiz(tries=1)), Step(Move.parse("d"))),
    )
    board.lesson = lesson
    send(board, "lesson", action="play")
    send(board, "lesson", action="forward")  # the timer's tick
    assert board.state["lesson"]["step"] == 1 and board.state["lesson"]["quiz"]["waiting"]
    for _ in range(3):
        send(board, "lesson", action="forward")  # ticks while the class thinks: nothing moves
    assert board.state["lesson"]["step"] == 1 and board.state["lesson"]["playing"]
    send(board, "move", card="5D", to="t3")  # the answer
    assert board.state["lesson"]["step"] == 2 and not board.state["lesson"]["quiz"]["waiting"]
    send(board, "lesson", action="forward")  # playing goes on
    assert board.state["lesson"]["step"] == 3
    board.close()


def test_lesson_games_are_not_stored_and_close_leaves_the_board(board: BoardSession) -> None:
    send(board, "lesson", action="last")
    send(board, "lesson", action="close")
    assert board.state["lesson"] is None and board.lesson is None
    assert board.records is not None and len(board.records) == 0


def test_step_through_moves_from_the_current_position() -> None:
    board = BoardSession(seed=7, records=None)
    board.game.play("d")
    lesson = board.step_through(["t1-t3", "d"], title="Two moves")
    assert lesson.position is not None and board.game.moves == 0
    board.step("forward")
    assert board.state["lesson"]["caption"].startswith("Move the 5♦")
    with pytest.raises(PatienceError, match="unknown lesson action"):
        board.step("sideways")


def test_options_show_moves_reveal_narrate(board: BoardSession) -> None:
    send(board, "lesson", action="close")
    assert send(board, "show_moves", on=True) is None and board.state["show_moves"]
    assert send(board, "show_moves", on="yes")["type"] == "rejected"  # type: ignore[index]
    board.set_option("narrate", True)
    send(board, "move", card="AH", to="f")
    assert board.state["message"]["kind"] == "narration"
    assert board.state["message"]["text"].startswith("Move the A♥")
    board.set_option("reveal", True)
    assert all(card is not None for column in board.state["tableau"] for card in column["down"])


def test_stats_reply_lists_every_rule_set(tmp_path: pathlib.Path) -> None:
    board = BoardSession(seed=1, records=Records(tmp_path / "r.sqlite3"))
    send(board, "draw")
    board.new_game(seed=2)
    reply = send(board, "stats")
    assert reply is not None and reply["type"] == "stats"
    assert [(row["rules_key"], row["draw"], row["played"]) for row in reply["rows"]] == [("standard", 1, 1)]


def test_the_winnability_indicator_works_in_the_background() -> None:
    board = BoardSession(seed=7, records=None)
    assert board.state["indicator"] == {"enabled": False, "verdict": None, "searched": 0, "error": None}
    board.set_option("indicator_seconds", 3600)  # a state budget, not the clock
    board.set_option("indicator_max_states", 1_000_000)
    board.set_option("indicator", True)
    version = board.version
    assert board.state["indicator"]["verdict"] == "pending"
    assert board.wait_for_verdict(600) == "winnable"
    assert board.version == version, "the verdict itself does not make intents stale"
    board.lesson = Lesson.builtin("draw-three")
    assert board.state["indicator"]["enabled"] is False, "off while a lesson is shown"
    board.close()


def test_the_indicator_says_lost() -> None:
    from .model_helpers import game_from

    # every other card lies face down under the K♥ in one column, with no stock: the solver proves it lost
    game = game_from([("QS", "KH"), ("", "KS")], rest="t1", stock="", found={"C": 0})
    board = BoardSession(game, records=None)
    board.set_option("indicator_seconds", 3600)
    board.set_option("indicator_max_states", 1_000_000)
    board.set_option("indicator", True)
    assert board.wait_for_verdict(600) == "lost"
    board.close()


def test_a_quiz_step_waits_for_the_class_judges_each_answer_and_keeps_the_score() -> None:
    board = BoardSession(seed=7, records=None, lang="nl")
    game = Klondike(seed=7)
    lesson = Lesson(
        title="Quiz",
        steps=(Step(Move.parse("t1-t3"), quiz=Quiz(tries=2)), Step(Move.parse("d"), quiz=Quiz(tries=1))),
        deal=game.deal,
    )
    board.lesson = lesson
    state = board.state["lesson"]
    assert "Wat zou jij hier spelen?" in state["caption"] and "(nog 2 pogingen)" in state["caption"]
    assert state["quiz"]["waiting"] is True and state["quiz"]["tries_left"] == 2
    wrong = send(board, "move", card="5D", to="t2")
    assert wrong is not None and wrong["type"] == "answer" and wrong["verdict"] == "illegal"
    assert board.game.moves == 0 and board.state["message"]["text"] == wrong["text"]
    assert board.state["lesson"]["quiz"] == {
        "waiting": True,
        "tries_left": 1,
        "right": 0,
        "asked": 0,
        "score": "Goede antwoorden: 0 van 0",
    }
    right = send(board, "move", card="5D", to="t3")
    assert right is not None and right["verdict"] == "right" and right["text"] == "Goed zo!"
    assert [str(m) for m in board.game.history] == ["t1-t3"] and board.state["lesson"]["step"] == 1
    card, piles = next(iter(board.state["targets"].items()))
    nowhere = next(
        f"t{j}" for j in range(1, 8) if f"t{j}" not in piles and card not in map(str, board.game.tableau[j - 1].up)
    )
    other = send(board, "move", card=card, to=nowhere)
    assert other is not None and other["verdict"] == "illegal", "the last try is used up"
    assert [str(m) for m in board.game.history] == ["t1-t3", "d"], "after the last try the step's move is shown"
    assert board.state["lesson"]["quiz"]["score"] == "Goede antwoorden: 1 van 2"
    assert board.state["lesson"]["quiz"]["waiting"] is False


@pytest.mark.parametrize(
    ("lang", "again", "one_left", "shown"),
    [
        ("en", "Try again", "(1 try left)", "the board plays the lesson's move"),
        ("nl", "Probeer het nog eens", "(nog 1 poging)", "het bord speelt de zet van de les"),
        ("sv", "Försök igen", "(1 försök kvar)", "brädet spelar lektionens drag"),
    ],
)
def test_the_last_wrong_answer_says_the_board_plays_the_steps_move(
    lang: str, again: str, one_left: str, shown: str
) -> None:
    board = BoardSession(seed=7, records=None, lang=lang)
    board.set_option("quiz_max_states", None)  # a legal move the step does not list is "other" at once
    lesson = Lesson(title="Quiz", steps=(Step(Move.parse("t1-t3"), quiz=Quiz(tries=2)),), deal=Klondike(seed=7).deal)
    board.lesson = lesson
    first = send(board, "draw")
    assert first is not None and first["verdict"] == "other" and again in first["text"], first
    assert one_left in board.state["lesson"]["caption"], "one try left, in the singular"
    assert board.game.moves == 0
    last = send(board, "draw")
    assert last is not None and last["verdict"] == "other"
    assert again not in last["text"] and shown in last["text"], last["text"]
    assert board.state["message"]["text"] == last["text"], "the board says what it does"
    assert [str(m) for m in board.game.history] == ["t1-t3"], "the step's own move is played"
    board.close()


def test_a_click_on_the_stock_answers_a_quiz_whose_move_is_a_draw() -> None:
    """The shipped quiz lesson's first question is answered by drawing: the stock click is judged, not played."""
    host = PlainHost()
    board = BoardSession(records=None, lang="sv", host=host)
    board.lesson = Lesson.builtin("quiz")
    board.set_option("reveal", True)  # the teacher shows the cards: the solver judges the deal as it lies (it peeks)
    sent = host.replies  # the replies that come after their intent was answered
    send(board, "lesson", action="forward")
    assert board.state["lesson"]["quiz"]["waiting"] is True
    assert send(board, "move", card="6S", to="t2") is None, "judged by the solver, off the kernel's thread"
    board.wait_for_background(600)
    assert sent and sent[-1]["verdict"] == "loses" and board.game.moves == 1
    right = send(board, "draw")
    assert right is not None and right["type"] == "answer" and right["verdict"] == "right", right
    assert [str(m) for m in board.game.history] == ["t5-t3", "d"] and board.state["lesson"]["step"] == 2
    assert board.state["lesson"]["quiz"]["score"] == "Rätta svar: 1 av 1"
    assert send(board, "lesson", action="forward") is None, "the lesson goes on along its line"
    board.close()


def small_review_budgets(board: BoardSession) -> None:
    board.set_option("review_max_states", 20_000)
    board.set_option("review_samples", 4)
    board.set_option("review_sample_max_states", 300)


def test_review_shows_the_whole_game_and_the_second_opinion_with_an_arrow_on_its_step() -> None:
    from .review_games import random_game

    played = random_game(13)
    board = BoardSession(played, records=None)
    small_review_budgets(board)
    found = board.review()
    assert found.outcome == "lost" and found.losing is not None and found.better is not None
    state = board.state["lesson"]
    assert state["steps"] == played.moves and len(state["chart"]["points"]) == played.moves + 1
    marks = [m["step"] for m in state["chart"]["marks"]]
    assert state["step"] == (marks[0] if marks else found.at)
    board.goto(found.at)
    state = board.state["lesson"]
    assert state["step"] == found.losing - 1 and state["review"] and found.second_opinion in state["note"]
    (arrow,) = [m for m in state["marks"] if m.get("color") is None]
    assert arrow["arrow"][0] == str(found.better.source) or found.better.is_draw
    assert board.game.moves == found.losing - 1
    assert send(board, "lesson", action="forward") is None
    assert board.game.history[-1] == found.losing_move, "one step on: the losing move itself"
    assert send(board, "lesson", action="last") is None and board.game.history == played.history


def test_a_review_with_no_losing_move_leaves_the_board_where_it_was_with_the_words() -> None:
    game = Klondike(seed=1)
    for move in ("d", "d"):
        game.play(move)
    board = BoardSession(game, records=None)
    small_review_budgets(board)
    found = board.review()
    assert found.outcome == "winnable" and found.at == 2 and not found.marks
    assert board.game.moves == 2 and board.state["lesson"]["step"] == 2
    assert board.state["lesson"]["note"] == (
        "This game can still be won from here."
        " (This is a second opinion from the solver, which knows the face-down cards.)"
    )
    assert board.state["lesson"]["marks"] == []


def test_with_the_cards_hidden_a_quiz_answer_is_judged_from_what_the_class_sees() -> None:
    """The shipped quiz's tempting 6♠ loses this deal, but no player could know it: the fair judgement says
    how many of the possible deals it keeps winnable, as many as the lesson's draw.
    """
    host = PlainHost()
    board = BoardSession(records=None, lang="sv", host=host)
    board.lesson = Lesson.builtin("quiz")
    sent = host.replies  # the replies that come after their intent was answered
    send(board, "lesson", action="forward")
    assert send(board, "move", card="6S", to="t2") is None
    board.wait_for_background(600)
    assert sent and sent[-1]["verdict"] == "right" and "möjliga givar att vinna" in sent[-1]["text"]


def test_moves_play_after_the_teacher_takes_a_quiz_step_over() -> None:
    """Fault 10: after an undo at a quiz step every move was judged as an answer and refused ("the lesson is not
    waiting for an answer") until the lesson was resumed.
    """
    game = Klondike(seed=7)
    lesson = Lesson(
        title="Quiz",
        steps=(Step(Move.parse("t1-t3")), Step(Move.parse("d"), quiz=Quiz())),
        deal=game.deal,
    )
    board = KlondikeWidget(seed=7, records=None)
    board.lesson = lesson
    send(board, "lesson", action="forward")
    assert board.state["lesson"]["quiz"]["waiting"] is True
    send(board, "undo")  # the teacher takes over
    send(board, "draw")
    send(board, "undo")
    move = board.game.legal_moves()[0]
    board.game.play(move)
    assert board.game.history[-1] == move
