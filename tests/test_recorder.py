"""Recording a lesson by playing (issue 14): the pure recorder, the ``record`` and ``review`` intents (bad input
changes nothing), and the review and quiz judging that run off the kernel's thread (delivered, or dropped when
the board changed meanwhile).
"""

from __future__ import annotations

import json
import pathlib
import threading
from typing import Any

import pytest

from patiencelab import Klondike, Move, PatienceError
from patiencelab.core.limits import check_text
from patiencelab.core.marks import Mark
from patiencelab.lessons import MAX_STEPS, Lesson, Quiz, Step
from patiencelab.review import Review
from patiencelab.widget import review_job
from patiencelab.widget.board import KlondikeWidget
from patiencelab.widget.teaching import MAX_NOTE, LessonRecorder

from .review_games import random_game
from .session_helpers import send

# deal 7: the 5♦ (t1) goes on the 6♠ (t3); the 6♠ does not go on the 5♥ (t5)


def snapshot(widget: KlondikeWidget) -> str:
    recorder = widget.session.parts.lessons.recorder
    steps = [s.step().to_json() for s in recorder.steps] if recorder else None
    return json.dumps([widget.state, widget.game.record(), steps], sort_keys=True, default=str)


# ------------------------------------------------------------------------------------------- the recorder


def test_the_recorder_follows_the_games_history_with_notes_marks_quizzes_and_illegal_steps() -> None:
    game = Klondike(seed=7)
    game.play("d")  # the recording starts where the game is
    recorder = LessonRecorder(game, "Mine")
    assert recorder.synced_part("en")["steps"] == 0 and recorder.synced_part("en")["can_quiz"] is False
    with pytest.raises(PatienceError):
        recorder.set_note("too early", "en")
    game.undo()
    assert recorder.follow(game) is False, "back before the start: the recording cannot go on"
    game.play("d")
    game.play("t1-t3")
    assert recorder.follow(game) and [str(s.move) for s in recorder.steps] == ["t1-t3"]
    recorder.set_note("  Red on black.  ", "en")
    recorder.set_note("Rood op zwart.", "nl")
    recorder.toggle_mark(Mark("t3", "t2"))
    recorder.toggle_mark(Mark("5D"))
    recorder.toggle_mark(Mark("5D"))  # the same circle again takes it away, as on Lichess
    recorder.toggle_mark(Mark("t1", None, "red"))
    recorder.toggle_mark(Mark("t1", None, "blue"))  # another colour replaces it
    assert [m.to_json() for m in recorder.steps[0].marks] == [
        {"arrow": ["t3", "t2"]},
        {"circle": "t1", "color": "blue"},
    ]
    recorder.illegal(game, Move.parse("6S-t5"))
    assert (
        recorder.synced_part("en")["illegal"]
        and recorder.synced_part("en")["note"] == "The 6♠ cannot go on the 5♥; it goes on a 7."
    )
    with pytest.raises(PatienceError):
        recorder.set_quiz("move")  # an illegal step is no quiz
    with pytest.raises(PatienceError):
        recorder.illegal(game, Move.parse("d"))  # a legal move is played, not shown
    game.play("d")
    assert recorder.follow(game)
    recorder.set_quiz("winnable")
    assert recorder.synced_part("en")["quiz"] == "winnable"
    lesson = recorder.lesson()
    assert [s.to_json() for s in lesson.steps] == [
        {
            "move": "t1-t3",
            "note": {"en": "Red on black.", "nl": "Rood op zwart."},
            "marks": [{"arrow": ["t3", "t2"]}, {"circle": "t1", "color": "blue"}],
        },
        {"move": "6S-t5", "note": {"en": "The 6♠ cannot go on the 5♥; it goes on a 7."}, "illegal": True},
        {"move": "d", "quiz": {"winnable": True}},
    ]
    assert lesson.game_at(0).position_json() == Klondike.from_record({**game.record(), "moves": ["d"]}).position_json()
    assert lesson.title == "Mine" and lesson.position is not None


