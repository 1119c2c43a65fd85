"""The parts of the documentation site made from the code at build time (a Sphinx extension).

- the API reference: a page per public module, an entry per name in its ``__all__`` (``reference/api/``);
- the gallery: the example notebooks, copied to be executed by MyST-NB (``gallery/notebooks/``), and the
  shipped lessons drawn step by step with ``patiencelab.svg.render`` (``gallery/lessons/``);
- cross-references written the short way in docstrings (``:class:`Position```) found by their unique name.

Everything it writes is git-ignored and written anew by each build.
"""

from __future__ import annotations

import ast
import builtins
import html
import importlib
import inspect
import pathlib
import pkgutil
import shutil
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

import patiencelab

DOCS = pathlib.Path(__file__).parent.parent
ROOT = DOCS.parent
#: Generated sources, written anew by every build (git-ignored).
API_DIR = DOCS / "reference" / "api"
NOTEBOOK_DIR = DOCS / "gallery" / "notebooks"
LESSON_DIR = DOCS / "gallery" / "lessons"
#: Libraries whose names appear in signatures and docstrings; they are not linked (``t`` is traitlets' ``typing``).
OTHER_LIBRARIES = {
    "t",
    "traitlets",
    "anywidget",
    "ipywidgets",
    "matplotlib",
    "dask",
    "distributed",
    "tqdm",
    "polib",
    "gymnasium",
    "spaces",
    "numpy",
    "np",
}
#: Names of other libraries that docstrings mention without their module (imported only for type checking).
OUTSIDE_NAMES = {"Axes", "Figure", "ProcessPoolExecutor", "Executor", "Future", "Client", "NDArray"}


# ------------------------------------------------------------------------------------------ public names


