"""The toolbar's icons (Lucide, in the bundle): every button shows one, drawn, and is named in the board's language,
whether its label fits beside it (1280 px) or gives way to the icon alone (400 px)."""

from __future__ import annotations

import pathlib
from collections.abc import Callable

import pytest
from playwright.sync_api import Page

from patiencelab.widget.board import KlondikeWidget

from .layout import CONTROLS, check, summary
from .page_harness import open_board

pytestmark = pytest.mark.browser

_BUTTONS = """(root) => [...root.querySelectorAll('.pl-bar .pl-btn, .pl-lesson .pl-step, .pl-lesson .pl-close')]
  .filter((b) => b.getClientRects().length > 0)
  .map((b) => {
    const svg = b.querySelector('svg.pl-svg-icon');
    const box = svg ? svg.getBoundingClientRect() : null;
    const text = b.querySelector('.pl-text');
    const shown = text && text.getClientRects().length > 0 && getComputedStyle(text).display !== 'none';
    return {
      action: b.dataset.action || b.dataset.lesson || 'close',
      name: b.getAttribute('aria-label'),
      drawn: !!svg && box.width >= 10 && box.height >= 10
        && svg.querySelectorAll('path, circle, line, rect').length > 0,
      clipped: !!shown && (text.scrollWidth > text.clientWidth + 1 || getComputedStyle(text).textOverflow === 'ellipsis'
        && text.scrollWidth > text.clientWidth),
      chars: (b.textContent || '').replace(text ? text.textContent : '', '').trim(),
    };
  })"""


@pytest.mark.parametrize("width", [1280, 400])
def test_every_button_shows_its_icon_and_is_named_in_dutch(
    width: int, new_page: Callable[..., Page], page_server: str, artifacts: pathlib.Path
) -> None:
    widget = KlondikeWidget(seed=7, records=None, lang="nl")
    page = new_page(width=width, height=800, reduced_motion="reduce")
    open_board(page, page_server, widget)
    root = page.locator(".pl-root")
    buttons = root.evaluate(_BUTTONS)
    labels = widget.labels
    assert {b["action"] for b in buttons} >= {"new", "restart", "undo", "redo", "hint", "more"}
    for b in buttons:
        assert b["drawn"], f"{b['action']} shows no icon"
        assert b["name"] == labels[b["action"]], b
        assert not b["clipped"], f"{b['action']}'s label is cut off"
        assert b["chars"] == "", f"{b['action']} still shows the characters {b['chars']!r}"
    problems = check(root, CONTROLS, cards=True)
    page.screenshot(path=artifacts / f"icons-toolbar-nl-{width}.png")
    from patiencelab.lessons import Lesson

    widget.lesson = Lesson.builtin("quiz")
    page.evaluate("s => window.pl.model.push(s)", widget.state)
    for b in root.evaluate(_BUTTONS):
        assert b["drawn"] and b["name"], b
    page.screenshot(path=artifacts / f"icons-lesson-nl-{width}.png")
    widget.close()
    assert not problems, summary(problems)
