"""Issue 12's layout check in a plain page, against the real Python widget: three languages, four sizes (three in
``make test``: ``layout.WALKED_SIZES``), every menu and panel, every step of every shipped lesson (the same check
runs in real JupyterLab in test_jupyter_layout). ``make test`` walks a fixed sample (``layout.walked``): each lesson
once, at one size in one language, the sizes and languages turning; the teaching states at every size in one
language; ``make soak`` walks all (``pytest --soak``).
"""

from __future__ import annotations

import pathlib
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from patiencelab.lessons import Lesson
from patiencelab.widget.board import KlondikeWidget

from .layout import (
    BOARD_SETUP,
    CONTROLS,
    LANGS,
    WALKED_SIZES,
    check,
    click,
    look_at_every_menu_and_panel,
    look_at_teaching,
    size_problems,
    step_through,
    summary,
    table_place,
    to_top,
    walked,
    word_problems,
)
from .page_harness import mount, open_board


def problems_of(root: Any) -> list[str]:
    """What the layout check finds wrong with the board's controls and cards."""
    return check(root, CONTROLS, cards=True)


pytestmark = pytest.mark.browser


def choose_language(page: Page, lang: str) -> None:
    root = page.locator(".pl-root")
    click(page, root.locator('.pl-bar [data-action="more"]'))
    click(page, root.locator(f'.pl-menu-item[data-lang="{lang}"]'))
    expect(root.locator(f'.pl-menu-item[data-lang="{lang}"]')).to_have_attribute("aria-checked", "true")


@pytest.mark.parametrize(("width", "height"), WALKED_SIZES, ids=[f"{w}x{h}" for w, h in WALKED_SIZES])
def test_every_menu_panel_and_lesson_step_fits_in_a_plain_page(
    width: int, height: int, new_page: Callable[..., Page], page_server: str, artifacts: pathlib.Path
) -> None:
    scope: dict[str, Any] = {}
    exec(BOARD_SETUP, scope)
    widget = scope["w"]
    page = new_page(width=width, height=height, reduced_motion="reduce")  # a still board to measure
    open_board(page, page_server, widget)
    root = page.locator(".pl-root")
    problems: list[str] = []
    for lang in LANGS:
        choose_language(page, lang)
        tag = f"page-{lang}-{width}x{height}"
        problems += look_at_every_menu_and_panel(
            page, root, tag, artifacts, shots=lambda what: what in ("more", "stats")
        )
        size, lessons = WALKED_SIZES.index((width, height)), Lesson.builtin_names()
        for item, name in enumerate(lessons):
            if not walked(size, lang, item, len(WALKED_SIZES)):  # make test: each lesson once; soak: all
                continue
            widget.lesson = Lesson.builtin(name)
            page.evaluate("s => window.pl.model.push(s)", widget.state)
            expect(root).to_have_attribute("data-lesson-step", "0")
            steps = widget.state["lesson"]["steps"]
            problems += step_through(page, root, steps, f"{tag}-{name}", artifacts, shot_at=2)
        widget.lesson = None
        page.evaluate("s => window.pl.model.push(s)", widget.state)

        def run(code: str) -> None:
            exec(code, scope)
            page.evaluate("s => window.pl.model.push(s)", scope["w"].state)

        if walked(size, lang, len(lessons)):  # the teaching states too, one language a size
            problems += look_at_teaching(page, root, tag, artifacts, run, shots=lang == "nl")
        widget = scope["w"]
    widget.close()
    assert not problems, summary(problems)


