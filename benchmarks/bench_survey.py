"""Survey throughput: deals per hour per core, and the speed-up with 1 and 2 local workers and on a Dask
``LocalCluster`` of 2 workers, with a state budget per deal so that every way gives the same rows.

Run: ``python benchmarks/bench_survey.py --deals 100 --max-states 20000`` (the Dask row only when
``distributed`` is installed). The rows of every run are compared with the first: a difference is reported and
the exit status is 1.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import Executor

from patiencelab.core.rules import Rules
from patiencelab.survey import Budget, SurveyResult, survey


def timed(run: Callable[[], SurveyResult]) -> tuple[SurveyResult, float]:
    """The result of ``run()`` and the wall-clock seconds it took."""
    start = time.perf_counter()
    result = run()
    return result, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    """Run the survey each way and print a markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=100, help="seeds 0..N-1 (default 100)")
    parser.add_argument("--draw", type=int, default=1, choices=(1, 3), help="draw count (default 1)")
    parser.add_argument("--max-states", type=int, default=20_000, help="state budget per deal (default 20000)")
    args = parser.parse_args(argv)
    rules, budget = Rules(draw=args.draw), Budget(seconds=None, max_states=args.max_states)

    def on(executor: Executor | None, workers: int | None = None) -> Callable[[], SurveyResult]:
        return lambda: survey(args.deals, rules, budget, executor, workers=workers, progress=False)

    runs: list[tuple[str, int, SurveyResult, float]] = []
    result, seconds = timed(on(None, 1))
    runs.append(("in this process", 1, result, seconds))
    result, seconds = timed(on(None, 2))
    runs.append(("local process pool", 2, result, seconds))
    if importlib.util.find_spec("distributed") is not None:
        import distributed

        with (
            distributed.LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
            ) as cluster,
            distributed.Client(cluster) as client,  # type: ignore[no-untyped-call]
        ):
            result, seconds = timed(on(client.get_executor()))
        runs.append(("Dask LocalCluster", 2, result, seconds))
    base_rows, base_seconds = runs[0][2].rows, runs[0][3]
    same = True
    print(f"{args.deals} deals, draw {args.draw}, {args.max_states:,} states per deal, {os.cpu_count()} cores\n")
    print("| executor | workers | seconds | deals per hour | deals per hour per worker | speed-up | same rows |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for name, workers, result, seconds in runs:
        rows_match = [(r.seed, r.outcome, r.moves, r.states) for r in result.rows] == [
            (r.seed, r.outcome, r.moves, r.states) for r in base_rows
        ]
        same = same and rows_match
        per_hour = args.deals / seconds * 3600
        print(
            f"| {name} | {workers} | {seconds:.1f} | {per_hour:,.0f} | {per_hour / workers:,.0f} | "
            f"{base_seconds / seconds:.2f} | {'yes' if rows_match else 'NO'} |"
        )
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
