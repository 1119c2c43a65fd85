"""Survey values: rows, budget, summary with Wilson intervals, the JSON-lines file, markdown and plots."""

from __future__ import annotations

import json
import math
import os
import statistics
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, BinaryIO, get_args

from patiencelab.core.errors import ArgumentTypeError, PatienceError, quote
from patiencelab.core.limits import check_path, check_seconds, check_states
from patiencelab.core.rules import Rules, rules_label
from patiencelab.solver import Outcome
from patiencelab.stats import Interval, wilson

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "FORMAT",
    "MAX_LINE",
    "VERSION",
    "Budget",
    "Row",
    "Summary",
    "SurveyFileError",
    "SurveyResult",
    "summary_table",
]

#: The ``format`` field of a survey file's header line.
FORMAT = "patiencelab-survey"
#: The version of the survey file format this writes and reads.
VERSION = 1
#: the longest line a survey file may have, in bytes (a row takes about 100, the header about 300)
MAX_LINE = 16 * 1024
OUTCOMES: tuple[Outcome, ...] = get_args(Outcome)


class SurveyFileError(PatienceError):
    """A survey file that cannot be read or does not belong to the survey asked for."""


@dataclass(frozen=True, slots=True)
class Budget:
    """What one deal may cost: ``seconds`` (``None``: no time limit) and ``max_states`` (``None``: no cap).

    Only a state budget makes rows reproducible across machines and executors; a time budget depends on load.
    """

    seconds: float | None = 10.0
    max_states: int | None = None

    def __post_init__(self) -> None:
        if self.seconds is None and self.max_states is None:
            raise PatienceError("a budget needs seconds, max_states or both")
        if self.seconds is not None:
            object.__setattr__(self, "seconds", float(check_seconds(self.seconds, "budget seconds")))
        check_states(self.max_states, "budget max_states")

    @classmethod
    def of(cls, budget: float | Budget) -> Budget:
        """A :class:`Budget` from itself or from a number of seconds."""
        if isinstance(budget, Budget):
            return budget
        if isinstance(budget, bool) or not isinstance(budget, (int, float)):
            raise ArgumentTypeError(f"budget must be seconds or a Budget, not {quote(budget)}")
        return cls(seconds=float(budget))

    def __str__(self) -> str:
        parts = []
        if self.seconds is not None:
            parts.append(f"{self.seconds:g} s")
        if self.max_states is not None:
            parts.append(f"{self.max_states:,} states")
        return " / ".join(parts) + " per deal"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"seconds": self.seconds, "max_states": self.max_states}

    @classmethod
    def from_json(cls, data: object) -> Budget:
        """Read what :meth:`to_json` wrote."""
        if not isinstance(data, dict) or set(data) != {"seconds", "max_states"}:
            raise PatienceError(f"a budget must be an object with seconds and max_states, not {data!r}")
        return cls(seconds=data["seconds"], max_states=data["max_states"])


@dataclass(frozen=True, slots=True)
class Row:
    """One deal's result: its seed, outcome, solution length in moves (0 unless solved), states, seconds."""

    seed: int
    outcome: Outcome
    moves: int
    states: int
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "seed": self.seed,
            "outcome": self.outcome,
            "moves": self.moves,
            "states": self.states,
            "seconds": round(self.seconds, 6),
        }

    @classmethod
    def from_json(cls, data: object) -> Row:
        """Read what :meth:`to_json` wrote, checking every field."""
        if not isinstance(data, dict) or set(data) != {"seed", "outcome", "moves", "states", "seconds"}:
            raise PatienceError("a row must be an object with seed, outcome, moves, states and seconds")
        seed, outcome, moves, states, seconds = (data[k] for k in ("seed", "outcome", "moves", "states", "seconds"))
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (seed, moves, states)):
            raise PatienceError("seed, moves and states must be whole numbers")
        if outcome not in OUTCOMES:
            raise PatienceError(f"outcome must be one of {', '.join(OUTCOMES)}, not {outcome!r}")
        if moves < 0 or states < 0:
            raise PatienceError(f"moves and states must be at least 0, not {moves} and {states}")
        number = isinstance(seconds, (int, float)) and not isinstance(seconds, bool)
        if not (number and 0 <= seconds <= sys.float_info.max):
            raise PatienceError(f"seconds must be a finite number >= 0, not {seconds!r}")
        return cls(seed, outcome, moves, states, float(seconds))


