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
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import shlex
import shutil
import sys
import sysconfig
import tempfile
import time
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

MANIFEST = "_compiled.json"


def notice(text: str) -> None:
    """One line on the build's error stream (pip shows it with ``-v``)."""
    print(f"patiencelab: {text}", file=sys.stderr, flush=True)


def compiler() -> str | None:
    """The C compiler setuptools would call (``CC`` or Python's own), when it can be found, else ``None``."""
    command = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = shlex.split(command)
    return shutil.which(words[0]) if words else None


def sha256(path: pathlib.Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


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

    def _clean(self, src: pathlib.Path, modules: list[str]) -> None:
        """Remove the extensions and manifest of an earlier in-place build."""
        for name in modules:
            stem = src.joinpath(*name.split("."))
            for path in stem.parent.glob(stem.name + ".*.so"):
                path.unlink()
        for path in src.glob("patiencelab__mypyc.*"):
            path.unlink()
        (src / "patiencelab" / MANIFEST).unlink(missing_ok=True)

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
