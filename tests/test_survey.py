"""Surveys: rows, summaries and intervals, executors (in-process, process pool, Dask), files and resuming."""

from __future__ import annotations

import json
import pathlib
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from patiencelab.core.errors import PatienceError
from patiencelab.core.rules import Rules
from patiencelab.stats import wilson
from patiencelab.survey import (
    Budget,
    Row,
    Summary,
    SurveyFileError,
    SurveyInterruptedWarning,
    SurveyResult,
    solve_seed,
    summary_table,
    survey,
)

SEEDS = range(6)
RULES = Rules.preset("traditional", draw=3)  # at this budget: solved, impossible and unknown deals alike
BUDGET = Budget(seconds=None, max_states=3000)


def stable(result: SurveyResult) -> list[tuple[int, str, int, int]]:
    """The rows without their seconds (which differ run to run)."""
    return [(r.seed, r.outcome, r.moves, r.states) for r in result.rows]


@pytest.fixture(scope="module")
def reference() -> SurveyResult:
    return survey(SEEDS, RULES, BUDGET, workers=1, progress=False)


def interrupted_after(k: int, seeds: range = SEEDS) -> Iterator[int]:
    """Seeds that stop with Ctrl-C after ``k`` of them."""
    for i, seed in enumerate(seeds):
        if i == k:
            raise KeyboardInterrupt
        yield seed


# Intervals and summaries


@pytest.mark.parametrize(
    ("successes", "n", "low", "high"),
    [
        (0, 10, 0.0, 0.27753),
        (5, 10, 0.23659, 0.76341),
        (10, 10, 0.72246, 1.0),
        (81, 100, 0.72221, 0.87485),
        (1, 3, 0.06149, 0.79234),
    ],
)
def test_wilson_known_values(successes: int, n: int, low: float, high: float) -> None:
    i = wilson(successes, n)
    assert i.share == pytest.approx(successes / n)
    assert (i.low, i.high) == pytest.approx((low, high), abs=1e-5)


def test_wilson_agrees_with_the_textbook_formula() -> None:
    from statistics import NormalDist

    z = NormalDist().inv_cdf(0.975)
    for k, n in [(0, 1), (3, 7), (164, 200), (199, 200), (8194, 10000)]:
        p = k / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z / (1 + z * z / n) * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5
        i = wilson(k, n)
        assert (i.low, i.high) == pytest.approx((max(0.0, centre - half), min(1.0, centre + half)), abs=1e-9)


def test_wilson_edges() -> None:
    assert wilson(0, 0) == wilson(0, 0).__class__(0.0, 0.0, 1.0)
    with pytest.raises(PatienceError):
        wilson(4, 3)


def test_summary_counts_and_honest_winnable_range() -> None:
    rows = [Row(0, "solved", 100, 10, 0.1), Row(1, "solved", 90, 10, 0.3), Row(2, "impossible", 0, 50, 0.2)]
    rows += [Row(3, "unknown", 0, 99, 2.0)]
    s = Summary.of(rows)
    assert (s.deals, s.solved, s.impossible, s.unknown) == (4, 2, 1, 1)
    assert s.solved_share == wilson(2, 4)
    assert s.unknown_share == wilson(1, 4)
    assert s.winnable.share == 0.5
    assert s.winnable.low == wilson(2, 4).low
    assert s.winnable.high == wilson(3, 4).high
    assert s.solved_of_decided == wilson(2, 3)
    assert s.median_seconds == pytest.approx(0.25)
    assert s.mean_seconds == pytest.approx(0.65)
    assert s.total_seconds == pytest.approx(2.6)


def test_budget_checks() -> None:
    assert Budget.of(5) == Budget(seconds=5.0)
    assert str(Budget(seconds=10, max_states=2000)) == "10 s / 2,000 states per deal"
    with pytest.raises(PatienceError):
        Budget(None, None)
    with pytest.raises(PatienceError):
        Budget(-1.0)
    with pytest.raises(PatienceError):
        Budget(None, 0)
    with pytest.raises(PatienceError):
        Budget.of(True)


# Running


