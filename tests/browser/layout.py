"""The layout check of issue 12, shared by the plain-page and the real-Jupyter tests: every control, menu item
and panel of a board lies inside the viewport and inside the widget and is the top element under its centre;
the rank and suit of every card that shows them are not covered; the table does not move between lesson steps.

The checks run in the page (one ``evaluate`` per look) and return a list of problems, so that a failure names
each element, its box and what covers it.
"""

from __future__ import annotations

import inspect
import pathlib
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from playwright.sync_api import Locator, Page, expect

from ..review_games import random_game
from ..sweeps import WALK_ALL
from .jupyter_harness import kernel_eval

T = TypeVar("T")

#: Random play (``tests/review_games.random_game``) for a notebook's kernel: a game to review.
RANDOM_GAME = "import random\nfrom patiencelab import Klondike\n" + inspect.getsource(random_game)

#: Sizes a class uses: a laptop (with the file browser open in JupyterLab), a shorter laptop screen, a projector's
#: 1024x768, a phone.
SIZES = ((1280, 900), (1280, 800), (1024, 768), (400, 850))
LANGS = ("en", "nl", "sv")

# WALK_ALL (tests/sweeps.py: ``make soak``, ``pytest --soak``) walks every lesson step at every size in every
# language, and the browser tests run with every value of their parameters (:func:`sampled`). In ``make test`` the
# walks are a fixed sample, see :func:`walked`.


def sampled(every: Sequence[T], *kept: T) -> list[T]:
    """The values a browser test runs with: ``kept`` of ``every`` in ``make test`` (what differs between the
    others, the words of each language or the room of each size, the layout walks see), every one in ``make
    soak``."""
    assert all(value in every for value in kept), kept
    return list(every) if WALK_ALL else list(kept)


#: The sizes the layout walks see in ``make test``: the shorter laptop screen (less room than the taller one, the
#: file browser open in JupyterLab too), the projector and the phone; ``make soak`` adds the taller laptop screen.
WALKED_SIZES = sampled(SIZES, *SIZES[1:])


def walked(size: int, lang: str, item: int = 0, sizes: int = 1) -> bool:
    """Whether the ``item``-th walk (a lesson, say) is walked at the ``size``-th of ``sizes`` sizes in ``lang``:
    always in ``make soak``; else at one size (the item's number modulo ``sizes``) in one
    language (turning with the item and the size), so that every item is walked once, and the walks meet every
    size and every language in turn. ``sizes=1``: every size walks every item once, in one language."""
    return bool(WALK_ALL) or (item % sizes == size % sizes and LANGS[(item + size) % len(LANGS)] == lang)


def walk_languages(size: int, items: int, sizes: int) -> list[str]:
    """The languages a board at the ``size``-th of ``sizes`` sizes is looked at in: in ``make test`` those in which
    one of ``items`` walks falls there (:func:`walked`), or one turning with the size where none does; every one in
    ``make soak``."""
    falls = [lang for lang in LANGS if any(walked(size, lang, item, sizes) for item in range(items))]
    return sampled(LANGS, *(falls or [LANGS[size % len(LANGS)]]))


#: The board of the layout tests: a deal, and statistics for five rule sets (the widest table the panel shows).
BOARD_SETUP = (
    """import pathlib, tempfile
from patiencelab import Klondike, KlondikeWidget, Rules
from patiencelab.lessons import Lesson
from patiencelab.records import Records
records = Records(pathlib.Path(tempfile.mkdtemp()) / "records.sqlite")
for preset, draw in [("standard", 1), ("standard", 3), ("traditional", 1), ("traditional", 3), ("six-column", 3)]:
    records.add(Klondike(seed=1, rules=Rules.preset(preset, draw=draw)), outcome="abandoned")
w = KlondikeWidget(seed=7, records=records)
# issue 14: a quiz lesson on deal 7 (the 5♦ goes on the 6♠; the 6♠ not on the 5♥) and a lost game to review
from patiencelab import Move
from patiencelab.lessons import Quiz, Step
quiz_steps = (Step(Move.parse("t1-t3"), quiz=Quiz(tries=3)), Step(Move.parse("d")))
quiz_lesson = Lesson(title="Quiz", steps=quiz_steps, deal=Klondike(seed=7).deal)
def intent(kind, **fields):
    return w.handle_intent({"type": kind, "version": w.version, **fields})
"""
    + RANDOM_GAME
)

