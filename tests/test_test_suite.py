"""The test suite's own house rules.

Test modules share fixtures through ``conftest.py`` and share helpers and constants through plain modules (such as
``tests/model_helpers.py``, ``tests/session_helpers.py`` or ``tests/browser/page_harness.py``), never by importing
one another: a test module imported by another runs its module-level code twice, under two names, and ties two
files together that ``--dist loadfile`` puts on different workers. Nor does a module import a ``conftest.py``:
pytest loads those itself.
"""

from __future__ import annotations

import ast
import pathlib
from collections.abc import Iterator

TESTS = pathlib.Path(__file__).resolve().parent


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
