"""A real Jupyter server (JupyterLab or Notebook 7) in a private temp dir, for browser tests and the widget
benchmark: start it, open a notebook, run it, evaluate Python in its kernel, and stop it.

The browser tests share the servers of their test process, one JupyterLab and one Notebook 7
(:class:`SharedJupyter`, the ``jupyter`` fixture of ``conftest.py``), each test with a part of one of its own
(:class:`JupyterFolder`).
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
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, ExitStack, contextmanager
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
    """A running server: its base URL, token, root dir, private config dirs (``home``) and process."""

    flavour: Flavour
    url: str
    token: str
    root: pathlib.Path
    home: pathlib.Path
    process: subprocess.Popen[bytes]

    def notebook_url(self, name: str) -> str:
        path = f"lab/tree/{name}" if self.flavour == "lab" else f"notebooks/{name}"
        return f"{self.url}/{path}?token={self.token}"

    def api(self, method: str, path: str) -> Any:
        """Calls the server's REST API (``/api/...``) and returns the JSON it answers (``None`` when empty)."""
        request = urllib.request.Request(
            f"{self.url}{path}", method=method, headers={"Authorization": f"token {self.token}"}
        )
        with urllib.request.urlopen(request, timeout=60) as response:
            body = response.read()
        return json.loads(body) if body else None

    def stop(self) -> None:
        try:
            self.api("POST", "/api/shutdown")
            self.process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def private_dirs(home: pathlib.Path) -> dict[str, str]:
    """The variables that point a Jupyter server (JupyterLab, Notebook 7, Voila) and its kernels at folders of
    ``home``: no user's settings, workspaces or kernels read or written."""
    return {
        "JUPYTER_CONFIG_DIR": str(home / "config"),
        "JUPYTER_DATA_DIR": str(home / "data"),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
        "IPYTHONDIR": str(home / "ipython"),
        "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
    }


@contextmanager
def served(
    command: list[str],
    env: Mapping[str, str],
    log_path: pathlib.Path,
    ready: Callable[[], bool],
    *,
    stop: int = signal.SIGTERM,
    within: float = 60,
    cwd: pathlib.Path | None = None,
) -> Iterator[subprocess.Popen[bytes]]:
    """Run a server (marimo, Voila) until the block ends: started with its output in ``log_path``, waited for
    until ``ready()`` (an error when it exits first, or after ``within`` seconds), stopped with ``stop``, then
    killed if it lingers."""
    name = pathlib.Path(command[0]).name if command[1:2] != ["-m"] else command[2]
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, env=dict(env), stdout=log, stderr=subprocess.STDOUT, cwd=cwd)
        try:
            deadline = time.monotonic() + within
            while not ready():
                if process.poll() is not None:
                    raise RuntimeError(f"{name} exited: {log_path.read_text(errors='replace')[-2000:]}")
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{name} did not start within {within:g} s")
                time.sleep(0.2)
            yield process
        finally:
            process.send_signal(stop)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@contextmanager
