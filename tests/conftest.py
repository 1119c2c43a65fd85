"""Fixtures for every test: records go to a temporary PATIENCELAB_HOME, never the user's own.

Hypothesis runs under one of two profiles: ``ci`` (chosen when the ``CI`` environment variable is set) is
derandomized, so a failure in CI fails every run and prints the blob that reproduces it; ``dev`` keeps the
random search. Neither has a deadline: no test may depend on the speed of the machine.
"""

from __future__ import annotations

import os
import pathlib

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI", "").lower() not in ("", "0", "false") else "dev")


@pytest.fixture(autouse=True)
def private_records_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> pathlib.Path:
    home = tmp_path_factory.mktemp("patiencelab-home")
    monkeypatch.setenv("PATIENCELAB_HOME", str(home))
    return home
