"""Build the JupyterLite classroom site (``make lite``): static files that play PatienceLab in the browser.

Run with the Python of the build environment (``.venv-lite``, from ``lite/requirements.txt``), after
``npm ci`` in ``lite/`` (the Pyodide runtime) and with the project's wheel built. Everything comes from the
package registries through pip and npm; nothing is fetched when the site runs:

- the Pyodide runtime (npm ``pyodide``), with the pure wheels the kernel loads when it starts (micropip,
  IPython and their dependencies) downloaded from the Python registry at the versions of Pyodide's lock, and
  the lock rewritten to list exactly those files with their sha256;
- the widget stack and PatienceLab's own wheel in the site's ``pypi/`` folder (piplite), with the fallback to
  the public registry switched off;
- the play notebook, the three teaching notebooks and the student's players notebook, each with an install cell
  first (the lessons are in the wheel); the players notebook without its plot and its Gymnasium part, which need
  numpy and matplotlib: Pyodide builds them for the browser, but no package registry carries those builds.

Usage: ``python lite/build.py --wheel dist/patiencelab-*.whl --out build/lite/site --cache build/lite/cache``
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pathlib
import re
import shutil
import subprocess
import sys
from importlib import metadata

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
RUNTIME = HERE / "node_modules" / "pyodide"
RUNTIME_FILES = ("pyodide.mjs", "pyodide.js", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
#: What the kernel loads when it starts (micropip, then ipykernel's shim, comm, jedi, IPython), and what
#: PatienceLab and the widget need that Pyodide's lock lists: taken from the lock with all they depend on.
FROM_LOCK = ("micropip", "packaging", "ipython", "jedi", "traitlets", "platformdirs", "tqdm", "typing-extensions")
#: Not in Pyodide's lock: the widget stack and PatienceLab's own needs, for the site's ``pypi/`` folder. The
#: front-end halves of jupyterlab_widgets and anywidget come from the build environment, so the widget stack is
#: taken at the versions installed there.
FROM_PYPI = ("polib==1.2.0",)
MATCH_BUILD_ENV = ("comm", "ipywidgets", "jupyterlab_widgets", "anywidget", "psygnal")
NOTEBOOKS = ("play.ipynb", "teaching.ipynb", "lesgeven.ipynb", "undervisning.ipynb", "players.ipynb")
#: Cells the site leaves out, by notebook: those whose source starts with one of these (numpy and matplotlib
#: are not in the site), from ``until_end`` on all of them; and the note said in their place.
LEFT_OUT = {
    "players.ipynb": {
        "starts": ("%matplotlib inline",),
        "until_end": "## The Gymnasium environment",
        "note": (
            "## The Gymnasium environment\n\n"
            "The environment, the plot and the training need numpy and matplotlib, which this site does not carry: "
            "run `examples/players.ipynb` in a Jupyter of your own for them (`pip install patiencelab[gym,plot]`)."
        ),
    },
}
INSTALL_CELL = (
    "# Loads PatienceLab into this page's Python (from the site itself; nothing is downloaded).\n"
    "%pip install -q patiencelab[widget]"
)


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pip_download(requirements: list[str], dest: pathlib.Path) -> None:
    """Pure wheels for the browser's Python (3.14, any platform), without their dependencies."""
    dest.mkdir(parents=True, exist_ok=True)
    have = {normalize(p.name.split("-")[0]) + "==" + p.name.split("-")[1] for p in dest.glob("*.whl")}
    missing = [r for r in requirements if normalize(r.split("==")[0]) + "==" + r.split("==")[1] not in have]
    if not missing:
        return
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps"]
    command += ["--only-binary=:all:", "--python-version", "3.14", "--platform", "any"]
    command += ["--implementation", "py", "--abi", "none", "--dest", str(dest), *missing]
    subprocess.run(command, check=True)


