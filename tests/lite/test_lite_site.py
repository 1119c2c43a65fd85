"""The JupyterLite classroom site that ``make lite`` builds, played in Chromium with Python in the browser.

The site is served on the loopback interface and every other request is refused twice over: Chromium resolves no
other host, and a route aborts (and records) any request that is not to the site. Run after ``make lite`` by
``make lite-test``, and by ``make test`` among the other test files; ``pytest`` alone does not collect this folder
(it is collected when named, ``tests/conftest.py``).
"""

from __future__ import annotations

import functools
import http.server
import pathlib
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from tests.browser.chromium import CHROMIUM_ARGS, find_chromium, no_browser
from tests.browser.jupyter_harness import choose_from_more, drag, kernel_eval

pytestmark = pytest.mark.browser

REPO = pathlib.Path(__file__).resolve().parents[2]
SITE = REPO / "build" / "lite" / "site"
ARTIFACTS = REPO / "test-artifacts"
#: Starting Pyodide and installing the wheels takes a while on a busy machine; this is a ceiling, not a budget.
SLOW = 180_000

_KERNEL_IDLE = """() => {
  const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const kernel = panel && panel.sessionContext && panel.sessionContext.session && panel.sessionContext.session.kernel;
  return !!kernel && kernel.status === 'idle';
}"""


class _SiteHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {  # noqa: RUF012 - the base class's own attribute
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".json": "application/json",
    }

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    if not (SITE / "index.html").is_file():
        pytest.fail(f"the JupyterLite site is not built in {SITE}: run 'make lite' first", pytrace=False)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_SiteHandler, directory=str(SITE)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    path = find_chromium()
    if path is None:
        no_browser("no Chromium found: set CHROMIUM_PATH or install the 'chromium' package")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        args = [*CHROMIUM_ARGS, "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"]
        launched = driver.chromium.launch(executable_path=path, args=args)
        yield launched
        launched.close()