@pytest.mark.parametrize(("lang", "width"), [("en", 1280), ("nl", 400)])
def test_a_hint_stays_marked_and_says_why_until_the_next_action(
    lang: str, width: int, new_page: Callable[..., Page], page_server: str, artifacts: pathlib.Path
) -> None:
    scope: dict[str, Any] = {}
    exec(BOARD_SETUP.replace("seed=7, records=records", f"seed=7, records=None, lang={lang!r}"), scope)
    widget = scope["w"]
    page = new_page(width=width, height=900, reduced_motion="reduce")
    open_board(page, page_server, widget)
    root = page.locator(".pl-root")
    click(page, root.locator('.pl-bar [data-action="hint"]'))
    line = root.locator(".pl-say")
    expect(line).to_have_attribute("data-kind", "hint")
    hint = widget.game.hint()
    text = line.inner_text()
    assert text and str(hint) not in text.split()  # a sentence in the player's language, not notation
    marked = root.locator(".pl-hint")
    expect(marked.first).to_be_visible()
    target = root.locator(".pl-pile.pl-hint")
    expect(target).to_have_count(1)
    # the caret on the table's top edge stands above the hinted pile
    caret = root.locator(".pl-table").evaluate(
        "t => parseFloat(getComputedStyle(t).getPropertyValue('--pl-caret-x')) + t.getBoundingClientRect().left"
    )
    pile = target.bounding_box()
    assert pile is not None and pile["x"] <= caret <= pile["x"] + pile["width"]
    problems = check(root, CONTROLS, cards=True)
    page.screenshot(path=artifacts / f"layout-page-hint-{lang}-{width}.png")
    # a resize is not an action: the hint stays
    page.set_viewport_size({"width": width - 20, "height": 880})
    page.wait_for_function("() => document.querySelector('.pl-say').dataset.kind === 'hint'")
    expect(marked.first).to_be_visible()
    # the next action ends it
    click(page, root.locator('[data-pile="stock"]'))
    expect(root.locator(".pl-hint")).to_have_count(0)
    expect(line).to_have_text("")
    widget.close()
    assert not problems, summary(problems)


LONG = """from patiencelab import Klondike, Rules
from patiencelab.widget.board import KlondikeWidget
run = ["KS", "QH", "JS", "TH", "9S", "8H", "7S", "6H", "5S", "4H", "3S", "2H", "AS"]
down = ["AC", "2C", "3C", "4C", "5C", "6C"]
waste = ["TC", "TD", "9C"]
used = set(run + down + waste)
stock = [r + s for s in "CDHS" for r in "A23456789TJQK" if r + s not in used]
position = {
    "tableau": [{"down": [], "up": []}] * 6 + [{"down": down, "up": run}],
    "stock": stock, "waste": waste, "foundations": {"C": 0, "D": 0, "H": 0, "S": 0},
}
w = KlondikeWidget(Klondike.from_position(position, rules=Rules.preset("standard", draw=3)), records=None)
w.reveal = True"""


@pytest.mark.parametrize(("width", "height"), WALKED_SIZES, ids=[f"{w}x{h}" for w, h in WALKED_SIZES])
def test_long_columns_and_the_draw_three_fan_show_every_rank_and_suit(
    width: int, height: int, new_page: Callable[..., Page], page_server: str, artifacts: pathlib.Path
) -> None:
    scope: dict[str, Any] = {}
    exec(LONG, scope)  # a column of six revealed face-down cards under a run of thirteen, and a fan of three
    widget = scope["w"]
    page = new_page(width=width, height=height, reduced_motion="reduce")
    open_board(page, page_server, widget)
    root = page.locator(".pl-root")
    expect(root.locator('[data-pile="t7"] .pl-card')).to_have_count(19)
    expect(root.locator('[data-pile="w"] .pl-card')).to_have_count(3)
    to_top(root)
    problems = check(root, (), cards=True)
    page.screenshot(path=artifacts / f"layout-page-long-{width}x{height}.png", full_page=True)
    widget.close()
    assert not problems, summary(problems)


