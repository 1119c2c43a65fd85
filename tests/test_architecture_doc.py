"""``docs/architecture.md`` stays short and true: at most 150 lines, and every file it cites is in the repository and
every dotted Python name it cites can be imported or looked up.

A file is cited by its path (in code or in the layers' picture: ``core/game.py``, ``js/ui.ts``, ``lessons/*.json``,
``core/{cards,rules}.py``), from the repository's root or from ``src/patiencelab/``; a name is cited as code
(``widget.dispatch.handle``, ``core.game.Klondike.play``), from ``patiencelab`` or whole.
"""

from __future__ import annotations

import importlib
import itertools
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "architecture.md"
MAX_LINES = 150
#: Where a cited path may start: the repository's root, the package (the page's rooms are its folders), ``docs/``.
BASES = (ROOT, ROOT / "src" / "patiencelab", ROOT / "docs")
_EXTENSIONS = "py|ts|md|json|toml|po|css|mjs|txt|ipynb|svg"
#: A path: a word with a slash or a file's extension; braces (``{a,b}``) and ``*`` stand for several.
_PATH = re.compile(
    r"(?<![\w./{},*-])"  # not inside a longer word or path
    r"((?:[\w.{},*-]+/)+(?:[\w.{},*-]+\.(?:EXT))?"  # folders, and maybe a file
    r"|[\w{},*-]+\.(?:EXT))"  # or a file alone
    r"(?![\w/])".replace("EXT", _EXTENSIONS)
)
_CODE = re.compile(r"`([^`\n]+)`")
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_FENCE = re.compile(r"^```.*?^```", re.M | re.S)


def _expand(path: str) -> list[str]:
    """``core/{cards,rules}.py`` -> ``core/cards.py``, ``core/rules.py``."""
    parts = re.split(r"\{([^{}]*)\}", path)
    choices = [[text] if i % 2 == 0 else text.split(",") for i, text in enumerate(parts)]
    return ["".join(chosen) for chosen in itertools.product(*choices)]


def cited_paths(text: str) -> set[str]:
    """The paths the page cites, anywhere on it (prose, code, the layers' picture, tables)."""
    found = {match.group(1) for match in _PATH.finditer(text)}
    return {path for each in found for path in _expand(each) if not path.startswith(("http", "www."))}


def missing_paths(text: str) -> list[str]:
    def exists(path: str) -> bool:
        return any(any(base.glob(path)) if "*" in path else (base / path).exists() for base in BASES)

    return sorted(path for path in cited_paths(text) if not exists(path))


def cited_names(text: str) -> set[str]:
    """The dotted names the page cites as code (outside the fenced picture), less paths."""
    spans = _CODE.findall(_FENCE.sub("", text))
    names = {span for span in spans if _DOTTED.fullmatch(span)}
    return {name for name in names if not re.search(rf"\.(?:{_EXTENSIONS})$", name)}


def resolves(name: str) -> bool:
    """Whether ``name`` (``widget.dispatch.handle``, or ``patiencelab.COMPILED``) is a module, or an attribute of
    one, below ``patiencelab`` or whole."""
    parts = name.split(".")
    for prefix in (["patiencelab"], []):
        whole = prefix + parts
        for cut in range(len(whole), 0, -1):
            try:
                found: object = importlib.import_module(".".join(whole[:cut]))
            except ImportError:
                continue
            try:
                for attribute in whole[cut:]:
                    found = getattr(found, attribute)
            except AttributeError:
                break
            return True
    return False


def test_the_page_is_short() -> None:
    lines = len(PAGE.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"docs/architecture.md has {lines} lines: move detail to docs/developers/"


def test_every_file_the_page_cites_is_in_the_repository() -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert {"core/game.py", "js/ui.ts", "widget/dispatch.py", "core/cards.py"} <= cited_paths(text)
    assert not missing_paths(text), "cited, but not in the repository"


def test_every_name_the_page_cites_is_there() -> None:
    names = cited_names(PAGE.read_text(encoding="utf-8"))
    assert {"widget.intents.read_intent", "widget.dispatch._on_hint", "core.table.Table._examine"} <= names
    assert not sorted(name for name in names if not resolves(name)), "cited, but not in the package"


def test_a_wrong_citation_would_be_found() -> None:
    """The page of before cited ``protocol.read_intent`` (it is in ``widget/intents.py``) and a hint handler of
    the session (it is the intent table's)."""
    text = (
        "See `widget/protocol.py` and `core/{kernel,nowhere}.py`, `lessons/*.json` and `lessons/*.yaml.md`;\n"
        "`protocol.read_intent`, `widget.session.BoardSession._on_hint`, `widget.dispatch._on_hint`,\n"
        "`core.game.Klondike.play`, `patiencelab.COMPILED`, `stats.wilson`, `pyproject.toml`, `make check`.\n"
        "```text\nboard   widget/gone.py   undo/redo\n```\n"
    )
    assert missing_paths(text) == ["core/nowhere.py", "lessons/*.yaml.md", "widget/gone.py"]
    names = cited_names(text)
    assert "pyproject.toml" not in names
    assert sorted(name for name in names if not resolves(name)) == [
        "protocol.read_intent",
        "widget.session.BoardSession._on_hint",
    ]
