"""Players: functions from what a player sees (a :class:`~patiencelab.core.view.PlayerView`) to a move.

- :class:`RandomMoves` plays a legal move at random.
- :class:`Greedy` plays the first move of the hint order (:mod:`patiencelab.players.ranking`) (a card turned up, then a
  card to a foundation, then the waste's card, then other card moves, then a draw), without a solver.
- :class:`NoPeek` is the fair strong player (determinized search): it deals the unseen cards at random into the
  unseen places a number of times, solves each sample once within a state budget, then judges each candidate move
  on its own: after it, how many of the same samples stay winnable, with the solver as the judge; the move that
  keeps the most is played (ties as its ``tiebreak`` says). Along a game it follows the wins it found while no
  card turns up and most of them agree (solving nothing), plays a card that goes home safely at once, and does
  not go back to a position it has decided in when another move goes on.
- :class:`TreeSearch` is the fair player that searches a tree over what it knows (information-set MCTS,
  :mod:`patiencelab.players.ismcts`): a new deal of the unseen cards each iteration, only the moves legal in it
  followed, UCB over availability counts, each leaf scored by the solver on that deal within a small budget.
- :class:`Oracle` is the solver playing: it **peeks**, knowing every face-down card of the game it is
  bound to. Its win rate is an upper bound, not a fair player's.

:func:`chances` estimates the share of the deals consistent with a view that can still be won, and
:func:`play_out` lets a player play a game to its end. Randomness comes only from the seed and the view, so two
games whose hidden cards differ only in order get the same moves and the same chances.

:func:`evaluate` measures a player (any :class:`Player` or function of a view) on seeded deals: its win rate
with a 95% interval, mean score, moves per game and CPU time per decision, in this process, on a local process
pool or on a Dask cluster, with the same rows (timings apart) on each. :func:`compare` does it for several
players and gives a table and a plot of them side by side.

The package's rooms, from the bottom: :mod:`~patiencelab.players.ranking` (the hint order),
:mod:`~patiencelab.players.sampling` (the deals consistent with a view and the one formula of a chance),
:mod:`~patiencelab.players.scouting` (the look through the stock), :mod:`~patiencelab.players.strategies` (the
small players), :mod:`~patiencelab.players.nopeek` (the fair strong player), :mod:`~patiencelab.players.ismcts`
(the tree search), :mod:`~patiencelab.players.playing` (a game played to its end) and
:mod:`~patiencelab.players.evaluation` (players measured on many deals). Every name below imports from here.
"""

from __future__ import annotations

from patiencelab.players.evaluation import Comparison, Evaluation, GameRow, compare, evaluate, play_game, plot
from patiencelab.players.ismcts import TreeDecision, TreeSearch
from patiencelab.players.nopeek import DEFAULT_DECISION_STATES, Decision, NoPeek
from patiencelab.players.playing import Ended, as_choose, play_out, play_to_end
from patiencelab.players.sampling import (
    DEFAULT_MAX_STATES,
    DEFAULT_SAMPLES,
    Chances,
    chances,
    deals,
    exhaustive,
    keeps_winnable,
    legal_moves,
    stand_in,
    tally,
)
from patiencelab.players.strategies import Greedy, Oracle, Player, RandomMoves

__all__ = [
    "DEFAULT_DECISION_STATES",
    "DEFAULT_MAX_STATES",
    "DEFAULT_SAMPLES",
    "Chances",
    "Comparison",
    "Decision",
    "Ended",
    "Evaluation",
    "GameRow",
    "Greedy",
    "NoPeek",
    "Oracle",
    "Player",
    "RandomMoves",
    "TreeDecision",
    "TreeSearch",
    "as_choose",
    "chances",
    "compare",
    "deals",
    "evaluate",
    "exhaustive",
    "keeps_winnable",
    "legal_moves",
    "play_game",
    "play_out",
    "play_to_end",
    "plot",
    "stand_in",
    "tally",
]
