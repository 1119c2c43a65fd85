"""The docs' own generator (``docs/_ext/patiencelab_docs.py``), loaded for the tests: the one list of public modules
and names, which the documentation tests and the argument table both cover."""

from __future__ import annotations

import importlib.util
import pathlib
from typing import Any

ROOT = pathlib.Path(__file__).parent.parent


def load_docs_generator() -> Any:
    """The module ``docs/_ext/patiencelab_docs.py``."""
    spec = importlib.util.spec_from_file_location("patiencelab_docs", ROOT / "docs" / "_ext" / "patiencelab_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
