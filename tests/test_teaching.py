"""Stepping through a lesson in the widget: positions, captions, taking over, languages, options."""

from __future__ import annotations

import pathlib
from typing import Any

import pytest

from patiencelab import Klondike, Move, PatienceError
from patiencelab.lesson import Lesson, Quiz, Step
from patiencelab.records import Records
from patiencelab.widget.board import KlondikeWidget


def send(widget: KlondikeWidget, kind: str, **fields: Any) -> dict[str, Any] | None:
    return widget.handle_intent({"type": kind, "version": widget.version, **fields})


@pytest.fixture
def widget(tmp_path: pathlib.Path) -> KlondikeWidget:
    widget = KlondikeWidget(seed=1, records=Records(tmp_path / "r.sqlite3"))
    widget.lesson = Lesson.builtin("draw-three")
    return widget


def test_stepping_lands_on_exactly_the_recorded_positions(widget: KlondikeWidget) -> None:
    lesson = widget.lesson
    assert lesson is not None
    steps = len(lesson.steps)
    for k in range(1, steps + 1):
        assert send(widget, "lesson", action="forward") is None
        assert widget.game.position_json() == lesson.game_at(k).position_json()
        assert widget.state["lesson"]["step"] == k
    for k in range(steps - 1, -1, -1):
        assert send(widget, "lesson", action="back") is None
        assert widget.game.position_json() == lesson.game_at(k).position_json()
    send(widget, "lesson", action="last")
    assert widget.game.position_json() == lesson.game_at(steps).position_json()
    send(widget, "lesson", action="first")
    assert widget.game.position_json() == lesson.game_at(0).position_json()


def test_captions_narrate_the_step_and_show_the_note(widget: KlondikeWidget) -> None:
    state = widget.state["lesson"]
    assert state["step"] == 0 and state["caption"].startswith("Standard rules with draw 3")
    send(widget, "lesson", action="forward")
    state = widget.state["lesson"]
    assert state["caption"].startswith("Move the A♥ from column 7 to its foundation")
    assert state["note"] == "Always look for Aces first."
    assert state["highlight"] == {"cards": ["AH"], "to": "fH"}
    assert widget.state["last_move"]["to"] == "fH"


def test_an_illegal_step_is_shown_not_played(widget: KlondikeWidget) -> None:
    for _ in range(4):
        send(widget, "lesson", action="forward")
    moves = widget.game.moves
    send(widget, "lesson", action="forward")
    state = widget.state["lesson"]
    assert widget.game.moves == moves
    assert state["caption"] == "Not allowed: Only the top card of the waste (9♣) can be played, not the A♣."
    assert state["highlight"] == {"cards": ["AC"], "to": "fC"}
    send(widget, "lesson", action="back")
    assert widget.game.moves == moves and widget.state["lesson"]["step"] == 4


@pytest.mark.parametrize(
    ("lang", "start"),
    [("nl", "Leg de A♥ van kolom 7 op de fundering"), ("sv", "Flytta E♥ från kolumn 7 till en grund")],
)
def test_captions_follow_the_language(widget: KlondikeWidget, lang: str, start: str) -> None:
    send(widget, "lesson", action="forward")
    assert send(widget, "lang", lang=lang) is None
    assert widget.state["lesson"]["caption"].startswith(start)
    assert widget.labels["undo"] != "Undo"
    assert widget.state["rules_text"].splitlines()[0] != "Standard rules"


def test_taking_over_and_returning(widget: KlondikeWidget) -> None:
    send(widget, "lesson", action="forward")
    send(widget, "draw")
    state = widget.state["lesson"]
    assert state["taken_over"] and state["note"] is None and "by hand" in state["caption"]
    assert send(widget, "lesson", action="forward")["type"] == "rejected"  # type: ignore[index]
    send(widget, "lesson", action="resume")
    assert not widget.state["lesson"]["taken_over"] and widget.game.moves == 1


def test_play_pause_and_pace(widget: KlondikeWidget) -> None:
    send(widget, "lesson", action="play")
    assert widget.state["lesson"]["playing"]
    assert send(widget, "lesson", action="pace", pace=0.5) is None
    assert widget.state["lesson"]["pace"] == 0.5
    assert send(widget, "lesson", action="pace", pace=20)["type"] == "rejected"  # type: ignore[index]
    send(widget, "lesson", action="last")
    assert not widget.state["lesson"]["playing"]
    send(widget, "lesson", action="pause")
    assert not widget.state["lesson"]["playing"]


