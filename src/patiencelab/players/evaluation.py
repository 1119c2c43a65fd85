"""Measuring players: :func:`evaluate` a player on seeded deals (in this process, on a local pool or on Dask),
:func:`compare` several, and their rows, tables and plots, with Wilson 95% intervals.
"""

from __future__ import annotations

import copy
import json
import math
import pickle
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from patiencelab.core.errors import ArgumentTypeError, PatienceError, quote
from patiencelab.core.game import Klondike
from patiencelab.core.limits import (
    check_instance,
    check_seed,
    check_text,
    check_whole,
    load_json,
)
from patiencelab.core.moves import Move
from patiencelab.core.rules import Rules, rules_label
from patiencelab.core.view import PlayerView
from patiencelab.players.playing import Ended, as_choose, play_to_end
from patiencelab.players.strategies import Player
from patiencelab.stats import Interval, share_text, wilson
from patiencelab.workers import has_processes, process_pool, progress_bar, run_jobs, stop_pool

if TYPE_CHECKING:
    from matplotlib.figure import Figure


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game of an evaluation: the deal's ``seed``, whether it was ``won``, the game's ``status`` at the end
    (won, stuck, or playing when :func:`~patiencelab.players.playing.play_out` stopped it), the final ``score``,
    the ``moves`` played, the CPU seconds the player took to choose them (``cpu_seconds``, left out of
    comparisons: it differs run to run),
    and how the game ended (``ended``: ``won``, ``stuck``, ``repeated`` for a position seen a third time, or
    ``max_moves``; see :func:`play_to_end`).
    """

    seed: int
    won: bool
    status: str
    score: int
    moves: int
    cpu_seconds: float = field(compare=False)
    ended: Ended

    def to_json(self) -> dict[str, Any]:
        """The row as a JSON-ready dict."""
        return {
            "seed": self.seed,
            "won": self.won,
            "status": self.status,
            "score": self.score,
            "moves": self.moves,
            "cpu_seconds": self.cpu_seconds,
            "ended": self.ended,
        }


def play_game(
    player: Player | Callable[[PlayerView], Move], seed: int, rules_json: str, max_moves: int = 1_000
) -> GameRow:
    """Let a fresh copy of ``player`` play the deal of ``seed`` under the rules in ``rules_json`` with
    :func:`~patiencelab.players.playing.play_out` (the job that executors run for :func:`evaluate`). The
    player's CPU time is measured per thread, so games that share a process in threads do not count each other's
    time.
    """
    rules = Rules.from_json(load_json(check_instance(rules_json, "rules_json", str), "rules_json"))
    game = Klondike(seed=seed, rules=rules)
    choose = as_choose(copy.deepcopy(player), game)
    spent = 0.0
    # a browser's Python (Pyodide) has no thread clock, and one thread: there the process's clock is the same
    clock = getattr(time, "thread_time", time.process_time)

    def timed(view: PlayerView) -> Move:
        nonlocal spent
        start = clock()
        try:
            return choose(view)
        finally:
            spent += clock() - start

    ended = play_to_end(game, timed, max_moves=max_moves)
    return GameRow(seed, game.is_won, game.status, game.score, game.moves, spent, ended)


def _name(player: object) -> str:
    """``player``'s name in tables: a function's name, a player's ``repr`` when its class writes one
    (``NoPeek(samples=16, ...)``), else its class's name (``Smarter``, not ``<__main__.Smarter object at 0x...>``).
    """
    name = None if isinstance(player, Player) else getattr(player, "__name__", None)
    if isinstance(name, str):
        return name
    return repr(player) if type(player).__repr__ is not object.__repr__ else type(player).__name__


@dataclass(frozen=True, slots=True)
class Evaluation:
    """How a player did: its ``name``, the ``rules``, one :class:`GameRow` per deal (by seed), and the summary
    properties (:attr:`win_rate` with its 95% Wilson interval, :attr:`mean_score`, :attr:`moves_per_game`,
    :attr:`cpu_per_decision`).
    """

    name: str
    rules: Rules
    rows: tuple[GameRow, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "rows", tuple(sorted(self.rows, key=lambda r: r.seed)))

    @property
    def games(self) -> int:
        """The number of games played."""
        return len(self.rows)

    @property
    def won(self) -> int:
        """The number of games won."""
        return sum(r.won for r in self.rows)

    @property
    def win_rate(self) -> Interval:
        """The share of games won, with its 95% Wilson interval."""
        return wilson(self.won, self.games)

    @property
    def mean_score(self) -> float:
        """The mean final score (0 for no games)."""
        return sum(r.score for r in self.rows) / self.games if self.rows else 0.0

    @property
    def moves_per_game(self) -> float:
        """The mean number of moves played in a game (0 for no games)."""
        return sum(r.moves for r in self.rows) / self.games if self.rows else 0.0

    @property
    def cpu_per_decision(self) -> float:
        """The player's CPU seconds per move chosen, over every game (0 when it chose none)."""
        decisions = sum(r.moves for r in self.rows)
        return math.fsum(r.cpu_seconds for r in self.rows) / decisions if decisions else 0.0

    def to_markdown(self) -> str:
        """The evaluation as a one-line markdown table (see :meth:`Comparison.to_markdown`)."""
        return Comparison((self,)).to_markdown()

    def __str__(self) -> str:
        return self.to_markdown()


