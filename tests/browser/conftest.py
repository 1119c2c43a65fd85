"""Shared fixtures for browser tests: finding Chromium, launching it, a local page server, page errors.

Browser tests carry the ``browser`` marker. Without a browser they skip, except under ``CI=true``, where a
missing browser fails. Never run ``playwright install``: the system Chromium is driven through
``executable_path``.
"""

from __future__ import annotations

import functools
import http.server
import json
import pathlib
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import pytest

from .chromium import CHROMIUM_ARGS, find_chromium, no_browser

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Playwright

    from .jupyter_harness import Jupyter, SharedJupyter

REPO = pathlib.Path(__file__).resolve().parents[2]
STATIC = REPO / "src" / "patiencelab" / "static"
PAGE_DIR = pathlib.Path(__file__).resolve().parent / "page"
ARTIFACTS = REPO / "test-artifacts"
#: How long an ``expect`` waits for the page to show what it should (Playwright's default is 5 s): a ceiling for a
#: kernel's round trip on a busy machine, not a budget (an ``expect`` passes the moment the page shows it).
EXPECT_TIMEOUT_MS = 20_000


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives a real Chromium (skipped when none is installed)")


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = find_chromium()
    if path is None:
        no_browser("no Chromium found: set CHROMIUM_PATH or install the 'chromium' package")
    assert path is not None
    return path


# Module scope: Playwright's sync API runs an event loop in the main thread while it is open, and a widget made
# then would hand its worker threads' results to that loop (see widget/board.py), which nothing runs once the
# browser tests are done. Closed after each module, it leaves no loop behind for the tests that follow.
@pytest.fixture(scope="module")
def playwright_driver() -> Iterator[Playwright]:
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        no_browser("the 'playwright' Python package is not installed")
        raise
    expect.set_options(timeout=EXPECT_TIMEOUT_MS)
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="module")
def browser(playwright_driver: Playwright, chromium_path: str) -> Iterator[Browser]:
    """One headless Chromium for each test module; each test gets a fresh context (its own profile)."""
    launched = playwright_driver.chromium.launch(executable_path=chromium_path, args=list(CHROMIUM_ARGS))
    yield launched
    launched.close()


@pytest.fixture(scope="session")
def shared_jupyter(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SharedJupyter]:
    """The Jupyter servers of this test process (each pytest-xdist worker has its own): one JupyterLab, and one
    Notebook 7 for its tests, each started when a test first asks for it (``jupyter`` below)."""
    from .jupyter_harness import SharedJupyter

    servers = SharedJupyter(tmp_path_factory.mktemp("jupyter"))
    yield servers
    servers.close()


@pytest.fixture
def jupyter(shared_jupyter: SharedJupyter, private_records_home: pathlib.Path) -> Jupyter:
    """``with jupyter("lab") as server:`` (or ``"notebook"``, Notebook 7; ``settings={plugin: values}``): this
    test's own folder, workspace and kernels in the process's server of that flavour (``SharedJupyter.lend``)."""
    return functools.partial(shared_jupyter.lend, records_home=private_records_home)


class _PageHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the test page, the built bundle under ``/static/``, and the labels of a language as Python sends
    them under ``/labels/<lang>.json`` (so that the page's fake kernel has no words of its own).
    """

    def do_GET(self) -> None:
        clean = self.path.split("?", 1)[0]
        if clean.startswith("/labels/") and clean.endswith(".json"):
            from patiencelab.core.i18n import LANGUAGES, labels

            lang = clean.removeprefix("/labels/").removesuffix(".json")
            if lang not in LANGUAGES:
                self.send_error(404)
                return
            body = json.dumps(labels(lang)).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def translate_path(self, path: str) -> str:
        clean = path.split("?", 1)[0].split("#", 1)[0]
        if clean.startswith("/static/"):
            return str(STATIC / clean.removeprefix("/static/"))
        return super().translate_path(path)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: no request log on stderr."""


@pytest.fixture(scope="session")
def page_server() -> Iterator[str]:
    """The base URL of a local server (127.0.0.1, a free port) for ``tests/browser/page``."""
    if not (STATIC / "widget.js").is_file() or not (STATIC / "widget.css").is_file():
        pytest.fail(
            f"the front-end bundle is missing from {STATIC}: build it first with "
            "'cd js && npm ci && npm run build' (make test does this)",
            pytrace=False,
        )
    handler = functools.partial(_PageHandler, directory=str(PAGE_DIR))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def collect_page_errors(page: Page) -> list[str]:
    """Records uncaught page errors and console errors of ``page`` into the returned list."""
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(f"pageerror: {err}"))
    page.on("console", lambda msg: errors.append(f"console.{msg.type}: {msg.text}") if msg.type == "error" else None)
    return errors


def check_received(page: Page) -> None:
    """Every state and label set the test page gave the board follows the protocol schema (js/types.ts)."""
    from tests.protocol_schema import check

    if page.is_closed():
        return
    mounted, received = page.evaluate("() => [!!(window.pl && window.pl.model), window.plReceived || []]")
    assert received or not mounted, "the board was mounted, but no state it received was recorded"
    for item in received:
        check("GameState" if item["trait"] == "state" else "Labels", item["value"])


@pytest.fixture
def artifacts() -> pathlib.Path:
    """``test-artifacts/`` (git-ignored) for screenshots."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def new_page(browser: Browser) -> Iterator[Callable[..., Page]]:
    """Opens pages in fresh contexts (``new_page(width=..., color_scheme=...)``); fails on page errors."""
    opened: list[tuple[Page, list[str]]] = []

    def make(
        width: int = 900, height: int = 900, color_scheme: str = "light", reduced_motion: str = "no-preference"
    ) -> Page:
        context = browser.new_context(
            viewport={"width": width, "height": height},
            color_scheme=color_scheme,  # type: ignore[arg-type]
            reduced_motion=reduced_motion,  # type: ignore[arg-type]
        )
        page = context.new_page()
        opened.append((page, collect_page_errors(page)))
        return page

    yield make
    for page, _errors in opened:
        check_received(page)
    problems = [error for _page, errors in opened for error in errors]
    for page, _errors in opened:
        page.context.close()
    assert not problems, f"errors in the page: {problems}"


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A 1280x900 page in a fresh context, for the tests in real JupyterLab and Notebook 7 (which watch page
    errors themselves: Notebook 7 throws one on every load).
    """
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def still_page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A page with reduced motion, for a real Jupyter (the board is measured still, not mid-animation): 1280x900,
    or the test module's ``STILL_VIEWPORT``."""
    width, height = getattr(request.module, "STILL_VIEWPORT", (1280, 900))
    context = browser.new_context(viewport={"width": width, "height": height}, reduced_motion="reduce")
    page = context.new_page()
    yield page
    context.close()
