"""Where the fair player loses deals it could have won: NoPeek plays each seed; for a game lost whose deal the
solver proves winnable, the solver (which peeks: this is a diagnosis, not a player) searches the real deal along
the game (winnable stays winnable until a move loses it, so a binary search finds the move), and the line says
the losing move, how many cards were still unseen, which other moves kept the real deal winnable, how the
decision was made (followed an earlier plan, judged, or nothing to judge) and, on 32 fresh sampled deals, how many
each legal move kept winnable.

Run: ``python benchmarks/bench_losses.py --draw 3 --start 3000 --deals 30`` (one JSON line a deal, then a
summary); ``--knob name=value`` sets a NoPeek keyword as in ``bench_players.py``. CPU: a game of the player plus
some ten searches of up to ``--states`` positions for each game lost.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import Counter
from typing import Any

from patiencelab.core.game import Klondike
from patiencelab.core.moves import Move
from patiencelab.core.position import Position
from patiencelab.core.rules import Rules
from patiencelab.core.view import PlayerView
from patiencelab.players import NoPeek
from patiencelab.players.playing import play_to_end
from patiencelab.players.sampling import keeps_winnable
from patiencelab.solver.search import solve


def _after(game: Klondike, move: Move) -> Position:
    trial = game.copy()
    trial.play(move)
    return trial.snapshot()


def diagnose(draw: int, seed: int, states: int, knobs: dict[str, Any]) -> dict[str, Any]:
    """One deal: won, lost from the start, or the move that lost it and how it was chosen."""
    rules = Rules(draw=draw)
    game = Klondike(seed=seed, rules=rules)
    player = NoPeek(seed=seed, **knobs)
    positions: list[Position] = [game.snapshot()]
    views: list[PlayerView] = [game.player_view()]
    how: list[str] = []

    def choose(view: PlayerView) -> Move:
        move = player.choose(view)
        decision = player.last_decision
        how.append(
            "looked"
            if decision is None or decision.move != move
            else "followed"
            if decision.followed
            else "judged"
            if decision.solves
            else "free"
        )
        return move

    def keep(_: Move) -> None:
        positions.append(game.snapshot())
        views.append(game.player_view())

    play_to_end(game, choose, on_move=keep)
    row: dict[str, Any] = {"seed": seed, "draw": draw, "won": game.is_won, "moves": game.moves}
    if game.is_won:
        return row

    def verdict(position: Position) -> str:
        return solve(position, rules, seconds=math.inf, max_states=states).outcome

    row["start"] = verdict(positions[0])
    if row["start"] != "solved":
        return row
    low, high = 0, len(positions) - 1  # winnable at low; the end is lost (or undecided)
    while high - low > 1:
        middle = (low + high) // 2
        if verdict(positions[middle]) == "solved":
            low = middle
        else:
            high = middle
    here = Klondike.from_position(positions[low], rules=rules)
    view = views[low]
    legal = here.legal_moves()
    keeps = [str(move) for move in legal if verdict(_after(here, move)) == "solved"]
    judged, _ = keeps_winnable(view, legal, samples=32, max_states=2_000, seed=7)
    kept = {str(move): chances.won for move, chances in zip(legal, judged)}
    played = str(game.history[low])
    row.update(
        at=low,
        played=played,
        how=how[low],
        unseen=len(view.unseen_cards()),
        keeps_real_deal=keeps,
        sampled_32=kept,
        worse_than_best=kept[played] < max(kept.values()),
    )
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--draw", type=int, choices=(1, 3), default=3)
    parser.add_argument("--start", type=int, default=3000, help="first seed (default 3000, off the held-out 0-999)")
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--states", type=int, default=1_000_000, help="positions per search of the real deal")
    parser.add_argument("--knob", action="append", default=[], metavar="NAME=VALUE", help="a NoPeek keyword")
    args = parser.parse_args()
    knobs = {k: json.loads(v) for k, v in (item.split("=", 1) for item in args.knob)}
    tally: Counter[str] = Counter()
    for seed in range(args.start, args.start + args.deals):
        row = diagnose(args.draw, seed, args.states, knobs)
        print(json.dumps(row), flush=True)
        if row["won"]:
            tally["won"] += 1
        elif row["start"] != "solved":
            tally[f"start {row['start']}"] += 1
        else:
            tally[f"lost by a move {row['how']}"] += 1
            tally["lost by a move worse on 32 fresh deals"] += row["worse_than_best"]
    print(json.dumps(dict(sorted(tally.items()))))


if __name__ == "__main__":
    main()