def sha256(path: pathlib.Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def wheel_for(dest: pathlib.Path, name: str, version: str) -> pathlib.Path:
    for path in dest.glob("*.whl"):
        dist, ver = path.name.split("-")[:2]
        if normalize(dist) == normalize(name) and ver == version:
            return path
    raise SystemExit(f"no wheel for {name} {version} in {dest}")


def runtime(static: pathlib.Path, cache: pathlib.Path) -> int:
    """The Pyodide runtime with the kernel's start-up wheels; returns how many wheels."""
    if not (RUNTIME / "pyodide-lock.json").is_file():
        raise SystemExit("the Pyodide runtime is missing: run 'npm ci' in lite/ (make lite does)")
    static.mkdir(parents=True, exist_ok=True)
    for name in RUNTIME_FILES:
        shutil.copy2(RUNTIME / name, static / name)
    lock = json.loads((RUNTIME / "pyodide-lock.json").read_text())
    keys = {normalize(name): name for name in lock["packages"]}
    keep: dict[str, dict[str, object]] = {}  # by the lock's own keys, which its "depends" use
    todo = list(FROM_LOCK)
    while todo:
        name = keys[normalize(todo.pop())]
        if name in keep:
            continue
        info = lock["packages"][name]
        if info.get("package_type") != "package" or not str(info["file_name"]).endswith("-none-any.whl"):
            raise SystemExit(f"{name} is not a pure wheel in Pyodide's lock: it cannot come from the registry")
        keep[name] = info
        todo += [str(dep) for dep in info["depends"]]  # type: ignore[attr-defined]
    wheels = cache / "lock"
    pip_download([f"{info['name']}=={info['version']}" for info in keep.values()], wheels)
    for info in keep.values():
        wheel = wheel_for(wheels, str(info["name"]), str(info["version"]))
        shutil.copy2(wheel, static / wheel.name)
        info["file_name"], info["sha256"] = wheel.name, sha256(wheel)
        info["unvendored_tests"] = False
    lock["packages"] = keep
    (static / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True))
    return len(keep)


def pypi(folder: pathlib.Path, cache: pathlib.Path, project_wheel: pathlib.Path) -> list[str]:
    """The piplite folder: the widget stack and PatienceLab's wheel."""
    requirements = list(FROM_PYPI) + [f"{name}=={metadata.version(name)}" for name in MATCH_BUILD_ENV]
    wheels = cache / "pypi"
    pip_download(requirements, wheels)
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    names = []
    for requirement in requirements:
        name, version = requirement.split("==")
        wheel = wheel_for(wheels, name, version)
        shutil.copy2(wheel, folder / wheel.name)
        names.append(wheel.name)
    shutil.copy2(project_wheel, folder / project_wheel.name)
    return [*names, project_wheel.name]


def left_in(name: str, cells: list[dict[str, object]]) -> list[dict[str, object]]:
    """The cells of notebook ``name`` the site keeps (see :data:`LEFT_OUT`)."""
    rule = LEFT_OUT.get(name)
    if rule is None:
        return cells
    kept: list[dict[str, object]] = []
    for cell in cells:
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else str(cell["source"])
        if source.startswith(str(rule["until_end"])):
            note = {"cell_type": "markdown", "id": "left-out-in-the-browser", "metadata": {}, "source": rule["note"]}
            return [*kept, note]
        if not source.startswith(tuple(rule["starts"])):
            kept.append(cell)
    raise SystemExit(f"{name} has no cell that starts with {rule['until_end']!r}: update LEFT_OUT in lite/build.py")


def contents(folder: pathlib.Path) -> None:
    """The notebooks, each with an install cell first (the lessons they load ship inside the wheel)."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    for name in NOTEBOOKS:
        notebook = json.loads((ROOT / "examples" / name).read_text(encoding="utf-8"))
        cell = {"cell_type": "code", "id": "install-patiencelab", "metadata": {}, "execution_count": None}
        notebook["cells"] = left_in(name, notebook["cells"])
        notebook["cells"].insert(0, {**cell, "outputs": [], "source": INSTALL_CELL})
        notebook["metadata"]["kernelspec"] = {
            "name": "python",
            "display_name": "Python (Pyodide)",
            "language": "python",
        }
        (folder / name).write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel", type=pathlib.Path, required=True, help="PatienceLab's wheel, built from here")
    parser.add_argument("--out", type=pathlib.Path, required=True, help="the site's folder (replaced)")
    parser.add_argument("--cache", type=pathlib.Path, required=True, help="downloads kept between builds")
    args = parser.parse_args()
    work = (args.cache.parent / "src").resolve()
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    started = runtime(work / "static" / "pyodide", args.cache)
    wheels = pypi(work / "pypi", args.cache, args.wheel.resolve())
    contents(work / "files")
    config = json.loads((HERE / "jupyter-lite.json").read_text())
    (work / "jupyter-lite.json").write_text(json.dumps(config, indent=2))
    # a notebook saved in the site keeps its boards' last positions (JupyterLab's "Save Widget State")
    overrides = {"@jupyter-widgets/jupyterlab-manager:plugin": {"saveState": True}}
    (work / "overrides.json").write_text(json.dumps(overrides, indent=2))
    if args.out.exists():
        shutil.rmtree(args.out)
    command = [sys.executable, "-m", "jupyterlite_core", "build", "--lite-dir", ".", "--contents", "files"]
    command += ["--output-dir", str(args.out.resolve()), "--no-sourcemaps"]
    subprocess.run(command, check=True, cwd=work)
    size = sum(p.stat().st_size for p in args.out.rglob("*") if p.is_file())
    print(f"JupyterLite site in {args.out}: {size / 1e6:.0f} MB; {started} wheels from Pyodide's lock, {wheels}")


if __name__ == "__main__":
    main()