def test_playing_waits_at_a_quiz_until_it_is_answered() -> None:
    widget = KlondikeWidget(seed=7, records=None)
    lesson = Lesson(
        title="q",
        deal=widget.game.deal,
        steps=(Step(Move.parse("d")), Step(Move.parse("t1-t3"), quiz=Quiz(tries=1)), Step(Move.parse("d"))),
    )
    widget.lesson = lesson
    send(widget, "lesson", action="play")
    send(widget, "lesson", action="forward")  # the timer's tick
    assert widget.state["lesson"]["step"] == 1 and widget.state["lesson"]["quiz"]["waiting"]
    for _ in range(3):
        send(widget, "lesson", action="forward")  # ticks while the class thinks: nothing moves
    assert widget.state["lesson"]["step"] == 1 and widget.state["lesson"]["playing"]
    send(widget, "move", card="5D", to="t3")  # the answer
    assert widget.state["lesson"]["step"] == 2 and not widget.state["lesson"]["quiz"]["waiting"]
    send(widget, "lesson", action="forward")  # playing goes on
    assert widget.state["lesson"]["step"] == 3
    widget.close()


def test_lesson_games_are_not_stored_and_close_leaves_the_board(widget: KlondikeWidget) -> None:
    send(widget, "lesson", action="last")
    send(widget, "lesson", action="close")
    assert widget.state["lesson"] is None and widget.lesson is None
    assert widget.records is not None and len(widget.records) == 0


def test_step_through_moves_from_the_current_position() -> None:
    widget = KlondikeWidget(seed=7, records=None)
    widget.game.play("d")
    lesson = widget.step_through(["t1-t3", "d"], title="Two moves")
    assert lesson.position is not None and widget.game.moves == 0
    widget.step("forward")
    assert widget.state["lesson"]["caption"].startswith("Move the 5♦")
    with pytest.raises(PatienceError, match="unknown lesson action"):
        widget.step("sideways")


def test_options_show_moves_reveal_narrate(widget: KlondikeWidget) -> None:
    send(widget, "lesson", action="close")
    assert send(widget, "show_moves", on=True) is None and widget.state["show_moves"]
    assert send(widget, "show_moves", on="yes")["type"] == "rejected"  # type: ignore[index]
    widget.narrate = True
    send(widget, "move", card="AH", to="f")
    assert widget.state["message"]["kind"] == "narration"
    assert widget.state["message"]["text"].startswith("Move the A♥")
    widget.reveal = True
    assert all(card is not None for column in widget.state["tableau"] for card in column["down"])


def test_stats_reply_lists_every_rule_set(tmp_path: pathlib.Path) -> None:
    widget = KlondikeWidget(seed=1, records=Records(tmp_path / "r.sqlite3"))
    send(widget, "draw")
    widget.new_game(seed=2)
    reply = send(widget, "stats")
    assert reply is not None and reply["type"] == "stats"
    assert [(row["rules_key"], row["draw"], row["played"]) for row in reply["rows"]] == [("standard", 1, 1)]


def test_the_winnability_indicator_works_in_the_background() -> None:
    widget = KlondikeWidget(seed=7, records=None)
    assert widget.state["indicator"] == {"enabled": False, "verdict": None, "searched": 0, "error": None}
    widget.indicator_seconds, widget.indicator_max_states = 3600, 1_000_000  # a state budget, not the clock
    widget.indicator = True
    version = widget.version
    assert widget.state["indicator"]["verdict"] == "pending"
    assert widget.wait_for_verdict(600) == "winnable"
    assert widget.version == version, "the verdict itself does not make intents stale"
    widget.lesson = Lesson.builtin("draw-three")
    assert widget.state["indicator"]["enabled"] is False, "off while a lesson is shown"
    widget.close()


def test_the_indicator_says_lost() -> None:
    from .model_helpers import game_from

    # every other card lies face down under the K♥ in one column, with no stock: the solver proves it lost
    game = game_from([("QS", "KH"), ("", "KS")], rest="t1", stock="", found={"C": 0})
    widget = KlondikeWidget(game, records=None)
    widget.indicator_seconds, widget.indicator_max_states = 3600, 1_000_000
    widget.indicator = True
    assert widget.wait_for_verdict(600) == "lost"
    widget.close()


