"""Tests of patiencelab.svg: standalone SVG pictures parsed with ElementTree and checked by structure."""

from __future__ import annotations

import random
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Mapping, Sequence
from itertools import pairwise
from typing import Any

import pytest

from patiencelab import (
    Card,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Klondike,
    Move,
    PatienceError,
    Position,
    Rules,
)
from patiencelab.core.cards import full_deck
from patiencelab.core.marks import Mark
from patiencelab.svg import render

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    """Parse the SVG text, failing the test when it is not well-formed XML."""
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def classes(el: ET.Element) -> set[str]:
    return set(el.get("class", "").split())


def find(root: ET.Element, cls: str) -> list[ET.Element]:
    return [el for el in root.iter() if cls in classes(el)]


def pile(root: ET.Element, name: str) -> ET.Element:
    found = [el for el in root.iter(f"{NS}g") if el.get("data-pile") == name]
    assert len(found) == 1, name
    return found[0]


def x_range(root: ET.Element, name: str) -> tuple[float, float]:
    """The x extent of a pile's slot."""
    slot = next(el for el in pile(root, name) if "pl-slot" in classes(el))
    x = float(slot.get("x", "nan"))
    return x, x + float(slot.get("width", "nan"))


def make_position(
    tableau: Sequence[tuple[str, str]], waste: str = "", foundations: Mapping[str, int] | None = None
) -> dict[str, Any]:
    """A position JSON: columns as (down, up) notation strings, the stock holding every card not placed."""
    found = {"C": 0, "D": 0, "H": 0, "S": 0, **(foundations or {})}
    placed = {f"{r}{s}" for s, n in found.items() for r in "A23456789TJQK"[:n]}
    cols = [{"down": d.split(), "up": u.split()} for d, u in tableau]
    for col in cols:
        placed.update(col["down"] + col["up"])
    placed.update(waste.split())
    stock = [str(c) for c in full_deck() if str(c) not in placed]
    return {"tableau": cols, "stock": stock, "waste": waste.split(), "foundations": found}


# t2-t1 (J♣ on Q♥), t3-f (A♥), w-t5 (9♠ on 10♦), KD-t4 on an empty column.
LESSON = make_position(
    [("", "KS QH"), ("2C", "JC"), ("", "AH"), ("", ""), ("3C 4C", "TD"), ("5C", "KD"), ("6C 7C 8C", "9C")],
    waste="2D 9S",
    foundations={"S": 1},
)


def played(seed: int, steps: int, rules: Rules | None = None) -> Klondike:
    """A game after up to ``steps`` moves of a seeded random walk that prefers moves off the stock."""
    game = Klondike(seed=seed, rules=rules)
    rng = random.Random(seed)
    for _ in range(steps):
        moves = game.legal_moves()
        if not moves:
            break
        card_moves = [m for m in moves if not (m.is_draw or m.is_recycle) and m.source and m.source[0] != "f"]
        game.play(rng.choice(card_moves) if card_moves and rng.random() < 0.7 else rng.choice(moves))
    return game


def hidden_cards(position: Position) -> Iterator[Card]:
    for col in position.tableau:
        yield from col.down
    yield from position.stock


# ------------------------------------------------------------------------------------------- document


def test_document_is_standalone_svg_with_size_role_and_title() -> None:
    root = parse(render(Klondike(seed=7)))
    assert root.get("role") == "img"
    _, _, vw, vh = map(float, root.get("viewBox", "").split())
    assert (float(root.get("width", "0")), float(root.get("height", "0"))) == (vw, vh)
    title = root.find(f"{NS}title")
    assert title is not None and title.text == root.get("aria-label")
    assert title.text is not None and "7 columns" in title.text and "stock 24" in title.text
    assert not any("href" in k and not v.startswith("#") for el in root.iter() for k, v in el.attrib.items())


def test_width_scales_the_picture_keeping_the_viewbox() -> None:
    root = parse(render(Klondike(seed=7), width=400))
    _, _, vw, vh = map(float, root.get("viewBox", "").split())
    assert float(root.get("width", "0")) == 400
    assert float(root.get("height", "0")) == pytest.approx(vh * 400 / vw, abs=0.01)


def test_title_is_xml_escaped() -> None:
    nasty = '<b>"Tom & Jerry\'s"</b> ]]> <!-- x -->'
    svg = render(Klondike(seed=1), title=nasty)
    root = parse(svg)
    title = root.find(f"{NS}title")
    assert title is not None and title.text == nasty
    assert root.get("aria-label") == nasty
    assert "<b>" not in svg


