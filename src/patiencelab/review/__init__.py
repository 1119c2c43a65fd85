"""Game review, in two halves, as a chess coach tells a mistake from bad luck.

**The player's chances** (the fair half, :mod:`patiencelab.review.chances`): at every position of the game the
share of the deals consistent with what the player could see there that can still be won, with its 95%
interval; each move the player made marked when it lowered that chance against the move the fair player
(:class:`~patiencelab.players.NoPeek`) would have played (an inaccuracy, a mistake or a blunder, from drops of 10,
20 and 30 points of 100), or when the cards it turned over did (luck), and the position from which no order of
the face-down cards could be won, when that is proved. Nothing of it depends on the face-down cards: two games
with the same moves whose face-down cards lie in another order get the same chances and marks.

**A second opinion** (the exact half): winnability along a game's history only goes from winnable to lost (a
winning line from a later position is one from the earlier position too), so a search over the history finds the
first move after which this very deal could no longer be won, with a move that would have kept it winnable. The
solver knows every face-down card, so it is no player's judgement: its sentence is labelled "(This is a second
opinion from the solver, which knows the face-down cards.)". A proof of the fair half (lost for every order from
a position) holds for this deal too and spares the solver that position. When the solver cannot decide a
position within its budget, the search goes on around it and the review says what it proved: winnable up to
move a, lost from move b. A review never answers "unknown" alone: the chances and marks are always there.

**Budget.** The chances: ``sample_states`` positions a deal (by default chosen by the rules:
:func:`~patiencelab.review.chances.sample_states_for`) while the positions of the whole game last
(:data:`~patiencelab.review.chances.POSITIONS_PER_SAMPLE` × ``samples``, counted as searched, whatever the game's
length); the second opinion: at most ``ceil(log2(moves + 1)) + 3`` calls of ``max_states`` positions; the verdict
on the losing move: :data:`~patiencelab.review.verdict.POSITIONS_PER_SAMPLE` × ``samples`` positions. State
budgets only, so every machine gives the same review. ``progress`` shows a bar (``True``, tqdm) or is called with
``(done, total)`` (one step per position, and one for the second opinion); ``cancel`` (a
:class:`threading.Event`) stops the review at the next position or solver call of the second opinion or of the
verdict, and at its end, with :class:`~patiencelab.review.chances.ReviewCancelledError`: a review cancelled at any
time gives no result.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from patiencelab.core.cards import Card
from patiencelab.core.errors import ArgumentTypeError, PatienceError
from patiencelab.core.game import Klondike
from patiencelab.core.i18n import card_name, check_language, message
from patiencelab.core.limits import check_budget, check_instance, check_seed, check_states, check_whole
from patiencelab.core.marks import REVIEW_LABELS
from patiencelab.core.moves import Move
from patiencelab.core.narration import move_phrase
from patiencelab.core.view import PlayerView
from patiencelab.lessons.format import Lesson, ReviewChart, Text
from patiencelab.players import Chances
from patiencelab.review.chances import (
    LUCK,
    REVIEW_SAMPLES,
    THRESHOLDS,
    MarkedMove,
    ReviewCancelledError,
    bisect,
    chances_along,
    check_cancel,
    sample_states_for,
)
from patiencelab.review.lesson import lesson_of
from patiencelab.review.verdict import POSITIONS_PER_SAMPLE as VERDICT_POSITIONS
from patiencelab.review.verdict import LossVerdict, judge_loss
from patiencelab.solver import solve
from patiencelab.stats import share_text, wilson
from patiencelab.workers import progress_bar

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from patiencelab.solver import Outcome

__all__ = [
    "CHART_COLORS",
    "DEFAULT_MAX_STATES",
    "GROW",
    "GROWN_CALLS",
    "REVIEW_SAMPLES",
    "LossVerdict",
    "MarkedMove",
    "Review",
    "ReviewCancelledError",
    "ReviewOutcome",
    "review",
]

#: Positions each solver call of the second opinion may search.
DEFAULT_MAX_STATES = 200_000
#: Where the second opinion cannot pin the losing move within its budget, it searches the positions it left
#: undecided again with this many times the positions: :data:`GROWN_CALLS` such calls, or as many as halving the
#: moves still open between the last proved win and the first proved loss takes, if that is more.
GROW = 10
#: The fewest solver calls of the second opinion at the grown budget (:data:`GROW` times its own).
GROWN_CALLS = 2

#: What the second opinion found (see :class:`Review`).
ReviewOutcome = Literal["lost", "never-winnable", "winnable", "won", "unknown"]

#: The colours of the chart's marks (Lichess's for its inaccuracies, mistakes and blunders) and of its line.
CHART_COLORS = {
    "inaccuracy": "#56b4e9",
    "mistake": "#e69f00",
    "blunder": "#d55e00",
    "luck": "#cc79a7",
    "line": "#2563eb",
    "lost": "#9ca3af",
}


@dataclass(frozen=True, slots=True)
class Review:
    """What :func:`review` found.

    The solver's second opinion: ``outcome`` is ``lost`` (``losing`` names the move after which the deal could no
    longer be won), ``never-winnable`` (lost from the start), ``winnable`` (it can still be won from the last
    position), ``won``, or ``unknown`` (the solver could not pin the move within its budget; ``solver_winnable``
    and ``solver_lost`` say how far it got). ``verdicts`` holds each position the solver decided or gave up on, by
    the number of moves played to reach it. ``better`` is a move that keeps the deal winnable from the position
    before the losing move, and ``line`` a whole winning line from there (it starts with ``better``).

    The player's chances: ``chances`` holds one :class:`~patiencelab.players.Chances` per position (``moves + 1``),
    ``marks`` the marked moves (:class:`~patiencelab.review.chances.MarkedMove`), ``lost_from`` the first
    position from which no order of the face-down cards could be won (proved), or ``None``.
    """

    outcome: ReviewOutcome
    moves: int
    verdicts: tuple[tuple[int, Outcome], ...]
    losing: int | None = None
    losing_move: Move | None = None
    better: Move | None = None
    line: tuple[Move, ...] = ()
    calls: int = 0
    #: The whole review in a few sentences, in the language the game had when it was reviewed: the chances, the
    #: marked moves, then the solver's second opinion, labelled as one that knows the face-down cards (but for a
    #: won game).
    text: str = ""
    chances: tuple[Chances, ...] = ()
    marks: tuple[MarkedMove, ...] = ()
    lost_from: int | None = None
    #: The last position the solver proved winnable and the first it (or a proof of the chances) proved lost.
    solver_winnable: int | None = None
    solver_lost: int | None = None
    #: The chances' sentence (the start, the end, how many moves are marked) and the second opinion's sentence.
    summary: str = ""
    second_opinion: str = ""
    #: The solver calls of the chances, and the deals per position.
    sample_calls: int = 0
    samples: int = 0
    #: The sentence that says from which position no order of the face-down cards could be won (proved), or from
    #: which none of the deals tried was won (measured), and that position; or "" and None.
    loss: str = ""
    loss_at: int | None = None
    #: What the move that lost the game (``losing``) was, judged from what the player saw before it: a mistake
    #: (then it is marked too) or bad luck; ``None`` where the second opinion named no losing move.
    verdict: LossVerdict | None = None
    #: The verdict's sentence (from what the player saw, so not labelled as the solver's), or "".
    verdict_text: str = ""

    @property
    def at(self) -> int:
        """The number of moves played to the position the second opinion speaks of: the one before the losing
        move, the start of a deal lost from the start, the last one proved winnable when the move was not pinned,
        or the last one when no move lost it.
        """
        if self.losing is not None:
            return self.losing - 1
        if self.outcome == "never-winnable":
            return 0
        if self.outcome == "unknown" and self.solver_winnable is not None:
            return self.solver_winnable
        return self.moves

    def retold(self, game: Klondike, lang: str) -> Review:
        """The same review with its sentences in ``lang`` (``game`` is the game it reviewed: its moves name the
        cards); nothing is solved again.
        """
        if not isinstance(game, Klondike) or game.moves != self.moves:
            raise PatienceError("retold needs the game the review was made of")
        return _told(game, self, check_language(lang))

    def lesson(self, game: Klondike, *, title: Text) -> Lesson:
        """The lesson of ``game`` (the game this review was made of) as played, told as this review tells it: see
        :func:`patiencelab.review.lesson.lesson_of`.

        >>> game = Klondike(seed=3)
        >>> _ = game.play("d")
        >>> game.review(samples=2, sample_states=200, max_states=2_000).lesson(game, title="Review").steps[0].move
        Move.parse('d')
        """
        if not isinstance(game, Klondike) or game.moves != self.moves:
            raise PatienceError("lesson needs the game the review was made of")
        return lesson_of(game, self, title=title)

    def chart(self) -> ReviewChart:
        """The chart the board draws: the chance at every position, the marks and ``lost_from`` (views only)."""
        return ReviewChart(
            # a position with no deal decided has no estimate: the board draws the band there, and no number
            points=tuple((c.estimate, c.low, c.high) for c in self.chances),
            marks=tuple((m.step, m.move, m.label) for m in self.marks),
            lost_from=self.lost_from,
            opinion=self.at if self.second_opinion else None,
        )

    def plot(self, ax: Axes | None = None, *, lang: str = "en") -> Axes:
        """Draw the chances through the game with matplotlib (the ``plot`` extra): the estimate with its 95% band,
        the marked moves in the board's colours (:data:`CHART_COLORS`) and the stretch lost for every order of the
        face-down cards shaded, its words in ``lang``; a chance nobody could estimate is a gap in the line, and the
        plot says so. On ``ax``, or on a new figure's axes. Returns the axes.
        """
        lang = check_language(lang)
        try:
            from matplotlib.figure import Figure
        except ImportError:
            raise PatienceError("Review.plot needs matplotlib: pip install patiencelab[plot]") from None
        if ax is None:
            ax = Figure(figsize=(8, 3), layout="constrained").subplots()
        elif not callable(getattr(ax, "fill_between", None)):
            raise ArgumentTypeError(f"ax must be matplotlib Axes or None, not {type(ax).__name__}")
        steps = list(range(len(self.chances)))
        ax.fill_between(
            steps, [100 * c.low for c in self.chances], [100 * c.high for c in self.chances], alpha=0.2, linewidth=0,
            color=CHART_COLORS["line"], label=message("review.plot.interval", lang),
        )  # fmt: skip
        shown = [math.nan if c.estimate is None else 100 * c.estimate for c in self.chances]
        ax.plot(steps, shown, color=CHART_COLORS["line"], label=message("review.plot.chance", lang))
        unknown = [k for k, c in enumerate(self.chances) if c.estimate is None]
        if unknown:  # no number where nothing was measured: a gap in the line, and why
            ax.text(
                unknown[0], 50, f"{len(unknown)}: " + message("review.chance-unknown", lang), fontsize="small",
                color=CHART_COLORS["line"],
            )  # fmt: skip
        if self.lost_from is not None:
            ax.axvspan(self.lost_from, max(self.moves, self.lost_from + 0.5), color=CHART_COLORS["lost"], alpha=0.25)
        for label in REVIEW_LABELS:
            marked = [m for m in self.marks if m.label == label]
            if marked:
                ax.scatter(
                    [m.step for m in marked], [shown[m.step] for m in marked],
                    color=CHART_COLORS[label], label=message(f"label.chart-mark.{label}", lang), zorder=3,
                    edgecolors="white",
                )  # fmt: skip
        ax.set_xlim(0, max(self.moves, 1))
        ax.set_ylim(0, 100)
        ax.set_xlabel(message("review.plot.moves", lang))
        ax.set_ylabel(message("review.plot.percent", lang))
        ax.legend(loc="upper right", fontsize="small")
        return ax


def review(
    game: Klondike,
    *,
    max_states: int | None = DEFAULT_MAX_STATES,
    seconds: float = math.inf,
    samples: int = REVIEW_SAMPLES,
    sample_states: int | Literal["rules"] | None = "rules",
    max_calls: int | None = None,
    seed: int = 0,
    progress: bool | Callable[[int, int], None] = False,
    cancel: threading.Event | None = None,
) -> Review:
    """Review ``game``'s history (see the module's docstring); the game is not changed.

    ``samples`` deals per position, each solved within ``sample_states`` positions (``"rules"``: as many as the
    rules need, :func:`~patiencelab.review.chances.sample_states_for`), at most ``max_calls`` calls for the
    chances when given; the second opinion's calls search at most ``max_states`` positions (and ``seconds``).
    Deterministic for a ``seed``.
    """
    check_instance(game, "game", Klondike)
    check_budget(max_states, seconds)
    if sample_states == "rules":
        sample_states = sample_states_for(game.rules)
    check_states(sample_states, "sample_states")
    check_whole(samples, "samples", low=1)
    check_seed(seed)
    if cancel is not None and not isinstance(cancel, threading.Event):
        raise PatienceError(f"cancel must be a threading.Event or None, not {type(cancel).__name__}")
    lang = check_language(game.lang)
    history = game.history
    n = len(history)
    record = game.record()
    start = Klondike.from_record({**record, "moves": []})
    views = [start.player_view()]
    for move in history:
        start.play(move)
        views.append(start.player_view())
    tell, close = _progress(progress, n + 2)
    try:
        along = chances_along(
            views, samples=samples, max_states=sample_states, seed=seed, max_calls=max_calls,
            progress=tell, cancel=cancel,
        )  # fmt: skip
        check_cancel(cancel)
        exact = _SecondOpinion(game, record, along.lost_from, max_states, seconds, cancel).run()
        check_cancel(cancel)
        marks, verdict = along.marks, None
        if exact.losing is not None:
            marks, verdict = _loss_verdict(views, history, exact.losing, marks, samples, sample_states, seed, cancel)
        tell(n + 2, n + 2)
    finally:
        close()
    found = Review(
        exact.outcome,
        n,
        tuple(sorted(exact.outcomes.items())),
        exact.losing,
        history[exact.losing - 1] if exact.losing is not None else None,
        exact.better,
        exact.line,
        exact.calls,
        "",
        along.chances,
        marks,
        along.lost_from,
        exact.winnable,
        exact.lost,
        sample_calls=along.calls,
        samples=samples,
        verdict=verdict,
    )
    return _told(game, found, lang)


def _loss_verdict(
    views: list[PlayerView],
    history: tuple[Move, ...],
    losing: int,
    marks: tuple[MarkedMove, ...],
    samples: int,
    sample_states: int | None,
    seed: int,
    cancel: threading.Event | None = None,
) -> tuple[tuple[MarkedMove, ...], LossVerdict]:
    """The verdict on move ``losing`` and the marks that agree with it: a mark of the chances on that move is the
    verdict; else the move is judged (:func:`~patiencelab.review.verdict.judge_loss`) and marked when a mistake.
    """
    mark = next((m for m in marks if m.move == losing), None)
    if mark is not None:
        n = mark.samples

        def count(share: float | None) -> int:
            return round((share or 0.0) * n)

        if mark.label == "luck":
            return marks, LossVerdict("luck", n, count(mark.before), count(mark.after), None, 0)
        kind: Literal["mistake"] = "mistake"
        return marks, LossVerdict(
            kind, n, count(mark.before), count(mark.after), mark.better, count(mark.kept), mark.label
        )
    verdict = judge_loss(
        views[losing - 1], history[losing - 1], samples=samples, max_states=sample_states, seed=seed,
        max_positions=VERDICT_POSITIONS * samples, cancel=cancel,
    )  # fmt: skip
    if verdict.kind == "mistake" and verdict.samples:
        n = verdict.samples
        added = MarkedMove(
            losing, verdict.label or "inaccuracy", history[losing - 1], verdict.won / n, verdict.mine / n,
            verdict.better, verdict.kept / n, samples=n,
        )  # fmt: skip
        marks = tuple(sorted((*marks, added), key=lambda m: m.move))
    return marks, verdict


def _progress(
    progress: bool | Callable[[int, int], None], total: int
) -> tuple[Callable[[int, int], None], Callable[[], None]]:
    """A function told ``(done, total)`` and one that ends the bar: tqdm's for ``True``, the caller's own."""
    if progress is True:
        bar = progress_bar(total=total, unit="position", desc="review", smoothing=0.05)

        def tell(done: int, _total: int) -> None:
            bar.update(done - bar.n)

        return tell, bar.close
    if progress is False or progress is None:
        return lambda done, total: None, lambda: None
    if not callable(progress):
        raise PatienceError(f"progress must be True, False or a function of (done, total), not {progress!r}")
    call = progress
    return lambda done, _total: call(done, total), lambda: None


# ------------------------------------------------------------------------------------------ the second opinion


class _SecondOpinion:
    """The solver's search over the history for the move that lost this very deal (it knows every card)."""

    def __init__(
        self,
        game: Klondike,
        record: dict[str, Any],
        lost_from: int | None,
        max_states: int | None,
        seconds: float,
        cancel: threading.Event | None = None,
    ) -> None:
        self.game, self.record, self.cancel = game, record, cancel
        self.history = game.history
        self.n = len(self.history)
        self.fair_lost = lost_from
        self.max_states, self.seconds = max_states, seconds
        self.outcomes: dict[int, Outcome] = {}
        self.solutions: dict[int, tuple[Move, ...]] = {}
        self.outcome: ReviewOutcome = "unknown"
        self.losing: int | None = None
        self.better: Move | None = None
        self.line: tuple[Move, ...] = ()
        self.winnable: int | None = None
        self.lost: int | None = None

    @property
    def calls(self) -> int:
        return len(self.outcomes)

    def decide(self, k: int) -> Outcome:
        check_cancel(self.cancel)  # before each solver call: a cancel waits for one call at most
        position = Klondike.from_record({**self.record, "moves": [str(m) for m in self.history[:k]]})
        found = solve(position.snapshot(), position.rules, seconds=self.seconds, max_states=self.max_states)
        self.outcomes[k] = found.outcome
        self.solutions[k] = found.moves
        return found.outcome

    def run(self) -> _SecondOpinion:
        n = self.n
        if self.game.is_won:
            self.outcome, self.winnable = "won", n
            return self
        known: dict[int, Outcome] = {}  # the solver's verdicts and the chances' proof, which holds here too
        if self.fair_lost is not None:
            known[self.fair_lost] = "impossible"
        elif self.decide(n) == "solved":
            self.outcome, self.winnable = "winnable", n
            return self
        else:
            known[n] = self.outcomes[n]

        def probe(k: int) -> Outcome:
            known[k] = self.decide(k)
            return known[k]

        bisect(known, 0, n, probe, math.ceil(math.log2(n + 1)) + 2)
        self.conclude(known)
        if self.outcome == "unknown" and self.max_states is not None:  # undecided positions: a larger search
            self.max_states *= GROW
            for k in [k for k, o in known.items() if o == "unknown"]:
                del known[k]
            lost = n + 1 if self.lost is None else self.lost
            still_open = lost - (-1 if self.winnable is None else self.winnable) - 1
            bisect(known, 0, n, probe, max(GROWN_CALLS, math.ceil(math.log2(still_open + 1))))
            self.conclude(known)
        return self

    def conclude(self, known: dict[int, Outcome]) -> None:
        """What the verdicts ``known`` say: the losing move where a win is followed by a loss, or how far it got."""
        won = [k for k, o in known.items() if o == "solved"]
        lost = [k for k, o in known.items() if o == "impossible"]
        self.winnable = max(won) if won else None
        self.lost = min(lost) if lost else None
        if self.lost == 0:
            self.outcome = "never-winnable"
        elif self.winnable is not None and self.lost == self.winnable + 1:
            self.outcome, self.losing = "lost", self.lost
            self.line = self.solutions[self.winnable]
            self.better = self.line[0]


