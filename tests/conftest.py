"""Fixtures for every test: records go to a temporary PATIENCELAB_HOME, never the user's own; every state and reply
a widget sends is checked against the protocol's schema.

Hypothesis runs under one of two profiles: ``ci`` (chosen when the ``CI`` environment variable is set) is
derandomized, so a failure in CI fails every run and prints the blob that reproduces it; ``dev`` keeps the
random search. Neither has a deadline: no test may depend on the speed of the machine.

The package may run compiled (mypyc): ``make test`` runs the whole suite so, then the *pure pass* (the tests in
:data:`PURE_PASS` and those marked ``pure``) again with ``PATIENCELAB_PURE=1``:
``PATIENCELAB_PURE=1 pytest -m pure_pass``. A test that needs the pure modules is marked ``pure`` and runs in the
pure pass only: one that patches the package's own functions or classes (compiled code calls its functions directly,
past any patch), or reads their docstrings (mypyc keeps a compiled function's signature, not its docstring). A test
marked ``first_pass`` stays out of the pure pass though its folder is in it: a long check of the solver's answers,
which the pure modules give as the compiled ones do (``tests/test_compiled.py`` compares them).

The sweeps (many positions, games, schedules, layouts) run a fixed sample; ``pytest --soak`` runs them whole, the
sizes ``make soak`` runs (``--soak-seed N``: another set of the seeded ones). Their sizes are one table,
``tests/sweeps.py``.
"""

from __future__ import annotations

import json
import os
import pathlib
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import settings

import patiencelab
from patiencelab.core.game import Change
from tests import sweeps

#: The tests of the pure pass (besides those marked ``pure``): the solver, the rules and what players ask of them.
PURE_PASS = (
    "tests/solver/",
    "tests/test_compiled.py",
    "tests/test_kernel.py",
    "tests/test_rules.py",
    "tests/test_game_rules.py",
    "tests/test_moves.py",
    "tests/test_hints.py",
)
_ROOT = pathlib.Path(__file__).resolve().parents[1]

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI", "").lower() not in ("", "0", "false") else "dev")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("patiencelab")
    group.addoption("--soak", action="store_true", help="the sweeps whole: make soak's sizes (tests/sweeps.py)")
    seed = f"with --soak: the seed of the seeded sweeps (default {sweeps.SOAK_SEED})"
    group.addoption("--soak-seed", type=int, metavar="N", help=seed)


def pytest_configure(config: pytest.Config) -> None:
    """``--soak`` sets the one switch of the sweeps' sizes, before any test module reads them."""
    if config.getoption("soak"):
        seed = config.getoption("soak_seed")
        os.environ[sweeps.SWITCH] = str(sweeps.SOAK_SEED if seed is None else seed)
    elif config.getoption("soak_seed") is not None:
        raise pytest.UsageError("--soak-seed goes with --soak")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the pure pass (``pure_pass``); skip the ``pure`` tests when the package runs compiled; leave out the
    ``dist_check`` tests where no ``make dist`` files are given (``PATIENCELAB_DIST``), so a skip always means
    something."""
    if not os.environ.get("PATIENCELAB_DIST"):
        left_out = [item for item in items if item.get_closest_marker("dist_check") is not None]
        if left_out:
            config.hook.pytest_deselected(items=left_out)
            items[:] = [item for item in items if item.get_closest_marker("dist_check") is None]
    for item in items:
        where = item.path.resolve().relative_to(_ROOT).as_posix()
        pure = item.get_closest_marker("pure") is not None
        first = item.get_closest_marker("first_pass") is not None
        if pure or (where.startswith(PURE_PASS) and not first):
            item.add_marker(pytest.mark.pure_pass)
        if pure and patiencelab.COMPILED:
            item.add_marker(pytest.mark.skip(reason="needs the pure modules: runs in the pure pass"))


_LITE = _ROOT / "tests" / "lite"


def pytest_ignore_collect(collection_path: pathlib.Path, config: pytest.Config) -> bool | None:
    """Collect ``tests/lite`` when the command line names it, also beside ``tests`` (``make test`` runs it among the
    other files; pytest keeps only the wider path). Otherwise ``norecursedirs`` leaves it out: it plays the Lite site
    that ``make lite`` builds."""
    if collection_path != _LITE:
        return None
    here = config.invocation_params.dir
    named = {(here / arg.split("::", 1)[0]).resolve() for arg in config.args}
    return False if _LITE in named or any(path.is_relative_to(_LITE) for path in named) else None


@pytest.fixture(autouse=True)
def private_records_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> pathlib.Path:
    home = tmp_path_factory.mktemp("patiencelab-home")
    monkeypatch.setenv("PATIENCELAB_HOME", str(home))
    return home


@pytest.fixture(autouse=True)
def widget_speaks_the_protocol(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Validate every state and label set a board syncs (a ``BoardSession``, under every ``KlondikeWidget`` too)
    and every reply it sends against ``js/protocol.schema.json``. They are recorded as JSON text as they are made
    (cheap, and invisible to the garbage collector) and checked when the test ends, so that the check does not slow
    the board down while a test races it against the indicator's background thread.
    """
    from patiencelab.widget.session import BoardSession
    from tests.protocol_schema import check

    sent: set[tuple[str, str]] = set()
    sync, handle = BoardSession._sync_locked, BoardSession.handle_intent

    def recorded_sync(self: BoardSession, change: Change | None, fresh: bool, bump: bool) -> None:
        sync(self, change, fresh, bump)
        sent.add(("GameState", json.dumps(self.state)))
        sent.add(("Labels", json.dumps(self.labels)))

    def recorded_handle(self: BoardSession, content: object) -> dict[str, Any] | None:
        reply = handle(self, content)
        if reply is not None:
            sent.add(("Reply", json.dumps(reply)))
        return reply

    monkeypatch.setattr(BoardSession, "_sync_locked", recorded_sync)
    monkeypatch.setattr(BoardSession, "handle_intent", recorded_handle)
    yield
    for name, text in sorted(sent):
        check(name, json.loads(text))
