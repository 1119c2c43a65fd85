"""The built distributions work where users are: each wheel installed into a clean virtual environment, with no Node,
no compiler and no checkout on the path, imports, says its version, shows ``help(Klondike)`` with its real
arguments, runs the README's snippets, and plays in real JupyterLab and Notebook 7 (a move by drag); the sdist
installs with no compiler, pure. Needs the package registry (pip installs the dependencies and build backend).

Two ways to run it:

- ``make test``: the sdist and the pure wheel (``py3-none-any``, JupyterLite's), built here from a copy of the
  checkout by ``python -m build`` with no Node around; the pure wheel is the one installed and played.
- ``make dist-check`` (``PATIENCELAB_DIST=dist``): the distributions ``make dist`` built, the compiled wheel
  (manylinux-tagged) first and then the pure one, each in its own clean environment and in both Jupyters; and the
  sdist and the pure wheel built again with the same ``SOURCE_DATE_EPOCH`` give the same bytes.
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tarfile
import venv
import zipfile
from dataclasses import dataclass

import pytest
from playwright.sync_api import Page, expect

from .jupyter_harness import Flavour, drag, jupyter_server, kernel_eval, open_and_run, page_errors, write_notebook

REPO = pathlib.Path(__file__).resolve().parents[2]

#: The folder of the distributions ``make dist`` built (``make dist-check``), or None: build them here.
DIST = os.environ.get("PATIENCELAB_DIST") or None

CHECK = """
import json, pathlib, pydoc, patiencelab
from importlib.metadata import distribution, version
from patiencelab import Klondike, KlondikeWidget, svg
source = json.loads(distribution("patiencelab").read_text("direct_url.json"))["url"].rsplit("/", 1)[1]
here = pathlib.Path(patiencelab.__file__).resolve()
assert here.is_relative_to(pathlib.Path({prefix!r}).resolve()), here
assert patiencelab.__version__ == version("patiencelab"), (patiencelab.__version__, version("patiencelab"))
shown = pydoc.render_doc(Klondike, renderer=pydoc.plaintext)
init = [line.strip(" |") for line in shown.splitlines() if line.strip(" |").startswith("__init__(")]
assert "One game of Klondike under some" in shown and len(init) == 1, init
assert "*args" not in init[0] and "*, seed" in init[0], init
w = KlondikeWidget(seed=7, records=None)
static = here.parent / "static"
assert (static / "widget.js").is_file() and (static / "widget.css").is_file()
assert "render" in str(w._esm)
picture = svg.render(w.game, width=320)
from patiencelab.lessons import Lesson
assert Lesson.builtin_names() == ("draw-three", "quiz", "review", "six-column", "traditional"), Lesson.builtin_names()
assert Lesson.builtin("traditional").steps
from patiencelab.core.i18n import catalogue
assert catalogue("sv")["language.sv"] and catalogue("nl")["language.nl"]
print(json.dumps([source, w.state["version"], w.state["status"], w.state["tableau"][0]["up"], picture[:4]]))
print(json.dumps([patiencelab.COMPILED, str(patiencelab.solve(w.game, max_states=5000).moves[:3])]))
"""

#: The compiled core, as ``patiencelab.COMPILED`` lists it.
CORE = [
    "patiencelab.core.engine",
    "patiencelab.core.kernel",
    "patiencelab.core.table",
    "patiencelab.solver.deadend",
    "patiencelab.solver.movegen",
    "patiencelab.solver.node",
    "patiencelab.solver.portfolio",
    "patiencelab.solver.search",
]


def without_node(bin_dir: pathlib.Path) -> dict[str, str]:
    """An environment whose PATH is one folder with no Node and no C compiler in it (and no PYTHONPATH into this
    checkout, no compiler named by CC, no choice of pure modules)."""
    for tool in ("node", "npm", "cc", "gcc"):
        assert not (bin_dir / tool).exists(), tool
    drop = ("PYTHONPATH", "VIRTUAL_ENV", "CC", "PATIENCELAB_PURE", "PATIENCELAB_PURE_BUILD")
    env = {key: value for key, value in os.environ.items() if key not in drop}
    return {**env, "PATH": str(bin_dir), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


def run(command: list[str], env: dict[str, str], cwd: pathlib.Path | None = None) -> str:
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"{command[:4]} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def fresh_venv(path: pathlib.Path) -> pathlib.Path:
    venv.EnvBuilder(with_pip=True, clear=True).create(path)
    return path / "bin"


def sha256(path: pathlib.Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@dataclass(frozen=True)
class Dists:
    """The sdist, the compiled wheel (None in make test) and the pure wheel."""

    sdist: pathlib.Path
    compiled: pathlib.Path | None
    pure: pathlib.Path

    def wheels(self) -> list[pathlib.Path]:
        return [wheel for wheel in (self.compiled, self.pure) if wheel is not None]


def source_copy(work: pathlib.Path) -> pathlib.Path:
    """A copy of the checkout without its environments, builds and compiled extensions."""
    source = work / "source"
    ignore = shutil.ignore_patterns(
        ".venv*", "node_modules", "build", "dist", ".git", "test-artifacts", "*cache*", "*.so", "_compiled.json"
    )
    shutil.copytree(REPO, source, ignore=ignore)
    return source


def build(source: pathlib.Path, out: pathlib.Path, *kinds: str, pure: bool = False) -> None:
    """``python -m build`` (this environment's) of ``source`` into ``out``, with no Node on the PATH."""
    env = without_node(pathlib.Path(sys.executable).parent)
    if pure:
        env["PATIENCELAB_PURE_BUILD"] = "1"
    run([sys.executable, "-m", "build", *kinds, "--outdir", str(out), str(source)], env)


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory) -> Dists:
    """make dist-check: the files of ``$PATIENCELAB_DIST``; make test: the sdist and the pure wheel, built here."""
    if DIST is not None:
        folder = REPO / DIST
        (sdist,) = folder.glob("patiencelab-*.tar.gz")
        (pure,) = folder.glob("patiencelab-*-py3-none-any.whl")
        (compiled,) = (wheel for wheel in folder.glob("patiencelab-*.whl") if wheel != pure)
        return Dists(sdist, compiled, pure)
    if not (REPO / "src" / "patiencelab" / "static" / "widget.js").is_file():
        pytest.fail("the front end is not built: run 'make setup' first", pytrace=False)
    work = tmp_path_factory.mktemp("dists")
    source = source_copy(work)
    build(source, work / "dist", "--sdist")
    build(source, work / "dist", "--wheel", pure=True)
    (sdist,) = (work / "dist").glob("patiencelab-*.tar.gz")
    (pure,) = (work / "dist").glob("patiencelab-*.whl")
    return Dists(sdist, None, pure)