def _opinion(found: Review, replays: _Replays, lang: str) -> str:
    """The second opinion's sentence, labelled as the solver's (none for a won game)."""
    if found.outcome == "won":
        return ""
    if found.outcome == "winnable":
        return _peeking(message("review.winnable", lang), lang)
    if found.outcome == "never-winnable":
        return _peeking(message("review.never", lang), lang)
    if found.outcome == "lost":
        assert found.losing is not None and found.losing_move is not None and found.better is not None
        before = replays.at(found.losing - 1)
        after = move_phrase(before, found.losing_move, "review.after")
        lost = message("review.lost", lang, after=after, number=found.losing)
        better = message("review.better", lang, move=move_phrase(before, found.better, "review.move"))
        return _peeking(f"{lost} {better}", lang)
    a, b = found.solver_winnable, found.solver_lost
    if a is not None and b is not None:
        text = message("review.between", lang, winnable=_after_move(a, lang), lost=_after_move(b, lang))
    elif a is not None:
        text = message("review.winnable-until", lang, winnable=_after_move(a, lang))
    elif b is not None:
        text = message("review.lost-after", lang, lost=_after_move(b, lang))
    else:
        text = message("review.unknown", lang)
    return _peeking(text, lang)


def _verdict_text(verdict: LossVerdict, before: Klondike, lang: str) -> str:
    """Whether the losing move was a mistake or bad luck, from what the player saw before it, with its numbers."""
    counts = {"samples": verdict.samples, "mine": verdict.mine, "kept": verdict.kept}
    if verdict.bounded and verdict.undecided:  # the deals not lost before: those won, and those left undecided
        counts["kept"] = verdict.won
        return message("review.verdict.luck-bound-open", lang, **counts, undecided=verdict.undecided)
    if verdict.bounded:
        return message("review.verdict.luck-bound", lang, **counts)
    if verdict.better is None:
        return message("review.verdict.only-move", lang)
    better = move_phrase(before, verdict.better, "review.move")
    if verdict.kind == "unknown":
        key = "review.verdict.unclear" if verdict.undecided == 0 else "review.verdict.unknown"
        return message(key, lang, better=better, **counts)
    key = f"review.verdict.{verdict.label}" if verdict.kind == "mistake" else "review.verdict.luck"
    return message(key, lang, better=better, **counts)


