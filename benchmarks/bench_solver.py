"""Solver benchmark: share of seeded deals won and decided, CPU per deal, beside pyksolve when installed.

Run: ``nice python benchmarks/bench_solver.py --deals 500 --draw 3 --cpu 60 --workers 2``: every deal solved in a
pool of worker processes (``--workers 0``: in this process; ``--dask ADDRESS``: on a Dask cluster, through the
survey machinery's ``workers.run_jobs``), each deal stopped after ``--cpu`` seconds of its worker's CPU time (not
wall time: the count does not depend on how busy the machine is), with a progress bar. It prints the share of
deals won (of those decided, with its Wilson 95% interval), the undecided deals by seed, which search decided, and
CPU seconds per deal (median, 95th percentile, worst). Seeds take turns across the draw counts (seed 0 with each
draw, then seed 1, ...), so a run stopped part-way holds both draws on the same seeds. ``--out FILE`` appends
each deal to FILE (one JSON object a line) as it finishes; ``--resume`` goes on with such a file, solving only
the deals not in it, and reports them all: ``nice -n 10 python benchmarks/bench_solver.py --deals 10000 --cpu 10
--workers 2 --out survey.jsonl --resume`` can be stopped and started again.

``--peer`` runs the older table instead: ``--deals 200 --draw 1 --seconds 60 --peer``. Each deal is solved
once with the largest budget and the decision time is read against the smaller ones. ``--solvitaire PATH`` sets
Solvitaire (Blake & Gent's C++ solver, built apart: it is no dependency of this project) beside this solver in that
table, both timed in CPU seconds (Solvitaire: its own process's), with the positions per CPU second of each, and
lists the deals where the two verdicts differ (the exit status is 1 then: one of them is wrong). ``--write-verdicts
FILE`` keeps Solvitaire's verdicts (``tests/solver/solvitaire_verdicts.json`` is such a file, seeds 10,000-10,099
within 60 s: ``--first 10000 --deals 100 --seconds 60 --solvitaire PATH --write-verdicts FILE``). Solvitaire counts
every node it visits, this solver each position once; ``PATIENCELAB_PURE=1 python benchmarks/bench_solver.py --nodes
--first 10098 --deals 1 --max-states 200000`` counts the moves this solver tries and plays a position, to set the two
side by side, and the positions searched under a duty to cover a card. ``--deals 10000 --cpu 300 --again SURVEY --out
FILE`` solves again only the deals an earlier survey's file proved impossible with a search of draw 1 and unlimited
passes, and lists those that are no longer impossible. ``--laid --first 2905 --deals 1 --draw 1
--max-states 40000000`` runs the usual order's search alone with the one duty of before (``Node.laid`` off: it lost
some wins, so its "impossible" is no proof) and as the portfolio runs it (duties of talon cards kept apart), side by
side. ``--alone --first 2905 --deals 1 --draw 3 --max-states 40000000`` runs each search of the portfolio alone to its
end (the real game's two orders together, the easier game, the harder game): what each would cost, for the race
between them that the portfolio's schedule settles.

With ``--seconds 10 --then 60`` each deal is solved with 10 s and only the deals undecided then are solved again,
from the start, with 60 s (the search is deterministic, so that run repeats the first 10 s and goes on: the same as
one 60 s run, for less time on the decided deals).

``--compare-pure`` measures positions per CPU second instead, compiled and pure side by side: the same searches
(seeds 0-29 by default, draw 1 and 3, 20,000 positions each) in fresh processes, one with ``PATIENCELAB_PURE=1``,
taking turns, best of ``--repeat``; it checks that both searched the same positions. ``--compare-with SRC`` does the
same for this checkout against another one's ``src/`` folder, both compiled (a "before": ``git worktree add`` the
older commit and install it with ``pip install -e`` into a virtual environment of its own, which compiles it in
place; the benchmark then runs it with this environment's Python, through ``PYTHONPATH``).
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import pathlib
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field

from patiencelab import Klondike, Rules
from patiencelab.core.position import seeded_deal
from patiencelab.interop import to_deal_string
from patiencelab.solver import solve
from patiencelab.stats import wilson

BUDGETS = (1.0, 10.0, 60.0)


@dataclass(frozen=True, slots=True)
class Run:
    """One deal's result: outcome and seconds."""

    seed: int
    outcome: str
    seconds: float
    states: int = 0  # positions searched, each counted once (Solvitaire: its unique states)
    nodes: int = 0  # Solvitaire's states searched: every node visited, its cache's hits and its forced moves too

    @property
    def decided(self) -> bool:
        """Solved or proved impossible."""
        return self.outcome in ("solved", "impossible")


