"""Outside input: every public function that reads text, JSON, files or moves raises only ``PatienceError``
subclasses, whatever it is given, and changes nothing when it does; sizes are bounded where text enters.

First the regressions, one per finding; then a hypothesis fuzz test per entry point, fed structured junk (JSON
values of the wrong types at every level), random text, huge numbers, NaN and infinities, deep nesting and
megabyte strings.
"""

from __future__ import annotations

import contextlib
import gc
import json
import pathlib
import tracemalloc
from collections.abc import Callable, Iterator
from typing import Any, get_args

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from patiencelab import Card, Klondike, Move, Rules
from patiencelab.core.errors import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRecordError,
    PatienceError,
    quote,
)
from patiencelab.core.limits import MAX_CARD_TEXT, MAX_DEAL_TEXT, MAX_JSON_TEXT, MAX_MOVE_TEXT, load_json
from patiencelab.core.position import seeded_deal
from patiencelab.core.rules import Scoring
from patiencelab.interop import DealFormat, from_deal_string
from patiencelab.lessons import InvalidLessonError, Lesson
from patiencelab.widget.teaching import LessonPlayer

from .model_helpers import FakeClock

# ------------------------------------------------------------------------------------------------ inputs

MEGABYTE = "x" * 1_000_000
PADDED_MOVE = " " * 1_000_000 + "d"
HUGE_NUMBERS = [10**30, 2**63, -(2**63) - 1, 10**5000]

ODD_TEXTS = ["", " ", "\n", "fh\n-t3", "t1\n-f", "w\n", "AC\n", "10♥", "²", "٣", "\x00", "t٣-t1", "ﬀ-t1"]


def _deep_list(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


DEEP_LIST = _deep_list(100_000)
DEEP_TEXT = "[" * 100_000 + "]" * 100_000
DEEP_OBJECT_TEXT = '{"a":' * 5_000 + "1" + "}" * 5_000

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from(HUGE_NUMBERS[:3]),
    st.just(4000).map(lambda digits: 10**digits),  # hypothesis prints values: no ints of over 4300 digits
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from([*ODD_TEXTS, "AC", "KS", "t1", "w-f", "d", "r", "standard", "en", "C"]),
)
#: JSON-like values of every type, nested a little; keys are text or numbers.
junk = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.one_of(st.text(max_size=8), st.integers(-3, 3)), inner, max_size=4)
    ),
    max_leaves=10,
)
BIG = {
    "megabyte": MEGABYTE,
    "padded move": PADDED_MOVE,
    "deep list": DEEP_LIST,
    "deep text": DEEP_TEXT,
    "deep object text": DEEP_OBJECT_TEXT,
}


def big(name: str) -> Any:
    """The big input of that name (drawn by name: hypothesis cannot print a 100,000-level list)."""
    return BIG[name]


big_values = st.sampled_from(["megabyte", "padded move", "deep list"]).map(big)
big_texts = st.sampled_from(["megabyte", "padded move", "deep text", "deep object text"]).map(big)
#: ``junk`` and the big ones: megabyte strings and a 100,000-level list.
any_value = st.one_of(junk, big_values)
#: JSON text of junk (huge numbers and NaN included), random text, deep nesting and megabyte strings.
any_text = st.one_of(
    st.text(max_size=300), junk.map(lambda value: _dumps(value)), big_texts, st.sampled_from(ODD_TEXTS)
)


_HEADS = ["d", "r", "w", "W", "t1", "T3", "t7", "t8", "t9", "fH", "f♥", "fs", "f", "5H", "10♥", "th", "KS", "xx", ""]
_TARGETS = ["t1", "t5", "T2", "t7", "t8", "f", "fH", "f♠", "w", "d", ""]
#: Text that looks like a move: every place and some cards, with odd spacing, newlines and dashes.
move_like = st.builds(
    lambda head, sep, target, pad: pad + head + sep + target + pad,
    st.sampled_from(_HEADS),
    st.sampled_from(["-", "-", "-", " -", "- ", "\n-", "-\n", "--", "—", ""]),
    st.sampled_from(_TARGETS),
    st.sampled_from(["", " ", "\n", "\t", " " * 50]),
)


def _dumps(value: object) -> str:
    try:
        return json.dumps(value)
    except ValueError:  # an integer of more than 4300 digits
        return "1" * 5000
    except RecursionError:  # the 100,000-level list
        return DEEP_TEXT


