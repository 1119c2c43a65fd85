"""Built-in players measured with ``patiencelab.players.evaluate``: win rate (Wilson 95%), mean score, moves per
game and CPU per decision, on seeds from 0 under the standard rules.

Run: ``python benchmarks/bench_evaluate.py --players random greedy --deals 100`` (``--draw 3``, ``--workers 2``
for a local pool). ``--cpu-minutes M`` plays one deal after another until M minutes of this process's CPU are
spent (for the slow NoPeek): the table then says how many deals fitted.
"""

from __future__ import annotations

import argparse
import sys
import time

import patiencelab
from patiencelab.core.rules import Rules
from patiencelab.players import Comparison, Evaluation, GameRow, Greedy, NoPeek, Player, RandomMoves, evaluate

PLAYERS = ("random", "greedy", "nopeek")


def make(name: str) -> Player:
    """A built-in player by name, at its default settings."""
    if name == "random":
        return RandomMoves()
    return Greedy() if name == "greedy" else NoPeek()


def within(name: str, rules: Rules, deals: int, minutes: float) -> Evaluation:
    """Seeds 0, 1, ... one at a time until ``deals`` are played or ``minutes`` of CPU are spent."""
    start = time.process_time()
    rows: list[GameRow] = []
    for seed in range(deals):
        rows.extend(evaluate(make(name), [seed], rules, name=name, progress=False).rows)
        if time.process_time() - start > 60 * minutes:
            break
    return Evaluation(name, rules, tuple(rows))


def main(argv: list[str] | None = None) -> int:
    """Play and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--players", nargs="+", default=["random", "greedy"], choices=PLAYERS)
    parser.add_argument("--deals", type=int, default=100, help="seeds 0 to N-1 (default 100)")
    parser.add_argument("--draw", type=int, default=1, help="cards per draw (default 1)")
    parser.add_argument("--workers", type=int, default=1, help="local processes (default: this one)")
    parser.add_argument("--cpu-minutes", type=float, help="stop each player after this much CPU (one process)")
    args = parser.parse_args(argv)
    rules = Rules(draw=args.draw)
    results = []
    for name in args.players:
        if args.cpu_minutes is not None:
            results.append(within(name, rules, args.deals, args.cpu_minutes))
        else:
            results.append(evaluate(make(name), args.deals, rules, workers=args.workers, name=name))
    build = "compiled" if patiencelab.COMPILED else "pure Python"
    print(f"{build}; CPU per decision is thread CPU time of player.choose")
    print(Comparison(tuple(results)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
