"""The fair player's decisions, judged one by one against the real deal: a cheap, paired measure of a change.

A win rate needs a thousand games to tell two players apart by a few points, and most of a game's decisions
cannot lose it. This benchmark keeps only the decisions that can: positions along NoPeek's games (tuning seeds,
off the held-out 0-999) where the real deal is winnable, some legal move keeps it winnable and another is proved
to lose it (the solver peeks: a diagnosis, not a player). Each variant of the player (``--knob``, as in
``bench_players.py``), fresh and seeded apart from the game the position came from, plays on from every such
position, from its view alone, until it sees a card it had not seen (the real deal says which); the figure is the
share of positions after which the real deal is still winnable then. Playing on to the next card seen, not
judging the first move alone, keeps a player from scoring by putting the choice off (a draw round a known stock
loses nothing at once). Two variants on the same positions are compared position by position: those one kept
and the other lost, each way, then again over the positions where both saw a card: a fresh player that goes round
in circles (or gets stuck) before it sees one loses the position, and the player of a game, which remembers how it
came there, may not (with draw 3, 48 of the 463 positions of docs/players.md's round 9: there a variant that never
went round looked 40 positions better and was no better in games).

The measure is a screen, not a win rate: a variant that loses fewer critical positions may still lose the game
later (docs/players.md, round 7, measured how much of a gain here reaches the games).

Run:

    python benchmarks/bench_decisions.py collect --draw 3 --start 3000 --deals 60 --out build/critical-d3.jsonl
    python benchmarks/bench_decisions.py judge build/critical-d3.jsonl --out build/judged-base.jsonl
    python benchmarks/bench_decisions.py judge build/critical-d3.jsonl --knob samples=32 --out build/judged-s32.jsonl
    python benchmarks/bench_decisions.py compare build/judged-base.jsonl build/judged-s32.jsonl

``collect`` plays one game a deal (``--knob`` sets the player whose games give the positions) and solves the real
deal after every legal move of each judged decision while the game is still winnable (``--states`` positions a
search; a move the budget cannot decide leaves the position out). CPU: the game plus a few hundred searches.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from patiencelab.core.game import Klondike
from patiencelab.core.moves import Move
from patiencelab.core.rules import Rules
from patiencelab.core.view import PlayerView
from patiencelab.players import NoPeek
from patiencelab.players.playing import play_to_end
from patiencelab.solver.search import solve
from patiencelab.stats import sign_test, wilson
from patiencelab.workers import process_pool, run_jobs, stop_pool


def _verdict(game: Klondike, move: Move | None, states: int) -> str:
    trial = game.copy()
    if move is not None:
        trial.play(move)
    return solve(trial.snapshot(), trial.rules, seconds=math.inf, max_states=states).outcome


def collect_deal(draw: int, seed: int, states: int, knobs: dict[str, Any]) -> list[dict[str, Any]]:
    """The critical positions of one game of NoPeek: each with the moves that keep the real deal winnable and
    those proved to lose it (every legal move decided, at least one of each)."""
    game = Klondike(seed=seed, rules=Rules(draw=draw))
    player = NoPeek(seed=seed, **knobs)
    judged: list[tuple[int, bool]] = []  # (moves played before the decision, whether the player judged it)

    def choose(view: PlayerView) -> Move:
        move = player.choose(view)
        decision = player.last_decision
        judged.append((view.moves, decision is not None and decision.move == move and decision.solves > 0))
        return move

    play_to_end(game, choose)
    won = game.is_won
    history = list(game.history)
    replay = Klondike(seed=seed, rules=Rules(draw=draw))
    rows = []
    for index, move in enumerate(history):
        here = replay.copy()
        replay.play(move)
        if index >= len(judged) or not judged[index][1]:
            continue
        legal = here.legal_moves()
        if len(legal) < 2:
            continue
        if not won and _verdict(here, None, states) != "solved":
            break  # the game was lost before this decision (or cannot be told): no later decision counts
        verdicts = {str(m): _verdict(here, m, states) for m in legal}
        keep = sorted(m for m, v in verdicts.items() if v == "solved")
        lose = sorted(m for m, v in verdicts.items() if v == "impossible")
        if keep and lose and len(keep) + len(lose) == len(legal):
            rows.append(
                {
                    "draw": draw,
                    "seed": seed,
                    "at": index,
                    "history": [str(m) for m in history[:index]],
                    "keep": keep,
                    "lose": lose,
                    "played": str(move),
                    "unseen": len(here.player_view().unseen_cards()),
                }
            )
    return rows


def judge_position(row: dict[str, Any], knobs: dict[str, Any], offset: int, states: int = 200_000) -> dict[str, Any]:
    """A fresh player at one critical position, playing the real deal on until it sees a card it had not seen
    (a card turned up, an unseen stock card drawn), the game ends or 200 moves: kept if the real deal is still
    winnable then (so a player that only puts off the choice, drawing round a known stock, gains nothing), with
    its first move and the CPU of its decisions. Its seed is the deal's plus ``offset``: not the seed of the
    game the position came from, whose player went on only while its own sampled deals led it right (its
    decisions there would look better than they are).
    """
    game = Klondike(seed=row["seed"], rules=Rules(draw=row["draw"]))
    for text in row["history"]:
        game.play(game.parse_move(text))
    player = NoPeek(seed=row["seed"] + offset, **knobs)
    unseen = len(game.player_view().unseen_cards())
    moves: list[str] = []
    cpu = 0.0

    def choose(view: PlayerView) -> Move:
        nonlocal cpu
        if moves and len(view.unseen_cards()) < unseen:
            raise _SeenError
        t0 = time.process_time()
        move = player.choose(view)
        cpu += time.process_time() - t0
        moves.append(str(move))
        return move

    ended = "seen"
    with contextlib.suppress(_SeenError):
        ended = play_to_end(game, choose, max_moves=200)
    verdict = "solved" if game.is_won else "impossible" if ended != "seen" else _verdict(game, None, states)
    kept = verdict == "solved"  # stuck, or round in circles without seeing a card: lost
    return {
        "draw": row["draw"],
        "seed": row["seed"],
        "at": row["at"],
        "move": moves[0],
        "first_kept": moves[0] in row["keep"],
        "moves": len(moves),
        "kept": kept,
        "ended": ended,
        "verdict": verdict,
        "cpu": round(cpu, 5),
    }


class _SeenError(Exception):
    """A card the player had not seen is in sight: the forward play stops."""


def _read(path: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


def summary(rows: list[dict[str, Any]]) -> str:
    """Kept share with its interval, and the player's CPU a position (its decisions to the next card seen)."""
    kept = sum(r["kept"] for r in rows)
    n = len(rows)
    if not n:
        return "no positions"
    w = wilson(kept, n)
    cpu = sorted(r["cpu"] for r in rows)
    p95 = cpu[min(n - 1, int(0.95 * n))]
    circles = n - sum(r["ended"] == "seen" for r in rows)
    first = sum(r["first_kept"] for r in rows)
    horizon = statistics.mean(r["moves"] for r in rows)
    return (
        f"{n} positions: kept the real deal winnable at {kept} ({kept / n:.1%}, {w.low:.1%}-{w.high:.1%}); "
        f"round in circles (or stuck) before a card was seen at {circles}; "
        f"the first move alone kept it at {first}; moves to the next card seen {horizon:.1f} "
        "on average (a player that sees cards sooner has fewer moves in which to lose the deal); "
        f"CPU a position median {statistics.median(cpu) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
        f"total {sum(cpu):.0f} s"
    )