def mutated(document: Any, data: st.DataObject) -> Any:
    """``document`` (JSON data, not changed) with one value somewhere in it replaced by junk, or a key added
    or dropped.
    """

    def change(value: Any, depth: int) -> Any:
        children = (
            list(value.items())
            if isinstance(value, dict)
            else list(enumerate(value))
            if isinstance(value, list)
            else []
        )
        if not children or depth > 6 or data.draw(st.integers(0, 3), label="stop here") == 0:
            return data.draw(any_value, label="replacement")
        key, child = children[data.draw(st.integers(0, len(children) - 1), label="child")]
        copy: Any = dict(value) if isinstance(value, dict) else list(value)
        action = data.draw(st.integers(0, 5), label="action")
        if action == 0 and isinstance(copy, dict):
            del copy[key]
        elif action == 1 and isinstance(copy, dict):
            copy[data.draw(st.one_of(st.text(max_size=6), st.integers()), label="new key")] = data.draw(junk)
        else:
            copy[key] = change(child, depth + 1)
        return copy

    return change(document, 0)


def junk_or_mutated(document: Any, data: st.DataObject) -> Any:
    """Junk of any kind, or ``document`` with one change somewhere (more often: it reaches deeper checks)."""
    if data.draw(st.integers(0, 3), label="junk") == 0:
        return data.draw(any_value, label="junk value")
    return mutated(document, data)


FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FUZZ_SLOW = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@contextlib.contextmanager
def only_patience_errors(expected: type[PatienceError] = PatienceError) -> Iterator[None]:
    """Let the call succeed or raise ``expected``; any other exception fails the test. The message must be
    short: an input is never echoed back whole.
    """
    message = None
    try:
        yield
        event("accepted")
    except expected as exc:
        message = str(exc)
        event(f"refused: {type(exc).__name__}")
    except PatienceError as exc:  # a PatienceError of another subclass than the one due
        raise AssertionError(f"{type(exc).__name__} where {expected.__name__} was due: {exc}") from exc
    assert message is None or len(message) < 1000, message[:200]


def game_state(game: Klondike) -> tuple[Any, ...]:
    return (game.position_json(), game.history, game.score, game.moves, game.can_redo, game.rules)


def started_game(seed: int, moves: int) -> Klondike:
    game = Klondike(seed=seed, clock=FakeClock())
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(legal[(seed + game.moves) % len(legal)])
    return game


def valid_record() -> dict[str, Any]:
    return started_game(3, 12).record()


def valid_lesson() -> dict[str, Any]:
    game = Klondike(seed=7)
    return Lesson.from_moves(game, ["t1-t3", "d", "d"], "A look", notes={1: "Red on black."}).to_json()


# ------------------------------------------------------------------------------------------- regressions


@pytest.mark.parametrize("text", ["fh\n-t3", "t1\n-f", "w\n-t3", "t2-t5\nx", "5H\n-t5", "5H -t5", "t2- t5"])
def test_a_newline_inside_a_move_is_not_a_move(text: str) -> None:
    """``$`` in the place pattern matched before a final newline, so ``fh\\n-t3`` was read as a move and
    then broke ``play``/``check``/``can_play``/``explain`` with a plain ValueError.
    """
    with pytest.raises(InvalidMoveError):
        Move.parse(text)
    game = Klondike(seed=0)
    before = game_state(game)
    for call in (game.play, game.check, game.can_play, game.explain):
        with pytest.raises(InvalidMoveError):
            call(text)
        assert game_state(game) == before
    with pytest.raises(InvalidMoveError):
        Move("t1\n", "f")
    lesson = valid_lesson()
    lesson["steps"] = [{"move": text}]
    with pytest.raises(InvalidLessonError):
        Lesson.from_json(lesson)


def test_klondike_solver_deals_take_ascii_digits_only() -> None:
    text = "".join(f"{c.rank:02d}{c.suit.index + 1}" for c in seeded_deal(1))
    assert from_deal_string(text, "klondike-solver") == seeded_deal(1)
    arabic = text.translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    superscript = "²" + text[1:]  # isdigit() but int() refuses it
    for bad in (arabic, superscript):
        with pytest.raises(InvalidPositionError, match="digits only"):
            from_deal_string(bad, "klondike-solver")


