"""The test suite's own house rules.

Test modules share fixtures through ``conftest.py`` and share helpers and constants through plain modules (such as
``tests/model_helpers.py``, ``tests/session_helpers.py`` or ``tests/browser/page_harness.py``), never by importing
one another: a test module imported by another runs its module-level code twice, under two names, and ties two
files together that ``--dist loadfile`` puts on different workers. Nor does a module import a ``conftest.py``:
pytest loads those itself. A sweep that ``make test`` samples runs whole in ``make soak``.
"""

from __future__ import annotations

import ast
import pathlib
import re
from collections.abc import Iterator

TESTS = pathlib.Path(__file__).resolve().parent
MAKEFILE = TESTS.parent / "Makefile"


def _package(path: pathlib.Path) -> str:
    """The dotted package a file under ``tests/`` lies in (``tests``, ``tests.browser``, ...)."""
    return ".".join(("tests", *path.parent.relative_to(TESTS).parts))


def imported(source: str, package: str) -> Iterator[tuple[int, str]]:
    """The modules ``source`` imports (at module level and inside functions), absolute, with their line: for
    ``from a import b`` both ``a`` and ``a.b`` (``b`` may be a module)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parent = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{parent}.{base}" if base else parent
            yield node.lineno, base
            yield from ((node.lineno, f"{base}.{alias.name}") for alias in node.names)


def is_test_module(name: str) -> bool:
    """Whether a dotted name is a test module or a ``conftest`` of this suite."""
    last = name.rsplit(".", 1)[-1]
    return name.startswith("tests.") and (last.startswith("test_") or last == "conftest")


def imports_of_test_modules(source: str, package: str) -> list[str]:
    """The test modules (and conftests) ``source`` imports, each as ``line: name``."""
    return sorted({f"{line}: {name}" for line, name in imported(source, package) if is_test_module(name)})


def test_no_test_module_imports_another() -> None:
    problems = [
        f"{path.relative_to(TESTS.parent)}:{found}"
        for path in sorted(TESTS.rglob("*.py"))
        for found in imports_of_test_modules(path.read_text(encoding="utf-8"), _package(path))
    ]
    assert not problems, "move what they share to a conftest.py fixture or a helper module:\n" + "\n".join(problems)


def test_an_import_of_a_test_module_would_be_found() -> None:
    source = (
        "from .test_review import random_game\n"
        "from tests.solver.conftest import replay_wins\n"
        "from . import test_session_intents\n"
        "import tests.browser.test_jupyter\n"
        "def late():\n"
        "    from ..test_page_board import mount\n"
        "from .model_helpers import twin\n"
        "from tests.browser.layout import check\n"
        "import pytest\n"
    )
    assert imports_of_test_modules(source, "tests.browser") == [
        "1: tests.browser.test_review",
        "2: tests.solver.conftest",
        "3: tests.browser.test_session_intents",
        "4: tests.browser.test_jupyter",
        "6: tests.test_page_board",
    ]


# ------------------------------------------------------------------------------------------ make soak

#: What the suite reads from the environment that is not the size of a sweep: where records go, which build runs.
NOT_SWEEPS = {"PATIENCELAB_HOME", "PATIENCELAB_PURE", "PATIENCELAB_PURE_BUILD"}
_READ = re.compile(r"""environ(?:\.get\(|\[)\s*["'](PATIENCELAB_\w+)["']""")


def sweep_switches(sources: list[str]) -> set[str]:
    """The ``PATIENCELAB_*`` variables the sources read from ``os.environ``, less :data:`NOT_SWEEPS`."""
    return {name for text in sources for name in _READ.findall(text)} - NOT_SWEEPS


def soak_recipe(makefile: str) -> str:
    """The commands of the Makefile's ``soak`` target (the tab-indented lines under ``soak:``)."""
    found = re.search(r"^soak:.*\n((?:\t.*\n)+)", makefile, re.M)
    assert found is not None, "the Makefile has no soak target"
    return found.group(1)


def test_every_sweep_make_test_samples_runs_whole_in_make_soak() -> None:
    """Nothing leaves ``make test`` that ``make soak`` does not run: each switch that sizes a sweep is set there."""
    read = sweep_switches([path.read_text(encoding="utf-8") for path in sorted(TESTS.rglob("*.py"))])
    assert {"PATIENCELAB_LAYOUT_WALK", "PATIENCELAB_FUZZ_EXAMPLES", "PATIENCELAB_REVIEW_GAMES"} <= read
    soak = soak_recipe(MAKEFILE.read_text(encoding="utf-8"))
    assert not sorted(name for name in read if f"{name}=" not in soak), "set these in the Makefile's soak target"


def test_a_sweep_left_out_of_make_soak_would_be_found() -> None:
    read = "os.environ"  # cut in two, or the check above would read this file's made-up switch
    source = f'N = int({read}.get("PATIENCELAB_NEW_SWEEP", "3"))\nHOME = {read}["PATIENCELAB_HOME"]\n'
    assert sweep_switches([source]) == {"PATIENCELAB_NEW_SWEEP"}
    makefile = "soak: setup\n\tPATIENCELAB_OLD_SWEEP=9 pytest tests\n\nplay:\n\tPATIENCELAB_NEW_SWEEP=1 jupyter\n"
    assert "PATIENCELAB_NEW_SWEEP=" not in soak_recipe(makefile)
    assert "PATIENCELAB_OLD_SWEEP=9" in soak_recipe(makefile)
