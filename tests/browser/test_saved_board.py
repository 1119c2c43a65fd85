"""A saved notebook shows the board's last position when it is reopened: with JupyterLab's "Save Widget State
Automatically" on, three moves, save, reload, and the board shows them before any new move.
"""

from __future__ import annotations

import json
import pathlib

import pytest
from playwright.sync_api import Page, expect

from .jupyter_harness import PLAY_SETUP, Jupyter, drag, open_and_run, page_errors, write_notebook

pytestmark = pytest.mark.browser

_SAVED = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  return !!panel && !!panel.context && panel.context.model.dirty === false;
}"""


def test_a_saved_board_shows_its_last_position_on_reopen(page: Page, jupyter: Jupyter, artifacts: pathlib.Path) -> None:
    errors = page_errors(page)
    with jupyter("lab", settings={"@jupyter-widgets/jupyterlab-manager:plugin": {"saveState": True}}) as server:
        write_notebook(server.root / "saved.ipynb", PLAY_SETUP.replace("seed=7)", "seed=7, records=None)"))
        open_and_run(page, server, "saved.ipynb")
        root = page.locator("[data-version]").first
        expect(root).to_be_visible(timeout=60_000)
        drag(page, root.locator('[data-card="5D"]'), root.locator('[data-pile="t3"]'))
        expect(root).to_have_attribute("data-version", "2")
        root.locator('[data-pile="stock"]').click()
        expect(root).to_have_attribute("data-version", "3")
        root.locator('[data-pile="stock"]').click()
        expect(root).to_have_attribute("data-version", "4")
        page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
        page.wait_for_function(_SAVED, timeout=60_000, polling=200)
        saved = json.loads((server.root / "saved.ipynb").read_text())
        assert "application/vnd.jupyter.widget-state+json" in saved["metadata"].get("widgets", {})

        page.reload()
        root = page.locator("[data-version]").first
        expect(root).to_be_visible(timeout=60_000)  # from the saved state: no cell has run
        expect(root).to_have_attribute("data-version", "4")
        expect(root.locator('[data-pile="t3"] [data-card="5D"]')).to_have_count(1)
        expect(root.locator('[data-pile="t1"] [data-card]')).to_have_count(0)
        expect(root.locator('[data-pile="w"] [data-card]')).to_have_count(2)
        page.wait_for_timeout(300)
        page.screenshot(path=str(artifacts / "jupyter-saved-reopened.png"))
    assert errors == []