@pytest.mark.parametrize(
    "change",
    [
        {"foundations": 5},
        {"foundations": [5]},
        {"foundations": {"C": []}},
        {"waste": 0},
        {"waste": "AC"},
        {"tableau piles": []},
        {"tableau piles": [[]]},
        {"tableau piles": {"a": 1}},
        {"stock": 5},
    ],
)
def test_solvitaire_deals_are_checked_at_every_level(change: dict[str, Any]) -> None:
    data = {**json.loads(Klondike(seed=1).deal_string("solvitaire")), **change}
    with pytest.raises(InvalidPositionError):
        from_deal_string(json.dumps(data), "solvitaire")


@pytest.mark.parametrize(
    "text",
    ["[" * 5000 + "]" * 5000, DEEP_TEXT, '{"a": NaN}', '{"a": 1e999}', "1" * 5000, "x" * 30_000],
    ids=["nested", "deep", "nan", "1e999", "5000-digits", "long"],
)
def test_solvitaire_text_that_json_cannot_read_is_an_invalid_position(text: str) -> None:
    with pytest.raises(InvalidPositionError):
        from_deal_string(text, "solvitaire")


def test_a_deeply_nested_lesson_file_is_an_invalid_lesson(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 50_000 + "]" * 50_000)
    with pytest.raises(InvalidLessonError, match="nested too deeply"):
        Lesson.load(path)
    with pytest.raises(InvalidLessonError, match="nested too deeply"):
        Lesson.loads("[" * 50_000 + "]" * 50_000)


