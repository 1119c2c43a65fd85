"""Survey files under damage: a run killed mid-write, missing folders, folders, bytes that are not UTF-8, a full
disk, I/O errors, and fuzzed files (hypothesis): only :class:`SurveyFileError` comes out, no row is lost and a
refused file is left as it was.
"""

from __future__ import annotations

import errno
import io
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from patiencelab.__main__ import main
from patiencelab.core.errors import PatienceError
from patiencelab.core.rules import Rules
from patiencelab.survey import Budget, Row, SurveyFileError, SurveyResult, solve_seed, survey
from patiencelab.survey.files import MAX_LINE

SEEDS = range(6)
RULES = Rules.preset("traditional", draw=3)
BUDGET = Budget(seconds=None, max_states=2000)
MODULE = sys.modules["patiencelab.survey"]  # not `import ... as`: the package may export survey() by that name


def stable(result: SurveyResult) -> list[tuple[int, str, int, int]]:
    """The rows without their seconds (which differ run to run)."""
    return [(r.seed, r.outcome, r.moves, r.states) for r in result.rows]


@pytest.fixture(scope="module")
def reference() -> SurveyResult:
    return survey(SEEDS, RULES, BUDGET, workers=1, progress=False)


def spy_on_solving(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The seeds that the survey solves from now on."""
    solved: list[int] = []

    def spy(seed: int, rules_json: str, seconds: float | None, max_states: int | None) -> Row:
        solved.append(seed)
        return solve_seed(seed, rules_json, seconds, max_states)

    monkeypatch.setattr(MODULE, "solve_seed", spy)
    return solved


def whole_lines(path: pathlib.Path) -> list[object]:
    """Every line of the file as JSON (blank lines skipped): the file ends with a newline and holds no torn line."""
    data = path.read_bytes()
    assert data.endswith(b"\n")
    return [json.loads(line) for line in data.splitlines() if line.strip()]


# A run killed mid-write


@pytest.mark.parametrize(
    "tear",
    [
        pytest.param(lambda line: line[:1], id="first-byte"),
        pytest.param(lambda line: line[: len(line) // 2], id="half"),
        pytest.param(lambda line: line[:-2], id="all-but-the-brace"),
        pytest.param(lambda line: b"\0" * len(line), id="zeroed-by-a-power-cut"),
    ],
)
def test_resume_drops_a_torn_last_line_and_solves_that_deal_again(
    reference: SurveyResult, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, tear: Callable[[bytes], bytes]
) -> None:
    path = tmp_path / "s.jsonl"
    survey(range(3), RULES, BUDGET, workers=1, path=path, progress=False)
    *kept, last = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(kept) + tear(last))
    assert SurveyResult.load(path).seeds == (0, 1)  # the torn row is left out when reading too
    solved = spy_on_solving(monkeypatch)
    resumed = survey(SEEDS, RULES, BUDGET, workers=1, path=path, resume=True, progress=False)
    assert sorted(solved) == [2, 3, 4, 5]
    assert stable(resumed) == stable(reference)
    lines = whole_lines(path)  # the torn tail was cut off before the new rows were appended
    assert path.read_bytes().startswith(b"".join(kept))
    assert len(lines) == 1 + len(SEEDS)
    assert stable(SurveyResult.load(path)) == stable(reference)


def test_resume_after_a_torn_header_starts_the_file_again(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "s.jsonl"
    survey(1, RULES, BUDGET, workers=1, path=path, progress=False)
    path.write_bytes(path.read_bytes()[:30])
    result = survey(2, RULES, BUDGET, workers=1, path=path, resume=True, progress=False)
    assert SurveyResult.load(path).seeds == result.seeds == (0, 1)
    assert len(whole_lines(path)) == 3


def test_resume_after_a_long_zeroed_tail(reference: SurveyResult, tmp_path: pathlib.Path) -> None:
    path = tmp_path / "s.jsonl"
    survey(range(3), RULES, BUDGET, workers=1, path=path, progress=False)
    *kept, last = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(kept) + last[:10] + b"\0" * (3 * MAX_LINE))  # a power cut after many fast rows
    assert SurveyResult.load(path).seeds == (0, 1)
    resumed = survey(SEEDS, RULES, BUDGET, workers=1, path=path, resume=True, progress=False)
    assert stable(resumed) == stable(reference)
    assert len(whole_lines(path)) == 1 + len(SEEDS)


def test_a_bad_line_in_the_middle_is_damage_and_the_file_is_left_as_it_is(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "s.jsonl"
    survey(3, RULES, BUDGET, workers=1, path=path, progress=False)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[2] = lines[2][:15] + b"\n"
    path.write_bytes(b"".join(lines))
    with pytest.raises(SurveyFileError, match="line 3 is not a survey row"):
        survey(3, RULES, BUDGET, workers=1, path=path, resume=True, progress=False)
    with pytest.raises(SurveyFileError, match="line 3 is not a survey row"):
        SurveyResult.load(path)
    assert path.read_bytes() == b"".join(lines)


def test_rows_are_appended_as_whole_lines(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    writes: list[bytes] = []

    class Recorded(io.FileIO):
        def write(self, data: object) -> int:
            writes.append(bytes(data))  # type: ignore[call-overload]
            return super().write(data)  # type: ignore[arg-type]

    monkeypatch.setattr(MODULE, "_raw_open", lambda name, mode: Recorded(name, mode))
    path = tmp_path / "s.jsonl"
    survey(3, RULES, BUDGET, workers=1, path=path, progress=False)
    assert writes == path.read_bytes().splitlines(keepends=True)


# Files that cannot be read or written


def fill_disk(monkeypatch: pytest.MonkeyPatch, lines: int, code: int = errno.ENOSPC) -> None:
    """Survey files get room for ``lines`` whole lines and half the next; then writing fails with ``code``."""

    class Full(io.FileIO):
        room = lines

        def write(self, data: object) -> int:
            view = memoryview(data)  # type: ignore[arg-type]
            if Full.room < 0:
                raise OSError(code, os.strerror(code))
            Full.room -= 1
            return super().write(view if Full.room >= 0 else view[: len(view) // 2])

    monkeypatch.setattr(MODULE, "_raw_open", lambda name, mode: Full(name, mode))


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EIO])
@pytest.mark.parametrize("workers", [1, 2])
def test_a_full_disk_or_io_error_keeps_the_rows_written_before(
    reference: SurveyResult, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, code: int, workers: int
) -> None:
    path = tmp_path / "s.jsonl"
    fill_disk(monkeypatch, 1 + 3, code)
    with pytest.raises(SurveyFileError, match=os.strerror(code)):
        survey(SEEDS, RULES, BUDGET, workers=workers, path=path, progress=False)
    kept = SurveyResult.load(path)
    assert len(kept.seeds) == 3  # the half-written fourth row was cut off again
    assert len(whole_lines(path)) == 1 + 3
    monkeypatch.undo()
    resumed = survey(SEEDS, RULES, BUDGET, workers=workers, path=path, resume=True, progress=False)
    assert stable(resumed) == stable(reference)
    assert stable(SurveyResult.load(path)) == stable(reference)


def test_a_full_disk_at_the_header(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "s.jsonl"
    fill_disk(monkeypatch, 0)
    with pytest.raises(SurveyFileError, match=re.escape(f"cannot write to {path}: No space left on device")):
        survey(2, RULES, BUDGET, workers=1, path=path, progress=False)
    assert path.read_bytes() == b""
    monkeypatch.undo()
    assert survey(2, RULES, BUDGET, workers=1, path=path, progress=False).seeds == (0, 1)


@pytest.mark.skipif(os.name != "posix", reason="sets RLIMIT_FSIZE")
@pytest.mark.parametrize("workers", [1, 2])
def test_a_real_write_error_stops_the_command_line_and_keeps_the_rows(
    reference: SurveyResult, tmp_path: pathlib.Path, workers: int
) -> None:
    path = tmp_path / "s.jsonl"
    survey(range(2), RULES, BUDGET, workers=1, path=path, progress=False)
    room = len(path.read_bytes()) + 30  # the header, about two rows and part of a third: then EFBIG
    path.unlink()
    limited = (
        "import resource, sys; from patiencelab.__main__ import main; n = int(sys.argv[1]);"
        " resource.setrlimit(resource.RLIMIT_FSIZE, (n, n)); sys.exit(main(sys.argv[2:]))"
    )
    args = ["survey", "--preset", "traditional", "--draw", "3", "--deals", "6", "--max-states", "2000"]
    args += ["--workers", str(workers), "--out", "s.jsonl", "--no-progress"]
    done = subprocess.run(
        [sys.executable, "-c", limited, str(room), *args], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: cannot write to s.jsonl: File too large;")
    assert done.stderr.count("\n") == 1
    kept = SurveyResult.load(path)
    assert 1 <= len(kept.seeds) <= 2
    assert len(whole_lines(path)) == 1 + len(kept.seeds)
    assert set(stable(kept)) <= set(stable(reference))
    resumed = survey(SEEDS, RULES, BUDGET, workers=workers, path=path, resume=True, progress=False)
    assert stable(resumed) == stable(reference)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_dev_full_is_a_clear_error() -> None:
    with pytest.raises(SurveyFileError, match="/dev/full: No space left on device"):
        survey(2, RULES, BUDGET, workers=1, path="/dev/full", progress=False)


def test_a_missing_folder_or_a_folder_is_a_clear_error(tmp_path: pathlib.Path) -> None:
    with pytest.raises(SurveyFileError, match=r"the folder .*missing does not exist"):
        survey(2, RULES, BUDGET, workers=1, path=tmp_path / "missing" / "s.jsonl", progress=False)
    for resume in (False, True):
        with pytest.raises(SurveyFileError, match="is a folder"):
            survey(2, RULES, BUDGET, workers=1, path=tmp_path, resume=resume, progress=False)
    (tmp_path / "a-file").write_text("")
    with pytest.raises(SurveyFileError, match=r"cannot write .*a-file/s.jsonl: Not a directory"):
        survey(2, RULES, BUDGET, workers=1, path=tmp_path / "a-file" / "s.jsonl", progress=False)
    with pytest.raises(SurveyFileError, match="is a folder"):
        SurveyResult.load(tmp_path)
    with pytest.raises(SurveyFileError, match="cannot read"):
        SurveyResult.load(tmp_path / "missing.jsonl")


def test_bytes_that_are_not_utf8_are_a_clear_error(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "s.jsonl"
    survey(3, RULES, BUDGET, workers=1, path=path, progress=False)
    lines = path.read_bytes().splitlines(keepends=True)
    lines.insert(2, b'{"seed": \xff\xfe}\n')
    path.write_bytes(b"".join(lines))
    with pytest.raises(SurveyFileError, match=r"line 3 is not a survey row \(not UTF-8 text\)"):
        survey(3, RULES, BUDGET, workers=1, path=path, resume=True, progress=False)
    assert path.read_bytes() == b"".join(lines)


def test_an_overlong_line_is_refused_without_reading_it_whole(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "s.jsonl"
    survey(1, RULES, BUDGET, workers=1, path=path, progress=False)
    with path.open("ab") as f:
        f.write(b"[" * (64 * MAX_LINE) + b"\0" * MAX_LINE)
    before = path.read_bytes()
    with pytest.raises(SurveyFileError, match=f"line 3 is longer than {MAX_LINE} bytes"):
        survey(2, RULES, BUDGET, workers=1, path=path, resume=True, progress=False)
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("missing-folder", "does not exist"),
        ("folder", "is a folder"),
        ("folder-resume", "is a folder"),
        ("not-utf8", "not UTF-8"),
        ("full", "No space left on device"),
    ],
)
def test_the_command_line_says_what_is_wrong_in_one_line(
    case: str, message: str, tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if case == "full" and not os.path.exists("/dev/full"):
        pytest.skip("needs /dev/full (Linux)")
    out = {
        "missing-folder": str(tmp_path / "missing" / "s.jsonl"),
        "folder": str(tmp_path),
        "folder-resume": str(tmp_path),
        "not-utf8": str(tmp_path / "s.jsonl"),
        "full": "/dev/full",
    }[case]
    if case == "not-utf8":
        pathlib.Path(out).write_bytes(b"\xff\xfe\xfd\n")
    resume = ["--resume"] if case in ("folder-resume", "not-utf8") else []
    code = main(["survey", "--deals", "2", "--max-states", "2000", "--workers", "1", "--out", out, *resume])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("error: ")
    assert message in err
    assert err.count("\n") == 1


# Fuzzed files

GOOD = [Row(0, "solved", 120, 900, 0.25), Row(1, "impossible", 0, 40, 0.01), Row(2, "unknown", 0, 2000, 1.5)]
HEADER = json.dumps(
    {"format": "patiencelab-survey", "version": 1, "rules": RULES.to_json(), "budget": BUDGET.to_json()}
)
FUZZ_BUDGET = Budget(seconds=None, max_states=50)  # resumed surveys that succeed solve a few deals cheaply
FUZZ_HEADER = HEADER.replace('"max_states": 2000', '"max_states": 50')

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=10**300, max_value=10**4000)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
row_like = st.fixed_dictionaries(
    {
        "seed": st.one_of(st.integers(), st.floats(), st.text(max_size=3), st.none(), st.booleans()),
        "outcome": st.one_of(st.sampled_from(["solved", "impossible", "unknown", "won"]), st.integers()),
        "moves": st.one_of(st.integers(), st.floats(), st.none()),
        "states": st.one_of(st.integers(min_value=-(10**30), max_value=10**30), st.text(max_size=3)),
        "seconds": st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(), st.text(max_size=3)),
    }
)
junk_lines = st.one_of(
    st.sampled_from([r.to_json() for r in GOOD]).map(lambda d: json.dumps(d).encode() + b"\n"),
    row_like.map(lambda d: json.dumps(d).encode() + b"\n"),
    json_values.map(lambda v: json.dumps(v).encode() + b"\n"),
    st.binary(max_size=60),
    st.binary(max_size=60).map(lambda b: b + b"\n"),
    st.integers(min_value=1, max_value=5000).map(lambda n: b"[" * n + b"]" * n + b"\n"),
    st.integers(min_value=1, max_value=5000).map(lambda n: b'{"seed": ' * n + b"\n"),
    st.integers(min_value=1, max_value=6000).map(lambda n: b"9" * n + b"\n"),
    st.sampled_from([b"x" * (1 << 20) + b"\n", b"{" * (1 << 20), b"\xff" * (MAX_LINE + 1), b"\n", b"  \n"]),
)
scoring_fields = ["name", "start", "to_foundation", "recycle_draw3", "free_recycles_draw3", "floor", "time_bonus"]
rules_like = st.fixed_dictionaries(
    {},
    optional={
        "draw": st.one_of(st.integers(-2, 30), json_values),
        "max_passes": st.one_of(st.none(), st.integers(-2, 5), json_values),
        "foundation_to_tableau": json_values,
        "face_down": st.one_of(st.lists(st.integers(-3, 60), max_size=10), json_values),
        "empty_column": st.one_of(st.sampled_from(["king", "any", "queen"]), json_values),
        "scoring": st.one_of(
            st.sampled_from(["standard", "windows", "vegas", "none", "nope"]),
            st.fixed_dictionaries({}, optional=dict.fromkeys(scoring_fields, json_values)),
            json_values,
        ),
    },
)
headers = st.one_of(
    st.just(FUZZ_HEADER.encode() + b"\n"),
    st.just(FUZZ_HEADER.encode()[:40]),
    st.just(HEADER.encode() + b"\n"),  # another budget
    json_values.map(lambda v: json.dumps(v).encode() + b"\n"),
    st.builds(
        lambda version, rules: (
            json.dumps(
                {"format": "patiencelab-survey", "version": version, "rules": rules, "budget": FUZZ_BUDGET.to_json()}
            ).encode()
            + b"\n"
        ),
        st.one_of(st.just(1), json_values),
        st.one_of(st.just(RULES.to_json()), rules_like, json_values, row_like),
    ),
    st.binary(max_size=80),
)
FUZZ = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


GOOD_LINES = [json.dumps(r.to_json()).encode() + b"\n" for r in GOOD]
torn_tails = st.one_of(
    st.just(b""),
    st.builds(lambda line, k: line[: k % len(line)], st.sampled_from(GOOD_LINES), st.integers(0, 200)),
    st.binary(max_size=20).filter(lambda b: b"\n" not in b),
)


def near_good(rows: list[bytes], junk: bytes | None, at: int, tail: bytes) -> list[bytes]:
    """Good rows with perhaps one junk line among them and perhaps a torn tail."""
    lines = list(rows)
    if junk is not None:
        lines.insert(at % (len(lines) + 1), junk)
    return [*lines, tail]


files = st.one_of(
    st.tuples(headers, st.lists(junk_lines, max_size=6)),
    st.tuples(
        st.just(FUZZ_HEADER.encode() + b"\n"),
        st.builds(
            near_good,
            st.lists(st.sampled_from(GOOD_LINES), max_size=4),
            st.one_of(st.none(), junk_lines),
            st.integers(0, 4),
            torn_tails,
        ),
    ),
)


def write_fuzzed(folder: str, head: bytes, lines: list[bytes]) -> pathlib.Path:
    path = pathlib.Path(folder) / "s.jsonl"
    path.write_bytes(head + b"".join(lines))
    return path


@FUZZ
@given(file=files)
@example(file=(FUZZ_HEADER.encode() + b"\n", [b"[" * 5000 + b"]" * 5000 + b"\n"]))
@example(file=(FUZZ_HEADER.encode() + b"\n", [b'{"seed": 1' + b"0" * 5000 + b"}\n"]))
@example(file=(FUZZ_HEADER.encode() + b"\n", [b'{"seed":0,"outcome":"solved","moves":1,"states":1,"seconds":1e999}\n']))
def test_reading_a_fuzzed_file_raises_only_survey_file_error(file: tuple[bytes, list[bytes]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = write_fuzzed(folder, *file)
        try:
            result = SurveyResult.load(path)
        except SurveyFileError:
            event("refused")
            return
        event("read")
        assert all(r.outcome in ("solved", "impossible", "unknown") for r in result.rows)
        assert all(0 <= r.seconds < float("inf") and r.moves >= 0 and r.states >= 0 for r in result.rows)


@FUZZ
@given(file=files)
def test_resuming_a_fuzzed_file_raises_only_survey_file_error_and_a_refused_file_is_unchanged(
    file: tuple[bytes, list[bytes]],
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = write_fuzzed(folder, *file)
        before = path.read_bytes()
        try:
            result = survey(range(3), RULES, FUZZ_BUDGET, workers=1, path=path, resume=True, progress=False)
        except SurveyFileError:
            assert path.read_bytes() == before
            event("refused")
            return
        except PatienceError as e:  # pragma: no cover - would be a wrong subclass: say which
            pytest.fail(f"{type(e).__name__} instead of SurveyFileError: {e}")
        event("resumed, torn tail cut" if not before.endswith(b"\n") and before != b"" else "resumed")
        assert result.seeds == (0, 1, 2)
        after = path.read_bytes()
        whole = before[: before.rfind(b"\n") + 1]
        assert after.startswith(whole)  # every whole line that was there is kept
        assert set(SurveyResult.load(path).seeds) >= {0, 1, 2}
        whole_lines(path)
