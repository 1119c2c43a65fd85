"""The Gymnasium environment: CPU time of a random agent's episode (masked random actions) through
``patiencelab.env.KlondikeEnv``, median over seeded episodes, with the steps per episode and the time per step.

Run: ``python benchmarks/bench_env.py --episodes 50`` (``--draw 3``, ``--max-steps 1000``). Each episode is the
deal of its seed, played until it is won, stuck, or truncated at ``--max-steps``; the agent picks uniformly among
the actions of ``info["action_mask"]`` with a generator seeded by the episode's seed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

import patiencelab
from patiencelab.env import KlondikeEnv


def episode(env: KlondikeEnv, seed: int) -> tuple[float, int, str]:
    """One random-agent episode: its CPU seconds (reset included), steps and how the game ended."""
    rng = np.random.default_rng(seed)
    start = time.process_time()
    _, info = env.reset(seed=seed)
    steps = 0
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, _, terminated, truncated, info = env.step(action)
        steps += 1
        if terminated or truncated:
            break
    return time.process_time() - start, steps, str(info["status"])


def main(argv: list[str] | None = None) -> int:
    """Time the episodes and print a summary line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--episodes", type=int, default=50, help="episodes, seeds 0 to N-1 (default 50)")
    parser.add_argument("--draw", type=int, default=1, help="cards per draw (default 1)")
    parser.add_argument("--max-steps", type=int, default=1_000, help="steps before truncation (default 1000)")
    args = parser.parse_args(argv)
    env = KlondikeEnv(draw=args.draw, max_steps=args.max_steps)
    runs = [episode(env, seed) for seed in range(args.episodes)]
    seconds = [s for s, _, _ in runs]
    steps = [n for _, n, _ in runs]
    ends = {status: sum(1 for _, _, s in runs if s == status) for status in ("won", "stuck", "playing")}
    build = "compiled" if patiencelab.COMPILED else "pure Python"
    print(
        f"draw {args.draw}, {args.episodes} episodes ({build}): "
        f"CPU per episode median {1000 * statistics.median(seconds):.1f} ms"
        f" (min {1000 * min(seconds):.1f}, max {1000 * max(seconds):.1f}); steps median {statistics.median(steps):.0f};"
        f" CPU per step {1e6 * sum(seconds) / sum(steps):.0f} us; ended won {ends['won']}, stuck {ends['stuck']},"
        f" truncated {ends['playing']}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
