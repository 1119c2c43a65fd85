"""The real built bundle in a plain page with a scripted fake model, driven by Playwright."""

from __future__ import annotations

import pathlib
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from .page_harness import mount, sent

pytestmark = pytest.mark.browser

NewPage = Callable[..., Page]


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not visible"
    return {"x": found["x"], "y": found["y"], "width": found["width"], "height": found["height"]}


def in_table(page: Page, selector: str) -> dict[str, float]:
    """Where ``selector`` is on the table (the message line above the table may push the whole table down)."""
    card, table = box(page, selector), box(page, ".pl-table")
    return {"x": card["x"] - table["x"], "y": card["y"] - table["y"]}


def centre(b: dict[str, float], dy: float = 0.0) -> tuple[float, float]:
    return b["x"] + b["width"] / 2, b["y"] + min(b["height"] / 2, 12 + dy)


def drag(page: Page, source: str, target: str) -> None:
    x0, y0 = centre(box(page, source))
    x1, y1 = centre(box(page, target), 10)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x1, y1, steps=12)
    page.mouse.up()


def test_start_renders_every_card(new_page: NewPage, page_server: str, artifacts: pathlib.Path) -> None:
    page = mount(new_page(), page_server, "start")
    expect(page.locator("[data-card]")).to_have_count(52)
    expect(page.locator('[data-pile="stock"] [data-card="back"]')).to_have_count(24)
    expect(page.locator('[data-pile="t7"] [data-card="JD"]')).to_be_visible()
    root = page.locator(".pl-root")
    expect(root).to_have_attribute("data-status", "playing")
    expect(root).to_have_attribute("data-lm-suppress-shortcuts", "true")
    page.screenshot(path=artifacts / "page-start.png", full_page=True)
    page.locator('[data-action="new"]').click()
    expect(page.locator(".pl-menu")).to_be_visible()
    page.screenshot(path=artifacts / "page-new-menu.png")
    page.locator('.pl-menu [data-preset="traditional"][data-draw="3"]').click()
    expect(page.locator(".pl-menu")).to_be_hidden()
    assert sent(page)[-1] == {"type": "new", "preset": "traditional", "draw": 3, "version": 1, "id": 1}


def test_drag_to_a_legal_pile_moves_without_flashing_back(new_page: NewPage, page_server: str) -> None:
    page = mount(new_page(), page_server, "start", {"9H->t4": "afterNineOnTen"})
    page.evaluate("window.pl.model.delay = 400")
    origin = box(page, '[data-card="9H"]')
    drag(page, '[data-card="9H"]', '[data-pile="t4"] [data-card="TC"]')
    held = box(page, '[data-card="9H"]')
    assert abs(held["x"] - origin["x"]) > 20, "the card went back to its place before the new state came"
    expect(page.locator(".pl-root")).to_have_attribute("data-version", "2")
    expect(page.locator('[data-pile="t4"] [data-card="9H"]')).to_have_count(1)
    expect(page.locator('[data-pile="t5"] [data-card="6C"]')).to_have_count(1)
    assert sent(page) == [{"type": "move", "card": "9H", "to": "t4", "version": 1, "id": 1}]
    expect(page.locator("[aria-live=polite]")).to_have_text("9 of hearts to Column 4")
    page.wait_for_timeout(500)
    settled, ten = box(page, '[data-card="9H"]'), box(page, '[data-card="TC"]')
    assert abs(settled["x"] - ten["x"]) < 1 and settled["y"] > ten["y"]


def test_drop_on_an_illegal_pile_snaps_back_and_says_why(
    new_page: NewPage, page_server: str, artifacts: pathlib.Path
) -> None:
    page = mount(new_page(), page_server, "start")
    origin = in_table(page, '[data-card="9H"]')
    drag(page, '[data-card="9H"]', '[data-pile="t1"] [data-card="7D"]')
    line = page.locator(".pl-say")
    expect(line).to_have_text("The 9H cannot go on t1.")
    expect(line).to_have_attribute("data-kind", "error")
    expect(page.locator("[aria-live=polite]")).to_have_text("The 9H cannot go on t1.")
    page.screenshot(path=artifacts / "page-rejected.png")
    page.wait_for_timeout(600)
    back = in_table(page, '[data-card="9H"]')
    assert abs(back["x"] - origin["x"]) < 1 and abs(back["y"] - origin["y"]) < 1
    expect(page.locator(".pl-root")).to_have_attribute("data-version", "1")


def test_a_card_that_cannot_move_can_still_be_dragged_and_hears_why(new_page: NewPage, page_server: str) -> None:
    page = mount(new_page(), page_server, "start")
    origin = in_table(page, '[data-card="7D"]')
    drag(page, '[data-card="7D"]', '[data-pile="t2"] [data-card="QS"]')
    expect(page.locator(".pl-say")).to_have_text("The 7D cannot go on t2.")
    page.wait_for_timeout(600)
    back = in_table(page, '[data-card="7D"]')
    assert abs(back["x"] - origin["x"]) < 1 and abs(back["y"] - origin["y"]) < 1
    expect(page.locator(".pl-root")).to_have_attribute("data-version", "1")


def test_drop_on_the_table_snaps_back_without_an_intent(new_page: NewPage, page_server: str) -> None:
    page = mount(new_page(), page_server, "start")
    origin = box(page, '[data-card="9H"]')
    page.mouse.move(*centre(origin))
    page.mouse.down()
    page.mouse.move(origin["x"] + 30, origin["y"] + 420, steps=8)
    page.mouse.up()
    page.wait_for_timeout(600)
    back = box(page, '[data-card="9H"]')
    assert abs(back["x"] - origin["x"]) < 1 and abs(back["y"] - origin["y"]) < 1
    assert sent(page) == []


