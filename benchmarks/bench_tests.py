"""Where the test suite's time goes: each test file's total from the JUnit XML that ``make test`` writes.

Run: ``python benchmarks/bench_tests.py`` (``build/pytest-compiled.xml``, the compiled pass of ``make test``; or
``--xml FILE``, ``--top N``). With ``--dist loadfile`` a file runs whole on one worker, so the longest file is the
least the pass can take, and the sum over the workers is what it costs: the table shows both, in the seconds pytest
measured (wall time, which the machine's load enters).
"""

from __future__ import annotations

import argparse
import collections
import pathlib
import sys
import xml.etree.ElementTree as ET

ROOT = pathlib.Path(__file__).resolve().parent.parent


def file_totals(xml: pathlib.Path) -> tuple[dict[str, float], collections.Counter[str]]:
    """Seconds and number of tests of each test file (the ``classname`` of each ``testcase``: ``tests.test_game``)."""
    seconds: dict[str, float] = collections.defaultdict(float)
    tests: collections.Counter[str] = collections.Counter()
    for case in ET.parse(xml).iter("testcase"):
        name = case.get("classname", "")
        seconds[name] += float(case.get("time", "0"))
        tests[name] += 1
    return seconds, tests


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--xml", type=pathlib.Path, default=ROOT / "build" / "pytest-compiled.xml")
    parser.add_argument("--top", type=int, default=25, help="the longest files shown")
    args = parser.parse_args(argv)
    if not args.xml.is_file():
        sys.exit(f"no {args.xml}: run make test (or pytest --junitxml) first")
    seconds, tests = file_totals(args.xml)
    total = sum(seconds.values())
    print(f"{len(seconds)} files, {sum(tests.values())} tests, {total:,.0f} s in all\n")
    print("| file | tests | s | share |\n|---|---:|---:|---:|")
    for name, spent in sorted(seconds.items(), key=lambda item: -item[1])[: args.top]:
        print(f"| {name} | {tests[name]} | {spent:,.1f} | {spent / total:.1%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
