"""Every order of a board's background work against the player's hands: a deterministic scheduler.

The board runs its background work through a runner (``BoardSession(runner=...)``) and its indicator through an
executor; here both keep the work instead of running it, and the host's thread (the kernel's) runs what workers
hand it only when the test says. Each schedule, drawn from a seeded generator, interleaves the player's actions
(a move by hand, a stale move, undo, a new game, a change of language, a lesson opened and closed, a hint, the
indicator switched, a review started and cancelled, the automatic player started and stopped, the offer to
continue a game taken or declined, the same game shown again, the records set again (the same database under
another name, another one, none), another board of the kernel opened, which may be offered the board's game, and
its offer taken or declined) with the background's steps (the automatic player's look and turn, a review's
progress and result, a verdict of the indicator) in random order. After every step:

- no move is played in the background after a stop or after the player's hand changed the game;
- no stale result is applied: a review's result only for the game it was started on, not cancelled; a verdict
  only for the position shown;
- every message and every rejection is a sentence of the board's language's catalogue;
- the boards that show an offer to continue a game are the boards the records hold an offer for: an offer is
  withdrawn the moment its game is stored or taken;

and when the schedule ends, the records (every database the board was given) hold each game once and never a
lesson's (the synced states are checked against the protocol's schema by ``tests/conftest.py``). No step waits for
the clock.

The number of schedules and the generator's seed come from ``tests/sweeps.py`` (``make test``: 300; ``pytest
--soak``, as ``make soak`` runs it: 2,000, seeded by ``--soak-seed``).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import functools
import json
import pathlib
import random
import sqlite3
import zlib
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from patiencelab import Klondike
from patiencelab.core.i18n import LANGUAGES, catalogue
from patiencelab.lessons import Lesson
from patiencelab.players import RandomMoves
from patiencelab.records import Records
from patiencelab.widget.session import BoardSession
from tests.catalogue_words import in_catalogue
from tests.sweeps import SCHEDULES
from tests.sweeps import SCHEDULES_SEED as SEED

from .session_helpers import QueueHost

#: Steps in one schedule before the board is drained and closed.
STEPS = 24
#: Small budgets: the hint's and the review's solver calls are real, and quick.
OPTIONS = {
    "hint_samples": 1,
    "hint_max_states": 100,
    "review_samples": 1,
    "review_sample_max_states": 50,
    "review_max_states": 300,
}
#: The game a board that is gone left in play: offered to every board of the schedule's records.
OFFERED_SEED = 4242
#: The deal the lesson of the schedules starts from (a position: its games have no seed).
LESSON_SEED = 31


class QuickRecords(Records):
    """Records on one connection that does not wait for the disk: the schedules store thousands of games, and
    what is checked is which games the board stores, not the disk.
    """

    _shared: sqlite3.Connection | None = None

    def __init__(self, path: pathlib.Path, *, twin_of: QuickRecords | None = None) -> None:
        """``twin_of``: the same database under another name (``path``), on its connection."""
        self._twin = twin_of is not None
        self._shared = twin_of._shared if twin_of is not None else None
        super().__init__(path)

    @contextlib.contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        if self._shared is None:
            self._shared = sqlite3.connect(self.path, isolation_level=None)
            self._shared.execute("PRAGMA synchronous = OFF")
            self._shared.execute("PRAGMA journal_mode = MEMORY")
        yield self._shared

    def close(self) -> None:
        if self._shared is not None and not self._twin:
            self._shared.close()

    def offers(self) -> int:
        """How many games in play are offered to a board."""
        with self._connect() as connection:
            return int(connection.execute("SELECT COUNT(*) FROM in_play WHERE offered_to IS NOT NULL").fetchone()[0])


class StepRunner:
    """A runner that keeps each piece of work; the scheduler runs them one at a time, in the order it picks."""

    def __init__(self) -> None:
        self.work: list[tuple[str, Callable[[], None]]] = []

    def start(self, name: str, work: Callable[[], None], *, delay: float = 0.0, wake: Any = None) -> None:
        self.work.append((name, work))

    def join(self, timeout: float, names: tuple[str, ...] | None = None) -> bool:
        return not any(names is None or name in names for name, _ in self.work)


class StepPool(concurrent.futures.Executor):
    """The indicator's worker: each job waits until the scheduler hands it its verdict (a fixed one per
    position, see :func:`verdict_of`).
    """

    def __init__(self) -> None:
        self.jobs: list[tuple[concurrent.futures.Future[Any], str]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        position, rules = args[0], args[1]
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self.jobs.append((future, json.dumps([position, rules], sort_keys=True)))
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        for future, _ in self.jobs:
            future.cancel()


def verdict_of(key: str) -> str:
    """The solver's fixed answer for a position in these schedules."""
    return ("solved", "impossible", "unknown")[zlib.crc32(key.encode()) % 3]


