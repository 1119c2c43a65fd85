"""Game reviews timed: CPU seconds per review (``time.process_time``) over the 60 lost games of
``tests/review_games.py`` (Random and draw-first play under the standard and traditional rules, draw 1 and 3),
with the board's budgets unless told otherwise; the median and the worst, the solver calls, what the second
opinion found and the marks made.

Run: ``python benchmarks/bench_review.py`` (``--games 5`` per rule set for a quick look, ``--samples``,
``--sample-states`` and ``--max-states`` for other budgets, ``--rows`` for a line per game).
"""

from __future__ import annotations

import argparse
import collections
import pathlib
import statistics
import sys
import time
from typing import Literal

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # the games live with the tests

from tests.review_games import lost_games

import patiencelab
from patiencelab.review import DEFAULT_MAX_STATES, review
from patiencelab.review.chances import REVIEW_SAMPLES


def main(argv: list[str] | None = None) -> int:
    """Review the games and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=15, help="lost games per rule set (default 15: 60 in all)")
    parser.add_argument("--samples", type=int, default=REVIEW_SAMPLES)
    parser.add_argument("--sample-states", type=int, default=None, help="positions a deal (default: the rules')")
    parser.add_argument("--max-states", type=int, default=DEFAULT_MAX_STATES)
    parser.add_argument("--rows", action="store_true", help="a line per game")
    args = parser.parse_args(argv)
    times: list[float] = []
    outcomes: collections.Counter[str] = collections.Counter()
    labels: collections.Counter[str] = collections.Counter()
    calls = moves = proved = 0
    for name, game in lost_games(args.games):
        start = time.process_time()
        states: int | Literal["rules"] = "rules" if args.sample_states is None else args.sample_states
        found = review(game, samples=args.samples, sample_states=states, max_states=args.max_states)
        spent = time.process_time() - start
        times.append(spent)
        outcomes[found.outcome] += 1
        labels.update(m.label for m in found.marks)
        calls += found.sample_calls + found.calls
        moves += game.moves
        proved += found.lost_from is not None
        if args.rows:
            marks = ", ".join(f"{m.move} {m.label}" for m in found.marks) or "-"
            print(f"{name:42} {game.moves:4} moves {spent:6.2f} s  {found.outcome:14} marks: {marks}", flush=True)
    build = "compiled" if patiencelab.COMPILED else "pure Python"
    per_deal = "the rules'" if args.sample_states is None else f"{args.sample_states:,}"
    print(
        f"{len(times)} reviews ({build}; samples {args.samples}, {per_deal} positions per deal, "
        f"second opinion {args.max_states:,} positions per call)"
    )
    print(
        f"CPU per review: median {statistics.median(times):.1f} s, worst {max(times):.1f} s, total {sum(times):.0f} s"
    )
    print(f"moves per game: {moves / len(times):.0f}; solver calls per review: {calls / len(times):.0f}")
    print(f"second opinion: {dict(sorted(outcomes.items()))}; lost for every order proved in {proved} games")
    print(f"marks: {dict(sorted(labels.items()))}; {sum(labels.values()) / len(times):.2f} a game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
