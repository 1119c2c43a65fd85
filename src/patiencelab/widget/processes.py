"""Which interpreter plays a game in play: :func:`process_name`, this interpreter's name in the records, and
:func:`process_alive`, whether the one of a name still runs (the record keeper offers a game in play to another
kernel's board only once the kernel that played it is gone).
"""

from __future__ import annotations

import os
import pathlib
import socket
import sys
import uuid

__all__ = ["process_alive", "process_name"]

#: This interpreter's name in the records' games in play (see :func:`process_name`), by its process id.
_PROCESS: dict[int, str] = {}


def process_name() -> str:
    """This interpreter's name in the games in play: its host, process id, when the process started (where the
    system says) and a random part, so that a process id used again later is not taken for this one.
    """
    pid = os.getpid()
    if pid not in _PROCESS:
        _PROCESS[pid] = f"{socket.gethostname()}/{pid}/{_started(pid)}/{uuid.uuid4().hex[:8]}"
    return _PROCESS[pid]


def _started(pid: int) -> str:
    """When process ``pid`` started, in the system's clock ticks since boot (Linux), else ``-``."""
    try:
        stat = pathlib.Path(f"/proc/{pid}/stat").read_text()
        return stat.rpartition(")")[2].split()[19]
    except (OSError, IndexError):
        return "-"


def process_alive(name: str) -> bool:
    """Whether the interpreter of that :func:`process_name` still runs. An interpreter on another host, in a
    browser (where every page load is a new one) or named in an older database counts as gone.
    """
    if name == process_name():
        return True
    host, _, rest = name.partition("/")
    pid_text, _, rest = rest.partition("/")
    started = rest.partition("/")[0]
    if sys.platform == "emscripten" or host != socket.gethostname() or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    return _running(pid) and started in ("-", _started(pid))


def _running(pid: int) -> bool:
    """Whether a process ``pid`` runs on this machine."""
    if sys.platform == "win32":
        import ctypes

        kernel32 = ctypes.windll.kernel32
        handle = kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
        if not handle:
            return False
        try:
            code = ctypes.c_ulong()
            return bool(kernel32.GetExitCodeProcess(handle, ctypes.byref(code))) and code.value == 259  # STILL_ACTIVE
        finally:
            kernel32.CloseHandle(handle)
    try:
        os.kill(pid, 0)
    except PermissionError:
        return True
    except OSError:
        return False
    return True