def test_output_is_deterministic_and_ids_depend_on_content() -> None:
    game = Klondike(seed=3)
    assert render(game) == render(game)
    ids = {el.get("id") for el in parse(render(game)).iter() if el.get("id")}
    other = {el.get("id") for el in parse(render(Klondike(seed=4))).iter() if el.get("id")}
    assert ids and not ids & other


def test_module_imports_no_widget_library() -> None:
    code = (
        "import sys, patiencelab.svg\n"
        "bad = [m for m in ('anywidget', 'traitlets', 'ipywidgets') if m in sys.modules]\n"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# ---------------------------------------------------------------------------------------------- cards


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_face_up_groups_match_the_position(seed: int) -> None:
    game = played(seed, 25)
    position = game.snapshot()
    root = parse(render(game))
    for i, col in enumerate(position.tableau, 1):
        column = pile(root, f"t{i}")
        up = [el.get("data-card") for el in find(column, "pl-up")]
        assert up == [str(c) for c in col.up]
        assert len(find(column, "pl-back")) == len(col.down)
    waste_shown = min(1, len(position.waste))
    tops = sum(1 for n in position.foundations.values() if n)
    tableau_up = sum(len(col.up) for col in position.tableau)
    assert len(find(root, "pl-up")) == tableau_up + waste_shown + tops


@pytest.mark.parametrize("seed", [1, 5, 9])
def test_face_down_cards_never_show_their_identity(seed: int) -> None:
    game = played(seed, 10)
    svg = render(game, highlight=[str(c) for c in game.snapshot().tableau[6].down])
    shown = {el.get("data-card") for el in parse(svg).iter() if el.get("data-card")}
    for card in hidden_cards(game.snapshot()):
        assert card.symbol not in svg
        assert str(card) not in shown


def test_reveal_shows_face_down_tableau_cards_marked() -> None:
    game = Klondike(seed=5)
    root = parse(render(game, reveal=True))
    revealed = find(root, "pl-revealed")
    downs = [str(c) for col in game.snapshot().tableau for c in col.down]
    assert sorted(el.get("data-card", "") for el in revealed) == sorted(downs)
    assert all(find(el, "pl-eye") for el in revealed)
    assert len(find(root, "pl-up")) == 7
    assert not find(pile(root, "t7"), "pl-back")
    text = ET.tostring(root, encoding="unicode")
    assert Card.parse(downs[0]).symbol in text
    assert not any(c.symbol in text for c in game.snapshot().stock)


def test_highlight_outlines_visible_cards_only() -> None:
    root = parse(render(LESSON, highlight=["qh", "9S", "2C", Card.parse("KD")]))
    marked = sorted(el.get("data-card", "") for el in find(root, "pl-highlight"))
    assert marked == ["9S", "KD", "QH"]
    assert len(find(parse(render(LESSON, highlight="QH")), "pl-highlight")) == 1
    with pytest.raises(PatienceError):
        render(LESSON, highlight=["XX"])


def test_stock_waste_and_foundations() -> None:
    root = parse(render(LESSON))
    stock = pile(root, "stock")
    assert stock.get("data-count") == str(len(LESSON["stock"]))
    assert [el.text for el in find(stock, "pl-count")] == [str(len(LESSON["stock"]))]
    assert [el.get("data-card") for el in find(pile(root, "w"), "pl-up")] == ["9S"]
    assert [el.get("data-card") for el in find(pile(root, "fS"), "pl-up")] == ["AS"]
    assert not find(pile(root, "fH"), "pl-card")


def test_draw_three_fans_the_last_three_waste_cards() -> None:
    position = make_position([("", "KS")] * 1 + [("", "")] * 6, waste="2D 3D 4D 5D 9S")
    fan = find(pile(parse(render(position, rules=Rules(draw=3))), "w"), "pl-up")
    assert [el.get("data-card") for el in fan] == ["4D", "5D", "9S"]
    xs = [float(el.get("transform", "").split("(")[1].split()[0]) for el in fan]
    assert xs == sorted(xs) and len(set(xs)) == 3


def test_empty_stock_shows_recycle_mark_when_allowed() -> None:
    position = make_position([("", "")] * 7, waste=" ".join(str(c) for c in full_deck()))
    assert find(pile(parse(render(position)), "stock"), "pl-recycle")
    spent = {**position, "recycles": 0}
    assert not find(pile(parse(render(spent, rules=Rules(max_passes=1))), "stock"), "pl-recycle")


def test_dark_theme_changes_the_palette() -> None:
    light, dark = render(LESSON), render(LESSON, theme="dark")
    assert light != dark and "pl-theme-dark" in dark
    with pytest.raises(PatienceError):
        render(LESSON, theme="neon")


@pytest.mark.parametrize("width", [0, -5, "wide", True])
def test_bad_width_is_rejected(width: Any) -> None:
    with pytest.raises(PatienceError):
        render(LESSON, width=width)


# ---------------------------------------------------------------------------------------------- arrows


def arrow(root: ET.Element) -> ET.Element:
    arrows = find(root, "pl-arrow")
    assert len(arrows) == 1
    return arrows[0]


def arrow_ends(el: ET.Element) -> tuple[tuple[float, float], tuple[float, float]]:
    start = next(c for c in el if c.tag == f"{NS}circle")
    tip = next(c for c in el if c.tag == f"{NS}polygon").get("points", "").split()[0].split(",")
    assert (float(tip[0]), float(tip[1])) == (float(el.get("data-x2", "")), float(el.get("data-y2", "")))
    return (float(start.get("cx", "")), float(start.get("cy", ""))), (float(tip[0]), float(tip[1]))


@pytest.mark.parametrize(
    ("move", "source", "target", "lead"),
    [("t2-t1", "t2", "t1", "JC"), ("t3-f", "t3", "fH", "AH"), ("w-t5", "w", "t5", "9S"), ("t6-t4", "t6", "t4", "KD")],
)
def test_arrow_points_from_the_moving_card_to_the_target_pile(move: str, source: str, target: str, lead: str) -> None:
    root = parse(render(LESSON, move=move))
    el = arrow(root)
    assert (el.get("data-from"), el.get("data-to")) == (source, target)
    (x1, _), (x2, y2) = arrow_ends(el)
    lo, hi = x_range(root, source)
    assert lo <= x1 <= hi + 40
    lo, hi = x_range(root, target)
    assert lo <= x2 <= hi
    same_row = [f"t{i}" for i in range(1, 8)] if target[0] == "t" else ["fC", "fD", "fH", "fS"]
    assert [p for p in same_row if x_range(root, p)[0] <= x2 <= x_range(root, p)[1]] == [target]
    moving = find(root, "pl-moving")
    assert len(moving) == 1 and moving[0].get("data-card") == lead
    if target[0] == "t" and LESSON["tableau"][int(target[1]) - 1]["up"]:
        top = LESSON["tableau"][int(target[1]) - 1]["up"][-1]
        card = next(g for g in find(pile(root, target), "pl-up") if g.get("data-card") == top)
        assert y2 > float(card.get("transform", "").split()[1].rstrip(")"))


def test_draw_and_recycle_arrows_join_stock_and_waste() -> None:
    root = parse(render(LESSON, move="d"))
    el = arrow(root)
    assert (el.get("data-from"), el.get("data-to")) == ("stock", "w")
    _, (x2, _) = arrow_ends(el)
    lo, hi = x_range(root, "w")
    assert lo <= x2 <= hi
    spent = make_position([("", "")] * 7, waste=" ".join(str(c) for c in full_deck()))
    el = arrow(parse(render(spent, move="r")))
    assert (el.get("data-from"), el.get("data-to")) == ("w", "stock")


def test_no_move_no_arrow() -> None:
    assert not find(parse(render(LESSON)), "pl-arrow")


def test_game_moves_resolve_card_forms_and_suit_foundations() -> None:
    game = Klondike.from_position(LESSON)
    el = arrow(parse(render(game, move="JC-t1")))
    assert (el.get("data-from"), el.get("data-to")) == ("t2", "t1")
    el = arrow(parse(render(game, move=Move.parse("AH-f"))))
    assert (el.get("data-from"), el.get("data-to")) == ("t3", "fH")
    assert "arrow" in parse(render(game, move="t3-f")).get("aria-label", "")


def test_bad_moves_raise_the_exact_error() -> None:
    with pytest.raises(InvalidMoveError):
        render(LESSON, move="JC-t1")  # a card form needs a game
    with pytest.raises(InvalidMoveError):
        render(LESSON, move="t2-")
    with pytest.raises(InvalidMoveError):
        render(LESSON, move=42)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError) as info:
        render(LESSON, move="t1-t2")
    assert info.value.rule == "one-lower"
    with pytest.raises(IllegalMoveError):
        render(Klondike.from_position(LESSON), move="2C-t1")
    six = Klondike(seed=2, rules=Rules.preset("six-column"))
    with pytest.raises(InvalidMoveError):
        render(six, move="t7-t1")


