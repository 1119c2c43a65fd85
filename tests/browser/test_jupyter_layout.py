"""Issue 12's layout check in real JupyterLab (three languages at 1280x900 and 1280x800 with the file browser open,
1024x768 and 400 px) and in Notebook 7 (1280x900): every menu and panel opened, every step of three shipped lessons
(in JupyterLab at 1280 px; at 1024x768 and 400 px the presenter test steps through every shipped lesson). One server
and one page per host; sizes and languages change inside it. ``make test`` walks the lessons and the teaching states
in a fixed sample (``layout.walked``: each lesson once a test, the sizes and languages turning); ``make soak`` walks
all (``pytest --soak``).
"""

from __future__ import annotations

import functools
import pathlib
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from patiencelab.core.i18n import labels
from patiencelab.lessons import Lesson

from .jupyter_harness import (
    CHECK_STATES,
    Jupyter,
    assert_states_followed_the_protocol,
    kernel_eval,
    open_and_run,
    page_errors,
    write_notebook,
)
from .layout import (
    BOARD_SETUP,
    LANGS,
    SIZES,
    WALKED_SIZES,
    click,
    look_at_every_menu_and_panel,
    look_at_stats,
    look_at_teaching,
    step_through,
    summary,
    to_top,
    walk_languages,
    walked,
)

pytestmark = pytest.mark.browser

SETUP = BOARD_SETUP + "\nw"

LESSONS = ("draw-three", "six-column", "traditional")


def side_panel(page: Page, open_it: bool) -> None:
    """Opens JupyterLab's file browser on the left, or closes the left area."""
    if open_it:
        page.evaluate("() => window.jupyterapp.shell.activateById('filebrowser')")
        expect(page.locator(".jp-FileBrowser").first).to_be_visible()
    else:
        page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
        expect(page.locator(".jp-FileBrowser").first).to_be_hidden()


#: Scrolls the menu that holds an item (its nearest scrolling box) until the item is in sight; nothing else moves.
SCROLL_INTO_MENU = """el => {
  let box = el.parentElement;
  while (box && box.scrollHeight <= box.clientHeight) box = box.parentElement;
  if (!box) return;
  const r = el.getBoundingClientRect(), b = box.getBoundingClientRect();
  if (r.bottom > b.bottom) box.scrollTop += r.bottom - b.bottom;
  if (r.top < b.top) box.scrollTop -= b.top - r.top;
}"""


def choose_language(page: Page, root: Locator, lang: str) -> None:
    to_top(root)
    click(page, root.locator('.pl-bar [data-action="more"]'))
    expect(root.locator(".pl-list:not([hidden])")).to_have_count(1)  # the menu opened
    item = root.locator(f'.pl-menu-item[data-lang="{lang}"]')
    item.evaluate(SCROLL_INTO_MENU)  # a menu cut short by a short board scrolls inside, as a person scrolls it
    click(page, item)
    expect(root.locator(f'.pl-menu-item[data-lang="{lang}"]')).to_have_attribute("aria-checked", "true")
    assert kernel_eval(page, "print(w.lang)").strip() == lang


def look_everywhere(
    page: Page, root: Locator, tag: str, artifacts: pathlib.Path, *, lessons: bool = True, walk: Any = lambda _: True
) -> list[str]:
    """Every menu and panel; the steps of :data:`LESSONS` (when ``lessons``) and the teaching states, each when
    ``walk`` of its number (the lessons 0, 1, 2, the teaching 3) says so."""
    problems = look_at_every_menu_and_panel(page, root, tag, artifacts, shots=lambda what: what in ("more", "board"))
    for item, name in enumerate(LESSONS if lessons else ()):
        if not walk(item):
            continue
        kernel_eval(page, f"w.lesson = Lesson.builtin({name!r})")
        expect(root).to_have_attribute("data-lesson-step", "0")
        steps = int(kernel_eval(page, "print(w.state['lesson']['steps'])").strip())
        problems += step_through(page, root, steps, f"{tag}-{name}", artifacts, shot_at=3)
    kernel_eval(page, "w.lesson = None")
    expect(root).to_have_attribute("data-lesson-step", "")

    def run(code: str) -> None:
        out = kernel_eval(page, code)
        assert "ERROR" not in out, out

    if walk(len(LESSONS)):
        problems += look_at_teaching(page, root, tag, artifacts, run, shots=True)
    return problems


