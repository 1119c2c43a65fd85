"""One stored game: its row, the columns it is stored in, and the checks on every row that comes in, from the
database or from an export file. Nothing here touches the database; :mod:`patiencelab.records.store` does.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import json
import math
import os
import pathlib
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from patiencelab.core.errors import PatienceError
from patiencelab.core.game import Klondike
from patiencelab.core.limits import check_instance, check_path, check_text
from patiencelab.core.rules import Rules

__all__ = [
    "MAX_IMPORT_BYTES",
    "OUTCOMES",
    "RECORDS_ERROR_CODES",
    "GameInPlay",
    "GameRow",
    "Outcome",
    "RecordsError",
    "game_columns",
    "game_in_play",
    "imported_row",
    "read_export",
    "row_from_values",
    "rules_key",
    "scoring_key",
]

#: How a stored game ended.
Outcome = Literal["won", "lost", "abandoned"]
#: Every :data:`Outcome`, in this order.
OUTCOMES: tuple[Outcome, ...] = ("won", "lost", "abandoned")

#: The largest export :meth:`Records.import_file` reads (32 MiB: some hundred thousand games).
MAX_IMPORT_BYTES = 32 * 1024 * 1024

#: SQLite's integers are 64-bit and signed; a seed outside them is stored as text in ``big_seed``.
_INT64 = range(-(2**63), 2**63)


#: Why the records cannot be used, as :attr:`RecordsError.code`:
#: ``unreachable`` (the file or its folder cannot be made or opened), ``read-only`` (may not be written),
#: ``not-records`` (not a PatienceLab records file), ``damaged``, ``newer`` (a newer PatienceLab wrote it),
#: ``failed`` (anything else: a bad import file, a write that failed).
RECORDS_ERROR_CODES = ("unreachable", "read-only", "not-records", "damaged", "newer", "failed")


class RecordsError(PatienceError):
    """The records database cannot be used (unreadable, from a newer version, or a bad import file).

    ``code`` is one of :data:`RECORDS_ERROR_CODES`; ``path`` the file concerned, when there is one.
    """

    def __init__(self, message: str, code: str = "failed", path: pathlib.Path | None = None) -> None:
        if code not in RECORDS_ERROR_CODES:
            raise ValueError(f"unknown records error code {code!r}")
        super().__init__(message)
        self.code = code
        self.path = path


def rules_key(rules: Rules) -> str:
    """A short name for a rule set, for grouping: the preset name, or ``custom``."""
    return check_instance(rules, "rules", Rules).preset_name or "custom"


def scoring_key(rules: Rules) -> str:
    """A short name for a scoring scheme, for grouping: the scheme's name (``standard``, ``windows``,
    ``vegas``, ``none``), or ``custom-`` and a digest of the table for a scheme of one's own.
    """
    check_instance(rules, "rules", Rules)
    table = rules.scoring.to_json()
    if isinstance(table, str):
        return table
    digest = hashlib.sha256(json.dumps(table, sort_keys=True).encode()).hexdigest()[:10]
    return f"custom-{digest}"


@dataclass(frozen=True, slots=True)
class GameRow:
    """One stored game. ``scoring`` is the :func:`scoring_key` of its rules: bests and streaks are per scheme."""

    id: int
    finished_at: dt.datetime
    rules_key: str
    draw: int
    rules: dict[str, Any]
    deal: str | None
    seed: int | None
    outcome: Outcome
    score: int
    moves: int
    seconds: float
    record: dict[str, Any]
    scoring: str = "standard"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (the time as ISO 8601)."""
        data = asdict(self)
        data["finished_at"] = self.finished_at.isoformat()
        return data


