"""The package's import graph: no module imports, at load time, a module that imports it back.

The import-linter contracts (``make lint``) check that the layers point down; this checks the rest of "no
cycles": imports at a module's top level (``TYPE_CHECKING`` blocks excepted) never form a loop. A convenience
method that imports its service inside the function (``Klondike.hint``, the python-chess way) is not a
load-time import and is not counted.
"""

from __future__ import annotations

import ast
import graphlib
import pathlib

import pytest

SRC = pathlib.Path(__file__).parent.parent / "src"


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _load_time_imports(path: pathlib.Path, name: str) -> set[str]:
    """The package modules ``path`` imports at its top level (in ``if``/``try`` blocks too, not in functions
    and not under ``TYPE_CHECKING``).
    """
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(statements: list[ast.stmt]) -> None:
        for node in statements:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                visit(node.orelse)
            elif isinstance(node, (ast.If, ast.Try)):
                visit(node.body)
                visit(node.orelse)
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join([*parts[: len(parts) - node.level + 1], base]).strip(".")
                found.add(base)
                found.update(f"{base}.{alias.name}" for alias in node.names)

    visit(ast.parse(path.read_text()).body)
    return found


def import_graph() -> dict[str, set[str]]:
    """Each package module and the package modules it imports at load time."""
    modules = {_module_name(p): p for p in SRC.rglob("*.py")}
    return {
        name: {t for t in _load_time_imports(path, name) if t in modules and t != name}
        for name, path in modules.items()
    }


def check_acyclic(graph: dict[str, set[str]]) -> None:
    """Raise :class:`graphlib.CycleError` (naming the loop) when the graph has a cycle."""
    graphlib.TopologicalSorter(graph).prepare()


def test_the_graph_is_read_from_the_sources() -> None:
    graph = import_graph()
    assert "patiencelab.core.table" in graph["patiencelab.core.game"]
    assert "patiencelab.widget.protocol" in graph["patiencelab.widget.board"]
    assert "patiencelab.solver" not in graph["patiencelab.core.game"], "lazy imports are not load-time imports"


def test_no_module_imports_itself_back_at_load_time() -> None:
    check_acyclic(import_graph())


def test_a_cycle_would_be_found() -> None:
    graph = import_graph()
    graph["patiencelab.core.table"].add("patiencelab.core.game")
    with pytest.raises(graphlib.CycleError):
        check_acyclic(graph)
