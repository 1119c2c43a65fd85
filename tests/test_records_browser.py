"""Records in a browser's Python (Pyodide in JupyterLite): the default database lives in memory and is copied
whole to browser storage after every write, so the statistics survive a page reload.
"""

from __future__ import annotations

import pathlib
import sys

import pytest

from patiencelab import Klondike, records
from patiencelab.records import Records, RecordsError, store


@pytest.fixture
def drive(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> pathlib.Path:
    """A stand-in for JupyterLite's ``/drive``; the page's memory is a fresh PATIENCELAB_HOME per page load."""
    folder = tmp_path / "drive"
    folder.mkdir()
    monkeypatch.setattr(store, "_browser_copy", lambda: folder / records.BROWSER_COPY)
    monkeypatch.setenv("PATIENCELAB_HOME", str(tmp_path / "memory-1"))
    return folder


def reload_page(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    """A page reload: Pyodide's memory is gone, browser storage stays."""
    monkeypatch.setenv("PATIENCELAB_HOME", str(tmp_path / f"memory-{n}"))


def test_games_survive_a_page_reload(
    drive: pathlib.Path, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = Records()
    first.add(Klondike(seed=1), outcome="abandoned")
    copy = drive / records.BROWSER_COPY
    assert copy.read_bytes() == first.path.read_bytes()
    reload_page(tmp_path, monkeypatch, 2)
    again = Records()
    assert again.path != first.path and len(again) == 1
    again.add(Klondike(seed=2), outcome="abandoned")
    reload_page(tmp_path, monkeypatch, 3)
    assert Records().stats().played == 2


def test_a_damaged_copy_is_refused_and_left_as_it_was(
    drive: pathlib.Path, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = drive / records.BROWSER_COPY
    copy.write_bytes(b"SQLite format 3\x00" + b"\x01" * 5000)
    before = copy.read_bytes()
    with pytest.raises(RecordsError) as err:
        Records()
    assert err.value.code in ("damaged", "not-records")
    assert copy.read_bytes() == before


def test_browser_storage_that_cannot_be_written_is_a_records_error(drive: pathlib.Path) -> None:
    (drive / records.BROWSER_COPY).mkdir()  # a folder where the copy should go
    with pytest.raises(RecordsError) as err:
        Records()
    assert err.value.code == "unreachable"


def test_an_explicit_path_is_never_copied(drive: pathlib.Path, tmp_path: pathlib.Path) -> None:
    Records(tmp_path / "mine.sqlite3").add(Klondike(seed=1), outcome="abandoned")
    assert not (drive / records.BROWSER_COPY).exists()


def test_outside_a_browser_there_is_no_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    assert store._browser_copy() is None
    monkeypatch.setattr(sys, "platform", "emscripten")
    monkeypatch.delenv("PATIENCELAB_HOME")
    assert store._browser_copy() == (
        pathlib.Path("/drive") / records.BROWSER_COPY if pathlib.Path("/drive").is_dir() else None
    )
