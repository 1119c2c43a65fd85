"""The words Python and the front end share have one source, in Python: the card-code and pile-name patterns and
the marks' colours, the intents with their fields and actions (``widget/intents.py``), and the synced state's
types (``widget/state.py``). The generated ``js/vocabulary.ts``, the protocol's schema (generated from
``js/types.ts``, and kept equal to it by ``js/tests/ui.test.ts``) and the board's dispatch follow it.
"""

from __future__ import annotations

import importlib.util
import json
import pathlib
import re
import types
import typing
from collections.abc import Mapping
from typing import Any

from patiencelab.core.cards import CARD_PATTERN, full_deck
from patiencelab.core.marks import COLORS, MARK_COLORS, PILE_PATTERN, is_pile
from patiencelab.widget import dispatch, state, teaching
from patiencelab.widget.intents import INTENTS, RECORD_ACTIONS, VOCABULARY, IntentSpec

JS = pathlib.Path(__file__).parent.parent / "js"


def _generator() -> Any:
    spec = importlib.util.spec_from_file_location("vocabulary", JS / "vocabulary.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_front_ends_copy_is_generated_from_python() -> None:
    generated = _generator().text()
    assert (JS / "vocabulary.ts").read_text(encoding="utf-8") == generated, "run: python js/vocabulary.py"
    assert f"/^{CARD_PATTERN}$/" in generated and f"/^({PILE_PATTERN})$/" in generated
    for name, value in MARK_COLORS.items():
        assert f'{name}: "{value}"' in generated


def test_the_schema_and_the_types_hold_the_same_patterns_and_colours() -> None:
    definitions = json.loads((JS / "protocol.schema.json").read_text(encoding="utf-8"))["definitions"]
    assert definitions["CardId"]["pattern"] == f"^{CARD_PATTERN}$"
    assert definitions["PileId"]["pattern"] == f"^({PILE_PATTERN})$"
    assert definitions["MarkColor"]["enum"] == list(COLORS)
    types = (JS / "types.ts").read_text(encoding="utf-8")
    union = re.search(r"export type MarkColor = (.*);", types)
    assert union is not None and re.findall(r'"(\w+)"', union.group(1)) == list(COLORS)


def test_the_patterns_say_what_python_says() -> None:
    assert all(re.fullmatch(CARD_PATTERN, str(card)) for card in full_deck())
    assert not re.fullmatch(CARD_PATTERN, "10H"), "the protocol writes a ten as T"
    piles = ["stock", "w", *(f"t{i}" for i in range(1, 10)), *(f"f{s}" for s in "CDHS")]
    assert all(is_pile(p) and re.fullmatch(PILE_PATTERN, p) for p in piles)
    assert not any(is_pile(p) for p in ("t0", "t10", "fX", "waste", "5H"))


def _definitions() -> dict[str, Any]:
    definitions: dict[str, Any] = json.loads((JS / "protocol.schema.json").read_text(encoding="utf-8"))["definitions"]
    return definitions


def _values(node: Any, definitions: Mapping[str, Any]) -> set[str]:
    """The strings a schema node allows (its ``const``, ``enum`` or the union of its ``anyOf``, through ``$ref``)."""
    if "$ref" in node:
        return _values(definitions[node["$ref"].removeprefix("#/definitions/")], definitions)
    if "const" in node:
        return {node["const"]}
    if "enum" in node:
        return set(node["enum"])
    return set().union(*(_values(option, definitions) for option in node.get("anyOf", [])))


def intent_drift(vocabulary: Mapping[str, IntentSpec], definitions: Mapping[str, Any]) -> list[str]:
    """Where the schema's ``Intent`` union and ``vocabulary`` differ: intent types, their fields, their actions."""
    found: dict[str, tuple[set[str], set[str]]] = {}
    for variant in definitions["Intent"]["anyOf"]:
        fields = variant["properties"]
        for kind in _values(fields["type"], definitions):
            names, actions = found.setdefault(kind, (set(), set()))
            names |= set(fields) - {"type", "version", "id"}
            if "action" in fields:
                actions |= _values(fields["action"], definitions)
    drift = [f"intent {kind!r} only in the schema" for kind in sorted(set(found) - set(vocabulary))]
    drift += [f"intent {kind!r} only in Python" for kind in sorted(set(vocabulary) - set(found))]
    for kind in sorted(set(found) & set(vocabulary)):
        names, actions = found[kind]
        if names != set(vocabulary[kind].fields):
            drift.append(f"{kind}: fields {sorted(names)} in the schema, {sorted(vocabulary[kind].fields)} in Python")
        if actions != set(vocabulary[kind].actions):
            drift.append(
                f"{kind}: actions {sorted(actions)} in the schema, {sorted(vocabulary[kind].actions)} in Python"
            )
    return drift


def test_the_schemas_intents_are_pythons_vocabulary() -> None:
    assert intent_drift(VOCABULARY, _definitions()) == [], "change widget/intents.py and js/types.ts together"


def test_a_drift_of_the_intents_is_caught() -> None:
    definitions = _definitions()
    fewer = {kind: spec for kind, spec in VOCABULARY.items() if kind != "stats"}
    more = {**VOCABULARY, "fly": IntentSpec()}
    field = {**VOCABULARY, "move": IntentSpec(("card",), versioned=True)}
    lesson = VOCABULARY["lesson"]
    action = {**VOCABULARY, "lesson": IntentSpec(lesson.fields, lesson.actions[:-1])}
    assert intent_drift(fewer, definitions) == ["intent 'stats' only in the schema"]
    assert intent_drift(more, definitions) == ["intent 'fly' only in Python"]
    assert [line.split(":")[0] for line in intent_drift(field, definitions)] == ["move"]
    assert [line.split(":")[0] for line in intent_drift(action, definitions)] == ["lesson"]


def test_the_dispatch_has_one_handler_for_each_intent_of_the_vocabulary() -> None:
    assert set(dispatch.HANDLERS) == set(INTENTS) == set(VOCABULARY)
    assert set(teaching.ACTIONS) == set(VOCABULARY["lesson"].actions)
    assert set(RECORD_ACTIONS) == set(VOCABULARY["record"].actions)


#: Each type of the synced state in Python and the schema's definition it mirrors.
STATE_TYPES: dict[Any, str] = {
    state.GameState: "GameState",
    state.Column: "Column",
    state.LastMove: "LastMove",
    state.RulesView: "RulesView",
    state.Message: "Message",
    state.LessonState: "LessonState",
    state.QuizState: "QuizState",
    state.IndicatorState: "IndicatorState",
    state.RecordsState: "RecordsState",
    state.ResumeOffer: "ResumeOffer",
    state.RecordState: "RecordState",
    state.ReviewState: "ReviewState",
    state.ReviewProgress: "ReviewProgress",
    state.AutoplayState: "AutoplayState",
}


def _nested(hint: Any) -> set[Any]:
    """The state types a type hint names (itself, in a union, in a list)."""
    if hint in STATE_TYPES:
        return {hint}
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) in (typing.Union, list):
        return set().union(*(_nested(arg) for arg in typing.get_args(hint)))
    return set()


