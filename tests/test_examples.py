"""The example notebooks run from top to bottom in a fresh kernel without an error."""

from __future__ import annotations

import pathlib

import nbformat
import pytest
from nbclient import NotebookClient

EXAMPLES = pathlib.Path(__file__).parent.parent / "examples"
NOTEBOOKS = sorted(EXAMPLES.glob("*.ipynb"))


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
    "undervisning.ipynb": "Inte tillåtet: Med dessa regler",
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
