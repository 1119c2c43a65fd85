"""The faults a red team found in the solver's pruning and keys, the board's background work, hints and reviews
of card-form moves, text from the front end, the recorder, quizzes and budgets: one test each, at its cause.
"""

from __future__ import annotations

import json
import math
import pathlib
from typing import Any

import pytest
import traitlets

from patiencelab import Klondike, Move, PatienceError, Rules
from patiencelab.core.cards import Card
from patiencelab.core.limits import check_text
from patiencelab.hints import find_hint
from patiencelab.lessons import MAX_STEPS, InvalidLessonError, Lesson, Quiz, Step
from patiencelab.players import Chances
from patiencelab.review import Review
from patiencelab.solver import search, solve
from patiencelab.solver.movegen import generate, to_public
from patiencelab.solver.node import T2T, W2T, Node
from patiencelab.widget.board import KlondikeWidget
from patiencelab.widget.indicator import Indicator
from patiencelab.widget.teaching import MAX_NOTE, LessonRecorder
from tests.solver.positions import lost_from_the_start
from tests.solver.reference import reference_solve
from tests.solver.replay import replay_wins


def send(widget: KlondikeWidget, kind: str, **fields: Any) -> dict[str, Any] | None:
    return widget.handle_intent({"type": kind, "version": widget.version, "id": 1, **fields})


# ------------------------------------------------------------------------------ 1-3: the solver's verdicts


def test_a_foundation_card_comes_back_only_to_free_the_one_below_it() -> None:
    """Fault 1: the 10H must come back (for the 9C under the 8C on the sixth column), and for that the JD above
    it first, though no card could go on the JD: a return was dropped when nothing could go on the card itself.
    """
    position = {
        "tableau": [
            {"down": ["KS"], "up": ["QS"]},
            {"down": ["QH"], "up": ["JC"]},
            {"down": ["TC"], "up": ["KC"]},
            {"down": ["QD", "9C"], "up": ["KH"]},
            {"down": ["JS", "KD"], "up": ["JH"]},
            {"down": ["QC", "7C"], "up": ["8C"]},
        ],
        "stock": [],
        "waste": [],
        "foundations": {"C": 6, "D": 11, "H": 10, "S": 10},
    }
    game = Klondike.from_position(position, rules=Rules(face_down=(1, 1, 1, 2, 2, 2)))
    assert reference_solve(game, max_states=50_000).outcome == "solved"
    found = solve(game, seconds=math.inf, max_states=50_000)
    assert found.outcome == "solved"
    assert replay_wins(game, found.moves)


def test_a_card_buried_in_a_foundation_counts_as_one_that_could_go_on_a_talon_card() -> None:
    """Fault 2: with draw 1 and unlimited passes a talon card is put out only when a card that could go on it is
    at hand; the 3C under the 4C and 5C did not count, though it comes back once they do. The 4H from the stock
    onto the 5S is now among the moves tried (the 3S, the other card for it, lies face down).
    """
    rest = [f"{r}C" for r in "6789TJQK"] + [f"{r}H" for r in "56789TJQ"] + [f"{r}S" for r in "46789TJQK"]
    position = {
        "tableau": [{"down": [], "up": ["5S"]}, {"down": ["3S"], "up": ["KH"]}],
        "stock": ["4H", *rest],
        "waste": [],
        "foundations": {"C": 5, "D": 13, "H": 3, "S": 2},
    }
    game = Klondike.from_position(position, rules=Rules(face_down=(0, 1)))
    st = Node.of(game)
    four = st.talon.index(Card.parse("4H").index)
    assert (W2T, four, 0, 0) in generate(st)
    without_returns = Klondike.from_position(position, rules=Rules(face_down=(0, 1), foundation_to_tableau=False))
    st = Node.of(without_returns)
    assert (W2T, four, 0, 0) not in generate(st), "the 3C can never come back: nothing could go on the 4H"


