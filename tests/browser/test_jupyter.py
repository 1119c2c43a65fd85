"""The widget in real JupyterLab 4 and Notebook 7 with a real kernel, driven by Chromium."""

from __future__ import annotations

import pathlib
import re

import pytest
from playwright.sync_api import Page, expect

from .jupyter_harness import (
    CHECK_STATES,
    PLAY_SETUP,
    Jupyter,
    assert_states_followed_the_protocol,
    choose_from_more,
    drag,
    kernel_eval,
    open_and_run,
    page_errors,
    write_notebook,
)
from .layout import LANGS, sampled

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("flavour", ["lab", "notebook"])
def test_play_in_real_jupyter(flavour: str, page: Page, jupyter: Jupyter, artifacts: pathlib.Path) -> None:
    errors = page_errors(page)
    with jupyter(flavour) as server:
        write_notebook(server.root / "play.ipynb", PLAY_SETUP, "w", CHECK_STATES)  # the same widget shown twice
        open_and_run(page, server, "play.ipynb")
        root = page.locator("[data-version]").first
        expect(root).to_be_visible(timeout=60_000)
        expect(root).to_have_attribute("data-version", "1")
        expect(root).to_have_attribute("data-status", "playing")
        page.screenshot(path=str(artifacts / f"jupyter-{flavour}-start.png"))

        # A legal drag: the 5♦ onto the 6♠. The Python model follows.
        drag(page, root.locator('[data-card="5D"]'), root.locator('[data-pile="t3"]'))
        expect(root).to_have_attribute("data-version", "2")
        expect(root.locator('[data-pile="t3"] [data-card="5D"]')).to_have_count(1)
        assert kernel_eval(page, "print(w.game.history)").strip() == "(Move.parse('t1-t3'),)"

        # An illegal drop: the 6♠ run onto the 5♥ snaps back, and Python's reason is shown.
        drag(page, root.locator('[data-card="6S"]'), root.locator('[data-pile="t5"]'))
        reason = "The 6♠ cannot go on the 5♥; it goes on a 7."
        expect(root.locator(".pl-say")).to_have_text(reason)
        expect(root.locator('[data-pile="t3"] [data-card="6S"]')).to_have_count(1)
        expect(root).to_have_attribute("data-version", "2")

        # Draw from the stock, then undo it with the toolbar.
        root.locator('[data-pile="stock"]').click()
        expect(root).to_have_attribute("data-version", "3")
        expect(root.locator('[data-pile="w"] [data-card="6D"]')).to_have_count(1)
        root.locator('[data-action="undo"]').click()
        expect(root).to_have_attribute("data-version", "4")
        expect(root.locator('[data-pile="w"] [data-card]')).to_have_count(0)
        assert kernel_eval(page, "print(w.game.moves)").strip() == "1"

        # Keyboard: `d` draws; then the 6♠ run goes onto the 7♦ by arrows and Enter.
        root.focus()
        page.keyboard.press("d")
        expect(root).to_have_attribute("data-version", "5")
        assert kernel_eval(page, "print(w.game.history[-1])").strip() == "d"
        kernel_eval(page, "w.game.undo()")
        expect(root).to_have_attribute("data-version", "6")
        root.focus()
        for key in ["ArrowRight", "ArrowRight", "ArrowRight", "ArrowUp"]:  # show the ring on t1, go to t3, up to 6♠
            page.keyboard.press(key)
        expect(root.locator(".pl-focus")).to_have_attribute("data-card", "6S")
        page.keyboard.press("Enter")
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("Enter")
        expect(root).to_have_attribute("data-version", "7")
        expect(root.locator('[data-pile="t2"] [data-card="6S"]')).to_have_count(1)
        assert kernel_eval(page, "print(w.game.history[-1])").strip() == "t3-t2"

        # Scripting the game from Python updates the board.
        kernel_eval(page, "w.game.undo()")
        expect(root).to_have_attribute("data-version", "8")
        expect(root.locator('[data-pile="t3"] [data-card="6S"]')).to_have_count(1)
        second = page.locator("[data-version]").nth(1)  # the second view of the same widget kept in step
        expect(second).to_have_attribute("data-version", "8")
        expect(second.locator('[data-pile="t3"] [data-card="6S"]')).to_have_count(1)
        page.screenshot(path=str(artifacts / f"jupyter-{flavour}-after.png"))
        assert_states_followed_the_protocol(page)
    assert errors == []


LESSON_SETUP = """from patiencelab import KlondikeWidget
from patiencelab.lessons import Lesson
w = KlondikeWidget(lang={lang!r}, records=None)
w.lesson = Lesson.builtin("draw-three")
w"""

FIRST_STEP = {
    "en": "Move the A♥ from column 7 to its foundation",
    "nl": "Leg de A♥ van kolom 7 op de fundering",
    "sv": "Flytta E♥ från kolumn 7 till en grund",
}