def test_an_undo_takes_back_its_step_and_the_illegal_steps_recorded_after_it() -> None:
    game = Klondike(seed=7)
    recorder = LessonRecorder(game, "Mine")
    game.play("t1-t3")
    recorder.illegal(game, Move.parse("6S-t5"))
    game.play("d")
    recorder.follow(game)
    assert [s.illegal for s in recorder.steps] == [False, True, False]
    game.undo()
    recorder.follow(game)
    assert [str(s.move) for s in recorder.steps] == ["t1-t3", "6S-t5"], "the illegal step after t1-t3 stays"
    assert recorder.drop_illegal() and not recorder.drop_illegal()
    game.undo()
    recorder.illegal(game, Move.parse("6S-t5"))
    game.play("t1-t3")
    recorder.follow(game)
    assert [str(s.move) for s in recorder.steps] == ["6S-t5", "t1-t3"]
    game.undo()
    game.play("t3-t2")
    recorder.follow(game)
    assert [str(s.move) for s in recorder.steps] == ["6S-t5", "t3-t2"]


def test_notes_and_marks_are_bounded() -> None:
    game = Klondike(seed=7)
    recorder = LessonRecorder(game, "Mine")
    game.play("d")
    recorder.follow(game)
    with pytest.raises(PatienceError):
        recorder.set_note("x" * (MAX_NOTE + 1), "en")
    for pile in ["stock", "w", "fC", "fD", "fH", "fS", *(f"t{i}" for i in range(1, 8))]:
        recorder.toggle_mark(Mark(pile))
    for a, b in [("t1", "t2"), ("t2", "t3"), ("t3", "t4"), ("t4", "t5"), ("t5", "t6"), ("t6", "t7")]:
        recorder.toggle_mark(Mark(a, b))
    for a, b in [("t7", "t1"), ("t1", "t3"), ("t2", "t4"), ("t3", "t5"), ("t4", "t6")]:
        recorder.toggle_mark(Mark(a, b))
    with pytest.raises(PatienceError):
        recorder.toggle_mark(Mark("t5", "t7"))
    recorder.clear_marks()
    assert recorder.synced_part("en")["marks"] == []


# ------------------------------------------------------------------------------------------- the board


def test_record_intents_make_the_lesson_that_saves_and_plays_back(tmp_path: pathlib.Path) -> None:
    widget = KlondikeWidget(seed=7, records=None, lang="sv")
    assert send(widget, "record", action="start") is None
    assert widget.recording and widget.state["recording"]["steps"] == 0
    assert widget.state["recording"]["title"] == "", "the recorder asks for a title"
    assert send(widget, "record", action="title", text="  Röd på  svart ") is None
    assert widget.state["recording"]["title"] == "Röd på svart"
    assert send(widget, "move", card="5D", to="t3") is None
    assert send(widget, "record", action="note", text="Rött på svart.") is None
    assert send(widget, "record", action="mark", mark={"arrow": ["t3", "t2"], "color": "red"}) is None
    assert widget.state["recording"]["marks"] == [{"arrow": ["t3", "t2"], "color": "red"}]
    assert send(widget, "move", card="6S", to="t5") is None, "an illegal move is recorded, not rejected"
    assert widget.state["recording"]["illegal"] and "6♠" in widget.state["recording"]["note"]
    assert send(widget, "undo") is None and widget.state["recording"]["steps"] == 1, "undo drops the illegal step"
    assert send(widget, "draw") is None
    assert send(widget, "record", action="quiz", quiz="move") is None
    assert send(widget, "record", action="stop") is None
    assert not widget.recording and widget.state["recording"] is None
    lesson = widget.lesson
    assert lesson is not None and [str(s.move) for s in lesson.steps] == ["t1-t3", "d"]
    assert lesson.title == {"sv": "Röd på svart"} and widget.state["lesson"]["title"] == "Röd på svart"
    assert widget.state["lesson"]["step"] == 0
    path = tmp_path / "lesson.json"
    lesson.save(path)
    again = KlondikeWidget(lesson=Lesson.load(path), records=None, lang="sv")
    assert again.lesson == lesson
    again.step("forward")
    state = again.state["lesson"]
    assert state["note"] == "Rött på svart." and state["marks"] == [{"arrow": ["t3", "t2"], "color": "red"}]
    assert state["quiz"]["waiting"] is True, "the next step is the quiz"


