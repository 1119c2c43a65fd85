"""A real Jupyter server (JupyterLab or Notebook 7) in a private temp dir, for browser tests and the widget
benchmark: start it, open a notebook, run it, evaluate Python in its kernel, and stop it.
"""

from __future__ import annotations

import json
import os
import pathlib
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal

from playwright.sync_api import Locator, Page

Flavour = Literal["lab", "notebook"]

_CONFIG = """
c.ServerApp.open_browser = False
c.LabApp.news_url = None
c.LabApp.check_for_updates_class = "jupyterlab.NeverCheckForUpdate"
c.LabApp.extension_manager = "readonly"
c.LabApp.expose_app_in_browser = True
c.JupyterNotebookApp.expose_app_in_browser = True
"""

#: Notebook 7.6 raises this on every page load, widget or not; every other page error fails a test.
KNOWN_PAGE_ERRORS = ("Cannot read properties of undefined (reading 'schema')",)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def write_notebook(path: pathlib.Path, *sources: str) -> None:
    """A notebook (nbformat 4.5, a kernelspec, an id on every cell) with the given code cells."""
    cells: list[dict[str, Any]] = [
        {"cell_type": "code", "id": f"cell-{i}", "metadata": {}, "source": src, "outputs": [], "execution_count": None}
        for i, src in enumerate(sources)
    ]
    notebook = {
        "cells": cells,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(notebook, indent=1))


@dataclass
class JupyterServer:
    """A running server: its base URL, token, root dir and process."""

    flavour: Flavour
    url: str
    token: str
    root: pathlib.Path
    process: subprocess.Popen[bytes]

    def notebook_url(self, name: str) -> str:
        path = f"lab/tree/{name}" if self.flavour == "lab" else f"notebooks/{name}"
        return f"{self.url}/{path}?token={self.token}"

    def stop(self) -> None:
        try:
            request = urllib.request.Request(
                f"{self.url}/api/shutdown", method="POST", headers={"Authorization": f"token {self.token}"}
            )
            urllib.request.urlopen(request, timeout=5).close()
            self.process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@contextmanager
def jupyter_server(flavour: Flavour, workdir: pathlib.Path) -> Iterator[JupyterServer]:
    """Start ``jupyter lab`` or ``jupyter notebook`` on a free port with private config dirs under ``workdir``."""
    home = workdir / "jupyter-home"
    root = workdir / "notebooks"
    for sub in ("config", "data", "runtime", "ipython", "settings", "workspaces"):
        (home / sub).mkdir(parents=True, exist_ok=True)
    root.mkdir(exist_ok=True)
    (home / "config" / "jupyter_server_config.py").write_text(_CONFIG)
    settings = home / "settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True, exist_ok=True)
    (settings / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False})
    )
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(home / "config"),
        "JUPYTER_DATA_DIR": str(home / "data"),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
        "IPYTHONDIR": str(home / "ipython"),
        "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
    }
    port, token = free_port(), secrets.token_hex(16)
    command = [
        sys.executable,
        "-m",
        "jupyterlab" if flavour == "lab" else "notebook",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        "--ServerApp.port_retries=0",
        "--allow-root",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
    ]
    log = (workdir / f"jupyter-{flavour}.log").open("wb")
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    server = JupyterServer(flavour, f"http://127.0.0.1:{port}", token, root, process)
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"jupyter {flavour} exited: see {log.name}")
            try:
                urllib.request.urlopen(f"{server.url}/api/status?token={token}", timeout=2).close()
                break
            except (urllib.error.URLError, OSError):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"jupyter {flavour} did not start within 60 s: see {log.name}") from None
                time.sleep(0.2)
        yield server
    finally:
        server.stop()
        log.close()


_KERNEL_READY = """() => {
  const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const kernel = panel && panel.sessionContext && panel.sessionContext.session && panel.sessionContext.session.kernel;
  return !!kernel && kernel.connectionStatus === 'connected' && kernel.status === 'idle';
}"""

