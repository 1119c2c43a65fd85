"""Solver benchmark by positions, not seconds: deals decided within a state budget and positions searched.

A state budget gives the same figures on every machine and under any load, so two versions of the solver can be
compared in one run: ``python benchmarks/bench_solver_states.py --deals 100 --max-states 50000``, run once in
this tree and once in a checkout of the version before (``git worktree add``).
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter

from patiencelab import Klondike, Rules
from patiencelab.solver import solve


def main() -> None:
    """Print, for each draw, the deals decided within the budget, their outcomes and the positions searched."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=100, help="seeds 0..N-1 (default 100)")
    parser.add_argument("--max-states", type=int, default=50_000, help="positions per deal (default 50,000)")
    parser.add_argument("--draw", type=int, choices=(1, 3), help="draw count (default 1 and 3)")
    args = parser.parse_args()
    for draw in (args.draw,) if args.draw else (1, 3):
        outcomes: Counter[str] = Counter()
        states = 0
        cpu = time.process_time()
        for seed in range(args.deals):
            found = solve(Klondike(seed=seed, rules=Rules(draw=draw)), seconds=math.inf, max_states=args.max_states)
            outcomes[found.outcome] += 1
            states += found.states
        cpu = time.process_time() - cpu
        decided = outcomes["solved"] + outcomes["impossible"]
        print(
            f"draw {draw}: decided {decided}/{args.deals} (solved {outcomes['solved']}, impossible "
            f"{outcomes['impossible']}), positions {states:,}, {states / cpu:,.0f} positions per CPU second"
        )


if __name__ == "__main__":
    main()
