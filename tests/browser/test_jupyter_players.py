"""The student's notebook, ``examples/players.ipynb``, under Run All in real JupyterLab (issue 36): the automatic
player's demo plays on past 10 moves (no later cell stops it), and the evaluation's rows say how each game ended.
"""

from __future__ import annotations

import pathlib
import shutil

import pytest
from playwright.sync_api import Page, expect

from .jupyter_harness import Jupyter, kernel_eval, open_notebook, page_errors, run_all

pytestmark = pytest.mark.browser

NOTEBOOK = pathlib.Path(__file__).resolve().parents[2] / "examples" / "players.ipynb"


def test_run_all_of_the_players_notebook_lets_the_demo_play(
    page: Page, jupyter: Jupyter, artifacts: pathlib.Path
) -> None:
    errors = page_errors(page)
    with jupyter("lab") as server:
        shutil.copy(NOTEBOOK, server.root / "players.ipynb")
        open_notebook(page, server, "players.ipynb")
        run_all(page)
        root = page.locator("[data-version]").first  # the first board: the automatic player's demo
        expect(root).to_be_visible(timeout=120_000)
        moves = root.locator(".pl-stat-moves .pl-stat-value")
        seen: set[int] = set()
        for _ in range(3_000):  # a ceiling: Run All keeps the kernel busy with the cells below for a while
            seen.add(int(moves.text_content() or "0"))
            if max(seen) > 10:
                break
            page.wait_for_timeout(100)
        assert max(seen) > 10 and len(seen) >= 5, seen
        root.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / "jupyter-players-run-all.png"))
        state = kernel_eval(page, "print(board.game.moves, board.session.state['autoplay']['running'])").split()
        assert int(state[0]) > 10
        endings = kernel_eval(page, "print(*sorted({row.ended for row in mine.rows}))").split()
        assert endings and set(endings) <= {"won", "stuck", "repeated", "max_moves"}, endings
        kernel_eval(page, "board.stop_autoplay()")
    assert errors == []
