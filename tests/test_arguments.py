"""One argument contract for both builds: every public function and method checks the values it is given (the
checkers of ``patiencelab.core.limits``) before compiled code sees them, so a bad value gets the same
``PatienceError``, with the same message, from the compiled and the pure build.

One table of bad calls (:data:`BAD_CALLS`, code as text) runs in this process and, with the other build, in a
fresh process (``PATIENCELAB_PURE=1`` when this one runs compiled, ``0`` when it runs pure); then random bad values
(from :data:`BAD` or made up: floats, text, whole numbers of up to 40 digits below the range) put into the
arguments of :data:`TEMPLATES` the same way: :data:`CASES` of them in ``make test``,
``PATIENCELAB_ARGUMENT_CASES`` (``make soak``: 20,000) when set.
"""

from __future__ import annotations

import json
import os
import pathlib
import random
import subprocess
import sys
from typing import Any

import pytest

import patiencelab
from patiencelab import Klondike, PatienceError, Rules

REPO = pathlib.Path(__file__).resolve().parents[1]
MANIFEST = pathlib.Path(patiencelab.__file__).resolve().parent / "_compiled.json"

#: Bad calls, each run on a fresh ``g = Klondike(seed=1)``: the faults of issue 32 (a ``TypeError`` of the
#: compiled build's signature checks, a ``ValueError`` of a number too long to print, or a value taken) and the
#: other public entry points that take numbers, switches, seeds, budgets and choices.
BAD_CALLS: tuple[str, ...] = (
    # issue 32, fault 3: the compiled build's own TypeError, or a value the pure build took
    "g.hint(samples=2.0)",
    "g.hint(peek=1)",
    "g.hint(peek='yes', max_states=1)",
    "g.chances(seed=None)",
    "g.chances(seed=1.0)",
    "g.chances(samples='3')",
    "g.play_out(Greedy(), max_moves=1.5)",
    "g.view(reveal=1)",
    "g.view(reveal='no')",
    "g.deal_string(5)",
    "Klondike(5)",
    # issue 35: a number too long to print in the message gave a bare ValueError
    "NoPeek(samples=-10**5000)",
    "find_solvable_seed(0, Rules(), max_tries=-10**5000)",
    "g.hint(samples=-10**5000)",
    # other faults of the same kind: a bare TypeError or AttributeError, or a value taken
    "Klondike(clock=5)",
    "Klondike.from_position(g.snapshot(), clock=5)",
    "solve(5)",
    "solve(g.snapshot(), rules=5)",
    "solve_in_slices(5)",
    "NoPeek(max_states=0)",
    "NoPeek(seed=None)",
    "NoPeek(seed=1.5)",
    "Random(seed=None)",
    "Random(seed='x')",
    "Oracle(max_states=0)",
    "Oracle(5)",
    "find_solvable_seed(1.5, Rules())",
    "find_solvable_seed(0, 5)",
    "chances(g.player_view(), seed=None)",
    "chances(g.player_view(), samples=2.5)",
    "chances(5)",
    "play_out(5, Greedy())",
    "play_game(Greedy(), 1.5, '{}')",
    "evaluate(Greedy(), deals=1.5, progress=False)",
    "evaluate(Greedy(), deals='abc', progress=False)",
    "g.review(seed=None)",
    "g.solve(seconds=-10**5000, max_states=1_000)",
    "g.hint(seconds=10**5000, max_states=1_000)",
    "KlondikeEnv(max_steps=1.5)",
    "KlondikeEnv().reset(seed=1.5)",
    # already refused alike: they stay so
    "g.hint(samples=0)",
    "g.chances(max_states=0)",
    "g.play_out(Greedy(), max_moves=-1)",
    "g.play_out(5)",
    "g.play(5)",
    "g.can_play(None)",
    "g.moving_cards(5)",
    "g.explain(5)",
    "g.deal_string('x')",
    "setattr(g, 'lang', 5)",
    "g.review(samples=2.0)",
    "g.review(progress=3)",
    "g.review(cancel=5)",
    "g.solve(seconds='1', max_states=1_000)",
    "g.is_winnable(max_states=1.0)",
    "Klondike(rules=5)",
    "Klondike(seed=1.5)",
    "Klondike(seed=True)",
    "Klondike(solvable=1)",
    "Klondike.from_position(5)",
    "Klondike.from_position(g.snapshot(), rules=5)",
    "Klondike.from_position(g.snapshot(), lang=5)",
    "Klondike.from_record(5)",
    "Klondike.from_deal_string(5)",
    "solve(g, rules=5)",
    "solve(g, max_states=1.5)",
    "NoPeek(samples=2.0)",
    "NoPeek(tiebreak='best')",
    "NoPeek(tiebreak=1)",
    "NoPeek(scout=1)",  # None is the default (draw 3 only), so not among the switch's bad values
    "NoPeek(scout='yes')",
    "NoPeek(reach=1)",
    "NoPeek(reach_samples=0)",
    "NoPeek(reach_states=0)",
    "NoPeek(reach_margin=-0.5)",
    "NoPeek(reach_margin=float('inf'))",
    "NoPeek(reach_margin='1')",
    "find_solvable_seed(0, Rules(), max_tries=1.0)",
    "find_solvable_seed(0, Rules(), max_states_per_deal=0)",
    "hint_move(g, max_states=0)",
    "find_fair_hint(g, samples=0)",
    "keeps_winnable(g.player_view(), [], samples=0)",
    "play_out(g, Greedy(), max_moves=2.0)",
    "evaluate(Greedy(), deals=-1, progress=False)",
    "evaluate(Greedy(), deals=[1.5], progress=False)",
    "evaluate(Greedy(), deals=2, workers=0, progress=False)",
    "survey(-1, workers=1, progress=False)",
    "survey(2, budget=0, workers=1, progress=False)",
    "survey(2, workers=1.0, progress=False)",
    "Rules(draw=2.0)",
    "Rules.preset('x')",
    "Position.from_json({**g.position_json(), 'recycles': -3})",
    "Lesson.builtin('quiz').game_at(True)",
    "Lesson.builtin('quiz').game_at(1.0)",
    "Lesson.builtin('quiz').judge(0, 'd')",
    "Lesson.builtin('quiz').judge(1.0, 'd')",
    "Lesson.builtin(5)",
    "Rules(foundation_to_tableau=1)",
    "Rules(max_passes=0)",
    "Rules(empty_column=5)",
    "Rules.preset('standard', draw=True)",
    "Card(14, Suit.HEARTS)",
    "render(g, theme=5)",
    "Klondike.from_position({**g.position_json(), 'stock_seen': 99})",
)

