"""A page reload with the kernel still running keeps the game in play (issue 36), in JupyterLab and Notebook 7,
whether or not the notebook was saved: a saved notebook shows the live board again (its widget model lives on in
the kernel), and an unsaved one, whose output is gone, offers the game as soon as the cell runs again. The board is
a seeded one, as a teacher's notebooks are (issue 60: it dealt its seed afresh, with no offer); in the saved
notebook the cell is run again too, and the new board offers the game the live board plays.
"""

from __future__ import annotations

import json
import pathlib

import pytest
from playwright.sync_api import Locator, Page, expect

from .jupyter_harness import Flavour, Jupyter, kernel_eval, open_notebook, page_errors, run_all, write_notebook
from .layout import sampled

pytestmark = pytest.mark.browser

CELL = "from patiencelab import KlondikeWidget\nboard = KlondikeWidget(seed=3, lang='nl')\nboard"
HISTORY = "print([str(move) for move in board.game.history])"


#: The notebook is saved only when the test says so (JupyterLab and Notebook 7 autosave every 2 minutes).
NO_AUTOSAVE = {"@jupyterlab/docmanager-extension:plugin": {"autosave": False}}


def board_of(page: Page) -> Locator:
    root = page.locator("[data-version]").first
    expect(root).to_be_visible(timeout=90_000)
    return root


def widget_outputs(path: pathlib.Path) -> int:
    """How many boards the notebook file on disk shows."""
    cells = json.loads(path.read_text())["cells"]
    mime = "application/vnd.jupyter.widget-view+json"
    return sum(mime in out.get("data", {}) for cell in cells for out in cell.get("outputs", []))


#: Each host with the notebook saved and not: make soak; make test one of each.
RELOADS = sampled(
    [("lab", True), ("lab", False), ("notebook", True), ("notebook", False)], ("lab", False), ("notebook", True)
)


@pytest.mark.parametrize(
    ("flavour", "saved"), RELOADS, ids=[f"{flavour}-{'saved' if saved else 'unsaved'}" for flavour, saved in RELOADS]
)
def test_a_reload_keeps_the_game_in_play(
    flavour: Flavour, saved: bool, page: Page, jupyter: Jupyter, artifacts: pathlib.Path
) -> None:
    errors = page_errors(page)
    page.on("dialog", lambda dialog: dialog.accept())  # "leave the page with unsaved changes?"
    with jupyter(flavour, settings=NO_AUTOSAVE) as server:
        notebook = server.root / "play.ipynb"
        write_notebook(notebook, CELL)
        open_notebook(page, server, "play.ipynb")
        run_all(page)
        root = board_of(page)
        root.locator('[data-pile="stock"]').click()
        expect(root.locator('[data-pile="w"] [data-card]')).to_have_count(1)
        root.locator('[data-pile="stock"]').click()
        expect(root.locator('[data-pile="w"] [data-card]')).to_have_count(2)
        played = kernel_eval(page, HISTORY).strip()
        assert played == "['d', 'd']"
        top = root.locator('[data-pile="w"] [data-card]').last.get_attribute("data-card")
        if saved:
            page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
            page.wait_for_function(
                "() => !window.jupyterapp.shell.currentWidget.context.model.dirty", timeout=30_000, polling=200
            )
            assert widget_outputs(notebook) == 1
        page.reload()
        page.wait_for_function(
            "() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
            " && window.jupyterapp.shell.currentWidget.sessionContext"
            " && window.jupyterapp.shell.currentWidget.sessionContext.session"
            " && window.jupyterapp.shell.currentWidget.sessionContext.session.kernel"
            " && window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.connectionStatus === 'connected'",
            timeout=90_000,
            polling=200,
        )
        assert kernel_eval(page, HISTORY).strip() == played, "the same kernel, the board still in it"
        if saved:
            # the saved output names the board's model, which lives on in the kernel: the live board is back
            root = board_of(page)
            expect(root.locator('[data-pile="w"] [data-card]')).to_have_count(2)
            expect(root.locator(f'[data-pile="w"] [data-card="{top}"]')).to_have_count(1)
            root.scroll_into_view_if_needed()
            page.screenshot(path=str(artifacts / f"jupyter-reload-{flavour}-saved.png"))
            root.locator('[data-pile="stock"]').click()
            expect(root.locator('[data-pile="w"] [data-card]')).to_have_count(3)
            played = kernel_eval(page, HISTORY).strip()
            assert played == "['d', 'd', 'd']", "it plays on, live"
            top = root.locator('[data-pile="w"] [data-card]').last.get_attribute("data-card")
        else:
            assert widget_outputs(notebook) == 0, "nothing was saved"
            expect(page.locator("[data-version]")).to_have_count(0)
        run_all(page)  # the cell again: a new board of seed 3, which asks at once
        root = board_of(page)
        banner = root.locator('.pl-banner[data-kind="resume"]')
        expect(banner).to_be_visible(timeout=60_000)
        expect(banner.locator(".pl-banner-title")).to_contain_text("Wil je verder met je spel van ")
        expect(root.locator('[data-pile="w"] [data-card]')).to_have_count(0)  # seed 3 dealt afresh meanwhile
        root.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"jupyter-reload-{flavour}-{'saved' if saved else 'unsaved'}-offer.png"))
        banner.locator('[data-action="resume"]').click()
        expect(root.locator(f'[data-pile="w"] [data-card="{top}"]')).to_have_count(1, timeout=30_000)
        expect(banner).to_be_hidden()
        assert kernel_eval(page, HISTORY).strip() == played
        assert kernel_eval(page, "print(board.game.seed)").strip() == "3"
        if not saved:
            page.screenshot(path=str(artifacts / f"jupyter-reload-{flavour}-unsaved-continued.png"))
            # offered once: the board after this one, in the same kernel, asks about the game continued here,
            # never about a declined one
            kernel_eval(page, "second = KlondikeWidget(seed=3); second.decline_resume(); third = KlondikeWidget()")
            assert kernel_eval(page, "print(third.state['stats']['resume'])").strip() == "None"
    assert errors == []