def test_rows_by_seed(reference: SurveyResult) -> None:
    assert reference.complete
    assert reference.seeds == tuple(SEEDS)
    outcomes = {r.outcome for r in reference.rows}
    assert outcomes == {"solved", "impossible", "unknown"}
    for r in reference.rows:
        assert (r.moves > 0) == (r.outcome == "solved")
        assert r.states > 0
        assert r.seconds >= 0
    again = solve_seed(5, json.dumps(RULES.to_json()), None, 3000)
    assert stable(reference)[5] == (again.seed, again.outcome, again.moves, again.states)
    assert reference.summary.deals == 6


def test_solve_seed_is_deterministic_under_a_state_budget() -> None:
    rules = json.dumps(RULES.to_json())
    a, b = solve_seed(4, rules, None, 2000), solve_seed(4, rules, None, 2000)
    assert (a.outcome, a.moves, a.states) == (b.outcome, b.moves, b.states)


def test_deals_as_number_iterable_and_repeats(reference: SurveyResult) -> None:
    by_number = survey(6, RULES, BUDGET, workers=1, progress=False)
    assert stable(by_number) == stable(reference)
    shuffled = survey(iter([5, 3, 3, 0, 1, 2, 4, 5]), RULES, BUDGET, workers=1, progress=False)
    assert stable(shuffled) == stable(reference)


def test_default_process_pool_gives_the_same_rows(reference: SurveyResult) -> None:
    pooled = survey(SEEDS, RULES, BUDGET, workers=2, progress=False)
    assert pooled.complete
    assert stable(pooled) == stable(reference)


def test_any_executor_gives_the_same_rows(reference: SurveyResult) -> None:
    with ThreadPoolExecutor(2) as pool:
        threaded = survey(SEEDS, RULES, BUDGET, pool, progress=False)
    assert stable(threaded) == stable(reference)


@pytest.mark.parametrize("processes", [False, True])
def test_dask_local_cluster_gives_the_same_rows(reference: SurveyResult, processes: bool) -> None:
    import distributed

    with (
        distributed.LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=1, threads_per_worker=1, processes=processes, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,  # type: ignore[no-untyped-call]
    ):
        result = survey(SEEDS, RULES, BUDGET, client.get_executor(), progress=False)
    assert result.complete
    assert stable(result) == stable(reference)


def test_bad_arguments() -> None:
    with pytest.raises(PatienceError, match="not both"):
        survey(2, RULES, BUDGET, ThreadPoolExecutor(1), workers=2)
    with pytest.raises(PatienceError):
        survey(2, "standard", BUDGET)  # type: ignore[arg-type]
    with pytest.raises(PatienceError):
        survey(["1"], RULES, BUDGET, workers=1, progress=False)  # type: ignore[list-item]
    with pytest.raises(PatienceError):
        survey(-1, RULES, BUDGET)


# Files, interruption and resuming


def test_save_load_round_trip(reference: SurveyResult, tmp_path: pathlib.Path) -> None:
    path = tmp_path / "s.jsonl"
    reference.save(path)
    loaded = SurveyResult.load(path)
    assert loaded.rules == RULES
    assert loaded.budget == BUDGET
    assert [r.to_json() for r in loaded.rows] == [r.to_json() for r in reference.rows]
    with pytest.raises(SurveyFileError, match="exists: a survey file is never written over"):
        reference.save(path)


def test_rows_are_written_as_they_finish(reference: SurveyResult, tmp_path: pathlib.Path) -> None:
    path = tmp_path / "s.jsonl"
    result = survey(SEEDS, RULES, BUDGET, workers=2, path=path, progress=False)
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["format"] == "patiencelab-survey"
    assert len(lines) == 1 + len(SEEDS)
    assert stable(SurveyResult.load(path)) == stable(reference) == stable(result)


