"""Players: win rate (Wilson 95%), mean score and CPU per decision of each player on seeded deals.

Each player (``random``, ``greedy``, ``nopeek`` at its default budget, ``oracle``, which peeks) plays seeds
``start .. start+N-1`` under the standard rules, draw 1 and draw 3, on a local process pool (``--workers``) or a
Dask cluster (``--dask tcp://host:8786``), with a progress bar. Every game goes to a JSON-lines file as it
finishes (``--out``); ``--resume`` plays only the games the file lacks, and ``--report`` prints the table of a
file without playing. CPU per decision is the process time of ``player.choose``.

``--knob name=value`` sets a NoPeek keyword (``--knob samples=24``). ``ismcts`` is the information-set search
player (:class:`~patiencelab.players.TreeSearch`); ``--tree-knob name=value`` sets one of its keywords
(``--tree-knob iterations=64``). With two players on the same deals the table is followed by the deals each won
alone.

Run: ``python benchmarks/bench_players.py --deals 1000 --workers 2 --out build/players.jsonl`` (the issue's run;
``make bench`` plays a short one); ``--hints 5`` times the board's fair hint instead (CPU per hint on positions
along greedy games).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from pathlib import Path
from typing import Any

from tqdm import tqdm  # type: ignore[import-untyped, unused-ignore]

from patiencelab.core.game import Klondike
from patiencelab.core.moves import Move
from patiencelab.core.rules import Rules
from patiencelab.core.view import PlayerView
from patiencelab.players import Greedy, NoPeek, Oracle, Player, RandomMoves, TreeSearch
from patiencelab.stats import wilson
from patiencelab.workers import process_pool, stop_pool

PLAYERS = ("random", "greedy", "nopeek", "ismcts", "oracle")
#: The published figures the table is set against (standard rules, unlimited passes; see docs/players.md).
ANCHORS = {
    ("random", 3): "7.1% (Bjarnason et al. 2009)",
    ("greedy", 3): "13.0% (Bjarnason et al. 2009)",
    ("nopeek", 3): "HOP 23-27%, Ensemble-UCT 36.97% (2009); MCTS 44.4% (2025); lonelybot 47.58%",
    ("nopeek", 1): "MCTS 63.2% (2025)",
    ("ismcts", 3): "MCTS 44.4% (2025); lonelybot 47.58%",
    ("ismcts", 1): "MCTS 63.2% (2025)",
    ("oracle", 3): "thoughtful upper bound 81.945% (Blake & Gent)",
    ("oracle", 1): "thoughtful upper bound 90.480% (Blake & Gent)",
}


#: NoPeek's knobs for this run (``--knob name=value``), its defaults otherwise.
KNOBS: dict[str, Any] = {}
#: TreeSearch's knobs for this run (``--tree-knob name=value``), its defaults otherwise.
TREE_KNOBS: dict[str, Any] = {}


def make_player(name: str, seed: int) -> Player:
    """A fresh player by name (``random`` is seeded by the deal's seed)."""
    if name == "random":
        return RandomMoves(seed)
    if name == "greedy":
        return Greedy()
    if name == "nopeek":
        return NoPeek(seed=seed, **KNOBS)
    if name == "ismcts":
        return TreeSearch(seed=seed, **TREE_KNOBS)
    if name == "oracle":
        return Oracle()
    raise SystemExit(f"unknown player {name!r}; choose from {', '.join(PLAYERS)}")


def play_game(
    name: str,
    draw: int,
    seed: int,
    max_moves: int,
    knobs: dict[str, Any] | None = None,
    tree_knobs: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One game (runs in a worker): who, which deal, won or not, score, moves and CPU seconds per decision."""
    KNOBS.clear()
    KNOBS.update(knobs or {})
    TREE_KNOBS.clear()
    TREE_KNOBS.update(tree_knobs or {})
    game = Klondike(seed=seed, rules=Rules(draw=draw))
    player = make_player(name, seed)
    if isinstance(player, Oracle):
        player = player.seeing(game)
    times: list[float] = []

    def timed(view: PlayerView) -> Move:
        t0 = time.process_time()
        move = player.choose(view)
        times.append(time.process_time() - t0)
        return move

    game.play_out(timed, max_moves=max_moves)
    return {
        "player": name,
        "draw": draw,
        "seed": seed,
        "won": game.is_won,
        "score": game.score,
        "moves": game.moves,
        "cpu": [round(t, 5) for t in times],
    }


def _read(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _jobs(args: argparse.Namespace, done: set[tuple[str, int, int]]) -> Iterator[tuple[str, int, int]]:
    # Seed by seed, every player and draw, so a run cut short leaves comparable counts for each.
    for seed in range(args.start, args.start + args.deals):
        for draw in args.draw:
            for name in args.players:
                if (name, draw, seed) not in done:
                    yield name, draw, seed


def _run(args: argparse.Namespace, executor: Executor, path: Path) -> None:
    done = {(r["player"], r["draw"], r["seed"]) for r in _read(path)}
    jobs = list(_jobs(args, done))
    pending: set[Future[dict[str, Any]]] = set()
    window = max(2, 2 * (args.workers or 1))
    todo = iter(jobs)
    with path.open("a") as out, tqdm(total=len(jobs), unit="game", desc="players") as bar:
        while True:
            for job in todo:
                pending.add(executor.submit(play_game, *job, args.max_moves, args.knobs, args.tree_knobs))
                if len(pending) >= window:
                    break
            if not pending:
                return
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                out.write(json.dumps(future.result()) + "\n")
                out.flush()
                bar.update()


def _percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def table(rows: list[dict[str, Any]]) -> str:
    """The markdown table of a run: one line per player and draw."""
    lines = [
        "| player | draw | games | won | win rate (95%) | mean score | CPU per decision: median / p95 "
        "| CPU per game: mean / max | anchor |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name in PLAYERS:
        for draw in (1, 3):
            games = [r for r in rows if r["player"] == name and r["draw"] == draw]
            if not games:
                continue
            won = sum(r["won"] for r in games)
            interval = wilson(won, len(games))
            cpu = sorted(t for r in games for t in r["cpu"])
            median = statistics.median(cpu) if cpu else math.nan
            p95 = cpu[min(len(cpu) - 1, int(0.95 * len(cpu)))] if cpu else math.nan
            score = statistics.mean(r["score"] for r in games)
            per_game = [math.fsum(r["cpu"]) for r in games]
            lines.append(
                f"| {name} | {draw} | {len(games)} | {won} | {_percent(interval.share)} "
                f"({_percent(interval.low)}-{_percent(interval.high)}) | {score:.0f} | "
                f"{median * 1000:.1f} ms / {p95 * 1000:.1f} ms | {statistics.mean(per_game):.2f} s / "
                f"{max(per_game):.2f} s | {ANCHORS.get((name, draw), '')} |"
            )
    return "\n".join(lines + paired(rows))


def paired(rows: list[dict[str, Any]]) -> list[str]:
    """For each draw and each two players that played the same deals: the deals each won and the other lost."""
    lines = []
    for draw in (1, 3):
        won = {
            name: {r["seed"]: r["won"] for r in rows if r["player"] == name and r["draw"] == draw} for name in PLAYERS
        }
        names = [name for name in PLAYERS if won[name]]
        for i, one in enumerate(names):
            for two in names[i + 1 :]:
                both = sorted(set(won[one]) & set(won[two]))
                only_one = sum(won[one][s] and not won[two][s] for s in both)
                only_two = sum(won[two][s] and not won[one][s] for s in both)
                lines.append(
                    f"draw {draw}, {len(both)} deals both played: {one} {sum(won[one][s] for s in both)} won "
                    f"({only_one} alone), {two} {sum(won[two][s] for s in both)} won ({only_two} alone)"
                )
    return ["", *lines] if lines else []


def hint_times(deals: int) -> str:
    """CPU seconds of the board's fair hint (default budget) on positions along greedy games: a line of text."""
    from patiencelab.hints import find_fair_hint

    times = []
    for seed in range(deals):
        for draw in (1, 3):
            game = Klondike(seed=seed, rules=Rules(draw=draw))
            greedy = Greedy()
            for moves in range(40):
                if game.is_won or not game.legal_moves():
                    break
                if moves % 10 == 0:
                    t0 = time.process_time()
                    find_fair_hint(game)
                    times.append(time.process_time() - t0)
                game.play(greedy.choose(game.player_view()))
    times.sort()
    median, p95 = statistics.median(times), times[min(len(times) - 1, int(0.95 * len(times)))]
    where = f"fair hint (16 samples x 2,000 positions): {len(times)} positions"
    return f"{where}, CPU median {median:.2f} s, p95 {p95:.2f} s"


def main(argv: list[str] | None = None) -> int:
    """Play the games (or read a file with ``--report``) and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=1_000, help="seeds per player and draw (default 1,000)")
    parser.add_argument("--start", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--draw", type=int, nargs="+", default=[1, 3], choices=(1, 3))
    parser.add_argument("--players", nargs="+", default=list(PLAYERS), choices=PLAYERS)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="local processes")
    parser.add_argument("--dask", metavar="ADDRESS", help="a Dask scheduler to run the games on instead")
    parser.add_argument("--max-moves", type=int, default=1_000, help="moves before a game is given up")
    parser.add_argument("--out", default="build/players.jsonl", help="JSON-lines file of the games")
    parser.add_argument("--resume", action="store_true", help="keep the games already in --out")
    parser.add_argument("--report", action="store_true", help="only print the table of --out")
    parser.add_argument("--hints", type=int, metavar="N", help="only time the fair hint on N deals' positions")
    parser.add_argument(
        "--knob", action="append", default=[], metavar="NAME=VALUE", help="a NoPeek keyword for this run (repeatable)"
    )
    parser.add_argument(
        "--tree-knob", action="append", default=[], metavar="NAME=VALUE", help="a TreeSearch keyword (repeatable)"
    )
    args = parser.parse_args(argv)
    args.knobs = {k: json.loads(v) for k, v in (item.split("=", 1) for item in args.knob)}
    args.tree_knobs = {k: json.loads(v) for k, v in (item.split("=", 1) for item in args.tree_knob)}
    if args.hints:
        print(hint_times(args.hints))
        return 0
    path = Path(args.out)
    if not args.report:
        if path.exists() and not args.resume:
            raise SystemExit(f"{path} exists: pass --resume to continue it or remove it")
        path.parent.mkdir(parents=True, exist_ok=True)
        if args.dask:
            from distributed import Client

            with Client(args.dask) as client:  # type: ignore[no-untyped-call]
                _run(args, client.get_executor(), path)
        else:
            pool = process_pool(args.workers)
            try:
                _run(args, pool, path)
            finally:
                stop_pool(pool)
    print(table(_read(path)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
