"""The collaborators a board is made of, in one typed record: :class:`Parts`, what the intent table
(:mod:`patiencelab.widget.dispatch`) works with beside the session's public methods. The session builds each part
with the collaborators it uses, and gives the intent table all of them here.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from patiencelab.widget.background import Background
from patiencelab.widget.board_indicator import BoardIndicator
from patiencelab.widget.board_lessons import BoardLessons
from patiencelab.widget.caption import Caption
from patiencelab.widget.keeper import RecordKeeper
from patiencelab.widget.review_job import ReviewJob

__all__ = ["Parts"]


@dataclass(frozen=True)
class Parts:
    """The collaborators a board is made of, as its intent handlers use them."""

    #: Held while an intent is applied, and while a worker thread's result is shown.
    lock: threading.RLock
    #: The status line.
    caption: Caption
    #: The lesson shown or recorded, and the player's own game put aside meanwhile.
    lessons: BoardLessons
    #: The board's records.
    keeper: RecordKeeper
    #: The work in worker threads (a review, a quiz answer).
    background: Background
    #: The game's reviews.
    reviews: ReviewJob
    #: The winnability indicator as the board shows it (its solver jobs: ``indicator.indicator``).
    indicator: BoardIndicator
