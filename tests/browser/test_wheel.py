"""The wheels and the sdist need no Node: built from this checkout (the front end is bundled in), installed into a
fresh virtual environment with nothing but that environment on the PATH, they import the widget, build the
board's state and draw an SVG. Needs the package registry (pip installs the dependencies and build backend).

Two wheels: the compiled one (a C compiler on the PATH: the rules kernel, game and solver core built by mypyc)
and the pure one (``PATIENCELAB_PURE_BUILD=1``, as ``make lite`` builds it for Pyodide). The sdist installs with
no compiler on the PATH, pure, with one line of notice. The compiled wheel's build (a minute of mypyc) is
``make soak``'s (``PATIENCELAB_COMPILED_WHEEL=1``); ``make setup`` compiles the same modules by the same build hook.
"""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile

import pytest

REPO = pathlib.Path(__file__).resolve().parents[1]

#: Whether the compiled wheel is built and tried too (``make soak``).
COMPILED_WHEEL = os.environ.get("PATIENCELAB_COMPILED_WHEEL", "") == "1"

CHECK = """
import json, pathlib, patiencelab
from importlib.metadata import distribution
from patiencelab import KlondikeWidget, svg
source = json.loads(distribution("patiencelab").read_text("direct_url.json"))["url"].rsplit("/", 1)[1]
here = pathlib.Path(patiencelab.__file__).resolve()
assert here.is_relative_to(pathlib.Path({prefix!r}).resolve()), here
w = KlondikeWidget(seed=7, records=None)
static = here.parent / "static"
assert (static / "widget.js").is_file() and (static / "widget.css").is_file()
assert "render" in str(w._esm)
picture = svg.render(w.game, width=320)
from patiencelab.lessons import Lesson
assert Lesson.builtin_names() == ("draw-three", "quiz", "review", "six-column", "traditional"), Lesson.builtin_names()
assert Lesson.builtin("traditional").steps
print(json.dumps([source, w.state["version"], w.state["status"], w.state["tableau"][0]["up"], picture[:4]]))
print(json.dumps([patiencelab.COMPILED, str(patiencelab.solve(w.game, max_states=5000).moves[:3])]))
"""

#: The compiled core, as ``patiencelab.COMPILED`` lists it.
CORE = [
    "patiencelab.core.game",
    "patiencelab.core.kernel",
    "patiencelab.core.table",
    "patiencelab.solver.deadend",
    "patiencelab.solver.movegen",
    "patiencelab.solver.node",
    "patiencelab.solver.portfolio",
    "patiencelab.solver.search",
]


def without_node(bin_dir: pathlib.Path, *more: pathlib.Path) -> dict[str, str]:
    """An environment whose PATH is one folder (and ``more``) with no Node in it (and no PYTHONPATH into this
    checkout, no compiler named by CC, no choice of pure modules).
    """
    for folder in (bin_dir, *more):
        assert not (folder / "node").exists() and not (folder / "npm").exists()
    drop = ("PYTHONPATH", "VIRTUAL_ENV", "CC", "PATIENCELAB_PURE", "PATIENCELAB_PURE_BUILD")
    env = {key: value for key, value in os.environ.items() if key not in drop}
    path = os.pathsep.join(str(folder) for folder in (bin_dir, *more))
    return {**env, "PATH": path, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


def compiler_only(folder: pathlib.Path) -> pathlib.Path:
    """A folder holding the C compiler Python was built with and the assembler and linker it calls, nothing else."""
    folder.mkdir()
    for tool in (str(sysconfig.get_config_var("CC") or "cc").split()[0], "as", "ld"):
        found = shutil.which(tool)
        if found is None:
            if os.environ.get("CI", "").lower() not in ("", "0", "false"):
                pytest.fail(f"CI builds the compiled wheel, but there is no {tool}")
            pytest.skip(f"no {tool} on this machine: the compiled wheel cannot be built")
        (folder / pathlib.Path(tool).name).symlink_to(pathlib.Path(found).resolve())
    return folder


def run(command: list[str], env: dict[str, str], cwd: pathlib.Path | None = None) -> str:
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"{command[:4]} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def fresh_venv(path: pathlib.Path) -> pathlib.Path:
    venv.EnvBuilder(with_pip=True, clear=True).create(path)
    return path / "bin"


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory) -> tuple[pathlib.Path, pathlib.Path | None, pathlib.Path]:
    """The sdist, the compiled wheel (from the sdist; None unless :data:`COMPILED_WHEEL`) and the pure wheel, built
    by ``python -m build`` with no Node around (a C compiler on the PATH for the compiled one).
    """
    if not (REPO / "src" / "patiencelab" / "static" / "widget.js").is_file():
        pytest.fail("the front end is not built: run 'make setup' first", pytrace=False)
    work = tmp_path_factory.mktemp("dists")
    python = pathlib.Path(sys.executable)
    has_build = subprocess.run([sys.executable, "-c", "import build.__main__"], cwd=work, capture_output=True)
    if has_build.returncode != 0:  # a dev environment from before `build` was in the dev extra
        tools = fresh_venv(work / "tools")
        run([str(tools / "python"), "-m", "pip", "install", "--quiet", "build>=1.2"], without_node(tools))
        python = tools / "python"
    out = work / "dist"
    source = work / "source"  # a copy of the checkout without its environments
    ignore = shutil.ignore_patterns(".venv*", "node_modules", "build", "dist", ".git", "test-artifacts", "*cache*")
    shutil.copytree(REPO, source, ignore=ignore)
    if COMPILED_WHEEL:
        env = without_node(python.parent, compiler_only(work / "cc"))
        run([str(python), "-m", "build", "--outdir", str(out), str(source)], env)
        (wheel,) = out.glob("patiencelab-*.whl")
    else:
        run([str(python), "-m", "build", "--sdist", "--outdir", str(out), str(source)], without_node(python.parent))
        wheel = None
    (sdist,) = out.glob("patiencelab-*.tar.gz")
    pure_out = work / "pure"
    env = {**without_node(python.parent), "PATIENCELAB_PURE_BUILD": "1"}
    run([str(python), "-m", "build", "--wheel", "--outdir", str(pure_out), str(source)], env)
    (pure,) = pure_out.glob("patiencelab-*.whl")
    return sdist, wheel, pure


