"""The portfolio's schedule (``solver/portfolio.py``), with made-up searches: when a run joins and leaves, and what
its outcome says of the real game.
"""

from __future__ import annotations

from collections.abc import Generator

from patiencelab.solver.portfolio import Outcome, Run, finish, interleave, says


class Scripted:
    """A made-up search: ``slices`` slices of 512 positions each, then ``outcome``."""

    def __init__(self, slices: int, outcome: Outcome) -> None:
        self.slices = slices
        self.outcome = outcome
        self.states = 0

    def steps(self) -> Generator[None, None, Outcome]:
        """Pause after every 512 positions; return the outcome."""
        for _ in range(self.slices):
            self.states += 512
            yield
        return self.outcome


def verdict(runs: list[Run], max_states: int | None = None) -> tuple[Outcome, Run | None]:
    """Run :func:`interleave` to its end."""
    return finish(interleave(runs, max_states))


def test_what_a_runs_outcome_says_of_the_real_game() -> None:
    """An easier game's win and a harder game's impossibility say nothing; everything else is itself."""
    real, easier, harder = (
        Run(Scripted(1, "solved")),
        Run(Scripted(1, "solved"), easier=True),
        Run(Scripted(1, "solved"), harder=True),
    )
    assert [says(real, o) for o in ("solved", "impossible", "unknown")] == ["solved", "impossible", "unknown"]
    assert [says(easier, o) for o in ("solved", "impossible")] == [None, "impossible"]
    assert [says(harder, o) for o in ("solved", "impossible")] == ["solved", None]


def test_a_shared_search_ending_impossible_waits_for_the_other() -> None:
    """Two runs on one table: the first to end "impossible" proves nothing; the verdict comes when the other ends
    so too (and it names that one), or as soon as the other wins.
    """
    quick, slow = Run(Scripted(2, "impossible"), shares=True, name="quick"), Run(Scripted(9, "impossible"), shares=True)
    outcome, decider = verdict([quick, slow])
    assert (outcome, decider) == ("impossible", slow)
    assert slow.search.states == 9 * 512
    won = Run(Scripted(9, "solved"), shares=True)
    assert verdict([Run(Scripted(2, "impossible"), shares=True), won]) == ("solved", won)
    alone = Run(Scripted(2, "impossible"))  # a run that shares nothing decides alone
    assert verdict([alone, Run(Scripted(9, "impossible"))]) == ("impossible", alone)


def test_the_harder_game_joins_late_and_leaves_after_its_most() -> None:
    """A run with ``after`` starts once all runs together have searched that many positions; one with ``most``
    leaves undecided after that many of its own, and one that says nothing leaves at its end.
    """
    first = Scripted(40, "impossible")
    late = Scripted(100, "solved")
    verdict([Run(first), Run(late, harder=True, after=10 * 512, most=8 * 512)])
    assert first.states == 40 * 512
    assert late.states == 8 * 512  # joined after 10 slices of the first, left after 8 of its own
    first, late = Scripted(40, "impossible"), Scripted(3, "impossible")
    assert verdict([Run(first), Run(late, harder=True, after=512)]) == ("impossible", Run(first))
    assert late.states == 3 * 512
    first, late = Scripted(40, "impossible"), Scripted(3, "solved")
    outcome, decider = verdict([Run(first), Run(late, harder=True, after=5 * 512)])
    assert outcome == "solved" and decider is not None and decider.search is late
    assert first.states == (5 + 4) * 512  # joined after 5 slices; its 4th turn ends it, the first's 9th slice before


def test_the_budget_counts_every_run() -> None:
    """ "unknown" once all runs together reach ``max_states``."""
    one, two = Scripted(100, "impossible"), Scripted(100, "impossible")
    assert verdict([Run(one), Run(two)], max_states=20 * 512) == ("unknown", None)
    assert one.states + two.states == 20 * 512


def test_a_run_takes_its_grown_share_once_the_runs_have_searched_long() -> None:
    """A run with ``grown`` takes its ``slices`` in a round until the runs together have searched ``grow_after``
    positions, then ``grown`` slices a round (the easier game that a long search has not won).
    """
    real, easier = Scripted(100, "impossible"), Scripted(100, "impossible")
    runs = [Run(real), Run(easier, 2, easier=True, grow_after=12 * 512, grown=5)]
    assert verdict(runs, max_states=30 * 512) == ("unknown", None)
    # four rounds of 1 and 2 slices (12 slices together), then rounds of 1 and 5 until 30 slices together
    assert (real.states, easier.states) == (7 * 512, 23 * 512)
    real, easier = Scripted(100, "impossible"), Scripted(100, "impossible")
    assert verdict([Run(real), Run(easier, 2, easier=True)], max_states=30 * 512) == ("unknown", None)
    assert (real.states, easier.states) == (10 * 512, 20 * 512)


def test_a_grown_run_takes_its_last_share_after_its_most() -> None:
    """With ``grown_most``, a grown run takes its ``last`` slices a round once it has searched that many positions
    of its own (an easier game as large as the hardest draw-1 deals leaves the real game an equal share).
    """
    real, easier = Scripted(100, "impossible"), Scripted(100, "impossible")
    runs = [Run(real), Run(easier, 2, easier=True, grow_after=12 * 512, grown=5, grown_most=18 * 512, last=1)]
    assert verdict(runs, max_states=40 * 512) == ("unknown", None)
    # four rounds of 1 and 2 slices (12 together), two of 1 and 5 (easier at 18), then of 1 and 1 until 40
    assert (real.states, easier.states) == (14 * 512, 26 * 512)
