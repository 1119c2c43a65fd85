"""Build hook: compile the rules kernel and the solver's core with mypyc, or leave them pure Python.

The modules listed under ``[tool.hatch.build.hooks.custom] modules`` in ``pyproject.toml`` are compiled from their
own source into C extensions placed beside the ``.py`` files (which stay in the wheel: they are the one reference,
and ``PATIENCELAB_PURE=1`` loads them). A manifest, ``patiencelab/_compiled.json``, records each compiled module
with the SHA-256 of the source it was built from; ``patiencelab._modules`` reads it at import and uses the pure
modules when a source has changed since (an edited checkout), with one line of notice.

- Wheel: built in a temporary folder, the extensions and the manifest are added to a platform wheel.
- Editable install (``make setup``): built in place, in ``src/`` (git-ignored files), so the checkout runs compiled.
- ``PATIENCELAB_PURE_BUILD=1``, or no C compiler, or any failure of the compiler: a pure wheel (``py3-none-any``)
  and one line of notice, never an error.

mypyc keeps a compiled function's signature (its ``__text_signature__``) but drops its docstring, so ``help()``,
``?`` and JupyterLab's Shift+Tab would show nothing for ``Klondike.play`` or ``solve``. Before the C compiler runs,
:func:`keep_docstrings` writes each docstring of the source (functions, methods, classes, properties) into the C
that mypyc generated, after the signature where CPython looks for it: the compiled objects carry the same
``__doc__`` as the pure ones, at no cost to a call. A class's ``__init__`` is listed by ``help()`` from the class's
dict, where CPython puts the ``tp_init`` slot's generic wrapper (``__init__(self, /, *args, **kwargs)``) before
mypyc's own entry, which has the real signature (and the flags of a fast call, though its C function takes a tuple
and a dict): the entry gets the right flags and ``METH_COEXIST``, so that it takes the wrapper's place
(``Klondike(...)`` still calls the slot, unchanged).
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import os
import pathlib
import re
import shlex
import shutil
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

MANIFEST = "_compiled.json"

#: The built front end, which every wheel and sdist carries (pyproject.toml's jupyter-builder hook builds it).
FRONT_END = "src/patiencelab/static/widget.js"
NO_NODE = (
    "PatienceLab's front end (js/, TypeScript) is not built in this source tree, and building it needs Node 20 or "
    "newer with npm, which is not on the PATH. Install Node 20+ and try again, or install a built wheel instead "
    "(one with the front end inside: pip install patiencelab-<version>-py3-none-any.whl; see the README's "
    "install section). A source distribution (.tar.gz) carries the front end and installs without Node."
)


def notice(text: str) -> None:
    """One line on the build's error stream (pip shows it with ``-v``)."""
    print(f"patiencelab: {text}", file=sys.stderr, flush=True)


def compiler() -> str | None:
    """The C compiler setuptools would call (``CC`` or Python's own), when it can be found, else ``None``. On
    Windows, MSVC, which setuptools finds itself (where it is missing, the build fails and the wheel stays pure)."""
    if os.name == "nt" and not os.environ.get("CC"):
        return "msvc"
    command = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = shlex.split(command)
    return shutil.which(words[0]) if words else None


