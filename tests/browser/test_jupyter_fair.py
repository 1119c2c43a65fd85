"""Fair play in real JupyterLab: the board's Hint comes from the fair player and says how many possible deals
its move keeps winnable; the winnability indicator says that it knows the face-down cards. In three languages
at three sizes.
"""

from __future__ import annotations

import pathlib

import pytest
from playwright.sync_api import Page, expect

from patiencelab.core.i18n import labels

from .jupyter_harness import (
    LANGUAGE_SIZES,
    Jupyter,
    choose_from_more,
    kernel_eval,
    open_and_run,
    page_errors,
    write_notebook,
)

pytestmark = pytest.mark.browser

SETUP = (
    "from patiencelab import KlondikeWidget\n"
    "w = KlondikeWidget(seed=7, records=None)\n"
    "w.indicator_seconds, w.indicator_max_states = 3600, 10**6\n"
    "w"
)
#: What the fair player says here, computed in the kernel from the game (the board must say the same).
FAIR = (
    "from patiencelab.hints import find_fair_hint\nfrom patiencelab.core.narration import hint_text\n"
    "_h = find_fair_hint(w.game, samples=w.hint_samples, max_states=w.hint_max_states)\n"
    "print(_h.reason, '|', hint_text(w.game, _h))"
)
#: The words of the fair reason in each language ("it keeps 13 of 16 possible deals winnable").
FAIR_WORDS = {"en": "possible deals winnable", "nl": "mogelijke delingen winbaar", "sv": "möjliga givar att vinna"}


def test_a_fair_hint_and_the_peeking_indicator_in_real_jupyterlab(
    page: Page, jupyter: Jupyter, artifacts: pathlib.Path
) -> None:
    errors = page_errors(page)
    with jupyter("lab") as server:
        write_notebook(server.root / "fair.ipynb", SETUP)
        open_and_run(page, server, "fair.ipynb")
        root = page.locator("[data-version]").first
        expect(root).to_be_visible(timeout=60_000)
        choose_from_more(root, "indicator")
        badge = root.locator("[data-verdict]")
        expect(badge).to_have_attribute("data-verdict", "winnable", timeout=60_000)
        for lang, (width, height) in LANGUAGE_SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            if width < 600:  # a phone's width: JupyterLab's file browser would take most of it
                page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
            kernel_eval(page, f"w.lang = {lang!r}")
            peeking = labels(lang)["indicator.winnable"]
            expect(badge).to_have_text(peeking, timeout=30_000)
            assert "(" in peeking  # the label says that it knows the face-down cards
            reason, expected = kernel_eval(page, FAIR).strip().split(" | ", 1)
            assert reason == "chances" and FAIR_WORDS[lang] in expected
            root.locator('.pl-bar [data-action="hint"]').click()
            line = root.locator(".pl-say")
            expect(line).to_have_attribute("data-kind", "hint", timeout=60_000)
            expect(line).to_have_text(expected)
            expect(root.locator(".pl-hint").first).to_be_visible()
            root.scroll_into_view_if_needed()
            page.screenshot(path=str(artifacts / f"jupyter-fair-hint-{lang}-{width}.png"))
            root.locator('[data-action="more"]').click()
            item = root.locator('.pl-menu-item[data-action="indicator"]')
            expect(item).to_contain_text(labels(lang)["indicator-toggle"])
            page.screenshot(path=str(artifacts / f"jupyter-fair-menu-{lang}-{width}.png"))
            page.keyboard.press("Escape")
        assert kernel_eval(page, "print(w.game.moves)").strip() == "0"  # a hint only marks; nothing is played
    assert errors == []
