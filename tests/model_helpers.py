"""Helpers shared by the game-model tests: building positions, snapshots of a game, an independent dealer and
an independent score recomputation from the scoring tables of ``docs/play.md``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from patiencelab import Card, Klondike, Move, Rules

SUITS = "CDHS"
RANK_LETTERS = "A23456789TJQK"
ORDERED_DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANK_LETTERS)

# The scoring tables of docs/play.md (Scoring), written out independently of patiencelab.core.rules.
TABLES: dict[str, dict[str, int | None]] = {
    "standard": {"start": 0, "w-t": 5, "to-f": 10, "f-t": -15, "turn": 5, "floor": 0},
    "windows": {"start": 0, "w-t": 5, "to-f": 10, "f-t": -15, "turn": 5, "floor": 0},
    "vegas": {"start": -52, "w-t": 0, "to-f": 5, "f-t": -5, "turn": 0, "floor": None},
    "none": {"start": 0, "w-t": 0, "to-f": 0, "f-t": 0, "turn": 0, "floor": 0},
}


def recycle_points(table: str, draw: int, number: int) -> int:
    """Points for the ``number``-th recycle (from 1) under the named table of ``docs/play.md``."""
    if table == "standard":
        return -20 if draw == 3 else 0
    if table == "windows":
        if draw == 1:
            return -100
        return -20 if number >= 4 else 0
    return 0


def col(down: str = "", up: str = "") -> tuple[str, str]:
    """A column spec: face-down and face-up cards as space-separated notation, bottom first."""
    return (down, up)


def make_position(
    columns: Sequence[tuple[str, str]],
    *,
    stock: str = "",
    waste: str = "",
    found: Mapping[str, int] | None = None,
    rest: str = "stock",
    n_columns: int = 7,
    recycles: int = 0,
) -> dict[str, Any]:
    """A position dict in its JSON form (``game.position_json()``, see ``docs/script.md``).

    Columns not given are empty. Every card not placed anywhere goes to ``rest``: ``"stock"`` (appended after
    ``stock``) or ``"tN"`` (face down at the bottom of column N, which must have a face-up card).
    """
    found = dict.fromkeys(SUITS, 0) | dict(found or {})
    cols: list[dict[str, list[str]]] = [{"down": [], "up": []} for _ in range(n_columns)]
    for i, (down, up) in enumerate(columns):
        cols[i] = {"down": down.split(), "up": up.split()}
    stock_cards = stock.split()
    waste_cards = waste.split()
    placed = {c.upper() for c in stock_cards + waste_cards}
    for c in cols:
        placed |= {x.upper() for x in c["down"] + c["up"]}
    for s in SUITS:
        placed |= {RANK_LETTERS[r] + s for r in range(found[s])}
    remaining = [c for c in ORDERED_DECK if c not in placed]
    if rest == "stock":
        stock_cards += remaining
    else:
        i = int(rest[1:]) - 1
        cols[i]["down"] = remaining + cols[i]["down"]
    return {"tableau": cols, "stock": stock_cards, "waste": waste_cards, "foundations": found, "recycles": recycles}


#: The language of games made by :func:`game_from` (tests switch it to run in Dutch and Swedish too).
LANGUAGE = {"value": "en"}


def game_from(
    columns: Sequence[tuple[str, str]],
    *,
    rules: Rules | None = None,
    clock: Callable[[], float] | None = None,
    **kwargs: Any,
) -> Klondike:
    """A game made with :func:`make_position`."""
    rules = rules or Rules()
    pos = make_position(columns, n_columns=rules.columns, **kwargs)
    return Klondike.from_position(pos, rules=rules, clock=clock, lang=LANGUAGE["value"])


def state(game: Klondike) -> tuple[Any, ...]:
    """Everything a failed call must leave unchanged."""
    return (
        game.position_json(),
        game.score,
        game.history,
        game.moves,
        game.can_undo,
        game.can_redo,
        game.recycles,
        game.view(reveal=True),
    )


def all_cards(game: Klondike) -> list[Card]:
    """Every card of the game not on a foundation, plus the foundation cards."""
    cards: list[Card] = []
    for column in game.tableau:
        cards += column.down + column.up
    cards += game.stock + game.waste
    for suit, n in game.foundations.items():
        cards += [Card(rank, suit) for rank in range(1, n + 1)]
    return cards


def deal_columns(deal: Sequence[str], face_down: Sequence[int]) -> tuple[list[tuple[list[str], list[str]]], list[str]]:
    """An independent dealer: row by row, each column taking cards until it has its face-down cards plus one."""
    need = [n + 1 for n in face_down]
    piles: list[list[str]] = [[] for _ in need]
    i = 0
    for row in range(max(need)):
        for c, n in enumerate(need):
            if row < n:
                piles[c].append(deal[i])
                i += 1
    return [(p[:-1], p[-1:]) for p in piles], list(deal[i:])


def seeded_cards(seed: int) -> list[str]:
    """The ordered deck shuffled by ``random.Random(seed).shuffle()``."""
    cards = list(ORDERED_DECK)
    random.Random(seed).shuffle(cards)
    return cards


def face_down_count(pos: Mapping[str, Any]) -> int:
    return sum(len(c["down"]) for c in pos["tableau"])


def recompute_score(game: Klondike, table: str) -> int:
    """The score from the table of ``docs/play.md``, replaying the history from the start (time terms excluded)."""
    record = game.record()
    rules = game.rules
    if "deal" in record:
        replay = Klondike(deal=record["deal"], rules=rules)
    else:
        replay = Klondike.from_position(record["position"], rules=rules)
    t = TABLES[table]
    score = t["start"]
    assert score is not None
    for text in record["moves"]:
        move = Move.parse(text)
        before = replay.position_json()
        played = replay.play(move)
        after = replay.position_json()
        gain = 0
        if played.is_recycle:
            gain += recycle_points(table, rules.draw, after["recycles"])
        elif not played.is_draw:
            src, dst = played.source, played.target
            assert src is not None and dst is not None
            if src == "w" and dst.startswith("t"):
                gain += t["w-t"] or 0
            if dst.startswith("f"):
                gain += t["to-f"] or 0
            if src.startswith("f"):
                gain += t["f-t"] or 0
            if face_down_count(after) < face_down_count(before):
                gain += t["turn"] or 0
        score += gain
        floor = t["floor"]
        if floor is not None:
            score = max(floor, score)
    return score


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def twin(position: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The same position with its face-down cards and the stock cards its player has not seen (all but the first
    ``stock_seen``, whatever the recycles) in another order."""
    other: dict[str, Any] = json.loads(json.dumps(position))
    seen = other.get("stock_seen", 0)
    down = [card for column in other["tableau"] for card in column["down"]]
    hidden = down + other["stock"][seen:]
    shuffled = hidden[:]
    while len(hidden) > 1 and shuffled == hidden:
        rng.shuffle(shuffled)
    it = iter(shuffled)
    for column in other["tableau"]:
        column["down"] = [next(it) for _ in column["down"]]
    other["stock"] = other["stock"][:seen] + list(it)
    return other


#: A position one move from a win (the K♠ to its foundation): for records, streaks and announcements.
NEARLY_WON = {
    "tableau": [{"down": [], "up": ["KS"]}] + [{"down": [], "up": []}] * 6,
    "stock": [],
    "waste": [],
    "foundations": {"C": 13, "D": 13, "H": 13, "S": 12},
}


def table(game: Klondike) -> tuple[Any, ...]:
    """Where every card of ``game`` lies (columns, stock, waste, foundations), without the moves or the score."""
    position = game.snapshot()
    return (position.tableau, position.stock, position.waste, position.foundations)
