"""The review as a coach, measured per rule set (issue 62): on games lost by Greedy play (seeds 0, 1, 2, ...
played with :class:`~patiencelab.players.Greedy` until stuck; the first ``--games`` that are not won), the share
of sampled deals decided at the start and along the game, CPU a position (median, p95: the CPU between two
positions of the chances), review CPU a game, marks a game, the share of lost games (the second opinion did not
find the last position still winnable) whose losing move the review names or shows lost from the start, and how
many of the named moves got a verdict (mistake or bad luck, not "too little decided to tell").

CPU seconds (``time.process_time``), never wall time; run it under ``nice -n 19`` on a shared machine.
Run: ``python benchmarks/bench_coach.py`` (``--games 10`` per rule set; ``--presets standard-3,traditional-1``;
``--sample-states`` for another budget of the chances).
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time

import patiencelab
from patiencelab import Klondike, Rules
from patiencelab.players import Greedy
from patiencelab.review import review

#: The rule sets measured, by name: (preset, draw).
PRESETS = {
    "standard-3": ("standard", 3),
    "traditional-1": ("traditional", 1),
    "traditional-3": ("traditional", 3),
    "six-column": ("six-column", 3),
}


def lost_games(preset: str, draw: int, count: int) -> list[tuple[int, Klondike]]:
    """The first ``count`` deals Greedy does not win under the preset, each played until stuck (or 300 moves)."""
    rules = Rules.preset(preset, draw=draw)
    games: list[tuple[int, Klondike]] = []
    seed = 0
    while len(games) < count:
        game = Klondike(seed=seed, rules=rules)
        game.play_out(Greedy(), max_moves=300)
        if not game.is_won and game.moves:
            games.append((seed, game))
        seed += 1
    return games


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    """Review the games of each rule set and print a line per rule set."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=10, help="lost games per rule set (default 10)")
    parser.add_argument("--presets", default=",".join(PRESETS), help="rule sets, by name: " + ", ".join(PRESETS))
    parser.add_argument("--sample-states", type=int, default=None, help="positions a deal of the chances")
    parser.add_argument("--rows", action="store_true", help="a line per game")
    args = parser.parse_args(argv)
    build = "compiled" if patiencelab.COMPILED else "pure Python"
    print(f"{args.games} lost Greedy games a rule set ({build})")
    print("| rules | decided at start | decided along | CPU a position (median, p95) | review CPU (median, max) "
          "| marks a game | losing move named | verdict told |")  # fmt: skip
    print("|---|---:|---:|---|---|---:|---:|---:|")
    for name in args.presets.split(","):
        preset, draw = PRESETS[name]
        starts: list[float] = []
        along: list[float] = []
        positions: list[float] = []
        reviews: list[float] = []
        marks = named = lost = decided = 0
        games = lost_games(preset, draw, args.games)
        outcomes: list[str] = []
        for seed, game in games:
            stamps = [time.process_time()]

            def tick(done: int, total: int, stamps: list[float] = stamps) -> None:
                stamps.append(time.process_time())

            options = {} if args.sample_states is None else {"sample_states": args.sample_states}
            start = time.process_time()
            found = review(game, progress=tick, **options)
            reviews.append(time.process_time() - start)
            # a tick a position of the chances, then one for the second opinion (and the verdict) and the end
            chances_ticks = stamps[: len(found.chances) + 1]
            positions += [b - a for a, b in itertools.pairwise(chances_ticks)]
            first = found.chances[0]
            starts.append((first.won + first.lost) / first.samples)
            end = found.lost_from if found.lost_from is not None else len(found.chances)
            live = found.chances[: max(1, end)]
            along.append(sum(c.won + c.lost for c in live) / sum(c.samples for c in live))
            marks += len(found.marks)
            outcomes.append(found.outcome)
            lost += found.outcome != "winnable"
            named += found.outcome in ("lost", "never-winnable")
            decided += found.verdict is not None and found.verdict.kind != "unknown"
            if args.rows:
                print(f"  {name} seed {seed}: {game.moves} moves, {reviews[-1]:.1f} s, {found.outcome}, "
                      f"start {starts[-1]:.0%}, along {along[-1]:.0%}, verdict "
                      f"{None if found.verdict is None else found.verdict.kind}", flush=True)  # fmt: skip
        n = len(games)
        print(
            f"| {name} | {statistics.mean(starts):.0%} | {statistics.mean(along):.0%} "
            f"| {statistics.median(positions):.2f} s, {_p95(positions):.2f} s "
            f"| {statistics.median(reviews):.1f} s, {max(reviews):.1f} s | {marks / n:.1f} | {named}/{lost} "
            f"| {decided}/{sum(f == 'lost' for f in outcomes)} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