#: What a person must be able to see and click, when shown.
CONTROLS = (
    ".pl-bar .pl-btn",
    ".pl-status > :not([hidden])",
    ".pl-say:not([hidden])",
    ".pl-lesson-title",
    ".pl-lesson-step",
    ".pl-lesson .pl-close",
    ".pl-lesson .pl-step",
    ".pl-pace",
    ".pl-resume",
    ".pl-lesson-text",
    ".pl-lesson-score:not([hidden])",
    ".pl-record-title",
    ".pl-record-stop",
    ".pl-record-note",
    ".pl-record-quiz select",
    ".pl-record-clear",
    ".pl-record-help",
    '.pl-pile[data-pile="stock"]',
)
MENU_ITEMS = (".pl-list:not([hidden]) .pl-menu-item",)
PANEL_ITEMS = (".pl-panel:not([hidden]) .pl-panel-head", ".pl-panel:not([hidden]) .pl-close")

_CHECK = """([root, selectors, cards, cardsInView]) => {
  const problems = [];
  const win = root.ownerDocument.defaultView;
  const doc = root.ownerDocument;
  const r = root.getBoundingClientRect();
  const view = { left: 0, top: 0, right: win.innerWidth, bottom: win.innerHeight };
  const fmt = (b) => `[${Math.round(b.left)},${Math.round(b.top)} ${Math.round(b.right)},${Math.round(b.bottom)}]`;
  const inside = (b, o) => b.left >= o.left - 0.5 && b.top >= o.top - 0.5 && b.right <= o.right + 0.5
    && b.bottom <= o.bottom + 0.5;
  const name = (el) => {
    if (!el) return "nothing";
    const tag = el.tagName.toLowerCase();
    const cls = typeof el.className === "string" ? el.className.split(" ").filter(Boolean).join(".") : "";
    const what = el.dataset ? (el.dataset.action || el.dataset.lesson || el.dataset.card || el.dataset.pile
      || el.dataset.stat || el.dataset.lang || "") : "";
    return `${tag}.${cls}${what ? `(${what})` : ""}`;
  };
  const shown = (el) => el.getClientRects().length > 0 && win.getComputedStyle(el).visibility !== "hidden";
  const hit = (el, x, y, owner) => {
    const top = doc.elementFromPoint(x, y);
    if (!top || !(owner === top || owner.contains(top))) {
      problems.push(`${name(el)} at (${Math.round(x)},${Math.round(y)}) is covered by ${name(top)}`);
    }
  };
  for (const selector of selectors) {
    for (const el of root.querySelectorAll(selector)) {
      if (!shown(el)) continue;
      const b = el.getBoundingClientRect();
      if (b.width < 1 || b.height < 1) continue;
      if (!inside(b, r)) problems.push(`${name(el)} ${fmt(b)} is outside the widget ${fmt(r)}`);
      if (!inside(b, view)) problems.push(`${name(el)} ${fmt(b)} is outside the viewport ${fmt(view)}`);
      hit(el, (b.left + b.right) / 2, (b.top + b.bottom) / 2, el);
    }
  }
  if (cards) {
    // every face-up (or revealed) card that shows its corner (the top of its pile, or fanned from the next card)
    // shows its whole rank and suit, and nothing lies on them
    for (const pile of root.querySelectorAll(".pl-pile")) {
      const list = [...pile.querySelectorAll(":scope > .pl-card")];
      list.forEach((card, i) => {
        if (card.dataset.face === "down" || card.classList.contains("pl-dragging")) return;
        const next = list[i + 1];
        const offset = (c) => `${c.style.getPropertyValue("--x")}/${c.style.getPropertyValue("--y")}`;
        if (next && offset(next) === offset(card)) return;
        const b = card.getBoundingClientRect();
        if (cardsInView && !inside(b, view)) problems.push(`${name(card)} ${fmt(b)} is outside the viewport`);
        if (!inside(b, r)) problems.push(`${name(card)} ${fmt(b)} is outside the widget ${fmt(r)}`);
        // the whole glyph: its centre and four points inset a fifth from its corners
        for (const part of card.querySelectorAll(".pl-tl .pl-rank, .pl-tl .pl-suit")) {
          const p = part.getBoundingClientRect();
          if (p.bottom > view.bottom || p.top < 0) continue;
          const dx = p.width / 5;
          const dy = p.height / 5;
          // and the foot of the glyph, where a cut turns a Q into an O and a J into an I
          const points = [[(p.left + p.right) / 2, (p.top + p.bottom) / 2], [p.left + dx, p.top + dy],
            [p.right - dx, p.top + dy], [p.left + dx, p.bottom - dy], [p.right - dx, p.bottom - dy],
            [(p.left + p.right) / 2, p.bottom - p.height * 0.14]];
          for (const [x, y] of points) hit(part, x, y, card);
        }
      });
    }
  }
  return problems;
}"""

