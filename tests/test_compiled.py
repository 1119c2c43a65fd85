"""The compiled modules (mypyc) and the pure ones give the same answers: verdicts, solutions, positions searched,
hints, legal moves, scores and rule errors on a fixed set of deals, each mode run in its own process.

Also: ``PATIENCELAB_PURE=1`` loads every module from its source, and a source edited after the build makes the
package fall back to the pure modules with one line of notice; ``help()`` shows the same docstrings and signatures
in either build (mypyc drops docstrings: the build writes them back into the C, see ``hatch_build.py``).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import os
import pathlib
import pydoc
import random
import shutil
import subprocess
import sys

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]
from collections.abc import Iterator
from typing import Any

import pytest

import patiencelab
import patiencelab.core.game as game_module
from patiencelab import IllegalMoveError, Klondike, Rules, solve
from patiencelab.core.game import Klondike as GameKlondike
from patiencelab.hints import hint_move
from patiencelab.solver import solve as public_solve

REPO = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = pathlib.Path(patiencelab.__file__).resolve().parent
MANIFEST = PACKAGE / "_compiled.json"

#: The deals: seeds under three rule sets, each solved within a state budget (so the same in any process).
DEALS = (
    [(seed, preset, draw) for seed in range(6) for preset, draw in (("standard", 1), ("standard", 3))]
    + [(seed, "traditional", 3) for seed in range(2)]
    + [(29, "standard", 3), (3, "standard", 1)]
)  # impossible: a dead end, and a search of some 38,000 positions


def answers() -> dict[str, Any]:
    """Everything the compiled modules decide, on :data:`DEALS`, as JSON-ready values."""
    out: dict[str, Any] = {"compiled": list(patiencelab.COMPILED), "deals": []}
    for seed, preset, draw in DEALS:
        rules = Rules.preset(preset, draw=draw)
        game = Klondike(seed=seed, rules=rules)
        solution = solve(game, seconds=1e9, max_states=40_000)
        rng = random.Random(seed)
        walk = []
        for step in range(40):  # a random walk: legal moves, a rule error, the score, now and then a hint
            legal = game.legal_moves()
            if not legal:
                break
            hint = hint_move(game, max_states=2_000) if step % 8 == 0 else None
            try:
                game.play("t1-t2")
                error = "played"
                game.undo()
            except IllegalMoveError as err:
                error = f"{err.rule}: {err.reason}"
            game.play(rng.choice(legal))
            walk.append([[str(m) for m in legal], str(hint), error, game.score, game.status])
        out["deals"].append(
            [seed, preset, draw, solution.outcome, [str(m) for m in solution.moves], solution.states, walk]
        )
    return out


def run_answers(pure: bool) -> dict[str, Any]:
    """:func:`answers` in a fresh process, with the pure or the compiled modules."""
    env = {**os.environ, "PATIENCELAB_PURE": "1" if pure else "0", "PYTHONPATH": str(REPO)}
    code = "import json, tests.test_compiled as t; print(json.dumps(t.answers()))"
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=REPO, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def compiled_build() -> bool:
    """True when this install has compiled modules; under CI it must (``make setup`` compiles)."""
    if MANIFEST.is_file():
        return True
    if os.environ.get("CI", "").lower() not in ("", "0", "false"):
        pytest.fail("CI must run compiled: 'make setup' left no compiled modules (is a C compiler installed?)")
    pytest.skip("this install has no compiled modules (no C compiler when it was built)")


def test_pure_and_compiled_modules_give_the_same_answers() -> None:
    compiled_build()
    pure, native = run_answers(pure=True), run_answers(pure=False)
    assert pure.pop("compiled") == []
    assert native.pop("compiled") == sorted(json.loads(MANIFEST.read_text())["modules"])
    assert pure == native
    outcomes = {deal[3] for deal in native["deals"]}
    assert {"solved", "impossible"} <= outcomes  # the set has both verdicts, so both are compared


def test_the_suite_runs_on_the_modules_the_environment_asks_for() -> None:
    if os.environ.get("PATIENCELAB_PURE") == "1":
        assert patiencelab.COMPILED == ()
        assert all(not str(sys.modules[name].__file__).endswith(".so") for name in sys.modules if "patiencelab" in name)
    elif compiled_build():
        assert patiencelab.COMPILED, "compiled modules are built but the pure ones were loaded"
        assert all(str(sys.modules[name].__file__).endswith(".so") for name in patiencelab.COMPILED)


def test_an_edited_source_falls_back_to_the_pure_modules_with_a_notice(tmp_path: pathlib.Path) -> None:
    compiled_build()
    copy = tmp_path / "patiencelab"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "static"))
    shared = list(PACKAGE.parent.glob("patiencelab__mypyc.*"))
    for path in shared:
        shutil.copy2(path, tmp_path / path.name)
    code = "import json, patiencelab; print(json.dumps(patiencelab.COMPILED))"
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    env.pop("PATIENCELAB_PURE", None)

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True)

    fresh = run()
    assert fresh.returncode == 0 and json.loads(fresh.stdout), fresh.stderr
    kernel = copy / "core" / "kernel.py"
    kernel.write_text(kernel.read_text() + "\n# edited\n")
    edited = run()
    assert edited.returncode == 0 and json.loads(edited.stdout) == [], edited.stderr
    notice = [line for line in edited.stderr.splitlines() if "patiencelab:" in line]
    assert len(notice) == 1 and "patiencelab.core.kernel changed since it was compiled" in notice[0]


# ------------------------------------------------------------------------------------------------------ help()


def source_docs(module: str) -> Iterator[tuple[str, str]]:
    """The docstrings in a module's source (read beside the module, compiled or not): qualified name, cleaned."""
    path = PACKAGE.parent.joinpath(*module.split(".")).with_suffix(".py")
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if not isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            continue
        inner = node.body if isinstance(node, ast.ClassDef) else []
        for item in [node, *inner]:
            if isinstance(item, (ast.FunctionDef, ast.ClassDef)) and (doc := ast.get_docstring(item)) is not None:
                yield (item.name if item is node else f"{node.name}.{item.name}"), doc