def checked(output: str) -> tuple[list[object], list[str], str]:
    """The two lines :data:`CHECK` prints: the board's summary, the compiled modules and a solution's start."""
    board, (compiled, moves) = (json.loads(line) for line in output.splitlines()[-2:])
    return board, compiled, moves


@dataclass(frozen=True)
class Installed:
    """A wheel installed into a clean environment: its bin folder and that environment's variables."""

    wheel: pathlib.Path
    bin: pathlib.Path
    env: dict[str, str]
    prefix: pathlib.Path


def install(wheel: pathlib.Path, prefix: pathlib.Path, *more: str) -> Installed:
    """A clean environment at ``prefix`` with ``wheel`` (its widget extra, and ``more``) installed from the package
    index, with no Node and no compiler on the PATH."""
    bin_dir = fresh_venv(prefix)
    env = without_node(bin_dir)
    run(
        [str(bin_dir / "python"), "-m", "pip", "install", "--quiet", f"patiencelab[widget] @ {wheel.as_uri()}", *more],
        env,
    )
    return Installed(wheel, bin_dir, env, prefix)


@pytest.fixture(scope="module")
def installed(dists: Dists, tmp_path_factory: pytest.TempPathFactory) -> list[Installed]:
    """Each wheel in a clean environment of its own, with JupyterLab and Notebook 7 beside it."""
    return [
        install(wheel, tmp_path_factory.mktemp("venv") / "venv", "jupyterlab>=4.2", "notebook>=7.2")
        for wheel in dists.wheels()
    ]


def test_each_wheel_installs_imports_and_plays_without_node(
    dists: Dists, installed: list[Installed], tmp_path: pathlib.Path
) -> None:
    assert dists.pure.name.endswith("-py3-none-any.whl")
    if dists.compiled is not None:
        assert "manylinux" in dists.compiled.name or not sys.platform.startswith("linux"), dists.compiled.name
    answers = []
    for one in installed:
        python = str(one.bin / "python")
        board, compiled, moves = checked(run([python, "-c", CHECK.format(prefix=str(one.prefix))], one.env, tmp_path))
        assert board == [one.wheel.name, 1, "playing", ["5D"], "<svg"], board
        assert compiled == (CORE if one.wheel == dists.compiled else []), compiled
        answers.append(moves)
        from patiencelab import __version__

        said = run([python, "-m", "patiencelab", "--version"], one.env, tmp_path).strip()
        assert said == f"patiencelab {__version__}", said
        shutil.copy(REPO / "README.md", tmp_path / "README.md")  # the README's snippets, as a user pastes them
        run([python, "-m", "doctest", "README.md"], one.env, tmp_path)
        print(f"{one.wheel.name}: {board[1:]}, compiled modules {len(compiled)}, {said}, README snippets pass")
    assert len(set(answers)) == 1, answers  # the same solution from either build