#: Where the table and its first column are in the board (not in the window: a page that scrolls moves the whole
#: board, which is the page's doing).
_TABLE = """(root) => {
  const r = root.getBoundingClientRect();
  const t = root.querySelector(".pl-table").getBoundingClientRect();
  const c = root.querySelector('[data-pile="t1"]').getBoundingClientRect();
  return [t.left - r.left, t.top - r.top, t.width, c.left - r.left, c.top - r.top, c.width]
    .map((v) => Math.round(v * 2) / 2);
}"""


_SIZE = """(root) => {
  // The cards are as large as the space allows: the top row fills the table's width, or the 130 px cap is
  // reached, or the board (its tableau at its least height) reaches the bottom of what can be seen.
  const win = root.ownerDocument.defaultView;
  let panel = null;
  for (let node = root.parentElement; node && node !== root.ownerDocument.body; node = node.parentElement) {
    if (/(auto|scroll|overlay)/.test(win.getComputedStyle(node).overflowY) && node.clientHeight > 0) panel = node;
  }
  const bottom = Math.min(win.innerHeight, panel ? panel.getBoundingClientRect().bottom : win.innerHeight);
  const card = root.querySelector('[data-pile="t1"]').getBoundingClientRect().width;
  const table = root.querySelector(".pl-table");
  const style = win.getComputedStyle(table);
  const inner = table.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const gap = parseFloat(win.getComputedStyle(root.querySelector(".pl-top")).columnGap);
  const row = 7 * card + 6 * gap;
  const tableau = root.querySelector(".pl-tableau");
  const tall = tableau.scrollHeight > parseFloat(win.getComputedStyle(tableau).minHeight) + 1;
  const reach = root.getBoundingClientRect().bottom;
  if (row >= inner - 8 || card >= 129.5 || tall || reach >= bottom - 24) return [];
  return [`cards ${card.toFixed(1)} px wide leave room: the row is ${row.toFixed(0)} of ${inner.toFixed(0)} px and the `
    + `board ends at ${reach.toFixed(0)} above ${bottom.toFixed(0)}`];
}"""