@dataclass(frozen=True, slots=True)
class Summary:
    """Counts and shares of each outcome with 95% Wilson intervals, and time per deal.

    ``winnable`` treats unknown deals honestly: its share is the solved share, ``low`` the Wilson lower bound of
    solved / n (every unknown deal lost) and ``high`` the Wilson upper bound of (solved + unknown) / n (every
    unknown deal won). ``solved_of_decided`` is the solved share among decided deals, which assumes the unknown
    deals are like the decided ones.
    """

    deals: int
    solved: int
    impossible: int
    unknown: int
    solved_share: Interval
    impossible_share: Interval
    unknown_share: Interval
    winnable: Interval
    solved_of_decided: Interval
    median_seconds: float
    mean_seconds: float
    total_seconds: float

    @classmethod
    def of(cls, rows: Sequence[Row]) -> Summary:
        """Summarise ``rows``."""
        if not isinstance(rows, Sequence) or not all(isinstance(r, Row) for r in rows):
            raise ArgumentTypeError(f"rows must be a list of survey rows, not {quote(rows)}")
        n = len(rows)
        counts = {o: sum(1 for r in rows if r.outcome == o) for o in OUTCOMES}
        solved, impossible, unknown = counts["solved"], counts["impossible"], counts["unknown"]
        seconds = [r.seconds for r in rows]
        worst = wilson(solved + unknown, n)
        winnable = Interval(solved / n if n else 0.0, wilson(solved, n).low, worst.high)
        return cls(
            deals=n,
            solved=solved,
            impossible=impossible,
            unknown=unknown,
            solved_share=wilson(solved, n),
            impossible_share=wilson(impossible, n),
            unknown_share=wilson(unknown, n),
            winnable=winnable,
            solved_of_decided=wilson(solved, solved + impossible),
            median_seconds=statistics.median(seconds) if seconds else 0.0,
            mean_seconds=statistics.fmean(seconds) if seconds else 0.0,
            total_seconds=math.fsum(seconds),
        )