def _after_move(k: int, lang: str) -> str:
    return message("review.at-start", lang) if k == 0 else message("review.after-move", lang, number=k)


def _peeking(text: str, lang: str) -> str:
    """``text``, a verdict of the solver, labelled as one that knows the face-down cards."""
    return f"{text} {message('review.peeks', lang)}"


# ------------------------------------------------------------------------------------------ the sentences


class _Replays:
    """The game at any position of its history, in the review's language (for naming the cards of a move)."""

    def __init__(self, record: dict[str, Any], history: tuple[Move, ...], lang: str) -> None:
        self.record, self.history, self.lang = record, history, lang

    def at(self, k: int) -> Klondike:
        game = Klondike.from_record({**self.record, "moves": [str(m) for m in self.history[:k]]})
        game.lang = self.lang
        return game


def _percent(share: float, samples: int, lang: str) -> str:
    """A share of ``samples`` deals in words, with its 95% interval where that is wide (see :func:`share_text`)."""
    if samples <= 0:
        return share_text(share, share, share, lang=lang, digits=0, always=False)
    interval = wilson(round(share * samples), samples)
    return share_text(share, interval.low, interval.high, lang=lang, digits=0, always=False)


def _cards(cards: tuple[Card, ...], lang: str) -> str:
    names = [card_name(c, lang) for c in cards]
    if len(names) < 2:
        return "".join(names)
    return message("review.and", lang, rest=", ".join(names[:-1]), last=names[-1])


