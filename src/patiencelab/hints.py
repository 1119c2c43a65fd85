"""Hints a strong player would give, with a short reason: the fair hint (:func:`find_fair_hint`, the default of
``game.hint()`` and the board) reads only what the player sees; the oracle hint (:func:`find_hint`,
``game.hint(peek=True)``) knows every face-down card and gives a move that keeps this very deal winnable.

The fair hint is the move of :class:`patiencelab.players.NoPeek`: the unseen cards are dealt at random into the
unseen places a number of times, each such deal is solved once, and the move that keeps the most of them
winnable is the hint ("it keeps 14 of 16 possible deals winnable"), ties broken by the order below.

The order (most preferred first), among the legal moves that neither take back the previous move nor only
shuffle cards (a run moved off a face-up card onto a card of the same rank and colour, or a column with no
face-down cards moved whole to an empty column):

1. a move that turns over a face-down card (the column with the most face-down cards first);
2. a card to a foundation;
3. a card from the waste to the tableau;
4. any other move of cards (a foundation card back to the tableau last);
5. a draw or a recycle.

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
from typing import TYPE_CHECKING, Literal

from patiencelab.core.limits import check_budget
from patiencelab.core.moves import Move

if TYPE_CHECKING:
    from patiencelab.core.game import Klondike

__all__ = ["DEFAULT_MAX_STATES", "Hint", "Reason", "candidates", "find_fair_hint", "find_hint", "ranked_moves"]

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


def _reverses(move: Move, last: Move | None) -> bool:
    """True when ``move`` takes straight back what ``last`` did (``t2-t5`` after ``t5-t2``)."""
    if last is None or last.source is None or last.target is None or move.source is None or move.target is None:
        return False
    ls, lt, ms, mt = last.source, last.target, move.source, move.target
    if lt[0] == "f":
        return ms[0] == "f" and mt == ls
    if ls[0] == "f":
        return ms == lt and mt[0] == "f"
    return ms == lt and mt == ls


def _shuffles(game: Klondike, move: Move) -> bool:
    """True for a move that only shuffles cards: nothing turns up, nothing new can follow."""
    source, target = move.source, move.target
    if source is None or target is None or source[0] != "t" or target[0] != "t":
        return False
    column = game.tableau[int(source[1:]) - 1]
    moving = game.moving_cards(move)
    top = game.tableau[int(target[1:]) - 1].top
    if len(moving) == len(column.up):  # the whole face-up part moves
        return not column.down and top is None
    under = column.up[len(column.up) - len(moving) - 1]
    return top is not None and under.rank == top.rank and under.is_red == top.is_red


def _rank(game: Klondike, move: Move) -> tuple[int, int]:
    """The documented order: smaller is preferred."""
    if move.is_draw or move.is_recycle:
        return (5, 0)
    column = game.uncovers(move)
    if column is not None:
        return (1, -len(game.tableau[column - 1].down))
    assert move.source is not None and move.target is not None
    if move.target[0] == "f":
        return (2, 0)
    if move.source == "w":
        return (3, 0)
    return (4, 1 if move.source[0] == "f" else 0)


def candidates(game: Klondike) -> list[Move]:
    """The legal moves a hint may give, most preferred first (see the module's documentation)."""
    return ranked_moves(game, game.history[-1] if game.history else None)


def ranked_moves(game: Klondike, last: Move | None) -> list[Move]:
    """:func:`candidates` when the move played last was ``last`` (for a game that stands in for a view)."""
    moves = [m for m in game.legal_moves() if not _reverses(m, last) and not _shuffles(game, m)]
    return sorted(moves, key=lambda m: _rank(game, m))  # stable: ties keep the table's order


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
    from patiencelab.solver.search import solve

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
        ordered.sort(key=lambda m: _rank(game, m))
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
    from patiencelab.players import NoPeek

    view = game.player_view()
    if view.is_won or not game.legal_moves():
        return None
    player = NoPeek(samples=samples, max_states=max_states, seed=seed)
    player.seconds = seconds
    decision = player.decide(view, confirm=True)
    move = decision.move
    if view.hidden_places == 0:  # every card is known: the one deal is this one
        return _reason(game, move, decision.kept > 0 or None, True)
    if decision.kept == 0:
        return Hint(move, "promising", None, None)
    return Hint(move, "chances", None, None, decision.kept, decision.samples)