def shown_doc(module: str, qualified: str) -> str | None:
    """The docstring ``help()`` shows for a module's function, class, method or property."""
    owner: Any = importlib.import_module(module)
    *path, name = qualified.split(".")
    for part in path:
        owner = getattr(owner, part)
    found = inspect.getattr_static(owner, name)
    if isinstance(found, (staticmethod, classmethod)):
        found = found.__func__
    return inspect.getdoc(found.fget if isinstance(found, property) else found)


#: The modules the build compiles (pyproject.toml).
COMPILABLE = tuple(
    tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["hatch"]["build"]["hooks"]["custom"]["modules"]
)


@pytest.mark.parametrize("module", COMPILABLE)
def test_every_docstring_of_the_source_is_shown_by_help(module: str) -> None:
    """Issue 35: mypyc dropped them (``Klondike.__doc__`` was empty, ``Klondike.play.__doc__`` None)."""
    # (not __new__'s: a compiled class's __new__ is the type's slot, whose docstring Python writes)
    docs = [(name, doc) for name, doc in source_docs(module) if not name.endswith(".__new__")]
    assert docs
    missing = [name for name, doc in docs if shown_doc(module, name) != doc]
    assert not missing, f"{module}: help() shows no (or another) docstring for {missing}"
    unreadable = []
    for name, _ in docs:
        found: Any = importlib.import_module(module)
        for part in name.split("."):
            found = getattr(found, part)
        if inspect.isroutine(found):
            try:
                inspect.signature(found)
            except ValueError:  # help() would show "name(...)"
                unreadable.append(name)
    assert not unreadable, f"{module}: inspect cannot read the signature of {unreadable}"


def test_help_shows_the_game_its_play_and_hint_and_solve_with_their_arguments() -> None:
    """What ``help()``, ``Klondike.play?`` and Shift+Tab show: the summary line and the real arguments (the
    constructor's, not the ``*args, **kwargs`` of the ``__new__`` that checks them first)."""
    assert Klondike is GameKlondike and solve is public_solve
    expected: dict[Any, tuple[str, list[str]]] = {
        Klondike: ("One game of Klondike under some", ["seed", "deal", "rules", "clock", "lang", "solvable"]),
        Klondike.play: ("Play ``move`` (a :class:`Move` or its notation)", ["self", "move"]),
        Klondike.hint: (
            "A good next move from what a player can see",
            ["self", "peek", "samples", "max_states", "seconds"],
        ),
        solve: ("Decide whether a position can be won", ["source", "rules", "seconds", "max_states"]),
    }
    for target, (summary, arguments) in expected.items():
        doc = inspect.getdoc(target)
        assert doc is not None and doc.startswith(summary), (target, doc)
        signature = inspect.signature(target)
        assert list(signature.parameters) == arguments, (target, signature)
        shown = pydoc.render_doc(target, renderer=pydoc.plaintext)  # type: ignore[attr-defined]
        assert summary in shown and all(name in shown for name in arguments), shown
    keywords = inspect.signature(Klondike).parameters.values()
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in keywords)
    assert inspect.signature(Klondike).parameters["lang"].default == "en"