_WORDS = """(root) => {
  // No word is hidden: no element with text scrolls, ends in an ellipsis or is cut off; and the board ends inside
  // what can be seen (the window, cut to the panel the board scrolls in).
  const win = root.ownerDocument.defaultView;
  const problems = [];
  const name = (el) => `${el.tagName.toLowerCase()}.${String(el.className).split(" ").filter(Boolean).join(".")}`;
  for (const el of [root, ...root.querySelectorAll("*")]) {
    if (el.closest(".pl-card, .pl-sr-only, textarea, input, select, svg") || el.getClientRects().length === 0) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    const text = own ? el.textContent.trim() : "";
    const style = win.getComputedStyle(el);
    const tall = el.scrollHeight > el.clientHeight + 1;
    const wide = el.scrollWidth > el.clientWidth + 1;
    const said = (text || el.textContent.trim()).slice(0, 40);
    if (/(auto|scroll)/.test(style.overflowY) && tall && el.textContent.trim()) {
      problems.push(`${name(el)} scrolls: "${said}"`);
    }
    if (own && style.textOverflow === "ellipsis" && wide) problems.push(`${name(el)} ends in an ellipsis: "${said}"`);
    if (own && /(hidden|clip)/.test(style.overflowX + style.overflowY) && (wide || tall)) {
      problems.push(`${name(el)} cuts its words off: "${said}"`);
    }
  }
  let panel = null;
  for (let node = root.parentElement; node && node !== root.ownerDocument.body; node = node.parentElement) {
    if (/(auto|scroll|overlay)/.test(win.getComputedStyle(node).overflowY) && node.clientHeight > 0) panel = node;
  }
  const bottom = Math.min(win.innerHeight, panel ? panel.getBoundingClientRect().bottom : win.innerHeight);
  const board = root.getBoundingClientRect();
  if (board.bottom > bottom + 0.5) {
    problems.push(`the board ends at ${Math.round(board.bottom)}, below what can be seen (${Math.round(bottom)})`);
  }
  return problems;
}"""


def word_problems(root: Locator) -> list[str]:
    """Words that scroll, end in an ellipsis or are cut off, and a board that ends below what can be seen."""
    handle = root.element_handle()
    result: list[str] = root.page.evaluate(_WORDS, handle)
    return result


_ROOM = """(r) => {
  const b = r.querySelector('.pl-lesson-text');
  const fans = [...r.querySelectorAll('.pl-tableau .pl-pile')]
    .map((p) => parseFloat(p.style.getPropertyValue('--h')) || 0);
  return [b ? b.getBoundingClientRect().height : 0, Math.max(0, ...fans)];
}"""

#: What a projector must show large enough (issue 36): the cards' width, the review chart's width, the caption box's
#: and the table's heights, whether the board waits for a quiz's answer, and each arrow's length.
_SIZES = """(root) => {
  const box = (el) => (el && el.getClientRects().length ? el.getBoundingClientRect() : null);
  const arrows = [...root.querySelectorAll(".pl-marks .pl-mark-arrow")].map((g) => {
    const line = g.querySelector("line");
    const tip = g.querySelector("polygon").getAttribute("points").split(" ")[0].split(",").map(Number);
    const x1 = Number(line.getAttribute("x1"));
    const y1 = Number(line.getAttribute("y1"));
    return Math.hypot(tip[0] - x1, tip[1] - y1);
  });
  return {
    card: box(root.querySelector('[data-pile="t1"]'))?.width ?? 0,
    chart: box(root.querySelector("svg.pl-chart"))?.width ?? null,
    text: box(root.querySelector(".pl-lesson-text"))?.height ?? 0,
    table: box(root.querySelector(".pl-table"))?.height ?? 0,
    quiz: !!root.querySelector(".pl-lesson.pl-quiz"),
    arrows,
  };
}"""

#: The least a projector shows (issue 36, 1024x768 with JupyterLab's file browser open): cards 60 px wide, a review
#: chart 400 px wide, a caption box no taller than half the table, an arrow at least a card long.
PROJECTOR = {"card": 60.0, "chart": 400.0, "text": 0.5, "arrow": 1.0}


def projector_problems(sizes: dict[str, Any]) -> list[str]:
    """What a projector's board shows too small (see :data:`PROJECTOR`), from :data:`_SIZES`' measures."""
    problems = []
    card, chart, text, table = sizes["card"], sizes["chart"], sizes["text"], sizes["table"]
    if card < PROJECTOR["card"]:
        problems.append(f"cards {card:.0f} px wide, less than {PROJECTOR['card']:.0f}")
    if chart is not None and chart < PROJECTOR["chart"]:
        problems.append(f"the chart is {chart:.0f} px wide, less than {PROJECTOR['chart']:.0f}")
    if text > PROJECTOR["text"] * table:
        problems.append(f"the caption box ({text:.0f} px) is taller than half the table ({table:.0f} px)")
    for length in sizes["arrows"]:
        if length < PROJECTOR["arrow"] * card:
            problems.append(f"an arrow {length:.0f} px long, shorter than a card ({card:.0f} px)")
    return problems


