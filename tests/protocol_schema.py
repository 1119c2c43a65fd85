"""The widget protocol's JSON Schema (generated from ``js/types.ts`` into ``js/protocol.schema.json``): checks that
what Python sends is what the front end's types say.
"""

from __future__ import annotations

import functools
import json
import pathlib
from typing import Any

from jsonschema import Draft7Validator

SCHEMA_FILE = pathlib.Path(__file__).resolve().parents[1] / "js" / "protocol.schema.json"


@functools.cache
def validator(name: str) -> Draft7Validator:
    """A validator for one type of the protocol (``GameState``, ``Labels``, ``Intent``, ``Reply``...), with every
    ``$ref`` resolved up front (the protocol's types are not recursive), which makes it several times faster.
    """
    definitions: dict[str, Any] = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))["definitions"]
    if name not in definitions:
        raise KeyError(f"{name} is not a type of the protocol schema")

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                return inline(definitions[node["$ref"].removeprefix("#/definitions/")])
            return {key: inline(value) for key, value in node.items()}
        if isinstance(node, list):
            return [inline(value) for value in node]
        return node

    return Draft7Validator(inline(definitions[name]))


def check(name: str, value: Any) -> None:
    """Raise :class:`jsonschema.ValidationError` (the first error, with its path) unless ``value`` is a ``name``."""
    errors = sorted(validator(name).iter_errors(value), key=lambda e: list(e.absolute_path))
    if errors:
        raise errors[0]