# ------------------------------------------------------------------------------------ sources and errors


def test_six_columns() -> None:
    game = Klondike(seed=2, rules=Rules.preset("six-column"))
    root = parse(render(game))
    columns = [el.get("data-pile") for el in find(root, "pl-column")]
    assert columns == [f"t{i}" for i in range(1, 7)]
    assert [len(find(pile(root, f"t{i}"), "pl-back")) for i in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    assert "6 columns" in root.get("aria-label", "")
    position = game.position_json()
    assert render(position) == render(game)
    assert render(Position.from_json(position)) == render(game)
    spans = sorted(x_range(root, f"t{i}") for i in range(1, 7))
    assert all(a[1] < b[0] for a, b in pairwise(spans))


def test_position_sources_agree_with_the_game() -> None:
    game = played(4, 15)
    assert render(game) == render(game.snapshot()) == render(game.position_json())


@pytest.mark.parametrize(
    "bad",
    [
        42,
        None,
        "tableau",
        [],
        {"tableau": []},
        {**LESSON, "stock": LESSON["stock"][1:]},
        {**LESSON, "waste": ["2D", "9S", "9S"]},
        {**LESSON, "tableau": [{"down": ["XX"], "up": []}]},
        {**LESSON, "bogus": 1},
    ],
)
def test_bad_positions_raise_invalid_position_error(bad: Any) -> None:
    with pytest.raises(InvalidPositionError):
        render(bad)


def test_position_and_rules_must_agree() -> None:
    with pytest.raises(InvalidPositionError):
        render(LESSON, rules=Rules.preset("six-column"))
    broken = Position.from_json(LESSON)
    object.__setattr__(broken, "waste", ())
    with pytest.raises(InvalidPositionError):
        render(broken)
    with pytest.raises(PatienceError):
        render(Klondike(seed=1), rules=Rules(draw=3))
    assert render(Klondike(seed=1), rules=Rules()) == render(Klondike(seed=1))


def test_a_caption_is_a_line_of_text_under_the_cards() -> None:
    from patiencelab.svg import CAPTION_H

    def height(text: str) -> float:
        return float(text.split('viewBox="')[1].split('"')[0].split()[3])

    plain = render(Klondike(seed=7))
    captioned = render(Klondike(seed=7), caption="After 3 moves <seed 7>")
    assert 'class="pl-caption"' in captioned and "After 3 moves &lt;seed 7&gt;" in captioned
    assert height(captioned) == height(plain) + CAPTION_H
    with pytest.raises(PatienceError):
        render(Klondike(seed=7), caption=3)  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", ["en", "nl", "sv"])
def test_a_long_caption_wraps_inside_the_picture(lang: str) -> None:
    import xml.etree.ElementTree as ET

    from patiencelab.core.i18n import ntext
    from patiencelab.svg import CAPTION_H, CAPTION_SIZE, MARGIN

    caption = ntext("svg.snapshot", 12, lang, moves=12)
    picture = ET.fromstring(render(Klondike(seed=7), caption=caption))
    width, height = (float(v) for v in picture.attrib["viewBox"].split()[2:])
    note = next(el for el in picture.iter() if el.get("class") == "pl-caption")
    lines = [span.text or "" for span in note]
    assert len(lines) >= 2, f"{caption!r} is wider than the picture: it must wrap"
    assert " ".join(lines) == caption, "every word is kept, in order"
    for line in lines:  # a generous average width of a glyph: 0.6 em
        assert len(line) * 0.6 * CAPTION_SIZE <= width - 2 * MARGIN, line
    plain = render(Klondike(seed=7))
    assert height > float(plain.split('viewBox="')[1].split('"')[0].split()[3]) + CAPTION_H, "room for every line"


def test_a_teachers_marks_are_drawn_and_hidden_cards_are_never_circled() -> None:
    game = Klondike(seed=7)
    hidden = game.tableau[4].down[-1]
    marks = (Mark("t1", "t3"), Mark("5D", color="red"), Mark("fH"), Mark(str(hidden), color="blue"))
    picture = render(game, marks=marks)
    root = ET.fromstring(picture)
    arrows = root.findall(".//{*}g[@class='pl-mark-arrow']")
    circles = root.findall(".//{*}ellipse[@class='pl-mark-circle']")
    assert [(a.get("data-from"), a.get("data-to")) for a in arrows] == [("t1", "t3")]
    assert [c.get("data-at") for c in circles] == ["5D", "fH"], "the face-down card gets no ring"
    assert "#dc2626" in picture and "#2563eb" not in picture
    assert render(game, marks=marks[:1]) != render(game), "an arrow changes the picture"
