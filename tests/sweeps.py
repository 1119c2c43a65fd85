"""The sizes of the test suite's sweeps, in one table: a fixed sample in ``make test``, the whole sweep in ``make
soak``.

One switch chooses: ``pytest --soak`` (``--soak-seed N``: another set of the seeded sweeps), which
``tests/conftest.py`` turns into the environment variable :data:`SWITCH` before any test module loads, so that the
processes the tests start see it too; ``PATIENCELAB_SOAK=N pytest`` (N the seed) is the same. A sweep reads its size
when its module loads (``from tests.sweeps import SCHEDULES``): each name of :data:`SIZES` and :data:`SEEDS` is read
here at that moment, from the switch as it is then.
"""

from __future__ import annotations

import os

#: The one switch: unset (or empty) for ``make test``'s sizes, else the seed of the seeded sweeps, with ``make
#: soak``'s sizes.
SWITCH = "PATIENCELAB_SOAK"
#: The seed of a soak run when ``--soak-seed`` names none.
SOAK_SEED = 1

#: Each sweep's size: ``make test``'s, then ``make soak``'s.
SIZES: dict[str, tuple[int, int]] = {
    # Positions the soundness harness checks against the plain reference search (tests/solver/test_soundness.py);
    # make test's pure pass checks 1,000 of them (PURE_SIZES): the same source as the compiled pass's 5,000.
    "SOUNDNESS_CASES": (5_000, 100_000),
    # The solver's budget a deal for the verdicts of seeds 0-199 (tests/solver/test_verdicts.py).
    "VERDICT_STATES": (20_000, 200_000),
    # Lost games of each rule set the review's sweep reviews whole (tests/test_review.py; 0: its fixed sample).
    "REVIEW_GAMES": (0, 40),
    # 1: issue 62's seed 66 is reviewed at the board's budgets too (60 CPU s), besides seed 15 (tests/test_coach.py).
    "COACH_BOTH": (0, 1),
    # Random bad calls through both builds (tests/test_arguments.py).
    "ARGUMENT_CASES": (300, 20_000),
    # Schedules of the board's background work against the player's hands (tests/test_session_schedules.py).
    "SCHEDULES": (300, 2_000),
    # Examples of each fuzz of the board's intents, 50 intents each (tests/test_intent_fuzz.py,
    # tests/test_session_intents.py, tests/test_indicator.py).
    "FUZZ_EXAMPLES": (50, 200),
    # 1: the layout walks walk every lesson step at every size in every language, and the real-Jupyter tests run in
    # every language and host they name (tests/browser/layout.py); 0: a sample, turning.
    "WALK_ALL": (0, 1),
}
#: ``make test``'s sizes in its pure pass (``PATIENCELAB_PURE=1``), where they differ.
PURE_SIZES = {"SOUNDNESS_CASES": 1_000}
#: Each seeded sweep's seed in ``make test`` (a soak run takes its own).
SEEDS = {"SOUNDNESS_SEED": 0, "SCHEDULES_SEED": 1}


def soak_seed() -> int | None:
    """The seed of a soak run, or None in ``make test``."""
    value = os.environ.get(SWITCH, "").strip()
    return int(value) if value else None


def size(name: str) -> int:
    """The size (or seed) ``name`` of :data:`SIZES` (or :data:`SEEDS`) as the switch stands now."""
    seed = soak_seed()
    if name in SEEDS:
        return SEEDS[name] if seed is None else seed
    test, soak = SIZES[name]
    if seed is not None:
        return soak
    return PURE_SIZES.get(name, test) if os.environ.get("PATIENCELAB_PURE") == "1" else test


def __getattr__(name: str) -> int:
    if name in SIZES or name in SEEDS:
        return size(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
