"""The documentation: every public name has a docstring and an entry in the site's reference, the reference shows
the real constructor of the game, no file cites a document the repository does not have, and the built site
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

import pytest
from sphinx.pycode import ModuleAnalyzer
from sphinx.util.inventory import InventoryFile

from .docs_generator import load_docs_generator

ROOT = pathlib.Path(__file__).parent.parent
SITE = ROOT / "build" / "docs"


DOCS = load_docs_generator()
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
    assert {"patiencelab", "patiencelab.lessons", "patiencelab.svg", "patiencelab.solver"} <= set(modules)
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
    assert DOCS.origin("patiencelab.survey", "Budget") == "patiencelab.survey.files"
    assert DOCS.home("patiencelab.core.game", "Klondike") == "patiencelab"
    assert DOCS.home("patiencelab.survey", "Budget") == "patiencelab.survey.files"


#: Modules whose key classes show an example in their docstring (the reference shows them; here they run).
EXAMPLES = ("patiencelab.core.cards", "patiencelab.core.moves", "patiencelab.core.rules", "patiencelab.core.game")


@pytest.mark.pure
@pytest.mark.parametrize("modname", DOCS.public_modules())
def test_the_docstring_examples_run(modname: str) -> None:
    result = doctest.testmod(importlib.import_module(modname), optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0
    assert result.attempted > 0 or modname not in EXAMPLES


# ------------------------------------------------------------------------------------------ citations

#: What is searched for citations: the repository's text files, not what is built, installed or cached.
_NOT_SOURCE = {".git", ".venv", ".venv-lite", "node_modules", "build", "dist", "test-artifacts", "__pycache__"}
_TEXT = {".py", ".md", ".ts", ".mjs", ".js", ".css", ".html", ".toml", ".json", ".ipynb", ".po", ".txt", ".yml"}
#: A document named in the text (``docs/play.md``, ``../CONTRIBUTING.md``), not a call such as ``mo.md(...)``.
_CITED = re.compile(r"(?<![\w./-])((?:\.{1,2}/)*[\w-][\w./-]*\.md)\b(?!\()")
_URL = re.compile(r"[a-z]+://\S+")


def missing_documents(path: pathlib.Path, text: str) -> list[str]:
    """The documents ``text`` (of the file at ``path``) cites that are in none of the places a reader would look:
    beside the file, at the repository's root, in ``docs/`` or among the pages the docs build generates. A place
    outside the repository never counts, even where this machine has such a file: the repository stands alone."""
    generated = (DOCS.LESSON_DIR, DOCS.NOTEBOOK_DIR)
    missing = []
    for found in _CITED.finditer(_URL.sub("", text)):
        cited = found.group(1)
        places = [p for p in (path.parent / cited, ROOT / cited, ROOT / "docs" / cited) if _inside(p)]
        if not any(p.exists() or any(p.resolve().is_relative_to(g) for g in generated) for p in places):
            missing.append(cited)
    return missing


def _inside(place: pathlib.Path) -> bool:
    return place.resolve().is_relative_to(ROOT.resolve())


def test_no_file_cites_a_document_the_repository_does_not_have() -> None:
    problems = []
    for path in sorted(ROOT.rglob("*")):
        if _NOT_SOURCE & set(path.relative_to(ROOT).parts) or not path.is_file():
            continue
        if path.suffix in _TEXT or path.name in ("Makefile", "CHANGELOG"):
            text = path.read_text(encoding="utf-8", errors="replace")
            problems += [f"{path.relative_to(ROOT)}: {cited}" for cited in missing_documents(path, text)]
    assert not problems, "cited, but not in the repository:\n" + "\n".join(problems)


def test_a_citation_of_a_missing_document_would_be_found() -> None:
    here, md = ROOT / "tests" / "test_x.py", ".md"  # the names are cut in two, or this file would cite them
    text = (
        f"see NOWHERE{md} and ../elsewhere/notes/gone{md}, docs/play.md, play.md#scoring, CONTRIBUTING.md,\n"
        "https://example.org/README.md, mo.md(f'x'), gallery/lessons/index.md"
    )
    assert missing_documents(here, text) == [f"NOWHERE{md}", f"../elsewhere/notes/gone{md}"]


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


@pytest.mark.site
@pytest.mark.parametrize(("modname", "name"), PUBLIC, ids=[f"{m}.{n}" for m, n in PUBLIC])
def test_every_public_name_has_a_reference_entry(inventory: set[str], modname: str, name: str) -> None:
    assert f"{DOCS.home(modname, name)}.{name}" in inventory
    page = (_site() / "reference" / "api" / f"{modname}.html").read_text(encoding="utf-8")
    assert re.search(rf">{re.escape(name)}<", page), f"the page of {modname} lists {name}"


@pytest.mark.site
def test_the_reference_shows_the_games_real_constructor() -> None:
    """Issue 35: it showed ``Klondike(*args, **kwargs)``, the ``__new__`` that checks the arguments first."""
    page = (_site() / "reference" / "api" / "patiencelab.html").read_text(encoding="utf-8")
    entry = re.search(r'<dt class="sig sig-object py" id="patiencelab\.Klondike">(.*?)</dt>', page, re.S)
    assert entry is not None, "no entry for patiencelab.Klondike"
    words = re.sub(r"<[^>]+>", "", entry.group(1))
    for argument in ("seed", "deal", "rules", "clock", "lang", "solvable"):
        assert argument in words, words
    assert "args" not in words, words


def _pages() -> list[pathlib.Path]:
    site = _site()
    return [p for p in site.rglob("*.html") if "lite" not in p.relative_to(site).parts[:1]]


# Attributes that make the browser fetch: a plain link (<a href>) is only followed when clicked.
FETCHING = re.compile(
    r"<(?:script|link|img|iframe|source|video|audio|embed|object)\b[^>]*?\b(?:src|href|data)="
    r"[\"']?(https?:)?//",
    re.IGNORECASE,
)


@pytest.mark.site
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


@pytest.mark.site
def test_the_site_links_to_the_lite_site_and_shows_the_gallery() -> None:
    site = _site()
    home = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="lite/lab/index.html?path=play.ipynb"' in home
    notebook = (site / "gallery" / "notebooks" / "play.html").read_text(encoding="utf-8")
    assert re.search(r'<img[^>]+src="[^"]+\.svg"', notebook), "the board is shown as its saved picture"
    lesson = (site / "gallery" / "lessons" / "traditional.html").read_text(encoding="utf-8")
    assert lesson.count(".svg") >= 10


#: The teacher guides and the heading of their section on the review, by language.
GUIDES = {
    "en": ("index", "## Review a game"),
    "nl": ("nl", "## Een partij nakijken"),
    "sv": ("sv", "## Gå igenom ett parti"),
}


def _guide_number(n: int, lang: str) -> str:
    """``n`` as the guide of ``lang`` writes it: 2,048 (en), 2.048 (nl), 2 048 (sv)."""
    return f"{n:,}".replace(",", {"en": ",", "nl": ".", "sv": " "}[lang])


def _review_section(lang: str) -> str:
    """The guide's section on the review, its prose only (code blocks left out), on one line."""
    page, heading = GUIDES[lang]
    text = (ROOT / "docs" / "teach" / f"{page}.md").read_text(encoding="utf-8")
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    prose = re.sub(r"```.*?```", "", section, flags=re.S)
    return " ".join(prose.split())


