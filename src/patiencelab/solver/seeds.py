"""Solvable seeds: the first seed whose deal the solver wins under given rules, within a state budget."""

from __future__ import annotations

import math

from patiencelab.core.errors import PatienceError
from patiencelab.core.limits import check_instance, check_seed, check_states, check_whole
from patiencelab.core.position import deal_position, seeded_deal
from patiencelab.core.rules import Rules
from patiencelab.solver import solve

__all__ = ["find_solvable_seed"]


def find_solvable_seed(start: int, rules: Rules, *, max_states_per_deal: int = 100_000, max_tries: int = 1_000) -> int:
    """The first seed from ``start`` on whose deal the solver wins under ``rules`` within ``max_states_per_deal``
    positions (a state budget, so every machine picks the same seed); after ``max_tries`` seeds it gives up with
    a :class:`~patiencelab.core.errors.PatienceError`.
    """
    check_seed(start, "start")
    check_instance(rules, "rules", Rules)
    check_states(max_states_per_deal, "max_states_per_deal")
    check_whole(max_tries, "max_tries", low=1)
    for seed in range(start, start + max_tries):
        deal = deal_position(seeded_deal(seed), rules)
        if solve(deal, rules, seconds=math.inf, max_states=max_states_per_deal).outcome == "solved":
            return seed
    within = "" if max_states_per_deal is None else f" within {max_states_per_deal:,} positions each"
    raise PatienceError(f"no deal from seed {start} to {start + max_tries - 1} was won{within}")
