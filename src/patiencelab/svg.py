"""Standalone SVG pictures of a Klondike position, for slides, handouts and statically rendered notebooks.

``render(game_or_position)`` returns one self-contained ``<svg>`` (standard library only, no external files):
stock, waste, foundations and tableau on a felt background, optionally with an arrow for a move.
"""

from __future__ import annotations

import hashlib
import math
import textwrap
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from patiencelab.core.cards import RANKS, Card, Suit
from patiencelab.core.errors import ArgumentTypeError, InvalidMoveError, InvalidPositionError, PatienceError, quote
from patiencelab.core.game import Klondike
from patiencelab.core.limits import check_choice, check_switch, check_text
from patiencelab.core.marks import MARK_COLORS, Mark
from patiencelab.core.moves import Move
from patiencelab.core.position import Position
from patiencelab.core.rules import Rules

__all__ = ["THEMES", "render"]

# Geometry in user units (the viewBox); ``width=`` scales the whole picture.
CW, CH, RADIUS, GAP, MARGIN = 72.0, 100.0, 7.0, 12.0, 16.0
TOP_Y = MARGIN
TAB_Y = TOP_Y + CH + 24.0
#: The height a caption's first line adds under the cards, the font size of a caption and the height of each
#: further line (a caption wider than the picture wraps).
CAPTION_H, CAPTION_SIZE, CAPTION_LINE = 24.0, 15.0, 19.0
DOWN_DY, UP_DY, FAN_DX = 10.0, 26.0, 18.0
STRIP = 13.0  # the middle of the visible top strip of an overlapped card
FONTS = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Liberation Sans', sans-serif"
SVG_NS = "http://www.w3.org/2000/svg"

#: Colour palettes by theme name.
#: The colours of the pictures by theme name (``render(..., theme="dark")``): felt, card faces and backs, ink,
#: the arrow of a move and the outline of a highlight.
THEMES: dict[str, dict[str, str]] = {
    "light": {
        "felt": "#23874f", "felt_edge": "#145a33", "face": "#fffef9", "edge": "#8f8d86", "red": "#cc2229",
        "black": "#1c1c22", "back": "#1f4e96", "back_line": "#2f66b8", "back_rim": "#f5f2ea", "slot": "#ffffff",
        "ink": "#ffffff", "badge": "#0d2e1b", "arrow": "#ffb000", "arrow_edge": "#4a3000", "mark": "#ffe14d",
        "revealed": "#e6eef9", "revealed_edge": "#3f67a8", "court": "#f3ead2",
    },
    "dark": {
        "felt": "#15402c", "felt_edge": "#081c12", "face": "#e9e5da", "edge": "#55534d", "red": "#c0302f",
        "black": "#17171c", "back": "#34306b", "back_line": "#453f8a", "back_rim": "#cfc9bb", "slot": "#d8e8dc",
        "ink": "#e8efe9", "badge": "#04140b", "arrow": "#f2a20c", "arrow_edge": "#2b1c00", "mark": "#f5d33f",
        "revealed": "#cdd7e6", "revealed_edge": "#6f8fc4", "court": "#ddd3bb",
    },
}  # fmt: skip

# Suit shapes drawn as paths in a 100 x 100 box, so they look the same whatever fonts the viewer has.
_SUIT_PATHS = {
    Suit.HEARTS: "M50 96C30 78 2 58 2 32C2 14 15 4 29 4C39 4 46 10 50 19C54 10 61 4 71 4C85 4 98 14 98 32"
    "C98 58 70 78 50 96Z",
    Suit.DIAMONDS: "M50 2L88 50L50 98L12 50Z",
    Suit.SPADES: "M50 2C66 22 98 40 98 62C98 76 88 84 76 84C66 84 58 79 54 72C55 84 60 92 70 98L30 98"
    "C40 92 45 84 46 72C42 79 34 84 24 84C12 84 2 76 2 62C2 40 34 22 50 2Z",
    Suit.CLUBS: "M50 4A21 21 0 1 0 50 46A21 21 0 1 0 50 4ZM27 38A21 21 0 1 0 27 80A21 21 0 1 0 27 38Z"
    "M73 38A21 21 0 1 0 73 80A21 21 0 1 0 73 38ZM46 56C46 76 40 90 30 98L70 98C60 90 54 76 54 56Z",
}


