"""The test suite's own house rules.

Test modules share fixtures through ``conftest.py`` and share helpers and constants through plain modules (such as
``tests/model_helpers.py``, ``tests/session_helpers.py`` or ``tests/browser/page_harness.py``), never by importing
one another: a test module imported by another runs its module-level code twice, under two names, and ties two
files together that ``--dist loadfile`` puts on different workers. Nor does a module import a ``conftest.py``:
pytest loads those itself. A sweep that ``make test`` samples runs whole in ``make soak``.
"""

from __future__ import annotations

import ast
import os
import pathlib
import re
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tests import sweeps

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

#: What the suite reads from the environment that is not the size of a sweep: where records go, which build runs,
#: the folder of built distributions ``make dist-check`` hands ``tests/browser/test_wheel.py``, and the one switch of
#: the sweeps' sizes (``tests/sweeps.py``).
NOT_SWEEPS = {"PATIENCELAB_HOME", "PATIENCELAB_PURE", "PATIENCELAB_PURE_BUILD", "PATIENCELAB_DIST", "PATIENCELAB_SOAK"}
_READ = re.compile(r"""environ(?:\.get\(|\[)\s*["'](PATIENCELAB_\w+)["']""")
#: What makes a test module a sweep's: it imports a size of the table, or the layout walks' sampling.
SIZED_BY = {f"tests.sweeps.{name}" for name in (*sweeps.SIZES, *sweeps.SEEDS)} | {
    f"tests.browser.layout.{name}" for name in ("sampled", "walked", "WALKED_SIZES", "WALK_ALL")
}


def sweep_switches(sources: list[str]) -> set[str]:
    """The ``PATIENCELAB_*`` variables the sources read from ``os.environ``, less :data:`NOT_SWEEPS`: a sweep's
    own switch, beside the one of ``tests/sweeps.py``."""
    return {name for text in sources for name in _READ.findall(text)} - NOT_SWEEPS


def soak_recipe(makefile: str) -> str:
    """The commands of the Makefile's ``soak`` target (the tab-indented lines under ``soak:``)."""
    found = re.search(r"^soak:.*\n((?:\t.*\n)+)", makefile, re.M)
    assert found is not None, "the Makefile has no soak target"
    return found.group(1)


def left_out_of_soak(sources: dict[str, str], recipe: str) -> list[str]:
    """The test modules of ``sources`` (each file's path from the repository's root, and its text) that size a
    sweep (:data:`SIZED_BY`) but that no ``pytest --soak`` line of the soak ``recipe`` runs, by its path or a folder
    above it."""
    named = {word.rstrip("/") for line in recipe.splitlines() if "--soak" in line.split() for word in line.split()}

    def sized(path: str, text: str) -> bool:
        package = ".".join(path.split("/")[:-1])
        return any(name in SIZED_BY for _, name in imported(text, package))

    def soaked(path: str) -> bool:
        parts = path.split("/")
        return any("/".join(parts[:n]) in named for n in range(1, len(parts) + 1))

    return sorted(
        path
        for path, text in sources.items()
        if path.rsplit("/", 1)[-1].startswith("test_") and sized(path, text) and not soaked(path)
    )


def test_every_sweep_make_test_samples_runs_whole_in_make_soak() -> None:
    """Nothing leaves ``make test`` that ``make soak`` does not run: every sweep takes its size from the one table
    (no switch of its own), and ``make soak`` runs each test module that sizes one with ``--soak``."""
    sources = {
        path.relative_to(TESTS.parent).as_posix(): path.read_text(encoding="utf-8") for path in TESTS.rglob("*.py")
    }
    assert not sweep_switches(list(sources.values())), "take the size from tests/sweeps.py, under its one switch"
    recipe = soak_recipe(MAKEFILE.read_text(encoding="utf-8"))
    assert "tests/solver/test_soundness.py" in left_out_of_soak(sources, "")  # the check sees a sweep
    assert "tests/browser/test_jupyter.py" in left_out_of_soak(sources, "")
    assert not left_out_of_soak(sources, recipe), "run these with --soak in the Makefile's soak target"


def test_a_sweep_left_out_of_make_soak_would_be_found() -> None:
    read = "os.environ"  # cut in two, or the check above would read this file's made-up switch
    source = f'N = int({read}.get("PATIENCELAB_NEW_SWEEP", "3"))\nHOME = {read}["PATIENCELAB_HOME"]\n'
    assert sweep_switches([source]) == {"PATIENCELAB_NEW_SWEEP"}
    makefile = (
        "soak: setup\n\tpytest --soak tests/test_a.py tests/solver\n\tpytest tests/test_b.py\n\n"
        "play:\n\tpytest --soak tests/test_c.py\n"
    )
    sized = "from tests.sweeps import SOUNDNESS_CASES, SOUNDNESS_SEED\n"
    sources = {f"tests/{name}": sized for name in ("test_a.py", "test_b.py", "test_c.py", "solver/test_d.py")}
    sources |= {"tests/test_ab.py": "from .sweeps import SCHEDULES\n", "tests/test_e.py": "from . import sweeps\n"}
    sources["tests/browser/test_f.py"] = "from .layout import (\n    check,\n    sampled,\n)\n"
    sources["tests/browser/test_g.py"] = "from .layout import check\n"
    assert left_out_of_soak(sources, soak_recipe(makefile)) == [
        "tests/browser/test_f.py",
        "tests/test_ab.py",
        "tests/test_b.py",
        "tests/test_c.py",
    ]


def test_the_one_switch_sizes_every_sweep(monkeypatch: pytest.MonkeyPatch) -> None:
    """Unset, ``make test``'s sizes (its pure pass checks fewer soundness positions); set, ``make soak``'s, with
    the switch's value as the seed of the seeded sweeps."""
    monkeypatch.delenv(sweeps.SWITCH, raising=False)
    monkeypatch.delenv("PATIENCELAB_PURE", raising=False)
    assert (sweeps.SOUNDNESS_CASES, sweeps.SCHEDULES, sweeps.SCHEDULES_SEED, sweeps.WALK_ALL) == (5_000, 300, 1, 0)
    monkeypatch.setenv("PATIENCELAB_PURE", "1")
    assert sweeps.SOUNDNESS_CASES == 1_000
    monkeypatch.setenv(sweeps.SWITCH, "7")
    assert (sweeps.SOUNDNESS_CASES, sweeps.SCHEDULES, sweeps.SCHEDULES_SEED, sweeps.WALK_ALL) == (100_000, 2_000, 7, 1)
    assert all(sweeps.size(name) == soak for name, (_, soak) in sweeps.SIZES.items())
    with pytest.raises(AttributeError):
        sweeps.NO_SUCH_SWEEP  # noqa: B018


def _collected(*options: str) -> int:
    """How many chunks of the soundness harness ``pytest --collect-only`` finds with ``options``."""
    env = {key: value for key, value in os.environ.items() if key not in (sweeps.SWITCH, "PATIENCELAB_PURE")}
    command = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *options]
    done = subprocess.run(
        [*command, "tests/solver/test_soundness.py"], cwd=TESTS.parent, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.count("test_every_verdict_agrees_with_the_reference_search[")


def test_pytest_soak_runs_a_sweep_whole() -> None:
    """``--soak`` reaches the test modules before they read their sizes: 200 chunks of 500 positions, not 10."""
    assert (_collected(), _collected("--soak"), _collected("--soak", "--soak-seed", "3")) == (10, 200, 200)