def sha256(path: pathlib.Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


#: Where mypyc's C names a docstring (mypy 1.13 to 2.x): the method tables (``PyMethodDef``: the Python name, the C
#: function, the flags, the doc), the property tables (``PyGetSetDef``: name, getter, setter, doc) and the class
#: templates (``tp_doc``). A table's name is the module's C prefix (the shortest unique suffix of its dotted name,
#: dots as ``___``), then ``module`` for the module's functions or ``___`` and the class's name.
_METHOD_TABLE = re.compile(r"static PyMethodDef (\w+)_methods\[\] = \{(.*?)\n\s*\};", re.S)
_METHOD = re.compile(
    r'(\{"(\w+)",\s*\(PyCFunction\)\w+,\s*[A-Z_ |]+,\s*)(NULL|PyDoc_STR\((?:NULL|"(?:[^"\\]|\\.)*")\))'
)
_GETSET_TABLE = re.compile(r"static PyGetSetDef (\w+)_getseters\[\] = \{(.*?)\n\s*\};", re.S)
_GETSET = re.compile(r'(\{"(\w+)",\s*\(getter\)\w+,\s*(?:NULL|\(setter\)\w+),\s*)NULL')
_TYPE_TABLE = re.compile(r"static PyTypeObject CPyType_(\w+)_template_ = \{(.*?)\n\s*\};", re.S)
_TYPE = re.compile(r"(\.tp_doc = )(PyDoc_STR\([^\n]*\)),")
_DOC = re.compile(r'PyDoc_STR\("((?:[^"\\]|\\.)*)"\)')
_SIGNATURE_END = "\\n--\\n\\n"  # as written in C: CPython reads the signature up to "\n--\n\n"
#: A class's ``__init__`` in its method table, with its real signature, but without METH_COEXIST (the slot wrapper
#: of ``tp_init``, ``__init__(self, /, *args, **kwargs)``, is put in the class's dict first and wins) and with the
#: flags of a fast call, where the C function it names takes a tuple and a dict (as ``tp_init`` calls it).
_INIT = re.compile(r'(\{"__init__",\s*\(PyCFunction\)(\w+),\s*)METH_FASTCALL \| METH_KEYWORDS,')


def _c_string(text: str) -> str:
    """``text`` as C string literals: UTF-8, every byte beyond printable ASCII as a three-digit octal escape, in
    pieces of 80 characters or escapes."""
    out = []
    for byte in text.encode("utf-8"):
        char = chr(byte)
        if char in '\\"?':  # ? too: no trigraphs
            out.append("\\" + char)
        elif 32 <= byte < 127:
            out.append(char)
        else:
            out.append(f"\\{byte:03o}")
    pieces = ["".join(out[i : i + 80]) for i in range(0, len(out), 80)] or [""]
    return " ".join(f'"{piece}"' for piece in pieces)


def source_docstrings(source: str) -> dict[tuple[str, ...], str]:
    """The docstrings of a module's source, as Python keeps them (not cleaned): ``(function,)``, ``(Class,)`` and
    ``(Class, method)`` (properties among the methods)."""
    docs: dict[tuple[str, ...], str] = {}
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc is not None:
                docs[(node.name,)] = doc
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                doc = ast.get_docstring(item, clean=False) if isinstance(item, ast.FunctionDef) else None
                if isinstance(item, ast.FunctionDef) and doc is not None:
                    docs.setdefault((node.name, item.name), doc)  # a property's getter before its setter
    return docs


def _c_prefixes(modules: list[str]) -> dict[str, str]:
    """Each C name prefix a table may start with -> the module (every suffix of its dotted name, dots as ``___``)."""
    prefixes: dict[str, str] = {}
    for name in modules:
        parts = name.split(".")
        for i in range(len(parts)):
            prefixes.setdefault("___".join(p.replace("___", "___3_") for p in parts[i:]), name)
    return prefixes


def _owner(table: str, prefixes: dict[str, str], docs: dict[str, dict[tuple[str, ...], str]]) -> tuple[str, ...] | None:
    """The module and class (none for the module's functions) a C table of this name belongs to."""
    for prefix, module in prefixes.items():
        if table == prefix + "module":
            return (module,)
        rest = table.removeprefix(prefix + "___")
        if rest != table and (rest.replace("___3_", "___"),) in docs[module]:
            return module, rest.replace("___3_", "___")
    return None


def _with_group(found: re.Match[str], group: int, text: str) -> str:
    """The whole match with one of its groups replaced by ``text``."""
    whole, start = found.group(0), found.start(0)
    return whole[: found.start(group) - start] + text + whole[found.end(group) - start :]


def _coexisting_init(entry: re.Match[str], c_text: str) -> str:
    """An ``__init__`` entry of a method table that takes the slot wrapper's place in the class's dict (so that
    ``help()`` lists the real signature), called as the C function it names is written; else the entry as it is."""
    if f"PyObject *{entry.group(2)}(PyObject *self, PyObject *args, PyObject *kw) {{" not in c_text:
        return entry.group(0)  # a mypyc that writes it otherwise: help() shows the wrapper, nothing else changes
    return entry.group(1) + "METH_VARARGS | METH_KEYWORDS | METH_COEXIST,"


def keep_docstrings(c_files: list[pathlib.Path], sources: dict[str, pathlib.Path]) -> int:
    """Write the sources' docstrings into the C mypyc generated from them (see the module's docstring); returns how
    many. A layout of the C that it does not know leaves the C as it is (the count says so)."""
    docs = {name: source_docstrings(path.read_text(encoding="utf-8")) for name, path in sources.items()}
    prefixes = _c_prefixes(list(sources))
    kept = 0

    def doc_of(table: str, name: str | None) -> str | None:
        owner = _owner(table, prefixes, docs)
        if owner is None:
            return None
        key = (*owner[1:], name) if name is not None else tuple(owner[1:])
        return docs[owner[0]].get(key) if key else None

    def with_doc(old: str, doc: str) -> str:
        """A ``PyDoc_STR`` of the old signature (if any) and ``doc``."""
        found = _DOC.fullmatch(old)
        signature = found.group(1) if found and found.group(1).endswith(_SIGNATURE_END) else ""
        # mypyc writes math.inf as "inf", which inspect cannot read (help() then shows no signature at all)
        signature = re.sub(r"=(-?)inf\b", r"=\1math.inf", signature)
        return "PyDoc_STR(" + (f'"{signature}" ' if signature else "") + _c_string(doc) + ")"

    def entries(pattern: re.Pattern[str], write: Callable[[re.Match[str], str], str]) -> Callable[[re.Match[str]], str]:
        """A rewriter of one method or getset table: ``write`` gives each entry that has a docstring its new text."""

        def table_of(table: re.Match[str]) -> str:
            def one(entry: re.Match[str]) -> str:
                nonlocal kept
                doc = doc_of(table.group(1), entry.group(2))
                if doc is None:
                    return entry.group(0)
                kept += 1
                return entry.group(1) + write(entry, doc)

            return _with_group(table, 2, pattern.sub(one, table.group(2)))

        return table_of

    methods = entries(_METHOD, lambda entry, doc: with_doc(entry.group(3), doc))
    getsets = entries(_GETSET, lambda entry, doc: _c_string(doc))

    def types(template: re.Match[str]) -> str:
        nonlocal kept
        owner = _owner(template.group(1), prefixes, docs)
        doc = docs[owner[0]].get(owner[1:]) if owner is not None and len(owner) == 2 else None
        if doc is None:
            return template.group(0)
        kept += 1
        body = _TYPE.sub(lambda tp: tp.group(1) + with_doc(tp.group(2), doc) + ",", template.group(2), count=1)
        return _with_group(template, 2, body)

    for path in c_files:
        text = path.read_text(encoding="utf-8")
        new = _TYPE_TABLE.sub(types, _GETSET_TABLE.sub(getsets, _METHOD_TABLE.sub(methods, text)))
        new = _INIT.sub(functools.partial(_coexisting_init, c_text=new), new)
        if new != text:
            path.write_text(new, encoding="utf-8")
    return kept


class MypycHook(BuildHookInterface):  # type: ignore[type-arg]
    """Compiles the listed modules for wheel and editable builds; falls back to pure Python."""

    PLUGIN_NAME = "custom"

    def _wanted(self) -> bool:
        return self.target_name == "wheel" and os.environ.get("PATIENCELAB_PURE_BUILD", "") != "1"

    def dependencies(self) -> list[str]:
        """mypyc comes with mypy; setuptools drives the C compiler. None for a pure build or with no compiler."""
        return ["mypy>=1.13", "setuptools>=68"] if self._wanted() and compiler() is not None else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Compile, or say in one line why the wheel stays pure."""
        if version != "editable":
            self._front_end_can_be_built()
        if not self._wanted():
            if self.target_name == "wheel":
                notice("PATIENCELAB_PURE_BUILD=1: a pure-Python wheel")
            return
        root = pathlib.Path(self.root)
        src = root / "src"
        modules: list[str] = list(self.config.get("modules", []))
        editable = version == "editable"
        if editable:
            self._clean(src, modules)
        if compiler() is None:
            notice("no C compiler found: the pure-Python modules are installed (fine, only slower)")
            return
        out = src if editable else pathlib.Path(tempfile.mkdtemp(prefix="patiencelab-mypyc-"))
        try:
            built = self._compile(root, modules, out, inplace=editable)
        except (Exception, SystemExit) as err:  # a compiler that fails is no reason to fail the install
            first = str(err).strip().splitlines()[:1] or [type(err).__name__]
            notice(f"compiling failed ({first[0][:200]}): the pure-Python modules are installed")
            if editable:
                self._clean(src, modules)
            return
        if not editable:
            for path in built:
                build_data["force_include"][str(path)] = str(path.relative_to(out))
            build_data["pure_python"] = False
            build_data["infer_tag"] = True

    def _front_end_can_be_built(self) -> None:
        """Stop the build with a message that says what to do, where the front end (js/) is not built and cannot be:
        no npm on the PATH. (The front end's own hook would fail later with "Could not find cmd (npm) in path".)"""
        if (pathlib.Path(self.root) / FRONT_END).is_file() or shutil.which("npm") is not None:
            return
        raise RuntimeError(NO_NODE)

    def _clean(self, src: pathlib.Path, modules: list[str]) -> None:
        """Remove the extensions and manifest of an earlier in-place build: of the modules listed now and of those
        the earlier build's manifest lists (a module no longer compiled must not load its old extension)."""
        manifest = src / "patiencelab" / MANIFEST
        try:
            earlier = list(json.loads(manifest.read_text(encoding="utf-8"))["modules"])
        except (OSError, ValueError, KeyError, TypeError):
            earlier = []
        for name in sorted({*modules, *earlier}):
            stem = src.joinpath(*name.split("."))
            for path in stem.parent.glob(stem.name + ".*.so"):
                path.unlink()
        for path in src.glob("patiencelab__mypyc.*"):
            path.unlink()
        manifest.unlink(missing_ok=True)

    def _compile(
        self, root: pathlib.Path, modules: list[str], out: pathlib.Path, *, inplace: bool
    ) -> list[pathlib.Path]:
        """Build the extensions into ``out`` (the package's layout); return the files made, manifest included."""
        from mypyc.build import mypycify
        from setuptools import Distribution

        t0 = time.monotonic()
        sources = [root / "src" / pathlib.Path(*name.split(".")).with_suffix(".py") for name in modules]
        hashes = {name: sha256(path) for name, path in zip(modules, sources)}  # of the sources as compiled
        # In place, the C files and mypy's cache stay in build/mypyc, so that a rebuild compiles only what changed.
        temp = root / "build" / "mypyc" if inplace else pathlib.Path(tempfile.mkdtemp(prefix="patiencelab-mypyc-c-"))
        here = os.getcwd()
        os.chdir(root)  # mypy reads its settings from pyproject.toml here
        try:
            extensions = mypycify(
                ["--follow-imports=silent", "--ignore-missing-imports", f"--cache-dir={temp / 'mypy'}"]
                + [str(path.relative_to(root)) for path in sources],
                opt_level="3",
                group_name="patiencelab",
                multi_file=False,
                target_dir=str(temp / "c"),
            )
            c_files = sorted({root / path for ext in extensions for path in ext.sources if path.endswith(".c")})
            kept = keep_docstrings(c_files, dict(zip(modules, sources)))
            wanted = sum(len(source_docstrings(path.read_text(encoding="utf-8"))) for path in sources)
            if kept != wanted:  # a mypyc whose C this does not know: help() shows less, nothing else changes
                notice(f"{kept} of the {wanted} docstrings kept in the compiled modules (an unknown mypyc?)")
            dist = Distribution({"name": "patiencelab", "ext_modules": extensions, "package_dir": {"": "src"}})
            command: Any = dist.get_command_obj("build_ext")
            command.inplace = inplace
            command.build_lib = str(out)
            command.build_temp = str(temp / "o")
            command.parallel = os.cpu_count() or 1
            command.ensure_finalized()
            command.run()
            built = [pathlib.Path(path) for path in command.get_outputs()]
        finally:
            os.chdir(here)
            if not inplace:
                shutil.rmtree(temp, ignore_errors=True)
        built = [path if path.is_absolute() else root / path for path in built]
        manifest = out / "patiencelab" / MANIFEST
        manifest.parent.mkdir(parents=True, exist_ok=True)
        manifest.write_text(json.dumps({"modules": hashes}, indent=1, sort_keys=True) + "\n")
        notice(f"compiled {len(modules)} modules with mypyc in {time.monotonic() - t0:.0f} s")
        return [*built, manifest]