@dataclass
class _Board:
    """What the drawing needs: the position, rules, palette, options and where each visible card landed."""

    position: Position
    rules: Rules
    colors: dict[str, str]
    reveal: bool
    uid: str
    slots: int
    cards: dict[Card, tuple[float, float, float]] = field(default_factory=dict)  # card -> x, y, visible height
    piles: dict[str, tuple[float, float, float]] = field(default_factory=dict)  # pile -> x, y, next card's y


#: Stands for the picture's id prefix until the picture is drawn.
_UID = "pl-0uid0"


#: The most characters of a picture's title (its ``<title>`` and label).
_MAX_TITLE = 300


def render(
    source: Klondike | Position | Mapping[str, Any],
    *,
    move: Move | str | None = None,
    reveal: bool = False,
    width: float | None = None,
    theme: str = "light",
    highlight: Iterable[Card | str] | str = (),
    title: str | None = None,
    rules: Rules | None = None,
    marks: Iterable[Mark] = (),
    caption: str | None = None,
) -> str:
    """Draw a game, a :class:`Position` or a position's JSON as a standalone SVG document (a string).

    ``move`` (a :class:`Move` or notation; card forms only with a game) adds an arrow from the moving cards to
    their target; an illegal move raises its :class:`IllegalMoveError`. ``reveal`` shows the tableau's face-down
    cards face up, tinted and outlined in dashes. ``highlight`` outlines the named cards where they are visible.
    ``rules`` (only for a position; a game brings its own) decides the waste fan (draw 3) and the recycle mark;
    by default the standard rules, or the six-column rules for six columns. ``marks`` are a teacher's arrows
    between piles and circles on piles or cards (:class:`~patiencelab.core.marks.Mark`); a circle on a card that
    is not visible is left out. ``caption`` adds a line of text under the cards (a saved notebook's picture says
    which position it shows).
    """
    position, rules, game = _resolve(source, rules)
    check_choice(theme, "theme", THEMES)
    check_switch(reveal, "reveal")
    if title is not None:
        check_text(title, _MAX_TITLE, "title", ArgumentTypeError)
    if not isinstance(marks, Iterable) or isinstance(marks, (str, Mark)):
        raise ArgumentTypeError(f"marks must be a list of Mark values, not {type(marks).__name__}")
    if width is not None and (isinstance(width, bool) or not isinstance(width, int | float) or not width > 0):
        raise PatienceError(f"width must be a positive number of pixels, not {quote(width)}")
    marked = _read_highlight(highlight)
    arrow = _resolve_move(move, position, rules, game) if move is not None else None
    ncols = len(position.tableau)
    slots = max(ncols, 7 if rules.draw > 1 else 6)
    board = _Board(position, rules, THEMES[theme], reveal, _UID, slots)
    view_w = 2 * MARGIN + slots * CW + (slots - 1) * GAP
    view_h = max(TAB_Y + CH + 3 * UP_DY, max(_column_bottom(board, c) for c in range(ncols))) + MARGIN
    if caption is not None:
        if not isinstance(caption, str):
            raise PatienceError(f"caption must be text, not {type(caption).__name__}")
        lines = _caption_lines(caption[:300], view_w - 2 * MARGIN)
        view_h += CAPTION_H + (len(lines) - 1) * CAPTION_LINE
    label = title if title is not None else _describe(position, rules, arrow)
    scale = 1.0 if width is None else float(width) / view_w
    root = ET.Element("svg", {"xmlns": SVG_NS, "viewBox": f"0 0 {_n(view_w)} {_n(view_h)}"})
    root.attrib.update(width=_n(view_w * scale), height=_n(view_h * scale), role="img", **{"aria-label": label})
    root.set("class", f"pl-board pl-theme-{theme}")
    root.set("font-family", FONTS)
    ET.SubElement(root, "title").text = label
    _defs(root, board)
    _el(root, "rect", width=view_w, height=view_h, rx=14, fill=f"url(#{board.uid}-felt)", class_="pl-felt")
    _draw_stock(root, board)
    _draw_waste(root, board)
    for suit in Suit:
        _draw_foundation(root, board, suit)
    for index in range(ncols):
        _draw_column(root, board, index)
    layer = _el(root, "g", class_="pl-marks")
    for card in marked:
        if card in board.cards:
            _outline(layer, board, (card,), "pl-highlight", board.colors["mark"])
    for mark in marks:
        if not isinstance(mark, Mark):
            raise PatienceError(f"marks must be Mark values, not {type(mark).__name__}")
        _draw_mark(root, board, mark)
    if arrow is not None:
        _draw_arrow(root, board, *arrow)
    if caption is not None:
        first = view_h - MARGIN - (len(lines) - 1) * CAPTION_LINE
        note = _el(root, "text", x=MARGIN, y=first, fill="#ffffff", class_="pl-caption")
        note.set("font-size", _n(CAPTION_SIZE))
        for number, line in enumerate(lines):
            _el(note, "tspan", x=MARGIN, dy=CAPTION_LINE if number else 0).text = line
    # The ids that keep two pictures on one page apart come from what the picture shows, never from the position
    # (whose face-down cards and stock order must not leave the kernel, not even as a hash).
    text = ET.tostring(root, encoding="unicode")
    return text.replace(_UID, "pl-" + hashlib.sha1(text.encode()).hexdigest()[:10])