def _with_text(mark: MarkedMove, replays: _Replays, chances: tuple[Chances, ...], lang: str) -> MarkedMove:
    """``mark`` with its sentence (a choice that turned up cards that brought the chances back says so)."""
    before, after = _percent(mark.before, mark.samples, lang), _percent(mark.after, mark.samples, lang)
    if mark.label == "luck":
        if mark.column is not None:
            text = message(
                "review.mark.luck-turned", lang, number=mark.move, card=mark.turned[0], column=mark.column,
                before=before, after=after,
            )  # fmt: skip
        else:
            text = message(
                "review.mark.luck-drew", lang, number=mark.move, cards=_cards(mark.turned, lang), before=before,
                after=after,
            )  # fmt: skip
    else:
        assert mark.better is not None and mark.kept is not None
        game = replays.at(mark.move - 1)
        text = message(
            f"review.mark.{mark.label}", lang, number=mark.move, played=move_phrase(game, mark.played, "review.move"),
            before=before, after=after, better=move_phrase(game, mark.better, "review.move"),
            kept=_percent(mark.kept, mark.samples, lang),
        )  # fmt: skip
        now = chances[mark.move]
        if mark.turned and now.estimate is not None and now.estimate >= mark.after + LUCK:
            text += " " + message("review.mark.rescued", lang, cards=_cards(mark.turned, lang), now=now.text(lang))
    return replace(mark, text=text)