def run_ours(seed: int, draw: int, seconds: float) -> Run:
    """Solve one seeded deal with PatienceLab's solver."""
    solution = solve(Klondike(seed=seed, rules=Rules(draw=draw)), seconds=seconds)
    return Run(seed, solution.outcome, solution.seconds, solution.states)


def run_peer(seed: int, draw: int) -> Run | None:
    """Solve one seeded deal with pyksolve's ``solve_fast`` (5M states), or ``None`` without pyksolve."""
    try:
        from pyksolve import solver
    except ImportError:
        return None
    game = solver.Solitaire()
    game.draw_count = draw
    game.load_solitaire(to_deal_string(seeded_deal(seed), "klondike-solver"))
    game.reset_game()
    t0 = time.perf_counter()
    result = game.solve_fast()
    seconds = time.perf_counter() - t0
    name = str(result).rsplit(".", 1)[-1]
    outcome = {"SolvedMinimal": "solved", "SolvedMayNotBeMinimal": "solved", "Impossible": "impossible"}
    return Run(seed, outcome.get(name, "unknown"), seconds)


#: Solvitaire's game type for each draw count (its Klondike: unlimited passes, foundation cards may come back, only
#: Kings on empty columns, as the standard rules).
SOLVITAIRE_TYPES = {1: "klondike-deal-1", 3: "klondike"}


