"""Game review: the losing move found by binary search over the history, with few solver calls (state budgets)."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

import patiencelab.review as review_module
from patiencelab import Klondike, Move, PatienceError
from patiencelab.review import review
from patiencelab.solver import solve

BUDGET = 20_000


def random_game(seed: int, moves: int = 400) -> Klondike:
    """A game of random play: half the time a random card move when there is one, else any legal move."""
    rng = random.Random(seed)
    game = Klondike(seed=seed)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal or game.status != "playing":
            break
        cards = [m for m in legal if not (m.is_draw or m.is_recycle)]
        game.play(rng.choice(cards) if cards and rng.random() < 0.5 else rng.choice(legal))
    return game


def replays_to_a_win(game: Klondike, moves: int, line: tuple[Move, ...]) -> bool:
    replay = Klondike.from_record({**game.record(), "moves": [str(m) for m in game.history[:moves]]})
    for move in line:
        replay.play(move)
    return replay.is_won


def test_fifty_random_games_are_reviewed_with_at_most_log2_moves_plus_two_solver_calls(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = Counter[int]()
    solve_once = review_module.solve  # type: ignore[attr-defined] # the name the review calls

    def counted(*args: object, **kwargs: object) -> object:
        calls[seed] += 1
        return solve_once(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(review_module, "solve", counted)
    outcomes = Counter[str]()
    for seed in range(50):
        game = random_game(seed)
        found = review(game, max_states=BUDGET)
        outcomes[found.outcome] += 1
        assert calls[seed] == found.calls <= math.ceil(math.log2(max(game.moves, 1))) + 2
        verdicts = dict(found.verdicts)
        if found.outcome == "lost":
            assert found.losing is not None and found.losing_move == game.history[found.losing - 1]
            assert verdicts[found.losing] == "impossible" and verdicts[found.losing - 1] == "solved"
            assert found.better == found.line[0] and replays_to_a_win(game, found.losing - 1, found.line)
            assert "could no longer be won" in found.text and f"(move {found.losing})" in found.text
        elif found.outcome == "never-winnable":
            assert verdicts[0] == "impossible"
        elif found.outcome == "winnable":
            assert verdicts == {game.moves: "solved"}
        else:
            assert found.outcome == "unknown" and "unknown" in verdicts.values()
    assert outcomes["lost"] >= 10, outcomes  # random play loses most deals it does not leave winnable


def test_a_lost_game_is_explained_in_the_players_language() -> None:
    game = random_game(13)
    game.lang = "nl"
    found = game.review(max_states=BUDGET)
    assert found.outcome == "lost" and found.losing is not None
    assert f"(zet {found.losing}), was dit spel niet meer te winnen." in found.text
    assert found.text.split(". ")[1].startswith("Beter: ")


def test_a_won_game_and_a_game_still_winnable_need_at_most_one_call() -> None:
    game = Klondike(seed=1)
    assert game.review(max_states=BUDGET).outcome == "winnable"
    solution = solve(game, max_states=200_000, seconds=math.inf)
    for move in solution.moves:
        game.play(move)
    found = game.review(max_states=BUDGET)
    assert found.outcome == "won" and found.calls == 0 and found.text == "The game was won: no move lost it."


def test_the_review_changes_nothing_and_checks_its_budget() -> None:
    game = random_game(13)
    before = game.record()
    game.review(max_states=BUDGET)
    assert game.record() == before
    with pytest.raises(PatienceError, match="max_states"):
        game.review(max_states=0)


PEEKS = {
    "en": "(This is a second opinion from the solver, which knows the face-down cards.)",
    "nl": "(Dit is een tweede mening van de oplosser, die de gesloten kaarten kent.)",
    "sv": "(Det här är en andra åsikt från lösaren, som ser de nedvända korten.)",
}


@pytest.mark.parametrize("lang", sorted(PEEKS))
def test_every_verdict_of_the_solver_says_that_it_knows_the_face_down_cards(lang: str) -> None:
    from .solver.positions import lost_from_the_start

    lost = random_game(13)
    still_winnable = Klondike(seed=1)
    undecided = Klondike(seed=3)  # not decided within one position
    never = lost_from_the_start()
    outcomes = set()
    for game, budget in ((lost, BUDGET), (still_winnable, BUDGET), (undecided, 1), (never, 10_000)):
        game.lang = lang
        found = game.review(max_states=budget)
        outcomes.add(found.outcome)
        assert found.text.endswith(" " + PEEKS[lang]), found.text
        assert found.text.count(PEEKS[lang]) == 1
    assert outcomes == {"lost", "winnable", "unknown", "never-winnable"}
    won = Klondike(seed=1)
    for move in solve(won, max_states=200_000, seconds=math.inf).moves:
        won.play(move)
    won.lang = lang
    found = won.review(max_states=BUDGET)
    assert found.outcome == "won" and PEEKS[lang] not in found.text  # a won game needs no second opinion