def row_from_values(values: Mapping[str, Any]) -> GameRow:
    """The game in one row of the ``games`` table (of any schema version); raises on any value out of place."""
    rules_data = json.loads(_typed(values, "rules", str))
    rules = Rules.from_json(rules_data)
    draw = _typed(values, "draw", int)
    if draw != rules.draw:
        raise ValueError(f"draw {draw} differs from the rules' {rules.draw}")
    outcome = values["outcome"]
    if outcome not in OUTCOMES:
        raise ValueError(f"outcome {outcome!r} is not one of {', '.join(OUTCOMES)}")
    seed = values["seed"]
    big_seed = values.get("big_seed")
    if seed is None and big_seed is not None:
        seed = int(_typed(values, "big_seed", str))
    record = json.loads(_typed(values, "record", str))
    if not isinstance(record, dict):
        raise ValueError("record is not a JSON object")
    moves = _typed(values, "moves", int)
    seconds = float(_typed(values, "seconds", (int, float)))
    if moves < 0 or not (math.isfinite(seconds) and seconds >= 0):
        raise ValueError(f"moves {moves} and seconds {seconds} must be finite and not negative")
    return GameRow(
        id=_typed(values, "id", int),
        finished_at=dt.datetime.fromisoformat(_typed(values, "finished_at", str)),
        rules_key=_typed(values, "rules_key", str),
        draw=draw,
        rules=rules_data,
        deal=values["deal"] if values["deal"] is None else _typed(values, "deal", str),
        seed=seed if seed is None else _typed({"seed": seed}, "seed", int),
        outcome=outcome,
        score=_typed(values, "score", int),
        moves=moves,
        seconds=seconds,
        record=record,
        scoring=_typed(values, "scoring", str) if "scoring" in values else scoring_key(rules),
    )