def _place(row: dict[str, Any]) -> tuple[int, int, int]:
    return (row["draw"], row["seed"], row["at"])


def compare(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> str:
    """Positions kept by one and lost by the other, each way, with a two-sided sign test; then the same over the
    positions where both players saw a card (a player that goes round in circles from a fresh start, where the
    player of a game would remember how it came there, loses a position the other may keep for that alone).
    """
    second = {_place(r): r for r in b}
    pairs = [(r, second[_place(r)]) for r in a if _place(r) in second]
    seen = [(r, s) for r, s in pairs if r["ended"] == s["ended"] == "seen"]
    return f"{_paired(pairs, 'in both')}\n{_paired(seen, 'where both saw a card')}"


def _paired(pairs: list[tuple[dict[str, Any], dict[str, Any]]], where: str) -> str:
    only_a = sum(r["kept"] and not s["kept"] for r, s in pairs)
    only_b = sum(s["kept"] and not r["kept"] for r, s in pairs)
    p = min(1.0, 2 * sign_test(max(only_a, only_b), min(only_a, only_b)))
    return (
        f"{len(pairs)} positions {where}: first kept {sum(r['kept'] for r, _ in pairs)}, second "
        f"{sum(s['kept'] for _, s in pairs)}; kept by the first only {only_a}, by the second only {only_b} "
        f"(two-sided sign test p = {p:.3f})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="find the critical positions along NoPeek's games")
    c.add_argument("--draw", type=int, choices=(1, 3), default=3)
    c.add_argument("--start", type=int, default=3000, help="first seed (default 3000, off the held-out 0-999)")
    c.add_argument("--deals", type=int, default=30)
    c.add_argument("--states", type=int, default=200_000, help="positions per search of the real deal")
    j = sub.add_parser("judge", help="a variant's decision at each critical position")
    j.add_argument("positions")
    j.add_argument("--seed-offset", type=int, default=1_000_000, help="added to each deal's seed (see judge_position)")
    for p in (c, j):
        p.add_argument("--knob", action="append", default=[], metavar="NAME=VALUE", help="a NoPeek keyword")
        p.add_argument("--workers", type=int, default=os.cpu_count() or 1)
        p.add_argument("--out", required=True)
    k = sub.add_parser("compare", help="two judge runs, position by position")
    k.add_argument("first")
    k.add_argument("second")
    args = parser.parse_args(argv)
    if args.command == "compare":
        print(summary(_read(args.first)))
        print(summary(_read(args.second)))
        print(compare(_read(args.first), _read(args.second)))
        return 0
    knobs = {name: json.loads(value) for name, value in (item.split("=", 1) for item in args.knob)}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, Any]] = []

    def keep(result: dict[str, Any] | list[dict[str, Any]]) -> None:
        for row in result if isinstance(result, list) else [result]:
            rows.append(row)
            sink.write(json.dumps(row) + "\n")
        sink.flush()

    pool = process_pool(max(1, args.workers))
    try:
        with out.open("w") as sink:
            if args.command == "collect":
                jobs = [(args.draw, s, args.states, knobs) for s in range(args.start, args.start + args.deals)]
                run_jobs(pool, collect_deal, jobs, keep)
            else:
                run_jobs(pool, judge_position, [(row, knobs, args.seed_offset) for row in _read(args.positions)], keep)
    finally:
        stop_pool(pool)
    print(f"{len(rows)} critical positions in {args.deals} games" if args.command == "collect" else summary(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
