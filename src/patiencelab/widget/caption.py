"""The board's status line: :class:`Caption`, the one message a board shows (a move told, a notice), who said
it, and how to say it again when the board's language changes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from patiencelab.core.game import Change
from patiencelab.core.i18n import message
from patiencelab.core.narration import move_phrase, narrate_played
from patiencelab.widget.state import Message, MessageKind

__all__ = ["Caption", "narration"]


class Caption:
    """The message on a board's status line (``message``: the synced state's ``message``, or ``None``), in the
    board's language ``lang`` (see :meth:`say_again`).
    """

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang
        self.message: Message | None = None
        #: How to say the message shown in another language (``None``: it goes when the language changes), and
        #: whose message it is (the work that clears it when done, see :meth:`unsay`).
        self._again: Callable[[str], str | None] | None = None
        self._said_by: object = None
        self._id = 0

    def say(
        self, kind: MessageKind, text: str, again: Callable[[str], str | None] | None = None, *, by: object = None
    ) -> None:
        """Show ``text`` on the status line. ``again`` says it in another language, for a change of the board's
        language (without it, the message goes then: it would stay in the old language); ``by`` is whose it is
        (see :meth:`unsay`).
        """
        self._id += 1
        self.message = {"id": self._id, "kind": kind, "text": text}
        self._again, self._said_by = again, by

    def notice(self, key: str, *, by: object = None, **params: Any) -> None:
        """Show the catalogue's sentence ``key`` as an info message, said again in a new language."""
        self.say("info", message(key, self.lang, **params), lambda other: message(key, other, **params), by=by)

    def unsay(self, by: object) -> None:
        """Clear the message that ``by`` said, if it is still shown (in whatever language it is now)."""
        if self.message is not None and self._said_by is by:
            self.message, self._again, self._said_by = None, None, None

    def say_again(self, lang: str) -> None:
        """The board's language changed to ``lang``: the message is said in it (a new id, so the board reads it
        out), or goes.
        """
        self.lang = lang
        if self.message is None:
            return
        again = self._again
        text = again(lang) if again is not None else None
        if text is None:
            self.message, self._again, self._said_by = None, None, None
        else:
            self.say(self.message["kind"], text, again, by=self._said_by)


def narration(change: Change, lang: str) -> str:
    """The sentence that tells the single action of ``change`` (a move played, redone or taken back) in ``lang``."""
    played = change.last
    assert played is not None
    if change.kind == "undo":  # the game is back where the move was made: the move is told from there
        return message("narrate.undo", lang, move=move_phrase(change.game, played.move))
    return narrate_played(change.game, played)