#: Answers the quiz the board waits for wrongly (a recycle while the stock holds cards, judged at once) until its
#: tries are used up: the board plays the step's move and draws it as an arrow. Prints the step it shows then.
ANSWER_WRONGLY = """s = w.session
while s.state["lesson"]["quiz"]["waiting"] and s.game.stock:
    s.handle_intent({"type": "recycle", "version": s.version})
print(s.state["lesson"]["step"])"""

#: A lesson step as ``step_through`` looks at it, in one call to the page: two frames after the step is shown (a
#: caption that needs more room makes the board refit on the next frame), where the table is, the room it gives,
#: the problems of the controls and the cards, the words' problems, and the length of the step's text.
_STEP = f"""async ([root, selectors]) => {{
  const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
  await frame();
  await frame();
  const text = root.querySelector(".pl-lesson-text");
  return {{
    place: ({_TABLE})(root),
    room: ({_ROOM})(root),
    problems: [...({_CHECK})([root, selectors, true, true]), ...({_WORDS})(root)],
    words: text ? text.innerText.length : 0,
    sizes: ({_SIZES})(root),
  }};
}}"""


def room(root: Locator) -> tuple[float, float]:
    """What the presenter's board gives room to: the height of the lesson's caption box (0 when none is shown) and
    the deepest column's fan (in card widths)."""
    found: list[float] = root.evaluate(_ROOM)
    return found[0], found[1]


def size_problems(root: Locator) -> list[str]:
    """Whether the cards are as large as the widget's width and the visible height allow."""
    handle = root.element_handle()
    result: list[str] = root.page.evaluate(_SIZE, handle)
    return result


def check(root: Locator, selectors: tuple[str, ...], *, cards: bool = False, cards_in_view: bool = False) -> list[str]:
    """The problems of the board under ``root``: controls outside, covered, or cards whose corners are hidden."""
    handle = root.element_handle()
    result: list[str] = root.page.evaluate(_CHECK, [handle, list(selectors), cards, cards_in_view])
    return result


def table_place(root: Locator) -> list[float]:
    """Where the table and its first column are in the board (left, top, width), to the half pixel."""
    handle = root.element_handle()
    result: list[float] = root.page.evaluate(_TABLE, handle)
    return result


def to_top(root: Locator) -> None:
    """Scrolls the board's top to the top of what can be seen (its scrolling panel, or the window)."""
    root.evaluate("el => el.scrollIntoView({ block: 'start', inline: 'nearest' })")
    root.page.wait_for_timeout(50)


#: Resolves once an element has kept its place and size for two frames running: JupyterLab lays its panels out
#: again a few frames after the window or its side panel changes, later still on a busy machine.
SETTLED = """el => new Promise(resolve => {
  let last = "", same = 0;
  const look = () => {
    const r = el.getBoundingClientRect(), now = [r.x, r.y, r.width, r.height].join();
    same = now === last ? same + 1 : 0;
    last = now;
    if (same >= 2) resolve(); else requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})"""


def click(page: Page, target: Locator) -> None:
    """A person's click: on the centre of what is seen (no scrolling by Playwright first), once it shows (a menu
    opens on a later frame, much later on a busy machine) and has stopped moving (:data:`SETTLED`)."""
    expect(target).to_be_visible()
    target.evaluate(SETTLED)
    b = target.bounding_box()
    assert b is not None, f"{target} is not shown"
    page.mouse.click(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)