_HEADER = (
    "| player | rules | games | won | win rate (95%) | mean score | moves per game | CPU per decision |",
    "|---|---|---:|---:|---|---:|---:|---:|",
)


@dataclass(frozen=True, slots=True)
class Comparison:
    """Several evaluations, side by side: a markdown table (:meth:`to_markdown`, also ``str()``) and a plot."""

    evaluations: tuple[Evaluation, ...]

    def __getitem__(self, name: str) -> Evaluation:
        """The evaluation of the player named ``name``."""
        for evaluation in self.evaluations:
            if evaluation.name == name:
                return evaluation
        raise KeyError(name)

    def rows(self) -> list[dict[str, Any]]:
        """One plain dict per player: name, rules, games, won, win rate and its interval, mean score, moves per
        game and CPU seconds per decision.
        """
        out = []
        for e in self.evaluations:
            rate = e.win_rate
            out.append(
                {
                    "player": e.name,
                    "rules": rules_label(e.rules),
                    "games": e.games,
                    "won": e.won,
                    "win_rate": rate.share,
                    "low": rate.low,
                    "high": rate.high,
                    "mean_score": e.mean_score,
                    "moves_per_game": e.moves_per_game,
                    "cpu_per_decision": e.cpu_per_decision,
                }
            )
        return out

    def to_markdown(self) -> str:
        """A markdown table with a line per player."""
        lines = list(_HEADER)
        for row in self.rows():
            lines.append(
                f"| {row['player']} | {row['rules']} | {row['games']} | {row['won']} "
                f"| {share_text(row['win_rate'], row['low'], row['high'])} "
                f"| {row['mean_score']:.1f} | {row['moves_per_game']:.1f} | {1000 * row['cpu_per_decision']:.2f} ms |"
            )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_markdown()

    def plot(self) -> Figure:
        """The players side by side (see :func:`plot`)."""
        return plot(self.evaluations)


def plot(evaluations: Iterable[Evaluation]) -> Figure:
    """A figure of several players side by side: win rates with their 95% intervals, and mean scores.
    Needs matplotlib (the ``plot`` extra).
    """
    shown = list(evaluations) if isinstance(evaluations, Iterable) else None
    if shown is None or not all(isinstance(e, Evaluation) for e in shown):
        raise ArgumentTypeError(f"evaluations must be Evaluation values, not {quote(evaluations)}")
    from matplotlib.figure import Figure

    names = [e.name for e in shown]
    rates = [e.win_rate for e in shown]
    fig = Figure(figsize=(max(6.0, 1.6 * len(shown) + 3), 3.5), layout="constrained")
    wins, scores = fig.subplots(1, 2)
    heights = [100 * r.share for r in rates]
    errors = [[100 * (r.share - r.low) for r in rates], [100 * (r.high - r.share) for r in rates]]
    wins.bar(names, heights, yerr=errors, capsize=4, color="tab:green")
    wins.set_ylabel("games won (%, 95% interval)")
    wins.set_ylim(0, 100)
    wins.set_title(", ".join(sorted({rules_label(e.rules) for e in shown})) or "no players")
    scores.bar(names, [e.mean_score for e in shown], color="tab:blue")
    scores.set_ylabel("mean score")
    scores.set_title(f"{max((e.games for e in shown), default=0)} deals")
    for axes in (wins, scores):
        axes.tick_params(axis="x", labelrotation=20)
    return fig


def _seed_list(deals: int | Iterable[int]) -> list[int]:
    if isinstance(deals, int) and not isinstance(deals, bool):
        return list(range(check_whole(deals, "deals", low=0)))
    if not isinstance(deals, Iterable) or isinstance(deals, (str, bytes)):
        raise ArgumentTypeError(f"deals must be a number of deals or an iterable of seeds, not {quote(deals)}")
    return [check_seed(seed) for seed in dict.fromkeys(deals)]