# ------------------------------------------------------------------------------------------------ inputs


def _caption_lines(caption: str, room: float) -> list[str]:
    """``caption`` in lines that fit ``room`` user units, at a generous 0.6 em for the average glyph."""
    return textwrap.wrap(caption, width=max(16, int(room / (0.6 * CAPTION_SIZE)))) or [""]


def _resolve(source: object, rules: Rules | None) -> tuple[Position, Rules, Klondike | None]:
    """The position, the rules and (for a game) the game behind ``source``."""
    if rules is not None and not isinstance(rules, Rules):
        raise PatienceError(f"rules must be a Rules, not {type(rules).__name__}")
    if isinstance(source, Klondike):
        if rules is not None and rules != source.rules:
            raise PatienceError("a game brings its own rules: leave out rules= or pass the game's rules")
        return source.snapshot(), source.rules, source
    if isinstance(source, Position):
        source.check()
        position = source
    elif isinstance(source, Mapping):
        position = Position.from_json(source, columns=None if rules is None else rules.columns)
    else:
        raise InvalidPositionError(f"render draws a Klondike, a Position or a position's JSON, not {source!r:.60}")
    columns = len(position.tableau)
    if rules is None:
        rules = Rules.preset("six-column") if columns == 6 else Rules(face_down=tuple(range(columns)))
    elif columns != rules.columns:
        raise InvalidPositionError(f"the position has {columns} columns; the rules have {rules.columns}")
    return position, rules, None


def _resolve_move(
    move: Move | str, position: Position, rules: Rules, game: Klondike | None
) -> tuple[str, str, tuple[Card, ...]]:
    """Source pile, target pile and the moving cards of ``move`` (checked against the rules)."""
    parsed = Move.parse(move)
    if game is None:
        if parsed.source is None:
            raise InvalidMoveError(f"{parsed}: name the source place (such as t3-t5) to draw a move on a position")
        game = Klondike.from_position(position, rules=rules)
    cards = game.moving_cards(parsed)
    if parsed.is_draw:
        return "stock", "w", cards
    if parsed.is_recycle:
        return "w", "stock", cards
    source, target = parsed.source, parsed.target
    assert target is not None
    if source is None:
        lead = cards[0]
        columns = [f"t{i}" for i, col in enumerate(position.tableau, 1) if lead in col.up]
        source = columns[0] if columns else "w" if position.waste[-1:] == (lead,) else f"f{lead.suit.value}"
    if target == "f":
        target = f"f{cards[0].suit.value}"
    return source, target, cards


def _read_highlight(highlight: Iterable[Card | str] | str) -> list[Card]:
    """The cards to outline; a single notation string counts as one card."""
    if not isinstance(highlight, Iterable):
        raise ArgumentTypeError(f"highlight must be cards or a card's notation, not {type(highlight).__name__}")
    items: Iterable[Card | str] = [highlight] if isinstance(highlight, str) else highlight
    return [item if isinstance(item, Card) else Card.parse(item) for item in items]