def look_at_every_menu_and_panel(
    page: Page, root: Locator, tag: str, artifacts: pathlib.Path, shots: Callable[[str], bool] = lambda _: True
) -> list[str]:
    """Opens the New and More menus and the Rules and Statistics panels in turn; the problems of each, and a
    screenshot of each (``layout-<tag>-<what>.png``) when ``shots(what)``.
    """
    problems: list[str] = []
    to_top(root)
    problems += [f"{tag} board: {p}" for p in check(root, CONTROLS, cards=True) + size_problems(root)]
    if shots("board"):
        page.screenshot(path=artifacts / f"layout-{tag}-board.png")
    for menu in ("new", "more"):
        click(page, root.locator(f'.pl-bar [data-action="{menu}"]'))
        expect(root.locator(".pl-list:not([hidden])")).to_have_count(1)
        problems += [f"{tag} {menu} menu: {p}" for p in check(root, MENU_ITEMS + CONTROLS[:1])]
        if shots(menu):
            page.screenshot(path=artifacts / f"layout-{tag}-{menu}.png")
        page.keyboard.press("Escape")
        expect(root.locator(".pl-list:not([hidden])")).to_have_count(0)
    for panel in ("rules", "stats"):
        click(page, root.locator('.pl-bar [data-action="more"]'))
        click(page, root.locator(f'.pl-menu-item[data-action="{panel}"]'))
        opened = root.locator(f".pl-panel-{panel}")
        expect(opened).to_be_visible()
        if panel == "stats":
            expect(opened.locator(".pl-stats")).to_have_count(1)
        problems += [f"{tag} {panel} panel: {p}" for p in check(root, PANEL_ITEMS)]
        body = check_panel_body(opened)
        problems += [f"{tag} {panel} panel: {p}" for p in body]
        if shots(panel):
            page.screenshot(path=artifacts / f"layout-{tag}-{panel}.png")
        click(page, opened.locator(".pl-close"))
        expect(opened).to_be_hidden()
    return problems


#: The statistics table on a projector: no header overlaps another, no text overlaps its neighbour, and the table
#: needs no sideways scroll (issue 36: "Winstpercentage" over "Hoogste score", three columns scrolled).
_STATS_TABLE = """(el) => {
  const problems = [];
  const scroller = el.querySelector(".pl-table-scroll");
  if (scroller && scroller.scrollWidth > scroller.clientWidth + 1) {
    problems.push(`the table scrolls sideways (${scroller.scrollWidth} > ${scroller.clientWidth})`);
  }
  for (const row of el.querySelectorAll(".pl-stats tr")) {
    const cells = [...row.children];
    cells.forEach((cell, i) => {
      if (cell.scrollWidth > cell.clientWidth + 1) problems.push(`"${cell.textContent}" is wider than its cell`);
      const next = cells[i + 1];
      if (!next) return;
      const range = cell.ownerDocument.createRange();
      range.selectNodeContents(cell);
      const a = range.getBoundingClientRect();
      range.selectNodeContents(next);
      const b = range.getBoundingClientRect();
      if (a.width && b.width && a.right > b.left + 0.5 && a.bottom > b.top && b.bottom > a.top) {
        problems.push(`"${cell.textContent}" overlaps "${next.textContent}"`);
      }
    });
  }
  return problems;
}"""


def look_at_stats(page: Page, root: Locator, tag: str, artifacts: pathlib.Path) -> list[str]:
    """Opens the statistics panel: its table's problems (:data:`_STATS_TABLE`) and a picture of it."""
    to_top(root)
    click(page, root.locator('.pl-bar [data-action="more"]'))
    click(page, root.locator('.pl-menu-item[data-action="stats"]'))
    opened = root.locator(".pl-panel-stats")
    expect(opened.locator(".pl-stats")).to_have_count(1)
    problems: list[str] = opened.evaluate(_STATS_TABLE)
    page.screenshot(path=artifacts / f"layout-{tag}-stats.png")
    click(page, opened.locator(".pl-close"))
    expect(opened).to_be_hidden()
    return [f"{tag} stats panel: {p}" for p in problems]


def check_panel_body(panel: Locator) -> list[str]:
    """The panel lies inside the widget and its table needs no sideways scroll where the widget is 800 px wide
    or more (the Swedish table scrolled at 1080 px)."""
    result: list[str] = panel.evaluate(
        """(el) => {
          const root = el.closest(".pl-root");
          const problems = [];
          const scroller = el.querySelector(".pl-table-scroll");
          const wide = root.getBoundingClientRect().width >= 800;
          if (scroller && wide && scroller.scrollWidth > scroller.clientWidth + 1) {
            problems.push(`the table scrolls sideways (${scroller.scrollWidth} > ${scroller.clientWidth})`);
          }
          const b = el.getBoundingClientRect();
          const r = root.getBoundingClientRect();
          if (b.left < r.left - 0.5 || b.right > r.right + 0.5 || b.top < r.top - 0.5 || b.bottom > r.bottom + 0.5) {
            problems.push("the panel lies outside the widget");
          }
          return problems;
        }"""
    )
    return result