@pytest.mark.parametrize("lang", sampled(LANGS, "sv"))  # the others: make soak (the layout walks see every one)
def test_step_through_a_lesson_in_real_jupyterlab(
    lang: str, page: Page, jupyter: Jupyter, artifacts: pathlib.Path
) -> None:
    errors = page_errors(page)
    with jupyter("lab") as server:
        write_notebook(server.root / "lesson.ipynb", LESSON_SETUP.format(lang=lang), CHECK_STATES)
        open_and_run(page, server, "lesson.ipynb")
        root = page.locator("[data-version]").first
        caption = root.locator(".pl-lesson-caption")
        expect(caption).to_be_visible(timeout=60_000)
        # five quick clicks, none waiting for the kernel's answer, all count: to the illegal step (the A♣ under
        # the top of the waste)
        forward = root.locator('[data-lesson="forward"]')
        for _ in range(5):
            forward.click(delay=0, no_wait_after=True)
        expect(caption).to_contain_text({"en": "A♣", "nl": "A♣", "sv": "E♣"}[lang])  # the class's name of the ace
        expect(root.locator(".pl-lesson-note")).not_to_be_empty()
        assert kernel_eval(page, "print(w.state['lesson']['step'])").strip() == "5"
        page.wait_for_timeout(400)
        page.screenshot(path=str(artifacts / f"jupyter-lesson-{lang}.png"))
        root.locator('[data-lesson="back"]').click()
        expect(root.locator(".pl-lesson-step")).to_contain_text("4")
        # the highlight toggle marks exactly the cards that can move
        root.locator('[data-action="show-moves"]').click()
        expect(root.locator(".pl-card.pl-can-move").first).to_be_visible()
        marked = sorted(root.locator(".pl-card.pl-can-move").evaluate_all("els => els.map(e => e.dataset.card)"))
        targets = kernel_eval(page, "print(sorted(w.state['targets']))").strip()
        assert str(marked) == targets
        root.locator('[data-lesson="first"]').click()
        expect(root.locator(".pl-lesson-step")).to_have_text(re.compile(r"^\D*0\D"))  # the first number is 0
        forward.click()
        expect(caption).to_contain_text(FIRST_STEP[lang])
        expect(root.locator('[data-pile="fH"] [data-card="AH"]')).to_have_count(1)
        assert kernel_eval(page, "print(w.state['lesson']['step'])").strip() == "1"
        assert_states_followed_the_protocol(page)
    assert errors == []


RECORDS_SETUP = """from patiencelab import Klondike, KlondikeWidget
nearly_won = {
    "tableau": [{"down": [], "up": ["KS"]}] + [{"down": [], "up": []}] * 6,
    "stock": [], "waste": [], "foundations": {"C": 13, "D": 13, "H": 13, "S": 12},
}
w = KlondikeWidget(Klondike.from_position(nearly_won))
w"""


def test_statistics_survive_a_kernel_restart(page: Page, jupyter: Jupyter, artifacts: pathlib.Path) -> None:
    errors = page_errors(page)
    with jupyter("lab") as server:
        write_notebook(server.root / "records.ipynb", RECORDS_SETUP, CHECK_STATES)
        open_and_run(page, server, "records.ipynb")
        root = page.locator("[data-version]").first
        expect(root).to_be_visible(timeout=60_000)
        # game 1: won by a double-click on the K♠
        root.locator('[data-card="KS"]').dblclick()
        expect(root).to_have_attribute("data-status", "won")
        page.wait_for_timeout(300)
        page.screenshot(path=str(artifacts / "jupyter-won.png"))
        # game 2: a new deal, one draw, then abandoned for another deal
        kernel_eval(page, "w.new_game(seed=3)")
        root.locator('[data-pile="stock"]').click()
        expect(root.locator('[data-pile="w"] [data-card]')).to_have_count(1)
        kernel_eval(page, "w.new_game(seed=4)")
        # restart the kernel, run the notebook again, and open the statistics panel
        page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.restartKernel()")
        page.wait_for_timeout(1000)
        open_and_run(page, server, "records.ipynb")
        root = page.locator("[data-version]").first
        expect(root).to_be_visible(timeout=60_000)
        choose_from_more(root, "stats")
        played = root.locator('.pl-stats td[data-col="played"]')
        expect(played).to_have_text("2")
        expect(root.locator('.pl-stats td[data-col="won-count"]')).to_have_text("1")
        page.screenshot(path=str(artifacts / "jupyter-statistics.png"))
        assert_states_followed_the_protocol(page)
    assert errors == []


def test_the_winnability_indicator_in_real_jupyterlab(page: Page, jupyter: Jupyter, artifacts: pathlib.Path) -> None:
    errors = page_errors(page)
    with jupyter("lab") as server:
        # a state budget: the verdict does not depend on how busy the machine is
        setup = PLAY_SETUP.replace(
            "seed=7)", "seed=7, records=None)\nw.indicator_seconds, w.indicator_max_states = 3600, 10**6"
        )
        write_notebook(server.root / "indicator.ipynb", setup, CHECK_STATES)
        open_and_run(page, server, "indicator.ipynb")
        root = page.locator("[data-version]").first
        expect(root).to_be_visible(timeout=60_000)
        choose_from_more(root, "indicator")
        badge = root.locator("[data-verdict]")
        expect(badge).to_have_attribute("data-verdict", "winnable", timeout=60_000)
        version = root.get_attribute("data-version")
        root.locator('[data-pile="stock"]').click()  # the board answers at once; the verdict follows
        expect(root).not_to_have_attribute("data-version", version or "")
        expect(badge).to_have_attribute("data-verdict", "winnable", timeout=60_000)
        shown = "s = w.state['indicator']; print(s['enabled'], s['verdict'], s['error'], type(s['searched']).__name__)"
        assert kernel_eval(page, shown).strip() == "True winnable None int"
        page.screenshot(path=str(artifacts / "jupyter-indicator.png"))
        assert_states_followed_the_protocol(page)
    assert errors == []
