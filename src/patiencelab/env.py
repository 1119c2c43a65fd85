"""A Gymnasium environment of Klondike: :class:`KlondikeEnv`, registered as ``"patiencelab/Klondike-v0"``.

It needs the ``gym`` extra (``pip install patiencelab[gym]``); ``import patiencelab`` does not load it, so the
environment is registered when this module is imported::

    import gymnasium
    import patiencelab.env  # registers "patiencelab/Klondike-v0"

    env = gymnasium.make("patiencelab/Klondike-v0", draw=3)

(``gymnasium.make("patiencelab.env:patiencelab/Klondike-v0")`` imports this module itself.) ``env.unwrapped.game``
is the live :class:`~patiencelab.core.game.Klondike`.

**Observation.** Only what a player can see: it is made from ``game.player_view()``
(:class:`~patiencelab.core.view.PlayerView`), so nothing in it comes from a face-down card but the number of them.
A card is a code: ``0`` for no card, ``1 + suit * 13 + rank - 1`` for a card (suits in the order C D H S, so
``1`` is the A♣ and ``52`` the K♠). With ``C`` the number of columns of the rules, a ``spaces.Dict`` of
``MultiDiscrete`` arrays (``int64``):

- ``tableau`` (``C`` x 13): each column's face-up cards, bottom first, then zeros (a face-up run holds at most
  13 cards);
- ``down`` (``C``): how many cards lie face down in each column (0 to 52);
- ``waste`` (52): the waste, top card first, then zeros;
- ``stock`` (52): the stock cards the player has seen, next card first (after the first recycle all of them,
  before it none), then zeros;
- ``stock_size`` (1): how many cards are in the stock (0 to 52);
- ``foundations`` (4): how many cards are on each suit's foundation, C D H S (0 to 13);
- ``passes_left`` (1): the passes through the stock still allowed after this one, 0 to 9 (more count as 9),
  and 10 for unlimited.

The moves played are not in it. Two positions whose face-down cards (or unseen stock cards) differ only in
order give equal observations and equal masks.

**Actions.** ``Discrete(N)`` with ``N = 3 + 6 * C + 13 * C * (C - 1)`` (591 with 7 columns), every move of the
rules once, numbered in blocks:

- ``0``: ``d``, draw; ``1``: ``r``, recycle (turn the waste over);
- ``2``: ``w-f``, the waste's card to its foundation;
- ``3 + j``: ``w-t(j+1)``, the waste's card to column ``j``;
- ``3 + C + i``: ``t(i+1)-f``, column ``i``'s top card to its foundation;
- ``3 + 2C + s * C + j``: ``f(s)-t(j+1)``, the top card of suit ``s`` (C D H S) back to column ``j``;
- ``3 + 6C + (i * (C - 1) + j') * 13 + n - 1``: column ``i`` to column ``j``, moving its top ``n`` cards (1 to
  13), with ``j' = j`` when ``j < i``, else ``j - 1``.

Columns and suits count from 0 here. The returns from the foundations are in the encoding whatever the rules
(they are never legal when the rules forbid them), so ``N`` depends only on the number of columns.
:func:`action_to_move` and :func:`move_to_action` turn one into the other in a position; every legal move has
one action, and ``info["action_mask"]`` (an ``int8`` array of ``N``, also :meth:`KlondikeEnv.action_masks`, the
convention of sb3-contrib's ``MaskablePPO``) has a 1 for each legal move and a 0 elsewhere.

**An illegal action** (a 0 in the mask) is refused: the game does not change, the reward is
``illegal_reward`` (0 unless told otherwise), ``info["illegal"]`` is True, and the step counts towards
``max_steps``. A number outside ``0 .. N-1`` (or no whole number at all) is no action: it raises
:class:`InvalidActionError`.

**Reward.** With ``reward="score"`` (the default) the change of the game's score under the rules' scoring
table, so the rewards of an episode add up to the final score minus the starting one; with ``reward="win"``,
1 for the move that wins and 0 for every other. The environment's game runs on a clock that stands still, so
the time terms of a table (``windows``) count nothing and an episode depends only on its actions.

**Episodes.** ``reset(seed=n)`` deals the game of ``Klondike(seed=n)``; ``reset()`` deals one from the
environment's own generator (seeded by the last seed given). ``options={"deal": text}`` deals the 104-character
deal ``text`` and ``options={"position": p}`` starts from a position (its JSON form or a
:class:`~patiencelab.core.position.Position`). An episode is terminated when the game is won or stuck (no move
left that could change it: ``game.status``) and truncated after ``max_steps``
steps (default 1,000): a player can go round in circles for ever. ``render_mode="ansi"`` makes
:meth:`KlondikeEnv.render` return the board as text.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Final, Literal, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from patiencelab.core.cards import Card
from patiencelab.core.errors import InvalidMoveError, PatienceError, quote
from patiencelab.core.game import Klondike
from patiencelab.core.limits import check_instance, check_whole
from patiencelab.core.moves import DRAW, RECYCLE, Move
from patiencelab.core.position import Position
from patiencelab.core.rules import Rules, Scoring
from patiencelab.core.view import PlayerView

__all__ = [
    "ENV_ID",
    "InvalidActionError",
    "KlondikeEnv",
    "Observation",
    "action_count",
    "action_mask",
    "action_to_move",
    "describe_action",
    "move_to_action",
    "observation_space",
    "observe",
]

#: The id the environment is registered under.
ENV_ID: Final = "patiencelab/Klondike-v0"

#: An observation: the arrays of the module's documentation, by name.
Observation = dict[str, NDArray[np.int64]]

#: The longest face-up run a column can hold (King down to Ace), and the most cards in any pile.
_RUN: Final = 13
_CARDS: Final = 52
#: ``passes_left`` counts up to this many passes; the next code stands for unlimited passes.
_PASSES: Final = 9
_SUIT_LETTERS: Final = "CDHS"


class InvalidActionError(InvalidMoveError):
    """A value that is not an action of the encoding (not a whole number from 0 to ``N - 1``), or a move that
    has no action (it names a card that is not where a move can take it).
    """


def _columns(where: Klondike | PlayerView | Rules | int) -> int:
    if isinstance(where, (Klondike, PlayerView)):
        return where.rules.columns
    if isinstance(where, Rules):
        return where.columns
    if isinstance(where, int) and not isinstance(where, bool) and 1 <= where <= 9:
        return where
    raise PatienceError(f"need a game, a view, rules or a number of columns (1 to 9), not {quote(where)}")


def action_count(where: Klondike | PlayerView | Rules | int) -> int:
    """``N``, the number of actions for the rules of a game, view or :class:`Rules` (or a number of columns)."""
    c = _columns(where)
    return 3 + 6 * c + _RUN * c * (c - 1)


def _check_action(action: object, count: int) -> int:
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
        raise InvalidActionError(f"an action must be a whole number from 0 to {count - 1}, not {quote(action)}")
    number = int(action)
    if not 0 <= number < count:
        raise InvalidActionError(f"an action must be a whole number from 0 to {count - 1}, not {number}")
    return number


def describe_action(action: int, where: Klondike | PlayerView | Rules | int) -> str:
    """What ``action`` stands for, in words of the move notation (``"t2-t5, 3 cards"``), in any position."""
    c = _columns(where)
    number = _check_action(action, action_count(c))
    kind, a, b, n = _decode(number, c)
    if kind == "t-t":
        return f"t{a + 1}-t{b + 1}, {n} card" + ("s" if n > 1 else "")
    return str(_simple_move(kind, a, b))


def _decode(action: int, c: int) -> tuple[str, int, int, int]:
    """The kind of move of ``action`` and its numbers (source, target, cards) with ``c`` columns."""
    if action < 3:
        return ("d", "r", "w-f")[action], 0, 0, 1
    action -= 3
    if action < c:
        return "w-t", 0, action, 1
    action -= c
    if action < c:
        return "t-f", action, 0, 1
    action -= c
    if action < 4 * c:
        return "f-t", action // c, action % c, 1
    action -= 4 * c
    pair, n = divmod(action, _RUN)
    i, k = divmod(pair, c - 1)
    return "t-t", i, k if k < i else k + 1, n + 1


def _simple_move(kind: str, a: int, b: int) -> Move:
    if kind == "d":
        return DRAW
    if kind == "r":
        return RECYCLE
    if kind == "w-f":
        return Move("w", "f")
    if kind == "w-t":
        return Move("w", f"t{b + 1}")
    if kind == "t-f":
        return Move(f"t{a + 1}", "f")
    return Move("f" + _SUIT_LETTERS[a], f"t{b + 1}")


def _view(where: Klondike | PlayerView) -> PlayerView:
    if isinstance(where, PlayerView):
        return where
    if isinstance(where, Klondike):
        return where.player_view()
    raise PatienceError(f"need a Klondike game or a PlayerView, not {type(where).__name__}")


def _implied_start(up: tuple[Card, ...], dest: tuple[Card, ...]) -> int:
    """The index in ``up`` of the card a place-form move onto ``dest`` starts from (as the game reads it)."""
    want = dest[-1].rank - 1 if dest else 13
    k = up[0].rank - want
    return k if 0 <= k < len(up) else 0


def _legal(where: Klondike | PlayerView) -> list[Move]:
    if isinstance(where, Klondike):
        return where.legal_moves()
    from patiencelab.players import legal_moves

    return legal_moves(where)


def action_to_move(action: int, where: Klondike | PlayerView) -> Move | None:
    """The legal move that ``action`` stands for in the position of ``where`` (a game or a player's view), in
    the form :meth:`~patiencelab.core.table.Table.legal_moves` lists it; ``None`` when the action is not legal
    there. Raises :class:`InvalidActionError` for a number outside the encoding.
    """
    view = _view(where)
    c = view.rules.columns
    kind, a, b, n = _decode(_check_action(action, action_count(c)), c)
    if kind == "t-t":
        up = view.tableau[a].up
        if n > len(up):
            return None
        start = len(up) - n
        if start == _implied_start(up, view.tableau[b].up):
            move = Move(f"t{a + 1}", f"t{b + 1}")
        else:
            move = Move(f"t{a + 1}", f"t{b + 1}", up[start])
    else:
        move = _simple_move(kind, a, b)
    return move if move in _legal(where) else None


def move_to_action(move: Move | str, where: Klondike | PlayerView) -> int:
    """The action of ``move`` (a :class:`Move` or its notation, place or card form) in the position of
    ``where``, legal or not. Raises :class:`InvalidMoveError` for text that is not a move, and
    :class:`InvalidActionError` for a move that no action names (a card that is not face up on top of where it
    lies, a column with no face-up card, a foundation of another suit than the card's).
    """
    view = _view(where)
    return _action_of(Move.parse(move), view)


def _action_of(move: Move, view: PlayerView) -> int:
    c = view.rules.columns
    if move.is_draw:
        return 0
    if move.is_recycle:
        return 1
    source, target, card = move.source, move.target, move.card
    assert target is not None
    index: int | None = None
    if card is not None:
        found, index = _find(view, card)
        if source is not None and found != source:
            raise InvalidActionError(f"the {card.symbol} is not in {source}")
        source = found
    assert source is not None
    if source == target:
        raise InvalidActionError(f"{move}: the {card.symbol if card else 'card'} is already in {target}")
    for place in (source, target):
        if place[0] == "t" and int(place[1]) > c:
            raise InvalidMoveError(f"there is no column {place}: these rules have {c} columns")
    if target[0] == "f":
        moving = _top(view, source)
        if index is not None and index != len(view.tableau[int(source[1]) - 1].up) - 1:
            raise InvalidActionError(f"{move}: only a column's top card goes to a foundation")
        if len(target) == 2 and moving is not None and moving.suit.value != target[1]:
            raise InvalidActionError(f"{move}: the {moving.symbol} goes to its own suit's foundation")
        if source == "w":
            return 2
        return 3 + c + int(source[1]) - 1
    j = int(target[1]) - 1
    if source == "w":
        return 3 + j
    if source[0] == "f":
        return 3 + 2 * c + _SUIT_LETTERS.index(source[1]) * c + j
    i = int(source[1]) - 1
    up = view.tableau[i].up
    if not up:
        raise InvalidActionError(f"{move}: column {source} has no face-up card to move")
    start = index if index is not None else _implied_start(up, view.tableau[j].up)
    n = len(up) - start
    return 3 + 6 * c + (i * (c - 1) + (j if j < i else j - 1)) * _RUN + n - 1


def _find(view: PlayerView, card: Card) -> tuple[str, int | None]:
    """Where a card-form move takes ``card`` from: a column (with the card's index there), the waste or its
    foundation; :class:`InvalidActionError` when no move can take it from where it lies.
    """
    for i, column in enumerate(view.tableau):
        if card in column.up:
            return f"t{i + 1}", column.up.index(card)
    if view.waste and view.waste[-1] == card:
        return "w", None
    if view.foundations[card.suit.index] == card.rank:
        return "f" + card.suit.value, None
    raise InvalidActionError(f"no move can take the {card.symbol} from where it lies (or it is not in sight)")


def _top(view: PlayerView, source: str) -> Card | None:
    """The card a move from ``source`` takes to a foundation, when there is one."""
    if source == "w":
        return view.waste[-1] if view.waste else None
    if source[0] == "t":
        up = view.tableau[int(source[1]) - 1].up
        return up[-1] if up else None
    return None


def action_mask(where: Klondike | PlayerView) -> NDArray[np.int8]:
    """An ``int8`` array of ``N``: 1 for each action legal in the position of ``where``, else 0."""
    view = _view(where)
    return _mask(view, _legal(where))


def _mask(view: PlayerView, legal: list[Move]) -> NDArray[np.int8]:
    mask = np.zeros(action_count(view.rules), dtype=np.int8)
    for move in legal:
        mask[_action_of(move, view)] = 1
    return mask


def observation_space(rules: Rules) -> spaces.Dict:
    """The observation space for ``rules`` (see the module's documentation)."""
    c = check_instance(rules, "rules", Rules).columns
    codes = _CARDS + 1

    def box(shape: tuple[int, ...], values: int) -> spaces.MultiDiscrete:
        return spaces.MultiDiscrete(np.full(shape, values, dtype=np.int64), dtype=np.int64)

    return spaces.Dict(
        {
            "tableau": box((c, _RUN), codes),
            "down": box((c,), _CARDS + 1),
            "waste": box((_CARDS,), codes),
            "stock": box((_CARDS,), codes),
            "stock_size": box((1,), _CARDS + 1),
            "foundations": box((4,), _RUN + 1),
            "passes_left": box((1,), _PASSES + 2),
        }
    )


def observe(where: Klondike | PlayerView) -> Observation:
    """The observation of the position of ``where``, made from the player's view only."""
    view = _view(where)
    c = view.rules.columns
    tableau = np.zeros((c, _RUN), dtype=np.int64)
    for i, column in enumerate(view.tableau):
        tableau[i, : len(column.up)] = [card.index + 1 for card in column.up]
    waste = np.zeros(_CARDS, dtype=np.int64)
    waste[: len(view.waste)] = [card.index + 1 for card in reversed(view.waste)]
    stock = np.zeros(_CARDS, dtype=np.int64)
    stock[: len(view.stock)] = [card.index + 1 for card in view.stock]
    max_passes = view.rules.max_passes
    left = _PASSES + 1 if max_passes is None else min(_PASSES, max(0, max_passes - 1 - view.recycles))
    return {
        "tableau": tableau,
        "down": np.array([column.down for column in view.tableau], dtype=np.int64),
        "waste": waste,
        "stock": stock,
        "stock_size": np.array([view.stock_size], dtype=np.int64),
        "foundations": np.array(view.foundations, dtype=np.int64),
        "passes_left": np.array([left], dtype=np.int64),
    }


def _still() -> float:
    """The environment's clock: it stands still, so the score has no time terms."""
    return 0.0


def _rules(
    rules: Rules | None,
    preset: str,
    draw: int | None,
    passes: int | Literal["unlimited"] | None,
    scoring: str | Scoring | None,
) -> Rules:
    if rules is not None:
        if not isinstance(rules, Rules):
            raise PatienceError(f"rules must be a Rules, not {type(rules).__name__}")
        if draw is not None or passes is not None or scoring is not None or preset != "standard":
            raise PatienceError("give rules, or a preset with draw, passes and scoring, not both")
        return rules
    built = Rules.preset(preset, draw=draw, scoring=scoring)
    if passes == "unlimited":
        return dataclasses.replace(built, max_passes=None)
    if passes is not None:
        return dataclasses.replace(built, max_passes=passes)
    return built


class KlondikeEnv(gymnasium.Env[Observation, np.int64]):
    """Klondike as a Gymnasium environment (see the module's documentation for the observation, the actions and
    the rewards).

    The rules: ``rules`` (a :class:`Rules`), or a ``preset`` (``standard``, ``traditional``, ``six-column``) with
    ``draw`` (cards per draw), ``passes`` (passes through the stock: a number, ``"unlimited"``, or ``None`` for
    the preset's) and ``scoring`` (a preset name or a :class:`Scoring`). ``reward`` is ``"score"`` or ``"win"``;
    ``illegal_reward`` is the reward of an illegal action; ``max_steps`` the steps before an episode is
    truncated; ``render_mode`` ``None`` or ``"ansi"``.

    >>> env = KlondikeEnv(draw=3)
    >>> obs, info = env.reset(seed=7)
    >>> int(info["action_mask"].sum()) == len(env.game.legal_moves())
    True
    >>> obs, reward, terminated, truncated, info = env.step(0)  # draw
    >>> str(env.game.history[-1]), reward, info["illegal"]
    ('d', 0.0, False)
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 - gymnasium's own form
    observation_space: spaces.Dict  # type: ignore[assignment]  # a Dict of the arrays of an Observation
    action_space: spaces.Discrete

    def __init__(
        self,
        *,
        rules: Rules | None = None,
        preset: str = "standard",
        draw: int | None = None,
        passes: int | Literal["unlimited"] | None = None,
        scoring: str | Scoring | None = None,
        reward: Literal["score", "win"] = "score",
        illegal_reward: float = 0.0,
        max_steps: int = 1_000,
        render_mode: str | None = None,
    ) -> None:
        self.rules = _rules(rules, preset, draw, passes, scoring)
        if reward not in ("score", "win"):
            raise PatienceError(f"reward must be 'score' or 'win', not {quote(reward)}")
        if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, (int, float)):
            raise PatienceError(f"illegal_reward must be a number, not {quote(illegal_reward)}")
        check_whole(max_steps, "max_steps", low=1)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise PatienceError(f"render_mode must be None or 'ansi', not {quote(render_mode)}")
        self.reward_kind = reward
        self.illegal_reward = float(illegal_reward)
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.observation_space = observation_space(self.rules)
        self.action_space = spaces.Discrete(action_count(self.rules))
        #: The live game (a new one at each :meth:`reset`).
        self.game = Klondike(seed=0, rules=self.rules, clock=_still)
        self.steps = 0
        self._mask = np.zeros(action_count(self.rules), dtype=np.int8)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Start an episode: the deal of ``seed``, of ``options["deal"]``, from ``options["position"]``, or the
        next deal of the environment's generator; returns the observation and the info.
        """
        super().reset(seed=None if seed is None else check_whole(seed, "seed", low=0))
        options = {} if options is None else options
        if not isinstance(options, Mapping):
            raise PatienceError(f"options must be a dict, not {type(options).__name__}")
        unknown = sorted(str(k) for k in options if k not in ("deal", "position"))
        if unknown:
            raise PatienceError(f"unknown reset option(s) {', '.join(unknown)}: use 'deal' or 'position'")
        if "deal" in options and "position" in options:
            raise PatienceError("give a deal or a position, not both")
        if "deal" in options:
            deal = options["deal"]
            if not isinstance(deal, str):
                raise PatienceError(f"a deal must be text of 104 characters, not {type(deal).__name__}")
            self.game = Klondike(deal=deal, rules=self.rules, clock=_still)
        elif "position" in options:
            position = options["position"]
            if not isinstance(position, (Position, Mapping)):
                raise PatienceError(f"a position must be a Position or its JSON form, not {type(position).__name__}")
            self.game = Klondike.from_position(position, rules=self.rules, clock=_still)
        else:
            number = seed if seed is not None else int(self.np_random.integers(1 << 31))
            self.game = Klondike(seed=number, rules=self.rules, clock=_still)
        self.steps = 0
        observation, info = self._look(illegal=False, move=None)
        return observation, info

    def step(self, action: np.int64 | int) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the move of ``action`` (or refuse it when it is illegal: see the module's documentation)."""
        game = self.game
        number = _check_action(action, int(self.action_space.n))
        self.steps += 1
        move = action_to_move(number, game) if self._mask[number] else None
        if move is None:
            reward = self.illegal_reward
        else:
            before = game.score
            game.play(move)
            won = 1.0 if game.is_won else 0.0
            reward = float(game.score - before) if self.reward_kind == "score" else won
        observation, info = self._look(illegal=move is None, move=move)
        terminated = info["status"] != "playing"
        truncated = not terminated and self.steps >= self.max_steps
        return observation, reward, terminated, truncated, info

    def _look(self, *, illegal: bool, move: Move | None) -> tuple[Observation, dict[str, Any]]:
        game = self.game
        view = game.player_view()
        self._mask = _mask(view, game.legal_moves())
        info = {
            "action_mask": self._mask.copy(),
            "illegal": illegal,
            "move": None if move is None else str(move),
            "score": game.score,
            "status": game.status,
        }
        return observe(view), info

    def action_masks(self) -> NDArray[np.int8]:
        """The mask of the legal actions now (``info["action_mask"]``), for sb3-contrib's ``MaskablePPO``."""
        mask: NDArray[np.int8] = self._mask.copy()
        return mask

    def render(self) -> str | None:
        """The board as text with ``render_mode="ansi"``; nothing otherwise."""
        if self.render_mode == "ansi":
            return str(self.game)
        return None


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="patiencelab.env:KlondikeEnv")
