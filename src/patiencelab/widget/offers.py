"""Which board of a kernel is offered which game in play, and the words of the offer.

A game in play is offered to one board at a time, and only to a board that may take it: the next new board of
the same kernel (its own board may be one no view shows any more: a page reloaded), or any new board once the
kernel that played it is gone (a restart). Another running kernel's game is never offered, nor a game of another
deal or rules than a board asked for. Who is offered it is settled in one transaction of the records (see
:meth:`~patiencelab.records.store.Records.claim`, which asks :func:`choose` of each game), so two boards, or two
kernels, never both take or store it; a game declined while its board still plays it is offered to no board
again, and stored once, when that board is done with it. The moment a game is stored, taken or no longer in play,
its offer is withdrawn on every board of the kernel: :class:`LiveBoards` knows them, by database.
"""

from __future__ import annotations

import datetime as dt
import threading
import weakref
from collections.abc import Collection
from typing import Any, Generic, TypeVar

from patiencelab.core.i18n import message
from patiencelab.core.rules import Rules
from patiencelab.records.in_play import Choice
from patiencelab.records.rows import GameInPlay
from patiencelab.records.store import Records
from patiencelab.widget.processes import process_alive, process_name

__all__ = ["LiveBoards", "choose", "claim", "database_path", "offer_state"]

T = TypeVar("T")


class LiveBoards(Generic[T]):
    """The live boards (their keepers) of this process, by the resolved path of their database; held weakly, so a
    board that is gone drops out by itself. Safe to use from any thread.
    """

    def __init__(self) -> None:
        self._by_path: dict[str, weakref.WeakSet[Any]] = {}
        self._lock = threading.Lock()

    def add(self, path: str, board: T) -> None:
        """``board`` keeps its games in the database at ``path`` from now on."""
        with self._lock:
            self._by_path.setdefault(path, weakref.WeakSet()).add(board)

    def discard(self, path: str | None, board: T) -> None:
        """``board`` keeps nothing at ``path`` any more."""
        with self._lock:
            self._by_path.get(path or "", weakref.WeakSet()).discard(board)

    def of(self, path: str | None) -> list[T]:
        """The live boards of the database at ``path``."""
        with self._lock:
            return list(self._by_path.get(path or "", ()))


def database_path(records: Records) -> str:
    """The file of ``records``, however it was named: one database, one name (the key of :class:`LiveBoards`)."""
    try:
        return str(records.path.resolve())
    except (OSError, RuntimeError):
        return str(records.path.absolute())


def claim(
    records: Records, board: str, *, live: Collection[str], deal: str | None, rules: Rules | None
) -> GameInPlay | None:
    """Claim, in ``records``, the game in play the board named ``board`` of this kernel is offered (see
    :func:`choose`), or ``None``; may raise :class:`~patiencelab.records.RecordsError`.
    """
    me = process_name()
    return records.claim(
        board, me, lambda found: choose(found, board=board, process=me, live=live, deal=deal, rules=rules)
    )


def choose(
    found: GameInPlay,
    *,
    board: str,
    process: str,
    live: Collection[str],
    deal: str | None,
    rules: Rules | None,
) -> Choice:
    """Whether the board named ``board`` of the interpreter ``process`` is offered ``found`` (``"offer"``), leaves
    it (``"skip"``), or stores it as abandoned (``"store"``: declined while its board played it, and that board's
    kernel is gone). ``live`` names the live boards of this kernel; ``deal`` and ``rules`` are what the board asked
    for (``None``: any).
    """
    board_lives = found.board in live if found.process == process else process_alive(found.process)
    if found.declined:
        return "skip" if board_lives else "store"
    if not found.is_like(deal=deal, rules=rules):
        return "skip"
    offered = found.offered_process
    if offered is not None and offered != process and process_alive(offered):
        return "skip"  # offered to a board of another running kernel
    return "skip" if found.board == board or (board_lives and found.process != process) else "offer"


def offer_state(offered: GameInPlay | None, lang: str) -> dict[str, Any] | None:
    """The offer to continue a game, in ``lang``: "Continue your game from 12:04?" and what that game is."""
    if offered is None:
        return None
    when = offered.saved_at.astimezone()
    today = dt.datetime.now(when.tzinfo).date() == when.date()
    shown = when.strftime("%H:%M" if today else "%Y-%m-%d %H:%M")
    moves = len(offered.record.get("moves", ()))
    return {"text": message("resume.offer", lang, when=shown, moves=moves), "when": shown, "moves": moves}
