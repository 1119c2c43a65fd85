"""Speed of the game model: legal-move generation, play+undo pairs, whole random games, games played out by a
player (``Klondike.play_out``) and the Gymnasium environment's steps (with gymnasium installed).

Run: ``python benchmarks/bench_model.py`` (``--seconds`` per measurement, ``--json`` for machine output, ``--cpu``
to count this process's CPU time instead of wall time, for a machine shared with other work). When
OpenSpiel is installed (``pip install -e .[bench]``), its C++ ``solitaire`` game plays random games in the same
run and the table shows the ratio of actions per second. ``--compare-with SRC`` measures this checkout against
another one's ``src/`` folder (a "before", compiled in place by its own ``pip install -e``) in fresh processes
taking turns, best of ``--repeat``.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import platform
import random
import subprocess
import sys
import time
from collections.abc import Callable

from patiencelab import Klondike, Move

#: The clock the measurements read: wall time, or with ``--cpu`` this process's CPU time.
clock: Callable[[], float] = time.perf_counter


def measure(seconds: float, step: Callable[[], int]) -> tuple[float, int]:
    """Call ``step`` (which returns how many units it did) until ``seconds`` pass; return (units/s, units)."""
    done = 0
    start = clock()
    while (elapsed := clock() - start) < seconds:
        done += step()
    return done / elapsed, done


def midgame_positions(count: int, seed: int = 1) -> list[Klondike]:
    """Games played 0-60 random legal moves in, for move generation on varied positions."""
    rng = random.Random(seed)
    games = []
    for i in range(count):
        game = Klondike(seed=i)
        for _ in range(rng.randrange(60)):
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
        games.append(game)
    return games


def bench_legal_moves(seconds: float) -> tuple[float, int]:
    games = midgame_positions(200)

    def step() -> int:
        for game in games:
            game._list_legal_moves()  # the generation itself: legal_moves() keeps its list until the position changes
        return len(games)

    return measure(seconds, step)


def bench_play_undo(seconds: float) -> tuple[float, int]:
    pairs = [(game, move) for game in midgame_positions(200) for move in game.legal_moves()]

    def step() -> int:
        for game, move in pairs:
            game.play(move)
            game.undo()
        return len(pairs)

    return measure(seconds, step)


def random_game(rng: random.Random, seed: int, limit: int = 500) -> int:
    """Random legal moves to a win, a stuck position or ``limit`` moves; returns the actions played."""
    game = Klondike(seed=seed)
    for played in range(limit):
        moves: list[Move] = game.legal_moves()
        if not moves:
            return played
        if len(moves) == 1 and (moves[0].is_draw or moves[0].is_recycle) and game.is_stuck:
            return played
        game.play(rng.choice(moves))
    return limit


def bench_random_games(seconds: float) -> tuple[float, float]:
    rng = random.Random(7)
    counter = iter(range(10**9))
    actions = 0

    def step() -> int:
        nonlocal actions
        actions += random_game(rng, next(counter))
        return 1

    start = clock()
    rate, _ = measure(seconds, step)
    return rate, actions / (clock() - start)


def bench_play_out(seconds: float) -> tuple[float, float]:
    """Whole games through ``Klondike.play_out`` by a player that picks a legal move of its view at random: the
    players' loop (the player's view, the legal moves, the status and the move, each a step); returns (games/s,
    moves/s)."""
    from patiencelab.core.view import PlayerView
    from patiencelab.players import legal_moves

    counter = iter(range(10**9))
    moves = 0

    def step() -> int:
        nonlocal moves
        seed = next(counter)
        game = Klondike(seed=seed)
        rng = random.Random(seed)

        def choose(view: PlayerView) -> Move:
            return rng.choice(legal_moves(view))

        game.play_out(choose, max_moves=300)
        moves += game.moves
        return 1

    start = clock()
    rate, _ = measure(seconds, step)
    return rate, moves / (clock() - start)


def bench_env(seconds: float) -> float | None:
    """Steps of the Gymnasium environment (``patiencelab.env.KlondikeEnv``) by a random agent that picks among the
    actions of ``info["action_mask"]``, episodes of at most 300 steps, resets included; steps/s (``None`` without
    gymnasium)."""
    try:
        import numpy as np

        from patiencelab.env import KlondikeEnv
    except ImportError:
        return None
    env = KlondikeEnv(max_steps=300)
    rng = np.random.default_rng(7)
    counter = iter(range(10**9))

    def step() -> int:
        _, info = env.reset(seed=next(counter))
        steps = 0
        while True:
            _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            steps += 1
            if terminated or truncated:
                return steps

    rate, _ = measure(seconds, step)
    return rate


def bench_open_spiel(seconds: float) -> tuple[float, float] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("solitaire", {"depth_limit": 500})
    rng = random.Random(7)
    actions = 0

    def step() -> int:
        nonlocal actions
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
        return 1

    start = clock()
    rate, _ = measure(seconds, step)
    return rate, actions / (clock() - start)


def compare_with(other: str, seconds: float, cpu: bool, repeat: int) -> int:
    """Each measure of this checkout and of ``other`` (a ``src/`` folder), in fresh processes taking turns, so
    that a busier minute falls on both; the best of ``repeat`` runs of each, and the other's rate against ours.
    """
    here = str(pathlib.Path(__file__).resolve().parent.parent / "src")
    command = [sys.executable, __file__, "--json", "--no-peer", "--seconds", str(seconds), *(["--cpu"] if cpu else [])]
    best: dict[str, dict[str, float]] = {"this": {}, "other": {}}
    compiled: dict[str, int] = {}
    for _ in range(repeat):
        for name, path in (("this", here), ("other", other)):
            env = {**os.environ, "PYTHONPATH": path, "PATIENCELAB_PURE": "0"}
            done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
            results = json.loads(done.stdout)
            compiled[name] = results.pop("compiled")
            for key, value in results.items():
                if value is not None:
                    best[name][key] = max(value, best[name].get(key, 0.0))
    print(f"{'CPU' if cpu else 'wall'} time, {seconds:g} s per measure, best of {repeat}; other: {other}")
    print(f"compiled modules: this checkout {compiled['this']}, other {compiled['other']}\n")
    print("| measure | this checkout, per s | other, per s | other / this |\n|---|---:|---:|---:|")
    for key, mine in best["this"].items():
        theirs = best["other"].get(key)
        ratio = "" if theirs is None else f"{theirs / mine:.3f}"
        name = key.replace("_per_s", "").replace("_", " ")
        print(f"| {name} | {mine:,.0f} | {'-' if theirs is None else f'{theirs:,.0f}'} | {ratio} |")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--cpu", action="store_true", help="count this process's CPU time, not wall time")
    parser.add_argument("--no-peer", action="store_true", help="leave OpenSpiel out")
    parser.add_argument(
        "--compare-with",
        metavar="SRC",
        help="this checkout against another one's src/ folder (a 'before', compiled in place), in fresh processes",
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs of each for --compare-with (the best counts)")
    args = parser.parse_args(argv)
    if args.compare_with:
        return compare_with(args.compare_with, args.seconds, args.cpu, args.repeat)
    global clock
    clock = time.process_time if args.cpu else time.perf_counter
    results: dict[str, float | None] = {}
    results["legal_moves_per_s"], _ = bench_legal_moves(args.seconds)
    results["play_undo_pairs_per_s"], _ = bench_play_undo(args.seconds)
    results["random_games_per_s"], results["random_actions_per_s"] = bench_random_games(args.seconds)
    results["play_out_games_per_s"], results["play_out_moves_per_s"] = bench_play_out(args.seconds)
    results["env_steps_per_s"] = bench_env(args.seconds)
    spiel = None if args.no_peer else bench_open_spiel(args.seconds)
    results["open_spiel_games_per_s"], results["open_spiel_actions_per_s"] = spiel or (None, None)
    if args.json:
        import patiencelab

        print(json.dumps({**results, "compiled": len(patiencelab.COMPILED)}, indent=2))
        return 0
    print(f"Python {platform.python_version()} on {platform.machine()}, {args.seconds:g} s per row\n")
    print("| measure | per second |\n|---|---|")
    for key, value in results.items():
        print(f"| {key.replace('_per_s', '').replace('_', ' ')} | {'-' if value is None else f'{value:,.0f}'} |")
    if spiel:
        ratio = results["random_actions_per_s"] / spiel[1]  # type: ignore[operator]
        print(f"\nrandom-play actions per second, PatienceLab / OpenSpiel C++: {ratio:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