_EXECUTE = """async (code) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const future = kernel.requestExecute({ code, store_history: false });
  let out = '';
  future.onIOPub = (msg) => {
    const t = msg.header.msg_type;
    if (t === 'stream') out += msg.content.text;
    else if (t === 'error') out += 'ERROR: ' + msg.content.ename + ': ' + msg.content.evalue;
  };
  await future.done;
  return out;
}"""


def open_notebook(page: Page, server: JupyterServer, name: str, timeout_ms: int = 60_000) -> None:
    """Open notebook ``name`` and wait until its kernel is connected and idle."""
    page.goto(server.notebook_url(name))
    page.wait_for_function(_KERNEL_READY, timeout=timeout_ms, polling=200)


def run_all(page: Page) -> None:
    """Run every cell of the open notebook (without waiting for the cells to finish)."""
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")


def open_and_run(page: Page, server: JupyterServer, name: str, timeout_ms: int = 60_000) -> None:
    """Open notebook ``name``, wait for its kernel, and run every cell."""
    open_notebook(page, server, name, timeout_ms)
    run_all(page)


def kernel_eval(page: Page, code: str) -> str:
    """Run ``code`` in the notebook's kernel and return what it printed."""
    return str(page.evaluate(_EXECUTE, code))


def page_errors(page: Page) -> list[str]:
    """Collect uncaught page errors (except the known Notebook 7 one) into a list as they happen."""
    errors: list[str] = []

    def record(error: Any) -> None:
        text = str(error)
        if not any(known in text for known in KNOWN_PAGE_ERRORS):
            errors.append(text)

    page.on("pageerror", record)
    return errors


def drag(page: Page, card: Locator, pile: Locator) -> None:
    """Drag ``card`` onto ``pile`` with the mouse in small steps, as a person would."""
    card.scroll_into_view_if_needed()
    start, end = card.bounding_box(), pile.bounding_box()
    assert start is not None and end is not None
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + 12)
    page.mouse.down()
    page.mouse.move(start["x"] + start["width"] / 2 + 8, start["y"] + 20, steps=3)
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + min(end["height"] / 2, 60), steps=12)
    page.mouse.up()


def choose_from_more(root: Locator, action: str) -> None:
    """Open the board's More menu and pick the item for ``action``."""
    root.locator('[data-action="more"]').click()
    root.locator(f'.pl-menu-item[data-action="{action}"]').click()


#: One size a language, for a test that looks at a board in every language: a wide screen in English, a
#: classroom projector in Dutch, a phone in Swedish.
LANGUAGE_SIZES = {"en": (1280, 900), "nl": (1024, 768), "sv": (400, 900)}


# seed 7: t1 holds the 5♦ alone, t3 shows the 6♠, t5 the 5♥, t2 the 7♦ (see the README tour).
PLAY_SETUP = "from patiencelab import KlondikeWidget\nw = KlondikeWidget(seed=7)\nw"

REPO = pathlib.Path(__file__).resolve().parents[2]
#: A cell that checks, in the kernel, every state the widget ``w`` syncs against the protocol schema (generated
#: from js/types.ts), and that the kernel runs this checkout's code.
CHECK_STATES = f"""import json as _json, pathlib as _pathlib, jsonschema as _jsonschema, patiencelab as _pl
assert _pathlib.Path(_pl.__file__).resolve().is_relative_to({str(REPO)!r}), _pl.__file__
_schema = _json.loads(_pathlib.Path({str(REPO / "js" / "protocol.schema.json")!r}).read_text())
_state_check = _jsonschema.Draft7Validator({{"$ref": "#/definitions/GameState", "definitions": _schema["definitions"]}})
_bad_states = []
def _check_state(change):
    _bad_states.extend(f"{{list(e.absolute_path)}}: {{e.message}}" for e in _state_check.iter_errors(change["new"]))
_check_state({{"new": w.state}})
w.observe(_check_state, names="state")"""


def assert_states_followed_the_protocol(page: Page) -> None:
    """Every state the kernel's widget synced passed the schema check of ``CHECK_STATES``."""
    assert kernel_eval(page, "print(_bad_states)").strip() == "[]"
