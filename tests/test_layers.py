"""The package's import graph: no module imports, at load time, a module that imports it back, every module is in
one of the layers of ``pyproject.toml``, and no import, at load time or inside a function, goes up a layer unless
the contract lists it as an exemption (with a comment saying why).

The import-linter contracts (``make lint``) check the layers too; this checks the rest of "no cycles": imports at a
module's top level (``TYPE_CHECKING`` blocks excepted) never form a loop. A convenience method that imports its
service inside the function (``Klondike.hint``, the python-chess way) is not a load-time import, but it goes up a
layer, so it must be one of the contract's exemptions.
"""

from __future__ import annotations

import ast
import graphlib
import pathlib
import sys

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

SRC = pathlib.Path(__file__).parent.parent / "src"


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


#: Statements whose bodies hold imports that run when a function is called (or a ``with`` or loop runs).
_BLOCKS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.With, ast.For, ast.While)


def _load_time_imports(path: pathlib.Path, name: str, *, in_functions: bool = False) -> set[str]:
    """The package modules ``path`` imports at its top level (in ``if``/``try`` blocks too, not under
    ``TYPE_CHECKING``), and with ``in_functions`` those it imports inside functions and methods as well.
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
            elif in_functions and isinstance(node, _BLOCKS):
                visit(node.body)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join([*parts[: len(parts) - node.level + 1], base]).strip(".")
                found.add(base)
                found.update(f"{base}.{alias.name}" for alias in node.names)

    visit(ast.parse(path.read_text()).body)
    return found


def import_graph(*, in_functions: bool = False) -> dict[str, set[str]]:
    """Each package module and the package modules it imports at load time (and inside functions)."""
    modules = {_module_name(p): p for p in SRC.rglob("*.py")}
    return {
        name: {t for t in _load_time_imports(path, name, in_functions=in_functions) if t in modules and t != name}
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


# ------------------------------------------------------------------------------------------------ layers

_CONTRACTS = tomllib.loads((SRC.parent / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
_LAYERS = next(c for c in _CONTRACTS if c["type"] == "layers")
#: The layers, top first: each a list of modules or packages.
LAYERS = [[part.strip() for part in layer.split(":")] for layer in _LAYERS["layers"]]
#: The contract's exemptions: an import that goes up a layer, from a module to a module or package.
EXEMPT = {tuple(part.strip() for part in rule.split("->")) for rule in _LAYERS["ignore_imports"]}
#: Package ``__init__`` modules: the faces of their packages, in no layer of their own. The package itself and
#: ``patiencelab.solver`` (whose deprecated names, for one release, import the services above the search).
FACADES = {"patiencelab", "patiencelab.core", "patiencelab.solver"}


def _within(module: str, entry: str) -> bool:
    return module == entry or module.startswith(entry + ".")


def layer_of(module: str) -> int | None:
    """The index of the layer ``module`` is in (0 at the top), by its most specific entry, or ``None``."""
    found = [(len(entry), index) for index, layer in enumerate(LAYERS) for entry in layer if _within(module, entry)]
    return max(found)[1] if found else None


def upward_imports(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """The imports of ``graph`` that go up a layer and are not exempt."""
    found = []
    for importer, imported in sorted((a, b) for a, targets in graph.items() for b in targets):
        low, high = layer_of(importer), layer_of(imported)
        if low is None or high is None or high >= low:
            continue
        if not any(importer == a and _within(imported, b) for a, b in EXEMPT):
            found.append((importer, imported))
    return found


def test_every_module_is_in_a_layer() -> None:
    modules = set(import_graph())
    assert sorted(m for m in modules - FACADES if layer_of(m) is None) == []
    assert modules >= FACADES


def test_no_import_goes_up_a_layer_but_the_documented_exemptions() -> None:
    assert len(EXEMPT) <= 4, "at most four exemptions, each with a comment in pyproject.toml"
    text = (SRC.parent / "pyproject.toml").read_text()
    for importer, imported in EXEMPT:
        line = next(line for line in text.splitlines() if f'"{importer} -> {imported}"' in line)
        assert "#" in line, f"the exemption {importer} -> {imported} says why"
    assert upward_imports(import_graph(in_functions=True)) == []


def test_an_upward_import_inside_a_function_would_be_found() -> None:
    graph = import_graph(in_functions=True)
    assert "patiencelab.hints" in graph["patiencelab.core.game"], "game.hint() imports inside the method"
    graph["patiencelab.core.table"].add("patiencelab.review")
    graph["patiencelab.core.cards"].add("patiencelab.core.game")
    assert upward_imports(graph) == [
        ("patiencelab.core.cards", "patiencelab.core.game"),
        ("patiencelab.core.table", "patiencelab.review"),
    ]
