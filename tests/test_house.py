"""The board's house rules: no module of ``src/patiencelab/widget/`` grows over 400 lines (the session is made of
parts, each in a module of its own), and every one of them but the board's shell is listed in the import contract
that keeps widget libraries out of them.
"""

from __future__ import annotations

import pathlib
import sys

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

ROOT = pathlib.Path(__file__).parent.parent
WIDGET = ROOT / "src" / "patiencelab" / "widget"
#: The most lines a module of the board may have.
MOST_LINES = 400


def too_long(folder: pathlib.Path, most: int = MOST_LINES) -> dict[str, int]:
    """The Python files of ``folder`` with more than ``most`` lines, and their lengths."""
    lengths = {path.name: len(path.read_text(encoding="utf-8").splitlines()) for path in folder.glob("*.py")}
    return {name: lines for name, lines in lengths.items() if lines > most}


def test_no_module_of_the_board_is_over_400_lines() -> None:
    assert too_long(WIDGET) == {}, "split the module into parts that talk back through a small protocol"


def test_the_line_count_catches_a_long_module(tmp_path: pathlib.Path) -> None:
    (tmp_path / "short.py").write_text("x = 1\n" * MOST_LINES)
    (tmp_path / "long.py").write_text("x = 1\n" * (MOST_LINES + 1))
    assert too_long(tmp_path) == {"long.py": MOST_LINES + 1}


def test_every_module_of_the_board_but_its_shell_runs_without_a_widget_library() -> None:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    (contract,) = [c for c in contracts["contracts"] if c["name"].startswith("Only the board itself loads")]
    modules = {f"patiencelab.widget.{path.stem}" for path in WIDGET.glob("*.py") if path.stem != "__init__"}
    listed = {name for name in contract["source_modules"] if name.startswith("patiencelab.widget.")}
    assert listed == modules - {"patiencelab.widget.board"}
