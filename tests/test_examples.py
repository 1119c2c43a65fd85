"""The example notebooks run from top to bottom in a fresh kernel without an error."""

from __future__ import annotations

import pathlib
import re
import shutil

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = pathlib.Path(__file__).parent.parent
EXAMPLES = ROOT / "examples"
NOTEBOOKS = sorted(EXAMPLES.glob("*.ipynb"))


def run(notebook: nbformat.NotebookNode, folder: pathlib.Path) -> list[dict[str, object]]:
    """Run every cell of ``notebook`` in a fresh kernel whose working folder is ``folder``; its outputs."""
    NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(folder)}}
    ).execute()
    return [out for cell in notebook.cells if cell.cell_type == "code" for out in cell.get("outputs", [])]


def test_there_are_examples() -> None:
    assert {p.name for p in NOTEBOOKS} >= {"play.ipynb", "scripting.ipynb"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_example_notebook_runs(path: pathlib.Path, tmp_path: pathlib.Path) -> None:
    notebook = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
    NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(EXAMPLES)}}
    ).execute()
    outputs = [out for cell in notebook.cells if cell.cell_type == "code" for out in cell.get("outputs", [])]
    assert not [out for out in outputs if out.get("output_type") == "error"]
    widgets = [out for out in outputs if "application/vnd.jupyter.widget-view+json" in out.get("data", {})]
    assert widgets, "the notebook shows a board"


CAPTIONS = {
    "teaching.ipynb": "Move the",
    "lesgeven.ipynb": "Leg de",
    "undervisning.ipynb": "Inte tillåtet. Med dessa regler",
}


@pytest.mark.parametrize(("name", "words"), sorted(CAPTIONS.items()))
def test_teaching_notebooks_narrate_in_their_language(name: str, words: str) -> None:
    notebook = nbformat.read(EXAMPLES / name, as_version=4)  # type: ignore[no-untyped-call]
    NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(EXAMPLES)}}
    ).execute()
    printed = "".join(
        out.get("text", "") for cell in notebook.cells if cell.cell_type == "code" for out in cell.get("outputs", [])
    )
    assert words in printed
    svgs = [out for cell in notebook.cells for out in cell.get("outputs", []) if "image/svg+xml" in out.get("data", {})]
    assert svgs, "the notebook draws a picture of the position"


@pytest.mark.parametrize("name", sorted(CAPTIONS))
def test_run_all_leaves_the_shipped_lesson_on_its_board(name: str) -> None:
    notebook = nbformat.read(EXAMPLES / name, as_version=4)  # type: ignore[no-untyped-call]
    check = "print('SHIPPED', board.state['lesson']['steps'] == len(lesson.steps), board.state['lesson']['title'])"
    notebook.cells.append(nbformat.v4.new_code_cell(check))  # type: ignore[no-untyped-call]
    outputs = run(notebook, EXAMPLES)
    printed = "".join(str(out.get("text", "")) for out in outputs)
    assert "SHIPPED True" in printed
    assert "My lesson" not in printed and "Mijn les" not in printed and "Min lektion" not in printed


def test_the_examples_are_committed_without_outputs() -> None:
    """Saved outputs would show stale boards ("widget model not found") and dirty the repository when played."""
    for path in NOTEBOOKS:
        notebook = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
        for cell in notebook.cells:
            if cell.cell_type == "code":
                assert cell.outputs == [] and cell.execution_count is None, f"{path.name}: outputs saved"


def guide_block(page: str, heading: str) -> str:
    """The first Python block under ``## heading`` in a page of the docs (``docs/teach/index.md``)."""
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    section = text.split(f"\n## {heading}\n", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, f"no Python block under '## {heading}'"
    return match.group(1)


def test_the_teaching_guide_snippet_runs_in_the_notebook_make_play_opens(tmp_path: pathlib.Path) -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    folder_match = re.search(r"^PLAY_DIR := (\S+)$", makefile, re.M)
    opens = re.search(
        r"^\t@cd \$\(PLAY_DIR\) && .*jupyter lab .* --LabApp.default_url=/lab/tree/(\S+\.ipynb)$", makefile, re.M
    )
    assert folder_match and opens, "make play opens a notebook in $(PLAY_DIR): the URL it prints is the notebook's"
    said = re.search(r"^play:.*\n(?:\t.*\n)*?\t@echo \"(.*)\"$", makefile, re.M)
    assert said and "run its cells" in said.group(1) and opens.group(1) in said.group(1), "one line says what to do"
    folder = tmp_path / folder_match.group(1)
    folder.mkdir(parents=True)
    for path in NOTEBOOKS:  # what make play copies
        shutil.copy(path, folder)
    notebook = nbformat.read(folder / opens.group(1), as_version=4)  # type: ignore[no-untyped-call]
    snippet = guide_block("teach/index.md", "Show a lesson")
    notebook.cells.append(nbformat.v4.new_code_cell(snippet))  # type: ignore[no-untyped-call]
    run(notebook, folder)
    last = notebook.cells[-1].outputs
    assert not [out for out in last if out.get("output_type") == "error"], last
    assert [out for out in last if "application/vnd.jupyter.widget-view+json" in out.get("data", {})]