def checked(output: str) -> tuple[list[object], list[str], str]:
    """The two lines :data:`CHECK` prints: the board's summary, the compiled modules and a solution's start."""
    board, (compiled, moves) = (json.loads(line) for line in output.splitlines()[-2:])
    return board, compiled, moves


def test_the_package_installs_and_plays_without_node(
    dists: tuple[pathlib.Path, pathlib.Path | None, pathlib.Path], tmp_path: pathlib.Path
) -> None:
    sdist, wheel, pure = dists
    assert pure.name.endswith("-py3-none-any.whl")
    bin_dir = fresh_venv(tmp_path / "venv")
    env = without_node(bin_dir)
    pip = [str(bin_dir / "python"), "-m", "pip", "install", "--quiet"]
    check = [str(bin_dir / "python"), "-c", CHECK.format(prefix=str(tmp_path / "venv"))]
    first = pure if wheel is None else wheel  # make soak: the compiled wheel first
    assert wheel is None or not wheel.name.endswith("-none-any.whl")
    run([*pip, f"patiencelab[widget] @ {first.as_uri()}"], env)  # with its dependencies, from the registry
    board, compiled, moves = checked(run(check, env, cwd=tmp_path))
    assert board == [first.name, 1, "playing", ["5D"], "<svg"] and compiled == ([] if wheel is None else CORE)
    if wheel is not None:  # the same answers from the Python source alone: pure modules, then the pure wheel
        assert checked(run(check, {**env, "PATIENCELAB_PURE": "1"}, cwd=tmp_path)) == (board, [], moves)
        run([*pip, "--force-reinstall", "--no-deps", str(pure)], env)
        assert checked(run(check, env, cwd=tmp_path)) == ([pure.name, *board[1:]], [], moves)
    # the sdist builds (its front end is in it) with no C compiler on the PATH, pure, with one line of notice
    done = subprocess.run(
        [*pip[:-1], "--verbose", "--force-reinstall", "--no-deps", str(sdist)],
        env={**env, "CC": str(tmp_path / "no-such-cc")},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    notices = [line for line in (done.stdout + done.stderr).splitlines() if line.strip().startswith("patiencelab: ")]
    assert len(notices) == 1 and "no C compiler found" in notices[0], notices
    assert checked(run(check, env, cwd=tmp_path)) == ([sdist.name, *board[1:]], [], moves)


def test_the_wheels_ship_every_room_and_the_lessons_in_theirs(
    dists: tuple[pathlib.Path, pathlib.Path | None, pathlib.Path],
) -> None:
    lessons = sorted(path.name for path in (REPO / "src" / "patiencelab" / "lessons").glob("*.json"))
    rooms = ("players", "review", "lessons", "records", "survey", "solver", "widget", "core")
    for wheel in (wheel for wheel in dists[1:] if wheel is not None):
        names = set(zipfile.ZipFile(wheel).namelist())
        assert {f"patiencelab/lessons/{name}" for name in lessons} <= names, wheel.name
        assert {f"patiencelab/{room}/__init__.py" for room in rooms} <= names, wheel.name
