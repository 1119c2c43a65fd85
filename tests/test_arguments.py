"""One argument contract for both builds: every public function and method checks the values it is given (the
checkers of ``patiencelab.core.limits``) before compiled code sees them, so a bad value gets the same
``PatienceError``, with the same message, from the compiled and the pure build.

One table of bad calls (:data:`BAD_CALLS`, code as text, by the public name each calls) runs in this process and,
with the other build, in a fresh process (``PATIENCELAB_PURE=1`` when this one runs compiled, ``0`` when it runs
pure); every public name that takes arguments has bad calls there or a reason in :data:`NOT_ENTRY_POINTS` (a test
fails for one that has neither). Then random bad values (from :data:`BAD` or made up: floats, text, whole numbers
of up to 40 digits below the range) put into the arguments of :data:`TEMPLATES` the same way: :data:`CASES` of them
(``make test`` 300, ``make soak`` 20,000: ``tests/sweeps.py``).
"""

from __future__ import annotations

import enum
import functools
import importlib
import inspect
import json
import os
import pathlib
import random
import re
import subprocess
import sys
from typing import Any, is_typeddict

import pytest

import patiencelab
from patiencelab import Klondike, PatienceError, Rules

from .docs_generator import load_docs_generator

REPO = pathlib.Path(__file__).resolve().parents[1]
MANIFEST = pathlib.Path(patiencelab.__file__).resolve().parent / "_compiled.json"

#: Bad calls of a board's methods and property setters, the same for a widget (``w``) and a session (``b``).
BOARD_CALLS: dict[str, tuple[str, ...]] = {
    "game": ("setattr({}, 'game', 5)", "setattr({}, 'game', None)"),
    "lang": ("setattr({}, 'lang', 'de')", "setattr({}, 'lang', 5)"),
    "records": ("setattr({}, 'records', 5)", "setattr({}, 'records', 'x')"),
    "lesson": ("setattr({}, 'lesson', 5)",),
    "new_game": ("{}.new_game(seed=1.5)", "{}.new_game(rules=5)"),
    "step_through": ("{}.step_through(5)", "{}.step_through(['x'])", "{}.step_through([], title=5)"),
    "step": ("{}.step(5)", "{}.step('x')"),
    "autoplay": ("{}.autoplay(5)", "{}.autoplay(Greedy(), pace=-1)", "{}.autoplay(Greedy(), max_moves=1.5)"),
    "goto": ("{}.goto(1.5)", "{}.goto(None)"),
    "wait_for_verdict": ("{}.wait_for_verdict(None)", "{}.wait_for_verdict(-1)"),
    "wait_for_background": ("{}.wait_for_background(None)", "{}.wait_for_background('1')"),
}

