"""The board in marimo (`marimo run examples/play_marimo.py`), driven by Chromium: it renders inside marimo's
shadow DOM, takes a move, opens the New and More menus, steps a lesson, and a cell that shows the score runs
again after a move (the game's changes reach marimo's reactivity).
"""

from __future__ import annotations

import os
import pathlib
import shutil
import signal
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from .jupyter_harness import drag, free_port, served

pytestmark = pytest.mark.browser

REPO = pathlib.Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "play_marimo.py"


def find_marimo() -> str:
    """marimo from the dev extra (beside this Python), or the one ``$MARIMO`` names."""
    found = os.environ.get("MARIMO") or shutil.which("marimo", path=str(pathlib.Path(sys.executable).parent))
    if not found:
        pytest.fail("marimo is not installed: it is in the dev extra ('make setup')", pytrace=False)
    return found


@pytest.fixture
def marimo_app(tmp_path: pathlib.Path) -> Iterator[str]:
    port = free_port()
    env = {**os.environ, "PATIENCELAB_HOME": str(tmp_path / "home"), "PYTHONPATH": str(REPO / "src")}
    command = [find_marimo(), "run", str(EXAMPLE), "--headless", "--no-token", "--host", "127.0.0.1"]
    command += ["--port", str(port)]
    url = f"http://127.0.0.1:{port}"

    def ready() -> bool:
        try:
            urllib.request.urlopen(f"{url}/health", timeout=2).close()
        except (urllib.error.URLError, OSError):
            return False
        return True

    with served(command, env, tmp_path / "marimo.log", ready, stop=signal.SIGINT, within=120, cwd=tmp_path):
        yield url


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    yield page
    context.close()


def test_play_and_teach_in_marimo(marimo_app: str, page: Page, artifacts: pathlib.Path) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(marimo_app)
    boards = page.locator(".pl-root")  # marimo has elements with data-version of its own
    expect(boards).to_have_count(2, timeout=120_000)
    root, teacher = boards.nth(0), boards.nth(1)
    expect(root).to_have_attribute("data-status", "playing")
    score = page.locator(".score").first
    moves = page.locator(".moves").first
    expect(moves).to_have_text("0", timeout=60_000)
    page.screenshot(path=str(artifacts / "marimo-start.png"), full_page=True)

    # seed 7: the 5♦ onto the 6♠; the cell that shows the score and moves runs again
    drag(page, root.locator('[data-card="5D"]'), root.locator('[data-pile="t3"]'))
    expect(root.locator('[data-pile="t3"] [data-card="5D"]')).to_have_count(1)
    expect(moves).to_have_text("1", timeout=60_000)
    expect(score).to_have_text("0")
    root.locator('[data-pile="stock"]').click()
    expect(moves).to_have_text("2", timeout=60_000)

    # the menus open and their items work inside the shadow DOM
    root.locator('[data-action="more"]').click()
    root.locator('.pl-menu-item[data-action="rules"]').click()
    expect(root.locator(".pl-panel-rules")).to_be_visible()
    root.locator('[data-action="new"]').click()
    same_rules = root.locator('.pl-menu-item[data-action="deal"]').first
    expect(same_rules).to_be_visible()
    page.screenshot(path=str(artifacts / "marimo-menus.png"), full_page=True)
    same_rules.click()
    expect(moves).to_have_text("0", timeout=60_000)  # a new deal: the score cell ran again

    # the lesson board steps forward
    caption = teacher.locator(".pl-lesson-caption")
    expect(caption).to_be_visible()
    before = caption.inner_text()
    teacher.locator('[data-lesson="forward"]').click()
    expect(teacher.locator(".pl-lesson-step")).to_contain_text("1")
    expect(caption).not_to_have_text(before)
    page.screenshot(path=str(artifacts / "marimo-lesson.png"), full_page=True)
    assert errors == []