#: Calls with one argument left open (``{}``) and the kind of value it takes, for random bad values.
TEMPLATES: tuple[tuple[str, str], ...] = (
    ("g.hint(samples={})", "count1"),
    ("g.hint(peek={})", "switch"),
    ("g.hint(max_states={})", "states"),
    ("g.hint(seconds={}, max_states=500)", "seconds"),
    ("g.chances(samples={})", "count1"),
    ("g.chances(seed={})", "seed"),
    ("g.chances(max_states={})", "states"),
    ("g.play_out(Greedy(), max_moves={})", "count0"),
    ("g.view(reveal={})", "switch"),
    ("g.review(samples={})", "count1"),
    ("g.review(seed={})", "seed"),
    ("g.review(max_states={})", "states"),
    ("g.review(sample_states={})", "states"),
    ("g.review(seconds={}, max_states=500, sample_states=500)", "seconds"),
    ("g.solve(max_states={})", "states"),
    ("g.solve(seconds={}, max_states=500)", "seconds"),
    ("g.is_winnable(max_states={})", "states"),
    ("Klondike(seed={})", "seed"),
    ("Klondike(solvable={})", "switch"),
    ("NoPeek(samples={})", "count1"),
    ("NoPeek(max_states={})", "states"),
    ("NoPeek(seed={})", "seed"),
    ("NoPeek(follow={})", "switch"),
    ("Random(seed={})", "seed"),
    ("Oracle(max_states={})", "states"),
    ("find_solvable_seed({}, Rules())", "seed"),
    ("find_solvable_seed(0, Rules(), max_tries={})", "count1"),
    ("find_solvable_seed(0, Rules(), max_states_per_deal={})", "states"),
    ("chances(g.player_view(), samples={})", "count1"),
    ("chances(g.player_view(), seed={})", "seed"),
    ("chances(g.player_view(), max_states={})", "states"),
    ("play_out(g, Greedy(), max_moves={})", "count0"),
    ("evaluate(Greedy(), deals=2, workers={}, progress=False)", "count1"),
    ("evaluate(Greedy(), deals={}, progress=False)", "deals"),
    ("survey({}, workers=1, progress=False)", "deals"),
    ("survey(2, workers={}, progress=False)", "states"),  # None: one worker per core
    ("KlondikeEnv(max_steps={})", "count1"),
    ("Position.from_json({{**g.position_json(), 'recycles': {}}})", "count0"),
    ("Klondike.from_position({{**g.position_json(), 'stock_seen': {}}})", "count0"),
    ("Lesson.builtin('quiz').game_at({})", "count0"),
    ("Lesson.builtin('quiz').judge({}, 'd')", "count1"),
    ("Rules(draw={})", "count1"),
    ("Rules(max_passes={})", "states"),
    ("Rules(foundation_to_tableau={})", "switch"),
    ("Rules.preset('standard', draw={})", "states"),
)