def test_a_key_tells_apart_the_recycles_left_with_any_pass_limit() -> None:
    """Fault 3: recycles counted up to 255 in the key, so with 300 passes the positions with 2 and 1 recycles
    left shared a key (and one could be skipped for the other); every count that matters is kept now.
    """
    position = {
        "tableau": [{"down": [], "up": ["KS"]}, {"down": [], "up": ["KH"]}],
        "stock": [f"{r}{s}" for s in "CD" for r in "A23456789TJQK"] + ["QH", "QS"],
        "waste": [],
        "foundations": {"C": 0, "D": 0, "H": 11, "S": 11},
    }
    keys = []
    for recycles in (296, 297, 298):
        pos = {**position, "recycles": recycles}
        game = Klondike.from_position(pos, rules=Rules(max_passes=300, face_down=(0, 0)))
        keys.append(Node.of(game).key())
    assert len(set(keys)) == 3
    # With as many recycles left as talon cards, more change nothing: those keys are one.
    many = [
        Node.of(
            Klondike.from_position({**position, "recycles": r}, rules=Rules(max_passes=10_000, face_down=(0, 0)))
        ).key()
        for r in (0, 100, 9_000)
    ]
    assert len(set(many)) == 1


# ------------------------------------------------------------------------------- 4: the stock's hidden order


def _all_face_up_draw_three(stock: list[str]) -> Klondike:
    position = {
        "tableau": [{"down": [], "up": ["KC"]}, {"down": [], "up": ["KD"]}, {"down": [], "up": ["KH"]}],
        "stock": stock,
        "waste": [],
        "foundations": {"C": 12, "D": 12, "H": 12, "S": 10},
    }
    return Klondike.from_position(position, rules=Rules(draw=3, max_passes=1, face_down=(0, 0, 0)))


def test_autocomplete_tells_nothing_of_the_stocks_order() -> None:
    """Fault 4: with draw 3 and one pass, the JS QS KS stock plays out in one order and not in the other;
    the synced state and the autocomplete intent's answer were different for two boards that look the same.
    """
    orders = (["JS", "QS", "KS"], ["KS", "QS", "JS"])
    boards = [KlondikeWidget(_all_face_up_draw_three(s), records=None) for s in orders]
    states = [json.dumps({k: v for k, v in b.state.items() if k != "seconds"}, sort_keys=True) for b in boards]
    assert states[0] == states[1]
    replies = [send(board, "autocomplete") for board in boards]
    assert replies[0] == replies[1] and replies[0] is not None and replies[0]["type"] == "rejected"
    # Once the stock is drawn through, the rest is seen and decided exactly.
    game = _all_face_up_draw_three(["JS", "QS", "KS"])
    game.draw()
    assert not game.can_autocomplete  # the KS on top of the QS and JS, one pass: it cannot play out
    game = _all_face_up_draw_three(["KS", "QS", "JS"])
    game.draw()
    assert game.can_autocomplete  # the JS on top, then the QS under it, then the KS
    game.autocomplete()
    assert game.is_won


# --------------------------------------------------------------------------------- 5: background tokens


def test_background_work_is_tied_to_a_serial_number_not_an_id() -> None:
    """Fault 5: ``id(game)`` is reused after two new games, so a review of game A could be shown for game C; the
    token now carries a serial number that grows with every game, lesson and recording shown.
    """
    board = KlondikeWidget(seed=1, records=None)
    tokens = [board.session._token()]
    for _ in range(6):
        send(board, "new")
        tokens.append(board.session._token())
    serials = [t[0] for t in tokens]
    assert serials == sorted(set(serials))
    assert all(id(board.game) not in token for token in tokens)
    board.start_recording()
    assert board.session._token()[0] > serials[-1]


# ------------------------------------------------------------------------------- 6: card-form moves


def _partial_run_position() -> Klondike:
    position = {
        "tableau": [{"down": ["7H"], "up": ["9S", "8H"]}, {"down": [], "up": []}, {"down": [], "up": ["KH"]}],
        "stock": ["9H", "TH", "JH", "QH", "TS", "JS", "QS", "KS"],
        "waste": [],
        "foundations": {"C": 13, "D": 13, "H": 6, "S": 8},
    }
    return Klondike.from_position(position, rules=Rules(empty_column="any", face_down=(1, 0, 0)))


def test_the_solver_names_a_partial_run_to_an_empty_column_as_the_game_does() -> None:
    """Fault 6, at its cause: the solver wrote such a move with no source (``8H-t2``), a form that is not among
    the game's legal moves, so hints asserted and reviews could not become lessons.
    """
    game = _partial_run_position()
    st = Node.of(game)
    moves = to_public(st, (T2T, 0, 1, 1))
    assert moves == [Move("t1", "t2", Card.parse("8H"))]
    assert moves[0] in game.legal_moves()


