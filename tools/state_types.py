"""Writes ``js/state.generated.ts``, the TypeScript declarations of the widget's synced state, from their one source:
the TypedDicts of ``src/patiencelab/widget/state.py``. ``tests/test_state_types.py`` fails when the file in the
repository differs from what this gives.

Run ``python tools/state_types.py`` after changing ``widget/state.py``, then ``npm run schema`` in ``js/`` (the
protocol's schema is made from the TypeScript).

Each public TypedDict becomes an interface of the same name with all its keys (its bases' too); a key that is not
required (``total=False``, ``NotRequired``) is optional; a docstring under a key, or the class's, becomes its
comment. Types: ``str`` string, ``int`` and ``float`` number, ``bool`` boolean, ``None`` null, ``Any`` unknown,
``Literal`` a union of its values, ``X | Y`` a union, ``list[X]`` ``X[]``, ``dict[K, V]`` ``Record<K, V>``, a
TypedDict its name, ``Annotated[X, TypeScript(t)]`` the TypeScript ``t``; ``Schema`` tags go in the key's comment.
"""

from __future__ import annotations

import ast
import inspect
import json
import pathlib
import re
import types
import typing
from typing import Any

from patiencelab.widget import state

ROOT = pathlib.Path(__file__).resolve().parent.parent
FILE = ROOT / "js" / "state.generated.ts"
SOURCE = pathlib.Path(inspect.getfile(state))

_NAMES = {str: "string", int: "number", float: "number", bool: "boolean", type(None): "null", Any: "unknown"}
#: ``NotRequired[X]`` and ``Required[X]`` (Python 3.11 on): X, its key optional or not.
_REQUIRED = tuple(getattr(typing, name) for name in ("NotRequired", "Required") if hasattr(typing, name))


def typed_dicts() -> list[type]:
    """The public TypedDicts of ``widget/state.py``, in the order the module defines them."""
    found = [getattr(state, name) for name in state.__all__ if typing.is_typeddict(getattr(state, name))]
    order = {
        node.name: i
        for i, node in enumerate(ast.parse(SOURCE.read_text(encoding="utf-8")).body)
        if hasattr(node, "name")
    }
    return sorted(found, key=lambda typed: order.get(typed.__name__, -1))


class Source:
    """What the module's source says of each TypedDict and the runtime does not: the classes it builds on, its own
    keys (its private bases' included) and the docstrings under them."""

    def __init__(self) -> None:
        self.bases: dict[str, list[str]] = {}
        self.keys: dict[str, list[str]] = {}
        self.docs: dict[str, dict[str, str]] = {}
        for node in ast.parse(SOURCE.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef):
                self.bases[node.name] = [base.id for base in node.bases if isinstance(base, ast.Name)]
                keys, docs = self.keys.setdefault(node.name, []), self.docs.setdefault(node.name, {})
                for item, after in zip(node.body, [*node.body[1:], None]):
                    if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                        keys.append(item.target.id)
                        if isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant):
                            docs[item.target.id] = inspect.cleandoc(str(after.value.value))

    def public_base(self, name: str) -> str | None:
        """The public TypedDict ``name`` builds on (an interface it extends), if any."""
        return next((base for base in self.bases.get(name, []) if base in state.__all__), None)

    def own(self, name: str) -> tuple[list[str], dict[str, str]]:
        """The keys ``name`` declares, its private bases' first, and their docstrings."""
        keys: list[str] = []
        docs: dict[str, str] = {}
        for base in self.bases.get(name, []):
            if base.startswith("_"):
                more, more_docs = self.own(base)
                keys += more
                docs.update(more_docs)
        return keys + self.keys.get(name, []), {**docs, **self.docs.get(name, {})}