BAD_RECORD_INTENTS = [
    {"action": "fly"},
    {"action": 3},
    {},
    {"action": "note"},
    {"action": "note", "text": 5},
    {"action": "note", "text": "x" * 501},
    {"action": "note", "text": "ok", "extra": 1},
    {"action": "mark", "mark": "t1"},
    {"action": "mark", "mark": {"arrow": ["t1", "t1"]}},
    {"action": "mark", "mark": {"arrow": ["t1", "t8"]}},  # no eighth column
    {"action": "mark", "mark": {"arrow": ["t1", "x" * 40]}},
    {"action": "mark", "mark": {"circle": "KH"}},  # face down in deal 7: never confirmed, never stored
    {"action": "mark", "mark": {"circle": "t1", "color": "pink"}},
    {"action": "mark", "mark": {"circle": "t1", "size": 3}},
    {"action": "mark", "mark": {"circle": "t1", "color": "red", "x": 1, "y": 2}},
    {"action": "quiz", "quiz": "maybe"},
    {"action": "quiz"},
    {"action": "stop", "text": "hi"},
    {"action": "title"},
    {"action": "title", "text": None},
    {"action": "title", "text": "x" * 121},
]


@pytest.mark.parametrize("fields", BAD_RECORD_INTENTS)
def test_bad_record_intents_are_rejected_and_change_nothing(fields: dict[str, Any]) -> None:
    widget = KlondikeWidget(seed=7, records=None)
    send(widget, "record", action="start")
    send(widget, "move", card="5D", to="t3")
    version, before = widget.version, snapshot(widget)
    reply = send(widget, "record", **fields)
    assert reply is not None and reply["type"] == "rejected"
    assert widget.version == version and snapshot(widget) == before


def test_an_empty_title_gives_back_the_default() -> None:
    widget = KlondikeWidget(seed=7, records=None, lang="nl")
    send(widget, "record", action="start")
    send(widget, "record", action="title", text="Mijn les")
    send(widget, "record", action="title", text="   ")
    send(widget, "move", card="5D", to="t3")
    assert widget.stop_recording().title == "Opgenomen les"
    widget.close()


def test_record_intents_need_a_recording_and_marks_need_a_step() -> None:
    widget = KlondikeWidget(seed=7, records=None)
    for fields in ({"action": "stop"}, {"action": "note", "text": "x"}, {"action": "clear"}):
        reply = send(widget, "record", **fields)
        assert reply is not None and reply["type"] == "rejected"
    send(widget, "record", action="start")
    before = snapshot(widget)
    reply = send(widget, "record", action="mark", mark={"circle": "t1"})
    assert reply is not None and reply["type"] == "rejected" and snapshot(widget) == before


def test_a_new_deal_or_a_restart_ends_the_recording() -> None:
    widget = KlondikeWidget(seed=7, records=None)
    send(widget, "move", card="5D", to="t3")
    send(widget, "record", action="start")  # the recording starts after the first move
    send(widget, "draw")
    send(widget, "restart")
    assert widget.state["recording"] is None and not widget.recording
    send(widget, "record", action="start")
    send(widget, "new", seed=3)
    assert widget.state["recording"] is None


# ------------------------------------------------------------------------------------------- off the kernel thread