@pytest.mark.parametrize("width", [1280, 400])
def test_the_indicator_does_not_move_the_table_and_a_message_shows_whole_with_no_band_left(
    width: int, new_page: Callable[..., Page], page_server: str
) -> None:
    page = new_page(width=width, height=900, reduced_motion="reduce")
    mount(page, page_server, "start")
    root = page.locator(".pl-root")
    before = table_place(root)
    gap = root.evaluate(
        "r => r.querySelector('.pl-table').getBoundingClientRect().top"
        " - r.querySelector('.pl-status').getBoundingClientRect().bottom"
    )
    assert gap <= 8, f"an empty band of {gap} px above the table"
    page.evaluate(
        """() => {
          const s = window.pl.model.data.state;
          const indicator = { enabled: true, verdict: "pending", searched: 1280000, error: null };
          window.pl.model.push({ ...s, version: s.version + 1, indicator });
        }"""
    )
    expect(root.locator('.pl-indicator[data-verdict="pending"]')).to_be_visible()
    assert table_place(root) == before
    page.evaluate(
        """() => {
          const s = window.pl.model.data.state;
          const text = "A notice long enough to need two lines on a narrow board, in words, and then some more.";
          window.pl.model.push({ ...s, version: s.version + 1, message: { id: 9, kind: "info", text } });
        }"""
    )
    say = root.locator('.pl-say[data-kind="info"]')
    expect(say).to_be_visible()
    assert say.evaluate("e => e.scrollHeight <= e.clientHeight + 1"), "the message shows whole, with no scrolling"
    assert problems_of(root) == []


def test_the_shipped_quiz_is_answered_by_a_click_on_the_stock(
    new_page: Callable[..., Page], page_server: str, artifacts: pathlib.Path
) -> None:
    """The quiz lesson's first question wants a draw: the class clicks the stock, the board says so and goes on."""
    widget = KlondikeWidget(records=None, lang="sv")
    widget.lesson = Lesson.builtin("quiz")
    page = new_page(width=1024, height=768, reduced_motion="reduce")
    open_board(page, page_server, widget)
    root = page.locator(".pl-root")
    click(page, root.locator('[data-lesson="forward"]'))
    expect(root).to_have_attribute("data-lesson-step", "1")
    expect(root.locator(".pl-lesson-caption")).to_contain_text("Vad skulle du spela här?")
    click(page, root.locator('[data-pile="stock"]'))
    expect(root).to_have_attribute("data-lesson-step", "2")
    expect(root.locator(".pl-lesson-score")).to_have_text("Rätta svar: 1 av 1")
    expect(root.locator(".pl-lesson")).to_contain_text("Rätt!")
    page.screenshot(path=artifacts / "page-quiz-stock-answer-sv.png")
    assert [str(m) for m in widget.game.history] == ["t5-t3", "d"]
    widget.close()


def mount_in(page: Page, server: str, scenario: str, lang: str, script: dict[str, str] | None = None) -> None:
    """The board of a scenario of ``page/states.js`` with the labels of ``lang`` (as Python sends them)."""
    if page.url == "about:blank":
        page.goto(f"{server}/index.html")
        page.wait_for_function("window.pl !== undefined")
    page.evaluate(
        """async ([name, script, lang]) => {
          const labels = await (await fetch(`/labels/${lang}.json`)).json();
          window.pl.mount(name, script, labels);
          const s = window.pl.model.data.state;
          window.pl.model.push({ ...s, lang });
        }""",
        [scenario, script or {}, lang],
    )
    page.wait_for_selector(".pl-root[data-version]")