def state_drift(typed: Any, name: str, definitions: Mapping[str, Any]) -> list[str]:
    """Where the TypedDict ``typed`` and the schema's definition ``name`` differ: keys, required keys, nested
    state types.
    """
    definition = definitions[name]
    keys = set(typed.__required_keys__ | typed.__optional_keys__)
    drift = []
    if keys != set(definition["properties"]):
        drift.append(f"{name}: keys {sorted(keys ^ set(definition['properties']))} in only one of them")
    if set(typed.__required_keys__) != set(definition.get("required", [])):
        drift.append(f"{name}: required {sorted(set(typed.__required_keys__) ^ set(definition.get('required', [])))}")
    for key, hint in typing.get_type_hints(typed).items():
        node = json.dumps(definition["properties"].get(key, {}))
        for part in _nested(hint):
            if f'"#/definitions/{STATE_TYPES[part]}"' not in node:
                drift.append(f"{name}.{key}: the schema does not say {STATE_TYPES[part]}")
    return drift


def test_the_synced_states_python_types_are_the_schemas() -> None:
    definitions = _definitions()
    drift = [line for typed, name in STATE_TYPES.items() for line in state_drift(typed, name, definitions)]
    assert drift == [], "change widget/state.py and js/types.ts together"


def test_a_drift_of_the_states_types_is_caught() -> None:
    definitions = _definitions()

    class Extra(state.AutoplayState):
        speed: float

    class Optional(typing.TypedDict, total=False):
        running: bool
        player: str | None

    class Nested(typing.TypedDict):
        done: state.Message
        total: int

    extra = ["AutoplayState: keys ['speed'] in only one of them", "AutoplayState: required ['speed']"]
    assert state_drift(Extra, "AutoplayState", definitions) == extra
    assert state_drift(Optional, "AutoplayState", definitions) == ["AutoplayState: required ['player', 'running']"]
    nested = ["ReviewProgress.done: the schema does not say Message"]
    assert state_drift(Nested, "ReviewProgress", definitions) == nested
