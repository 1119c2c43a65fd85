"""The peeking hint's check: on held-out positions, does ``game.hint(peek=True)`` ever say "draw" or a losing move
where a card move keeps the deal winnable?

Run: ``nice python benchmarks/bench_solver_hints.py --positions 150``. The positions come from seeds no test or
other benchmark uses (from ``--first``, default 900,000), draw 1 and draw 3 taking turns: each deal after a
seeded number of random legal actions (0 to 60; a card to a foundation or turned up is preferred half of the
time, as a player would), skipping positions that are won, stuck, or whose own verdict the judge cannot give.
Each position gets the hint with ``--hint-states`` positions a solver call (10,000 by default, the budget the
issue names), then a judge with a far larger budget (``--judge-states``, 2,000,000 by default) decides what the
hint leads to and, where that is not a win, whether some card move keeps the deal winnable.

A hint is **wrong** when a card move the hint may give (one of ``hints.candidates``: no move straight back, none
that only shuffles cards) keeps the deal winnable (the judge wins after it) and the hint is a draw or a recycle,
or a move after which the judge does not win. The table also counts the hints that lose outright (the judge
proves the deal impossible after them) and the draws that keep a win though a card move would too, the wrong
hints by seed and position, and the CPU seconds (hints and judge apart). State budgets throughout, so the counts are the
same on every machine; only the seconds depend on it.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass

from patiencelab import Klondike, Move, Rules
from patiencelab.players.ranking import candidates
from patiencelab.solver import solve


@dataclass(frozen=True, slots=True)
class Checked:
    """One position's check: the hint, what the judge says of it, and whether a card move keeps a win."""

    seed: int
    draw: int
    actions: int
    hint: str
    after_hint: str  # the judge's outcome after the hinted move ("solved", "impossible", "unknown")
    card_move_wins: bool | None  # None: not needed (the hint keeps a win) or not decided
    wrong: bool
    loses: bool  # the judge proves the deal lost after the hint, though a card move keeps a win


def position(seed: int, draw: int, rng: random.Random) -> tuple[Klondike, int]:
    """The deal of ``seed`` after a seeded number of random legal actions (0 to 60)."""
    game = Klondike(seed=seed, rules=Rules(draw=draw))
    actions = rng.randint(0, 60)
    for _ in range(actions):
        legal = game.legal_moves()
        if not legal or game.is_won:
            break
        progress = [m for m in legal if m.target is not None and (m.target[0] == "f" or game.uncovers(m))]
        game.play(rng.choice(progress if progress and rng.random() < 0.5 else legal))
    return game, actions


def judge(game: Klondike, move: Move, states: int) -> str:
    """The judge's outcome for ``game`` after ``move``."""
    trial = game.copy()
    trial.play(move)
    return solve(trial, seconds=1e9, max_states=states).outcome


def check(
    seed: int, draw: int, rng: random.Random, hint_states: int, judge_states: int
) -> tuple[Checked | None, float, float]:
    """Check one position; ``None`` when it is skipped. Also the CPU seconds of the hint and of the judge."""
    game, actions = position(seed, draw, rng)
    if game.is_won or not game.legal_moves():
        return None, 0.0, 0.0
    t0 = time.process_time()
    own = solve(game, seconds=1e9, max_states=judge_states).outcome
    if own != "solved":
        return None, 0.0, time.process_time() - t0  # lost or undecided: no hint can keep a win there
    t1 = time.process_time()
    hint = game.hint(peek=True, max_states=hint_states)
    t2 = time.process_time()
    assert hint is not None
    card = not (hint.is_draw or hint.is_recycle)
    after = judge(game, hint, judge_states)
    card_win: bool | None = None
    if not card or after != "solved":
        card_win = False
        undecided = False
        for move in candidates(game):
            if move.is_draw or move.is_recycle or move == hint:
                continue
            outcome = judge(game, move, judge_states)
            if outcome == "solved":
                card_win = True
                break
            undecided = undecided or outcome == "unknown"
        if not card_win and undecided:
            card_win = None
    wrong = card_win is True and (not card or after != "solved")
    loses = card_win is True and after == "impossible"
    t3 = time.process_time()
    return Checked(seed, draw, actions, str(hint), after, card_win, wrong, loses), t2 - t1, (t1 - t0) + (t3 - t2)


def main(argv: list[str] | None = None) -> int:
    """Check ``--positions`` positions and print the counts."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=150, help="positions to check (default 150)")
    parser.add_argument("--first", type=int, default=900_000, help="first seed (default 900,000)")
    parser.add_argument("--hint-states", type=int, default=10_000, help="positions per solver call of the hint")
    parser.add_argument("--judge-states", type=int, default=2_000_000, help="positions per solver call of the judge")
    parser.add_argument("--verbose", action="store_true", help="print every position")
    args = parser.parse_args(argv)
    rng = random.Random(args.first)
    done: list[Checked] = []
    skipped = 0
    hint_cpu = judge_cpu = 0.0
    seed = args.first
    while len(done) < args.positions:
        draw = 1 if seed % 2 == 0 else 3
        found, h, j = check(seed, draw, rng, args.hint_states, args.judge_states)
        hint_cpu += h
        judge_cpu += j
        seed += 1
        if found is None:
            skipped += 1
            continue
        done.append(found)
        if args.verbose or found.wrong:
            print(found, flush=True)
        sys.stderr.write(f"\r{len(done)}/{args.positions} positions, {sum(c.wrong for c in done)} wrong hints")
        sys.stderr.flush()
    sys.stderr.write("\n")
    wrong = [c for c in done if c.wrong]
    draws = sum(c.hint in ("d", "r") for c in done)
    kept = sum(c.after_hint == "solved" for c in done)
    open_ = sum(c.after_hint == "unknown" for c in done)
    draw_wins = sum(c.hint in ("d", "r") and c.after_hint == "solved" for c in wrong)
    loses = sum(c.loses for c in done)
    print(f"seeds {args.first}-{seed - 1}: {len(done)} winnable positions ({skipped} skipped: won, stuck, lost or")
    print(f"undecided by the judge); hints with {args.hint_states:,} positions a call, judge {args.judge_states:,}")
    print(
        "| wrong hints | of them: a draw that keeps a win too | lost after the hint | hints that keep a win "
        "| hints the judge cannot decide | draw or recycle hinted | hint CPU s | judge CPU s |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(f"| {len(wrong)} | {draw_wins} | {loses} | {kept} | {open_} | {draws} | {hint_cpu:.1f} | {judge_cpu:.1f} |")
    for c in wrong:
        print(f"wrong: seed {c.seed} draw {c.draw} after {c.actions} actions: hint {c.hint}, then {c.after_hint}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
