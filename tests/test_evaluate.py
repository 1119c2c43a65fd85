"""Measuring players: the same rows in this process, on a local pool, on any executor and on Dask; the summary,
the comparison table and plot; fresh players per game; and the arguments checked.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from patiencelab import Klondike, Move, PatienceError, Rules
from patiencelab.core.view import PlayerView
from patiencelab.players import (
    Comparison,
    Evaluation,
    GameRow,
    Greedy,
    NoPeek,
    Oracle,
    RandomMoves,
    compare,
    evaluate,
    legal_moves,
    play_game,
    play_to_end,
)
from patiencelab.stats import wilson

from .model_helpers import NEARLY_WON

SEEDS = [0, 1, 2, 3]
MOVES = 80
RULES = Rules.preset("standard", draw=3)
# Small state budgets (never seconds) keep the rows the same on every machine and executor.
PLAYERS: dict[str, Any] = {
    "random": RandomMoves(5),
    "greedy": Greedy(),
    "nopeek": NoPeek(samples=2, max_states=100),
}


def foundation_first(view: PlayerView) -> Move:
    """A player in a few lines: a card to a foundation when one can go, else the first legal move."""
    moves = legal_moves(view)
    return next((m for m in moves if m.target == "f"), moves[0])


def stable(comparison: Comparison) -> list[tuple[str, tuple[GameRow, ...]]]:
    return [(e.name, e.rows) for e in comparison.evaluations]


@pytest.fixture(scope="module")
def reference() -> Comparison:
    return compare(PLAYERS, SEEDS, RULES, max_moves=MOVES, progress=False)


def test_the_reference_is_not_vacuous(reference: Comparison) -> None:
    assert [e.games for e in reference.evaluations] == [4, 4, 4]
    assert len({e.rows for e in reference.evaluations}) == 3, "the players play differently"
    assert all(r.moves > 0 for e in reference.evaluations for r in e.rows)
    assert all(r.cpu_seconds >= 0 for e in reference.evaluations for r in e.rows)


def test_a_local_pool_gives_the_same_rows(reference: Comparison) -> None:
    pooled = compare(PLAYERS, SEEDS, RULES, workers=2, max_moves=MOVES, progress=False)
    assert stable(pooled) == stable(reference)


def test_any_executor_gives_the_same_rows(reference: Comparison) -> None:
    with ThreadPoolExecutor(2) as pool:
        threaded = compare(PLAYERS, reversed(SEEDS), RULES, pool, max_moves=MOVES, progress=False)
    assert stable(threaded) == stable(reference)


def test_a_dask_local_cluster_gives_the_same_rows(reference: Comparison) -> None:
    distributed = pytest.importorskip("distributed")  # the dask extra, in the dev extra: this runs in CI
    with (
        distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_client = compare(PLAYERS, SEEDS, RULES, client, max_moves=MOVES, progress=False)
        greedy = evaluate(Greedy(), SEEDS, RULES, client.get_executor(), max_moves=MOVES, progress=False)
    assert stable(on_client) == stable(reference)
    assert greedy.rows == reference["greedy"].rows


class Smarter:
    """A class-based player with no repr of its own (issue 60: its name was its default repr)."""

    def choose(self, view: PlayerView) -> Move:
        return Greedy().choose(view)


def test_a_player_is_named_by_its_function_its_own_repr_or_its_class() -> None:
    assert evaluate(Smarter(), 1, max_moves=5, progress=False).name == "Smarter"
    assert evaluate(RandomMoves(3), 1, max_moves=5, progress=False).name == "RandomMoves(seed=3)"
    assert evaluate(foundation_first, 1, max_moves=5, progress=False).name == "foundation_first"
    assert evaluate(Smarter(), 1, max_moves=5, name="mine", progress=False).name == "mine"


def test_a_function_of_a_view_is_a_player_in_process_and_on_a_pool() -> None:
    here = evaluate(foundation_first, 3, max_moves=100, progress=False)
    assert here.name == "foundation_first"
    assert evaluate(foundation_first, 3, workers=2, max_moves=100, progress=False).rows == here.rows
    game = Klondike(seed=1)
    game.play_out(foundation_first, max_moves=100)
    ended = play_to_end(Klondike(seed=1), foundation_first, max_moves=100)
    assert here.rows[1] == GameRow(1, game.is_won, game.status, game.score, game.moves, 0.0, ended)
    with pytest.raises(PatienceError, match="pickle"):
        evaluate(lambda view: legal_moves(view)[0], 2, workers=2, progress=False)
    assert evaluate(lambda view: legal_moves(view)[0], 2, max_moves=20, progress=False).games == 2


def test_each_game_gets_a_fresh_player() -> None:
    both = evaluate(RandomMoves(1), [1, 2], max_moves=100, progress=False)
    alone = evaluate(RandomMoves(1), [2], max_moves=100, progress=False)
    assert both.rows[1] == alone.rows[0]
    once = evaluate(RandomMoves(1), [2, 2, 1], max_moves=100, progress=False)
    assert once.rows == both.rows, "rows by seed, a repeated seed played once"


def test_the_oracle_peeks_at_each_game_it_plays() -> None:
    result = evaluate(Oracle(max_states=500), [3], max_moves=15, progress=False)
    assert result.rows[0].moves == 15


def test_the_summary_and_the_table(reference: Comparison) -> None:
    greedy = reference["greedy"]
    assert isinstance(greedy, Evaluation) and greedy.rules == RULES
    assert greedy.win_rate == wilson(greedy.won, 4)
    assert greedy.mean_score == sum(r.score for r in greedy.rows) / 4
    assert greedy.moves_per_game == sum(r.moves for r in greedy.rows) / 4
    assert greedy.cpu_per_decision == pytest.approx(
        sum(r.cpu_seconds for r in greedy.rows) / (4 * greedy.moves_per_game)
    )
    table = str(reference)
    assert table.count("\n") == 2 + 2 and "| nopeek | standard, draw 3" in table
    assert [row["player"] for row in reference.rows()] == ["random", "greedy", "nopeek"]
    assert str(greedy).splitlines()[2].startswith("| greedy |")
    assert GameRow(1, True, "won", 1, 2, 3.0, "won").to_json()["cpu_seconds"] == 3.0
    with pytest.raises(KeyError):
        reference["nobody"]
    empty = Evaluation("none", RULES, ())
    assert (empty.mean_score, empty.moves_per_game, empty.cpu_per_decision) == (0.0, 0.0, 0.0)


def test_the_plot_shows_the_players_side_by_side(reference: Comparison) -> None:
    pytest.importorskip("matplotlib")  # the plot extra, in the dev extra
    fig = reference.plot()
    wins, scores = fig.axes
    assert [t.get_text() for t in wins.get_xticklabels()] == ["random", "greedy", "nopeek"]
    assert len(scores.patches) == 3


def test_bad_arguments_are_refused() -> None:
    bad: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
        ((5,), {}),
        ((Greedy(), -1), {}),
        ((Greedy(), ["1"]), {}),
        ((Greedy(), True), {}),
        ((Greedy(), 2, "standard"), {}),
        ((Greedy(), 2, None, object()), {}),
        ((Greedy(), 2, None, ThreadPoolExecutor(1)), {"workers": 2}),
        ((Greedy(), 2), {"workers": 0}),
        ((Greedy(), 2), {"max_moves": -1}),
    ]
    for args, kwargs in bad:
        with pytest.raises(PatienceError):
            evaluate(*args, progress=False, **kwargs)
    with pytest.raises(PatienceError):
        compare([Greedy()], 2, progress=False)  # type: ignore[arg-type]
    with pytest.raises(PatienceError):
        play_game(Greedy(), 1, '{"draw": 0}')


def drawer(view: PlayerView) -> Move:
    """A player that only turns the stock over, round and round."""
    moves = legal_moves(view)
    return next((m for m in moves if m.is_draw or m.is_recycle), moves[0])


def test_each_row_says_how_its_game_ended() -> None:
    """Issue 36: a game stopped on a repeated position or on the cap was only ``playing`` in the rows."""
    (repeated,) = evaluate(drawer, [2], max_moves=1_000, progress=False).rows
    assert (repeated.status, repeated.ended) == ("playing", "repeated")
    assert repeated.to_json()["ended"] == "repeated"
    (capped,) = evaluate(foundation_first, [2], max_moves=3, progress=False).rows
    assert (capped.status, capped.ended, capped.moves) == ("playing", "max_moves", 3)
    game = Klondike.from_position(NEARLY_WON)
    assert play_to_end(game, foundation_first) == "won" and game.is_won
    (stuck,) = evaluate(foundation_first, [5], Rules.preset("traditional"), progress=False).rows
    assert (stuck.status, stuck.ended) == ("stuck", "stuck"), "one pass through the stock, and no move left"


def test_a_python_without_a_thread_clock_measures_with_the_process_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pyodide (the Lite site) has no ``time.thread_time``: the evaluation failed there on its first move."""
    import time

    monkeypatch.delattr(time, "thread_time")
    (row,) = evaluate(Greedy(), [1], max_moves=20, progress=False).rows
    assert row.moves == 20 and row.cpu_seconds >= 0
