"""No English on a Dutch or Swedish board: every notice the session shows on the status line and every rejection
it sends back to intents a board can send (quick hands on a board that changed meanwhile included) is a sentence
of the board's language's catalogue (issue 36). Intents that break the protocol (an unknown type, a field that is
no text), which no board sends, are answered for their developer, in English, and left out.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from patiencelab import Klondike, PatienceError
from patiencelab.core.i18n import LANGUAGES
from patiencelab.core.view import PlayerView
from patiencelab.lessons import Lesson
from patiencelab.records import Records
from patiencelab.review import review
from patiencelab.widget import review_job
from patiencelab.widget.session import BoardSession, PlainHost
from tests.catalogue_words import in_catalogue
from tests.review_games import lost_games

SMALL = {"review_samples": 2, "review_sample_max_states": 200, "review_max_states": 2_000, "quiz_max_states": 2_000}


class Said:
    """Everything a board of one language said: messages shown, rejections and replies sent, errors raised."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.texts: list[tuple[str, str]] = []

    def board(self, *args: Any, **kwargs: Any) -> BoardSession:
        kwargs.setdefault("options", SMALL)
        return BoardSession(*args, host=WordsHost(self), lang=self.lang, **kwargs)

    def intent(self, board: BoardSession, what: str, kind: str, **fields: Any) -> dict[str, Any] | None:
        content = {"type": kind, "version": board.version, **fields}
        reply = board.handle_intent(content)
        if reply is not None and "text" in reply:
            self.texts.append((what, reply["text"]))
        return reply

    def raised(self, what: str, call: Callable[[], Any]) -> None:
        with pytest.raises(PatienceError) as caught:
            call()
        self.texts.append((what, str(caught.value)))


class WordsHost(PlainHost):
    """A plain host that hears every message the board shows."""

    def __init__(self, said: Said) -> None:
        super().__init__()
        self.said = said

    def show(self, state: dict[str, Any]) -> None:
        super().show(state)
        if state["message"] is not None:
            self.said.texts.append(("message", state["message"]["text"]))
        resume = state["stats"]["resume"]
        if resume is not None:
            self.said.texts.append(("resume offer", resume["text"]))

    def send(self, reply: dict[str, Any]) -> None:
        super().send(reply)
        if "text" in reply:
            self.said.texts.append((f"reply {reply['type']}", reply["text"]))


def stuck_game() -> Klondike:
    return next(g for _, g in lost_games(8) if g.status == "stuck")


def rejected_moves(said: Said) -> None:
    """Moves a hand can make: stale, against the rules, undo and redo with none, autocomplete too early."""
    board = said.board(seed=7, records=None)
    targets = board.state["targets"]
    card = sorted(targets)[0]
    said.intent(board, "move", "draw")
    reply = board.handle_intent({"type": "move", "version": board.version - 1, "card": card, "to": targets[card][0]})
    assert reply is not None and reply["type"] == "rejected"
    said.texts.append(("stale move", reply["text"]))
    for pile in ("t1", "t2", "t3", "t4", "t5", "t6", "t7", "f"):
        said.intent(board, f"move to {pile}", "move", card=str(board.game.waste[-1]), to=pile)
    said.intent(board, "recycle", "recycle")
    said.intent(board, "redo", "redo")
    said.intent(board, "autocomplete", "autocomplete")
    fresh = said.board(seed=7, records=None)
    said.intent(fresh, "undo", "undo")
    said.intent(fresh, "hint", "hint")
    said.intent(fresh, "review too early", "review")
    said.intent(fresh, "resume none", "resume", accept=True)
    said.intent(fresh, "no lesson", "lesson", action="forward")
    said.intent(fresh, "no lesson pace", "lesson", action="pace", pace=2)
    said.intent(fresh, "not recording", "record", action="note", text="x")
    stuck = said.board(stuck_game(), records=None)
    said.intent(stuck, "no hint", "hint")