@dataclass(frozen=True, slots=True)
class SurveyResult:
    """A survey: its rules and budget, one :class:`Row` per deal (by seed) and whether every deal was done."""

    rules: Rules
    budget: Budget
    rows: tuple[Row, ...]
    complete: bool = True
    summary: Summary = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rows", tuple(sorted(self.rows, key=lambda r: r.seed)))
        object.__setattr__(self, "summary", Summary.of(self.rows))

    @property
    def seeds(self) -> tuple[int, ...]:
        """The seeds surveyed, in order."""
        return tuple(r.seed for r in self.rows)

    def header(self) -> dict[str, Any]:
        """The first line of the survey's file."""
        return header(self.rules, self.budget)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the survey as JSON lines (a header, then one row per line); an existing file is refused."""
        name = check_path(path)
        try:
            with open(name, "x", encoding="utf-8") as f:
                f.write(json.dumps(self.header()) + "\n")
                f.writelines(json.dumps(r.to_json()) + "\n" for r in self.rows)
        except FileExistsError:
            raise SurveyFileError(f"{name} exists: a survey file is never written over; choose another path") from None
        except OSError as e:  # a folder, no such folder, not allowed
            raise SurveyFileError(f"cannot write {name}: {e.strerror or e}") from None

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> SurveyResult:
        """Read a survey file written by :meth:`save` or by ``survey(..., path=...)``."""
        rules, budget, rows = read_file(path)
        return cls(rules, budget, tuple(rows.values()))

    def to_markdown(self) -> str:
        """A markdown table of the outcomes with their 95% intervals, then the winnable share and times."""
        s = self.summary
        lines = [
            f"{rules_label(self.rules)}; {s.deals} deals; budget {self.budget}"
            + ("" if self.complete else " (interrupted: partial)"),
            "",
            "| outcome | deals | share | 95% interval |",
            "|---|---:|---:|---|",
        ]
        for name, count, share in (
            ("solved", s.solved, s.solved_share),
            ("impossible", s.impossible, s.impossible_share),
            ("unknown", s.unknown, s.unknown_share),
        ):
            lines.append(f"| {name} | {count} | {100 * share.share:.1f}% | {_range(share)} |")
        lines += [
            "",
            f"winnable: {_range(s.winnable)} (95%, unknown deals counted as lost for the low end, won for the high);"
            f" solved among decided deals: {s.solved_of_decided}",
            f"seconds per deal: median {s.median_seconds:.3f}, mean {s.mean_seconds:.3f}, total {s.total_seconds:.1f}",
        ]
        return "\n".join(lines)

    def plot(self) -> Figure:
        """A figure: outcome shares with 95% intervals, and a histogram of seconds per decided deal."""
        from matplotlib.figure import Figure

        s = self.summary
        fig = Figure(figsize=(9, 3.5), layout="constrained")
        bars, hist = fig.subplots(1, 2)
        shares = [s.solved_share, s.impossible_share, s.unknown_share]
        heights = [100 * i.share for i in shares]
        errors = [[100 * (i.share - i.low) for i in shares], [100 * (i.high - i.share) for i in shares]]
        bars.bar(list(OUTCOMES), heights, yerr=errors, capsize=4, color=["tab:green", "tab:red", "tab:gray"])
        bars.set_ylabel("share of deals (%)")
        bars.set_ylim(0, 100)
        bars.set_title(f"{rules_label(self.rules)}: {s.deals} deals")
        decided = [r.seconds for r in self.rows if r.outcome != "unknown"]
        hist.hist(decided, bins=30, color="tab:blue")
        hist.set_xlabel("seconds per decided deal")
        hist.set_ylabel("deals")
        hist.set_title(f"budget {self.budget}")
        return fig


def _range(i: Interval) -> str:
    return f"{100 * i.low:.1f}-{100 * i.high:.1f}%"


def summary_table(results: Iterable[SurveyResult]) -> str:
    """One markdown table with a line per survey: counts, shares with 95% intervals and the winnable range."""
    lines = [
        "| rules | deals | budget | solved | impossible | unknown | winnable (95%) | solved of decided | median s |",
        "|---|---:|---|---:|---:|---:|---|---|---:|",
    ]
    results = list(results) if isinstance(results, Iterable) else None
    if results is None or not all(isinstance(r, SurveyResult) for r in results):
        raise ArgumentTypeError("results must be SurveyResult values")
    for r in results:
        s = r.summary
        lines.append(
            f"| {rules_label(r.rules)} | {s.deals} | {r.budget} | {s.solved} ({100 * s.solved_share.share:.1f}%) "
            f"| {s.impossible} | {s.unknown} | {_range(s.winnable)} | {s.solved_of_decided} "
            f"| {s.median_seconds:.3f} |"
        )
    return "\n".join(lines)


def header(rules: Rules, budget: Budget) -> dict[str, Any]:
    """The header line of a survey file."""
    return {"format": FORMAT, "version": VERSION, "rules": rules.to_json(), "budget": budget.to_json()}


def read_file(path: str | os.PathLike[str]) -> tuple[Rules, Budget, dict[int, Row]]:
    """The rules, budget and rows (by seed) of a survey file; a bad line raises :class:`SurveyFileError`.

    A torn last line (no newline at the end and not a row: a write cut short when a run was killed) is left out.
    """
    scan = scan_file(path)
    return scan.rules, scan.budget, scan.rows


@dataclass(frozen=True, slots=True)
class Scan:
    """What :func:`scan_file` found: the header, the rows, and where the last whole line ends."""

    rules: Rules
    budget: Budget
    rows: dict[int, Row]
    #: the size of the file without its torn last line (the whole file when there is none)
    end: int
    #: a torn last line was left out
    torn: bool
    #: the file (without the torn line) ends with a newline
    ends_in_newline: bool


def scan_file(path: str | os.PathLike[str]) -> Scan:
    """Read a survey file line by line, each line at most :data:`MAX_LINE` bytes; see :func:`read_file`.

    Every problem (a missing file, a folder, a line that is no row or not UTF-8, an I/O error) raises
    :class:`SurveyFileError`; a bad line in the middle is damage, only a torn last line is dropped.
    """
    name = os.fspath(check_path(path, error=SurveyFileError))
    if os.path.isdir(name):
        raise SurveyFileError(f"{name} is a folder, not a survey file")
    try:
        with open(name, "rb") as f:
            return _scan(name, f)
    except OSError as e:
        raise SurveyFileError(f"cannot read {name}: {e.strerror or e}") from None


def _scan(name: str, f: BinaryIO) -> Scan:
    header: tuple[Rules, Budget] | None = None
    rows: dict[int, Row] = {}
    end, number, newline = 0, 0, True
    while raw := f.readline(MAX_LINE + 1):
        number += 1
        if len(raw) > MAX_LINE:
            if header is not None and _zeros_to_the_end(raw, f):  # a tail that a power cut left unwritten
                return Scan(*header, rows, end, torn=True, ends_in_newline=newline)
            raise SurveyFileError(f"{name}: line {number} is longer than {MAX_LINE} bytes: not a survey file")
        complete = raw.endswith(b"\n")
        try:
            value = _parse(raw)
            if header is None:
                header = _header(name, value)
            elif value is not None:
                row = Row.from_json(value)
                rows[row.seed] = row
        except (ValueError, RecursionError, PatienceError) as e:
            if header is not None and not complete:  # cut short while it was written: that deal is solved again
                return Scan(*header, rows, end, torn=True, ends_in_newline=newline)
            if isinstance(e, SurveyFileError):
                raise
            what = "a survey header" if header is None else "a survey row"
            reason = "not UTF-8 text" if isinstance(e, UnicodeDecodeError) else str(e) or type(e).__name__
            raise SurveyFileError(f"{name}: line {number} is not {what} ({reason}): {raw[:80]!r}") from None
        end += len(raw)
        newline = complete
    if header is None:
        raise SurveyFileError(f"{name} is empty: not a survey file")
    return Scan(*header, rows, end, torn=False, ends_in_newline=newline)


def _zeros_to_the_end(raw: bytes, f: BinaryIO) -> bool:
    """Whether the over-long line ``raw`` ends in zero bytes and only zero bytes follow it to the end of ``f``."""
    if not raw.endswith(b"\0"):
        return False
    while chunk := f.read(MAX_LINE):
        if chunk.count(0) != len(chunk):
            return False
    return True


def _parse(raw: bytes) -> Any:
    """The JSON value of a line (``None`` for a blank line: JSON's own whitespace only, so a line of other
    control characters is damage, as any reader of the lines would find).
    """
    text = raw.decode("utf-8")
    return json.loads(text) if text.strip(" \t\r\n") else None


def _header(name: str, head: object) -> tuple[Rules, Budget]:
    """The rules and budget of a header line."""
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise SurveyFileError(f"{name}: line 1 is not a {FORMAT} header")
    if head.get("version") != VERSION:
        raise SurveyFileError(f"{name}: format version {head.get('version')!r:.20}; this version reads {VERSION}")
    try:
        return Rules.from_json(head.get("rules")), Budget.from_json(head.get("budget"))
    except PatienceError as e:
        raise SurveyFileError(f"{name}: line 1: {e}") from None