def _describe(position: Position, rules: Rules, arrow: tuple[str, str, tuple[Card, ...]] | None) -> str:
    """A short description of the position for ``<title>`` and ``aria-label`` (face-down cards stay hidden)."""
    found = ", ".join(f"{s.symbol} {RANKS[n - 1] if n else '-'}" for s in Suit for n in [position.foundations[s]])
    down = sum(len(col.down) for col in position.tableau)
    waste = f"waste {position.waste[-1].symbol}" if position.waste else "waste empty"
    text = (
        f"Klondike position, {len(position.tableau)} columns: stock {len(position.stock)}, {waste}, "
        f"foundations {found}; {down} face-down card{'s' * (down != 1)}"
    )
    if arrow is not None:
        source, target, cards = arrow
        what = cards[0].symbol if cards else "draw" if source == "stock" else "recycle"
        text += f"; arrow: {what} {source} to {target}" if cards else f"; arrow: {what}"
    return text


# ----------------------------------------------------------------------------------------------- layout


def _pile_x(board: _Board, pile: str) -> float:
    """The left edge of a pile: ``stock``, ``w``, ``fC``..``fS`` or ``t1``..``t9``."""
    step = CW + GAP
    if pile == "stock":
        return MARGIN
    if pile == "w":
        return MARGIN + step
    if pile[0] == "f":
        return MARGIN + (board.slots - 4 + Suit(pile[1]).index) * step
    offset = (board.slots - len(board.position.tableau)) * step / 2
    return MARGIN + offset + (int(pile[1]) - 1) * step


def _column_bottom(board: _Board, index: int) -> float:
    """The lowest point of a column's cards."""
    col = board.position.tableau[index]
    down_dy = UP_DY if board.reveal else DOWN_DY
    cards = len(col.down) * down_dy + max(0, len(col.up) - 1) * UP_DY
    return TAB_Y + cards + CH


# ------------------------------------------------------------------------------------------------ piles


