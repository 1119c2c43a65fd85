"""Export and import: the stored games written to a JSON or CSV file, and the games of such a file read back, every
row checked (its record must replay, its numbers must fit) before any is added.
"""

from __future__ import annotations

import csv
import io
import json
import os
import sqlite3
from collections.abc import Sequence
from dataclasses import fields
from typing import Any

from patiencelab.core.limits import check_path
from patiencelab.records.rows import GameRow, RecordsError, imported_row, read_export
from patiencelab.records.schema import insert_row

__all__ = ["add_imported", "export_csv", "export_json", "read_import"]


def export_json(rows: Sequence[GameRow], path: str | os.PathLike[str]) -> int:
    """Write ``rows`` to a JSON file; returns how many."""
    games = [row.to_json() for row in rows]
    text = json.dumps({"format": "patiencelab-records", "version": 1, "games": games}, indent=1)
    try:
        check_path(path, "path", RecordsError).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise RecordsError(f"cannot write {path}: {exc.strerror or exc}", "failed") from None
    return len(games)


def export_csv(rows: Sequence[GameRow], path: str | os.PathLike[str]) -> int:
    """Write ``rows`` to a CSV file (rules and record as JSON text); returns how many."""
    target = check_path(path, "path", RecordsError)
    names = [f.name for f in fields(GameRow) if f.name != "id"]
    buffer = io.StringIO(newline="")
    writer = csv.DictWriter(buffer, fieldnames=names)
    writer.writeheader()
    for row in rows:
        data = row.to_json()
        data["rules"] = json.dumps(data["rules"], sort_keys=True)
        data["record"] = json.dumps(data["record"], sort_keys=True)
        writer.writerow({name: data[name] for name in names})
    try:
        with target.open("w", newline="", encoding="utf-8") as handle:
            handle.write(buffer.getvalue())
    except OSError as exc:
        raise RecordsError(f"cannot write {path}: {exc.strerror or exc}", "failed") from None
    return len(rows)


def read_import(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The columns of every game of a JSON or CSV export, each checked; :class:`RecordsError` for any file that is
    not a good export (files over :data:`~patiencelab.records.rows.MAX_IMPORT_BYTES` are refused unread).
    """
    raw = read_export(check_path(path, "path", RecordsError))
    return [imported_row(item, number) for number, item in enumerate(raw, 1)]


def add_imported(connection: sqlite3.Connection, rows: Sequence[dict[str, Any]]) -> int:
    """Add the games ``rows`` (from :func:`read_import`) that are not stored yet, in the caller's transaction;
    returns how many were added."""
    return sum(insert_row(connection, row, again=True).rowcount for row in rows)