@pytest.mark.parametrize("lang", sorted(GUIDES))
def test_the_teacher_guides_state_the_reviews_numbers_as_the_code_has_them(lang: str) -> None:
    """Issue 62: the guides said 16 deals, 64 for a doubtful move and 1,024 solver calls; the code used 32 and 2,048.
    Every number the section states is one of the code's (or an example's: move 12, move 20, 3% (1-99%), the 95% of
    the interval, ceil(log2(moves + 1)) + 3), and each of the code's is stated.
    """
    from patiencelab.review import DEFAULT_MAX_STATES, GROW, GROWN_CALLS
    from patiencelab.review.chances import (
        CALLS_PER_SAMPLE,
        CONFIRM,
        DEFAULT_SAMPLE_STATES,
        LUCK,
        POSITIONS_PER_SAMPLE,
        REVIEW_SAMPLES,
        SAMPLE_STATES,
        SIGNIFICANCE,
        THRESHOLDS,
    )
    from patiencelab.review.verdict import POSITIONS_PER_SAMPLE as VERDICT_POSITIONS
    from patiencelab.stats import WIDE

    code = {
        REVIEW_SAMPLES,
        DEFAULT_SAMPLE_STATES,
        CONFIRM * REVIEW_SAMPLES,
        POSITIONS_PER_SAMPLE * REVIEW_SAMPLES,
        VERDICT_POSITIONS * REVIEW_SAMPLES,
        CALLS_PER_SAMPLE * REVIEW_SAMPLES,
        *SAMPLE_STATES.values(),
        DEFAULT_MAX_STATES,
        GROWN_CALLS,
        GROW * DEFAULT_MAX_STATES,
        round(100 * LUCK),
        round(100 * WIDE),
        round(100 * SIGNIFICANCE),
        *(round(100 * t) for t in THRESHOLDS.values()),
    }
    examples = {0, 1, 2, 3, 12, 20, 50, 95, 99, 100}
    text = _review_section(lang)
    stated = {int(re.sub(r"[,. ]", "", n)) for n in re.findall(r"(?<![\w.])\d{1,3}(?:[,. ]\d{3})*(?![\d%]*\w)", text)}
    assert stated <= code | examples, sorted(stated - code - examples)
    for n in code:
        assert _guide_number(n, lang) in text, (lang, n)