def public_modules() -> list[str]:
    """The modules whose names are public: ``patiencelab`` and every module below it that has ``__all__`` and no
    part of its name starting with ``_``.
    """
    names = ["patiencelab"]
    for info in pkgutil.walk_packages(patiencelab.__path__, "patiencelab."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        if hasattr(importlib.import_module(info.name), "__all__"):
            names.append(info.name)
    return names


def public_names() -> Iterator[tuple[str, str]]:
    """Every public name as ``(module, name)``: the names in each public module's ``__all__``."""
    for modname in public_modules():
        for name in importlib.import_module(modname).__all__:
            yield modname, name


def source_text(module: ModuleType) -> str:
    """The Python source of ``module``, read from its ``.py`` file: a module compiled by mypyc keeps its source
    beside it, though :func:`inspect.getsource` cannot find it there.
    """
    path = pathlib.Path(module.__file__ or "")
    return path.with_name(path.name.split(".")[0] + ".py").read_text(encoding="utf-8")


def origin(modname: str, name: str) -> str:
    """The module that defines ``name`` (by assignment, ``def`` or ``class``), following ``from x import name``."""
    module = importlib.import_module(modname)
    tree = ast.parse(source_text(module))
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and any((a.asname or a.name) == name for a in node.names):
            package = bool(module.__file__ and module.__file__.endswith("__init__.py"))
            base = modname if package else modname.rpartition(".")[0]
            source = node.module or ""
            if node.level:
                parts = base.split(".")
                source = ".".join(parts[: len(parts) - node.level + 1] + ([source] if source else []))
            return origin(source, name)
    return modname


def home(modname: str, name: str) -> str:
    """Where a name is documented in full: ``patiencelab`` for the package's own names, else where it is made."""
    return "patiencelab" if name in patiencelab.__all__ else origin(modname, name)


def _kind(value: object) -> str:
    if inspect.isclass(value):
        return "exception" if issubclass(value, BaseException) else "class"
    if inspect.isroutine(inspect.unwrap(value)):  # a function, cached ones too
        return "function"
    return "data"


def _entry(modname: str, name: str) -> str:
    """The reStructuredText of one name: its full autodoc entry at its home, else a short one pointing there."""
    value = getattr(importlib.import_module(modname), name)
    kind = _kind(value)
    where = home(modname, name)
    if where != modname:
        role = {"exception": "exc", "class": "class", "function": "func", "data": "data"}[kind]
        return f".. py:{kind}:: {name}\n   :no-index:\n\n   The same as :{role}:`{where}.{name}`.\n"
    if kind == "class" and issubclass(value, __import__("enum").Enum):
        return f".. autoclass:: {modname}.{name}\n   :undoc-members:\n"
    return f".. auto{kind}:: {modname}.{name}\n"


def write_reference() -> list[str]:
    """Write a page per public module into ``reference/api/``; their names, in order."""
    shutil.rmtree(API_DIR, ignore_errors=True)
    API_DIR.mkdir(parents=True)
    modules = public_modules()
    # `patiencelab.survey` is the function that the package hands on and also the module it comes from: the
    # function keeps the name in the index.
    shadowed = {f"patiencelab.{name}" for name in patiencelab.__all__}
    for modname in modules:
        module = importlib.import_module(modname)
        entries = "\n".join(_entry(modname, name) for name in module.__all__)
        automodule = f".. automodule:: {modname}\n   :no-members:\n\n"
        about = f"{inspect.getdoc(module)}\n\n" if modname in shadowed else automodule
        text = f"# {modname}\n\n```{{eval-rst}}\n{about}.. currentmodule:: {modname}\n\n{entries}```\n"
        (API_DIR / f"{modname}.md").write_text(text, encoding="utf-8")
    return modules


# ---------------------------------------------------------------------------------------------- gallery


def copy_notebooks() -> list[str]:
    """Copy the example notebooks where MyST-NB executes them; their names."""
    shutil.rmtree(NOTEBOOK_DIR, ignore_errors=True)
    NOTEBOOK_DIR.mkdir(parents=True)
    names = []
    for path in sorted((ROOT / "examples").glob("*.ipynb")):
        shutil.copy(path, NOTEBOOK_DIR / path.name)
        names.append(path.stem)
    return names


def write_lessons() -> list[str]:
    """Draw every shipped lesson step by step: a page per lesson, an SVG per step; the lesson names."""
    from patiencelab import svg
    from patiencelab.lessons import Lesson, text_in

    shutil.rmtree(LESSON_DIR, ignore_errors=True)
    LESSON_DIR.mkdir(parents=True)
    names = list(Lesson.builtin_names())
    for name in names:
        lesson = Lesson.builtin(name)
        title = text_in(lesson.title, "en") or name
        lines = [f"# {title}", "", f"`Lesson.builtin({name!r})`, {len(lesson.steps)} steps.", ""]
        intro = text_in(lesson.intro, "en")
        if intro:
            lines += [intro, ""]
        lines += ["The rules:", "", *(f"- {line}" for line in lesson.rules.describe("en").splitlines()), ""]
        for number, step in enumerate(lesson.steps, 1):
            before = lesson.game_at(number - 1)
            arrow = None if step.illegal else step.move
            picture = svg.render(before, move=arrow, marks=step.marks, width=560, title=f"Step {number}")
            (LESSON_DIR / f"{name}-{number:02d}.svg").write_text(picture, encoding="utf-8")
            kind = " (not allowed)" if step.illegal else " (a quiz)" if step.quiz else ""
            lines += [f"## Step {number}: `{step.move}`{kind}", ""]
            lines += [f"![Step {number} of {html.escape(title)}]({name}-{number:02d}.svg)", ""]
            if step.quiz is not None:
                lines += ["The class is asked for the move first; " + _quiz_words(step.quiz), ""]
            lines += [before.explain(step.move), ""]
            note = text_in(step.note, "en")
            if note:
                lines += [f"*Teacher's note:* {note}", ""]
        (LESSON_DIR / f"{name}.md").write_text("\n".join(lines), encoding="utf-8")
    index = ["# The shipped lessons", "", "```{toctree}", ":maxdepth: 1", "", *names, "```", ""]
    (LESSON_DIR / "index.md").write_text("\n".join(index), encoding="utf-8")
    return names


def _quiz_words(quiz: Any) -> str:
    if quiz.accept:
        return "it accepts " + ", ".join(f"`{m}`" for m in quiz.accept) + f" ({quiz.tries} tries)."
    return f"it accepts any move that keeps the deal winnable ({quiz.tries} tries)."


# ------------------------------------------------------------------------------------- cross-references


def resolve_short_names(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: nodes.TextElement
) -> nodes.Element | None:
    """Find ``:class:`Position``` and the like by their unique last name among PatienceLab's objects."""
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].lstrip("~.")
    domain = env.get_domain("py")
    modname, _, name = target.rpartition(".")
    if modname in sys.modules and modname.startswith("patiencelab") and hasattr(sys.modules[modname], name):
        target = f"{home(modname, name)}.{name}"  # a name handed on by a module: its full entry
    matches = [full for full in domain.objects if full == target or full.endswith("." + target)]
    matches = [m for m in matches if not domain.objects[m].aliased] or matches
    homes = [m for m in matches if m.count(".") == target.count(".") + 1 and m.startswith("patiencelab.")]
    chosen = homes[0] if len(homes) == 1 else matches[0] if len(matches) == 1 else None
    if chosen is None:
        return None
    entry = domain.objects[chosen]
    return domain.resolve_xref(env, node.get("refdoc", ""), app.builder, entry.objtype, chosen, node, contnode)