def _told(game: Klondike, found: Review, lang: str) -> Review:
    """``found`` with every sentence in ``lang``: the summary, each mark's, the loss and the second opinion."""
    replays = _Replays(game.record(), game.history, lang)
    marks = tuple(_with_text(m, replays, found.chances, lang) for m in found.marks)
    summary = _summary(game.is_won, found.chances, marks, lang)
    opinion = _opinion(found, replays, lang)
    lost, at = _lost_text(found.chances, found.lost_from, marks, lang)
    verdict = ""
    if found.verdict is not None and found.losing is not None and found.outcome == "lost":
        verdict = _verdict_text(found.verdict, replays.at(found.losing - 1), lang)
    text = " ".join(t for t in (summary, *(m.text for m in marks), lost, opinion, verdict) if t)
    return replace(
        found, text=text, marks=marks, summary=summary, second_opinion=opinion, loss=lost, loss_at=at,
        verdict_text=verdict,
    )  # fmt: skip


def _summary(won: bool, chances: tuple[Chances, ...], marks: tuple[MarkedMove, ...], lang: str) -> str:
    """The chances' headline: a won game, or the chance at the start and at the end and the marked moves."""
    if won:
        return message("review.won", lang)
    start, end = chances[0].text(lang), chances[-1].text(lang)
    text = message("review.summary", lang, start=start, end=end, count=len(marks))
    if not any(m.label != "luck" for m in marks):
        text += " " + message("review.no-mistakes", lang, points=round(100 * THRESHOLDS["inaccuracy"]))
    return text


def _lost_text(
    chances: tuple[Chances, ...], lost: int | None, marks: tuple[MarkedMove, ...], lang: str
) -> tuple[str, int | None]:
    """From which move no order of the face-down cards could be won (proved), or from which none of the deals
    tried was won (measured), and that position; or nothing.
    """
    if lost is not None:
        if lost == 0:
            return message("review.lost-from-start", lang), 0
        text = message("review.lost-from", lang, number=lost)
        if any(m.label == "luck" and m.move == lost for m in marks):
            text += " " + message("review.lost-luck", lang)
        return text, lost
    if chances[-1].won or chances[-1].samples == 0:
        return "", None
    k = len(chances) - 1
    while k > 0 and chances[k - 1].won == 0:
        k -= 1
    key = "review.none-found-start" if k == 0 else "review.none-found"
    return message(key, lang, number=k, samples=chances[k].samples), k