def jupyter_server(
    flavour: Flavour, workdir: pathlib.Path, env: Mapping[str, str] | None = None, python: str = sys.executable
) -> Iterator[JupyterServer]:
    """Start ``jupyter lab`` or ``jupyter notebook`` on a free port with private config dirs under ``workdir``
    (and ``env`` added to the environment it and its kernels run in), with ``python``: this one's, or another
    environment's (a wheel's clean one, tests/browser/test_wheel.py)."""
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
    server_env = {**os.environ, **(env or {}), **private_dirs(home)}
    port, token = free_port(), secrets.token_hex(16)
    command = [
        python,
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
    process = subprocess.Popen(command, env=server_env, stdout=log, stderr=subprocess.STDOUT)
    server = JupyterServer(flavour, f"http://127.0.0.1:{port}", token, root, home, process)
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


@dataclass
class JupyterFolder:
    """One test's part of a shared server (:meth:`SharedJupyter.lend`): a folder of its own for its notebooks
    (``root``, where its kernels start), its own JupyterLab workspace (the open tabs and the layout), and its
    kernels' own ``PATIENCELAB_HOME``."""

    server: JupyterServer
    root: pathlib.Path
    workspace: str
    records_home: pathlib.Path

    def notebook_url(self, name: str) -> str:
        path = f"{self.root.relative_to(self.server.root).as_posix()}/{name}"
        if self.server.flavour == "lab":
            return f"{self.server.url}/lab/workspaces/{self.workspace}/tree/{path}?token={self.server.token}"
        return f"{self.server.url}/notebooks/{path}?token={self.server.token}"


class SharedJupyter:
    """The Jupyter servers of a test process, one a flavour (``jupyter lab``; ``jupyter notebook`` for Notebook 7,
    which throws page errors when ``jupyter lab`` serves it), each started when a test first asks for it and lent
    to one test at a time (starting a server and loading it cost seconds each time). A test sees nothing of those
    before it: its notebooks are in a new folder, JupyterLab opens them in a new workspace, its kernels run with
    the test's ``PATIENCELAB_HOME`` (the ``python3`` kernel spec is written for each test into a folder of
    ``JUPYTER_PATH``, searched before the environment's own; a kernel spec is read when a kernel starts), the
    settings it asks for are written for it alone, and when it ends its kernels are shut down and the settings put
    back as the server started with them. :func:`open_notebook` checks each kernel's records home and folder."""

    def __init__(self, workdir: pathlib.Path) -> None:
        self._workdir = workdir
        self._servers: dict[Flavour, JupyterServer] = {}
        self._baselines: dict[Flavour, dict[pathlib.Path, bytes]] = {}
        self._stack = ExitStack()
        self.lent = 0

    def close(self) -> None:
        """Stops the servers."""
        self._stack.close()

    def _server(self, flavour: Flavour) -> JupyterServer:
        if flavour not in self._servers:
            workdir = self._workdir / flavour
            workdir.mkdir()
            kernel_path = [str(workdir / "kernel-path"), os.environ.get("JUPYTER_PATH", "")]
            env = {
                "PATIENCELAB_HOME": str(workdir / "records-of-no-test"),
                "JUPYTER_PATH": os.pathsep.join(filter(None, kernel_path)),
            }
            server = self._stack.enter_context(jupyter_server(flavour, workdir, env=env))
            self._servers[flavour] = server
            self._baselines[flavour] = self._settings_files(server)
        return self._servers[flavour]

    @staticmethod
    def _settings_files(server: JupyterServer) -> dict[pathlib.Path, bytes]:
        return {path: path.read_bytes() for path in (server.home / "settings").rglob("*") if path.is_file()}

    def _reset_settings(self, flavour: Flavour) -> None:
        server, baseline = self._servers[flavour], self._baselines[flavour]
        for path in self._settings_files(server).keys() - baseline.keys():
            path.unlink()
        for path, content in baseline.items():
            if not path.is_file() or path.read_bytes() != content:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(content)

    @staticmethod
    def _shut_kernels(server: JupyterServer) -> None:
        """Shuts down every session and kernel of ``server``, and checks that none is left."""
        for session in server.api("GET", "/api/sessions"):
            server.api("DELETE", f"/api/sessions/{session['id']}")
        for kernel in server.api("GET", "/api/kernels"):
            server.api("DELETE", f"/api/kernels/{kernel['id']}")
        left = server.api("GET", "/api/kernels")
        assert left == [], f"kernels left running in the shared Jupyter server: {left}"

    @staticmethod
    def _kernel_spec(server: JupyterServer, records_home: pathlib.Path) -> None:
        from ipykernel.kernelspec import get_kernel_dict

        spec = {**get_kernel_dict(), "display_name": "Python 3 (ipykernel)", "language": "python"}
        spec["env"] = {"PATIENCELAB_HOME": str(records_home)}
        folder = server.home.parent / "kernel-path" / "kernels" / "python3"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "kernel.json").write_text(json.dumps(spec, indent=1))

    @contextmanager
    def lend(
        self, flavour: Flavour, *, records_home: pathlib.Path, settings: Mapping[str, dict[str, Any]] | None = None
    ) -> Iterator[JupyterFolder]:
        """The server of ``flavour`` for one test; ``settings`` maps a plugin
        (``"@jupyterlab/docmanager-extension:plugin"``) to the user settings the test runs with."""
        server = self._server(flavour)
        self._shut_kernels(server)  # none should be left, but a page may have started one after its test
        self._reset_settings(flavour)
        self.lent += 1
        root = server.root / f"test-{self.lent}"
        root.mkdir()
        self._kernel_spec(server, records_home)
        for plugin, values in (settings or {}).items():
            extension, name = plugin.split(":", 1)
            path = server.home / "settings" / extension / f"{name}.jupyterlab-settings"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(values))
        try:
            yield JupyterFolder(server, root, f"test-{self.lent}", records_home)
        finally:
            self._shut_kernels(server)
            self._reset_settings(flavour)


#: What notebooks open in: a server of their own, or one test's part of a shared one.
Notebooks = JupyterServer | JupyterFolder
#: The ``jupyter`` fixture (``conftest.py``): ``with jupyter("lab") as server:``.
Jupyter = Callable[..., AbstractContextManager[JupyterFolder]]


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


#: The kernel's records home, and whether it runs in the test's folder.
_WHERE = "import os as _os\nprint(_os.environ.get('PATIENCELAB_HOME'), _os.path.samefile(_os.getcwd(), {root!r}))"


def open_notebook(page: Page, server: Notebooks, name: str, timeout_ms: int = 60_000) -> None:
    """Open notebook ``name`` and wait until its kernel is connected and idle."""
    page.goto(server.notebook_url(name))
    page.wait_for_function(_KERNEL_READY, timeout=timeout_ms, polling=200)
    if isinstance(server, JupyterFolder):  # a shared server: the kernel is the test's own
        where = kernel_eval(page, _WHERE.format(root=str(server.root))).strip()
        assert where == f"{server.records_home} True", f"the kernel is not the test's own: {where}"


def run_all(page: Page) -> None:
    """Run every cell of the open notebook (without waiting for the cells to finish)."""
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")


def open_and_run(page: Page, server: Notebooks, name: str, timeout_ms: int = 60_000) -> None:
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
