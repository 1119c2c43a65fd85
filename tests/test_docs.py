"""The documentation: every public name has a docstring and an entry in the site's reference, and the built site
fetches nothing from outside.

The checks of the built site read ``build/docs`` (``make docs``, which ``make test`` runs before these tests); with
no site built they skip, except under CI, where they fail.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import inspect
import os
import pathlib
import re
import types
from typing import Any

import pytest
from sphinx.pycode import ModuleAnalyzer
from sphinx.util.inventory import InventoryFile

ROOT = pathlib.Path(__file__).parent.parent
SITE = ROOT / "build" / "docs"


def _load_generator() -> Any:
    """The docs' own generator (docs/_ext/patiencelab_docs.py): the one list of public modules and names."""
    spec = importlib.util.spec_from_file_location("patiencelab_docs", ROOT / "docs" / "_ext" / "patiencelab_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


DOCS = _load_generator()
PUBLIC = sorted(DOCS.public_names())


def lacks_docstring(module: types.ModuleType, name: str, defined_in: str) -> bool:
    """True when ``module.name`` has no docstring of its own (a class, a function) or no doc comment (a value)."""
    value = getattr(module, name)
    if inspect.isclass(value):
        doc = value.__dict__.get("__doc__")
        return not doc or doc.startswith(f"{name}(")  # a dataclass's made-up docstring is its signature
    if inspect.isroutine(inspect.unwrap(value)):  # a function, cached ones too
        return not inspect.getdoc(value)
    return ("", name) not in ModuleAnalyzer.for_module(defined_in).find_attr_docs()


def test_the_public_modules_are_found() -> None:
    modules = DOCS.public_modules()
    assert {"patiencelab", "patiencelab.lesson", "patiencelab.svg", "patiencelab.solver"} <= set(modules)
    assert not [m for m in modules if "._" in m]
    assert len(PUBLIC) > 200


# The docstrings are read from the pure modules: mypyc keeps a compiled function's signature but not its docstring.
@pytest.mark.pure
@pytest.mark.parametrize(("modname", "name"), PUBLIC, ids=[f"{m}.{n}" for m, n in PUBLIC])
def test_every_public_name_has_a_docstring(modname: str, name: str) -> None:
    module = importlib.import_module(modname)
    assert not lacks_docstring(module, name, DOCS.origin(modname, name)), f"{modname}.{name} needs a docstring"


def test_a_name_without_a_docstring_is_found(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "docless.py").write_text(
        '"""A module."""\n__all__ = ["Good", "bare", "VALUE", "NOTED"]\n'
        'class Good:\n    """Has one."""\n'
        "def bare() -> None:\n    pass\n"
        "VALUE = 1\n"
        "#: Has one.\nNOTED = 2\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("docless")
    found = [name for name in module.__all__ if lacks_docstring(module, name, "docless")]
    assert found == ["bare", "VALUE"]


def test_names_handed_on_are_documented_where_they_are_made() -> None:
    assert DOCS.origin("patiencelab", "Klondike") == "patiencelab.core.game"
    assert DOCS.origin("patiencelab.survey", "Budget") == "patiencelab.survey_io"
    assert DOCS.home("patiencelab.core.game", "Klondike") == "patiencelab"
    assert DOCS.home("patiencelab.survey", "Budget") == "patiencelab.survey_io"


#: Modules whose key classes show an example in their docstring (the reference shows them; here they run).
EXAMPLES = ("patiencelab.core.cards", "patiencelab.core.moves", "patiencelab.core.rules", "patiencelab.core.game")


@pytest.mark.pure
@pytest.mark.parametrize("modname", DOCS.public_modules())
def test_the_docstring_examples_run(modname: str) -> None:
    result = doctest.testmod(importlib.import_module(modname), optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0
    assert result.attempted > 0 or modname not in EXAMPLES


# ---------------------------------------------------------------------------------------------- the site


def _site() -> pathlib.Path:
    if not (SITE / "objects.inv").exists():
        if os.environ.get("CI") == "true":
            pytest.fail("no documentation site in build/docs: `make docs` must run before these tests")
        pytest.skip("no documentation site built: run `make docs`")
    return SITE


@pytest.fixture(scope="module")
def inventory() -> set[str]:
    """The Python names the built site has an entry for (from its objects.inv)."""
    with (_site() / "objects.inv").open("rb") as f:
        data = InventoryFile.load(f, "", lambda base, uri: uri)
    names: set[str] = set()
    for kind, entries in data.data.items() if hasattr(data, "data") else data.items():
        if kind.startswith("py:"):
            names.update(entries)
    return names


@pytest.mark.parametrize(("modname", "name"), PUBLIC, ids=[f"{m}.{n}" for m, n in PUBLIC])
def test_every_public_name_has_a_reference_entry(inventory: set[str], modname: str, name: str) -> None:
    assert f"{DOCS.home(modname, name)}.{name}" in inventory
    page = (_site() / "reference" / "api" / f"{modname}.html").read_text(encoding="utf-8")
    assert re.search(rf">{re.escape(name)}<", page), f"the page of {modname} lists {name}"


def _pages() -> list[pathlib.Path]:
    site = _site()
    return [p for p in site.rglob("*.html") if "lite" not in p.relative_to(site).parts[:1]]


# Attributes that make the browser fetch: a plain link (<a href>) is only followed when clicked.
FETCHING = re.compile(
    r"<(?:script|link|img|iframe|source|video|audio|embed|object)\b[^>]*?\b(?:src|href|data)="
    r"[\"']?(https?:)?//",
    re.IGNORECASE,
)


def test_no_page_fetches_anything_from_outside() -> None:
    pages = _pages()
    assert len(pages) > 20
    bad = [p.name for p in pages if FETCHING.search(p.read_text(encoding="utf-8"))]
    assert not bad
    styles = list((_site() / "_static").rglob("*.css"))
    assert not [p.name for p in styles if re.search(r"url\(\s*[\"']?(https?:)?//", p.read_text(encoding="utf-8"))]


def test_the_fetch_check_finds_an_outside_script() -> None:
    assert FETCHING.search('<script src="https://cdn.example.org/x.js"></script>')
    assert FETCHING.search("<link rel=stylesheet href=//fonts.example.org/css>")
    assert not FETCHING.search('<a href="https://example.org/">a link</a><script src="_static/x.js"></script>')


def test_the_site_links_to_the_lite_site_and_shows_the_gallery() -> None:
    site = _site()
    home = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="lite/lab/index.html?path=play.ipynb"' in home
    notebook = (site / "gallery" / "notebooks" / "play.html").read_text(encoding="utf-8")
    assert re.search(r'<img[^>]+src="[^"]+\.svg"', notebook), "the board is shown as its saved picture"
    lesson = (site / "gallery" / "lessons" / "traditional.html").read_text(encoding="utf-8")
    assert lesson.count(".svg") >= 10