#: Bad calls of every public function and method (and constructor, and property setter) that takes arguments, by the
#: name it is made under (``module.qualname`` below ``patiencelab``), each run on a fresh ``g = Klondike(seed=1)``
#: with ``v = g.player_view()``, ``r`` a records database, ``L`` the built-in quiz lesson, ``b`` a board session and
#: ``w`` a widget (the last two made for the calls that use them). Each must raise a ``PatienceError`` (the same,
#: with the same message, in both builds); :func:`test_every_public_name_has_bad_calls_or_a_reason` fails when a
#: public name that takes arguments has no entry here nor in :data:`NOT_ENTRY_POINTS`.
BAD_CALLS: dict[str, tuple[str, ...]] = {
    # ---------------------------------------------------------------------------------------- core
    "core.cards.Card": ("Card(14, Suit.HEARTS)", "Card(1, 'H')", "Card(True, Suit.HEARTS)"),
    "core.cards.Card.parse": ("Card.parse(None)", "Card.parse('1H')", "Card.parse('A' * 10**6)"),
    "core.cards.Card.from_index": ("Card.from_index(52)", "Card.from_index(None)", "Card.from_index(True)"),
    "core.cards.Suit.parse": ("Suit.parse(None)", "Suit.parse('X')"),
    "core.errors.unknown_fields": ("unknown_fields(None, ('a',))", "unknown_fields({'x': 1}, None)"),
    "core.game.Klondike": (
        "Klondike(5)",
        "Klondike(clock=5)",
        "Klondike(rules=5)",
        "Klondike(seed=1.5)",
        "Klondike(seed=True)",
        "Klondike(solvable=1)",
        "Klondike(deal=5)",
        "Klondike(lang='de')",
        "Klondike(seed=1, deal=g.deal_string())",
    ),
    "core.game.Klondike.from_position": (
        "Klondike.from_position(5)",
        "Klondike.from_position(g.snapshot(), clock=5)",
        "Klondike.from_position(g.snapshot(), rules=5)",
        "Klondike.from_position(g.snapshot(), lang=5)",
        "Klondike.from_position({**g.position_json(), 'stock_seen': 99})",
    ),
    "core.game.Klondike.from_record": (
        "Klondike.from_record(5)",
        "Klondike.from_record({**g.record(), 'seed': True})",  # issue 60: the compiled build took it as 1
        "Klondike.from_record({**g.record(), 'seed': 1.0})",
        "Klondike.from_record(g.record(), clock=5)",
    ),
    "core.game.Klondike.from_deal_string": (
        "Klondike.from_deal_string(5)",
        "Klondike.from_deal_string(g.deal_string(), format='x')",
        "Klondike.from_deal_string(g.deal_string(), rules=5)",
        "Klondike.from_deal_string(g.deal_string(), lang=None)",
    ),
    "core.game.Klondike.explain": ("g.explain(5)", "g.explain(None)"),
    "core.game.Klondike.hint": (
        "g.hint(samples=2.0)",
        "g.hint(peek=1)",
        "g.hint(peek='yes', max_states=1)",
        "g.hint(samples=-10**5000)",
        "g.hint(seconds=10**5000, max_states=1_000)",
        "g.hint(samples=0)",
    ),
    "core.game.Klondike.chances": (
        "g.chances(seed=None)",
        "g.chances(seed=1.0)",
        "g.chances(samples='3')",
        "g.chances(max_states=0)",
    ),
    "core.game.Klondike.play_out": (
        "g.play_out(Greedy(), max_moves=1.5)",
        "g.play_out(Greedy(), max_moves=-1)",
        "g.play_out(5)",
    ),
    "core.game.Klondike.is_winnable": ("g.is_winnable(max_states=1.0)", "g.is_winnable(seconds=0)"),
    "core.game.Klondike.review": (
        "g.review(seed=None)",
        "g.review(samples=2.0)",
        "g.review(progress=3)",
        "g.review(cancel=5)",
    ),
    "core.game.Klondike.solve": (
        "g.solve(seconds=-10**5000, max_states=1_000)",
        "g.solve(seconds='1', max_states=1_000)",
    ),
    "core.game.Klondike.deal_string": ("g.deal_string(5)", "g.deal_string('x')"),
    "core.engine.Engine.play": ("g.play(5)", "g.play(None)", "g.play('t1-t9')"),
    "core.engine.Engine.parse_move": ("g.parse_move(5)", "g.parse_move('x')"),
    "core.engine.Engine.notation": ("g.notation(5)", "g.notation('x')"),
    "core.engine.Engine.on_change": ("g.on_change(5)", "g.on_change(None)"),
    "core.game.Klondike.view": ("g.view(reveal=1)", "g.view(reveal='no')"),
    "core.table.Table.lang": ("setattr(g, 'lang', 5)", "setattr(g, 'lang', 'de')"),
    "core.table.Table.can_play": ("g.can_play(None)", "g.can_play(5)"),
    "core.table.Table.check": ("g.check(None)", "g.check('x')"),
    "core.table.Table.moving_cards": ("g.moving_cards(5)", "g.moving_cards(None)"),
    "core.table.Table.uncovers": ("g.uncovers(5)", "g.uncovers(None)"),
    "core.i18n.card_name": ("card_name(None)", "card_name(Card(1, Suit.HEARTS), 'de')"),
    "core.i18n.catalogue": ("catalogue('de')", "catalogue(None)"),
    "core.i18n.check_language": ("check_language('de')", "check_language(5)"),
    "core.i18n.labels": ("labels('de')", "labels(None)"),
    "core.i18n.message": ("message(None)", "message('no such key')", "message('lesson.none', 'de')"),
    "core.i18n.ntext": ("ntext(None, 1)", "ntext('recording', 1.5)", "ntext('recording', 1, 'de')"),
    "core.i18n.rank_name": ("rank_name(14)", "rank_name(None)", "rank_name(1, 'de')"),
    "core.marks.Mark": ("Mark('x')", "Mark('t1', 5)", "Mark('t1', color='pink')", "Mark(None)"),
    "core.marks.Mark.from_json": ("Mark.from_json(None)", "Mark.from_json({'at': 't1', 'x': 1})"),
    "core.marks.arrow_for": ("arrow_for(None, None)", "arrow_for(Move.parse('d'), 5)"),
    "core.marks.move_piles": ("move_piles(None, None)", "move_piles('d', 5)"),
    "core.marks.pile_of": ("pile_of(5)", "pile_of('t1', 5)"),
    "core.moves.Move": ("Move(5)", "Move('t0', 'f')", "Move('t1', 't2', card=5)"),
    "core.moves.Move.parse": ("Move.parse(None)", "Move.parse('x')", "Move.parse('d' * 10**6)"),
    "core.narration.describe_rules": ("describe_rules(None)", "describe_rules(Rules(), 'de')"),
    "core.narration.explain": ("explain(None, 'd')", "explain(g, None)"),
    "core.narration.hint_text": ("hint_text(None, None)", "hint_text(g, None)"),
    "core.narration.move_phrase": ("move_phrase(None, None)", "move_phrase(g, None)", "move_phrase(g, 'd', 5)"),
    "core.narration.narrate_played": ("narrate_played(None, None)", "narrate_played(g, None)"),
    "core.position.Position.from_json": (
        "Position.from_json(None)",
        "Position.from_json({**g.position_json(), 'recycles': -3})",
        "Position.from_json(g.position_json(), columns=0)",
    ),
    "core.position.Position.check": ("g.snapshot().check(5)",),
    "core.position.check_deal": ("check_deal(None)", "check_deal([1, 2])", "check_deal(full_deck()[:51])"),
    "core.position.check_source": ("check_source(None)", "check_source(g.snapshot(), 5)"),
    "core.position.deal_piles": ("deal_piles(None, (0,))", "deal_piles(full_deck(), None)"),
    "core.position.deal_position": ("deal_position(None, Rules())", "deal_position(full_deck(), None)"),
    "core.position.parse_deal": ("parse_deal(None)", "parse_deal('x')"),
    "core.position.seeded_deal": ("seeded_deal(None)", "seeded_deal(True)", "seeded_deal(1.5)"),
    "core.rules.Rules": (
        "Rules(draw=2.0)",
        "Rules(foundation_to_tableau=1)",
        "Rules(max_passes=0)",
        "Rules(empty_column=5)",
        "Rules(face_down=5)",
        "Rules(scoring='standard')",
    ),
    "core.rules.Rules.preset": ("Rules.preset('x')", "Rules.preset('standard', draw=True)", "Rules.preset(scoring=5)"),
    "core.rules.Rules.describe": ("Rules().describe('de')", "Rules().describe(None)"),
    "core.rules.Rules.from_json": (
        "Rules.from_json(None)",
        "Rules.from_json({'draw': 0})",
        "Rules.from_json({'x': 1})",
    ),
    "core.rules.Scoring": ("Scoring(start=1.5)", "Scoring(floor='x')", "Scoring(name=5)"),
    "core.rules.Scoring.preset": ("Scoring.preset('x')", "Scoring.preset(None)"),
    "core.rules.Scoring.recycle_points": ("Scoring().recycle_points(None, 1)", "Scoring().recycle_points(1, 'x')"),
    "core.rules.Scoring.from_json": ("Scoring.from_json(None)", "Scoring.from_json({'x': 1})"),
    "core.rules.rules_label": ("rules_label(None)", "rules_label('standard')"),
    "core.view.PlayerView.fill": ("v.fill(None)", "v.fill([1])", "v.fill(full_deck())"),
    "core.view.PlayerView.sample": ("v.sample(None)", "v.sample(5)"),
    # ----------------------------------------------------------------------------------------- env
    "env.KlondikeEnv": (
        "KlondikeEnv(max_steps=1.5)",
        "KlondikeEnv(rules=5)",
        "KlondikeEnv(preset='x')",
        "KlondikeEnv(reward='x')",
        "KlondikeEnv(illegal_reward='x')",
        "KlondikeEnv(passes='x')",
        "KlondikeEnv(render_mode='x')",
    ),
    "env.KlondikeEnv.reset": ("KlondikeEnv().reset(seed=1.5)", "KlondikeEnv().reset(options=5)"),
    "env.KlondikeEnv.step": ("KlondikeEnv().step(None)", "KlondikeEnv().step(-1)", "KlondikeEnv().step(10**6)"),
    "env.action_count": ("action_count(None)", "action_count(10)"),
    "env.action_mask": ("action_mask(None)", "action_mask(Rules())"),
    "env.action_to_move": ("action_to_move(None, g)", "action_to_move(0, None)", "action_to_move(-1, g)"),
    "env.describe_action": ("describe_action(None, 7)", "describe_action(0, None)", "describe_action(10**6, 7)"),
    "env.move_to_action": ("move_to_action(None, g)", "move_to_action('d', None)", "move_to_action('x', g)"),
    "env.observation_space": ("observation_space(None)", "observation_space(v)"),  # issue 60: AttributeError
    "env.observe": ("observe(None)", "observe(Rules())"),
    # --------------------------------------------------------------------------------------- hints
    "hints.find_fair_hint": ("find_fair_hint(g, samples=0)", "find_fair_hint(None)", "find_fair_hint(g, seed=None)"),
    "hints.find_hint": ("find_hint(None)", "find_hint(g, max_states=0)", "find_hint(g, seconds=0)"),
    "hints.hint_move": ("hint_move(g, max_states=0)", "hint_move(None)"),
    # ------------------------------------------------------------------------------------- interop
    "interop.from_deal_string": ("from_deal_string(None, 'patiencelab')", "from_deal_string('x', 'nope')"),
    "interop.to_deal_string": ("to_deal_string(None, 'patiencelab')", "to_deal_string(full_deck(), 'nope')"),
    # ------------------------------------------------------------------------------------- lessons
    "lessons.format.Lesson": (
        "Lesson(5, ())",
        "Lesson('t', 5)",
        "Lesson('t', (), rules=5)",
        "Lesson('t', (), lang='de')",
    ),
    "lessons.format.Lesson.game_at": ("L.game_at(True)", "L.game_at(1.0)", "L.game_at(-1)", "L.game_at(10**6)"),
    "lessons.format.Lesson.from_game": (
        "Lesson.from_game(None, 't')",
        "Lesson.from_game(g, 5)",
        "Lesson.from_game(g, 't', notes=5)",
    ),
    "lessons.format.Lesson.from_moves": (
        "Lesson.from_moves(None, [], 't')",
        "Lesson.from_moves(g, 5, 't')",
        "Lesson.from_moves(g, ['x'], 't')",
    ),
    "lessons.format.Lesson.from_json": ("Lesson.from_json(None)", "Lesson.from_json({})"),
    "lessons.format.Lesson.judge": (
        "L.judge(0, 'd')",
        "L.judge(1.0, 'd')",
        "L.judge(1, None)",
        "L.judge(1, 'd', max_states=0)",
        "L.judge(1, 'd', lang='de')",
        "L.judge(1, 'd', peek=1)",
    ),
    "lessons.format.Lesson.save": ("L.save(None)", "L.save(5)"),
    "lessons.format.Lesson.loads": ("Lesson.loads(None)", "Lesson.loads('{')", "Lesson.loads('[]')"),
    "lessons.format.Lesson.builtin": ("Lesson.builtin(5)", "Lesson.builtin('x')"),
    "lessons.format.Lesson.load": ("Lesson.load(None)", "Lesson.load(5)"),
    "lessons.format.Quiz": ("Quiz(accept=5)", "Quiz(winnable=1)", "Quiz(tries=0)"),
    "lessons.format.Quiz.from_json": ("Quiz.from_json(None)", "Quiz.from_json({'tries': 'x'})"),
    "lessons.format.ReviewChart": ("ReviewChart(5)", "ReviewChart(((2.0, 0.0, 1.0),))"),
    "lessons.format.ReviewChart.from_json": ("ReviewChart.from_json(None)", "ReviewChart.from_json({'points': 5})"),
    "lessons.format.Step": ("Step(None)", "Step(Move.parse('d'), illegal=1)", "Step(Move.parse('d'), quiz=5)"),
    "lessons.format.Step.from_json": ("Step.from_json(None, 1, 1)", "Step.from_json({'move': 5}, 1, 1)"),
    "lessons.format.text_in": ("text_in(5, 'en')", "text_in('x', 'de')"),
    # ------------------------------------------------------------------------------------- players
    "players.evaluation.compare": (
        "compare(None, deals=1, progress=False)",
        "compare({'a': Greedy()}, deals=1.5, progress=False)",
        "compare({'a': 5}, deals=1, progress=False)",
    ),
    "players.evaluation.evaluate": (
        "evaluate(Greedy(), deals=1.5, progress=False)",
        "evaluate(Greedy(), deals='abc', progress=False)",
        "evaluate(Greedy(), deals=-1, progress=False)",
        "evaluate(Greedy(), deals=[1.5], progress=False)",
        "evaluate(Greedy(), deals=2, workers=0, progress=False)",
        "evaluate(Greedy(), deals=1, name=5, progress=False)",
        "evaluate(Greedy(), deals=1, rules=5, progress=False)",
        "evaluate(5, deals=1, progress=False)",
    ),
    "players.evaluation.play_game": (
        "play_game(Greedy(), 1.5, '{}')",
        "play_game(Greedy(), 1, None)",
        "play_game(5, 1, '{}')",
    ),
    "players.evaluation.plot": ("plot_evaluations(None)", "plot_evaluations([5])"),
    "players.playing.as_choose": ("as_choose(5)", "as_choose(Greedy(), 5)"),
    "players.playing.play_out": ("play_out(5, Greedy())", "play_out(g, Greedy(), max_moves=2.0)", "play_out(g, 5)"),
    "players.playing.play_to_end": ("play_to_end(5, Greedy())", "play_to_end(g, Greedy(), max_moves=None)"),
    "players.sampling.chances": (
        "chances(g.player_view(), seed=None)",
        "chances(g.player_view(), samples=2.5)",
        "chances(5)",
    ),
    "players.sampling.deals": ("sample_deals(None, 1, 0)", "sample_deals(v, 0, 0)", "sample_deals(v, 1, None)"),
    "players.sampling.keeps_winnable": (
        "keeps_winnable(g.player_view(), [], samples=0)",
        "keeps_winnable(None, [])",
        "keeps_winnable(v, 5)",
    ),
    "players.sampling.legal_moves": ("legal_moves(None)", "legal_moves(g)"),  # issue 60: AttributeError
    "players.sampling.stand_in": ("stand_in(None)", "stand_in(g)"),  # issue 60: AttributeError
    "players.sampling.moves_to_choose": ("moves_to_choose(None)", "moves_to_choose(g)"),
    "players.ismcts.TreeSearch": (
        "TreeSearch(iterations=0)",
        "TreeSearch(leaf_states=0)",
        "TreeSearch(leaf='guess')",
        "TreeSearch(deals=-1)",
        "TreeSearch(tiebreak='votes')",
        "TreeSearch(c=-1)",
        "TreeSearch(margin=None)",
        "TreeSearch(decision_states=True)",
        "TreeSearch(seed=1.5)",
        "TreeSearch(scout=1)",
    ),
    "players.ismcts.TreeSearch.choose": ("TreeSearch().choose(None)", "TreeSearch().choose(g)"),
    "players.strategies.Greedy.choose": ("Greedy().choose(None)", "Greedy().choose(g)"),  # issue 60
    "players.nopeek.NoPeek": (
        "NoPeek(samples=-10**5000)",
        "NoPeek(max_states=0)",
        "NoPeek(seed=None)",
        "NoPeek(seed=1.5)",
        "NoPeek(samples=2.0)",
        "NoPeek(tiebreak='best')",
        "NoPeek(tiebreak=1)",
        "NoPeek(scout=1)",  # None is the default (draw 3 only), so not among the switch's bad values
        "NoPeek(scout='yes')",
        "NoPeek(decision_states=0)",
        "NoPeek(known_states='5')",
    ),
    "players.nopeek.NoPeek.tiebreak_for": ("NoPeek().tiebreak_for(None)", "NoPeek().tiebreak_for(v)"),
    "players.nopeek.NoPeek.choose": ("NoPeek().choose(None)", "NoPeek().choose(g)"),  # issue 60
    "players.nopeek.NoPeek.decide": ("NoPeek().decide(None)", "NoPeek().decide(v, confirm=1)"),  # issue 60
    "players.strategies.Oracle": ("Oracle(max_states=0)", "Oracle(5)"),
    "players.strategies.Oracle.seeing": ("Oracle().seeing(None)", "Oracle().seeing(v)"),
    "players.strategies.Oracle.choose": ("Oracle(g).choose(None)", "Oracle().choose(v)"),
    "players.strategies.RandomMoves": ("RandomMoves(seed=None)", "RandomMoves(seed='x')", "RandomMoves(seed=True)"),
    "players.strategies.RandomMoves.choose": ("RandomMoves().choose(None)", "RandomMoves().choose(g)"),  # issue 60
    # ------------------------------------------------------------------------------------- records
    "records.store.Records": (
        "Records(r.path, timeout='30')",  # issue 60: a bare TypeError, ValueError or OverflowError
        "Records(r.path, timeout=None)",
        "Records(r.path, timeout=float('nan'))",
        "Records(r.path, timeout=float('inf'))",
        "Records(r.path, timeout=-1)",
        "Records(5)",
    ),
    "records.store.Records.add": (
        "r.add(None)",
        "r.add(g, outcome='x')",
        "r.add(g, finished_at=5)",
        "r.add(g, board=5)",
    ),
    "records.store.Records.keep": ("r.keep('b', None)", "r.keep(None, g)", "r.keep('b', g, process=5)"),  # issue 60
    "records.store.Records.drop": ("r.drop(None)", "r.drop(5)"),
    "records.store.Records.claim": (
        "r.claim(None, '', lambda found: 'leave')",
        "r.claim('b', 5, lambda found: 'leave')",
        "r.claim('b', '', None)",
    ),
    "records.store.Records.take": ("r.take(None, 'b', '')", "r.take('a', None, '')", "r.take('a', 'b', None)"),
    "records.store.Records.decline": ("r.decline(None, 'b', store=False)", "r.decline('a', 'b', store=None)"),
    "records.store.Records.withdraw": ("r.withdraw(None)", "r.withdraw(5)"),
    "records.store.Records.history": ("r.history(rules=5)", "r.history(draw=2**70)", "r.history(scoring=5)"),
    "records.store.Records.stats": (
        "r.stats(draw=2**70)",
        "r.stats(draw=0)",
        "r.stats(rules=5)",
    ),  # issue 60: OverflowError
    "records.store.Records.export_json": ("r.export_json(None)", "r.export_json(5)"),  # issue 60: TypeError
    "records.store.Records.export_csv": ("r.export_csv(None)", "r.export_csv(5)"),  # issue 60: TypeError
    "records.store.Records.import_file": ("r.import_file(None)", "r.import_file(5)"),  # issue 60: TypeError
    "records.store.Records.plot": ("r.plot(rules=5)", "r.plot(draw=2**70)"),
    "records.rows.GameInPlay.game": ("r_in_play().game('de')", "r_in_play().game(None)"),
    "records.rows.GameInPlay.is_like": ("r_in_play().is_like(deal=5)", "r_in_play().is_like(rules='standard')"),
    "records.rows.imported_row": ("imported_row(None, 1)", "imported_row({}, 1)"),
    "records.rows.read_export": ("read_export(None)", "read_export(5)"),
    "records.rows.rules_key": ("rules_key(None)", "rules_key('standard')"),
    "records.rows.scoring_key": ("scoring_key(None)", "scoring_key('standard')"),
    # -------------------------------------------------------------------------------------- review
    "review.Review.lesson": (
        "g.review(max_states=1_000, samples=1).lesson(None, title='t')",
        "g.review(max_states=1_000, samples=1).lesson(g, title=5)",
    ),
    "review.lesson.lesson_of": ("lesson_of(None, None, title='t')",),
    "review.Review.retold": (
        "g.review(max_states=1_000, samples=1).retold(None, 'en')",
        "g.review(max_states=1_000, samples=1).retold(g, 'de')",
    ),
    "review.Review.plot": (
        "g.review(max_states=1_000, samples=1).plot(5)",
        "g.review(max_states=1_000, samples=1).plot(lang='de')",
    ),
    "review.chances.chances_along": (
        "chances_along(None)",
        "chances_along([v], samples=0)",
        "chances_along([5])",
        "chances_along([v], progress=5)",
        "chances_along([v], max_positions=0)",
    ),
    "review.chances.sample_states_for": ("sample_states_for(None)", "sample_states_for('traditional')"),
    "review.review": (
        "review(None)",
        "review(g, samples=0)",
        "review(g, cancel=5)",
        "review(g, max_calls=0)",
        "review(g, sample_states='lots')",
    ),
    "review.verdict.judge_loss": (
        "judge_loss(None, Move.parse('d'), samples=4, max_states=100, seed=0)",
        "judge_loss(v, 'd', samples=4, max_states=100, seed=0)",
        "judge_loss(v, Move.parse('d'), samples=0, max_states=100, seed=0)",
        "judge_loss(v, Move.parse('d'), samples=4, max_states=0, seed=0)",
        "judge_loss(v, Move.parse('d'), samples=4, max_states=100, seed=None)",
        "judge_loss(v, Move.parse('d'), samples=4, max_states=100, seed=0, max_positions=0)",
    ),
    "players.sampling.Chances.text": ("Chances(0.5, 0.1, 0.9, 1, 1, 0).text('de')",),
    # -------------------------------------------------------------------------------------- solver
    "solver.solve": (
        "solve(5)",
        "solve(g.snapshot(), rules=5)",
        "solve(g, rules=5)",
        "solve(g, max_states=1.5)",
        "solve(g, seconds='1', max_states=1_000)",
    ),
    "solver.solve_in_slices": (
        "solve_in_slices(5)",
        "solve_in_slices(g, max_states=0)",
        "solve_in_slices(g, seconds='x', max_states=1_000)",
    ),
    "solver.seeds.find_solvable_seed": (
        "find_solvable_seed(1.5, Rules())",
        "find_solvable_seed(0, 5)",
        "find_solvable_seed(0, Rules(), max_tries=-10**5000)",
        "find_solvable_seed(0, Rules(), max_tries=1.0)",
        "find_solvable_seed(0, Rules(), max_states_per_deal=0)",
    ),
    "solver.verdicts.autocomplete_moves": ("autocomplete_moves(5)", "autocomplete_moves(g, rules=5)"),
    "solver.verdicts.verdict": (
        "verdict(None, {}, 1.0)",
        "verdict(g.position_json(), None, 1.0)",
        "verdict(g.position_json(), {}, 0)",
    ),
    "solver.verdicts.verdict_in_slices": (
        "verdict_in_slices(None, {}, 1.0)",
        "verdict_in_slices(g.position_json(), {}, 1.0, max_states=0)",
    ),
    # --------------------------------------------------------------------------------------- stats
    "stats.sign_test": ("sign_test(-1, 0)", "sign_test(None, 0)", "sign_test(1.5, 0)"),
    "stats.share_text": (
        "share_text(0.5, 0.1, 0.9, lang='de')",
        "share_text('1', 0.1, 0.9)",
        "share_text(0.5, None, 0.9)",
        "share_text(0.5, 0.1, 0.9, digits=-1)",
        "share_text(None, 0.1, 0.9, always=1)",
    ),
    "stats.wilson": ("wilson(2, 1)", "wilson(None, 1)", "wilson(0, 0, z=-1)", "wilson(1, 2, z=None)"),
    # -------------------------------------------------------------------------------------- survey
    "survey.files.Budget": ("Budget(seconds=0)", "Budget(max_states=0)", "Budget(seconds=None)", "Budget(seconds='1')"),
    "survey.files.Budget.of": ("Budget.of(None)", "Budget.of('1')", "Budget.of(0)"),
    "survey.files.Budget.from_json": ("Budget.from_json(None)", "Budget.from_json({'seconds': 'x'})"),
    "survey.files.Row.from_json": ("Row.from_json(None)", "Row.from_json({'seed': 'x'})"),
    "survey.files.Summary.of": ("Summary.of(None)", "Summary.of([5])"),
    "survey.files.SurveyResult.save": ("survey(1, budget=Budget(None, 100), workers=1, progress=False).save(None)",),
    "survey.files.SurveyResult.load": ("SurveyResult.load(None)", "SurveyResult.load(5)"),
    "survey.files.summary_table": ("summary_table(None)", "summary_table([5])"),
    "survey.solve_seed": (
        "solve_seed(None, '{}', 1.0, None)",
        "solve_seed(1, None, 1.0, None)",
        "solve_seed(1, '{}', 0, None)",
    ),
    "survey.survey": (
        "survey(-1, workers=1, progress=False)",
        "survey(2, budget=0, workers=1, progress=False)",
        "survey(2, workers=1.0, progress=False)",
        "survey(2, rules=5, workers=1, progress=False)",
        "survey(2, workers=1, path=5, progress=False)",
        "survey(2, workers=1, resume=1, progress=False)",
        "survey(2, workers=1, progress=5)",
    ),
    # ----------------------------------------------------------------------------------------- svg
    "svg.render": (
        "render(g, theme=5)",
        "render(5)",
        "render(g, move=5)",
        "render(g, reveal=1)",
        "render(g, width=-1)",
        "render(g, highlight=5)",
        "render(g, title=5)",
        "render(g, rules=5)",
        "render(g, marks=5)",
        "render(g, caption=5)",
    ),
    # ------------------------------------------------------------------------------------- workers
    "workers.process_pool": ("process_pool(0)", "process_pool(None)"),
    "widget.present.notebook": ("notebook(lang='de')", "notebook(lesson=5)", "notebook(seed='1; import os')"),
    "widget.present.command": (
        "command(None)",
        "command(pathlib.Path('.'), port=0)",
        "command(pathlib.Path('.'), port='80')",
        "command(pathlib.Path('.'), browser=None)",
    ),
    # -------------------------------------------------------------------------------------- widget
    "widget.board.KlondikeWidget": (
        "KlondikeWidget(5)",
        "KlondikeWidget(seed=1.5)",
        "KlondikeWidget(rules=5)",
        "KlondikeWidget(lang='de')",
        "KlondikeWidget(records=5)",
        "KlondikeWidget(lesson=5)",
        "KlondikeWidget(executor=5)",
    ),
    "widget.session.BoardSession": (
        "BoardSession(5)",
        "BoardSession(seed=1.5)",
        "BoardSession(rules=5)",
        "BoardSession(lang='de')",
        "BoardSession(records=5)",
        "BoardSession(lesson=5)",
        "BoardSession(options=5)",
        "BoardSession(options={'x': 1})",
        "BoardSession(host=5)",
        "BoardSession(runner=5)",
    ),
    "widget.session.BoardSession.check_arguments": ("BoardSession.check_arguments(5, None, None, 'en')",),
    "widget.session.BoardSession.check_option": (
        "BoardSession.check_option('x', 1)",
        "BoardSession.check_option('hint_samples', 0)",
    ),
    **{
        f"widget.{module}.{cls}.{name}": tuple(call.format(board) for call in calls)
        for module, cls, board in (("board", "KlondikeWidget", "w"), ("session", "BoardSession", "b"))
        for name, calls in BOARD_CALLS.items()
    },
    "widget.session.BoardSession.set_option": (
        "b.set_option('x', 1)",
        "b.set_option('hint_samples', 0)",
        "b.set_option(5, 1)",
    ),
    "widget.options.board_options": (
        "board_options(5)",
        "board_options({'x': 1})",
        "board_options({'hint_samples': 0})",
    ),
    "widget.options.change_option": ("change_option({}, 'x', 1)", "change_option({}, 'hint_samples', 0)"),
    "widget.options.check_arguments": (
        "check_arguments(5, None, None, 'en')",
        "check_arguments(None, 1.5, None, 'en')",
        "check_arguments(None, None, 5, 'en')",
        "check_arguments(None, None, None, 'de')",
    ),
    "widget.options.check_option": ("check_option('x', 1)", "check_option('hint_samples', 0)", "check_option(5, 1)"),
    "widget.options.check_parts": (
        "check_parts(5, None, None)",
        "check_parts(None, 5, None)",
        "check_parts(None, None, 5)",
    ),
    "widget.board.OptionTrait.validate": (
        "KlondikeWidget.size.validate(None, 5)",
        "KlondikeWidget.reveal.validate(None, 1)",
    ),
    "widget.options.Option.check": ("TABLE['size'].check(5)", "TABLE['faces'].check('x')", "TABLE['reveal'].check(1)"),
    "widget.intents.read_intent": (
        "read_intent(None, 1)",
        "read_intent({'type': 'x'}, 1)",
        "read_intent({'type': 'move'}, None)",
    ),
}