@pytest.fixture
def context(browser: Browser, site: str) -> Iterator[tuple[BrowserContext, list[str]]]:
    """A fresh profile (its own browser storage); the list collects every request that left the site."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    outside: list[str] = []

    def route(request_route: Any) -> None:
        url = request_route.request.url
        if url.startswith(site + "/") or url == site:
            request_route.continue_()
        else:
            outside.append(url)
            request_route.abort()

    context.route("**/*", route)
    yield context, outside
    context.close()
    assert outside == [], f"the site asked for something outside itself: {outside}"


def open_and_run(page: Page, site: str, notebook: str) -> tuple[Locator, float]:
    """Open ``notebook``, run all its cells once the kernel is up; the board, and the seconds from opening the
    link to a board on the page.
    """
    started = time.monotonic()
    page.goto(f"{site}/lab/index.html?path={notebook}")
    page.wait_for_function(_KERNEL_IDLE, timeout=SLOW, polling=200)
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    root = page.locator(".pl-root, [data-version]").first
    expect(root).to_be_visible(timeout=SLOW)
    return root, time.monotonic() - started


def idle(page: Page) -> None:
    page.wait_for_function(_KERNEL_IDLE, timeout=SLOW, polling=200)


def note(line: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    with (ARTIFACTS / "lite-timings.txt").open("a") as file:
        file.write(line + "\n")


def test_play_the_classroom_site_with_nothing_but_the_site(
    context: tuple[BrowserContext, list[str]], site: str
) -> None:
    page = context[0].new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    root, seconds = open_and_run(page, site, "play.ipynb")
    note(f"play.ipynb: link opened to board shown in {seconds:.1f} s")
    expect(root).to_have_attribute("data-status", "playing", timeout=SLOW)
    idle(page)
    # the deal of the README's tour (seed 7): the 5♦ alone in column 1, the 6♠ on column 3
    kernel_eval(page, "board.new_game(seed=7)")
    expect(root.locator('[data-pile="t1"] [data-card="5D"]')).to_have_count(1)
    page.screenshot(path=str(ARTIFACTS / "lite-start.png"))

    drag(page, root.locator('[data-card="5D"]'), root.locator('[data-pile="t3"]'))
    expect(root.locator('[data-pile="t3"] [data-card="5D"]')).to_have_count(1)
    root.locator('[data-pile="stock"]').click()
    expect(root.locator('[data-pile="w"] [data-card]')).to_have_count(1)
    assert kernel_eval(page, "print([str(m) for m in board.game.history])").strip() == "['t1-t3', 'd']"
    assert kernel_eval(page, "import patiencelab; print(patiencelab.COMPILED)").strip() == "()"  # the pure wheel
    expect(root).not_to_contain_text("undefined")

    # the indicator thinks in the kernel's own thread (no processes here) and reaches a verdict
    choose_from_more(root, "indicator")
    badge = root.locator("[data-verdict]")
    expect(badge).to_have_attribute("data-verdict", "winnable", timeout=SLOW)
    assert "'error': None" in kernel_eval(page, "print(board.state['indicator'])")
    page.screenshot(path=str(ARTIFACTS / "lite-played.png"))

    # the game in play survives a reload: the board offers to continue it, and continues it
    page.reload()
    root, seconds = open_and_run(page, site, "play.ipynb")
    note(f"play.ipynb after a reload: board shown in {seconds:.1f} s")
    idle(page)
    banner = root.locator('.pl-banner[data-kind="resume"]')
    expect(banner).to_be_visible(timeout=SLOW)
    expect(banner.locator(".pl-banner-title")).to_contain_text("Continue your game from ")
    page.screenshot(path=str(ARTIFACTS / "lite-resume-offer.png"))
    banner.locator('[data-action="resume"]').click()
    expect(root.locator('[data-pile="t3"] [data-card="5D"]')).to_have_count(1, timeout=SLOW)
    expect(banner).to_be_hidden()
    idle(page)
    assert kernel_eval(page, "print([str(m) for m in board.game.history])").strip() == "['t1-t3', 'd']"
    page.screenshot(path=str(ARTIFACTS / "lite-resumed.png"))

    # a new deal stores the game played as abandoned: it is in the statistics, kept in the browser's storage
    kernel_eval(page, "board.new_game(seed=3)")
    choose_from_more(root, "stats")
    expect(root.locator('.pl-stats td[data-col="played"]').first).to_have_text("1", timeout=SLOW)
    stored = "import os; print(os.path.getsize('/drive/patiencelab-records.sqlite3') > 0)"
    assert kernel_eval(page, stored).strip() == "True"
    page.screenshot(path=str(ARTIFACTS / "lite-statistics.png"))
    assert errors == []


def test_a_teaching_notebook_steps_forward_and_back_in_dutch(
    context: tuple[BrowserContext, list[str]], site: str
) -> None:
    page = context[0].new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    root, _seconds = open_and_run(page, site, "lesgeven.ipynb")
    caption = root.locator(".pl-lesson-caption")
    expect(caption).to_be_visible(timeout=SLOW)
    idle(page)  # Run All leaves the shipped lesson on the first board, two steps in (the teacher's own has its own)
    assert kernel_eval(page, "print(board.state['lesson']['step'], board.lang)").strip() == "2 nl"
    start = caption.inner_text()
    root.locator('[data-lesson="forward"]').click()
    expect(caption).not_to_have_text(start, timeout=SLOW)
    assert kernel_eval(page, "print(board.state['lesson']['step'], board.lang)").strip() == "3 nl"
    said = kernel_eval(page, "print(board.state['lesson']['caption'])").strip()
    expect(caption).to_have_text(said)  # the narration Python wrote, in Dutch
    page.screenshot(path=str(ARTIFACTS / "lite-lesson-nl.png"))
    root.locator('[data-lesson="back"]').click()
    expect(caption).to_have_text(start, timeout=SLOW)
    back = "print(board.state['lesson']['step'], board.lesson.game_at(2).history == board.game.history)"
    steps = kernel_eval(page, back)
    assert steps.strip() == "2 True"
    assert errors == []


def test_the_players_notebook_plays_and_measures_in_the_browser(
    context: tuple[BrowserContext, list[str]], site: str
) -> None:
    """Issue 36: the student's notebook in the site: the automatic player plays on the board turn by turn (no
    threads in the browser's Python) and an evaluation of a few deals gives its rows, each saying how it ended.
    """
    page = context[0].new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    root, seconds = open_and_run(page, site, "players.ipynb")
    note(f"players.ipynb: link opened to board shown in {seconds:.1f} s")
    moves = root.locator(".pl-stat-moves .pl-stat-value")
    seen: set[int] = set()
    for _ in range(3_000):  # a ceiling: the evaluation below keeps the kernel busy a while
        seen.add(int(moves.text_content() or "0"))
        if max(seen) > 10:
            break
        page.wait_for_timeout(100)
    assert max(seen) > 10 and len(seen) >= 5, seen
    root.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "lite-players-autoplay.png"))
    idle(page)
    endings = kernel_eval(page, "print(*sorted({row.ended for row in mine.rows}), len(mine.rows))").split()
    assert endings[-1] == "6" and set(endings[:-1]) <= {"won", "stuck", "repeated", "max_moves"}, endings
    table = kernel_eval(page, "print(results)")
    assert "| mine |" in table and "| nopeek (small) |" in table
    assert "numpy" in page.locator(".jp-MarkdownCell").last.inner_text()  # what the site leaves out, said
    # issue 62: no cell warns (tqdm's monitor thread, which the browser's Python cannot start, is off there)
    warned = page.locator('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')
    assert not [t for t in warned.all_inner_texts() if "Warning" in t], warned.all_inner_texts()
    page.locator(".jp-MarkdownCell").last.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "lite-players-end.png"))
    kernel_eval(page, "board.stop_autoplay()")
    assert errors == []