def test_help_lists_the_constructor_with_its_arguments_in_either_build() -> None:
    """Compiled, ``help(Klondike)`` listed ``__init__(self, /, *args, **kwargs)``, the slot's generic wrapper
    (issue 61): the build marks mypyc's own ``__init__`` entry to take its place (hatch_build.py)."""
    shown = pydoc.render_doc(Klondike, renderer=pydoc.plaintext)  # type: ignore[attr-defined]
    (init,) = [line.strip(" |") for line in shown.splitlines() if line.strip(" |").startswith("__init__(")]
    assert "*args" not in init and "**kwargs" not in init, init
    assert init.startswith("__init__(self, ") and "*, seed" in init, init
    assert all(name in init for name in ("deal", "rules", "clock", "lang", "solvable")), init
    game = Klondike(seed=3)
    Klondike.__init__(game, seed=4)  # the listed __init__ is the one that runs
    assert game.deal == Klondike(seed=4).deal


#: The public methods of :class:`Klondike` that take arguments from a user, defined in ``core/game.py`` (never
#: compiled), with the types ``help()`` shows for them.
TYPED = {
    "hint": "(self, *, peek: bool = False, samples: int = 16, max_states: int | None = 2000, seconds: float = inf)",
    "chances": "(self, *, samples: int = 32, max_states: int | None = 10000, seed: int = 0)",
    "is_winnable": "(self, *, seconds: float = 10.0, max_states: int | None = None)",
    "solve": "(self, *, seconds: float = 10.0, max_states: int | None = None)",
    "view": "(self, *, reveal: bool = False) -> dict[str, typing.Any]",
}


def test_help_shows_the_game_s_signatures_with_their_types_in_either_build() -> None:
    """Issue 63: the game's conveniences took ``Any`` (so that mypyc let a wrong type through to our checks), and
    compiled, ``help()`` showed no types at all; the constructor was ``__new__(*args, **kwargs)`` in front."""
    shown = pydoc.render_doc(Klondike, renderer=pydoc.plaintext)  # type: ignore[attr-defined]
    assert "Klondike(*, seed: int | None = None, deal: str | None = None, rules: patiencelab.core.rules.Rules" in shown
    assert "lang: str = 'en', solvable: bool = False)" in shown
    for name, signature in TYPED.items():
        assert str(inspect.signature(getattr(Klondike, name))).startswith(signature), name
    for name, member in vars(GameKlondike).items():
        function = member.__func__ if isinstance(member, classmethod) else member
        if name.startswith("_") or not inspect.isfunction(function):
            continue
        for parameter in inspect.signature(function).parameters.values():
            assert parameter.name in ("self", "cls") or parameter.annotation not in (inspect.Parameter.empty, Any)
            assert "Any" not in str(parameter.annotation) or "Mapping[str, typing.Any]" in str(parameter.annotation)
    assert "patiencelab.core.game" not in COMPILABLE  # so the signatures are Python's own, in either build
    for door in (solve, patiencelab.solver.solve_in_slices):  # the solver's public doors, interpreted too
        budget = inspect.signature(door).parameters
        assert (str(budget["seconds"].annotation), str(budget["max_states"].annotation)) == ("float", "int | None")


def test_the_constructor_checks_each_argument_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 63: ``Klondike.__new__`` checked the arguments before the compiled ``__init__`` checked them again."""
    calls: list[object] = []

    def counted(check: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            calls.append(args[0])
            return check(*args, **kwargs)

        return wrapper

    for checker in ("check_language", "check_switch"):
        monkeypatch.setattr(GameKlondike.__module__ + "." + checker, counted(getattr(game_module, checker)))
    Klondike(seed=3, lang="nl", solvable=False)
    assert calls == ["nl", False]


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # pydoc reads ipywidgets' deprecated class attributes
def test_help_shows_each_main_public_name_with_its_docstring_and_real_signature() -> None:
    """``help()`` of the names a user meets first (issue 63): its summary line and its own arguments, in the build
    this process runs (``make test`` runs this file compiled and pure)."""
    from patiencelab import KlondikeWidget
    from patiencelab.lessons import Lesson
    from patiencelab.players import NoPeek
    from patiencelab.review import review

    expected: dict[Any, list[str]] = {
        Klondike: ["seed", "deal", "rules", "clock", "lang", "solvable"],
        KlondikeWidget: ["game", "seed", "rules", "lang", "records", "lesson"],
        solve: ["source", "rules", "seconds", "max_states"],
        NoPeek: ["samples", "max_states", "seed"],
        review: ["game", "samples", "max_states"],
        Lesson: ["title", "steps", "rules", "deal", "position"],
    }
    for target, arguments in expected.items():
        doc = inspect.getdoc(target)
        assert doc and len(doc.splitlines()[0]) > 10, (target, doc)
        parameters = inspect.signature(target).parameters
        assert all(name in parameters for name in arguments), (target, list(parameters))
        kinds = {p.kind for p in parameters.values()}
        assert not kinds <= {inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD}, target
        shown = pydoc.render_doc(target, renderer=pydoc.plaintext)  # type: ignore[attr-defined]
        assert doc.splitlines()[0] in shown and all(name in shown for name in arguments), shown