#: Public names that take arguments but are no entry point for outside values, with the reason; a name is listed
#: here by itself, its class or its module. Everything else public has bad calls in :data:`BAD_CALLS`.
NOT_ENTRY_POINTS: dict[str, str] = {
    "core.errors.quote": "takes any value: it only writes it short",
    "widget.board.KlondikeWidget.handle_intent": "any content: a bad intent gets a rejected reply (test_intent_fuzz)",
    "widget.session.BoardSession.handle_intent": "any content: a bad intent gets a rejected reply (test_intent_fuzz)",
    "core.limits": "the checkers themselves: the value checked may be anything, the rest comes from the package's code",
    "core.kernel": "the compiled kernel's card codes, called by the table and the search with codes they made",
    "solver.node": "the search's own nodes, made by solve() from a position it checked",
    "solver.movegen": "the search's move codes, made by the search on its own nodes",
    "solver.deadend": "the search's own test of its nodes",
    "solver.portfolio": "the search's runs, made and driven by solve() from what it checked",
    "widget.autoplay": "a part of the board: BoardSession makes it and calls it with the values it checked",
    "widget.background": "a part of the board: BoardSession makes it and calls it with the values it checked",
    "widget.caption": "a part of the board: BoardSession makes it and calls it with the values it checked",
    "widget.dispatch": "a part of the board: BoardSession.handle_intent hands it the front end's intents",
    "widget.host": "a part of the board: BoardSession makes it and calls it with the values it checked",
    "widget.indicator": "a part of the board: BoardSession makes it and calls it with the values it checked",
    "widget.intents": "a part of the board: read_intent (in BAD_CALLS) checks an intent before the others read it",
    "widget.runners": "a part of the board: BoardSession makes it and calls it with the values it checked",
    "widget.keeper": "a part of the board: BoardSession makes it and calls it with the values it checked",
    "widget.offers": "a part of the board's records: the keeper calls it with the records and boards it holds",
    "widget.parts": "a part of the board: BoardSession makes it of the parts it built",
    "widget.board_lessons": "a part of the board: BoardSession makes it and calls it with the values it checked",
    "widget.processes": "a part of the board's records: called with the names of this machine's processes",
    "widget.options.Kind": "the kinds of the options' table, written in the package (Option.check is in BAD_CALLS)",
    "widget.options.Option": "a row of the options' table, written in the package (its check is in BAD_CALLS)",
    "widget.board.OptionTrait": "made in the widget's class body from a row of the options' table",
    "widget.state.Schema": "a mark in the synced state's type hints, read by tools/state_types.py",
    "widget.state.TypeScript": "a mark in the synced state's type hints, read by tools/state_types.py",
    "widget.protocol": "a part of the board: builds what it shows from its checked game",
    "widget.recording": "a part of the board: BoardSession makes it and calls it with the values it checked",
    "widget.review_job": "a part of the board: BoardSession makes it and calls it with the values it checked",
    "widget.teaching": "a part of the board: BoardSession makes it and calls it with the values it checked",
    "widget.board_indicator": "a part of the board: BoardSession makes it and calls it with the values it checked",
    "core.moves.is_foundation": "a predicate: False for anything that is not a foundation's place",
    "core.moves.is_tableau": "a predicate: False for anything that is not a column's place",
    "core.marks.is_pile": "a predicate: False for anything that is not a pile's name",
    "players.ranking": "the hint order's steps: the hints and players call them with the game they checked",
    "players.scouting": "the fair player's own step: NoPeek calls it with the view it checked",
    "players.sampling.after": "a step of chances and NoPeek: called with the deals they made from a checked view",
    "players.sampling.exhaustive": "a step of chances and NoPeek: called with the view they checked",
    "players.sampling.solve_deal": "a step of chances and NoPeek: called with the deals they made from a checked view",
    "players.sampling.tally": "a step of chances and the review: called with the counts they made",
    "records.rows.game_in_play": "reads a row of the records' own table: None for one that is no game in play",
    "records.rows.row_from_values": "reads a row of the records' own table (Records makes what fails a RecordsError)",
    "records.in_play": "the games in play's statements: Records runs them in its transaction with the names it checked",
    "records.schema": "the schema's statements: Records calls them in its transaction with the game it checked",
    "records.stats": "the figures of stored games: Records calls them with the rows it read",
    "records.transfer": "export and import: Records calls them with the rows it read and the path it was given",
    "lessons.judge.judge_answer": "a step of Lesson.judge: called with the step's position and quiz it checked",
    "widget.session.BoardSession.sync": "the parts' call to show the board again, with the change they saw",
    "workers.SliceExecutor": "a concurrent.futures.Executor: as the standard ones, a bad job fails in its future",
    "workers.progress_bar": "tqdm's own options, handed on by the package's evaluate, survey and review",
    "workers.run_jobs": "the package's job loop: evaluate and survey hand it the executor and jobs they checked",
    "workers.stop_pool": "the package's own pools: evaluate and survey hand it the pool they made",
    "workers.window": "the package's job loop: any executor has a window (64 when it does not say its workers)",
    "records.rows.game_columns": "the columns of a row, made by Records.add from a game it checked",
    "core.engine.Engine": "the compiled part of Klondike: a user makes a Klondike (its bad calls are above)",
    "review.chances.verdict_of": "maps the solver's own outcome to a deal's verdict; it is given no outside input",
    "solver.search.solve": "the compiled search, called with checked arguments: a user calls solver.solve (above)",
    "solver.search.solve_in_slices": "the compiled search, called with checked arguments: solver.solve_in_slices",
    "widget.board.KlondikeWidget.show": "the host's side of the board: BoardSession calls it with the state it made",
    "widget.board.KlondikeWidget.show_labels": "the host's side of the board: BoardSession calls it with its labels",
    "widget.board.KlondikeWidget.option_changed": "the host's side of the board: BoardSession calls it with an option",
    "widget.board.KlondikeWidget.schedule": "the host's side of the board: BoardSession calls it with its own work",
}

