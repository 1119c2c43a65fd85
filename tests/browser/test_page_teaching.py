"""Teaching mode, show-moves, revealed cards, the More menu and the statistics panel in the built bundle."""

from __future__ import annotations

import pathlib
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .jupyter_harness import drag
from .page_harness import mount, open_board, sent

pytestmark = pytest.mark.browser

NewPage = Callable[..., Page]


def state(page: Page) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate("window.pl.model.data.state")
    return result


def font_px(page: Page, selector: str) -> float:
    return float(page.locator(selector).evaluate("el => parseFloat(getComputedStyle(el).fontSize)"))


def test_lesson_steps_forward_and_shows_the_next_caption(new_page: NewPage, page_server: str) -> None:
    page = mount(new_page(), page_server, "lessonOne", {"lesson.forward": "lessonTwo"})
    lesson = page.locator(".pl-lesson")
    expect(lesson).to_be_visible()
    expect(lesson.locator(".pl-lesson-step")).to_have_text("Step 1 of 9")
    expect(lesson.locator(".pl-lesson-caption")).to_contain_text("one rank higher of the other colour")
    expect(lesson.locator(".pl-lesson-note")).to_have_css("font-style", "italic")
    expect(page.locator('[data-card="9H"]')).to_have_class("pl-card pl-up pl-red pl-movable pl-lesson-mark")
    # The caption box sits above the board.
    caption_box = lesson.bounding_box()
    table = page.locator(".pl-table").bounding_box()
    assert caption_box is not None and table is not None
    assert caption_box["y"] + caption_box["height"] <= table["y"]

    page.locator('.pl-lesson [data-lesson="forward"]').click()
    expect(lesson.locator(".pl-lesson-step")).to_have_text("Step 2 of 9")
    expect(lesson.locator(".pl-lesson-caption")).to_contain_text("Move the 9\u2665 from column 5")
    assert sent(page) == [{"type": "lesson", "action": "forward", "version": 1, "id": 1}]
    expect(page.locator('[data-pile="t4"] [data-card="9H"]')).to_have_count(1)
    expect(page.locator('[data-pile="t4"]')).to_have_class("pl-pile pl-pile-t4 pl-lesson-mark")
    expect(page.locator("[aria-live=polite]")).to_contain_text("Move the 9\u2665")


def test_lesson_keyboard_steps(new_page: NewPage, page_server: str) -> None:
    page = mount(new_page(), page_server, "lessonOne", {"lesson.forward": "lessonTwo"})
    page.locator(".pl-root").focus()
    page.keyboard.press("Shift+ArrowRight")
    expect(page.locator(".pl-lesson-step")).to_have_text("Step 2 of 9")
    page.keyboard.press(",")
    page.keyboard.press("p")
    assert [m.get("action") for m in sent(page)] == ["forward", "back", "play"]


def test_lesson_plays_at_its_pace_and_pauses(new_page: NewPage, page_server: str) -> None:
    page = mount(new_page(), page_server, "lessonPlaying")
    page.wait_for_timeout(1700)
    assert [m["action"] for m in sent(page)] == ["forward"]
    page.locator('.pl-lesson [data-lesson="play"]').click()
    page.wait_for_timeout(1700)
    assert [m["action"] for m in sent(page)] == ["forward", "pause"]


def test_taken_over_offers_back_to_the_lesson(new_page: NewPage, page_server: str) -> None:
    page = mount(new_page(), page_server, "lessonTakenOver")
    resume = page.locator(".pl-resume")
    expect(resume).to_have_text("Back to the lesson")
    resume.click()
    assert sent(page)[-1]["action"] == "resume"
    expect(page.locator('[data-lesson="forward"]')).to_be_disabled()


def test_caption_is_large_enough_for_a_projector(new_page: NewPage, page_server: str) -> None:
    page = mount(new_page(width=900), page_server, "lessonTwo")
    assert font_px(page, ".pl-lesson-caption") >= 24
    assert font_px(page, ".pl-lesson-note") >= 18
    small = mount(new_page(width=360), page_server, "lessonTwo")
    assert font_px(small, ".pl-lesson-caption") >= 15  # a phone, held close: the words fit its narrow box


def test_show_moves_marks_exactly_the_movable_cards(new_page: NewPage, page_server: str) -> None:
    page = mount(new_page(), page_server, "showMoves")
    marked = page.locator(".pl-card.pl-can-move").evaluate_all("els => els.map(e => e.dataset.card)")
    assert sorted(marked) == sorted(state(page)["targets"])
    page.locator('[data-card="6S"]').click()
    drops = page.locator(".pl-can-drop").evaluate_all("els => els.map(e => e.dataset.pile)")
    assert sorted(drops) == ["t1", "t5"]
    expect(page.locator(".pl-indicator")).to_have_attribute("data-verdict", "pending")


def test_revealed_cards_are_face_up_and_marked(new_page: NewPage, page_server: str, artifacts: pathlib.Path) -> None:
    page = mount(new_page(), page_server, "revealed")
    hidden = [card for col in state(page)["tableau"] for card in col["down"]] + state(page)["stock"]
    marked = page.locator("[data-revealed=true]").evaluate_all("els => els.map(e => e.dataset.card)")
    assert sorted(marked) == sorted(hidden)
    card = page.locator('[data-pile="t7"] [data-revealed=true]').first
    expect(card).to_have_css("border-top-style", "dashed")
    expect(card.locator(".pl-eye svg")).to_be_visible()
    expect(page.locator('[data-card="back"]')).to_have_count(0)
    # Not draggable: a drag on a revealed card moves nothing and sends nothing.
    before = card.bounding_box()
    assert before is not None
    page.mouse.move(before["x"] + 20, before["y"] + 8)
    page.mouse.down()
    page.mouse.move(before["x"] + 120, before["y"] + 200, steps=6)
    assert page.locator(".pl-dragging").count() == 0
    page.mouse.up()
    assert sent(page) == []
    page.screenshot(path=artifacts / "page-reveal.png", full_page=True)


