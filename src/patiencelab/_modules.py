"""Compiled or pure modules: which of the package's mypyc-compiled modules this process loads.

The build (``hatch_build.py``) may compile the rules kernel, the game and the solver's core into C extensions
beside their ``.py`` sources, and writes ``_compiled.json``: each compiled module with the SHA-256 of the source
it came from. Python's import system prefers an extension to a ``.py`` of the same name, so the compiled modules
load by default; on import, this module (imported first by ``patiencelab/__init__``, before any of them) puts
a finder in front that loads the ``.py`` sources instead when

* ``PATIENCELAB_PURE=1`` is set (any other value, or none, lets the compiled ones load), or
* a source no longer matches the hash it was compiled from (a checkout edited since ``make setup``): then all of
  them load pure, with one line of notice, so that the edited code is the code that runs.

All or none: the compiled modules call each other directly, so a mix is never loaded. An install without
extensions (a pure wheel, Pyodide, no C compiler at build time) has no manifest and needs no finder.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import pathlib
import sys
import warnings
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, TypeVar

__all__ = ["PURE_ENV", "PureFinder", "choose", "loaded", "mypyc_attr"]

_T = TypeVar("_T")

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[_T], _T]:
        """mypyc's class options (``mypy_extensions.mypyc_attr``), which mypyc reads from the source: at run time
        the class is left as it is (mypy_extensions, which defines it, is not a dependency)."""
        return lambda cls: cls


#: The environment variable that forces the pure-Python modules.
PURE_ENV = "PATIENCELAB_PURE"

_HERE = pathlib.Path(__file__).resolve().parent
_MANIFEST = _HERE / "_compiled.json"


class PureFinder(importlib.abc.MetaPathFinder):
    """Finds the ``.py`` source of the given modules, ahead of the extensions beside them."""

    def __init__(self, names: frozenset[str]) -> None:
        self.names = names

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        """The spec of ``fullname``'s source file when it is one of ours, else ``None`` (the next finder's turn)."""
        if fullname not in self.names or path is None:
            return None
        leaf = fullname.rpartition(".")[2] + ".py"
        for folder in path:
            source = os.path.join(folder, leaf)
            if os.path.isfile(source):
                return importlib.util.spec_from_file_location(fullname, source)
        return None


def _compiled_sources() -> dict[str, str]:
    """The manifest: compiled module -> SHA-256 of its source at build time (empty when nothing was compiled)."""
    try:
        data = json.loads(_MANIFEST.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    modules = data.get("modules") if isinstance(data, dict) else None
    return {str(k): str(v) for k, v in modules.items()} if isinstance(modules, dict) else {}


def _source(name: str) -> pathlib.Path:
    return _HERE.parent.joinpath(*name.split(".")).with_suffix(".py")


def _stale(hashes: dict[str, str]) -> list[str]:
    """The compiled modules whose source changed since the build (or is gone)."""
    out = []
    for name, digest in sorted(hashes.items()):
        try:
            now = hashlib.sha256(_source(name).read_bytes()).hexdigest()
        except OSError:
            now = ""
        if now != digest:
            out.append(name)
    return out


def choose() -> None:
    """Before the first import of a compiled module: put the pure finder in front when the pure modules must
    load (``PATIENCELAB_PURE=1``, or a compiled module older than its source, with one line of notice).
    """
    hashes = _compiled_sources()
    if not hashes or any(isinstance(f, PureFinder) for f in sys.meta_path):
        return
    if os.environ.get(PURE_ENV, "") != "1":
        stale = _stale(hashes)
        if not stale:
            return
        warnings.warn(
            f"patiencelab: {stale[0]} changed since it was compiled; using the pure-Python modules"
            " (run 'make setup' to compile again)",
            stacklevel=3,
        )
    sys.meta_path.insert(0, PureFinder(frozenset(hashes)))


def loaded() -> tuple[str, ...]:
    """The names of the package's modules loaded compiled in this process, sorted (empty when all are pure)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return tuple(
        sorted(
            name
            for name in _compiled_sources()
            if str(getattr(sys.modules.get(name), "__file__", "") or "").endswith(suffixes)
        )
    )


choose()
