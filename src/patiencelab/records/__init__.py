"""Personal records: every finished or abandoned game in an SQLite database that survives restarts, and the
games still in play (kept on every move, so a board after a reload or a kernel restart offers to continue one).

``Records()`` opens the default database (:mod:`~patiencelab.records.store`: where it lives, how a file is checked,
the browser's copy); its methods keep the games in play (:mod:`~patiencelab.records.in_play`), give the figures
(:mod:`~patiencelab.records.stats`) and export and import (:mod:`~patiencelab.records.transfer`). A stored game's
row and its checks are in :mod:`~patiencelab.records.rows`, the tables and migrations in
:mod:`~patiencelab.records.schema`.
"""

from __future__ import annotations

from patiencelab.records.in_play import MAX_NAME, Choice
from patiencelab.records.rows import (
    MAX_IMPORT_BYTES,
    OUTCOMES,
    RECORDS_ERROR_CODES,
    GameInPlay,
    GameRow,
    Outcome,
    RecordsError,
    rules_key,
    scoring_key,
)
from patiencelab.records.schema import SCHEMA_VERSION
from patiencelab.records.stats import Stats, streaks
from patiencelab.records.store import BROWSER_COPY, Records, default_path

__all__ = [
    "BROWSER_COPY",
    "MAX_IMPORT_BYTES",
    "MAX_NAME",
    "OUTCOMES",
    "RECORDS_ERROR_CODES",
    "SCHEMA_VERSION",
    "Choice",
    "GameInPlay",
    "GameRow",
    "Outcome",
    "Records",
    "RecordsError",
    "Stats",
    "default_path",
    "rules_key",
    "scoring_key",
    "streaks",
]
