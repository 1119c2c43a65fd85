"""The board on a projector with Voila (``patiencelab present``): the page shows the board and its lesson's step
controls, no code; a lesson step and a move by hand are answered by the kernel. One language in ``make test`` (Dutch,
the longest words), every one in ``make soak``; screenshots at 1280 px, 1024x768 and 400 px in test-artifacts/.
"""

from __future__ import annotations

import os
import pathlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from playwright.sync_api import Browser, expect

from .jupyter_harness import KNOWN_PAGE_ERRORS, free_port, private_dirs, served
from .layout import LANGS, sampled

pytestmark = pytest.mark.browser

#: The sizes a teacher's screen comes in: a laptop, the projector, a phone.
SIZES = ((1280, 800), (1024, 768), (400, 800))

#: Errors Voila's page shows that are not the board's: Notebook 7's lab extension, loaded by Voila, fails to share
#: a module (docs/play.md), and there is no internet for what the page asks of it.
VOILA_PAGE_ERRORS = (*KNOWN_PAGE_ERRORS, "@jupyterlab/docregistry", "ERR_NAME_NOT_RESOLVED", "Failed to fetch")


@contextmanager
def voila(lang: str, workdir: pathlib.Path) -> Iterator[str]:
    """``python -m patiencelab present`` on a free port with private Jupyter folders; its URL while it runs."""
    env = {**os.environ, **private_dirs(workdir / "home"), "PATIENCELAB_HOME": str(workdir / "records")}
    port = free_port()
    command = [sys.executable, "-m", "patiencelab", "present", "--lang", lang, "--no-browser", f"--port={port}"]
    log = workdir / "voila.log"

    def ready() -> bool:  # (not a request: a page's GET starts a kernel)
        return log.is_file() and "is running at" in log.read_text(errors="replace")

    with served(command, env, log, ready):
        yield f"http://127.0.0.1:{port}/"


@pytest.mark.parametrize("lang", sampled(LANGS, "nl"))
def test_voila_shows_the_board_and_its_lesson_full_page(
    lang: str, browser: Browser, tmp_path: pathlib.Path, artifacts: pathlib.Path
) -> None:
    width, height = SIZES[1]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        with voila(lang, tmp_path) as url:
            page.goto(url)
            root = page.locator("[data-version]").first
            expect(root).to_be_visible(timeout=60_000)
            assert page.locator(".jp-InputArea, .jp-InputPrompt, .CodeMirror, .cm-editor").count() == 0  # no code
            forward = root.locator('[data-lesson="forward"]')
            expect(forward).to_be_visible()
            box = root.bounding_box()
            assert box is not None and box["width"] >= width * 0.85, box  # the page's width is the board's

            forward.click()  # a lesson step: the Ace to its foundation, told in the board's language
            expect(root).to_have_attribute("data-lesson-step", "1")
            expect(root.locator('[data-pile="f"] [data-card="AC"], [data-pile="fC"] [data-card="AC"]')).to_have_count(1)
            expect(root.locator(".pl-lesson-caption")).not_to_be_empty()
            for size in SIZES:  # the lesson's step on each screen
                page.set_viewport_size({"width": size[0], "height": size[1]})
                page.wait_for_timeout(400)  # the board fits itself to the new size
                expect(forward).to_be_visible()
                page.screenshot(path=str(artifacts / f"voila-{lang}-{size[0]}x{size[1]}.png"))

            page.set_viewport_size({"width": width, "height": height})
            version = int(root.get_attribute("data-version") or 0)
            root.locator('[data-pile="stock"]').click()  # a move by hand: the class takes over from the lesson
            expect(root).to_have_attribute("data-version", str(version + 1))
            expect(root.locator('[data-pile="w"] [data-card]')).to_have_count(1)
    finally:
        context.close()
    real = [error for error in errors if not any(known in error for known in VOILA_PAGE_ERRORS)]
    assert not real, real