def step_through(
    page: Page,
    root: Locator,
    steps: int,
    tag: str,
    artifacts: pathlib.Path,
    shot_at: int | None = None,
    longest: bool = False,
    projector: bool = False,
) -> list[str]:
    """Steps a shown lesson from its start to its end with the forward button; after each step the table is where
    it was (unless a longer caption took the room it needs), every control and card corner is seen, no word
    scrolls, ends in an ellipsis or is cut off, and the board ends inside what can be seen. ``longest`` keeps a
    picture of the step with the longest caption (the hardest to fit). On a ``projector`` every step shows its
    cards, chart, caption box and arrows large enough (:func:`projector_problems`), and a quiz the board waits for
    is answered wrongly until the board plays its move with an arrow (a picture of the first such step is kept)."""
    problems: list[str] = []
    counter = root.locator(".pl-lesson-step")
    to_top(root)
    place = table_place(root)
    caption, fan = room(root)
    hardest: tuple[int, int, bytes] | None = None  # the step with the longest caption: its length, number, picture
    handle = root.element_handle()
    answered = False  # the step was reached by answering a quiz, not by the forward button
    shown_answer = False
    for step in range(steps + 1):
        if step and not answered:
            forward = root.locator('[data-lesson="forward"]')
            box, height = forward.bounding_box(), page.viewport_size["height"] if page.viewport_size else 0
            if box is None or box["y"] + box["height"] > height:
                page.screenshot(path=artifacts / f"layout-{tag}-step{step - 1}-no-forward.png")
                problems.append(f"{tag} step {step - 1}: the forward button cannot be reached ({box})")
                break
            click(page, forward)
            try:
                expect(root).to_have_attribute("data-lesson-step", str(step))
            except AssertionError:
                page.screenshot(path=artifacts / f"layout-{tag}-step{step - 1}-no-forward.png")
                problems.append(f"{tag} step {step - 1}: a click on the forward button ({box}) does not step on")
                break
        if step == 0:
            problems += [f"{tag} step 0: {p}" for p in size_problems(root)]
        seen: dict[str, Any] = page.evaluate(_STEP, [handle, list(CONTROLS)])
        now, (taller, deeper) = seen["place"], seen["room"]
        if now != place and (taller > caption + 0.5 or deeper > fan + 0.01):
            place = now  # a longer text or a deeper column took the room it needs, once
        caption, fan = max(caption, taller), max(fan, deeper)
        if now != place:
            problems.append(f"{tag} step {step}: the table moved from {place} to {now}")
        problems += [f"{tag} step {step}: {p}" for p in seen["problems"]]
        if projector:
            problems += [f"{tag} step {step}: {p}" for p in projector_problems(seen["sizes"])]
            if answered and not shown_answer:
                shown_answer = True
                page.screenshot(path=artifacts / f"layout-{tag}-answer-step{step}.png")
            if answered and not seen["sizes"]["arrows"]:
                problems.append(f"{tag} step {step}: the quiz's move is played without an arrow")
        answered = False
        if projector and seen["sizes"]["quiz"] and step < steps:
            if step == shot_at or not shown_answer:
                page.screenshot(path=artifacts / f"layout-{tag}-quiz-step{step}.png")
            answered = kernel_eval(page, ANSWER_WRONGLY).strip() == str(step + 1)
            if answered:
                expect(root).to_have_attribute("data-lesson-step", str(step + 1))
        if step == shot_at:
            page.screenshot(path=artifacts / f"layout-{tag}-step{step}.png")
        if longest and (hardest is None or seen["words"] > hardest[0]):
            hardest = (seen["words"], step, page.screenshot())
    assert counter.count() == 1
    if hardest is not None:
        (artifacts / f"layout-{tag}-longest-step{hardest[1]}.png").write_bytes(hardest[2])
    return problems


