"""A board full-page on a projector, with no code: ``patiencelab present`` writes a one-cell notebook and shows it
with Voila, which runs the cell and serves its output alone.

``patiencelab present --lang nl --lesson traditional`` shows the Dutch board with the ``traditional`` lesson's step
controls; ``--port`` and ``--no-browser`` go to Voila. Voila comes with ``pip install patiencelab[present]``.
The notebook is :func:`notebook`'s, written into a temporary folder that goes when Voila stops.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import tempfile
from importlib.util import find_spec
from typing import Any

from patiencelab.core.errors import PatienceError
from patiencelab.core.i18n import check_language
from patiencelab.core.limits import check_path, check_seed, check_switch, check_text, check_whole

__all__ = ["command", "notebook"]


def notebook(*, lang: str = "en", lesson: str | None = "traditional", seed: int | None = None) -> dict[str, Any]:
    """The notebook Voila shows (nbformat 4.5): one cell that builds the board, with ``lesson`` shown when given.

    ``lang`` is checked here (a :class:`PatienceError` names the choices); the lesson's name is checked by
    :meth:`~patiencelab.lessons.format.Lesson.builtin` when the cell runs, and Voila shows its error on the page.
    """
    check_language(lang)
    if lesson is not None:
        check_text(lesson, 200, "lesson")
    if seed is not None:
        check_seed(seed)
    lines = ["from patiencelab import KlondikeWidget", "from patiencelab.lessons import Lesson", ""]
    lines.append(f"board = KlondikeWidget(lang={lang!r}, seed={seed!r})")
    if lesson is not None:
        lines.append(f"board.lesson = Lesson.builtin({lesson!r})")
    lines.append("board")
    cell: dict[str, Any] = {
        "cell_type": "code",
        "id": "board",
        "metadata": {},
        "source": "\n".join(lines),
        "outputs": [],
        "execution_count": None,
    }
    kernel = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return {"cells": [cell], "metadata": {"kernelspec": kernel}, "nbformat": 4, "nbformat_minor": 5}


def command(
    folder: pathlib.Path,
    *,
    lang: str = "en",
    lesson: str | None = "traditional",
    seed: int | None = None,
    port: int | None = None,
    browser: bool = True,
) -> list[str]:
    """Write :func:`notebook` into ``folder`` and return the command that serves it with Voila on 127.0.0.1."""
    folder = check_path(folder, "folder")
    if port is not None:
        check_whole(port, "port", low=1, high=65_535)
    check_switch(browser, "browser")
    path = folder / "present.ipynb"
    path.write_text(json.dumps(notebook(lang=lang, lesson=lesson, seed=seed), indent=1), encoding="utf-8")
    words = [sys.executable, "-m", "voila", str(path), "--Voila.ip=127.0.0.1", "--theme=light"]
    if port is not None:
        words.append(f"--port={port}")
    if not browser:
        words.append("--no-browser")
    return words


def present(
    *,
    lang: str = "en",
    lesson: str | None = "traditional",
    seed: int | None = None,
    port: int | None = None,
    browser: bool = True,
) -> int:
    """Run Voila on the board until it stops (Ctrl-C); returns its exit status."""
    if find_spec("voila") is None:
        raise PatienceError("Voila is not installed: pip install 'patiencelab[present]'")
    with tempfile.TemporaryDirectory(prefix="patiencelab-present-") as folder:
        words = command(pathlib.Path(folder), lang=lang, lesson=lesson, seed=seed, port=port, browser=browser)
        try:
            return subprocess.call(words, env=os.environ.copy())
        except KeyboardInterrupt:
            return 130