def test_statistics_panel(new_page: NewPage, page_server: str, artifacts: pathlib.Path) -> None:
    page = mount(new_page(), page_server, "midGame")
    page.evaluate("window.pl.model.statsRows = window.pl.states.statsRows()")
    page.locator('[data-action="more"]').click()
    page.locator('.pl-more-menu [data-action="stats"]').click()
    panel = page.locator(".pl-panel-stats")
    expect(panel.locator("tbody tr")).to_have_count(3)
    expect(panel.locator("tbody tr").first).to_contain_text("Standard")
    expect(panel.locator("tbody tr").first).to_contain_text("42%")
    expect(panel.locator("tbody tr").first).to_contain_text("03:21")
    assert sent(page)[-1] == {"type": "stats", "version": 1, "id": 1}
    page.screenshot(path=artifacts / "page-statistics.png")
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()


def test_rules_panel_and_language_menu(new_page: NewPage, page_server: str, artifacts: pathlib.Path) -> None:
    page = mount(new_page(width=360), page_server, "midGame")
    more = page.locator('[data-action="more"]')
    more.click()
    menu = page.locator(".pl-more-menu")
    expect(menu.locator('[data-lang="en"]')).to_have_attribute("aria-checked", "true")
    page.screenshot(path=artifacts / "page-more-menu-360.png")
    menu.locator('[data-action="rules"]').click()
    panel = page.locator(".pl-panel-rules")
    expect(panel.locator(".pl-rules-line")).to_have_count(4)
    page.screenshot(path=artifacts / "page-rules-360.png")
    page.mouse.click(180, 700)
    expect(panel).to_be_hidden()
    more.click()
    menu.locator('[data-lang="sv"]').click()
    assert sent(page)[-1] == {"type": "lang", "lang": "sv", "version": 1, "id": 1}


@pytest.mark.parametrize(
    ("width", "scheme"),
    [(900, "light"), (900, "dark"), (360, "light"), (360, "dark")],
)
def test_lesson_screenshots(
    new_page: NewPage, page_server: str, artifacts: pathlib.Path, width: int, scheme: str
) -> None:
    page = new_page(width=width, height=1000, color_scheme=scheme)
    mount(page, page_server, "lessonTwo")
    page.evaluate(
        "window.pl.model.push({...window.pl.model.data.state, version: 2,"
        " message: {id: 1, kind: 'narration', text: 'Every step is a move you can undo.'}})"
    )
    expect(page.locator(".pl-lesson-narration")).to_be_visible()
    page.wait_for_timeout(300)
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the board is wider than a {width}px page"
    bar = page.locator(".pl-bar").bounding_box()
    assert bar is not None and bar["height"] < 50, "the toolbar wraps onto a second row"
    page.screenshot(path=artifacts / f"page-lesson-{width}-{scheme}.png", full_page=True)


#: Sizes and languages the quiz's answer is looked at in (issue 60): each language once, each size once.
QUIZ_LOOKS = [("sv", 1280, 800), ("nl", 1024, 768), ("en", 400, 800)]


@pytest.mark.parametrize(("lang", "width", "height"), QUIZ_LOOKS)
def test_a_quiz_answers_a_wrong_move_clicked_as_it_answers_it_dragged(
    lang: str, width: int, height: int, new_page: NewPage, page_server: str, artifacts: pathlib.Path
) -> None:
    """Issue 60: in the quiz lesson the 5♦ (no legal move) clicked, then column 2, was ignored with no word, while
    the same move dragged was answered with its reason. The real Python board is behind the page."""
    from patiencelab.lessons import Lesson
    from patiencelab.widget.board import KlondikeWidget

    said: dict[str, str] = {}
    for how in ("click", "drag"):
        widget = KlondikeWidget(records=None, lang=lang, lesson=Lesson.builtin("quiz"))
        widget.goto(1)  # the quiz step waits for the class's answer
        page = new_page(width=width, height=height, reduced_motion="reduce")
        open_board(page, page_server, widget)
        card, column = page.locator('[data-card="5D"]'), page.locator('[data-pile="t2"]')
        if how == "click":
            card.click()
            expect(card).to_have_class(re.compile(r"\bpl-selected\b"))
            page.screenshot(path=artifacts / f"quiz-selected-{lang}-{width}.png")  # picked up, no pile to go to
            column.locator('[data-card="7D"]').click()
        else:
            drag(page, card, column)
        line = page.locator(".pl-lesson-narration")  # in a lesson, the message line is in its caption box
        expect(line).not_to_be_empty()
        said[how] = line.text_content() or ""
        assert widget.state["lesson"]["quiz"]["tries_left"] == 1  # the answer was judged, once
        page.screenshot(path=artifacts / f"quiz-wrong-{how}-{lang}-{width}.png")
        widget.close()
    assert said["click"] == said["drag"]
    assert "5\u2666" in said["click"]
