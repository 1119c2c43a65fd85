"""Watching a player on the board in real JupyterLab: ``board.autoplay(players.Greedy())`` plays its moves on
screen, one after another, while the kernel stays free, and the board's Stop button ends it; a player going round
in circles is stopped where a position comes back a third time, the board says so, and offers a review. In three
languages at three sizes.
"""

from __future__ import annotations

import pathlib

import pytest
from playwright.sync_api import Page, expect

from patiencelab.core.i18n import labels, message

from .jupyter_harness import LANGUAGE_SIZES, Jupyter, kernel_eval, open_and_run, page_errors, write_notebook

pytestmark = pytest.mark.browser

SETUP = "from patiencelab import KlondikeWidget, Rules, players\nw = KlondikeWidget(seed=5, records=None)\nw"

#: Greedy goes round in circles on this deal: play_to_end stops it at move 41, on a position seen a third time.
CIRCLES = "w.new_game(seed=11, rules=Rules.preset('traditional'))\nw.autoplay(players.Greedy(), pace=0.05)"


# Records in the page every value the board's move counter takes (window.plMovesSeen), whatever re-renders it.
OBSERVE_COUNTER = """() => {
  const root = document.querySelector("[data-version]");
  const read = () => root.querySelector(".pl-stat-moves .pl-stat-value")?.textContent ?? "";
  window.plMovesSeen = [read()];
  window.plMovesObserver?.disconnect();
  window.plMovesObserver = new MutationObserver(() => {
    const now = read();
    if (window.plMovesSeen[window.plMovesSeen.length - 1] !== now) window.plMovesSeen.push(now);
  });
  window.plMovesObserver.observe(root, { childList: true, characterData: true, subtree: true });
}"""


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
            kernel_eval(page, f"w.lang = {lang!r}\nw.new_game(seed=5, rules=Rules())")
            stop = root.locator('.pl-bar [data-action="stop-autoplay"]')
            expect(stop).to_be_hidden()
            # every value the move counter shows is recorded in the page as it changes (a test polling from here
            # would miss some on a busy machine)
            page.evaluate(OBSERVE_COUNTER)
            kernel_eval(page, "w.autoplay(players.Greedy(), pace=0.3)")
            expect(stop).to_be_visible(timeout=30_000)
            expect(stop).to_have_attribute("aria-label", labels(lang)["stop-autoplay"])
            expect(root.locator(".pl-playing")).to_have_text(labels(lang)["autoplay-playing"].format(player="Greedy"))
            said = kernel_eval(page, "print(w.session.state['message']['text'])").strip()
            assert said == message("autoplay.playing", lang, player="Greedy")
            # the moves come one by one, each synced and shown: the board's counter climbs past 10
            moves = root.locator(".pl-stat-moves .pl-stat-value")
            page.wait_for_function("() => window.plMovesSeen.some((n) => Number(n) >= 10)", timeout=60_000)
            seen = set(page.evaluate("() => window.plMovesSeen"))
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
            # a player going round in circles stops on its own, says why, and the game is over: a review is offered
            kernel_eval(page, CIRCLES)
            said = message("autoplay.repeated", lang, player="Greedy")
            expect(root.locator(".pl-say")).to_have_text(said, timeout=60_000)
            expect(stop).to_be_hidden()
            assert kernel_eval(page, "print(w.game.moves, w.game.status)").split() == ["41", "playing"]
            root.locator('.pl-bar [data-action="more"]').click()
            review = root.locator('.pl-menu-item[data-action="review"]')
            expect(review).to_be_visible()
            expect(review).to_have_text(labels(lang)["review"])
            page.keyboard.press("Escape")
            expect(review).to_be_hidden()
            for w, h in sorted({(width, height), (1024, 768), (400, 900)}):
                page.set_viewport_size({"width": w, "height": h})
                phone = w < 600 <= width  # the file browser folded away for a phone's width, then back
                if phone:
                    page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
                root.locator(".pl-say").scroll_into_view_if_needed()
                page.screenshot(path=str(artifacts / f"jupyter-autoplay-repeated-{lang}-{w}x{h}.png"))
                if phone:
                    page.evaluate("() => window.jupyterapp.shell.expandLeft()")
            page.set_viewport_size({"width": width, "height": height})
    assert errors == []
