"""The command line: ``python -m patiencelab survey ...`` (in a subprocess and through ``main``)."""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator

import psutil  # type: ignore[import-untyped]  # installed with dask.distributed (the dask extra)
import pytest

from patiencelab.__main__ import main
from patiencelab.core.rules import Rules
from patiencelab.survey import Budget, SurveyResult

FAST = ["--max-states", "2000", "--workers", "1"]


def run_cli(*args: str, cwd: pathlib.Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "patiencelab", *args], cwd=cwd, capture_output=True, text=True, timeout=120
    )


def rows_in(path: pathlib.Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def test_survey_in_a_subprocess_then_resume(tmp_path: pathlib.Path) -> None:
    done = run_cli("survey", "--deals", "3", *FAST, "--out", "tmp.jsonl", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "standard, draw 1, unlimited passes; 3 deals; budget 2,000 states per deal" in done.stdout
    assert "| outcome | deals | share | 95% interval |" in done.stdout
    assert "winnable:" in done.stdout
    result = SurveyResult.load(tmp_path / "tmp.jsonl")
    assert result.seeds == (0, 1, 2)
    assert result.rules == Rules()
    assert result.budget == Budget(seconds=None, max_states=2000)
    solved = sum(r.outcome == "solved" for r in result.rows)
    assert f"| solved | {solved} |" in done.stdout

    again = run_cli("survey", "--deals", "5", *FAST, "--out", "tmp.jsonl", "--resume", "--no-progress", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "5 deals" in again.stdout
    assert again.stderr == ""
    rows = rows_in(tmp_path / "tmp.jsonl")
    assert sorted(r["seed"] for r in rows) == [0, 1, 2, 3, 4]  # type: ignore[type-var]


def test_resume_after_a_run_killed_mid_write(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "a.jsonl"
    assert main(["survey", "--deals", "3", *FAST, "--out", str(path), "--no-progress"]) == 0
    data = path.read_bytes()
    path.write_bytes(data[: data.rstrip(b"\n").rfind(b"\n") + 20])  # the last row cut after 19 bytes
    assert main(["survey", "--deals", "4", *FAST, "--out", str(path), "--resume", "--no-progress"]) == 0
    assert "4 deals" in capsys.readouterr().out
    assert sorted(r["seed"] for r in rows_in(path)) == [0, 1, 2, 3]  # type: ignore[type-var]


def test_existing_out_needs_resume(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["survey", "--deals", "2", *FAST, "--out", str(tmp_path / "a.jsonl"), "--no-progress"]) == 0
    before = (tmp_path / "a.jsonl").read_text()
    capsys.readouterr()
    assert main(["survey", "--deals", "3", *FAST, "--out", str(tmp_path / "a.jsonl"), "--no-progress"]) == 2
    assert "--resume" in capsys.readouterr().err
    assert main(["survey", "--deals", "3", "--draw", "3", *FAST, "--out", str(tmp_path / "a.jsonl"), "--resume"]) == 2
    assert "other rules" in capsys.readouterr().err
    assert (tmp_path / "a.jsonl").read_text() == before


def test_default_out_name_seeds_and_preset(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["survey", "--preset", "traditional", "--draw", "3", "--seeds", "5:8", *FAST, "--no-progress"]
    assert main(args) == 0
    out = capsys.readouterr().out
    path = tmp_path / "survey-traditional-draw3-s5-8-2000states.jsonl"
    assert f"rows: {path.name}" in out
    result = SurveyResult.load(path)
    assert result.seeds == (5, 6, 7)
    assert result.rules == Rules.preset("traditional", draw=3)
    assert "traditional, draw 3, 3 passes; 3 deals" in out


@pytest.mark.parametrize(
    "args",
    [
        ["survey", "--seeds", "5"],
        ["survey", "--seeds", "8:5"],
        ["survey", "--preset", "nope"],
        ["survey", "--deals", "0"],
        ["survey", "--seconds", "-1"],
        ["survey", "--deals", "3", "--seeds", "0:3"],
        [],
    ],
)
def test_bad_options_exit_2(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(args)
    assert stop.value.code == 2
    assert "usage:" in capsys.readouterr().err


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")
def test_ctrl_c_keeps_rows_and_says_how_to_resume(tmp_path: pathlib.Path) -> None:
    args = ["survey", "--deals", "100000", "--max-states", "20000", "--workers", "1", "--out", "big.jsonl"]
    process = subprocess.Popen(
        [sys.executable, "-m", "patiencelab", *args, "--no-progress"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # as at a terminal: a test run started in the background would pass on SIGINT ignored
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    path = tmp_path / "big.jsonl"
    try:
        deadline = time.monotonic() + 60
        while not (path.exists() and len(path.read_text().splitlines()) >= 4) and time.monotonic() < deadline:
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 130, err
    kept = SurveyResult.load(path).seeds
    assert len(kept) >= 3
    assert kept == tuple(range(len(kept)))
    assert f"interrupted after {len(kept)} of 100000 deals; continue with:" in out
    assert "--out big.jsonl" in out
    assert out.rstrip().endswith("--resume")

    more = len(kept) + 2
    again = run_cli("survey", "--deals", str(more), "--max-states", "20000", "--workers", "1", "--out", "big.jsonl",
                    "--resume", cwd=tmp_path)  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert SurveyResult.load(path).seeds == tuple(range(more))


# The pool's workers end with the survey, however it ends

SLOW = ["--deals", "100000", "--max-states", "200000", "--workers", "2", "--out", "slow.jsonl", "--no-progress"]


class SlowSurvey:
    """A survey with two workers in a subprocess (output to files: a stray worker must not hold a pipe open)."""

    def __init__(self, command: list[str], path: pathlib.Path) -> None:
        self.path, self.out, self.err = path, path.with_suffix(".out"), path.with_suffix(".err")
        with self.out.open("w") as out, self.err.open("w") as err:
            self.process = subprocess.Popen(command, cwd=path.parent, stdout=out, stderr=err)
        self.family: list[psutil.Process] = []

    def wait_for_a_row_and_two_workers(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.process.poll() is None:
            with contextlib.suppress(psutil.Error):  # a process that ended between two looks: look again
                self.family = psutil.Process(self.process.pid).children(recursive=True)
                workers = [p for p in self.family if "spawn_main" in " ".join(p.cmdline())]
                if self.path.exists() and len(self.path.read_bytes().splitlines()) >= 2 and len(workers) == 2:
                    return
            time.sleep(0.05)
        pytest.fail(f"no row and two workers within 60 s: {self.err.read_text()}")

    def assert_all_end(self) -> None:
        """The survey and every process it started end within a generous bound (a slow machine is no failure)."""
        self.process.wait(timeout=60)
        _, alive = psutil.wait_procs(self.family, timeout=30)
        assert not alive, f"still running 30 s after the survey ended: {[p.cmdline() for p in alive]}"

    def clean_up(self) -> None:
        """Kill what is left (after a failure)."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        for p in self.family:
            with contextlib.suppress(psutil.NoSuchProcess):
                p.kill()


@pytest.fixture
def slow_survey(tmp_path: pathlib.Path) -> Iterator[Callable[[list[str]], SlowSurvey]]:
    started: list[SlowSurvey] = []

    def start(command: list[str]) -> SlowSurvey:
        started.append(SlowSurvey(command, tmp_path / "slow.jsonl"))
        started[-1].wait_for_a_row_and_two_workers()
        return started[-1]

    yield start
    for run in started:
        run.clean_up()


@pytest.mark.skipif(os.name != "posix", reason="sends SIGKILL")
def test_workers_end_when_the_survey_is_killed(
    tmp_path: pathlib.Path, slow_survey: Callable[[list[str]], SlowSurvey]
) -> None:
    run = slow_survey([sys.executable, "-m", "patiencelab", "survey", *SLOW])
    run.process.kill()
    run.assert_all_end()
    kept = SurveyResult.load(run.path)
    assert len(kept.seeds) >= 1
    first = kept.seeds[0]
    again = run_cli("survey", "--seeds", f"{first}:{first + 1}", *SLOW[2:], "--resume", cwd=tmp_path)
    assert again.returncode == 0, again.stderr  # the file of a killed run resumes


@pytest.mark.skipif(os.name != "posix", reason="sends SIGTERM")
def test_sigterm_stops_the_pool_keeps_rows_and_says_how_to_resume(
    slow_survey: Callable[[list[str]], SlowSurvey],
) -> None:
    run = slow_survey([sys.executable, "-m", "patiencelab", "survey", *SLOW])
    run.process.terminate()
    run.assert_all_end()
    assert run.process.returncode == 128 + signal.SIGTERM, run.err.read_text()
    kept = SurveyResult.load(run.path)
    out = run.out.read_text()
    assert f"interrupted after {len(kept.seeds)} of 100000 deals; continue with:" in out
    assert out.rstrip().endswith("--resume")
    assert run.path.read_bytes().endswith(b"\n")


@pytest.mark.skipif(os.name != "posix", reason="sends SIGTERM")
def test_sigterm_in_a_script_stops_the_pool_then_ends_the_script(
    slow_survey: Callable[[list[str]], SlowSurvey],
) -> None:
    script = (
        "from patiencelab.survey import Budget, survey;"
        " survey(100000, budget=Budget(None, 200000), workers=2, path='slow.jsonl', progress=False);"
        " print('not reached')"
    )
    run = slow_survey([sys.executable, "-c", script])
    run.process.terminate()
    run.assert_all_end()
    assert run.process.returncode == -signal.SIGTERM, run.err.read_text()
    assert "not reached" not in run.out.read_text()
    assert len(SurveyResult.load(run.path).seeds) >= 1
    assert run.path.read_bytes().endswith(b"\n")


def test_version_is_written_once_and_said_by_the_command_line(tmp_path: pathlib.Path) -> None:
    """``python -m patiencelab --version``, ``patiencelab.__version__`` and the installed metadata agree, all read
    from src/patiencelab/_version.py (pyproject.toml's version is dynamic: issue 61)."""
    from importlib.metadata import version

    import patiencelab

    done = run_cli("--version", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"patiencelab {patiencelab.__version__}" == f"patiencelab {version('patiencelab')}"


def test_present_writes_a_notebook_voila_shows_and_checks_its_language(tmp_path: pathlib.Path) -> None:
    from patiencelab.core.errors import PatienceError
    from patiencelab.widget.present import command, notebook

    words = command(tmp_path, lang="nl", lesson="quiz", seed=5, port=9999, browser=False)
    assert words[1:3] == ["-m", "voila"] and "--no-browser" in words and "--port=9999" in words
    (cell,) = json.loads((tmp_path / "present.ipynb").read_text(encoding="utf-8"))["cells"]
    assert "KlondikeWidget(lang='nl', seed=5)" in cell["source"] and "Lesson.builtin('quiz')" in cell["source"]
    assert "board.lesson" not in notebook(lesson=None)["cells"][0]["source"]
    with pytest.raises(PatienceError, match="language"):
        notebook(lang="de")
    done = run_cli("present", "--lang", "de", cwd=tmp_path)
    assert done.returncode == 2 and "invalid choice: 'de'" in done.stderr
