"""The built bundle against the real Python widget (no Jupyter): intents go to ``handle_intent``."""

from __future__ import annotations

import pathlib
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

import patiencelab.widget.board as widget_module  # noqa: E402 - the widget needs the built bundle


def test_play_against_the_python_model(
    new_page: Callable[..., Page], page_server: str, artifacts: pathlib.Path
) -> None:
    widget = widget_module.KlondikeWidget(seed=3)

    def kernel(intent: dict[str, Any]) -> dict[str, Any]:
        return {"reply": widget.handle_intent(intent), "state": widget.state}

    page = new_page()
    page.expose_function("plKernel", kernel)
    page.goto(f"{page_server}/index.html")
    page.wait_for_function("window.pl !== undefined")
    page.evaluate("([s, l]) => window.pl.mountKernel(s, l)", [widget.state, widget.labels])
    root = page.locator(".pl-root")
    expect(root).to_have_attribute("data-version", str(widget.state["version"]))

    movable = sorted(widget.state["targets"])
    card, home = next((c, p) for c in movable for p in widget.state["targets"][c] if p[0] == "f")
    page.locator(f'[data-card="{card}"]').dblclick()
    expect(page.locator(f'[data-pile="{home}"] [data-card="{card}"]')).to_have_count(1)
    assert widget.game.moves == 1

    page.locator('[data-pile="stock"]').click()
    expect(page.locator('[data-pile="w"] .pl-card')).to_have_count(1)
    page.locator(".pl-root").focus()
    page.keyboard.press("u")
    expect(page.locator('[data-pile="w"] .pl-card')).to_have_count(0)
    assert widget.game.moves == 1

    # An illegal drop: the rule's reason from Python shows in the message line.
    state = widget.state
    card = sorted(state["targets"])[0]
    homes = {c: f"t{i + 1}" for i, col in enumerate(state["tableau"]) for c in col["up"]}
    places = [*state["targets"][card], homes.get(card, "")]
    pile = next(f"t{i}" for i in range(1, 8) if f"t{i}" not in places)
    page.locator(f'[data-card="{card}"]').click()
    page.locator(f'[data-pile="{pile}"]').click()
    expect(page.locator('.pl-say[data-kind="error"]')).to_have_count(1)
    assert page.locator(".pl-say").inner_text().strip()
    assert widget.game.moves == 1
    page.screenshot(path=artifacts / "page-kernel.png")
