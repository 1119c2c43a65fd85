"""The test page (``tests/browser/page``) with the real built bundle: a scripted fake model (``mount``) or the real
Python widget behind it (``open_board``), and what the board sent. Shared by the plain-page browser tests.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page


def mount(page: Page, server: str, scenario: str, script: dict[str, str] | None = None) -> Page:
    """Loads the test page and renders the board for a scenario of ``page/states.js``."""
    if page.url == "about:blank":
        page.goto(f"{server}/index.html")
        page.wait_for_function("window.pl !== undefined")
    page.evaluate("([name, script]) => window.pl.mount(name, script)", [scenario, script or {}])
    page.wait_for_selector(".pl-root[data-version]")
    return page


def sent(page: Page) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = page.evaluate("window.pl.model.sent")
    return result


def open_board(page: Page, server: str, widget: Any) -> None:
    def kernel(intent: dict[str, Any]) -> dict[str, Any]:
        reply = widget.handle_intent(intent)
        labels = widget.labels if isinstance(intent, dict) and intent.get("type") == "lang" else None
        return {"reply": reply, "state": widget.state, "labels": labels}

    page.expose_function("plKernel", kernel)
    page.goto(f"{server}/index.html")
    page.wait_for_function("window.pl !== undefined")
    page.evaluate("([s, l]) => window.pl.mountKernel(s, l)", [widget.state, widget.labels])
