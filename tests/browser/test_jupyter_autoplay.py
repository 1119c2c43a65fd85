"""Watching a player on the board in real JupyterLab: ``board.autoplay(players.Greedy())`` plays its moves on
screen, one after another, while the kernel stays free, and the board's Stop button ends it. In three languages
at three sizes.
"""

from __future__ import annotations

import pathlib

import pytest
from playwright.sync_api import Page, expect

from patiencelab.core.i18n import labels, message

from .jupyter_harness import LANGUAGE_SIZES, Jupyter, kernel_eval, open_and_run, page_errors, write_notebook

pytestmark = pytest.mark.browser

SETUP = "from patiencelab import KlondikeWidget, players\nw = KlondikeWidget(seed=5, records=None)\nw"


def test_a_player_plays_on_the_board_and_stops_when_asked(
    page: Page, jupyter: Jupyter, artifacts: pathlib.Path
) -> None:
    errors = page_errors(page)
    with jupyter("lab") as server:
        write_notebook(server.root / "watch.ipynb", SETUP)
        open_and_run(page, server, "watch.ipynb")
        root = page.locator("[data-version]").first
        expect(root).to_be_visible(timeout=60_000)
        for lang, (width, height) in LANGUAGE_SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            if width < 600:  # a phone's width: JupyterLab's file browser would take most of it
                page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
            kernel_eval(page, f"w.lang = {lang!r}\nw.new_game(seed=5)")
            stop = root.locator('.pl-bar [data-action="stop-autoplay"]')
            expect(stop).to_be_hidden()
            kernel_eval(page, "w.autoplay(players.Greedy(), pace=0.3)")
            expect(stop).to_be_visible(timeout=30_000)
            expect(stop).to_have_attribute("aria-label", labels(lang)["stop-autoplay"])
            expect(root.locator(".pl-playing")).to_have_text(labels(lang)["autoplay-playing"].format(player="Greedy"))
            said = kernel_eval(page, "print(w.session.state['message']['text'])").strip()
            assert said == message("autoplay.playing", lang, player="Greedy")
            # the moves come one by one, each synced and shown: the board's counter climbs past 10
            moves = root.locator(".pl-stat-moves .pl-stat-value")
            seen: set[str] = set()
            for _ in range(600):
                seen.add(moves.inner_text())
                if int(moves.inner_text()) >= 10:
                    break
                page.wait_for_timeout(100)
            assert int(moves.inner_text()) >= 10 and len(seen) >= 5, seen
            root.scroll_into_view_if_needed()
            page.screenshot(path=str(artifacts / f"jupyter-autoplay-{lang}-{width}.png"))
            stop.click()
            expect(stop).to_be_hidden(timeout=30_000)
            expect(root.locator(".pl-playing")).to_be_hidden()
            after = kernel_eval(page, "print(w.game.moves, w.session.state['autoplay']['running'])").split()
            assert after[1] == "False"
            assert kernel_eval(page, "print(w.game.moves)").split()[0] == after[0]
            assert int(after[0]) >= 10
    assert errors == []
