"""The solver's verdicts on seeds 0-199 are those of the solver before issue 34's speed-ups, at the same state
budgets: a faster search must prove what the old one proved, and never the opposite. On seeds 10,000-10,099 they
are those of another program: Solvitaire, Blake & Gent's solver, written apart from this one in C++.

``verdicts_0_199.json`` holds the old solver's verdicts (``W`` won, ``L`` lost, ``?`` undecided, one letter a seed)
within 20,000 and 200,000 positions. ``make test`` checks the first budget, ``make soak``
(``pytest --soak``) the second. ``solvitaire_verdicts.json`` holds Solvitaire's verdicts
(see ``benchmarks/bench_solver.py --solvitaire``), checked within the same budget.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from patiencelab import Klondike, Rules
from patiencelab.solver import solve
from tests.solver.replay import replay_wins
from tests.sweeps import VERDICT_STATES

DATA = json.loads((Path(__file__).parent / "verdicts_0_199.json").read_text())
PEER = json.loads((Path(__file__).parent / "solvitaire_verdicts.json").read_text())["deals"]
STATES = str(VERDICT_STATES)
LETTER = {"solved": "W", "impossible": "L", "unknown": "?"}


def verdict(seed: int, draw: int) -> str:
    """The solver's outcome on a seeded deal within the budget, a win replayed in the model."""
    game = Klondike(seed=seed, rules=Rules(draw=draw))
    found = solve(game, seconds=math.inf, max_states=int(STATES))
    if found.outcome == "solved":
        assert replay_wins(game, found.moves), f"seed {seed}: moves that do not win"
    return found.outcome


@pytest.mark.parametrize("draw", [1, 3])
def test_verdicts_on_seeds_0_to_199_are_the_old_solvers(draw: int) -> None:
    """Every deal the old solver decided within the budget is decided alike (a win replayed in the model); a deal
    it left undecided may now be decided either way.
    """
    old = DATA["budgets"][STATES][str(draw)]
    new = [LETTER[verdict(seed, draw)] for seed in range(len(old))]
    differ = [(seed, a, b) for seed, (a, b) in enumerate(zip(old, new, strict=True)) if a != "?" and a != b]
    assert not differ, f"(seed, old, new) where the verdict changed: {differ}"
    assert old.count("?") >= "".join(new).count("?")


@pytest.mark.first_pass  # 15 s more in the pure pass, for answers tests/test_compiled.py shows are the same
@pytest.mark.parametrize("draw", [1, 3])
def test_verdicts_on_seeds_10000_to_10099_are_solvitaires(draw: int) -> None:
    """Every deal both Solvitaire (within 60 s) and this solver (within the budget) decide is decided alike, a win
    replayed in the model: two searches written apart agree, so neither prunes a win away on these deals. Most of
    them must be decided within the budget, so that the test cannot pass by deciding nothing.
    """
    peer = [deal for deal in PEER if deal["draw"] == draw and deal["outcome"] != "unknown"]
    ours = [(deal["seed"], deal["outcome"], verdict(deal["seed"], draw)) for deal in peer]
    decided = sum(outcome != "unknown" for _, _, outcome in ours)
    differ = [(seed, theirs, outcome) for seed, theirs, outcome in ours if outcome not in ("unknown", theirs)]
    assert not differ, f"(seed, Solvitaire, this solver) where the verdicts differ: {differ}"
    assert len(peer) >= 90 and decided >= 0.9 * len(peer), f"{decided} of {len(peer)} decided"