_CHART = """(root) => {
  // The chart lies in the lesson box, as wide as its place; its signs are as large as the caption's smallest size
  // (18 px, 15 px on a phone) and its curve is 3 px thick, for a projector.
  const problems = [];
  const box = root.querySelector(".pl-chart-box");
  const svg = box && box.querySelector("svg.pl-chart");
  if (!svg) return ["no chart is drawn"];
  const win = root.ownerDocument.defaultView;
  const b = svg.getBoundingClientRect();
  const lesson = root.querySelector(".pl-lesson").getBoundingClientRect();
  if (b.left < lesson.left || b.right > lesson.right + 0.5 || b.top < lesson.top || b.bottom > lesson.bottom + 0.5) {
    problems.push(`the chart [${b.left},${b.top} ${b.right},${b.bottom}] is outside the lesson box`);
  }
  if (Math.abs(Number(svg.getAttribute("width")) - box.clientWidth) > 1) {
    problems.push(`the chart is drawn ${svg.getAttribute("width")} px wide in a place ${box.clientWidth} px wide`);
  }
  const least = root.getBoundingClientRect().width <= 520 ? 15 : 18;
  for (const t of svg.querySelectorAll("text")) {
    const size = parseFloat(win.getComputedStyle(t).fontSize) * (b.height / Number(svg.getAttribute("height")));
    if (size < least - 0.01) problems.push(`the sign "${t.textContent}" is ${size.toFixed(1)} px, under ${least} px`);
  }
  const line = parseFloat(win.getComputedStyle(svg.querySelector(".pl-chart-line")).strokeWidth);
  if (line < 3) problems.push(`the curve is ${line} px thick`);
  if (b.width < 240) problems.push(`the chart is only ${b.width} px wide`);
  return problems;
}"""


@pytest.mark.parametrize(("width", "height"), WALKED_SIZES, ids=[f"{w}x{h}" for w, h in WALKED_SIZES])
def test_a_review_with_its_chart_fits_and_a_click_on_a_mark_goes_to_its_step(
    width: int, height: int, new_page: Callable[..., Page], page_server: str, artifacts: pathlib.Path
) -> None:
    """Issue 25: the review's chart in the lesson box at every size in every language: every control and card
    corner seen, no word scrolls or is cut off, the board in view, the chart readable; a click on the blunder's sign
    asks for its step, and the next step leaves the table where it was. While a review runs, the status line says
    how far it is and Cancel is there."""
    page = new_page(width=width, height=height, reduced_motion="reduce")
    root = page.locator(".pl-root")
    problems: list[str] = []
    for lang in LANGS:
        tag = f"chart-{lang}-{width}x{height}"
        mount_in(page, page_server, "reviewChart", lang, {"lesson.goto": "reviewChartNext"})
        expect(root.locator(".pl-chart .pl-chart-hit")).to_have_count(86)
        to_top(root)
        page.wait_for_timeout(100)  # the board refits, and the chart is drawn at its width, on the next frames
        place = table_place(root)
        found = check(root, (*CONTROLS, ".pl-chart-box", ".pl-chart-badge"), cards=True, cards_in_view=True)
        found += word_problems(root) + size_problems(root) + page.evaluate(_CHART, root.element_handle())
        problems += [f"{tag}: {p}" for p in found]
        page.screenshot(path=artifacts / f"layout-page-{tag}.png")
        click(page, root.locator('.pl-chart-badge[data-step="41"]'))
        sent = page.evaluate("window.pl.model.sent")
        assert {k: sent[-1][k] for k in ("type", "action", "step")} == {"type": "lesson", "action": "goto", "step": 41}
        expect(root).to_have_attribute("data-lesson-step", "42")
        page.wait_for_timeout(100)
        if table_place(root) != place:
            problems.append(f"{tag} step 42: the table moved from {place} to {table_place(root)}")
        found = check(root, (*CONTROLS, ".pl-chart-box"), cards=True) + word_problems(root)
        problems += [f"{tag} step 42: {p}" for p in found]
        mount_in(page, page_server, "reviewRunning", lang)
        to_top(root)
        status = root.locator(".pl-reviewing")
        expect(status).to_contain_text("12/85")
        inside = status.evaluate(
            "s => { const a = s.getBoundingClientRect(), b = s.parentElement.getBoundingClientRect();"
            " return a.left >= b.left && a.right <= b.right + 0.5 && a.top >= b.top && a.bottom <= b.bottom + 0.5; }"
        )
        if not inside:
            problems.append(f"{tag} reviewing: the status line cuts off {status.inner_text()!r}")
        problems += [f"{tag} reviewing: {p}" for p in check(root, (*CONTROLS, ".pl-banner .pl-btn"))]  # on the cards
        page.screenshot(path=artifacts / f"layout-page-reviewing-{lang}-{width}x{height}.png")
    assert not problems, summary(problems)
