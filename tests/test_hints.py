"""Hints a strong player would give: card moves before draws, turning cards up first, never taking back the
previous move, with a reason in the player's language; all within state budgets.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from patiencelab import Klondike, Move, Rules
from patiencelab.core.cards import Card
from patiencelab.core.narration import hint_text
from patiencelab.hints import DEFAULT_MAX_STATES, candidates, find_hint
from patiencelab.players import Chances
from patiencelab.review import Review
from patiencelab.solver import search, solve
from tests.solver.positions import partial_run_position

#: The state budget of every solver call in these tests (smaller than the default to keep them quick).
BUDGET = 3_000


def keeps_a_win(game: Klondike, move: object, budget: int = BUDGET) -> bool:
    trial = game.copy()
    trial.play(move)  # type: ignore[arg-type]
    return solve(trial, seconds=math.inf, max_states=budget).outcome == "solved"


@pytest.mark.parametrize("draw", [1, 3])
def test_no_draw_is_hinted_where_a_card_move_keeps_the_game_winnable(draw: int) -> None:
    draws = 0
    for seed in range(100):
        game = Klondike(seed=seed, rules=Rules(draw=draw))
        hint = find_hint(game, max_states=BUDGET)
        assert hint is not None and game.can_play(hint.move)
        if hint.move.is_draw:
            draws += 1
            card_moves = [m for m in game.legal_moves() if not (m.is_draw or m.is_recycle)]
            assert not any(keeps_a_win(game, m) for m in card_moves), f"seed {seed}: a card move keeps a win"
        if hint.winnable:
            assert keeps_a_win(game, hint.move), f"seed {seed}: {hint.move} was said to keep a win"
    assert draws < 100


def test_a_hint_that_turns_a_card_up_comes_first() -> None:
    # seed 0 (draw 1): the solver's own line starts with a draw, but the 10♥ onto the J♣ turns a card up and
    # keeps the game winnable
    game = Klondike(seed=0)
    hint = find_hint(game, max_states=DEFAULT_MAX_STATES)
    assert hint is not None
    assert keeps_a_win(game, hint.move, DEFAULT_MAX_STATES)
    assert str(hint.move) == "t3-t6" and hint.reason == "turn-up" and hint.column == 3 and hint.winnable
    assert hint_text(game, hint) == "Move the 10♥ onto the J♣: it turns over a card in column 3."
    game.lang = "nl"
    assert hint_text(game, hint) == "Leg de 10♥ op de B♣: zo draai je een kaart om in kolom 3."
    game.lang = "sv"
    assert hint_text(game, hint) == "Flytta 10♥ till Kn♣: då vänds ett kort upp i kolumn 3."


def test_hints_never_take_back_the_previous_move_and_are_the_same_every_time() -> None:
    for seed in range(6):
        game = Klondike(seed=seed, rules=Rules(draw=3))
        for _ in range(10):
            hint = find_hint(game, max_states=2_000)
            if hint is None:
                break
            assert hint == find_hint(game, max_states=2_000), "a state budget gives the same hint every time"
            last = game.history[-1] if game.history else None
            if last is not None and last.source and last.target and hint.move.source and hint.move.target:
                assert (hint.move.source, hint.move.target) != (last.target, last.source)
            game.play(hint.move)


def test_candidates_follow_the_documented_order() -> None:
    game = Klondike(seed=0)
    order = [str(m) for m in candidates(game)]
    assert order[-1] == "d"
    assert order.index("t3-t6") < order.index("d")
    # a move that turns a card up comes before one that does not
    for seed in range(20):
        g = Klondike(seed=seed)
        ranks = [0 if g.moving_cards(m) and _turns(g, m) else 1 for m in candidates(g) if not m.is_draw]
        assert ranks == sorted(ranks)


def _turns(game: Klondike, move: object) -> bool:
    after = game.copy()
    after.play(move)  # type: ignore[arg-type]
    return sum(len(c.down) for c in after.tableau) < sum(len(c.down) for c in game.tableau)


def test_only_a_draw_left_says_so() -> None:
    for seed in range(200):
        game = Klondike(seed=seed)
        if all(m.is_draw for m in game.legal_moves()):
            hint = find_hint(game, max_states=BUDGET)
            assert hint is not None and hint.reason == "no-card-move"
            assert hint_text(game, hint) == "Draw from the stock: no card can move."
            return
    pytest.fail("no deal among 200 starts with only a draw")


def test_a_hint_and_a_review_lesson_take_a_card_form_winning_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint whose winning line starts with a card-form move (as a solver may write it) is resolved by the game;
    a review whose better move is one becomes a lesson with its arrow.
    """
    game = partial_run_position()
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