#: Results the package makes and hands out, whose constructors no one calls with outside values (what reads outside
#: input, such as ``from_json``, has bad calls): frozen records of what a game, a search, a player or a review found.
RESULTS = (
    "core.game.Change",
    "core.engine.Played",
    "core.position.Column",
    "core.position.Position",
    "core.view.ColumnView",
    "core.view.PlayerView",
    "hints.Hint",
    "lessons.judge.Answer",
    "players.evaluation.Comparison",
    "players.evaluation.Evaluation",
    "players.evaluation.GameRow",
    "players.sampling.Chances",
    "players.nopeek.Decision",
    "records.stats.Stats",
    "records.rows.GameInPlay",
    "records.rows.GameRow",
    "review.Review",
    "review.chances.Along",
    "review.chances.MarkedMove",
    "review.verdict.LossVerdict",
    "players.ismcts.TreeDecision",
    "solver.search.Solution",
    "stats.Interval",
    "survey.files.Row",
    "survey.files.Summary",
    "survey.files.SurveyResult",
)

#: Every bad call of :data:`BAD_CALLS`, in order.
ALL_BAD_CALLS = [call for calls in BAD_CALLS.values() for call in calls]


def _takes_arguments(routine: Any) -> bool:
    try:
        parameters = inspect.signature(routine).parameters
    except (TypeError, ValueError):  # a builtin without a signature: none of ours
        return False
    return any(name not in ("self", "cls") for name in parameters)