def lessons_and_quizzes(said: Said) -> None:
    """A lesson's ends, a lesson taken over by hand, a quiz answered (judged at once and in a worker thread)."""
    board = said.board(seed=2, records=None)
    board.lesson = Lesson.from_moves(board.game, board.game.legal_moves()[:1], "L")
    said.intent(board, "first step", "lesson", action="back")
    said.intent(board, "last step", "lesson", action="last")
    said.intent(board, "past the last", "lesson", action="forward")
    said.intent(board, "first", "lesson", action="first")
    board.game.play(board.game.legal_moves()[-1])  # the teacher takes over by hand
    said.intent(board, "taken over", "lesson", action="forward")
    said.raised("autoplay in a lesson", lambda: board.autoplay(lambda view: "d"))
    quiz = said.board(seed=1, records=None, lesson=Lesson.builtin("quiz"))
    said.intent(quiz, "to the quiz", "lesson", action="forward")
    for move in quiz.game.legal_moves():
        if quiz.state["lesson"] is None or not quiz._lessons.quiz_waits():
            break
        card, _, to = str(move).partition("-")
        if to:
            said.intent(quiz, "answer", "move", card=card, to=to)
        else:
            said.intent(quiz, "answer", "draw" if str(move) == "d" else "recycle")
        quiz.wait_for_background(600)


def recording(said: Said) -> None:
    """A recording lost by undoing past its start."""
    board = said.board(seed=3, records=None)
    board.game.play(board.game.legal_moves()[0])
    said.intent(board, "record", "record", action="start")
    said.intent(board, "undo past the start", "undo")


def reviews(said: Said, monkeypatch: pytest.MonkeyPatch) -> None:
    """A review that runs and is cancelled, one that shows, one that fails (the review switches itself off)."""
    gate = threading.Event()
    board = said.board(stuck_game(), records=None)

    def held(game: Klondike, **kw: Any) -> Any:
        assert gate.wait(120)
        return review(game, **kw)

    monkeypatch.setattr(review_job, "review", held)
    said.intent(board, "review", "review")
    said.intent(board, "cancel", "review", action="cancel")
    gate.set()
    board.wait_for_background(120)
    said.intent(board, "review", "review")
    board.wait_for_background(120)

    def broken(game: Klondike, **kw: Any) -> Any:
        raise ValueError("x")

    monkeypatch.setattr(review_job, "review", broken)
    other = said.board(stuck_game(), records=None)
    said.intent(other, "failing review", "review")
    other.wait_for_background(120)
    said.intent(other, "review switched off", "review")


def indicator_and_records(said: Said, monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """The indicator and the records, switched off because they cannot work here."""

    def no_pool() -> Any:
        raise OSError("no workers here")

    board = said.board(seed=4, records=None, executor=no_pool)
    said.intent(board, "indicator", "indicator", on=True)
    home = tmp_path / f"home-{said.lang}"
    home.write_text("a file where the records' folder goes")
    monkeypatch.setenv("PATIENCELAB_HOME", str(home))
    with pytest.warns(RuntimeWarning):
        said.board(seed=4, records=True)
    records = Records(tmp_path / f"records-{said.lang}.db")
    gone = Klondike(seed=8)
    gone.play(gone.legal_moves()[0])
    records.keep("a board that is gone", gone)
    said.board(records=records)


def autoplay(said: Said) -> None:
    """The automatic player: playing, a move the rules refuse, a failure, and its notice across a language change."""

    def cheat(view: PlayerView) -> str:
        return "t1-fH"

    def broken(view: PlayerView) -> Any:
        raise ValueError("no idea")

    for player in (cheat, broken):
        board = said.board(seed=1, records=None)
        board.autoplay(player, pace=0)
        for _ in range(12_000):  # its worker hands each move over itself (a plain host): wait until it stopped
            if not board.state["autoplay"]["running"]:
                break
            threading.Event().wait(0.01)
    narrated = said.board(seed=1, records=None, options={**SMALL, "narrate": True})
    narrated.game.play(narrated.game.legal_moves()[0])
    narrated.game.undo()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_notice_and_rejection_is_in_the_boards_language(
    lang: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    said = Said(lang)
    rejected_moves(said)
    lessons_and_quizzes(said)
    recording(said)
    reviews(said, monkeypatch)
    indicator_and_records(said, monkeypatch, tmp_path)
    autoplay(said)
    kinds = {what for what, _ in said.texts}
    assert {"stale move", "undo", "taken over", "message", "resume offer", "reply answer"} <= kinds, kinds
    outside = [(what, text) for what, text in said.texts if not in_catalogue(text, lang)]
    assert not outside, outside


def test_a_message_shown_follows_a_change_of_language() -> None:
    board = BoardSession(stuck_game(), records=None, options=SMALL)
    board.handle_intent({"type": "review", "version": board.version})
    board.cancel_review()
    board.wait_for_background(120)
    for lang in ("nl", "sv", "en"):
        board.lang = lang
        message = board.state["message"]
        assert message is not None and in_catalogue(message["text"], lang), (lang, message)