def test_the_sdist_installs_with_no_compiler_pure_with_one_notice(
    dists: Dists, installed: list[Installed], tmp_path: pathlib.Path
) -> None:
    one = installed[-1]
    done = subprocess.run(
        [
            str(one.bin / "python"),
            "-m",
            "pip",
            "install",
            "--verbose",
            "--force-reinstall",
            "--no-deps",
            str(dists.sdist),
        ],
        env={**one.env, "CC": str(tmp_path / "no-such-cc")},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    notices = [line for line in (done.stdout + done.stderr).splitlines() if line.strip().startswith("patiencelab: ")]
    assert len(notices) == 1 and "no C compiler found" in notices[0], notices
    board, compiled, _ = checked(run([str(one.bin / "python"), "-c", CHECK.format(prefix=str(one.prefix))], one.env))
    assert board[0] == dists.sdist.name and compiled == []
    run(
        [str(one.bin / "python"), "-m", "pip", "install", "--quiet", "--force-reinstall", "--no-deps", str(one.wheel)],
        one.env,
    )


def test_a_source_tree_without_its_front_end_or_node_stops_and_says_why(
    installed: list[Installed], tmp_path: pathlib.Path
) -> None:
    """``pip install .`` in a checkout whose front end is not built, with no npm: the build's own words, not
    "Could not find cmd (npm) in path" (issue 61)."""
    one = installed[-1]
    source = source_copy(tmp_path)
    shutil.rmtree(source / "src" / "patiencelab" / "static")
    done = subprocess.run(
        [str(one.bin / "python"), "-m", "pip", "install", "--no-deps", "--target", str(tmp_path / "t"), str(source)],
        env=one.env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    said = " ".join((done.stdout + done.stderr).split())
    assert done.returncode != 0 and "building it needs Node 20 or newer with npm, which is not on the PATH" in said
    assert "install a built wheel instead" in said, said[-2000:]


def test_the_wheels_ship_every_room_the_lessons_catalogues_and_front_end(dists: Dists) -> None:
    package = REPO / "src" / "patiencelab"
    data = [f"lessons/{path.name}" for path in (package / "lessons").glob("*.json")]
    data += [f"locale/{path.name}" for path in (package / "locale").glob("*.po")]
    data += ["static/widget.js", "static/widget.css", "py.typed"]
    rooms = ("players", "review", "lessons", "records", "survey", "solver", "widget", "core")
    for wheel in dists.wheels():
        names = set(zipfile.ZipFile(wheel).namelist())
        assert {f"patiencelab/{name}" for name in data} <= names, (wheel.name, sorted(names)[:20])
        assert {f"patiencelab/{room}/__init__.py" for room in rooms} <= names, wheel.name
        assert not any(name.startswith(("tests/", "js/", "src/")) for name in names), wheel.name
    with tarfile.open(dists.sdist) as sdist:
        names = set(sdist.getnames())
    root = dists.sdist.name.removesuffix(".tar.gz")
    assert {f"{root}/src/patiencelab/static/widget.js", f"{root}/hatch_build.py", f"{root}/js/package.json"} <= names


@pytest.mark.dist_check  # make dist's files built again and compared: deselected where make dist built none
def test_the_sdist_and_pure_wheel_are_reproducible(dists: Dists, tmp_path: pathlib.Path) -> None:
    """Built again from the checkout with the same ``SOURCE_DATE_EPOCH`` (make dist-check exports make dist's),
    the sdist and the pure wheel are the same bytes."""
    assert os.environ.get("SOURCE_DATE_EPOCH"), "make dist-check sets SOURCE_DATE_EPOCH"
    source = source_copy(tmp_path)
    build(source, tmp_path / "again", "--sdist")
    build(source, tmp_path / "again", "--wheel", pure=True)
    for first in (dists.sdist, dists.pure):
        again = tmp_path / "again" / first.name
        assert sha256(again) == sha256(first), f"{first.name} differs when built again"
        print(f"{first.name}: sha256 {sha256(first)} twice")


@pytest.mark.browser
@pytest.mark.parametrize("flavour", ["lab", "notebook"])
def test_each_wheel_plays_by_drag_in_real_jupyter(
    flavour: Flavour, installed: list[Installed], page: Page, tmp_path: pathlib.Path
) -> None:
    """The wheel's own front end, served by the clean environment's JupyterLab or Notebook 7 (no checkout): the
    board comes up and a drag plays a move that the kernel's game follows."""
    errors = page_errors(page)
    for number, one in enumerate(installed):
        home = {"PATIENCELAB_HOME": str(tmp_path / f"home-{number}")}
        with jupyter_server(
            flavour, tmp_path / f"server-{number}", {**one.env, **home}, str(one.bin / "python")
        ) as server:
            cell = "import patiencelab\nfrom patiencelab import KlondikeWidget\nw = KlondikeWidget(seed=7)\nw"
            write_notebook(server.root / "wheel.ipynb", cell)
            open_and_run(page, server, "wheel.ipynb")
            root = page.locator("[data-version]").first
            expect(root).to_be_visible(timeout=60_000)
            expect(root).to_have_attribute("data-version", "1")
            drag(page, root.locator('[data-card="5D"]'), root.locator('[data-pile="t3"]'))
            expect(root).to_have_attribute("data-version", "2")
            expect(root.locator('[data-pile="t3"] [data-card="5D"]')).to_have_count(1)
            said = kernel_eval(page, "print(w.game.history, patiencelab.COMPILED != ())").strip()
            assert said == f"(Move.parse('t1-t3'),) {one.wheel.name.endswith('-none-any.whl') is False}", said
    assert not errors, errors