def test_a_quiz_step_waits_for_the_class_judges_each_answer_and_keeps_the_score() -> None:
    widget = KlondikeWidget(seed=7, records=None, lang="nl")
    game = Klondike(seed=7)
    lesson = Lesson(
        title="Quiz",
        steps=(Step(Move.parse("t1-t3"), quiz=Quiz(tries=2)), Step(Move.parse("d"), quiz=Quiz(tries=1))),
        deal=game.deal,
    )
    widget.lesson = lesson
    state = widget.state["lesson"]
    assert "Wat zou jij hier spelen?" in state["caption"] and "(nog 2 pogingen)" in state["caption"]
    assert state["quiz"]["waiting"] is True and state["quiz"]["tries_left"] == 2
    wrong = send(widget, "move", card="5D", to="t2")
    assert wrong is not None and wrong["type"] == "answer" and wrong["verdict"] == "illegal"
    assert widget.game.moves == 0 and widget.state["message"]["text"] == wrong["text"]
    assert widget.state["lesson"]["quiz"] == {
        "waiting": True,
        "tries_left": 1,
        "right": 0,
        "asked": 0,
        "score": "Goede antwoorden: 0 van 0",
    }
    right = send(widget, "move", card="5D", to="t3")
    assert right is not None and right["verdict"] == "right" and right["text"] == "Goed zo!"
    assert [str(m) for m in widget.game.history] == ["t1-t3"] and widget.state["lesson"]["step"] == 1
    card, piles = next(iter(widget.state["targets"].items()))
    nowhere = next(
        f"t{j}" for j in range(1, 8) if f"t{j}" not in piles and card not in map(str, widget.game.tableau[j - 1].up)
    )
    other = send(widget, "move", card=card, to=nowhere)
    assert other is not None and other["verdict"] == "illegal", "the last try is used up"
    assert [str(m) for m in widget.game.history] == ["t1-t3", "d"], "after the last try the step's move is shown"
    assert widget.state["lesson"]["quiz"]["score"] == "Goede antwoorden: 1 van 2"
    assert widget.state["lesson"]["quiz"]["waiting"] is False


def test_a_click_on_the_stock_answers_a_quiz_whose_move_is_a_draw() -> None:
    """The shipped quiz lesson's first question is answered by drawing: the stock click is judged, not played."""
    widget = KlondikeWidget(records=None, lang="sv")
    widget.lesson = Lesson.builtin("quiz")
    widget.reveal = True  # the teacher shows the cards: the solver judges the deal as it lies (it peeks)
    sent: list[dict[str, Any]] = []
    widget.send = sent.append
    send(widget, "lesson", action="forward")
    assert widget.state["lesson"]["quiz"]["waiting"] is True
    assert send(widget, "move", card="6S", to="t2") is None, "judged by the solver, off the kernel's thread"
    widget.wait_for_background(600)
    assert sent and sent[-1]["verdict"] == "loses" and widget.game.moves == 1
    right = send(widget, "draw")
    assert right is not None and right["type"] == "answer" and right["verdict"] == "right", right
    assert [str(m) for m in widget.game.history] == ["t5-t3", "d"] and widget.state["lesson"]["step"] == 2
    assert widget.state["lesson"]["quiz"]["score"] == "Rätta svar: 1 av 1"
    assert send(widget, "lesson", action="forward") is None, "the lesson goes on along its line"
    widget.close()


def test_review_steps_to_the_move_that_lost_with_an_arrow_for_the_better_one() -> None:
    from .test_review import random_game

    played = random_game(13)
    widget = KlondikeWidget(played, records=None)
    widget.review_max_states = 20_000
    found = widget.review()
    assert found.outcome == "lost" and found.losing is not None and found.better is not None
    state = widget.state["lesson"]
    assert state["step"] == found.losing - 1 and state["steps"] == found.losing
    assert state["note"] == found.text
    (arrow,) = state["marks"]
    assert arrow["arrow"][0] == str(found.better.source) or found.better.is_draw
    assert widget.game.moves == found.losing - 1
    assert send(widget, "lesson", action="forward") is None
    assert widget.game.history[-1] == found.losing_move, "one step on: the losing move itself"


def test_a_review_with_no_losing_move_leaves_the_board_where_it_was_with_the_words() -> None:
    game = Klondike(seed=1)
    for move in ("d", "d"):
        game.play(move)
    widget = KlondikeWidget(game, records=None)
    widget.review_max_states = 20_000
    found = widget.review()
    assert found.outcome == "winnable" and found.at == 2
    assert widget.game.moves == 2 and widget.state["lesson"]["step"] == 2
    assert widget.state["lesson"]["note"] == (
        "This game can still be won from here."
        " (This is a second opinion from the solver, which knows the face-down cards.)"
    )
    assert widget.state["lesson"]["marks"] == []


def test_with_the_cards_hidden_a_quiz_answer_is_judged_from_what_the_class_sees() -> None:
    """The shipped quiz's tempting 6♠ loses this deal, but no player could know it: the fair judgement says
    how many of the possible deals it keeps winnable, as many as the lesson's draw.
    """
    widget = KlondikeWidget(records=None, lang="sv")
    widget.lesson = Lesson.builtin("quiz")
    sent: list[dict[str, Any]] = []
    widget.send = sent.append
    send(widget, "lesson", action="forward")
    assert send(widget, "move", card="6S", to="t2") is None
    widget.wait_for_background(600)
    assert sent and sent[-1]["verdict"] == "right" and "möjliga givar att vinna" in sent[-1]["text"]