#: Values of no kind above: wrong types, written as code so that both processes make the same ones.
_JUNK = (
    "2.0",
    "1.5",
    "-0.0",
    "float('nan')",
    "float('-inf')",
    "'3'",
    "''",
    "b'1'",
    "[]",
    "[1]",
    "{}",
    "(1,)",
    "1j",
    "Decimal('1')",
    "Fraction(1, 2)",
    "1e300",
)
#: The bad values of each kind: wrong types, then the whole numbers out of its range.
BAD: dict[str, tuple[str, ...]] = {
    "count1": (*_JUNK, "None", "True", "False", "0", "-1", "-10**5000", "-(2**63)"),
    "count0": (*_JUNK, "None", "True", "False", "-1", "-10**5000", "-(2**63)"),
    "seed": (*_JUNK, "True", "False"),  # None is a seed to Klondike (a random deal)
    "states": (*_JUNK, "True", "False", "0", "-1", "-10**5000"),
    "switch": ("0", "1", "None", "'yes'", "1.0", "[]", "-10**5000"),
    "seconds": ("0", "-1", "float('nan')", "None", "True", "'1'", "[]", "-10**5000", "10**5000", "1j"),
    "deals": ("1.5", "None", "True", "-1", "-10**5000", "float('nan')", "'abc'", "b'1'"),
}

#: Random cases: ``make test`` 300, ``make soak`` 20,000 (``tests/sweeps.py``).
from tests.sweeps import ARGUMENT_CASES as CASES  # noqa: E402


def random_calls(count: int, seed: int = 32) -> list[str]:
    """``count`` calls of :data:`TEMPLATES` in turn, each with a bad value of its kind drawn from a generator
    seeded by ``seed``."""
    rng = random.Random(seed)
    calls = []
    for i in range(count):
        template, kind = TEMPLATES[i % len(TEMPLATES)]
        calls.append(template.format(rng.choice(BAD[kind]) if rng.random() < 0.5 else _made_up(kind, rng)))
    return calls


def _made_up(kind: str, rng: random.Random) -> str:
    """A bad value of ``kind`` made up at random, as code: a float, text, or (but for seeds, which take any whole
    number) a whole number of up to 40 digits below the kind's range."""
    choices = ["float", "text"] if kind == "seed" else ["float", "text", "low"]
    made = rng.choice(choices)
    if made == "float":
        number = rng.uniform(0, 10.0 ** rng.randrange(-3, 12))
        return repr(-number if kind == "seconds" else rng.choice([number, -number]))
    if made == "text":
        return repr("".join(rng.choice("0123456789 .-_aeTx") for _ in range(rng.randrange(6))))
    floor = {"count1": 1, "count0": 0, "states": 1, "switch": 2, "seconds": 1, "deals": 0}[kind]
    return str(floor - 1 - rng.randrange(10 ** rng.randrange(1, 40)))


def answers(calls: list[str]) -> list[list[Any]]:
    """What each call raises in this process: the exception's class name, its message, and whether it is a
    ``PatienceError`` (or ``["returned", repr]`` when it raises nothing)."""
    from decimal import Decimal  # noqa: F401 (the calls use them)
    from fractions import Fraction  # noqa: F401

    from patiencelab import Card, Position, Suit, solve  # noqa: F401
    from patiencelab.env import KlondikeEnv  # noqa: F401
    from patiencelab.hints import (
        find_fair_hint,  # noqa: F401
        hint_move,  # noqa: F401
    )
    from patiencelab.lessons import Lesson  # noqa: F401
    from patiencelab.players import (  # noqa: F401
        Greedy,
        NoPeek,
        Oracle,
        Random,
        chances,
        evaluate,
        keeps_winnable,
        play_game,
        play_out,
    )
    from patiencelab.solver import solve_in_slices  # noqa: F401
    from patiencelab.solver.seeds import find_solvable_seed  # noqa: F401
    from patiencelab.survey import survey  # noqa: F401
    from patiencelab.svg import render  # noqa: F401

    names = dict(locals())
    out: list[list[Any]] = []
    for code in calls:
        scope = {**names, "Klondike": Klondike, "Rules": Rules, "g": Klondike(seed=1)}
        try:
            result = eval(code, scope)
            if hasattr(result, "__next__"):
                next(result)  # a generator checks its arguments when it starts
            out.append(["returned", repr(result)[:80]])
        except Exception as exc:
            out.append([type(exc).__name__, str(exc), isinstance(exc, PatienceError)])
    return out