def _executor_of(executor: object) -> Executor | None:
    """An executor as it is, a Dask ``Client`` turned into its executor, ``None`` as it is."""
    if executor is None or isinstance(executor, Executor):
        return executor
    get = getattr(executor, "get_executor", None)
    if callable(get):
        made = get()
        if isinstance(made, Executor):
            return made
    raise PatienceError(f"executor must be a concurrent.futures.Executor or a Dask Client, not {executor!r}")


def evaluate(
    player: Player | Callable[[PlayerView], Move],
    deals: int | Iterable[int] = 100,
    rules: Rules | None = None,
    executor: Executor | Any = None,
    *,
    workers: int = 1,
    max_moves: int = 1_000,
    name: str | None = None,
    progress: bool = True,
) -> Evaluation:
    """Let ``player`` (a :class:`Player` or any function of a view) play seeded deals and measure it.

    - ``deals``: seeds, or a number N for seeds 0 to N-1 (a repeated seed is played once);
    - ``rules``: the :class:`Rules` (default: standard, draw 1);
    - ``executor``: any :class:`concurrent.futures.Executor` or a Dask ``Client``; without one, the games are
      played in this process (``workers=1``, the default) or on a local pool of ``workers`` processes;
    - ``max_moves``: the moves after which a game is given up (see
      :func:`~patiencelab.players.playing.play_out`), ``name`` the player's name in tables (default: a function's
      name, the ``repr`` its class writes, else its class's name), ``progress`` a progress bar (tqdm).

    Each game gets a fresh copy of the player as it was given, so the rows do not depend on which games a
    worker played before: they are the same (timings apart) in this process, on a pool and on Dask. A player
    sent to a process pool must be picklable (a class or a function of a module, not a lambda); Dask pickles
    lambdas too.
    """
    rules = check_instance(Rules() if rules is None else rules, "rules", Rules)
    as_choose(player)  # says what is wrong with one that is not a player
    check_whole(workers, "workers", low=1)
    check_whole(max_moves, "max_moves", low=0)
    pool_of = _executor_of(executor)
    if pool_of is not None and workers != 1:
        raise PatienceError("give an executor or a number of workers, not both")
    if not has_processes():
        workers = 1
    seeds = _seed_list(deals)
    label = check_text(name, 200, "name", ArgumentTypeError) if name is not None else _name(player)
    rules_json = json.dumps(rules.to_json(), sort_keys=True)
    rows: list[GameRow] = []
    bar = progress_bar(total=len(seeds), disable=not progress, unit="game", desc=label[:30], smoothing=0.05)

    def keep(row: GameRow) -> None:
        rows.append(row)
        bar.update(1)

    try:
        if pool_of is None and workers == 1:
            for seed in seeds:
                keep(play_game(player, seed, rules_json, max_moves))
        elif pool_of is None:
            try:
                pickle.dumps(player)
            except Exception:
                raise PatienceError(
                    f"{label} cannot be sent to worker processes (it does not pickle): use a class or a function "
                    "defined in a module, or workers=1"
                ) from None
            pool = process_pool(workers)
            try:
                run_jobs(pool, play_game, ((player, s, rules_json, max_moves) for s in seeds), keep, 2 * workers)
            except BaseException:
                stop_pool(pool)
                raise
            pool.shutdown()
        else:
            run_jobs(pool_of, play_game, ((player, s, rules_json, max_moves) for s in seeds), keep)
    finally:
        bar.close()
    return Evaluation(label, rules, tuple(rows))


def compare(
    players: Mapping[str, Player | Callable[[PlayerView], Move]],
    deals: int | Iterable[int] = 100,
    rules: Rules | None = None,
    executor: Executor | Any = None,
    *,
    workers: int = 1,
    max_moves: int = 1_000,
    progress: bool = True,
) -> Comparison:
    """:func:`evaluate` each of ``players`` (by name) on the same deals; the :class:`Comparison` of them."""
    if not isinstance(players, Mapping):
        raise PatienceError("players must be a dict of names to players")
    seeds = _seed_list(deals)
    return Comparison(
        tuple(
            evaluate(
                player,
                seeds,
                rules,
                executor,
                workers=workers,
                max_moves=max_moves,
                name=str(label),
                progress=progress,
            )
            for label, player in players.items()
        )
    )


__all__ = ["Comparison", "Evaluation", "GameRow", "compare", "evaluate", "play_game", "plot"]
