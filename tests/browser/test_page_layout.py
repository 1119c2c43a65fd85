"""Issue 12's layout check in a plain page, against the real Python widget: three languages, three sizes, every
menu and panel, every step of every shipped lesson (the same check runs in real JupyterLab in test_jupyter_layout).
"""

from __future__ import annotations

import pathlib
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from patiencelab.lesson import Lesson

from .layout import LANGS, SIZES, click, look_at_every_menu_and_panel, step_through, summary

pytestmark = pytest.mark.browser

import patiencelab.widget as widget_module  # noqa: E402 - the widget needs the built bundle


def open_board(page: Page, server: str, widget: Any) -> None:
    def kernel(intent: dict[str, Any]) -> dict[str, Any]:
        reply = widget.handle_intent(intent)
        labels = widget.labels if isinstance(intent, dict) and intent.get("type") == "lang" else None
        return {"reply": reply, "state": widget.state, "labels": labels}

    page.expose_function("plKernel", kernel)
    page.goto(f"{server}/index.html")
    page.wait_for_function("window.pl !== undefined")
    page.evaluate("([s, l]) => window.pl.mountKernel(s, l)", [widget.state, widget.labels])


def choose_language(page: Page, lang: str) -> None:
    root = page.locator(".pl-root")
    click(page, root.locator('.pl-bar [data-action="more"]'))
    click(page, root.locator(f'.pl-menu-item[data-lang="{lang}"]'))
    expect(root.locator(f'.pl-menu-item[data-lang="{lang}"]')).to_have_attribute("aria-checked", "true")


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_every_menu_panel_and_lesson_step_fits_in_a_plain_page(
    width: int, height: int, new_page: Callable[..., Page], page_server: str, artifacts: pathlib.Path
) -> None:
    widget = widget_module.KlondikeWidget(seed=7, records=None)
    page = new_page(width=width, height=height, reduced_motion="reduce")  # a still board to measure
    open_board(page, page_server, widget)
    root = page.locator(".pl-root")
    problems: list[str] = []
    for lang in LANGS:
        choose_language(page, lang)
        tag = f"page-{lang}-{width}x{height}"
        problems += look_at_every_menu_and_panel(page, root, tag, artifacts, shots=lambda what: what == "more")
        for name in Lesson.builtin_names():
            widget.lesson = Lesson.builtin(name)
            page.evaluate("s => window.pl.model.push(s)", widget.state)
            expect(root).to_have_attribute("data-lesson-step", "0")
            steps = widget.state["lesson"]["steps"]
            problems += step_through(page, root, steps, f"{tag}-{name}", artifacts, shot_at=2)
        widget.lesson = None
        page.evaluate("s => window.pl.model.push(s)", widget.state)
    assert not problems, summary(problems)
