"""The synced state's TypeScript (``js/state.generated.ts``) is generated from its Python types
(``src/patiencelab/widget/state.py``) by ``tools/state_types.py``: the file in the repository is what the generator
gives, ``js/types.ts`` exports it and declares none of its types again, and the generator says each kind of Python
type as TypeScript says it.
"""

from __future__ import annotations

import importlib.util
import pathlib
import re
import sys
from typing import Annotated, Any, Literal, TypedDict

import pytest

from patiencelab.widget import state

ROOT = pathlib.Path(__file__).parent.parent


def _generator() -> Any:
    spec = importlib.util.spec_from_file_location("state_types", ROOT / "tools" / "state_types.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GENERATOR = _generator()


def test_the_generated_typescript_is_the_python_types() -> None:
    """Issue 63: ``js/types.ts`` copied the TypedDicts by hand."""
    generated = (ROOT / "js" / "state.generated.ts").read_text(encoding="utf-8")
    assert generated == GENERATOR.text(), "run: python tools/state_types.py, then npm run schema in js/"
    names = {typed.__name__ for typed in GENERATOR.typed_dicts()}
    assert {"GameState", "LessonState", "RecordsState", "ReviewProgress"} <= names
    assert all(f"export interface {name} " in generated for name in names)


def test_types_ts_exports_the_generated_types_and_declares_none_of_them_again() -> None:
    types = (ROOT / "js" / "types.ts").read_text(encoding="utf-8")
    assert 'export type * from "./state.generated";' in types
    declared = set(re.findall(r"^export (?:interface|type) (\w+)", types, flags=re.MULTILINE))
    generated = {typed.__name__ for typed in GENERATOR.typed_dicts()}
    assert not declared & generated, "a type of the synced state is declared by hand in js/types.ts"


class Inner(TypedDict):
    """An inner part."""

    n: int


class Outer(TypedDict, total=False):
    """An outer part."""

    kind: Literal["a", "b"]
    maybe: int | None
    cards: list[state.CardId | None]
    inner: list[Inner]
    table: dict[str, list[float]]
    count: Annotated[int, state.Schema("asType integer", "minimum 0")]


def test_each_kind_of_python_type_is_said_as_typescript_says_it(monkeypatch: Any) -> None:
    monkeypatch.setattr(state, "__all__", [*state.__all__, "Inner"])
    tags: list[str] = []
    refs: set[str] = set()
    hints = {key: GENERATOR.typescript(hint, tags, refs) for key, hint in _hints(Outer).items()}
    assert hints == {
        "kind": '"a" | "b"',
        "maybe": "number | null",
        "cards": "(CardId | null)[]",
        "inner": "Inner[]",
        "table": "Record<string, number[]>",
        "count": "number",
    }
    assert tags == ["asType integer", "minimum 0"] and refs == {"CardId"}
    written = GENERATOR.interface(Outer, GENERATOR.Source(), set())
    assert written.startswith("/** An outer part. */\nexport interface Outer {\n")
    assert (
        "  kind?: " in written and "  /**\n   * @asType integer\n   * @minimum 0\n   */\n  count?: number;" in written
    )


def test_not_required_keys_are_optional_and_a_private_type_is_refused() -> None:
    if sys.version_info >= (3, 11):
        from typing import NotRequired

        partly = TypedDict("partly", {"always": str, "sometimes": NotRequired[bool]})  # type: ignore[misc]  # noqa: UP013 (a key that may be missing)
        written = GENERATOR.interface(partly, GENERATOR.Source(), set())
        assert "  always: string;\n  sometimes?: boolean;\n" in written
    with pytest.raises(TypeError, match="Inner is no public type"):
        GENERATOR.typescript(Inner, [], set())


def _hints(typed: Any) -> dict[str, Any]:
    import typing

    return typing.get_type_hints(typed, include_extras=True)
