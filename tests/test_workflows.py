"""The GitHub workflows (.github/workflows/) pass actionlint and zizmor (no finding of high severity, offline), and
a workflow made wrong on purpose fails them; the release's notes come from the CHANGELOG's section.

Both linters come from the package index with the release extra (in the dev extra), so a fresh clone has them.
"""

from __future__ import annotations

import pathlib
import re
import shutil
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[1]
WORKFLOWS = REPO / ".github" / "workflows"
sys.path.insert(0, str(REPO / "tools"))

import release_notes  # noqa: E402  # tools/ is no package

#: A full commit SHA and the tag it was taken from, as every `uses:` of another repository is pinned.
PINNED = re.compile(r"uses: [\w.-]+/[\w./-]+@[0-9a-f]{40} # v\d+(\.\d+)*$")


def linter(name: str) -> str:
    """The linter's command, beside this Python's (the virtual environment's bin folder) or on the PATH."""
    found = shutil.which(name, path=str(pathlib.Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: pip install -e '.[dev]' (make setup) installs it", pytrace=False)
    return found


def lint(folder: pathlib.Path) -> tuple[subprocess.CompletedProcess[str], subprocess.CompletedProcess[str]]:
    """actionlint and zizmor (offline, high severity only) on the workflows in ``folder``."""
    files = sorted(str(path) for path in folder.glob("*.yml"))
    actionlint = subprocess.run([linter("actionlint"), *files], capture_output=True, text=True, timeout=120)
    zizmor = subprocess.run(
        [linter("zizmor"), "--offline", "--min-severity=high", "--no-progress", *files],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return actionlint, zizmor


def test_the_workflows_pass_actionlint_and_zizmor() -> None:
    assert {path.name for path in WORKFLOWS.glob("*.yml")} == {"ci.yml", "wheels.yml", "release.yml", "docs.yml"}
    actionlint, zizmor = lint(WORKFLOWS)
    assert actionlint.returncode == 0, actionlint.stdout + actionlint.stderr
    assert zizmor.returncode == 0, zizmor.stdout + zizmor.stderr


def test_every_action_is_pinned_by_commit_and_every_workflow_starts_with_no_permissions() -> None:
    for path in WORKFLOWS.glob("*.yml"):
        text = path.read_text(encoding="utf-8")
        assert re.search(r"^permissions: \{\}$", text, re.M), path.name
        uses = [line.strip().removeprefix("- ") for line in text.splitlines() if "uses: " in line]
        outside = [line for line in uses if not line.startswith("uses: $/")]
        assert outside and all(PINNED.fullmatch(line) for line in outside), (path.name, outside)


def test_a_broken_workflow_fails_the_check(tmp_path: pathlib.Path) -> None:
    """A copy of the CI workflow with an undefined matrix key, a tag in place of a commit and write-all
    permissions: actionlint and zizmor each say so."""
    text = (WORKFLOWS / "ci.yml").read_text(encoding="utf-8")
    broken = text.replace("${{ matrix.python }}", "${{ matrix.pyhton }}", 1)
    broken = re.sub(r"actions/checkout@[0-9a-f]{40} # v[\d.]+", "actions/checkout@main", broken, count=1)
    broken = broken.replace("permissions: {}", "permissions: write-all", 1)
    broken += (
        "\n  inject:\n    runs-on: ubuntu-24.04\n    permissions: {}\n    steps:\n"
        '      - run: echo "${{ github.event.pull_request.title }}"\n'
    )
    (tmp_path / "ci.yml").write_text(broken, encoding="utf-8")
    actionlint, zizmor = lint(tmp_path)
    assert actionlint.returncode != 0 and "pyhton" in actionlint.stdout, actionlint.stdout
    assert zizmor.returncode != 0, zizmor.stdout + zizmor.stderr
    found = zizmor.stdout + zizmor.stderr
    assert "template-injection" in found and "unpinned-uses" in found, found


def test_the_release_notes_are_the_changelogs_section_of_the_version() -> None:
    text = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    from patiencelab import __version__

    notes = release_notes.section(text, __version__)
    assert notes.startswith("PatienceLab") and "## " not in notes.replace("### ", ""), notes[:200]
    with pytest.raises(LookupError, match=r"no section '## \[9\.9\.9\]'"):
        release_notes.section(text, "9.9.9")
    done = subprocess.run(
        [sys.executable, str(REPO / "tools" / "release_notes.py"), f"v{__version__}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stdout.strip() == notes, done.stderr