def run_solvitaire(program: str, seed: int, draw: int, seconds: float) -> Run:
    """Solve one seeded deal with the Solvitaire program at ``program`` (its ``--timeout`` is ``seconds`` of wall
    time); ``Run.seconds`` is the CPU time of its process, ``Run.states`` its unique states (a position counted once,
    as this solver counts), ``Run.nodes`` its states searched (every node its search visits, revisits included).
    """
    with tempfile.NamedTemporaryFile("w", suffix=".json") as deal:
        deal.write(to_deal_string(seeded_deal(seed), "solvitaire"))
        deal.flush()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(
            [program, "--type", SOLVITAIRE_TYPES[draw], "--classify", "--timeout", str(int(seconds * 1000)), deal.name],
            capture_output=True,
            text=True,
            check=False,
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    # one line: ", verdict, milliseconds, states searched, unique states, ..., verdict"
    fields = [f.strip() for f in done.stdout.strip().split(",")]
    if done.returncode != 0 or len(fields) < 5:
        raise SystemExit(f"Solvitaire failed on seed {seed} (draw {draw}): {done.stdout or done.stderr}")
    outcome = {"solved": "solved", "unsolvable": "impossible"}.get(fields[1], "unknown")
    return Run(seed, outcome, cpu, int(fields[4]), int(fields[3]))


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal of the survey: its verdict, which search gave it, the positions and the CPU seconds it took, and the
    positions of each search of the portfolio (``Solution.searched``; none when undecided).
    """

    seed: int
    draw: int
    outcome: str
    decided_by: str
    states: int
    cpu: float
    searched: dict[str, int] = field(default_factory=dict)


def solve_deal(seed: int, draw: int, cpu_seconds: float) -> Deal:
    """Solve one seeded deal, stopped after ``cpu_seconds`` of this process's CPU time (between two slices)."""
    from patiencelab.solver import solve_in_slices

    t0 = time.process_time()
    steps = solve_in_slices(Klondike(seed=seed, rules=Rules(draw=draw)), seconds=1e9)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            found = done.value
            cpu = time.process_time() - t0
            return Deal(seed, draw, found.outcome, found.decided_by, found.states, cpu, dict(found.searched))
        if time.process_time() - t0 > cpu_seconds:
            steps.close()
            return Deal(seed, draw, "unknown", "", 0, time.process_time() - t0)


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (0-100) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def progress(done: int, total: int, undecided: int, width: int = 40) -> None:
    """Draw a progress bar on standard error."""
    filled = width * done // total
    bar = "#" * filled + "." * (width - filled)
    sys.stderr.write(f"\r[{bar}] {done}/{total} deals, {undecided} undecided")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def load_deals(path: pathlib.Path) -> list[Deal]:
    """The deals already written to ``path`` by an earlier survey (one JSON object a line; none if no file)."""
    if not path.exists():
        return []
    return [Deal(**json.loads(line)) for line in path.read_text().splitlines() if line.strip()]


def survey(
    seeds: range,
    draws: list[int],
    cpu_seconds: float,
    workers: int,
    dask: str | None,
    out: pathlib.Path | None = None,
    only: set[tuple[int, int]] | None = None,
) -> list[Deal]:
    """Solve every seed with every draw count on a local pool, a Dask cluster or in this process (with ``only``,
    those ``(seed, draw)`` of them). With ``out``, each deal is appended to that file as it finishes, and deals
    already there (with this CPU cap) are not solved again: a survey stopped half-way goes on where it stopped.
    """
    wanted = {(seed, draw) for draw in draws for seed in seeds if only is None or (seed, draw) in only}
    deals = [d for d in load_deals(out) if (d.seed, d.draw) in wanted] if out is not None else []
    done = {(d.seed, d.draw) for d in deals}
    jobs = [(seed, draw, cpu_seconds) for seed in seeds for draw in draws if (seed, draw) in wanted - done]
    total = len(deals) + len(jobs)
    undecided = sum(d.outcome == "unknown" for d in deals)
    sink = out.open("a") if out is not None else None

    def keep(deal: Deal) -> None:
        nonlocal undecided
        deals.append(deal)
        if sink is not None:
            sink.write(json.dumps(asdict(deal)) + "\n")
            sink.flush()
        undecided += deal.outcome == "unknown"
        progress(len(deals), total, undecided)

    try:
        if dask is not None:
            from distributed import Client  # an optional dependency: only for --dask

            from patiencelab.workers import run_jobs

            with Client(dask) as client:  # type: ignore[no-untyped-call]
                run_jobs(client.get_executor(), solve_deal, jobs, keep)
        elif workers > 0:
            from patiencelab.workers import process_pool, run_jobs, stop_pool

            pool = process_pool(workers)
            try:
                run_jobs(pool, solve_deal, jobs, keep)
            finally:
                stop_pool(pool)
        else:
            for job in jobs:
                keep(solve_deal(*job))
    finally:
        if sink is not None:
            sink.close()
    return sorted(deals, key=lambda d: (d.draw, d.seed))


def _proved_by_draw_1(deal: Deal) -> bool:
    """True when a survey proved ``deal`` impossible with a search of draw 1 and unlimited passes: the real game of a
    draw-1 deal, the easier game of a draw-3 one (the searches whose duties of talon cards changed, see --again).
    """
    return deal.outcome == "impossible" and deal.decided_by == ("usual order" if deal.draw == 1 else "easier game")


def report(deals: list[Deal], cpu_seconds: float) -> list[str]:
    """Markdown lines: per draw count, the share won with its interval, the undecided seeds, CPU per deal."""
    lines = [
        "| draw | deals | won | lost | undecided | won of decided (Wilson 95%) | CPU s per deal: median / p95 / worst "
        "| decided by |",
        "|---|---:|---:|---:|---:|---|---|---|",
    ]
    undecided_lines = []
    for draw in sorted({d.draw for d in deals}):
        mine = [d for d in deals if d.draw == draw]
        won = sum(d.outcome == "solved" for d in mine)
        lost = sum(d.outcome == "impossible" for d in mine)
        left = [d.seed for d in mine if d.outcome == "unknown"]
        interval = wilson(won, won + lost)  # the package's: clamped to 0-1 at the ends
        low, high = interval.low, interval.high
        cpu = [d.cpu for d in mine]
        by = Counter(d.decided_by for d in mine if d.decided_by)
        share = f"{100 * won / max(1, won + lost):.2f}% ({100 * low:.2f}-{100 * high:.2f})"
        times = f"{statistics.median(cpu):.4f} / {percentile(cpu, 95):.3f} / {max(cpu):.2f}"
        decided = ", ".join(f"{name} {count}" for name, count in by.most_common())
        lines.append(f"| {draw} | {len(mine)} | {won} | {lost} | {len(left)} | {share} | {times} | {decided} |")
        undecided_lines.append(f"draw {draw}, undecided within {cpu_seconds:g} CPU s: {left or 'none'}")
    return [*lines, "", *undecided_lines]


def positions_per_cpu_second(seeds: range, max_states: int) -> dict[str, object]:
    """Search every seed with draw 1 and 3 (``max_states`` each); the positions, their CPU seconds, the modules."""
    import patiencelab

    states = []
    t0 = time.process_time()
    for seed in seeds:
        for draw in (1, 3):
            found = solve(Klondike(seed=seed, rules=Rules(draw=draw)), seconds=1e9, max_states=max_states)
            states.append((found.outcome, found.states))
    cpu = time.process_time() - t0
    return {"states": states, "cpu": cpu, "compiled": len(patiencelab.COMPILED)}


def count_nodes(deals: list[tuple[int, int]], max_states: int) -> int:
    """For each ``(seed, draw)``, the usual order's search within ``max_states`` positions, with the nodes it visits
    in Solvitaire's sense counted: the moves it tries (each a child looked up in the table of positions seen, as
    Solvitaire looks its children up in its cache) and the moves it plays (safe moves among them); and the share of
    positions searched under a duty to cover a card (``movegen.must_cover``), the share of those with no move, and
    the cards brought back from a foundation, a position. Counted by wrapping functions, so only in a pure run
    (``PATIENCELAB_PURE=1``); prints a table, per position searched.
    """
    import math

    import patiencelab
    from patiencelab.solver import movegen
    from patiencelab.solver import search as searching
    from patiencelab.solver.node import F2T, Node
    from patiencelab.solver.search import _Search

    if patiencelab.COMPILED:
        raise SystemExit("--nodes counts in pure Python only: run it with PATIENCELAB_PURE=1")
    counts = Counter[str]()
    key_after, apply, generate_codes = Node.key_after, Node.apply, movegen.generate_codes

    def tried(node: Node, move: tuple[int, int, int, int]) -> int | None:
        counts["tried"] += 1
        return key_after(node, move)

    def played(node: Node, move: tuple[int, int, int, int]) -> int:
        counts["played"] += 1
        counts["back"] += move[0] == F2T
        return apply(node, move)

    def generated(st: Node, onto: int = -1) -> list[int]:
        moves = generate_codes(st, onto)
        if onto >= 0:
            counts["duty"] += 1
            counts["stuck"] += not moves
        return moves

    Node.key_after, Node.apply = tried, played  # type: ignore[method-assign, assignment]
    searching.generate_codes = generated  # type: ignore[attr-defined]  # the search's name for it (from movegen)
    print(
        "| draw | seed | outcome | positions | moves tried a position | moves played a position | positions under a"
        " duty | of them with no move | cards back from a foundation a position |"
    )
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|")
    try:
        for seed, draw in deals:
            counts.clear()
            search = _Search(Node.of(Klondike(seed=seed, rules=Rules(draw=draw))), math.inf, max_states)
            outcome = search.run()
            n, duty = search.states, counts["duty"]
            print(
                f"| {draw} | {seed} | {outcome} | {n:,} | {counts['tried'] / n:.2f} | {counts['played'] / n:.2f} "
                f"| {duty / n:.0%} | {counts['stuck'] / max(duty, 1):.0%} | {counts['back'] / n:.2f} |"
            )
    finally:
        Node.key_after, Node.apply = key_after, apply  # type: ignore[method-assign]
        searching.generate_codes = generate_codes  # type: ignore[attr-defined]
    return 0


def laid_apart(deals: list[tuple[int, int]], max_states: int) -> int:
    """For each ``(seed, draw)``, the usual order's search alone (its own table, no portfolio) within ``max_states``
    positions with the one duty of before (``Node.laid`` off) and as the portfolio runs it, side by side, taking
    turns: outcome, positions and CPU seconds of each. Prints a table.
    """
    import math

    from patiencelab.solver.node import Node
    from patiencelab.solver.search import _Search

    print("| draw | seed | one duty: outcome | positions | CPU s | laid apart: outcome | positions | CPU s |")
    print("|---|---:|---|---:|---:|---|---:|---:|")
    for seed, draw in deals:
        cells = []
        for laid in (False, True):
            start = Node.of(Klondike(seed=seed, rules=Rules(draw=draw)))
            start.laid = laid
            search = _Search(start, math.inf, max_states)
            t0 = time.process_time()
            outcome = search.run()
            cells.append(f"{outcome} | {search.states:,} | {time.process_time() - t0:.1f}")
        print(f"| {draw} | {seed} | {' | '.join(cells)} |", flush=True)
    return 0


def alone(deals: list[tuple[int, int]], max_states: int) -> int:
    """For each ``(seed, draw)``, each search of ``solve``'s portfolio run alone to its end within ``max_states``
    positions, one after the other: the real game (the usual order and the talon-first order, sharing their table),
    the easier game (draw 1, unlimited passes) and the harder game (cards home first, without its limit), each
    outcome as its own game's (a win of the easier game, the harder game's impossibility): outcome,
    positions and CPU seconds of each. Prints a table: what a deal's race between the searches costs each of them, to
    set beside the portfolio's own run (``--verbose``).
    """
    import dataclasses
    import math

    from patiencelab.solver.node import Node
    from patiencelab.solver.portfolio import finish, interleave
    from patiencelab.solver.search import _portfolio

    print(
        "| draw | seed | real game: outcome | positions | CPU s | easier game | positions | CPU s | harder game "
        "| positions | CPU s |"
    )
    print("|---|---:|---|---:|---:|---|---:|---:|---|---:|---:|")
    for seed, draw in deals:
        rules = Rules(draw=draw)
        runs = _portfolio(Node.of(Klondike(seed=seed, rules=rules)), rules, math.inf, max_states)
        # each as a search of its own game, its outcome told as it is, and with no limit of positions of its own
        alone = [dataclasses.replace(run, easier=False, harder=False, most=0) for run in runs]
        groups = [
            [run for run in runs if run.shares],
            [run for run, was in zip(alone, runs) if was.easier],
            [run for run, was in zip(alone, runs) if was.harder],
        ]
        cells = []
        for group in groups:
            if not group:
                cells.append("(the real game) | | ")  # no easier game: the rules are that game
                continue
            t0 = time.process_time()
            outcome = finish(interleave(group, max_states))[0]
            states = sum(run.search.states for run in group)
            cells.append(f"{outcome} | {states:,} | {time.process_time() - t0:.1f}")
        print(f"| {draw} | {seed} | {' | '.join(cells)} |", flush=True)
    return 0


def compare(variants: dict[str, dict[str, str]], seeds: range, max_states: int, repeat: int) -> int:
    """Print positions per CPU second of each variant (a name and the environment of its processes: the pure
    modules, or another checkout's sources on ``PYTHONPATH``), side by side, and each one's ratio to the first.
    """
    # The source of positions_per_cpu_second, run as it is in each variant's process: it needs nothing of this
    # checkout but the public Klondike, Rules and solve, so an older checkout (a "before") runs it too.
    code = (
        f"{inspect.getsource(positions_per_cpu_second)}\n"
        f"print(json.dumps(positions_per_cpu_second(range({seeds.start}, {seeds.stop}), {max_states})))"
    )
    prelude = "import json, time\nfrom patiencelab import Klondike, Rules\nfrom patiencelab.solver import solve\n"
    runs: dict[str, list[dict[str, object]]] = {name: [] for name in variants}
    for _ in range(repeat):
        for name, extra in variants.items():  # taking turns, so that a busier minute falls on both
            env = {**os.environ, **extra}
            done = subprocess.run(
                [sys.executable, "-c", prelude + code], env=env, capture_output=True, text=True, check=True
            )
            runs[name].append(json.loads(done.stdout))
    best = {name: min(each, key=lambda run: float(run["cpu"])) for name, each in runs.items()}  # type: ignore[arg-type]
    first = best[next(iter(variants))]
    print(f"seeds {seeds.start}-{seeds.stop - 1}, draw 1 and 3, {max_states:,} positions each, best of {repeat}")
    print(
        "| modules | positions | CPU s | positions per CPU s | median of the runs | CPU against the first |\n"
        "|---|---:|---:|---:|---:|---:|"
    )
    for name, run in best.items():
        total = sum(n for _, n in run["states"])  # type: ignore[attr-defined]  # each side its own positions
        cpu = float(run["cpu"])  # type: ignore[arg-type]
        ratio = cpu / float(first["cpu"])  # type: ignore[arg-type]
        median = total / statistics.median(float(r["cpu"]) for r in runs[name])  # type: ignore[arg-type]
        print(
            f"| {name} ({run['compiled']} compiled) | {total:,} | {cpu:.2f} | {total / cpu:,.0f} | {median:,.0f} "
            f"| {ratio:.3f} |"
        )
    # A build of the first's sources (the pure one) searches its positions exactly; another checkout (a "before",
    # other sources on PYTHONPATH) may search other positions (other prunings) and so decide other deals within the
    # budget, but where both decided, the same.
    ok = True
    sources = variants[next(iter(variants))].get("PYTHONPATH")  # the first build's sources (None: this checkout's)
    for name, each in runs.items():
        if variants[name].get("PYTHONPATH") != sources:
            pairs = zip(first["states"], best[name]["states"])  # type: ignore[call-overload]
            both = [(a, b) for (a, _), (b, _) in pairs if "unknown" not in (a, b)]
            differ = sum(a != b for a, b in both)
            print(f"\n{name}: verdicts differ on {differ} of the {len(both)} searches both decided")
            ok = ok and not differ
        else:
            same = all(run["states"] == first["states"] for run in each)
            print(f"\n{name}: same positions searched and verdicts as compiled: {'yes' if same else 'NO'}")
            ok = ok and same
    return 0 if ok else 1


def summary(runs: list[Run], budgets: tuple[float, ...]) -> list[str]:
    """Cells: decided within each budget, solved / impossible, median and worst seconds per decided deal, positions
    per second (all deals; with the nodes per second where counted).
    """
    n = len(runs)
    cells = [f"{sum(r.decided and r.seconds <= b for r in runs)}/{n}" for b in budgets]
    decided = [r.seconds for r in runs if r.decided]
    solved = sum(r.outcome == "solved" for r in runs)
    impossible = sum(r.outcome == "impossible" for r in runs)
    median = statistics.median(decided) if decided else float("nan")
    worst = max(decided, default=float("nan"))
    seconds = sum(r.seconds for r in runs)
    rate = f"{sum(r.states for r in runs) / seconds:,.0f}" if seconds and any(r.states for r in runs) else ""
    if seconds and any(r.nodes for r in runs):
        rate += f" ({sum(r.nodes for r in runs) / seconds:,.0f} nodes)"
    return [*cells, f"{solved} / {impossible}", f"{median:.3f}", f"{worst:.3f}", rate]


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a markdown table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, help="seeds 0..N-1 (default 200, 30 with --compare-pure)")
    parser.add_argument("--first", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--draw", type=int, choices=(1, 3), action="append", help="draw count (default 1 and 3)")
    parser.add_argument("--seconds", type=float, default=60.0, help="largest budget per deal (default 60)")
    parser.add_argument("--then", type=float, help="solve again with this budget the deals undecided in --seconds")
    parser.add_argument("--peer", action="store_true", help="the older table, with pyksolve solve_fast when installed")
    parser.add_argument("--solvitaire", metavar="PATH", help="the older table, beside the Solvitaire program at PATH")
    parser.add_argument("--write-verdicts", metavar="FILE", help="with --solvitaire: write its verdicts to FILE")
    parser.add_argument("--nodes", action="store_true", help="moves tried and played a position (pure runs)")
    parser.add_argument("--laid", action="store_true", help="the usual order alone, duties as before and laid apart")
    parser.add_argument("--alone", action="store_true", help="each search of the portfolio alone: a deal's race")
    parser.add_argument("--cpu", type=float, default=60.0, help="CPU seconds per deal in the survey (default 60)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes for the survey (0: this one)")
    parser.add_argument("--dask", metavar="ADDRESS", help="run the survey on this Dask scheduler")
    parser.add_argument("--out", metavar="FILE", help="survey: append each deal to FILE (JSON lines) as it finishes")
    parser.add_argument("--resume", action="store_true", help="survey: skip the deals already in --out")
    parser.add_argument(
        "--again",
        metavar="SURVEY",
        help="survey only the deals SURVEY (an --out file) proved impossible"
        " with draw 1 and unlimited passes, and list those no longer impossible",
    )
    parser.add_argument("--verbose", action="store_true", help="print every deal")
    parser.add_argument("--compare-pure", action="store_true", help="positions per CPU s, compiled and pure")
    parser.add_argument(
        "--compare-with",
        metavar="SRC",
        help="positions per CPU s, this checkout against another one's src/ folder (a 'before', built with make setup)",
    )
    parser.add_argument("--max-states", type=int, default=20_000, help="positions per search for --compare-pure")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each for --compare-pure (the best counts)")
    args = parser.parse_args(argv)
    if args.nodes or args.laid or args.alone:
        seeds = range(args.first, args.first + (args.deals or 1))
        pairs = [(seed, draw) for draw in args.draw or [1, 3] for seed in seeds]
        return (count_nodes if args.nodes else laid_apart if args.laid else alone)(pairs, args.max_states)
    if args.compare_pure or args.compare_with:
        here = {"PYTHONPATH": str(pathlib.Path(__file__).resolve().parent.parent / "src")}
        variants = {"compiled": {**here, "PATIENCELAB_PURE": "0"}}
        if args.compare_pure:
            variants["pure"] = {**here, "PATIENCELAB_PURE": "1"}
        if args.compare_with:
            variants[f"other: {args.compare_with}"] = {"PYTHONPATH": args.compare_with, "PATIENCELAB_PURE": "0"}
        return compare(variants, range(args.first, args.first + (args.deals or 30)), args.max_states, args.repeat)
    if args.solvitaire:
        return against_solvitaire(args.solvitaire, args, budgets_to(args.seconds))
    if not args.peer:
        seeds = range(args.first, args.first + (args.deals or 200))
        out = pathlib.Path(args.out) if args.out else None
        if out is not None and out.exists() and not args.resume:
            parser.error(f"{out} exists: give --resume to go on with it, or another file")
        before = {(d.seed, d.draw): d for d in load_deals(pathlib.Path(args.again))} if args.again else {}
        only = {key for key, d in before.items() if _proved_by_draw_1(d)} if args.again else None
        deals = survey(seeds, args.draw or [1, 3], args.cpu, args.workers, args.dask, out, only)
        if args.again:
            changed = [d for d in deals if d.outcome != "impossible"]
            for d in changed:
                print(f"draw {d.draw} seed {d.seed}: {d.outcome} now, impossible in {args.again}")
            states = sum(before[d.seed, d.draw].states for d in deals), sum(d.states for d in deals)
            print(
                f"{len(deals)} deals solved again, {len(changed)} changed; positions {states[0]:,}, now {states[1]:,}"
            )
        if args.verbose:
            for d in deals:
                runs = "".join(f", {name} {states:,}" for name, states in d.searched.items())
                verdict = f"{d.outcome} {d.decided_by} {d.states} positions {d.cpu:.3f} CPU s"
                print(f"draw {d.draw} seed {d.seed}: {verdict}{runs}")
        print(f"seeds {seeds.start}-{seeds.stop - 1}, at most {args.cpu:g} CPU s a deal")
        print("\n".join(report(deals, args.cpu)))
        return 0
    top = max(args.seconds, args.then or 0.0)
    budgets = budgets_to(top, args.seconds)
    seeds = range(args.first, args.first + (args.deals or 200))
    head = ["solver", "draw", *[f"decided ≤ {b:g} s" for b in budgets], "solved / impossible", "median s", "worst s"]
    head.append("positions per s")
    rows: list[list[str]] = []
    for draw in args.draw or [1, 3]:
        ours = []
        peer: list[Run] = []
        for seed in seeds:
            run = run_ours(seed, draw, args.seconds)
            if not run.decided and args.then:
                run = run_ours(seed, draw, args.then)
            ours.append(run)
            other = run_peer(seed, draw) if args.peer else None
            if other is not None:
                peer.append(other)
            if args.verbose:
                extra = f" | peer {other.outcome} {other.seconds:.3f}" if other else ""
                print(f"draw {draw} seed {seed}: {ours[-1].outcome} {ours[-1].seconds:.3f}{extra}", flush=True)
        rows.append(["patiencelab", str(draw), *summary(ours, budgets)])
        if peer:
            rows.append(["pyksolve solve_fast", str(draw), *summary(peer, budgets)])
            mine = [r.seconds for r in ours if r.decided]
            theirs = [r.seconds for r in peer if r.decided]
            if mine and theirs:
                ratio = statistics.median(mine) / statistics.median(theirs)
                rows.append(["ratio (ours / peer median)", str(draw), *[""] * (len(budgets) + 1), f"{ratio:.3g}"])
    print_table(head, rows)
    return 0


def budgets_to(top: float, *more: float) -> tuple[float, ...]:
    """The budgets of the peer tables: :data:`BUDGETS` under ``top``, ``top`` and ``more``."""
    return tuple(sorted({*(b for b in BUDGETS if b < top), top, *more}))


def print_table(head: list[str], rows: list[list[str]]) -> None:
    """Print a markdown table."""
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for row in rows:
        print("| " + " | ".join(row) + " |")


def against_solvitaire(program: str, args: argparse.Namespace, budgets: tuple[float, ...]) -> int:
    """This solver and Solvitaire on the same deals, each within ``args.seconds`` of CPU (Solvitaire: of wall time,
    read in CPU); prints the table and the deals whose verdicts differ (exit status 1 if any).
    """
    seeds = range(args.first, args.first + (args.deals or 100))
    head = ["solver", "draw", *[f"decided ≤ {b:g} CPU s" for b in budgets], "solved / impossible"]
    head += ["median CPU s", "worst CPU s", "positions per CPU s (Solvitaire: unique states; nodes visited)"]
    rows: list[list[str]] = []
    differ: list[str] = []
    kept: list[dict[str, object]] = []
    for draw in args.draw or [1, 3]:
        ours: list[Run] = []
        theirs: list[Run] = []
        for seed in seeds:
            deal = solve_deal(seed, draw, args.seconds)
            ours.append(Run(seed, deal.outcome, deal.cpu, deal.states))
            theirs.append(run_solvitaire(program, seed, draw, args.seconds))
            a, b = ours[-1], theirs[-1]
            if a.decided and b.decided and a.outcome != b.outcome:
                differ.append(f"draw {draw} seed {seed}: patiencelab {a.outcome}, Solvitaire {b.outcome}")
            kept.append({"seed": seed, "draw": draw, "outcome": b.outcome})
            if args.verbose:
                print(f"draw {draw} seed {seed}: {a.outcome} {a.seconds:.3f} | Solvitaire {b.outcome} {b.seconds:.3f}")
        rows.append(["patiencelab", str(draw), *summary(ours, budgets)])
        rows.append(["Solvitaire", str(draw), *summary(theirs, budgets)])
    print(f"seeds {seeds.start}-{seeds.stop - 1}, standard rules, at most {args.seconds:g} s a deal")
    print_table(head, rows)
    print("verdicts that differ: " + ("; ".join(differ) if differ else "none"))
    if args.write_verdicts:
        about = f"Solvitaire's verdicts within {args.seconds:g} s a deal (benchmarks/bench_solver.py --solvitaire)"
        text = json.dumps({"about": about, "deals": kept}, indent=1)
        pathlib.Path(args.write_verdicts).write_text(text + "\n", encoding="utf-8")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