def _draw_stock(root: ET.Element, board: _Board) -> None:
    count = len(board.position.stock)
    x = _pile_x(board, "stock")
    group = _el(root, "g", class_="pl-pile pl-stock", data_pile="stock", data_count=count)
    _slot(group, board, x, TOP_Y)
    board.piles["stock"] = (x, TOP_Y, TOP_Y)
    c = board.colors
    if not count:
        passes = board.rules.max_passes
        if board.position.waste and (passes is None or board.position.recycles < passes - 1):
            _text(group, x + CW / 2, TOP_Y + CH / 2 + 14, "↻", 40, c["slot"], fill_opacity=0.6, class_="pl-recycle")
        return
    depth = min(3, (count + 7) // 8)
    for k in range(depth):
        _back(group, board, x + 2 * (depth - 1 - k), TOP_Y + 2 * (depth - 1 - k))
    bx, by = x + CW / 2, TOP_Y + CH - 18
    _el(group, "rect", x=bx - 15, y=by - 10, width=30, height=20, rx=10, fill=c["badge"], fill_opacity=0.85)
    _text(group, bx, by + 5, str(count), 13, c["ink"], font_weight="700", class_="pl-count")


def _draw_waste(root: ET.Element, board: _Board) -> None:
    waste = board.position.waste
    x = _pile_x(board, "w")
    group = _el(root, "g", class_="pl-pile pl-waste", data_pile="w", data_count=len(waste))
    _slot(group, board, x, TOP_Y)
    shown = waste[-board.rules.draw :] if board.rules.draw > 1 else waste[-1:]
    shown = shown[-3:]
    if len(waste) > len(shown):
        _edge(group, board, x + 2, TOP_Y + 2)
    for k, card in enumerate(shown):
        _face(group, board, card, x + k * FAN_DX, TOP_Y, CH)
    board.piles["w"] = (x, TOP_Y, TOP_Y)


def _draw_foundation(root: ET.Element, board: _Board, suit: Suit) -> None:
    pile = f"f{suit.value}"
    count = board.position.foundations.get(suit, 0)
    x = _pile_x(board, pile)
    group = _el(root, "g", class_="pl-pile pl-foundation", data_pile=pile, data_count=count)
    _slot(group, board, x, TOP_Y)
    board.piles[pile] = (x, TOP_Y, TOP_Y)
    if not count:
        _suit(group, suit, x + CW / 2 - 18, TOP_Y + CH / 2 - 18, 36, board.colors["slot"], opacity=0.35)
        return
    if count > 1:
        _edge(group, board, x + 2, TOP_Y + 2)
    _face(group, board, Card(count, suit), x, TOP_Y, CH)


def _draw_column(root: ET.Element, board: _Board, index: int) -> None:
    pile = f"t{index + 1}"
    col = board.position.tableau[index]
    x = _pile_x(board, pile)
    group = _el(root, "g", class_="pl-pile pl-column", data_pile=pile, data_count=len(col))
    _slot(group, board, x, TAB_Y)
    if not col.down and not col.up:
        _text(
            group, x + CW / 2, TAB_Y + CH / 2 + 10, "K", 30, board.colors["slot"], fill_opacity=0.3, font_weight="700"
        )
    y = TAB_Y
    for card in col.down:
        if board.reveal:
            _face(group, board, card, x, y, UP_DY, revealed=True)
            y += UP_DY
        else:
            _back(group, board, x, y)
            y += DOWN_DY
    for k, card in enumerate(col.up):
        _face(group, board, card, x, y, CH if k == len(col.up) - 1 else UP_DY)
        y += UP_DY
    board.piles[pile] = (x, TAB_Y, y - UP_DY if col.up else TAB_Y)


# ------------------------------------------------------------------------------------------------ cards


def _face(
    group: ET.Element, board: _Board, card: Card, x: float, y: float, visible: float, *, revealed: bool = False
) -> None:
    """A card face up at (x, y); ``revealed`` marks a face-down card shown on purpose."""
    c = board.colors
    color = c["red"] if card.is_red else c["black"]
    kind = "pl-card pl-revealed" if revealed else "pl-card pl-up"
    g = _el(group, "g", class_=kind, data_card=str(card), transform=f"translate({_n(x)} {_n(y)})")
    ET.SubElement(g, "title").text = card.symbol + (" (face down)" if revealed else "")
    rect = _el(g, "rect", x=0.5, y=0.5, width=CW - 1, height=CH - 1, rx=RADIUS, stroke_width=1)
    if revealed:
        _set(rect, fill=c["revealed"], stroke=c["revealed_edge"], stroke_dasharray="5 3", stroke_width=1.6)
    else:
        _set(rect, fill=c["face"], stroke=c["edge"])
    rank = "10" if card.rank == 10 else RANKS[card.rank - 1]
    for corner in (g, _el(g, "g", transform=f"rotate(180 {_n(CW / 2)} {_n(CH / 2)})")):
        tight = {"font_size": 15, "letter_spacing": -1} if card.rank == 10 else {}
        _text(corner, 5, 18, rank, 17, color, font_weight="700", text_anchor="start", **tight)
        _suit(corner, card.suit, CW - 19, 5, 14, color)
    if revealed:
        eye = _el(g, "g", class_="pl-eye", transform=f"translate({_n(CW / 2 + 4)} {_n(STRIP - 1)})")
        _el(eye, "ellipse", rx=8, ry=5, fill=c["face"], stroke=c["revealed_edge"], stroke_width=1.4)
        _el(eye, "circle", r=2.4, fill=c["revealed_edge"])
    if card.rank > 10:
        _el(g, "rect", x=14, y=29, width=CW - 28, height=CH - 55, rx=4, fill=c["court"], stroke=color, stroke_width=1)
        _text(g, CW / 2, CH / 2 + 1, rank, 24, color, font_weight="700")
        _suit(g, card.suit, CW / 2 - 6, CH / 2 + 9, 12, color)
    else:
        size = 40 if card.rank == 1 else 30
        _suit(g, card.suit, (CW - size) / 2, (CH - size) / 2 + 2, size, color)
    board.cards[card] = (x, y, visible)


def _back(group: ET.Element, board: _Board, x: float, y: float) -> None:
    """A face-down card: no identity anywhere in the markup."""
    c = board.colors
    g = _el(group, "g", class_="pl-card pl-back", transform=f"translate({_n(x)} {_n(y)})")
    _el(g, "rect", x=0.5, y=0.5, width=CW - 1, height=CH - 1, rx=RADIUS, fill=c["back_rim"], stroke=c["edge"])
    _el(g, "rect", x=4, y=4, width=CW - 8, height=CH - 8, rx=RADIUS - 3, fill=f"url(#{board.uid}-back)")


def _edge(group: ET.Element, board: _Board, x: float, y: float) -> None:
    """The edge of the cards under a pile's top card."""
    c = board.colors
    _el(group, "rect", x=x + 0.5, y=y + 0.5, width=CW - 1, height=CH - 1, rx=RADIUS, fill=c["face"], stroke=c["edge"])


def _slot(group: ET.Element, board: _Board, x: float, y: float) -> None:
    """The outline of a pile's place, seen when the pile is empty."""
    slot = _el(group, "rect", x=x + 1, y=y + 1, width=CW - 2, height=CH - 2, rx=RADIUS, class_="pl-slot")
    _set(slot, fill="#000000", fill_opacity=0.12, stroke=board.colors["slot"], stroke_opacity=0.4, stroke_width=1.5)


def _suit(group: ET.Element, suit: Suit, x: float, y: float, size: float, color: str, opacity: float = 1) -> None:
    path = _el(
        group,
        "path",
        d=_SUIT_PATHS[suit],
        fill=color,
        transform=f"translate({_n(x)} {_n(y)}) scale({_n(size / 100, 4)})",
    )
    if opacity < 1:
        path.set("fill-opacity", _n(opacity))


def _defs(root: ET.Element, board: _Board) -> None:
    """The felt gradient and the card-back lattice, with ids unique to this picture's content."""
    c = board.colors
    defs = ET.SubElement(root, "defs")
    felt = _el(defs, "radialGradient", id=f"{board.uid}-felt", cx="50%", cy="35%", r="75%")
    _el(felt, "stop", offset="0", stop_color=c["felt"])
    _el(felt, "stop", offset="1", stop_color=c["felt_edge"])
    back = _el(defs, "pattern", id=f"{board.uid}-back", width=9, height=9, patternUnits="userSpaceOnUse")
    back.set("patternTransform", "rotate(45)")
    _el(back, "rect", width=9, height=9, fill=c["back"])
    _el(back, "rect", width=2.5, height=9, fill=c["back_line"])
    _el(back, "rect", width=9, height=2.5, fill=c["back_line"])


# ------------------------------------------------------------------------------------------- marks, arrow


def _outline(layer: ET.Element, board: _Board, cards: Iterable[Card], kind: str, color: str) -> None:
    """One outline around the visible parts of ``cards`` (adjacent cards of a pile)."""
    boxes = [board.cards[card] for card in cards if card in board.cards]
    if not boxes:
        return
    x = min(b[0] for b in boxes)
    top = min(b[1] for b in boxes)
    bottom = max(b[1] + b[2] for b in boxes)
    right = max(b[0] for b in boxes) + CW
    rect = _el(layer, "rect", x=x - 2, y=top - 2, width=right - x + 4, height=bottom - top + 4, rx=RADIUS + 2)
    _set(rect, fill="none", stroke=color, stroke_width=3, class_=kind)
    if len(boxes) == 1:
        rect.set("data-card", str(next(iter(cards))))


def _draw_mark(root: ET.Element, board: _Board, mark: Mark) -> None:
    """A teacher's arrow between two piles, or a ring around a pile's top card (or its empty place) or a card."""
    color = MARK_COLORS[mark.color]
    if mark.to is not None:
        if mark.at in board.piles and mark.to in board.piles:
            _draw_arrow(root, board, mark.at, mark.to, (), (color, "#00000080"), "pl-mark-arrow")
        return
    box = None
    if mark.at in board.piles:
        x, y, _ = board.piles[mark.at]
        top = board.position.tableau[int(mark.at[1]) - 1].top if mark.at[0] == "t" else None
        box = board.cards[top] if top is not None and top in board.cards else (x, y, CH)
    elif Card.parse(mark.at) in board.cards:
        box = board.cards[Card.parse(mark.at)]
    if box is not None:
        x, y, height = box
        ring = _el(root, "ellipse", cx=x + CW / 2, cy=y + height / 2, rx=CW / 2 + 7, ry=height / 2 + 7)
        _set(ring, fill="none", stroke=color, stroke_width=4, class_="pl-mark-circle", data_at=mark.at)


def _draw_arrow(
    root: ET.Element,
    board: _Board,
    source: str,
    target: str,
    cards: tuple[Card, ...],
    palette: tuple[str, str] | None = None,
    kind: str = "pl-arrow",
) -> None:
    """A curved arrow from the moving cards (or the stock or waste) to the target pile, in the board's arrow
    colours or ``palette`` (fill, edge).
    """
    c = dict(board.colors)
    if palette is not None:
        c["arrow"], c["arrow_edge"] = palette
    if cards:
        _outline(root, board, cards, "pl-moving", c["arrow"])
        lx, ly, _ = board.cards[cards[0]]
        x1, y1 = lx + CW / 2, ly + STRIP  # between the corner rank and suit
    else:
        px, py, _ = board.piles[source]
        x1, y1 = px + CW / 2, py + CH / 2
    tx, ty, next_y = board.piles[target]
    x2 = tx + CW / 2
    if target[0] == "t":
        has_cards = bool(board.position.tableau[int(target[1]) - 1].up)
        y2 = next_y + UP_DY + 8 if has_cards else ty + CH / 2
    else:
        y2 = ty + CH / 2
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy) or 1.0
    bend = max(24.0, length * 0.22)
    nx, ny = (dy / length, -dx / length) if dx >= 0 else (-dy / length, dx / length)
    cx, cy = (x1 + x2) / 2 + nx * bend, (y1 + y2) / 2 + ny * bend
    tl = math.hypot(x2 - cx, y2 - cy) or 1.0
    ux, uy = (x2 - cx) / tl, (y2 - cy) / tl
    bx, by = x2 - ux * 16, y2 - uy * 16
    group = _el(root, "g", class_=kind, data_from=source, data_to=target, data_x2=x2, data_y2=y2)
    d = f"M{_n(x1)} {_n(y1)}Q{_n(cx)} {_n(cy)} {_n(bx)} {_n(by)}"
    _el(
        group,
        "path",
        d=d,
        fill="none",
        stroke=c["arrow_edge"],
        stroke_width=8,
        stroke_opacity=0.5,
        stroke_linecap="round",
    )
    _el(group, "path", d=d, fill="none", stroke=c["arrow"], stroke_width=5, stroke_linecap="round")
    points = [(x2, y2), (bx - uy * 10, by + ux * 10), (bx + uy * 10, by - ux * 10)]
    head = " ".join(f"{_n(px)},{_n(py)}" for px, py in points)
    _el(
        group,
        "polygon",
        points=head,
        fill=c["arrow"],
        stroke=c["arrow_edge"],
        stroke_width=1.5,
        stroke_linejoin="round",
    )
    _el(group, "circle", cx=x1, cy=y1, r=5, fill=c["arrow"], stroke=c["arrow_edge"], stroke_width=1.5)


# ------------------------------------------------------------------------------------------------ markup


def _n(value: float, places: int = 2) -> str:
    """A number for an attribute: short, no trailing zeros."""
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _set(element: ET.Element, **attrs: object) -> ET.Element:
    """Set attributes: ``stroke_width`` becomes ``stroke-width``, ``class_`` becomes ``class``; numbers short."""
    for key, value in attrs.items():
        number = isinstance(value, float | int) and not isinstance(value, bool)
        element.set(key.rstrip("_").replace("_", "-"), _n(value) if number else str(value))  # type: ignore[arg-type]
    return element


def _el(parent: ET.Element, tag: str, **attrs: object) -> ET.Element:
    """A child element with attributes as in :func:`_set`."""
    return _set(ET.SubElement(parent, tag), **attrs)


def _text(parent: ET.Element, x: float, y: float, text: str, size: float, color: str, **attrs: object) -> ET.Element:
    """A text element (centred unless ``text_anchor`` says otherwise); ElementTree escapes its content."""
    el = _el(parent, "text", x=x, y=y, fill=color, **{"font_size": size, "text_anchor": "middle", **attrs})
    el.text = text
    return el
