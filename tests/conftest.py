"""Fixtures for every test: records go to a temporary PATIENCELAB_HOME, never the user's own."""

from __future__ import annotations

import pathlib

import pytest


@pytest.fixture(autouse=True)
def private_records_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> pathlib.Path:
    home = tmp_path_factory.mktemp("patiencelab-home")
    monkeypatch.setenv("PATIENCELAB_HOME", str(home))
    return home
