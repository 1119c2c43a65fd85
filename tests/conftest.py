"""Fixtures for every test: records go to a temporary PATIENCELAB_HOME, never the user's own; every state and reply
a widget sends is checked against the protocol's schema."""

from __future__ import annotations

import pathlib
from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(autouse=True)
def private_records_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> pathlib.Path:
    home = tmp_path_factory.mktemp("patiencelab-home")
    monkeypatch.setenv("PATIENCELAB_HOME", str(home))
    return home


@pytest.fixture(autouse=True)
def widget_speaks_the_protocol(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Validate every state a ``KlondikeWidget`` syncs and every reply it sends against ``js/protocol.schema.json``."""
    try:
        from patiencelab.widget import KlondikeWidget
    except ImportError:  # the front end is not built: the widget tests say so themselves
        yield
        return
    from tests.protocol_schema import check

    sync, handle = KlondikeWidget._sync_locked, KlondikeWidget.handle_intent

    def checked_sync(self: KlondikeWidget, *, moved: bool, bump: bool) -> None:
        sync(self, moved=moved, bump=bump)
        check("GameState", self.state)
        check("Labels", self.labels)

    def checked_handle(self: KlondikeWidget, content: object) -> dict[str, Any] | None:
        reply = handle(self, content)
        if reply is not None:
            check("Reply", reply)
        return reply

    monkeypatch.setattr(KlondikeWidget, "_sync_locked", checked_sync)
    monkeypatch.setattr(KlondikeWidget, "handle_intent", checked_handle)
    yield