def test_click_the_stock_draws(new_page: NewPage, page_server: str) -> None:
    page = mount(new_page(), page_server, "start", {"draw": "afterDraw"})
    page.locator('[data-pile="stock"]').click()
    expect(page.locator('[data-pile="w"] [data-card="KH"]')).to_have_count(1)
    expect(page.locator('[data-pile="stock"] .pl-card')).to_have_count(23)
    assert sent(page) == [{"type": "draw", "version": 1, "id": 1}]


def test_click_to_move(new_page: NewPage, page_server: str) -> None:
    page = mount(new_page(), page_server, "start", {"9H->t4": "afterNineOnTen"})
    page.locator('[data-card="9H"]').click()
    expect(page.locator('[data-pile="t4"]')).to_have_class("pl-pile pl-pile-t4 pl-target")
    page.locator('[data-card="TC"]').click()
    expect(page.locator('[data-pile="t4"] [data-card="9H"]')).to_have_count(1)


def test_double_click_sends_a_card_to_its_foundation(new_page: NewPage, page_server: str) -> None:
    page = mount(new_page(), page_server, "start")
    page.locator('[data-card="AS"]').dblclick()
    page.wait_for_timeout(100)
    assert sent(page) == [{"type": "move", "card": "AS", "to": "fS", "version": 1, "id": 1}]


def test_keyboard_plays_a_move(new_page: NewPage, page_server: str, artifacts: pathlib.Path) -> None:
    page = mount(new_page(), page_server, "start", {"JD->t2": "afterJackOnQueen"})
    page.locator(".pl-root").focus()
    for key in ["ArrowRight"] * 7:
        page.keyboard.press(key)
    expect(page.locator('[data-card="JD"]')).to_have_class("pl-card pl-up pl-red pl-movable pl-focus")
    page.keyboard.press("Enter")
    for key in ["ArrowLeft"] * 5:
        page.keyboard.press(key)
    page.screenshot(path=artifacts / "page-keyboard.png")
    page.keyboard.press("Enter")
    expect(page.locator('[data-pile="t2"] [data-card="JD"]')).to_have_count(1)
    assert sent(page)[-1] == {"type": "move", "card": "JD", "to": "t2", "version": 1, "id": 1}
    page.keyboard.press("d")
    page.keyboard.press("u")
    assert [m["type"] for m in sent(page)[1:]] == ["draw", "undo"]


def test_cleanup_removes_the_board_and_listeners(new_page: NewPage, page_server: str) -> None:
    page = mount(new_page(), page_server, "start")
    page.evaluate("window.pl.unmount()")
    expect(page.locator(".pl-root")).to_have_count(0)
    assert page.evaluate("window.pl.model.listenerCount()") == 0
    assert page.evaluate("window.pl.model.saves") == 0


def test_won_shows_banner_and_celebration(new_page: NewPage, page_server: str, artifacts: pathlib.Path) -> None:
    page = mount(new_page(), page_server, "almostWon", {"KC->fC": "won"})
    page.locator('[data-card="KC"]').dblclick()
    expect(page.locator(".pl-root")).to_have_attribute("data-status", "won")
    expect(page.locator(".pl-banner")).to_contain_text("You won!")
    expect(page.locator("canvas.pl-celebration")).to_have_count(1)
    page.wait_for_timeout(2500)
    page.screenshot(path=artifacts / "page-won.png")


@pytest.mark.parametrize(
    ("scenario", "width", "scheme", "jp_dark"),
    [
        ("midGame", 900, "light", False),
        ("drawThree", 900, "light", False),
        ("sixColumns", 700, "light", False),
        ("midGame", 900, "dark", False),
        ("midGame", 900, "light", True),
        ("midGame", 360, "light", False),
        ("drawThree", 360, "dark", False),
        ("noPasses", 600, "light", False),
        ("stuck", 600, "dark", False),
    ],
)
def test_screenshots(
    new_page: NewPage,
    page_server: str,
    artifacts: pathlib.Path,
    scenario: str,
    width: int,
    scheme: str,
    jp_dark: bool,
) -> None:
    page = new_page(width=width, height=800, color_scheme=scheme)
    mount(page, page_server, scenario)
    if jp_dark:
        page.evaluate("document.body.classList.add('jp-dark'); document.body.dataset.jpThemeLight = 'false'")
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the board is wider than a {width}px page"
    last = page.locator(".pl-tableau .pl-pile").last.bounding_box()
    root = page.locator(".pl-root").bounding_box()
    assert last is not None and root is not None
    assert last["x"] + last["width"] <= root["x"] + root["width"]
    name = f"page-{scenario}-{width}-{'jpdark' if jp_dark else scheme}.png"
    page.screenshot(path=artifacts / name, full_page=True)


def test_reduced_motion_moves_at_once_without_celebration(new_page: NewPage, page_server: str) -> None:
    page = mount(new_page(reduced_motion="reduce"), page_server, "almostWon", {"KC->fC": "won"})
    page.locator('[data-card="KC"]').dblclick()
    expect(page.locator(".pl-root")).to_have_attribute("data-status", "won")
    expect(page.locator(".pl-banner")).to_contain_text("You won!")
    assert page.locator("canvas.pl-celebration").count() == 0
    assert page.locator(".pl-moving").count() == 0
    king, queen = box(page, '[data-card="KC"]'), box(page, '[data-card="QC"]')
    assert (king["x"], king["y"]) == (queen["x"], queen["y"])


def test_touch_has_no_browser_gestures_on_cards(new_page: NewPage, page_server: str) -> None:
    page = mount(new_page(), page_server, "start")
    assert page.locator('[data-card="9H"]').evaluate("el => getComputedStyle(el).touchAction") == "none"
