"""The command line: ``python -m patiencelab survey --draw 3 --preset traditional --deals 1000 --workers 2``."""

from __future__ import annotations

import argparse
import contextlib
import shlex
import signal
import sys
import threading
import warnings
from collections.abc import Callable, Iterator, Sequence
from types import FrameType
from typing import TypeVar

from patiencelab._version import __version__
from patiencelab.core.errors import PatienceError
from patiencelab.core.i18n import LANGUAGES
from patiencelab.core.rules import PRESETS, Rules
from patiencelab.survey import Budget, SurveyInterruptedWarning, survey

Number = TypeVar("Number", int, float)

__all__ = ["main"]


def _seed_range(text: str) -> range:
    """``a:b`` as ``range(a, b)``."""
    start, sep, stop = text.partition(":")
    try:
        if not sep:
            raise ValueError
        seeds = range(int(start), int(stop))
    except ValueError:
        raise argparse.ArgumentTypeError(f"seeds must be a:b (whole numbers), not {text!r}") from None
    if not seeds:
        raise argparse.ArgumentTypeError(f"seeds {text!r} is empty: b must be above a")
    return seeds


def _number(
    convert: Callable[[str], Number], what: str, rule: str, ok: Callable[[Number], bool]
) -> Callable[[str], Number]:
    """An argparse type: ``convert(text)``, refused (saying ``rule``) unless ``ok`` of it."""

    def parse(text: str) -> Number:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not {what}: {text!r}") from None
        if not ok(value):
            raise argparse.ArgumentTypeError(f"must be {rule}, not {text}")
        return value

    return parse


_positive_int = _number(int, "a whole number", "at least 1", lambda n: n >= 1)
_positive_float = _number(float, "a number", "above 0", lambda x: x > 0)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser, one subcommand per task."""
    parser = argparse.ArgumentParser(prog="python -m patiencelab", description="PatienceLab: Klondike solitaire.")
    parser.add_argument("--version", action="version", version=f"patiencelab {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="command")
    s = commands.add_parser(
        "survey",
        help="solve many seeded deals and report the share won, lost and undecided",
        description="Solve many seeded deals; rows go to a JSON-lines file as they finish; the summary is printed "
        "as a markdown table. Ctrl-C keeps the finished rows; --resume continues.",
    )
    s.add_argument("--preset", choices=list(PRESETS), default="standard", help="house rules (default: standard)")
    s.add_argument("--draw", type=_positive_int, default=None, help="cards per draw (default: the preset's)")
    deals = s.add_mutually_exclusive_group()
    deals.add_argument("--deals", type=_positive_int, default=100, help="seeds 0 to N-1 (default: 100)")
    deals.add_argument("--seeds", type=_seed_range, metavar="A:B", help="seeds A to B-1")
    s.add_argument("--seconds", type=_positive_float, default=None, help="time budget per deal (default: 10)")
    s.add_argument("--max-states", type=_positive_int, default=None, help="positions searched per deal at most")
    s.add_argument("--workers", type=_positive_int, default=None, help="processes (default: one per core)")
    s.add_argument("--out", default=None, help="the JSON-lines file (default: a name made from the options)")
    s.add_argument("--resume", action="store_true", help="continue --out, solving only the seeds it lacks")
    s.add_argument("--no-progress", action="store_true", help="no progress bar")
    s.set_defaults(run=_survey)
    p = commands.add_parser(
        "present",
        help="show a board full-page with Voila, no code: for a projector",
        description="Show a board and its lesson's step controls full-page in the browser with Voila (pip install "
        "'patiencelab[present]'), no code around it. Ctrl-C stops it.",
    )
    p.add_argument("--lang", choices=LANGUAGES, default="en", help="the board's language (default: en)")
    p.add_argument("--lesson", choices=[*_lesson_names(), "none"], default="traditional", help="(default: traditional)")
    p.add_argument("--seed", type=int, default=None, help="the deal's seed, for --lesson none (default: a new deal)")
    p.add_argument("--port", type=_positive_int, default=None, help="Voila's port (default: Voila's, 8866)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    p.set_defaults(run=_present)
    return parser


def _lesson_names() -> tuple[str, ...]:
    from patiencelab.lessons.format import Lesson

    return Lesson.builtin_names()


def _present(args: argparse.Namespace, argv: Sequence[str]) -> int:
    from patiencelab.widget.present import present

    lesson = None if args.lesson == "none" else args.lesson
    return present(lang=args.lang, lesson=lesson, seed=args.seed, port=args.port, browser=not args.no_browser)


def default_out(rules: Rules, budget: Budget, seeds: range) -> str:
    """A file name that tells the survey's options apart: ``survey-traditional-draw3-s0-1000-10s.jsonl``."""
    parts = ["survey", rules.preset_name or "custom", f"draw{rules.draw}", f"s{seeds.start}-{seeds.stop}"]
    if budget.seconds is not None:
        parts.append(f"{budget.seconds:g}s")
    if budget.max_states is not None:
        parts.append(f"{budget.max_states}states")
    return "-".join(parts) + ".jsonl"


def _survey(args: argparse.Namespace, argv: Sequence[str]) -> int:
    rules = Rules.preset(args.preset, draw=args.draw)
    seconds = args.seconds if args.seconds is not None or args.max_states is not None else 10.0
    budget = Budget(seconds=seconds, max_states=args.max_states)
    seeds: range = args.seeds if args.seeds is not None else range(args.deals)
    out = args.out or default_out(rules, budget, seeds)
    terminated: list[int] = []
    with warnings.catch_warnings(record=True) as caught, _sigterm_interrupts(terminated):
        warnings.simplefilter("always", SurveyInterruptedWarning)
        result = survey(
            seeds,
            rules,
            budget,
            workers=args.workers,
            path=out,
            resume=args.resume,
            progress=not args.no_progress,
        )
    print(result.to_markdown())
    print(f"\nrows: {out}")
    if not result.complete or any(issubclass(w.category, SurveyInterruptedWarning) for w in caught):
        again = [a for a in argv if a != "--resume"]
        if args.out is None:
            again += ["--out", out]
        command = shlex.join([sys.executable, "-m", "patiencelab", *again, "--resume"])
        print(f"interrupted after {len(result.rows)} of {len(seeds)} deals; continue with:\n  {command}")
        return 128 + signal.SIGTERM if terminated else 130
    return 0


@contextlib.contextmanager
def _sigterm_interrupts(terminated: list[int]) -> Iterator[None]:
    """Treat SIGTERM like Ctrl-C while the survey runs: the pool stops, the rows are kept, the resume is shown."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: FrameType | None) -> None:
        terminated.append(signum)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args, argv)
    except PatienceError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":
    sys.exit(main())
