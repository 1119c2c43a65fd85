"""The small players: :class:`RandomMoves`, :class:`Greedy` (the hint order, no solver) and :class:`Oracle` (which
peeks), each a function from a :class:`~patiencelab.core.view.PlayerView` to a move. The fair strong player,
:class:`~patiencelab.players.nopeek.NoPeek`, has a module of its own.
"""

from __future__ import annotations

import math
import random
from typing import Protocol, runtime_checkable

from patiencelab.core.errors import PatienceError
from patiencelab.core.game import Klondike
from patiencelab.core.limits import check_instance, check_seed, check_states
from patiencelab.core.moves import Move
from patiencelab.core.view import PlayerView
from patiencelab.players.ranking import ranked_moves
from patiencelab.players.sampling import moves_to_choose, stand_in
from patiencelab.solver.search import solve

__all__ = ["Greedy", "Oracle", "Player", "RandomMoves"]


@runtime_checkable
class Player(Protocol):
    """Anything that picks a legal move from a player's view."""

    def choose(self, view: PlayerView) -> Move:
        """The move to play in the position ``view`` shows (the game must not be over)."""
        ...


class RandomMoves:
    """Plays a legal move chosen at random by its own ``random.Random(seed)``."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = check_seed(seed)
        self._rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Move:
        """A legal move at random."""
        return self._rng.choice(moves_to_choose(view))

    def __repr__(self) -> str:
        return f"RandomMoves(seed={self.seed!r})"


class Greedy:
    """Plays the first move of the hint order (:mod:`patiencelab.hints`): a face-down card turned up, a card to
    a foundation, the waste's card, another card move, then a draw; never the move just played taken back.
    """

    def choose(self, view: PlayerView) -> Move:
        """The most preferred move of the hint order."""
        game = stand_in(view)
        ordered = ranked_moves(game, view.last_move)
        return ordered[0] if ordered else moves_to_choose(view)[0]

    def __repr__(self) -> str:
        return "Greedy()"


class Oracle:
    """The solver playing with every card known. It PEEKS: it reads the face-down cards of the game it is bound
    to (:meth:`seeing`; :func:`~patiencelab.players.playing.play_out` binds it), so it is no fair player; its win
    rate is what knowing every card is worth.

    It solves the bound game's position within ``max_states`` positions and plays the winning line found, move by
    move, solving nothing more while the game follows it (the deal is known, so a winning line goes on winning).
    Where no line is known it plays :class:`Greedy`'s move: once a search proved the deal lost (it stays lost), and
    after a search that did not decide, until the next card is turned up (then it searches again, on a smaller
    problem).
    """

    def __init__(self, game: Klondike | None = None, *, max_states: int | None = 200_000) -> None:
        self.game = None if game is None else check_instance(game, "game", Klondike)
        self.max_states = check_states(max_states)
        #: The line being followed: the position it goes on from (``repr`` of its snapshot) and its moves.
        self._line: tuple[str, tuple[Move, ...]] = ("", ())
        #: The unseen cards when a search last failed to find a line (-1: proved lost), or None.
        self._failed_at: int | None = None

    def seeing(self, game: Klondike) -> Oracle:
        """A fresh oracle, with the same budget, bound to ``game``."""
        return Oracle(check_instance(game, "game", Klondike), max_states=self.max_states)

    def choose(self, view: PlayerView) -> Move:
        """The next move of the winning line in the bound game (whose view must be ``view``)."""
        check_instance(view, "view", PlayerView)
        game = self.game
        if game is None or game.player_view() != view:
            raise PatienceError("an Oracle peeks at a game: bind it with oracle.seeing(game) first")
        here, unseen = repr(game.snapshot()), view.hidden_places + view.unseen_stock
        start, line = self._line
        if (start != here or not line) and self._failed_at not in (-1, unseen):
            found = solve(game.snapshot(), game.rules, seconds=math.inf, max_states=self.max_states)
            start, line = here, found.moves if found.outcome == "solved" else ()
            self._failed_at = None if line else -1 if found.outcome == "impossible" else unseen
        if start != here or not line or not game.can_play(line[0]):
            self._line = ("", ())
            return Greedy().choose(view)
        trial = game.copy()
        move = trial.play(line[0])
        self._line = (repr(trial.snapshot()), line[1:])
        return move

    def __repr__(self) -> str:
        return f"Oracle(max_states={self.max_states})"
