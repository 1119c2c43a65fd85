"""The board's protocol, without any widget library: the state Python sends and the replies it gives (see
``docs/widget-protocol.md``; the TypeScript types are in ``js/types.ts``). The intents' vocabulary and their checks
live in :mod:`patiencelab.widget.intents`.

Everything here is a pure function of a game and the board's options, so it is tested without anywidget and
without a built front end; :class:`~patiencelab.widget.session.BoardSession` calls it, and
:class:`~patiencelab.widget.board.KlondikeWidget` only wires the session to traitlets.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from patiencelab.core.cards import Card
from patiencelab.core.game import Change, Klondike, Played
from patiencelab.core.i18n import language_names
from patiencelab.core.marks import move_piles, pile_of
from patiencelab.core.moves import DRAW, RECYCLE, Move
from patiencelab.widget.state import (
    AutoplayState,
    BoardState,
    GameState,
    IndicatorState,
    LastMove,
    LessonState,
    Message,
    RecordsState,
    RecordState,
    ReviewState,
    ViewState,
)

__all__ = [
    "board_state",
    "hint_reply",
    "last_move",
    "move_ends",
    "synced_state",
]


# ------------------------------------------------------------------------------------------------ piles


def move_ends(move: Move, cards: list[str]) -> tuple[str, str]:
    """Where ``move`` takes its cards from and puts them, as piles (a draw goes from the stock to the waste)."""
    return move_piles(move, cards[0] if cards else None)


# ------------------------------------------------------------------------------------------------ state


def board_state(game: Klondike, *, reveal: bool, show_moves: bool, lang: str) -> dict[str, Any]:
    """The part of the synced state that follows from the game and the board's options: the view (face-down
    cards as ``null`` unless ``reveal``), what may be picked up and where it may go, the rules and the
    languages. One pass over the legal moves serves the targets, the status and the stock's buttons.
    """
    return cast(dict[str, Any], _board_part(game, reveal=reveal, show_moves=show_moves, lang=lang))


def _board_part(game: Klondike, *, reveal: bool, show_moves: bool, lang: str) -> BoardState:
    """:func:`board_state`, typed."""
    legal = game.legal_moves()
    view = cast(ViewState, game.view(reveal=reveal))
    rules = game.rules
    return {
        **view,
        "seconds": round(game.seconds, 3),
        "clock_running": view["status"] == "playing",
        "can_draw": DRAW in legal,
        "can_recycle": RECYCLE in legal,
        "can_autocomplete": game.can_autocomplete,
        "targets": _targets(game),
        "pickable": _pickable(game),
        "rules": {
            "preset": rules.preset_name,
            "draw": rules.draw,
            "max_passes": rules.max_passes,
            "foundation_to_tableau": rules.foundation_to_tableau,
            "scoring": rules.scoring.name,
        },
        "reveal": reveal,
        "show_moves": show_moves,
        "lang": lang,
        "languages": [list(pair) for pair in language_names()],
        "rules_text": rules.describe(lang),
    }


def synced_state(
    game: Klondike,
    *,
    reveal: bool,
    show_moves: bool,
    lang: str,
    last_move: LastMove | None,
    message: Message | None,
    lesson: LessonState | None,
    indicator: IndicatorState,
    stats: RecordsState,
    recording: RecordState | None,
    review: ReviewState,
    autoplay: AutoplayState,
    version: int,
) -> GameState:
    """The whole synced state (``GameState`` of ``js/protocol.schema.json``): :func:`board_state` and the
    board's own parts, the last move, the caption's message, the lesson, the indicator, the statistics
    (``stats``), the lesson being recorded (``recording``), the review's button, the automatic player, and the
    version. The only place it is assembled.
    """
    return {
        **_board_part(game, reveal=reveal, show_moves=show_moves, lang=lang),
        "last_move": last_move,
        "message": message,
        "lesson": lesson,
        "indicator": indicator,
        "stats": stats,
        "recording": recording,
        "review": review,
        "autoplay": autoplay,
        "version": version,
    }


def _targets(game: Klondike) -> dict[str, list[str]]:
    """Every card that can move now (the lead of what moves) and the piles it may go to: ``t3``, ``fH``."""
    targets: dict[str, list[str]] = {}
    for move, lead in game.legal_leads():
        card = str(lead)
        piles = targets.setdefault(card, [])
        pile = pile_of(move.target, card)
        if pile not in piles:
            piles.append(pile)  # type: ignore[arg-type] # a card move always has a target
    return targets


def _pickable(game: Klondike) -> list[str]:
    """The cards a player may pick up (a drop where one may not go is answered with the reason): every
    face-up card of a column, the top card of the waste and of each foundation; none once the game is won.
    """
    if game.is_won:
        return []
    cards = [card for column in game.tableau for card in column.up]
    cards += game.waste[-1:]
    cards += [Card(rank, suit) for suit, rank in game.foundations.items() if rank]
    return [str(card) for card in cards]


def last_move(change: Change, words: Mapping[str, str]) -> LastMove | None:
    """The single action of ``change`` (played, redone or taken back) as the board animates and reads it: the
    move, the cards, the piles it went from and to, and the sentence for the live region in the board's
    language (``words`` are the board's labels); ``None`` for a reset or several actions at once.
    """
    played = change.last
    if played is None:
        return None
    move, undo = played.move, change.kind == "undo"
    cards = [] if move.is_draw or move.is_recycle else [str(c) for c in played.cards]
    ends = list(move_ends(move, cards))
    if undo:
        ends.reverse()
    return {
        "move": str(move),
        "cards": cards,
        "from": ends[0],
        "to": ends[1],
        "undo": undo,
        "text": _move_text(change.game, played, undo, ends[1], words),
    }


def _move_text(game: Klondike, played: Played, undo: bool, to: str, words: Mapping[str, str]) -> str:
    """ "5 of Hearts to Column 3", "Draw: Ace of Clubs", "Undo: ..." in the board's words."""
    move = played.move

    def name(card: Card) -> str:
        rank = words.get(f"rank.{card.rank}", str(card.rank)) if card.rank in (1, 11, 12, 13) else str(card.rank)
        return words.get("of", "{rank} {suit}").format(rank=rank, suit=words.get(f"suit.{card.suit.value}", ""))

    def place(pile: str) -> str:
        if pile in ("stock", "w"):
            return words.get("stock" if pile == "stock" else "waste", pile)
        if pile[0] == "t":
            return f"{words.get('column', 'Column')} {pile[1:]}"
        return f"{words.get('foundation', 'Foundation')} {words.get(f'suit.{pile[1]}', pile[1])}"

    prefix = f"{words.get('undo', 'Undo')}: " if undo else ""
    if move.is_recycle or (move.is_draw and undo):
        return prefix + words.get("recycle" if move.is_recycle else "draw", str(move))
    if move.is_draw:
        return f"{words.get('draw', 'Draw')}: {name(game.waste[-1])}" if game.waste else words.get("draw", "d")
    return prefix + words.get("moved-to", "{card} to {place}").format(card=name(played.cards[0]), place=place(to))


def hint_reply(
    game: Klondike, intent_id: int | None, *, max_states: int | None, seconds: float, samples: int = 16
) -> dict[str, Any] | None:
    """The reply to a ``hint`` intent: the fair hint (from the player's view only, ``samples`` deals of the
    unseen cards each solved within ``max_states`` positions), the card and pile to highlight, and the reason in
    words; ``None`` when no move is legal.
    """
    from patiencelab.core.narration import hint_text
    from patiencelab.hints import find_fair_hint

    hint = find_fair_hint(game, samples=samples, max_states=max_states, seconds=seconds)
    if hint is None:
        return None
    move = hint.move
    cards = game.moving_cards(move)
    return {
        "type": "hint",
        "id": intent_id,
        "move": str(move),
        "card": str(cards[0]) if cards else None,
        "to": move_ends(move, [str(cards[0])])[1] if cards else "stock",
        "reason": hint.reason,
        "text": hint_text(game, hint),
    }