def test_a_hint_and_a_review_lesson_take_a_card_form_winning_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint whose winning line starts with a card-form move (as a solver may write it) is resolved by the game;
    a review whose better move is one becomes a lesson with its arrow.
    """
    game = _partial_run_position()
    card_form = Move(None, "t2", Card.parse("8H"))
    real = search.solve

    def first_move_card_form(source: Any, *args: Any, **kwargs: Any) -> search.Solution:
        found = real(source, *args, **kwargs)
        if source is game and found.outcome == "solved":
            return search.Solution("solved", (card_form, *found.moves[1:]), found.states)
        return found

    monkeypatch.setattr(search, "solve", first_move_card_form)
    hint = find_hint(game, max_states=5_000)
    assert hint is not None and game.can_play(hint.move)
    better = game.parse_move(card_form)
    chances = (Chances(1.0, 1.0, 1.0, 1, 0, 0, True),)
    words = "Better: 8H to t2."
    review = Review("lost", 0, ((0, "solved"),), None, None, better, (better,), 1, words, chances, second_opinion=words)
    lesson = review.lesson(game, title="Review")
    assert lesson.intro == "Better: 8H to t2."


# ------------------------------------------------------------------------------- 7: a review of no moves


def test_a_review_of_a_game_lost_before_its_first_move_says_never_winnable() -> None:
    """Fault 7: with no moves and a deal already lost, the review indexed the move before the first."""
    game = lost_from_the_start()
    found = game.review(max_states=10_000, samples=4, sample_states=300)
    assert found.outcome == "never-winnable" and found.moves == 0 and found.text


# ------------------------------------------------------------------------------ 8-9: text and the recorder


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


def test_lesson_text_must_be_valid_unicode() -> None:
    game = Klondike(seed=1)
    with pytest.raises(InvalidLessonError):
        Lesson(title="\ud800", steps=(), deal=game.deal)
    with pytest.raises(InvalidLessonError):
        Lesson(title="t", steps=(Step(Move.parse("d"), note={"nl": "\udc00"}),), deal=game.deal)


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


# ---------------------------------------------------------------------------------- 10: a quiz taken over


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


# ------------------------------------------------------------------------------------- 11: budgets


BAD_BUDGETS: list[dict[str, Any]] = [
    {"max_states": True},
    {"max_states": 0},
    {"max_states": 2.5},
    {"seconds": "10"},
    {"seconds": None},
    {"seconds": float("nan")},
    {"seconds": 0},
    {"seconds": False},
]


@pytest.mark.parametrize("budget", BAD_BUDGETS, ids=lambda b: repr(b))
def test_every_public_budget_is_checked_alike(budget: dict[str, Any]) -> None:
    """Fault 11: ``review()`` checked ``max_states`` but not ``seconds`` (a string escaped as ``TypeError``), and
    ``max_states=True`` was taken as 1. Every budget argument gives a ``PatienceError`` and changes nothing.
    """
    game = Klondike(seed=2)
    game.play(game.legal_moves()[0])
    before = game.record()
    with pytest.raises(PatienceError):
        game.review(**budget)
    with pytest.raises(PatienceError):
        game.solve(**budget)
    with pytest.raises(PatienceError):
        game.hint(**budget)
    with pytest.raises(PatienceError):
        game.is_winnable(**budget)
    with pytest.raises(PatienceError):
        solve(game, **budget)
    with pytest.raises(PatienceError):
        Indicator(lambda *a: None).follow(game, True, **budget)
    if "max_states" in budget:
        lesson = Lesson.builtin("quiz")
        with pytest.raises(PatienceError):
            lesson.judge(1, "d", max_states=budget["max_states"])
    assert game.record() == before


@pytest.mark.parametrize("name", ["hint_max_states", "quiz_max_states", "review_max_states", "indicator_max_states"])
def test_the_boards_budgets_refuse_a_bool(name: str) -> None:
    board = KlondikeWidget(seed=2, records=None)
    with pytest.raises((PatienceError, traitlets.TraitError)):
        setattr(board, name, True)
    with pytest.raises((PatienceError, traitlets.TraitError)):
        board.hint_seconds = -1.0