@pytest.mark.parametrize("workers", [1, 2])
def test_interrupt_keeps_rows_and_resume_solves_only_the_rest(
    reference: SurveyResult, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    path = tmp_path / "s.jsonl"
    with pytest.warns(SurveyInterruptedWarning, match="resume=True"):
        partial = survey(interrupted_after(3), RULES, BUDGET, workers=workers, path=path, progress=False)
    assert not partial.complete
    assert set(partial.seeds) <= {0, 1, 2}
    if workers == 1:
        assert partial.seeds == (0, 1, 2)
    assert SurveyResult.load(path).seeds == partial.seeds

    module = sys.modules["patiencelab.survey"]  # not `import ... as`: the package may export survey() by that name

    solved: list[int] = []

    def spy(seed: int, rules_json: str, seconds: float | None, max_states: int | None) -> Row:
        solved.append(seed)
        return solve_seed(seed, rules_json, seconds, max_states)

    monkeypatch.setattr(module, "solve_seed", spy)
    resumed = survey(SEEDS, RULES, BUDGET, workers=1, path=path, resume=True, progress=False)
    assert resumed.complete
    assert sorted(solved) == sorted(set(SEEDS) - set(partial.seeds))
    assert stable(resumed) == stable(reference)
    assert stable(SurveyResult.load(path)) == stable(reference)


def test_existing_file_needs_resume(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "s.jsonl"
    survey(2, RULES, BUDGET, workers=1, path=path, progress=False)
    before = path.read_text()
    with pytest.raises(SurveyFileError, match="exists"):
        survey(3, RULES, BUDGET, workers=1, path=path, progress=False)
    assert path.read_text() == before


@pytest.mark.parametrize(
    ("rules", "budget", "match"),
    [
        (Rules.preset("standard", draw=3), BUDGET, "other rules"),
        (RULES, Budget(seconds=None, max_states=4000), "another budget"),
        (RULES, Budget(seconds=10, max_states=3000), "another budget"),
    ],
)
def test_a_file_of_other_rules_or_budget_is_refused(
    tmp_path: pathlib.Path, rules: Rules, budget: Budget, match: str
) -> None:
    path = tmp_path / "s.jsonl"
    survey(2, RULES, BUDGET, workers=1, path=path, progress=False)
    before = path.read_text()
    with pytest.raises(SurveyFileError, match=match):
        survey(3, rules, budget, workers=1, path=path, resume=True, progress=False)
    assert path.read_text() == before


def test_corrupt_line_names_its_number(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "s.jsonl"
    survey(3, RULES, BUDGET, workers=1, path=path, progress=False)
    lines = path.read_text().splitlines()
    lines[2] = lines[2][:20]
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(SurveyFileError, match="line 3"):
        SurveyResult.load(path)
    with pytest.raises(SurveyFileError, match="line 3"):
        survey(3, RULES, BUDGET, workers=1, path=path, resume=True, progress=False)
    path.write_text('{"format": "something else"}\n')
    with pytest.raises(SurveyFileError, match="line 1"):
        SurveyResult.load(path)
    lines[2] = json.dumps({"seed": 1, "outcome": "won", "moves": 0, "states": 1, "seconds": 0.1})
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(SurveyFileError, match=r"line 3.*outcome"):
        SurveyResult.load(path)


def test_resume_after_a_torn_last_line(reference: SurveyResult, tmp_path: pathlib.Path) -> None:
    path = tmp_path / "s.jsonl"
    survey(range(3), RULES, BUDGET, workers=1, path=path, progress=False)
    path.write_text(path.read_text().rstrip("\n"))
    resumed = survey(SEEDS, RULES, BUDGET, workers=1, path=path, resume=True, progress=False)
    assert stable(resumed) == stable(reference)
    assert stable(SurveyResult.load(path)) == stable(reference)


def test_resume_without_a_file_starts_one(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "new.jsonl"
    result = survey(2, RULES, BUDGET, workers=1, path=path, resume=True, progress=False)
    assert SurveyResult.load(path).seeds == result.seeds == (0, 1)


# Presentation


def test_markdown(reference: SurveyResult) -> None:
    text = reference.to_markdown()
    s = reference.summary
    assert "traditional, draw 3, 3 passes; 6 deals; budget 3,000 states per deal" in text
    assert f"| solved | {s.solved} |" in text
    assert f"| impossible | {s.impossible} |" in text
    assert f"| unknown | {s.unknown} |" in text
    assert "winnable:" in text
    table = summary_table([reference, reference])
    assert table.count("| traditional, draw 3, 3 passes | 6 |") == 2


def test_plot_returns_a_figure(reference: SurveyResult) -> None:
    import matplotlib  # noqa: F401 - the plot extra is part of the dev install
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    fig = reference.plot()
    assert isinstance(fig, Figure)
    bars, hist = fig.axes
    assert [round(p.get_height(), 6) for p in bars.patches if isinstance(p, Rectangle)] == [
        round(100 * i.share, 6)
        for i in (reference.summary.solved_share, reference.summary.impossible_share, reference.summary.unknown_share)
    ]
    assert hist.get_xlabel() == "seconds per decided deal"
