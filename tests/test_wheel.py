"""The wheel and the sdist need no Node: built from this checkout (the front end is bundled in), installed into a
fresh virtual environment with nothing but that environment on the PATH, they import the widget, build the
board's state and draw an SVG. Needs the package registry (pip installs the dependencies and build backend).
"""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import sys
import venv

import pytest

REPO = pathlib.Path(__file__).resolve().parents[1]

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
print(json.dumps([source, w.state["version"], w.state["status"], w.state["tableau"][0]["up"], picture[:4]]))
"""


def without_node(bin_dir: pathlib.Path) -> dict[str, str]:
    """An environment whose PATH is one folder with no Node in it (and no PYTHONPATH into this checkout)."""
    assert not (bin_dir / "node").exists() and not (bin_dir / "npm").exists()
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return {**env, "PATH": str(bin_dir), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


def run(command: list[str], env: dict[str, str], cwd: pathlib.Path | None = None) -> str:
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"{command[:4]} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def fresh_venv(path: pathlib.Path) -> pathlib.Path:
    venv.EnvBuilder(with_pip=True, clear=True).create(path)
    return path / "bin"


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory) -> tuple[pathlib.Path, pathlib.Path]:
    """The sdist and the wheel, built by ``python -m build`` (the wheel from the sdist) with no Node around."""
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
    run([str(python), "-m", "build", "--outdir", str(out), str(source)], without_node(python.parent))
    (sdist,) = out.glob("patiencelab-*.tar.gz")
    (wheel,) = out.glob("patiencelab-*.whl")
    return sdist, wheel


def test_the_package_installs_and_plays_without_node(
    dists: tuple[pathlib.Path, pathlib.Path], tmp_path: pathlib.Path
) -> None:
    sdist, wheel = dists
    bin_dir = fresh_venv(tmp_path / "venv")
    env = without_node(bin_dir)
    pip = [str(bin_dir / "python"), "-m", "pip", "install", "--quiet"]
    check = [str(bin_dir / "python"), "-c", CHECK.format(prefix=str(tmp_path / "venv"))]
    run([*pip, f"patiencelab[widget] @ {wheel.as_uri()}"], env)  # with its dependencies, from the registry
    assert json.loads(run(check, env, cwd=tmp_path)) == [wheel.name, 1, "playing", ["5D"], "<svg"]
    # the sdist builds (its front end is in it) and installs in place of the wheel
    run([*pip, "--force-reinstall", "--no-deps", str(sdist)], env)
    assert json.loads(run(check, env, cwd=tmp_path)) == [sdist.name, 1, "playing", ["5D"], "<svg"]