def other_build(calls: list[str]) -> list[list[Any]]:
    """:func:`answers` in a fresh process with the other build: pure when this one runs compiled, and back."""
    pure = "0" if os.environ.get("PATIENCELAB_PURE") == "1" else "1"
    path = os.pathsep.join(filter(None, [os.environ.get("PYTHONPATH"), str(REPO)]))
    env = {**os.environ, "PATIENCELAB_PURE": pure, "PYTHONPATH": path}
    code = "import json, sys, tests.test_arguments as t; print(json.dumps(t.answers(json.load(sys.stdin))))"
    done = subprocess.run(
        [sys.executable, "-c", code], input=json.dumps(calls), env=env, cwd=REPO, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def needs_two_builds() -> None:
    if not MANIFEST.is_file():
        if os.environ.get("CI", "").lower() not in ("", "0", "false"):
            pytest.fail("CI must run compiled: 'make setup' left no compiled modules")
        pytest.skip("this install has no compiled modules: there is one build only")


def _mismatches(calls: list[str], here: list[list[Any]], there: list[list[Any]]) -> list[str]:
    return [f"{code}: {a[:2]} here, {b[:2]} in the other build" for code, a, b in zip(calls, here, there) if a != b]


def test_every_bad_call_is_a_patience_error() -> None:
    refused = [(code, answer) for code, answer in zip(BAD_CALLS, answers(list(BAD_CALLS)))]
    wrong = [f"{code}: {answer[:2]}" for code, answer in refused if answer[0] == "returned" or not answer[2]]
    assert not wrong, "\n".join(wrong)


def test_both_builds_refuse_each_bad_call_with_the_same_error_and_message() -> None:
    needs_two_builds()
    calls = list(BAD_CALLS)
    assert patiencelab.COMPILED or os.environ.get("PATIENCELAB_PURE") == "1"
    mismatches = _mismatches(calls, answers(calls), other_build(calls))
    assert not mismatches, "\n".join(mismatches)


def test_both_builds_refuse_random_bad_values_alike() -> None:
    needs_two_builds()
    calls = random_calls(CASES)
    here, there = answers(calls), other_build(calls)
    mismatches = _mismatches(calls, here, there)
    assert not mismatches, "\n".join(mismatches[:20])
    wrong = [f"{code}: {answer[:2]}" for code, answer in zip(calls, here) if answer[0] == "returned" or not answer[2]]
    assert not wrong, "\n".join(wrong[:20])
    assert len(set(calls)) >= min(CASES, 200)  # many entry points and values, not one


def test_a_wrong_type_is_also_a_type_error_and_a_bad_number_a_value_error() -> None:
    from patiencelab.core.errors import ArgumentTypeError, InvalidArgumentError
    from patiencelab.players import NoPeek

    with pytest.raises(ArgumentTypeError, match=r"^samples must be a whole number of at least 1, not 2\.0$") as info:
        Klondike(seed=1).hint(samples=2.0)
    assert isinstance(info.value, TypeError) and isinstance(info.value, PatienceError)
    with pytest.raises(InvalidArgumentError, match="about 5001 digits") as out_of_range:
        NoPeek(samples=-(10**5000))
    assert not isinstance(out_of_range.value, TypeError) and isinstance(out_of_range.value, ValueError)


def test_a_bad_call_changes_nothing() -> None:
    from patiencelab.players import Greedy

    game = Klondike(seed=4)
    game.play("d")
    before = (game.position_json(), game.history, game.score)
    with pytest.raises(PatienceError):
        game.hint(samples=2.0)
    with pytest.raises(PatienceError):
        game.chances(seed=None)
    with pytest.raises(PatienceError):
        game.play_out(Greedy(), max_moves=1.5)
    with pytest.raises(PatienceError):
        game.view(reveal=1)
    assert (game.position_json(), game.history, game.score) == before