def position_key(game: Klondike) -> str:
    return json.dumps([game.position_json(), game.rules.to_json()], sort_keys=True)


_SHOWN = {"solved": "winnable", "impossible": "lost", "unknown": "unknown"}


class Schedule:
    """One board, its records, and the player's and the background's steps in the order a generator picks."""

    def __init__(self, rng: random.Random, folder: pathlib.Path) -> None:
        self.rng = rng
        self.records = QuickRecords(folder / "records.db")
        self.folder = folder
        #: The same database under another name, and another database, for the board to be given (opened when
        #: first given).
        self.twin: QuickRecords | None = None
        self.elsewhere: QuickRecords | None = None
        #: Other boards of the kernel (a page reloaded and the cell run again): they only take or decline offers.
        self.others: list[BoardSession] = []
        offered = Klondike(seed=OFFERED_SEED)
        for _ in range(2):
            offered.play(offered.legal_moves()[0])
        self.records.keep("a-board-that-is-gone", offered)
        self.host, self.runner, self.pool = QueueHost(), StepRunner(), StepPool()
        self.board = BoardSession(
            host=self.host,
            records=self.records,
            runner=self.runner,
            executor=lambda: self.pool,
            options={**OPTIONS, "indicator": rng.random() < 0.7},
        )
        assert self.board.state["stats"]["resume"] is not None, "the game left in play is offered"
        self.seeds = {OFFERED_SEED}
        self.next_seed = 100
        self.new_game_by_python()
        #: Whether the automatic player may still play (started, and not stopped by a stop or a hand).
        self.may_play = False
        #: The review running: the game and history it was started on, and whether it was cancelled.
        self.review: tuple[Klondike, tuple[Any, ...], bool] | None = None
        self.log: list[str] = []

    # -------------------------------------------------------------------------------------------- helpers

    def new_seed(self) -> int:
        self.next_seed += 1
        self.seeds.add(self.next_seed)
        return self.next_seed

    def new_game_by_python(self) -> None:
        self.board.new_game(seed=self.new_seed())

    def intent(self, kind: str, **fields: Any) -> dict[str, Any] | None:
        reply = self.board.handle_intent({"type": kind, "version": self.board.version, **fields})
        if reply is not None and reply["type"] == "rejected":
            self.check_words(reply["text"], f"rejected {kind}")
        if reply is not None and reply["type"] == "hint":
            self.check_words(reply["text"], "hint")
        return reply

    def check_words(self, text: str, what: str, lang: str | None = None) -> None:
        lang = lang or self.board.lang
        assert in_catalogue(text, lang), f"{what} not in the {lang} catalogue: {text!r}"

    # -------------------------------------------------------------------------------------- the player

    def actions(self) -> list[tuple[str, Callable[[], Any]]]:
        """The player's actions now; some more than once (the player; a review when offered, its cancel while it
        runs), so that the schedules reach them often.
        """
        board, rng = self.board, self.rng
        game = board.game
        acts: list[tuple[str, Callable[[], Any]]] = []
        legal = game.legal_moves()
        card_moves = [m for m in legal if not (m.is_draw or m.is_recycle)]
        if card_moves:
            move = rng.choice(card_moves)
            card, to = str(move).split("-")
            acts.append(("move", lambda: self.intent("move", card=card, to=to)))
        acts.append(("stale move", self.stale_move))
        acts.append(("draw", lambda: self.intent("draw")))
        acts.append(("undo", lambda: self.intent("undo")))
        acts.append(("new", lambda: self.intent("new", seed=self.new_seed())))
        acts.append(("lang", lambda: self.intent("lang", lang=rng.choice(LANGUAGES))))
        acts.append(("hint", lambda: self.intent("hint")))
        acts.append(("indicator", lambda: self.intent("indicator", on=not board.options["indicator"])))
        review = board.state["review"]
        acts += [("review", lambda: self.intent("review"))] * (6 if review["offered"] else 1)
        acts += [("cancel review", lambda: self.intent("review", action="cancel"))] * (6 if review["busy"] else 1)
        acts += [("autoplay", self.start_autoplay)] * 2
        acts.append(("stop autoplay", lambda: self.intent("autoplay", action="stop")))
        acts.append(("stop autoplay (Python)", board.stop_autoplay))
        acts.append(("resume", lambda: self.intent("resume", accept=rng.random() < 0.5)))
        acts.append(("same game", self.same_game))
        acts.append(("records again", self.records_again))
        if len(self.others) < 2:
            acts.append(("another board", self.another_board))
        if self.others:
            acts.append(("other board's offer", self.others_offer))
        acts.append(("lesson", self.open_lesson))
        acts.append(("lesson step", lambda: self.intent("lesson", action=rng.choice(["forward", "back", "last"]))))
        acts.append(("lesson close", lambda: self.intent("lesson", action="close")))
        return acts

    def same_game(self) -> None:
        """``board.game = board.game``: nothing changes (a lesson's game is not the player's: not then)."""
        board = self.board
        if board.lesson is not None:
            return
        state = json.dumps(board.state)
        board.game = board.game
        assert json.dumps(board.state) == state, "the same game shown again changed the board"

    def records_again(self) -> None:
        """The board is given its records again (the same database, under either name), another one, or none."""
        choice = self.rng.choice(["records", "twin", "twin", "elsewhere", None])
        if choice == "twin" and self.twin is None:
            (self.folder / "alias").symlink_to(self.folder, target_is_directory=True)
            self.twin = QuickRecords(self.folder / "alias" / "records.db", twin_of=self.records)
        if choice == "elsewhere" and self.elsewhere is None:
            self.elsewhere = QuickRecords(self.folder / "elsewhere.db")
        self.board.records = getattr(self, choice) if choice is not None else None

    def databases(self) -> list[QuickRecords]:
        """The databases the board was given (the same one under two names counts once)."""
        return [self.records] if self.elsewhere is None else [self.records, self.elsewhere]

    def another_board(self) -> None:
        lang = self.rng.choice(LANGUAGES)
        other = BoardSession(records=self.records, runner=self.runner, lang=lang, options={"indicator": False})
        self.others.append(other)

    def others_offer(self) -> None:
        other = self.rng.choice(self.others)
        reply = other.handle_intent({"type": "resume", "accept": self.rng.random() < 0.5, "version": other.version})
        if reply is not None:
            self.check_words(reply["text"], "other board's resume", other.lang)

    def start_autoplay(self) -> None:
        try:
            self.board.autoplay(RandomMoves(seed=self.rng.randrange(1000)), pace=0.5, max_moves=self.rng.randint(1, 6))
        except Exception as err:  # during a lesson: refused, in the board's language
            self.check_words(str(err), "autoplay refused")
            return
        self.may_play = True

    def open_lesson(self) -> None:
        if self.rng.random() < 0.5:
            start = Klondike(seed=LESSON_SEED)
            moves = []
            for _ in range(3):
                move = start.legal_moves()[0]
                moves.append(move)
                start.play(move)
            self.board.lesson = Lesson.from_moves(Klondike(seed=LESSON_SEED), moves, "Lesson")
        else:
            legal = self.board.game.legal_moves()
            if self.board.lesson is None and legal:
                self.board.step_through(legal[:1])

    def stale_move(self) -> None:
        board = self.board
        legal = [m for m in board.game.legal_moves() if not (m.is_draw or m.is_recycle)]
        if not legal or board.version == 0:
            return
        card, to = str(legal[0]).split("-")
        reply = board.handle_intent({"type": "move", "version": board.version - 1, "card": card, "to": to})
        assert reply is not None and reply["type"] == "rejected"
        self.check_words(reply["text"], "stale move")

    # ----------------------------------------------------------------------------------- the background

    def background(self) -> list[tuple[str, Callable[[], Any]]]:
        steps: list[tuple[str, Callable[[], Any]]] = []
        for index, (name, _) in enumerate(self.runner.work):
            steps.append((f"work {name}", functools.partial(self.work, index)))
        for index in range(len(self.host.queue)):
            steps.append(("kernel", functools.partial(self.kernel, index)))
        for index, (future, _) in enumerate(self.pool.jobs):
            if not future.done():
                steps.append(("verdict", functools.partial(self.verdict, index)))
        return steps

    def work(self, index: int) -> None:
        self.runner.work.pop(index)[1]()

    def kernel(self, index: int) -> None:
        self.host.queue.pop(index)()

    def verdict(self, index: int) -> None:
        future, key = self.pool.jobs.pop(index)
        if future.set_running_or_notify_cancel():
            future.set_result(verdict_of(key))

    # ------------------------------------------------------------------------------------ the invariants

    def step(self, hand: bool, name: str, act: Callable[[], Any]) -> None:
        board = self.board
        game, history = board.game, board.game.history
        busy_before = board.state["review"]["busy"]
        lesson_before = board.state["lesson"]
        self.log.append(name)
        act()
        changed = board.game is not game or board.game.history != history
        if hand:
            if changed:
                self.may_play = False  # a hand (or another game) stops the player
            if name in ("stop autoplay", "stop autoplay (Python)"):
                self.may_play = False
            if not busy_before and board.state["review"]["busy"]:
                self.review = (game, history, False)
            if name == "cancel review" and self.review is not None:
                self.review = (*self.review[:2], True)
        else:
            if board.game is game and board.game.history != history:
                assert self.may_play, f"a move played in the background after a stop or a hand: {self.log}"
                assert board.game.history[:-1] == history, "one move at a time"
            if board.game is not game and board.state["lesson"] is not None and lesson_before is None:
                assert board.state["lesson"]["review"], "only a review's result shows a lesson from the background"
                assert self.review is not None, "a review's result with no review running"
                started_on, started_at, cancelled = self.review
                assert not cancelled, f"a cancelled review was shown: {self.log}"
                assert started_on is game and started_at == history, f"a stale review was shown: {self.log}"
        if not board.state["review"]["busy"]:
            self.review = None
        self.check_state()

    def check_state(self) -> None:
        state, board = self.board.state, self.board
        assert state["lang"] == board.lang
        shown = state["message"]
        if shown is not None:
            self.check_words(shown["text"], "message")
        indicator = state["indicator"]
        game = board.game
        if indicator["enabled"] and not game.is_won and game.status != "stuck":
            expected = _SHOWN[verdict_of(position_key(game))]
            assert indicator["verdict"] in ("pending", expected), "a verdict for another position"
        resume = state["stats"]["resume"]
        if resume is not None:
            self.check_words(resume["text"], "resume offer")
        shown = sum(b.state["stats"]["resume"] is not None for b in (board, *self.others))
        held = sum(records.offers() for records in self.databases())
        assert shown == held, f"{shown} boards offer a game, the records hold {held} offers: {self.log}"

    def run(self, steps: int) -> None:
        rng = self.rng
        for _ in range(steps):
            background = self.background()
            if background and rng.random() < 0.55:
                name, act = rng.choice(background)
                self.step(False, name, act)
            else:
                name, act = rng.choice(self.actions())
                self.step(True, name, act)
        self.drain()

    def drain(self) -> None:
        """The player stops; the background runs out in random order; the board closes."""
        self.step(True, "stop autoplay (Python)", self.board.stop_autoplay)
        for _ in range(10_000):
            background = self.background()
            if not background:
                break
            name, act = self.rng.choice(background)
            self.step(False, name, act)
        assert not self.background(), "the background work runs out"
        state = self.board.state
        assert state["autoplay"] == {"running": False, "player": None}
        assert state["review"]["busy"] is False
        for board in (self.board, *self.others):
            board.close()
        rows = [row for records in self.databases() for row in records.history()]
        seeds = [row.seed for row in rows]
        assert len(seeds) == len(set(seeds)), f"a game stored twice: {seeds} after {self.log}"
        assert set(seeds) <= self.seeds, f"a game that was not the player's was stored: {seeds} after {self.log}"
        for records in (self.records, self.twin, self.elsewhere):
            if records is not None:
                records.close()


def test_every_schedule_keeps_the_boards_promises(tmp_path: pathlib.Path) -> None:
    rng = random.Random(SEED)
    for number in range(SCHEDULES):
        seed = rng.randrange(2**32)
        folder = tmp_path / str(number)
        folder.mkdir()
        schedule = Schedule(random.Random(seed), folder)
        try:
            schedule.run(STEPS)
        except AssertionError as err:
            raise AssertionError(f"schedule {number} (seed {seed}): {err}") from None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalogue_check_tells_languages_apart(lang: str) -> None:
    english = "stale intent: made on version 2, the board is at 3"
    assert not in_catalogue(english, lang)
    assert in_catalogue(catalogue(lang)["review.cancelled"], lang)
    if lang != "en":
        assert not in_catalogue(catalogue("en")["review.cancelled"], lang)