def is_outside(app: Sphinx, domain: str, node: pending_xref) -> bool:
    """True for a reference to a name of Python or another library, which the site shows as plain text."""
    if domain != "py":
        return False
    target = node["reftarget"].lstrip("~.")
    first = target.split(".")[0]
    if first in sys.stdlib_module_names or first in OTHER_LIBRARIES or "[" in target:
        return True
    if exists_unlisted(node, target):
        return True
    if "." in target:
        return False
    module = sys.modules.get(node.get("py:module") or "")
    value = getattr(module, target, None) if module is not None else None
    if value is not None:
        return not getattr(value, "__module__", "").startswith("patiencelab")
    return target in OUTSIDE_NAMES or hasattr(builtins, target)


def exists_unlisted(node: pending_xref, target: str) -> bool:
    """True when a PatienceLab docstring names a thing that exists in the code but has no entry (a private helper,
    an attribute set in ``__init__``): it is shown as code, not linked. A name that does not exist is an error.
    """
    module = sys.modules.get(node.get("py:module") or "")
    if module is None or not module.__name__.startswith("patiencelab"):
        return False
    scopes: list[object] = [module]
    if node.get("py:class"):
        scopes.insert(0, getattr(module, node["py:class"].split(".")[0], None))
    for scope in scopes:
        value: object = scope
        for part in target.split("."):
            value = getattr(value, part, None)
            if value is None:
                break
        if value is not None:
            return True
    name = target.rpartition(".")[2]
    source = source_text(module)
    return f"self.{name} =" in source or f"self.{name}:" in source


def warn_missing(app: Sphinx, domain: Any, node: pending_xref) -> bool | None:
    """Keep quiet about references outside PatienceLab; a PatienceLab name not found stays an error."""
    return True if is_outside(app, domain.name, node) else None


def parsable_signature(
    app: Sphinx, what: str, name: str, obj: object, options: Any, signature: str | None, annotation: str | None
) -> tuple[str | None, str | None] | None:
    """A dataclass field with a default factory shows as ``= <factory>``, which Sphinx cannot parse as Python (the
    whole signature would then lose its links); ``...`` says the same and parses.
    """
    if signature and "<factory>" in signature:
        return signature.replace("<factory>", "..."), annotation
    return None


def generate(app: Sphinx) -> None:
    """Write the generated sources before Sphinx reads the pages."""
    write_reference()
    copy_notebooks()
    write_lessons()


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the generators and the short-name resolver."""
    app.connect("builder-inited", generate)
    app.connect("missing-reference", resolve_short_names)
    app.connect("warn-missing-reference", warn_missing)
    app.connect("autodoc-process-signature", parsable_signature)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
