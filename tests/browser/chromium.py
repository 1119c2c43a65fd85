"""Finding and launching the system Chromium for the browser tests, the Lite site's tests and the widget benchmark
(``tests/browser/conftest.py`` makes fixtures of it). Never run ``playwright install``: the system Chromium is driven
through ``executable_path``.
"""

from __future__ import annotations

import os
import shutil

import pytest

#: Launch flags that work as root on a machine with no network but the package registries.
CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def no_browser(reason: str) -> None:
    """Skip (or, under CI, fail) a test that needs a browser."""
    if in_ci():
        pytest.fail(f"{reason} (CI=true: browser tests must run)", pytrace=False)
    pytest.skip(reason)


def find_chromium() -> str | None:
    """The Chromium to drive: ``$CHROMIUM_PATH``, else ``/usr/bin/chromium`` (or one on the PATH)."""
    candidates = [os.environ.get("CHROMIUM_PATH", ""), "/usr/bin/chromium"]
    candidates += [shutil.which(name) or "" for name in ("chromium", "chromium-browser")]
    for candidate in candidates:
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None