def test_lesson_files_and_texts_are_bounded(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "big.json"
    path.write_text(json.dumps({**valid_lesson(), "intro": "x" * MAX_JSON_TEXT}))
    with pytest.raises(InvalidLessonError, match="longer than 1,000,000 characters"):
        Lesson.load(path)
    with pytest.raises(InvalidLessonError, match="at most 1,000,000 characters"):
        Lesson.loads(path.read_text())
    assert Lesson.loads(json.dumps(valid_lesson())) == Lesson.from_json(valid_lesson())
    for odd in (5, None, ["a"]):
        with pytest.raises(InvalidLessonError):
            Lesson.load(odd)  # type: ignore[arg-type]
    with pytest.raises(InvalidLessonError):
        Lesson.load(tmp_path)  # a directory
    with pytest.raises(InvalidLessonError):
        Lesson.load(str(tmp_path / "nul\x00.json"))

    class BytesPath:
        def __fspath__(self) -> bytes:
            return b"lesson.json"

    with pytest.raises(InvalidLessonError):
        Lesson.load(BytesPath())  # type: ignore[arg-type]


def test_scoring_and_rule_mappings_with_keys_of_mixed_types_are_refused() -> None:
    with pytest.raises(PatienceError, match="unknown scoring field"):
        Scoring.from_json({1: 2, "a": 3})
    with pytest.raises(PatienceError, match="unknown scoring field"):
        Rules.from_json({"scoring": {1: 2, "start": 0, "b": 1}})
    with pytest.raises(PatienceError, match="unknown rules field"):
        Rules.from_json({1: 2, "draw": 1, "x": 3})


@pytest.mark.parametrize("number", HUGE_NUMBERS, ids=["10**30", "2**63", "-2**63-1", "10**5000"])
def test_huge_numbers_are_refused_with_a_short_message(number: int) -> None:
    calls: list[Callable[[], object]] = [
        lambda: Rules(draw=number),
        lambda: Rules(max_passes=number),
        lambda: Rules(face_down=(number,)),
        lambda: Scoring(start=number),
        lambda: Scoring(time_bonus=number),
        lambda: Klondike.from_position({**Klondike(seed=1).position_json(), "recycles": number}),
        lambda: Klondike.from_record({**valid_record(), "version": number}),
        lambda: Klondike.from_record({**valid_record(), "seed": number}),
        lambda: Card(number, Card.parse("AC").suit),
        lambda: LessonPlayer(Lesson.from_json(valid_lesson())).set_pace(number),
    ]
    for call in calls:
        with pytest.raises(PatienceError) as info:
            call()
        assert len(str(info.value)) < 300


def test_a_deeply_nested_value_in_a_message_is_quoted_short() -> None:
    for call in (
        lambda: Rules.from_json({"draw": DEEP_LIST}),
        lambda: Rules.from_json({"scoring": {"start": DEEP_LIST}}),
        lambda: Klondike.from_position({**Klondike(seed=1).position_json(), "recycles": DEEP_LIST}),
        lambda: Klondike.from_record({**valid_record(), "version": DEEP_LIST}),
        lambda: Lesson.from_json({**valid_lesson(), "lang": DEEP_LIST}),
    ):
        with pytest.raises(PatienceError) as info:
            call()
        assert len(str(info.value)) < 300


def test_megabyte_inputs_are_refused_without_being_echoed() -> None:
    limited: list[tuple[Callable[[], object], int]] = [
        (lambda: Move.parse(MEGABYTE), MAX_MOVE_TEXT),
        (lambda: Move.parse(PADDED_MOVE), MAX_MOVE_TEXT),
        (lambda: Card.parse(MEGABYTE), MAX_CARD_TEXT),
        (lambda: from_deal_string(MEGABYTE, "klondike-solver"), MAX_DEAL_TEXT),
        (lambda: from_deal_string(MEGABYTE, "solvitaire"), MAX_DEAL_TEXT),
        (lambda: Klondike(deal=MEGABYTE), MAX_DEAL_TEXT),
        (lambda: load_json(MEGABYTE + MEGABYTE, "a record"), MAX_JSON_TEXT),
    ]
    for call, limit in limited:
        with pytest.raises(PatienceError, match=f"at most {limit:,} characters") as info:
            call()
        assert len(str(info.value)) < 200
    for call in (
        lambda: Rules.from_json({"empty_column": MEGABYTE}),
        lambda: Rules.from_json({MEGABYTE: 1}),
        lambda: Scoring.from_json(MEGABYTE),
        lambda: Klondike(seed=1, lang=MEGABYTE),
        lambda: Klondike.from_record({**valid_record(), "moves": ["d", MEGABYTE]}),
    ):
        with pytest.raises(PatienceError) as info:
            call()
        assert len(str(info.value)) < 300


def test_rejected_and_padded_move_texts_are_not_kept_alive() -> None:
    """The move-parse cache kept every text that parsed: 30 moves padded to a megabyte kept 30 MB alive."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(30):
            for text in (" " * (1_000_000 + i) + "d", "x" * (1_000_000 + i)):
                with contextlib.suppress(PatienceError):
                    Move.parse(text)
            del text
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert kept < 1_000_000


def test_a_lesson_step_on_a_place_the_rules_lack_is_an_invalid_lesson() -> None:
    lesson = valid_lesson()
    for move in ("t8-t1", "f-t9"):
        lesson["steps"] = [{"move": move}]
        with pytest.raises(InvalidLessonError):
            Lesson.from_json(lesson)


def test_quote_is_short_and_never_fails() -> None:
    class Odd:
        def __repr__(self) -> str:
            raise RuntimeError("no repr")

    for value in (MEGABYTE, DEEP_LIST, 10**5000, float("nan"), b"x" * 100_000, Odd(), {1: DEEP_LIST}):
        assert len(quote(value)) < 100
    assert quote("t2-t5") == "'t2-t5'"


# ------------------------------------------------------------------------------------------------ fuzzing


@FUZZ
@given(any_value)
def test_fuzz_card_parse(value: object) -> None:
    with only_patience_errors():
        card = Card.parse(value)  # type: ignore[arg-type]
        assert Card.parse(str(card)) is card


@FUZZ
@given(st.one_of(move_like, any_text, any_value))
def test_fuzz_move_parse(value: object) -> None:
    with only_patience_errors(InvalidMoveError):
        move = Move.parse(value)  # type: ignore[arg-type]
        assert Move.parse(str(move)) == move


@FUZZ
@given(any_value, any_value, any_value)
def test_fuzz_move_values(source: object, target: object, card: object) -> None:
    with only_patience_errors(InvalidMoveError):
        Move(source, target, card)  # type: ignore[arg-type]


@FUZZ
@given(
    st.integers(0, 50),
    st.integers(0, 30),
    st.one_of(move_like, move_like, any_text, any_value),
    st.sampled_from(["play", "check", "can_play", "explain", "moving_cards"]),
)
def test_fuzz_game_move_text(seed: int, moves: int, text: object, method: str) -> None:
    game = started_game(seed, moves)
    before = game_state(game)
    call = getattr(game, method)
    message = None
    try:
        call(text)
    except (InvalidMoveError, IllegalMoveError) as exc:
        message = str(exc)
    event("accepted" if message is None else "refused")
    if message is not None or method != "play":
        assert game_state(game) == before
    assert message is None or len(message) < 1000


@FUZZ_SLOW
@given(st.data())
def test_fuzz_position_json(data: st.DataObject) -> None:
    position = junk_or_mutated(started_game(5, 20).position_json(), data)
    rules = data.draw(st.sampled_from([Rules(), Rules.preset("six-column")]))
    with only_patience_errors(InvalidPositionError):
        game = Klondike.from_position(position, rules=rules)
        assert Klondike.from_position(json.loads(json.dumps(game.position_json())), rules=rules) == game


@FUZZ_SLOW
@given(st.data())
def test_fuzz_game_record_json(data: st.DataObject) -> None:
    record = junk_or_mutated(valid_record(), data)
    with only_patience_errors(InvalidRecordError):
        game = Klondike.from_record(record, clock=FakeClock())
        json.dumps(game.record())


@FUZZ
@given(st.data())
def test_fuzz_rules_json(data: st.DataObject) -> None:
    document = Rules.preset("traditional", draw=3, scoring=Scoring(name="house", start=-10)).to_json()
    value = junk_or_mutated(document, data)
    with only_patience_errors():
        rules = Rules.from_json(value)
        assert Rules.from_json(json.loads(json.dumps(rules.to_json()))) == rules
    fields = {"draw", "max_passes", "foundation_to_tableau", "face_down", "empty_column"}
    options = {k: v for k, v in value.items() if k in fields} if isinstance(value, dict) else {"draw": value}
    with only_patience_errors():
        Rules(**options)


@FUZZ
@given(st.data())
def test_fuzz_scoring_mappings(data: st.DataObject) -> None:
    value = junk_or_mutated(Scoring(name="house").to_json(), data)
    with only_patience_errors():
        scoring = Scoring.from_json(value)
        game = Klondike(seed=1, rules=Rules(scoring=scoring), clock=FakeClock())
        game.draw()
        assert isinstance(game.score, int)


@FUZZ
@given(st.data(), st.sampled_from(get_args(DealFormat)))
def test_fuzz_deal_strings(data: st.DataObject, format: DealFormat) -> None:
    valid = Klondike(seed=2).deal_string(format)
    if format == "solvitaire":
        text = data.draw(any_text) if data.draw(st.booleans()) else _dumps(mutated(json.loads(valid), data))
    else:
        text = data.draw(st.one_of(any_text, st.builds(_splice, st.just(valid), st.integers(0, len(valid)), any_text)))
    with only_patience_errors(InvalidPositionError):
        cards = from_deal_string(text, format)
        assert len(set(cards)) == 52


def _splice(text: str, at: int, insert: str) -> str:
    return text[:at] + insert[:50] + text[at + 1 :]


@FUZZ
@given(any_value, any_value)
def test_fuzz_deal_string_arguments(text: object, format: object) -> None:
    with only_patience_errors():
        from_deal_string(text, format)  # type: ignore[arg-type]


@FUZZ_SLOW
@given(st.data())
def test_fuzz_lesson_json(data: st.DataObject) -> None:
    value = junk_or_mutated(valid_lesson(), data)
    with only_patience_errors(InvalidLessonError):
        lesson = Lesson.from_json(value)
        assert Lesson.from_json(lesson.to_json()) == lesson


@FUZZ_SLOW
@given(st.data())
def test_fuzz_lesson_text_and_files(tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    text = data.draw(any_text) if data.draw(st.booleans()) else _dumps(mutated(valid_lesson(), data))
    with only_patience_errors(InvalidLessonError):
        Lesson.loads(text)
    path = tmp_path_factory.mktemp("lesson") / "lesson.json"
    if data.draw(st.booleans(), label="as bytes"):
        path.write_bytes(data.draw(st.binary(max_size=200)))
    else:
        path.write_text(text, "utf-8", errors="surrogatepass")
    with only_patience_errors(InvalidLessonError):
        Lesson.load(path)


@FUZZ
@given(any_value, any_value, any_value, any_value)
def test_fuzz_game_construction(seed: object, deal: object, rules: object, lang: object) -> None:
    """``Klondike(seed=..., deal=..., rules=..., lang=...)`` and ``Klondike.from_deal_string``."""
    options = {"seed": seed, "deal": deal, "rules": rules, "lang": lang}
    for drop in options:
        with only_patience_errors():
            Klondike(**{k: v for k, v in options.items() if k != drop})  # type: ignore[arg-type]
    with only_patience_errors():
        Klondike.from_deal_string(deal, format=seed, rules=rules, lang=lang)  # type: ignore[arg-type]