def summary(problems: list[str], limit: int = 40) -> str:
    """The first problems, one a line."""
    more = f"\n... and {len(problems) - limit} more" if len(problems) > limit else ""
    return "\n".join(problems[:limit]) + more


def look_at_teaching(
    page: Page, root: Locator, tag: str, artifacts: pathlib.Path, run: Callable[[str], None], shots: bool = False
) -> list[str]:
    """Issue 14's states: recording (the record box with its note, quiz choice and buttons, and marks), a quiz
    step answered wrongly then rightly, and a review shown. ``run`` runs Python with the board ``w`` (of
    :data:`BOARD_SETUP`) and brings its state to the page. In each, every control and card corner is seen and
    the table stays where it was from step to step; a screenshot of each when ``shots``.
    """
    problems: list[str] = []

    def look(what: str, place: list[float] | None, in_view: bool = True) -> list[float]:
        to_top(root)
        now = table_place(root)
        for _ in range(20):  # a new box above the table (another mode): the board refits on the next frames
            root.page.wait_for_timeout(100)
            again, now = now, table_place(root)
            if again == now:
                break
        if place is not None and now != place:
            problems.append(f"{tag} {what}: the table moved from {place} to {now}")
        problems.extend(f"{tag} {what}: {p}" for p in check(root, CONTROLS, cards=True, cards_in_view=in_view))
        return place if place is not None else now

    run("w.game = Klondike(seed=7)\nw.start_recording()")
    expect(root.locator(".pl-record")).to_be_visible()
    place = look("record 0", None)
    for step, move in enumerate(["t1-t3", "d", "d"], 1):
        run(f"w.game.play({move!r})")
        expect(root.locator(".pl-record-title")).to_contain_text(f"· {step} ")
        if step == 1:
            run(
                "intent('record', action='note', text='Red on black, one lower: the 7♦ is next.')\n"
                "intent('record', action='mark', mark={'arrow': ['t3', 't2']})\n"
                "intent('record', action='mark', mark={'circle': '7D', 'color': 'blue'})"
            )
            expect(root.locator(".pl-marks [data-mark]")).to_have_count(2)
        look(f"record {step}", place)
        if shots and step == 1:
            page.screenshot(path=artifacts / f"layout-{tag}-record.png")
    run("w.stop_recording()")
    run("w.lesson = quiz_lesson")
    expect(root.locator(".pl-lesson-score")).to_be_visible()
    place = look("quiz", None)
    run("intent('move', card='6S', to='t5')")
    expect(root.locator(".pl-lesson-narration")).not_to_be_empty()
    look("quiz wrong", place)
    if shots:
        page.screenshot(path=artifacts / f"layout-{tag}-quiz.png")
    run("intent('move', card='5D', to='t3')")
    expect(root).to_have_attribute("data-lesson-step", "1")
    look("quiz right", place)
    # 16 deals a position, not the review's 32 (which also marks moves 22, 85 and 156 of this game, and the board
    # opens a review at its first mark): the review opens at the solver's losing move, with the longest columns
    run("w.lesson = None\nw.game = random_game(13)\nw.review_max_states, w.review_samples = 20_000, 16\nw.review()")
    expect(root).to_have_attribute("data-lesson-step", "84")
    # two arrows: the solver's better move, and the fair half's (move 85 is marked a blunder on these deals)
    expect(root.locator(".pl-marks [data-mark]")).to_have_count(2)
    # a game of 84 moves has long columns: they may reach below the window (the board fits a column of ten)
    place = look("review", None, in_view=False)
    if shots:
        page.screenshot(path=artifacts / f"layout-{tag}-review.png")
    click(page, root.locator('[data-lesson="forward"]'))
    expect(root).to_have_attribute("data-lesson-step", "85")
    look("review step 85", place, in_view=False)
    run("w.lesson = None\nw.game = Klondike(seed=7)")
    expect(root).to_have_attribute("data-lesson-step", "")
    return problems