def words(text: str) -> str:
    """reStructuredText of a docstring as TypeScript's comments write it: ``x`` as `x`, roles as their name."""
    text = re.sub(r":\w+:`~(?:[\w.]+\.)?(\w+)`", r"`\1`", text)
    text = re.sub(r":\w+:`(?:patiencelab\.)?([\w.]+)`", r"`\1`", text)
    return text.replace("``None``", "`null`").replace("``", "`")


def comment(text: str, tags: list[str], indent: str) -> str:
    """A JSDoc comment of ``text`` and ``tags`` (nothing when both are empty)."""
    lines = [*words(text).splitlines(), *(f"@{tag}" for tag in tags)] if text or tags else []
    if not lines:
        return ""
    if len(lines) == 1:
        return f"{indent}/** {lines[0]} */\n"
    return f"{indent}/**\n" + "".join(f"{indent} * {line}".rstrip() + "\n" for line in lines) + f"{indent} */\n"


def typescript(hint: Any, tags: list[str], refs: set[str]) -> str:
    """The TypeScript of a type hint; the schema's tags found on the way are added to ``tags``, the names of
    ``js/types.ts`` it uses to ``refs``."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Annotated:
        marks = hint.__metadata__
        tags += [tag for mark in marks if isinstance(mark, state.Schema) for tag in mark.tags]
        named = [mark.type for mark in marks if isinstance(mark, state.TypeScript)]
        refs.update(re.findall(r"\b[A-Z]\w*", named[0]) if named else ())
        return named[0] if named else typescript(args[0], tags, refs)
    if origin in _REQUIRED:
        return typescript(args[0], tags, refs)
    if hint in _NAMES:
        return _NAMES[hint]
    if typing.is_typeddict(hint):
        if hint.__name__.startswith("_") or hint.__name__ not in state.__all__:
            raise TypeError(f"{hint.__name__} is no public type of widget/state.py")
        return str(hint.__name__)
    if origin is typing.Literal:
        return " | ".join(json.dumps(value) for value in args)
    if origin is typing.Union or isinstance(hint, types.UnionType):
        return " | ".join(dict.fromkeys(typescript(arg, tags, refs) for arg in args))
    if origin is list:
        inner = typescript(args[0], tags, refs)
        return f"({inner})[]" if " | " in inner else f"{inner}[]"
    if origin is dict:
        return f"Record<{typescript(args[0], tags, refs)}, {typescript(args[1], tags, refs)}>"
    raise TypeError(f"no TypeScript for {hint!r}")


def interface(typed: Any, source: Source, refs: set[str]) -> str:
    """The TypeScript interface of one TypedDict (the names of ``js/types.ts`` it uses are added to ``refs``)."""
    hints = typing.get_type_hints(typed, include_extras=True)
    name = typed.__name__
    base = source.public_base(name)
    keys, docs = source.own(name) if name in source.keys else (list(hints), {})
    lines = []
    for key in keys:
        tags: list[str] = []
        written = typescript(hints[key], tags, refs)
        optional = "?" if key in typed.__optional_keys__ else ""
        lines.append(comment(docs.get(key, ""), tags, "  ") + f"  {key}{optional}: {written};\n")
    extends = f" extends {base}" if base else ""
    about = comment(inspect.cleandoc(typed.__doc__ or ""), [], "")
    return f"{about}export interface {name}{extends} {{\n{''.join(lines)}}}\n"


def text() -> str:
    """The text of ``js/state.generated.ts``."""
    source, refs = Source(), set[str]()
    body = "\n".join(interface(typed, source, refs) for typed in typed_dicts())
    used = sorted(refs)
    return (
        "// The widget's synced state (docs/widget-protocol.md). Generated from src/patiencelab/widget/state.py by\n"
        "// tools/state_types.py: do not edit; tests/test_state_types.py fails when it drifts.\n\n"
        f'import type {{ {", ".join(used)} }} from "./types";\n\n{body}'
    )


if __name__ == "__main__":
    FILE.write_text(text(), encoding="utf-8")
    print(f"wrote {FILE}")