def _short(obj: Any, attribute: str = "") -> str:
    name = f"{obj.__module__}.{obj.__qualname__}".removeprefix("patiencelab.")
    return f"{name}.{attribute}" if attribute else name


def public_callables() -> set[str]:
    """Every public function, constructor, method and property setter that takes arguments, by the name it is made
    under (a name handed on by several modules counts once): the names the table must cover. Exceptions, enums'
    constructors, protocols and typed dicts have no code of their own that checks."""
    found: set[str] = set()
    for modname, name in load_docs_generator().public_names():
        obj = getattr(importlib.import_module(modname), name)
        if inspect.isroutine(obj):
            if _takes_arguments(obj):
                found.add(_short(obj))
            continue
        if not inspect.isclass(obj) or issubclass(obj, BaseException) or is_typeddict(obj):
            continue
        if getattr(obj, "_is_protocol", False):
            continue
        if not issubclass(obj, enum.Enum) and _takes_arguments(obj):
            found.add(_short(obj))
        for attribute, value in vars(obj).items():
            if attribute.startswith("_"):
                continue
            if isinstance(value, property):
                if value.fset is not None:
                    found.add(_short(obj, attribute))
            elif inspect.isroutine(getattr(obj, attribute)) and _takes_arguments(getattr(obj, attribute)):
                found.add(_short(obj, attribute))
    return found


