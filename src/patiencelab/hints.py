"""Hints a strong player would give, with a short reason: the fair hint (:func:`find_fair_hint`, the default of
``game.hint()`` and the board) reads only what the player sees; the oracle hint (:func:`find_hint`,
``game.hint(peek=True)``) knows every face-down card and gives a move that keeps this very deal winnable.

The fair hint is the move of :class:`patiencelab.players.NoPeek`: the unseen cards are dealt at random into the
unseen places a number of times, each such deal is solved once, and the move that keeps the most of them
winnable is the hint ("it keeps 14 of 16 possible deals winnable"), ties broken by the hint order.

The order of the candidates (a card turned up first, a draw last) is :mod:`patiencelab.players.ranking`'s.

The oracle hint: the solver first decides the current position. When it finds a win, each candidate ranked
before the win's first move is tried in order and the first that the solver wins from is the hint; else the
win's first move is.
When the position is not known to be winnable, each candidate is tried in order; the first one known to keep a
win is the hint, else the most preferred candidate. Every solver call has the same state budget, so the same
position gives the same hint on every machine.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from patiencelab.core.game import Klondike
from patiencelab.core.limits import check_budget, check_instance, check_seconds
from patiencelab.core.moves import Move
from patiencelab.players import NoPeek
from patiencelab.players.ranking import candidates, rank, ranked_moves
from patiencelab.solver import solve

__all__ = [
    "DEFAULT_MAX_STATES",
    "Hint",
    "Reason",
    "candidates",
    "find_fair_hint",
    "find_hint",
    "hint_move",
    "ranked_moves",
]

#: Positions the solver may search per call for a hint, unless told otherwise.
DEFAULT_MAX_STATES = 10_000

#: Why a hint is a good move: it turns a card up, builds a foundation, brings the waste's card into play, keeps
#: the game winnable, is the only kind of move left (draw) or the most promising one found.
#: ``chances``: the fair hint's reason, it keeps the most of the sampled deals winnable.
Reason = Literal["turn-up", "foundation", "waste", "winnable", "draw-only", "no-card-move", "promising", "chances"]


@dataclass(frozen=True, slots=True)
class Hint:
    """A hinted move, why it is good, and whether the solver knows it keeps the game winnable."""

    move: Move
    reason: Reason
    #: The column (1-based) whose face-down card the move turns over, for ``turn-up``.
    column: int | None = None
    #: True when the solver found a win after this move; None when it could not tell within its budget.
    winnable: bool | None = None
    #: For ``chances``: how many of the ``samples`` deals consistent with the player's view it keeps winnable.
    kept: int = 0
    samples: int = 0


def _reason(game: Klondike, move: Move, winnable: bool | None, checked_cards: bool) -> Hint:
    column = game.uncovers(move)
    if column is not None:
        return Hint(move, "turn-up", column, winnable)
    if move.is_draw or move.is_recycle:
        if not any(not (m.is_draw or m.is_recycle) for m in game.legal_moves()):
            return Hint(move, "no-card-move", None, winnable)
        return Hint(move, "draw-only" if checked_cards else "promising", None, winnable)
    assert move.source is not None and move.target is not None
    if move.target[0] == "f":
        return Hint(move, "foundation", None, winnable)
    if move.source == "w":
        return Hint(move, "waste", None, winnable)
    return Hint(move, "winnable" if winnable else "promising", None, winnable)


def find_hint(game: Klondike, *, max_states: int | None = DEFAULT_MAX_STATES, seconds: float = math.inf) -> Hint | None:
    """The hint for ``game``'s current position, or ``None`` when the game is over or no move is legal.

    Each solver call may search ``max_states`` positions (and ``seconds``; a state budget alone gives the same
    hint on every machine).
    """
    check_instance(game, "game", Klondike)
    check_budget(max_states, seconds)
    if game.is_won:
        return None
    ordered = candidates(game)
    if not ordered:
        legal = game.legal_moves()  # only take-backs or shuffles are left: better than nothing
        return _reason(game, legal[0], None, False) if legal else None

    def keeps_a_win(move: Move) -> bool:
        trial = game.copy()
        trial.play(move)
        return solve(trial, seconds=seconds, max_states=max_states).outcome == "solved"

    solution = solve(game, seconds=seconds, max_states=max_states)
    if solution.outcome == "impossible":
        return _reason(game, ordered[0], False, False)
    win = solution.moves[0] if solution.outcome == "solved" and solution.moves else None
    if win is not None:
        win = game.parse_move(win) if game.can_play(win) else None  # the form the game plays (``5H-t5`` too)
    if win is not None and win not in ordered:
        ordered.append(win)  # the solver's first move is a candidate whatever the filters say
        ordered.sort(key=lambda m: rank(game, m))
    for move in ordered:
        if move == win:
            return _reason(game, move, True, True)
        if keeps_a_win(move):
            return _reason(game, move, True, True)
    return _reason(game, ordered[0], None, True)


def find_fair_hint(
    game: Klondike, *, samples: int = 16, max_states: int | None = 2_000, seconds: float = math.inf, seed: int = 0
) -> Hint | None:
    """The fair hint: the move :class:`patiencelab.players.NoPeek` chooses from ``game.player_view()`` (it
    never reads a face-down card), with how many of the sampled deals it keeps winnable; ``None`` when the
    game is over or no move is legal. Each sampled deal is solved within ``max_states`` positions.
    """
    view = check_instance(game, "game", Klondike).player_view()
    if view.is_won or not game.legal_moves():
        return None
    player = NoPeek(samples=samples, max_states=max_states, seed=seed)
    player.seconds = check_seconds(seconds)
    decision = player.decide(view, confirm=True)
    move = decision.move
    if view.hidden_places == 0:  # every card is known: the one deal is this one
        return _reason(game, move, decision.kept > 0 or None, True)
    if decision.kept == 0:
        return Hint(move, "promising", None, None)
    return Hint(move, "chances", None, None, decision.kept, decision.samples)


def hint_move(game: Klondike, *, seconds: float = math.inf, max_states: int | None = DEFAULT_MAX_STATES) -> Move | None:
    """The oracle's hint move (:func:`find_hint`, as ``game.hint(peek=True)``): one that keeps the game winnable
    when the solver knows one, in the hint order; ``None`` when no move is legal.
    """
    hint = find_hint(game, max_states=max_states, seconds=seconds)
    return hint.move if hint is not None else None