def _typed(values: Mapping[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    """``values[name]``, which must be of ``kind`` (a bool is no number)."""
    value = values[name]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise TypeError(f"{name} is {type(value).__name__} {str(value)[:40]!r}, not {getattr(kind, '__name__', kind)}")
    return value


def read_export(source: pathlib.Path) -> list[Any]:
    """The games of an export file, unchecked; :class:`RecordsError` for a file that is not an export."""
    source = check_path(source, "source", RecordsError)
    try:
        with source.open("rb") as handle:
            if os.fstat(handle.fileno()).st_size > MAX_IMPORT_BYTES:
                raise RecordsError(f"{source} is too big to be a records export (over {MAX_IMPORT_BYTES} bytes)")
            data = handle.read(MAX_IMPORT_BYTES + 1)
        if len(data) > MAX_IMPORT_BYTES:
            raise RecordsError(f"{source} is too big to be a records export (over {MAX_IMPORT_BYTES} bytes)")
        text = data.decode("utf-8-sig")
        if source.suffix.lower() == ".csv":
            reader = csv.DictReader(io.StringIO(text, newline=""), strict=True)
            games: object = list(reader)
            if not reader.fieldnames or not set(_IMPORT_FIELDS) <= set(reader.fieldnames):
                raise RecordsError(f"{source} is not a PatienceLab records export: it lacks the columns")
        else:
            parsed = json.loads(text)
            if not isinstance(parsed, dict) or parsed.get("format") != "patiencelab-records":
                raise RecordsError(f"{source} is not a PatienceLab records export")
            games = parsed.get("games", [])
    except (OSError, ValueError, csv.Error, RecursionError) as exc:
        raise RecordsError(f"cannot read {source}: {str(exc)[:200]}") from None
    if not isinstance(games, list):
        raise RecordsError(f"{source}: 'games' must be a list, not {type(games).__name__}")
    return games


_IMPORT_FIELDS = ("finished_at", "outcome", "score", "moves", "seconds", "record")


def imported_row(item: object, number: int) -> dict[str, Any]:
    """Check one imported game (its record must replay to its stated moves) and return the columns to insert."""
    if not isinstance(item, dict):
        raise RecordsError(f"game {number}: expected an object, not {type(item).__name__}")
    try:
        record = item["record"]
        record = json.loads(record) if isinstance(record, str) else record
        game = Klondike.from_record(record)
        finished = dt.datetime.fromisoformat(_text(item["finished_at"], "finished_at"))
        outcome = item["outcome"]
        if outcome not in OUTCOMES:
            raise RecordsError(f"outcome {str(outcome)[:40]!r} is not one of {', '.join(OUTCOMES)}")
        moves = _whole(item["moves"], "moves")
        if moves != game.moves:
            raise RecordsError(f"'moves' is {moves} but the record has {game.moves}")
        score = _whole(item["score"], "score")
        seconds = float(_text(item["seconds"], "seconds") if isinstance(item["seconds"], str) else item["seconds"])
        if not (math.isfinite(seconds) and seconds >= 0) or isinstance(item["seconds"], bool):
            raise RecordsError(f"'seconds' must be a finite number, not negative: {str(item['seconds'])[:40]}")
        columns = game_columns(game, finished, outcome, score, seconds, record)
    except Exception as exc:  # an import file may hold anything: every failure in it means a bad file
        raise RecordsError(f"game {number} cannot be imported: {str(exc)[:200]}") from None
    return columns


def _text(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise RecordsError(f"{name!r} must be text, not {type(value).__name__}")
    return value


def _whole(value: object, name: str) -> int:
    """A whole number within SQLite's integers, from a number or (in CSV) its text."""
    if isinstance(value, str) and len(value) <= 20:
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or value not in _INT64:
        raise RecordsError(f"{name!r} must be a whole number within SQLite's range, not {str(value)[:40]!r}")
    return value


def game_columns(
    game: Klondike, when: dt.datetime, outcome: str, score: int, seconds: float, record: Mapping[str, Any]
) -> dict[str, Any]:
    """The columns of one stored game (a seed beyond SQLite's integers goes to ``big_seed`` as text)."""
    seed = game.seed
    small = seed is None or seed in _INT64
    return {
        "finished_at": when.isoformat(),
        "rules_key": rules_key(game.rules),
        "draw": game.rules.draw,
        "rules": json.dumps(game.rules.to_json(), sort_keys=True),
        "deal": game.deal,
        "seed": seed if small else None,
        "big_seed": None if small else str(seed),
        "outcome": outcome,
        "score": score,
        "moves": game.moves,
        "seconds": seconds,
        "record": json.dumps(record, sort_keys=True),
        "scoring": scoring_key(game.rules),
    }


@dataclass(frozen=True, slots=True)
class GameInPlay:
    """A game a board left in play: its board's name, when it was last played (UTC), the seconds played and the
    record to replay it from; the interpreter that runs (or ran) its board, the board it is offered to and that
    board's interpreter (or ``None``), and whether it was declined while its board still played it.
    """

    board: str
    saved_at: dt.datetime
    seconds: float
    record: Mapping[str, Any]
    process: str = ""
    offered_to: str | None = None
    offered_process: str | None = None
    declined: bool = False

    def is_like(self, *, deal: str | None = None, rules: Rules | None = None) -> bool:
        """Whether this game was dealt ``deal`` (a deal string) under ``rules``; ``None`` asks for any."""
        if deal is not None:
            check_text(deal, 104, "deal")
        if rules is not None:
            check_instance(rules, "rules", Rules)
        if deal is not None and self.record.get("deal") != deal:
            return False
        return rules is None or Rules.from_json(self.record.get("rules", {})) == rules

    def game(self, lang: str = "en") -> Klondike:
        """The game as it was left, its clock going on from the seconds played."""
        clock = _Clock()
        game = Klondike.from_record(self.record, clock=clock)
        clock.offset = self.seconds
        game.lang = lang
        return game


class _Clock:
    """``time.monotonic`` ahead by ``offset`` seconds: a replayed game's clock goes on from its seconds played."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.offset


def game_in_play(row: Sequence[Any]) -> GameInPlay | None:
    """The game in one row of the ``in_play`` table (its four first columns, or all eight of schema 4), or
    ``None`` when the row does not hold one that replays.
    """
    try:
        board, saved_at, seconds, text, *more = row
        process, offered_to, offered_process, declined = more if more else ("", None, None, 0)
        when = dt.datetime.fromisoformat(saved_at)
        if when.tzinfo is None or not isinstance(seconds, (int, float)) or not 0 <= seconds < 1e9:
            return None
        found = GameInPlay(
            str(board),
            when,
            float(seconds),
            json.loads(text),
            str(process or ""),
            None if offered_to is None else str(offered_to),
            None if offered_process is None else str(offered_process),
            bool(declined),
        )
        found.game()
    except (PatienceError, TypeError, ValueError, RecursionError):
        return None
    return found