def _exists(name: str) -> bool:
    """Whether ``name`` (as in :data:`BAD_CALLS`) names a module, or something in one."""
    parts = f"patiencelab.{name}".split(".")
    for end in range(len(parts), 1, -1):
        try:
            found: Any = importlib.import_module(".".join(parts[:end]))
        except ImportError:
            continue
        for part in parts[end:]:
            found = getattr(found, part, None)
        return found is not None
    return False


def _reason(name: str) -> str | None:
    """Why ``name`` has no bad calls (:data:`NOT_ENTRY_POINTS`, by itself, its class or its module), if it has none."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        reason = NOT_ENTRY_POINTS.get(".".join(parts[:end]))
        if reason is not None:
            return reason
    return "a result the package makes" if name in RESULTS else None


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
    ("NoPeek(decision_states={})", "states"),
    ("NoPeek(samples=1, max_states=200).decide(v, confirm={})", "switch"),
    ("RandomMoves(seed={})", "seed"),
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


#: Names the calls use for public functions imported under another name.
ALIASES = {
    "players.sampling.deals": "sample_deals",
    "players.evaluation.plot": "plot_evaluations",
}


#: The modules whose public names the calls use.
_SCOPE_MODULES = (
    *("env", "hints", "interop", "lessons", "stats", "survey", "survey.files", "svg", "workers", "records.rows"),
    *("core.cards", "core.errors", "core.i18n", "core.marks", "core.moves", "core.narration", "core.position"),
    *("core.rules", "players.nopeek", "players.evaluation", "players.playing", "players.ranking"),
    *("players.sampling", "players.scouting", "players.strategies", "review.chances", "review.verdict"),
    *("solver.search", "solver"),
    *("solver.seeds", "solver.verdicts", "widget.options", "widget.protocol", "widget.intents", "widget.session"),
    *("widget.present", "players.ismcts", "review.lesson"),
)


def _scope() -> dict[str, Any]:
    """The names the calls use: every public name they call, by its own name or its alias."""
    from decimal import Decimal
    from fractions import Fraction

    from patiencelab.players import evaluation, sampling
    from patiencelab.records import Records
    from patiencelab.review import review
    from patiencelab.widget import KlondikeWidget

    names: dict[str, Any] = {"Decimal": Decimal, "Fraction": Fraction, "Records": Records, "review": review}
    names["pathlib"] = pathlib
    for short in _SCOPE_MODULES:
        module = importlib.import_module(f"patiencelab.{short}")
        names.update({name: getattr(module, name) for name in module.__all__})
    names.update(Klondike=Klondike, KlondikeWidget=KlondikeWidget, Rules=Rules, chances=sampling.chances)
    names.update(sample_deals=sampling.deals, plot_evaluations=evaluation.plot)
    return names


def answers(calls: list[str]) -> list[list[Any]]:
    """What each call raises in this process: the exception's class name, its message, and whether it is a
    ``PatienceError`` (or ``["returned", repr]`` when it raises nothing)."""
    import tempfile

    from patiencelab.lessons import Lesson
    from patiencelab.records import Records
    from patiencelab.widget import KlondikeWidget
    from patiencelab.widget.session import BoardSession

    names = _scope()
    # the same path in both builds' processes (conftest.py points PATIENCELAB_HOME at the test's folder)
    home = pathlib.Path(os.environ.get("PATIENCELAB_HOME") or tempfile.mkdtemp())
    records = Records(home / "arguments.sqlite3")

    def in_play() -> Any:
        records.keep("in-play", Klondike(seed=2))
        return records.in_play()[0]

    out: list[list[Any]] = []
    for code in calls:
        game = Klondike(seed=1)
        scope = {**names, "g": game, "v": game.player_view(), "r": records, "r_in_play": in_play}
        scope["L"] = Lesson.builtin("quiz")
        boards = []
        if re.search(r"\bb\b", code):
            boards.append(scope.setdefault("b", BoardSession(seed=1, records=None)))
        if re.search(r"\bw\b", code):
            boards.append(scope.setdefault("w", KlondikeWidget(seed=1, records=None)))
        try:
            result = eval(code, scope)
            if hasattr(result, "__next__"):
                next(result)  # a generator checks its arguments when it starts
            out.append(["returned", repr(result)[:80]])
        except Exception as exc:
            out.append([type(exc).__name__, str(exc), isinstance(exc, PatienceError)])
        finally:
            for board in boards:
                board.close()
    return out


@functools.cache
def table_answers() -> list[list[Any]]:
    """:func:`answers` of every bad call of the table in this process (two tests read them)."""
    return answers(ALL_BAD_CALLS)


@functools.cache
def table_answers_there() -> list[list[Any]]:
    """:func:`answers` of every bad call of the table in the other build (two tests read them)."""
    return other_build(ALL_BAD_CALLS)


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
    refused = list(zip(ALL_BAD_CALLS, table_answers()))
    wrong = [f"{code}: {answer[:2]}" for code, answer in refused if answer[0] == "returned" or not answer[2]]
    assert not wrong, "\n".join(wrong)


def test_both_builds_refuse_each_bad_call_with_the_same_error_and_message() -> None:
    needs_two_builds()
    calls = ALL_BAD_CALLS
    assert patiencelab.COMPILED or os.environ.get("PATIENCELAB_PURE") == "1"
    mismatches = _mismatches(calls, table_answers(), table_answers_there())
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
        Klondike(seed=1).hint(samples=2.0)  # type: ignore[arg-type]  # a wrong type, on purpose
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
        game.hint(samples=2.0)  # type: ignore[arg-type]  # a wrong type, on purpose
    with pytest.raises(PatienceError):
        game.chances(seed=None)  # type: ignore[arg-type]  # a wrong type, on purpose
    with pytest.raises(PatienceError):
        game.play_out(Greedy(), max_moves=1.5)  # type: ignore[arg-type]  # a wrong type, on purpose
    with pytest.raises(PatienceError):
        game.view(reveal=1)  # type: ignore[arg-type]  # a wrong type, on purpose
    assert (game.position_json(), game.history, game.score) == before


def test_every_public_name_has_bad_calls_or_a_reason() -> None:
    public = public_callables()
    missing = sorted(name for name in public if name not in BAD_CALLS and _reason(name) is None)
    assert not missing, "public names with no bad calls in BAD_CALLS (nor a reason in NOT_ENTRY_POINTS):\n" + "\n".join(
        missing
    )
    stale = sorted(name for name in [*BAD_CALLS, *RESULTS, *NOT_ENTRY_POINTS] if not _exists(name))
    assert not stale, "entries for no public name:\n" + "\n".join(stale)
    empty = sorted(name for name, calls in BAD_CALLS.items() if not calls)
    assert not empty, f"entries with no bad call: {empty}"
    misfiled = [
        (name, call)
        for name, calls in BAD_CALLS.items()
        for call in calls
        if ALIASES.get(name, name.rpartition(".")[2]) not in call
    ]
    assert not misfiled, f"calls that do not call the name they are filed under: {misfiled}"


def test_a_public_name_without_an_entry_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    import patiencelab.stats

    def unchecked(share: float) -> float:
        """A public function with no bad calls in the table."""
        return share

    unchecked.__module__, unchecked.__qualname__ = "patiencelab.stats", "unchecked"
    monkeypatch.setattr(patiencelab.stats, "unchecked", unchecked, raising=False)
    monkeypatch.setattr(patiencelab.stats, "__all__", [*patiencelab.stats.__all__, "unchecked"])
    with pytest.raises(AssertionError, match=r"stats\.unchecked"):
        test_every_public_name_has_bad_calls_or_a_reason()
    assert "core.game.Klondike.hint" in public_callables()
    assert "core.errors.quote" not in BAD_CALLS and _reason("core.errors.quote") is not None
    assert _reason("core.game.Klondike.hint") is None and _reason("core.kernel.fits") is not None
    assert "widget.state.GameState" not in public_callables()  # a typed dict
    assert "players.strategies.Player" not in public_callables()  # a protocol


def test_a_record_whose_seed_is_true_is_refused_alike_by_both_builds() -> None:
    """Issue 60, fault 8: the compiled build loaded a record whose seed is ``true`` as seed 1."""
    needs_two_builds()
    calls = ["Klondike.from_record({**g.record(), 'seed': True})", "Klondike.from_record({**g.record(), 'seed': 1.0})"]
    at = [ALL_BAD_CALLS.index(call) for call in calls]
    here, there = [table_answers()[i] for i in at], [table_answers_there()[i] for i in at]
    assert here == there
    assert here[0] == ["InvalidRecordError", "the record's seed must be a whole number, not True", True]
    assert here[1][:2] == ["InvalidRecordError", "the record's seed must be a whole number, not 1.0"]


#: Issue 60, fault 9: public calls that raised a bare AttributeError, TypeError, ValueError or OverflowError, and
#: the argument each message must name.
BARE_ERRORS = (
    ("NoPeek().choose(None)", "view"),
    ("Greedy().choose(None)", "view"),
    ("RandomMoves().choose(None)", "view"),
    ("NoPeek().decide(None)", "view"),
    ("legal_moves(None)", "view"),
    ("stand_in(g)", "view"),
    ("observation_space(v)", "rules"),
    ("Records(r.path, timeout='30')", "timeout"),
    ("Records(r.path, timeout=None)", "timeout"),
    ("Records(r.path, timeout=float('nan'))", "timeout"),
    ("Records(r.path, timeout=float('inf'))", "timeout"),
    ("r.export_json(None)", "path"),
    ("r.export_csv(None)", "path"),
    ("r.import_file(None)", "path"),
    ("r.stats(draw=2**70)", "draw"),
    ("r.keep('b', None)", "Klondike game"),
)


def test_public_calls_with_a_bad_value_raise_a_patience_error_that_names_it_and_change_nothing() -> None:
    from patiencelab.players import NoPeek

    assert all(call in ALL_BAD_CALLS for call, _ in BARE_ERRORS)
    player = NoPeek()
    results = answers([call for call, _ in BARE_ERRORS])
    wrong = [(call, got) for (call, name), got in zip(BARE_ERRORS, results) if not got[-1] or name not in got[1]]
    assert not wrong, wrong
    assert player.last_decision is None
    home = pathlib.Path(os.environ["PATIENCELAB_HOME"])
    from patiencelab.records import Records

    records = Records(home / "arguments.sqlite3")
    assert len(records) == 0 and [game.board for game in records.in_play()] == []