@pytest.mark.parametrize("flavour", ["lab", "notebook"])
def test_every_menu_panel_and_lesson_step_fits_in_real_jupyter(
    flavour: str, still_page: Page, jupyter: Jupyter, artifacts: pathlib.Path
) -> None:
    page = still_page
    errors = page_errors(page)
    sizes = WALKED_SIZES if flavour == "lab" else SIZES[:1]
    problems: list[str] = []
    with jupyter(flavour) as server:
        write_notebook(server.root / "layout.ipynb", SETUP, CHECK_STATES)
        open_and_run(page, server, "layout.ipynb")
        root = page.locator(".pl-root").first
        expect(root).to_have_attribute("data-version", "1", timeout=60_000)
        for width, height in sizes:
            page.set_viewport_size({"width": width, "height": height})
            if flavour == "lab":
                side_panel(page, open_it=width >= 1280)
            # make test: each lesson and the teaching states walked once in JupyterLab, one lesson in Notebook 7
            # (which turns another way), each size looked at in the languages of its walks (the plain page sees
            # every language at every size: test_page_layout); make soak: all, in every language
            turn = sizes.index((width, height)) + (flavour == "notebook")
            spread = len(sizes) if flavour == "lab" else len(LESSONS) + 1
            for lang in walk_languages(turn, len(LESSONS) + 1, spread):
                choose_language(page, root, lang)
                # JupyterLab's 1024x768 and 400 px: the presenter test below steps through every shipped lesson
                # there (these three among them), at 1024x768 with the file browser open, so not twice
                lessons = flavour != "lab" or (width, height) not in PRESENTER_SIZES
                tag = f"{flavour}-{lang}-{width}x{height}"
                walk = functools.partial(walked, turn, lang, sizes=spread)
                problems += look_everywhere(page, root, tag, artifacts, lessons=lessons, walk=walk)
        assert_states_followed_the_protocol(page)
    assert not problems, summary(problems)
    assert errors == []


#: A classroom projector with JupyterLab's file browser open, and a phone.
LABELS = {lang: labels(lang)["title"] for lang in LANGS}
PRESENTER = ((1024, 768, True), (400, 850, False))
PRESENTER_SIZES = {(width, height) for width, height, _ in PRESENTER}


def test_every_shipped_lesson_shows_every_word_on_a_projector_in_real_jupyterlab(
    still_page: Page, jupyter: Jupyter, artifacts: pathlib.Path
) -> None:
    """Issue 21: every step of every shipped lesson in en, nl and sv, at 1024x768 with the file browser open and at
    400 px: no word scrolls, ends in an ellipsis or is cut off, and the board ends inside the notebook's visible
    height (see ``layout.step_through``). Issue 36: on the projector the cards, the review's chart, the quiz's
    caption box and the answer's arrow are large enough (``layout.projector_problems``; each quiz is answered
    wrongly until its move is shown), and the statistics table neither overlaps nor scrolls sideways. One
    JupyterLab, one page."""
    page = still_page
    errors = page_errors(page)
    problems: list[str] = []
    with jupyter("lab") as server:
        write_notebook(server.root / "presenter.ipynb", SETUP, CHECK_STATES)
        open_and_run(page, server, "presenter.ipynb")
        root = page.locator(".pl-root").first
        expect(root).to_have_attribute("data-version", "1", timeout=60_000)
        for width, height, files in PRESENTER:
            page.set_viewport_size({"width": width, "height": height})
            side_panel(page, open_it=files)
            page.wait_for_timeout(300)  # the notebook lays itself out again
            for lang in LANGS:
                kernel_eval(page, f"w.lang = {lang!r}")  # the menus are tried in the test above
                expect(root.locator(".pl-bar")).to_have_attribute("aria-label", LABELS[lang])
                if files:
                    problems += look_at_stats(page, root, f"presenter-{lang}-{width}x{height}", artifacts)
                for item, name in enumerate(Lesson.builtin_names()):
                    where = PRESENTER.index((width, height, files)) + 2  # make test: each lesson once
                    if not walked(where, lang, item, len(PRESENTER)):
                        continue
                    kernel_eval(page, f"w.lesson = Lesson.builtin({name!r})")
                    expect(root).to_have_attribute("data-lesson-step", "0")
                    steps = int(kernel_eval(page, "print(w.state['lesson']['steps'])").strip())
                    tag = f"presenter-{lang}-{width}x{height}-{name}"
                    problems += step_through(page, root, steps, tag, artifacts, longest=files, projector=files)
                kernel_eval(page, "w.lesson = None")
        assert_states_followed_the_protocol(page)
    assert not problems, summary(problems)
    assert errors == []
