"""What keeping the game in play costs a move: the same random game on a board with no records and on a board that
keeps its game with the records after every move (an SQLite write), side by side, in CPU time.

Run: ``python benchmarks/bench_keep.py`` (``--moves N``, ``--games N``). Records go to a temporary folder.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time


def cpu_per_move(records: bool, moves: int, games: int) -> float:
    """CPU milliseconds per move of ``games`` random games of up to ``moves`` moves on a board."""
    from patiencelab.widget.board import KlondikeWidget

    spent, played = 0.0, 0
    for seed in range(games):
        board = KlondikeWidget(seed=seed, records=True if records else None)
        rng = random.Random(seed)
        start = time.process_time()
        for _ in range(moves):
            legal = board.game.legal_moves()
            if not legal:
                break
            board.game.play(rng.choice(legal))
            played += 1
        spent += time.process_time() - start
        board.close()
    return 1000 * spent / max(1, played)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    os.environ["PATIENCELAB_HOME"] = tempfile.mkdtemp(prefix="patiencelab-bench-")
    without = cpu_per_move(False, args.moves, args.games)
    kept = cpu_per_move(True, args.moves, args.games)
    print(f"records off:                  {without:.2f} ms CPU per move")
    print(f"game in play kept every move: {kept:.2f} ms CPU per move (+{kept - without:.2f} ms)")


if __name__ == "__main__":
    main()