class Gate:
    """A stand-in for the review that waits for ``release()`` in its worker thread, then reviews."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.go = threading.Event()
        self.thread: str | None = None

    def __call__(self, game: Klondike, **kwargs: Any) -> Any:
        from patiencelab.review import review

        self.thread = threading.current_thread().name
        self.started.set()
        assert self.go.wait(60)
        return review(game, **kwargs)


def stuck_widget() -> KlondikeWidget:
    widget = KlondikeWidget(random_game(13), records=None)
    widget.review_max_states = 20_000
    widget.review_samples, widget.review_sample_max_states = 4, 300
    widget.session.parts.reviews.offered = lambda game, indicator: True  # type: ignore[method-assign] # offered, as when lost
    return widget


def test_the_review_button_reviews_in_a_worker_thread_and_shows_the_losing_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gate = Gate()
    monkeypatch.setattr(review_job, "review", gate)
    widget = stuck_widget()
    assert send(widget, "review") is None
    assert gate.started.wait(60) and gate.thread == "patiencelab-review"
    assert widget.state["review"]["busy"] is True and widget.state["message"]["text"] == "Reviewing the game…"
    assert widget.state["lesson"] is None, "the kernel's thread goes on while the review runs"
    assert send(widget, "review") is None, "a second press while it runs does nothing"
    gate.go.set()
    widget.wait_for_background(60)
    lesson = widget.state["lesson"]
    marks = [m["step"] for m in lesson["chart"]["marks"]] if lesson is not None else []
    assert lesson is not None and lesson["review"] is True and lesson["step"] == (marks[0] if marks else 84)
    assert widget.state["review"]["busy"] is False and widget.state["message"] is None
    widget.goto(84)  # the step the solver's second opinion speaks of
    lesson = widget.state["lesson"]
    assert lesson["review"] is True and "After the 7♠ went onto the 8♥ (move 85)" in lesson["note"]
    assert {"arrow": ["stock", "w"]} in lesson["marks"]


def test_a_review_for_a_game_that_changed_meanwhile_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    gate = Gate()
    monkeypatch.setattr(review_job, "review", gate)
    widget = stuck_widget()
    send(widget, "review")
    assert gate.started.wait(60)
    widget.game.undo()  # the game changed before the review came back
    gate.go.set()
    widget.wait_for_background(60)
    assert widget.state["lesson"] is None and widget.game.moves == 399
    assert widget.state["review"]["busy"] is False and widget.state["message"] is None


def test_a_review_that_fails_switches_itself_off_with_a_notice(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(game: Klondike, **kwargs: Any) -> Any:
        raise MemoryError("no room")

    monkeypatch.setattr(review_job, "review", broken)
    widget = stuck_widget()
    widget.lang = "nl"
    assert send(widget, "review") is None
    widget.wait_for_background(60)
    assert (
        widget.state["message"]["text"]
        == "Partijbespreking staat uit: die kan hier niet draaien (MemoryError: no room)."
    )
    assert widget.state["review"]["busy"] is False
    reply = send(widget, "review")
    assert reply is not None and reply["type"] == "rejected"


def test_a_review_is_offered_only_when_the_game_is_over_stuck_or_lost() -> None:
    widget = KlondikeWidget(seed=7, records=None)
    assert widget.state["review"] == {"offered": False, "busy": False, "progress": None}
    before = snapshot(widget)
    reply = send(widget, "review")
    assert reply is not None and reply["type"] == "rejected" and snapshot(widget) == before
    nearly = {
        "tableau": [{"down": [], "up": ["KS"]}] + [{"down": [], "up": []}] * 6,
        "stock": [],
        "waste": [],
        "foundations": {"C": 13, "D": 13, "H": 13, "S": 12},
    }
    won = KlondikeWidget(Klondike.from_position(nearly), records=None)
    won.game.play("t1-f")
    assert won.state["review"]["offered"] is True


def test_a_quiz_answer_the_solver_must_judge_is_judged_off_the_kernel_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    lesson = Lesson(title="Q", steps=(Step(Move.parse("t1-t3"), quiz=Quiz(tries=2)),), deal=Klondike(seed=7).deal)
    widget = KlondikeWidget(lesson=lesson, records=None)
    widget.quiz_max_states = 2_000
    judged: list[str] = []
    judge = Lesson.judge

    def spy(self: Lesson, *args: Any, **kwargs: Any) -> Any:
        judged.append(threading.current_thread().name)
        return judge(self, *args, **kwargs)

    monkeypatch.setattr(Lesson, "judge", spy)
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(widget, "send", sent.append)
    assert send(widget, "move", card="6S", to="t2") is None, "legal, not the step's move: the answer follows"
    widget.wait_for_background(60)
    assert judged == ["patiencelab-quiz"]
    assert sent and sent[0]["type"] == "answer" and sent[0]["verdict"] in ("other", "loses")
    assert widget.state["lesson"]["quiz"]["tries_left"] == 1 and widget.game.moves == 0
    right = send(widget, "move", card="5D", to="t3")  # listed: judged at once, in the kernel's thread
    assert right is not None and right["verdict"] == "right" and judged[-1] == threading.current_thread().name
    assert widget.state["message"]["text"] == "Right!"


def test_a_quiz_answer_for_a_lesson_that_was_closed_meanwhile_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    lesson = Lesson(title="Q", steps=(Step(Move.parse("t1-t3"), quiz=Quiz(tries=2)),), deal=Klondike(seed=7).deal)
    widget = KlondikeWidget(lesson=lesson, records=None)
    go = threading.Event()
    judge = Lesson.judge

    def slow(self: Lesson, *args: Any, **kwargs: Any) -> Any:
        assert go.wait(60)
        return judge(self, *args, **kwargs)

    monkeypatch.setattr(Lesson, "judge", slow)
    send(widget, "move", card="6S", to="t2")
    busy = send(widget, "move", card="5D", to="t3")
    assert busy is not None and busy["type"] == "rejected", "one answer at a time"
    widget.lesson = None
    go.set()
    widget.wait_for_background(60)
    assert widget.state["lesson"] is None and widget.game.moves == 0


def test_marks_name_piles_and_face_up_cards_only() -> None:
    widget = KlondikeWidget(seed=7, records=None)
    send(widget, "record", action="start")
    send(widget, "move", card="5D", to="t3")
    assert send(widget, "record", action="mark", mark={"circle": "5D"}) is None
    assert widget.state["recording"]["marks"] == [{"circle": "5D"}]
    hidden = {str(c) for col in widget.game.tableau for c in col.down} | {str(c) for c in widget.game.stock}
    for card in sorted(hidden)[:5]:
        reply = send(widget, "record", action="mark", mark={"circle": card})
        assert reply is not None and reply["type"] == "rejected"
    widget.stop_recording()
    with pytest.raises(PatienceError):
        widget.stop_recording()


def test_the_recorders_words_reach_the_board_in_the_players_language() -> None:
    widget = KlondikeWidget(seed=7, records=None, lang="sv")
    send(widget, "record", action="start")
    reply = send(widget, "record", action="mark", mark={"circle": "t1"})
    assert reply is not None and reply["text"] == "Inget är inspelat än: gör ett drag först."
    send(widget, "move", card="6S", to="t5")
    reply = send(widget, "record", action="quiz", quiz="move")
    assert reply is not None and reply["text"] == "Ett drag som reglerna förbjuder kan inte vara en fråga."


def test_a_quiz_whose_tries_ran_out_shows_its_move_with_an_arrow() -> None:
    lesson = Lesson(title="Q", steps=(Step(Move.parse("t1-t3"), quiz=Quiz(tries=1)),), deal=Klondike(seed=7).deal)
    widget = KlondikeWidget(lesson=lesson, records=None)
    reply = send(widget, "move", card="6S", to="t5")
    assert reply is not None and reply["verdict"] == "illegal"
    state = widget.state["lesson"]
    assert state["step"] == 1 and [str(m) for m in widget.game.history] == ["t1-t3"]
    assert state["marks"] == [{"arrow": ["t1", "t3"]}]
    assert widget.state["message"]["text"].startswith("Not allowed: The 6♠ cannot go on the 5♥")
    widget.step("back")
    widget.step("forward")
    assert widget.state["lesson"]["marks"] == [{"arrow": ["t1", "t3"]}]


def test_a_circle_on_a_card_that_lies_face_down_never_reaches_the_board() -> None:
    game = Klondike(seed=7)
    hidden = str(game.tableau[6].down[0])
    marks = (Mark(hidden), Mark("5D"), Mark("t2"), Mark("t1", "t3"))
    lesson = Lesson(title="M", steps=(Step(Move.parse("d"), marks=marks),), deal=game.deal)
    widget = KlondikeWidget(lesson=lesson, records=None)
    widget.step("forward")
    assert widget.state["lesson"]["marks"] == [{"circle": "5D"}, {"circle": "t2"}, {"arrow": ["t1", "t3"]}]
    assert hidden not in json.dumps(widget.state)


def test_a_review_that_cannot_be_shown_switches_itself_off_too(monkeypatch: pytest.MonkeyPatch) -> None:
    def unshowable(*args: Any, **kwargs: Any) -> Any:
        raise PatienceError("odd")

    monkeypatch.setattr(Review, "lesson", unshowable)
    widget = stuck_widget()
    assert send(widget, "review") is None
    widget.wait_for_background(60)
    assert widget.state["message"]["text"] == "Game review is off: it cannot run here (PatienceError: odd)."
    assert widget.state["lesson"] is None and widget.state["review"]["busy"] is False


@pytest.mark.parametrize("text", ["\ud800", "a\udfffb", "x" * (MAX_NOTE + 1)])
def test_a_note_that_is_not_valid_text_is_rejected_and_changes_nothing(text: str) -> None:
    """Fault 8: a lone surrogate (what a browser sends for a broken string) was stored; then neither the state
    nor the lesson could be written out. Text is checked where it enters.
    """
    board = KlondikeWidget(seed=3, records=None)
    send(board, "record", action="start")
    board.game.play(board.game.legal_moves()[0])
    version, state = board.version, json.dumps(board.state)
    reply = send(board, "record", action="note", text=text)
    assert reply is not None and reply["type"] == "rejected"
    assert board.version == version and json.dumps(board.state) == state
    with pytest.raises(PatienceError):
        check_text(text, MAX_NOTE, "a note")


def test_the_recorder_is_bounded_and_what_it_saves_loads_back(tmp_path: pathlib.Path) -> None:
    """Fault 9: every rejected move while recording added a step without limit, and a long recording saved a
    file that ``Lesson.load`` refused. The recording holds at most ``MAX_STEPS`` steps, and its largest lesson
    (the longest notes in every language, the most marks) loads back.
    """
    board = KlondikeWidget(seed=5, records=None)
    send(board, "record", action="start")
    rejected = 0
    for _ in range(MAX_STEPS + 20):
        reply = send(board, "move", card="KS", to="fH")
        rejected += reply is not None and reply["type"] == "rejected"
    recorder = board.session.parts.lessons.recorder
    assert recorder is not None and len(recorder.steps) == MAX_STEPS and recorder.is_full
    assert rejected == 20
    # The worst case a recording can save: notes of the longest escaped text in three languages on every step.
    game = Klondike(seed=5)
    worst = LessonRecorder(game, "Recorded")
    for _ in range(MAX_STEPS):
        legal = game.legal_moves()
        game.play(next((m for m in legal if m.is_draw or m.is_recycle), legal[0]))
        worst.follow(game)
        for lang in ("en", "nl", "sv"):
            worst.set_note('"' * MAX_NOTE, lang)
    assert worst.is_full
    path = tmp_path / "long.json"
    worst.lesson().save(path)
    assert len(Lesson.load(path).steps) == MAX_STEPS
