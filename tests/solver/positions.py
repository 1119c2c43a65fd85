"""Positions small enough for the reference search, under every rule option the solver reads.

Three families: end games dealt at random (each suit's foundation filled to a random rank, the rest dealt to the
columns and the stock), the same after a stretch of random play (the late positions of real games: cards turned
up, runs built, the stock part used, cards back from the foundations), and positions built by hand around what
the pruning reads (a foundation card that must come back to free the one below it, a card buried in a
foundation, a talon card and pass limits).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from patiencelab import Klondike, Rules
from patiencelab.core.kernel import SUIT_LETTERS

__all__ = [
    "PASS_LIMITS",
    "RULE_OPTIONS",
    "Case",
    "cases",
    "end_game",
    "late_position",
    "lost_from_the_start",
    "seeded_late_position",
    "talon_cases",
    "talon_end_game",
]

RANKS = "A23456789TJQK"

#: Every option the solver reads: draw, returns from the foundations, what fills an empty column, and the
#: number of columns (the six-column deal has one face-down card more a column).
RULE_OPTIONS: list[dict[str, Any]] = [
    {"draw": d, "foundation_to_tableau": f, "empty_column": e, "columns": n}
    for d in (1, 3)
    for f in (True, False)
    for e in ("king", "any")
    for n in (6, 7)
]

#: Pass limits the tests cover (``None``: unlimited), with the recycles already made drawn near the limit.
PASS_LIMITS: list[int | None] = [1, 2, 3, 255, 256, 300, None]


@dataclass(frozen=True)
class Case:
    """A position to check, with where it came from (for a failure's message)."""

    name: str
    game: Klondike


def _rules(option: dict[str, Any], passes: int | None, downs: tuple[int, ...]) -> Rules:
    return Rules(
        draw=option["draw"],
        max_passes=passes,
        foundation_to_tableau=option["foundation_to_tableau"],
        empty_column=option["empty_column"],
        face_down=downs,
    )


def _recycles(rng: random.Random, passes: int | None) -> int:
    """Recycles already made: near the limit, where a key that loses count would show."""
    if passes is None:
        return rng.choice([0, 1, 254, 255, 256, 300])
    return rng.randint(max(0, passes - 3), passes - 1)


def end_game(
    rng: random.Random,
    option: dict[str, Any],
    passes: int | None,
    *,
    low: int,
    high: int,
    down: tuple[int, int] = (0, 3),
) -> Klondike:
    """A random end game: each foundation holds its Ace to a random rank from ``low`` to ``high`` (0: empty);
    the other cards are shuffled into the columns (``down`` bounds the face-down cards under each one's face-up
    card, fewer when the cards run short) and the stock, some of it already drawn to the waste.
    """
    found = {s: rng.randint(low, high) for s in SUIT_LETTERS}
    cards = [f"{RANKS[r]}{s}" for s in SUIT_LETTERS for r in range(found[s], 13)]
    rng.shuffle(cards)
    n = option["columns"]
    downs = [rng.randint(*down) for _ in range(n)]
    while sum(downs) + n > len(cards) and max(downs):  # too few cards: fewer face down (then empty columns)
        downs[downs.index(max(downs))] -= 1
    tableau = []
    for d in downs:
        tableau.append({"down": cards[:d], "up": cards[d : d + 1]})
        cards = cards[d + 1 :]
    return _dealt(rng, tableau, cards, found, option, passes, tuple(downs))


def late_position(game: Klondike, rng: random.Random, moves: int) -> Klondike:
    """``game`` after up to ``moves`` random legal actions (a card to a foundation or turned up is preferred
    half of the time, as a player would), stopped early when it is stuck or won; a fresh game from there.
    """
    game = game.copy()
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal or game.is_won:
            break
        progress = [m for m in legal if m.target is not None and (m.target[0] == "f" or game.uncovers(m))]
        game.play(rng.choice(progress if progress and rng.random() < 0.5 else legal))
    return Klondike.from_position(game.snapshot(), rules=game.rules)


def seeded_late_position(rng: random.Random, option: dict[str, Any], passes: int | None) -> Klondike:
    """A seeded deal under ``option`` after 40 to 120 random actions, with recycles near the pass limit."""
    n = option["columns"]
    downs = tuple(range(7 - n, 7))
    game = late_position(
        Klondike(seed=rng.randrange(10**6), rules=_rules(option, None, downs)), rng, rng.randint(40, 120)
    )
    position = game.position_json()
    position["recycles"] = _recycles(rng, passes)
    return Klondike.from_position(position, rules=_rules(option, passes, downs))


def cases(count: int, seed: int = 0) -> Iterator[Case]:
    """``count`` positions. Half of them cycle through every rule option and pass limit: end games (foundations
    filled to a rank from 5 to 10), late positions after 40 to 120 random actions from fuller end games (3 to
    8), end games with most cards face down, and, one in sixteen, late positions of seeded deals (mostly too
    large for the reference search: their wins are still replayed). The other half are end games where cards
    may come back from the foundations and most cards lie face down, under the other options and pass limits:
    their wins often bring foundation cards back, where the pruning has most to get wrong.
    """
    rng = random.Random(seed)
    combos = [(o, p) for o in RULE_OPTIONS for p in PASS_LIMITS]
    returns = [(o, p) for o, p in combos if o["foundation_to_tableau"]]
    for i in range(count):
        j = i // 2
        if i % 2 == 0:
            option, passes = returns[j % len(returns)]
            name = f"case {i} (seed {seed}): {option}, passes {passes}, returns"
            yield Case(name, end_game(rng, option, passes, low=6, high=11, down=(1, 4)))
            continue
        option, passes = combos[(j // 4) % len(combos)]
        name = f"case {i} (seed {seed}): {option}, passes {passes}"
        if j % 8 == 7:
            yield Case(name + ", seeded deal, late", seeded_late_position(rng, option, passes))
        elif j % 4 == 1:
            base = end_game(rng, option, passes, low=3, high=8)
            yield Case(name + ", late", late_position(base, rng, rng.randint(40, 120)))
        elif j % 4 == 2:
            yield Case(name + ", buried", end_game(rng, option, passes, low=4, high=9, down=(2, 5)))
        else:
            yield Case(name, end_game(rng, option, passes, low=5, high=10))


def talon_end_game(rng: random.Random, option: dict[str, Any], passes: int | None) -> Klondike:
    """An end game decided in the talon: two suits left (three times in four of one colour, so that hardly a
    card goes on another), their foundations filled to a random rank from 3 to 9, their cards all in the stock
    and the waste (some drawn) but for up to two face up on columns; the other columns empty. Whether it is won
    hangs on the order the talon's cards can be reached in: with draw 3 and unlimited passes, on which waste
    the search meets each set of cards left (a stronger waste reaches more, see ``Node.stronger_keys``).
    """
    pairs = [("H", "D"), ("C", "S")]
    left = rng.choice(pairs) if rng.random() < 0.75 else rng.sample(SUIT_LETTERS, 2)
    found = {s: rng.randint(3, 9) if s in left else 13 for s in SUIT_LETTERS}
    talon = [f"{RANKS[r]}{s}" for s in SUIT_LETTERS for r in range(found[s], 13)]
    rng.shuffle(talon)
    n = option["columns"]
    up = [talon.pop() for _ in range(min(rng.randint(0, 2), len(talon)))]
    tableau = [{"down": [], "up": [card]} for card in up] + [{"down": [], "up": []}] * (n - len(up))
    return _dealt(rng, tableau, talon, found, option, passes, (0,) * n)


def talon_cases(count: int, seed: int = 0) -> Iterator[Case]:
    """``count`` end games decided in the talon (:func:`talon_end_game`). Three in four are dealt with draw 3
    and unlimited passes, the only rules under which a position is skipped for one with a stronger waste: two of
    them with no cards back from the foundations and only Kings on empty columns (where the talon's order
    decides most often: cards hardly go anywhere but home), the third cycling through the other options. The
    fourth cycles through every rule option and pass limit (the talon's part of the key: the waste and the
    passes left).
    """
    rng = random.Random(seed)
    combos = [(o, p) for o in RULE_OPTIONS for p in PASS_LIMITS]
    draw3 = [o for o in RULE_OPTIONS if o["draw"] == 3]
    strict = [o for o in draw3 if not o["foundation_to_tableau"] and o["empty_column"] == "king"]
    for i in range(count):
        j = i // 4
        if i % 4 == 3:
            option, passes = combos[j % len(combos)]
        elif i % 4 == 2:
            option, passes = draw3[j % len(draw3)], None
        else:
            option, passes = strict[(2 * j + i % 4) % len(strict)], None
        name = f"talon case {i} (seed {seed}): {option}, passes {passes}"
        yield Case(name, talon_end_game(rng, option, passes))


def lost_from_the_start() -> Klondike:
    """A deal lost before its first move: the 5H lies over the 4H, and both black sixes it could go on lie
    under it (the dead-end check proves it at once).
    """
    stock = [f"{r}{s}" for s in "CS" for r in "789TJQK"] + [f"{r}H" for r in "6789TJQK"] + [f"{r}D" for r in "89TJQK"]
    position = {
        "tableau": [{"down": ["6C", "6S", "4H"], "up": ["5H"]}, {"down": [], "up": ["7D"]}],
        "stock": stock,
        "waste": [],
        "foundations": {"C": 5, "D": 6, "H": 3, "S": 5},
    }
    return Klondike.from_position(position, rules=Rules(face_down=(3, 0)))


def blocked_five(six_of_spades_down: bool) -> Klondike:
    """The 5H face up over the 4H and the 6C, with the 6S under them too or in the stock; a 7D on the other
    column.
    """
    down = ["6C", "6S", "4H"] if six_of_spades_down else ["6C", "4H"]
    stock = [f"{r}{s}" for s in "CS" for r in "789TJQK"] + [f"{r}H" for r in "6789TJQK"] + [f"{r}D" for r in "89TJQK"]
    if not six_of_spades_down:
        stock.insert(0, "6S")
    position = {
        "tableau": [{"down": down, "up": ["5H"]}, {"down": [], "up": ["7D"]}],
        "stock": stock,
        "waste": [],
        "foundations": {"C": 5, "D": 6, "H": 3, "S": 5},
    }
    return Klondike.from_position(position, rules=Rules(face_down=(len(down), 0)))


def partial_run_position() -> Klondike:
    """A column of 9S 8H over a face-down card, beside an empty one that takes any card: the 8H alone can go there
    (a partial run), a move the solver must name as the game does.
    """
    position = {
        "tableau": [{"down": ["7H"], "up": ["9S", "8H"]}, {"down": [], "up": []}, {"down": [], "up": ["KH"]}],
        "stock": ["9H", "TH", "JH", "QH", "TS", "JS", "QS", "KS"],
        "waste": [],
        "foundations": {"C": 13, "D": 13, "H": 6, "S": 8},
    }
    return Klondike.from_position(position, rules=Rules(empty_column="any", face_down=(1, 0, 0)))


def _dealt(
    rng: random.Random,
    tableau: list[dict[str, list[str]]],
    talon: list[str],
    found: Any,
    option: dict[str, Any],
    passes: int | None,
    downs: tuple[int, ...],
) -> Klondike:
    """The position of ``tableau`` and ``found`` with ``talon`` split at random between the stock and the waste."""
    split = rng.randint(0, len(talon))
    position = {
        "tableau": tableau,
        "stock": talon[split:],
        "waste": talon[:split],
        "foundations": found,
        "recycles": _recycles(rng, passes),
    }
    return Klondike.from_position(position, rules=_rules(option, passes, downs))
