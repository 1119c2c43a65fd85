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
import itertools
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


def _load_time_imports(
    path: pathlib.Path, name: str, *, in_functions: bool = False, modules: frozenset[str] = frozenset()
) -> set[str]:
    """The package modules ``path`` imports at its top level (in ``if``/``try`` blocks too, not under
    ``TYPE_CHECKING``), and with ``in_functions`` those it imports inside functions and methods as well. From
    ``from package import module`` (a name of ``modules``) it takes the module only: the package is loaded first
    as for any of its modules, which is no import of its face.
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
                named = {f"{base}.{alias.name}" for alias in node.names}
                if not named <= modules:
                    found.add(base)
                found.update(named)

    visit(ast.parse(path.read_text()).body)
    return found


def import_graph(*, in_functions: bool = False) -> dict[str, set[str]]:
    """Each package module and the package modules it imports at load time (and inside functions)."""
    modules = {_module_name(p): p for p in SRC.rglob("*.py")}
    names = frozenset(modules)
    return {
        name: {
            t
            for t in _load_time_imports(path, name, in_functions=in_functions, modules=names)
            if t in modules and t != name
        }
        for name, path in modules.items()
    }


def check_acyclic(graph: dict[str, set[str]]) -> None:
    """Raise :class:`graphlib.CycleError` (naming the loop) when the graph has a cycle."""
    graphlib.TopologicalSorter(graph).prepare()


def test_the_graph_is_read_from_the_sources() -> None:
    graph = import_graph()
    assert "patiencelab.core.engine" in graph["patiencelab.core.game"]
    assert "patiencelab.widget.options" in graph["patiencelab.widget.board"]
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
_LAYERS = next(c for c in _CONTRACTS if c["type"] == "layers" and "containers" not in c)
#: The layers, top first: each a list of its independent rooms (``a | b``: neither imports the other), each room a
#: list of modules or packages that may import each other (``a : b``).
LAYERS = [[[entry.strip() for entry in room.split(":")] for room in layer.split("|")] for layer in _LAYERS["layers"]]
#: The contract's exemptions: an import that goes up a layer, from a module to a module or package.
EXEMPT = {tuple(part.strip() for part in rule.split("->")) for rule in _LAYERS["ignore_imports"]}
#: Package ``__init__`` modules that are the faces of their packages, in no layer of their own: the package itself
#: and its core.
FACADES = {"patiencelab", "patiencelab.core"}


def _within(module: str, entry: str) -> bool:
    return module == entry or module.startswith(entry + ".")


def place_of(module: str) -> tuple[int, int] | None:
    """The layer ``module`` is in (0 at the top) and its room in that layer, by its most specific entry, or
    ``None`` when it is in no layer.
    """
    found = [
        (len(entry), index, room)
        for index, layer in enumerate(LAYERS)
        for room, entries in enumerate(layer)
        for entry in entries
        if _within(module, entry)
    ]
    return max(found)[1:] if found else None


def layer_of(module: str) -> int | None:
    """The index of the layer ``module`` is in (0 at the top), or ``None``."""
    place = place_of(module)
    return None if place is None else place[0]


def in_no_layer(modules: set[str]) -> list[str]:
    """The modules of ``modules`` that no layer holds (the faces of the package aside)."""
    return sorted(m for m in modules - FACADES if place_of(m) is None)


def against_the_order(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """The imports of ``graph`` that go up a layer, or across to another room of the same layer, and are not
    exempt.
    """
    found = []
    for importer, imported in sorted((a, b) for a, targets in graph.items() for b in targets):
        low, high = place_of(importer), place_of(imported)
        if low is None or high is None or high[0] > low[0] or high == low:
            continue
        if not any(importer == a and _within(imported, b) for a, b in EXEMPT):
            found.append((importer, imported))
    return found


def test_every_module_is_in_a_layer() -> None:
    modules = set(import_graph())
    assert in_no_layer(modules) == []
    assert modules >= FACADES


def test_a_module_in_no_layer_would_be_found() -> None:
    modules = set(import_graph())
    assert in_no_layer(modules | {"patiencelab.new_room", "patiencelab.players.new_part"}) == ["patiencelab.new_room"]
    assert place_of("patiencelab.players.new_part") == place_of("patiencelab.players"), "a package holds its parts"


def test_the_layers_are_ordered_rooms_not_one_flat_layer() -> None:
    order = ["patiencelab.review", "patiencelab.lessons", "patiencelab.players", "patiencelab.survey"]
    layers = [layer_of(m) for m in order]
    assert all(a is not None and b is not None and a < b for a, b in itertools.pairwise(layers)), "each one lower"
    assert layer_of("patiencelab.stats") == len(LAYERS) - 1, "the statistics at the bottom"


def test_no_import_goes_against_the_order_but_the_documented_exemptions() -> None:
    assert {
        ("patiencelab.core.game", "patiencelab.hints"),
        ("patiencelab.core.game", "patiencelab.players"),
        ("patiencelab.core.game", "patiencelab.review"),
        ("patiencelab.core.game", "patiencelab.svg"),
    } == EXEMPT, "the only exemptions are the game's conveniences: hint, chances/play_out, review, _repr_svg_"
    text = (SRC.parent / "pyproject.toml").read_text()
    for importer, imported in EXEMPT:
        line = next(line for line in text.splitlines() if f'"{importer} -> {imported}"' in line)
        assert "#" in line, f"the exemption {importer} -> {imported} says why"
    assert against_the_order(import_graph(in_functions=True)) == []


def test_an_import_against_the_order_inside_a_function_would_be_found() -> None:
    graph = import_graph(in_functions=True)
    assert "patiencelab.hints" in graph["patiencelab.core.game"], "game.hint() imports inside the method"
    graph["patiencelab.core.table"].add("patiencelab.review")
    graph["patiencelab.core.cards"].add("patiencelab.core.game")
    graph["patiencelab.players.sampling"].add("patiencelab.hints")
    graph["patiencelab.review.chances"].add("patiencelab.env")  # across: two independent rooms of one layer
    assert against_the_order(graph) == [
        ("patiencelab.core.cards", "patiencelab.core.game"),
        ("patiencelab.core.table", "patiencelab.review"),
        ("patiencelab.players.sampling", "patiencelab.hints"),
        ("patiencelab.review.chances", "patiencelab.env"),
    ]


def test_no_circle_in_the_house_but_the_games_conveniences() -> None:
    graph = import_graph(in_functions=True)
    for importer, imported in EXEMPT:
        graph[importer] = {m for m in graph[importer] if not _within(m, imported)}
    check_acyclic(graph)


def _private_names_taken() -> list[tuple[str, str]]:
    """The ``_private`` names a module imports from another module of the package."""
    found = []
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("patiencelab"):
                found += [
                    (_module_name(path), a.name)
                    for a in node.names
                    if a.name.startswith("_") and a.name != "__version__"
                ]
    return sorted(found)


def test_no_module_takes_another_ones_private_names() -> None:
    """A room uses another room's public names only (the review once took the players' private ``_deals``)."""
    assert [taken for taken in _private_names_taken() if taken[1] != "_modules"] == []


def test_the_search_package_exports_the_search_only() -> None:
    import patiencelab.solver

    assert patiencelab.solver.__all__ == ["Outcome", "Solution", "solve", "solve_in_slices"]
    assert not hasattr(patiencelab.solver, "__getattr__"), "no names handed out lazily: the deprecated shims are gone"
