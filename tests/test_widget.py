"""The widget's shell (``widget/board.py``): its traits, its comm, the picture in its output and its public methods,
each one line calling the session. What a board does with an intent is tested on the session, with no widget
library: ``tests/test_session_intents.py``, ``tests/test_session.py``, ``tests/test_teaching.py``.
"""

from __future__ import annotations

import ast
import concurrent.futures
import inspect
import pydoc
import re
import textwrap
import threading
from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest

from patiencelab import PatienceError, Rules
from patiencelab.widget.board import KlondikeWidget, OptionTrait
from patiencelab.widget.options import TABLE, options_doc
from patiencelab.widget.session import OPTIONS, BoardSession

from .session_helpers import twin_positions


@pytest.fixture
def widget() -> KlondikeWidget:
    return KlondikeWidget(seed=7)


def test_the_traits_sync_what_the_session_shows(widget: KlondikeWidget) -> None:
    """The ``state`` and ``labels`` traits are what the session last showed its host, after every change."""
    assert widget.state is widget.session.state and widget.state["version"] == widget.version == 1
    assert widget.labels == widget.session.labels and widget.labels["undo"] == "Undo"
    widget.game.play("t1-t3")
    assert widget.state is widget.session.state and widget.get_state()["state"]["version"] == 2
    widget.lang = "nl"
    assert widget.labels == widget.session.labels and widget.get_state()["labels"]["undo"] != "Undo"


def test_the_options_are_traits_that_follow_the_session_both_ways(widget: KlondikeWidget) -> None:
    assert {name: getattr(widget, name) for name in OPTIONS} == dict(OPTIONS) == widget.session.options
    widget.reveal = True  # set from Python: the session shows it at once
    assert widget.session.options["reveal"] is True
    assert all(card is not None for column in widget.state["tableau"] for card in column["down"])
    widget.hint_samples = 3
    assert widget.session.options["hint_samples"] == 3
    assert widget.handle_intent({"type": "show_moves", "version": widget.version, "on": True}) is None
    assert widget.show_moves is True, "switched on the board: the trait follows"
    for bad in (True, -1):
        with pytest.raises(PatienceError):
            widget.hint_max_states = bad
    assert widget.hint_max_states == widget.session.options["hint_max_states"] == OPTIONS["hint_max_states"]


#: Values each option refuses (a few of each kind), as the session refuses them.
REFUSED = {
    "reveal": (1, 0, None, "yes"),
    "show_moves": (1,),
    "narrate": ("on",),
    "indicator": (0,),
    "hint_samples": (0, 2.0, True, None),
    "hint_max_states": (0, True, 1.5),
    "hint_seconds": (0, -1, float("nan"), "1", True, 10**400),
    "indicator_max_states": (0, "many"),
    "indicator_seconds": (0,),
    "quiz_max_states": (True,),
    "review_max_states": (-5,),
    "review_samples": (True, 2.0),
    "review_sample_max_states": (-5, "lots", 2.5),
    "size": (39, 241, 90.5, True, "big"),
    "faces": ("dutch", 1),
}


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # pydoc reads ipywidgets' deprecated class attributes
def test_each_option_is_one_row_that_makes_its_trait_its_check_and_its_docs() -> None:
    """Issue 63: the options were written three times (the table, the traits, a check by the name's ending)."""
    traits = {name: trait for name, trait in KlondikeWidget.class_traits().items() if isinstance(trait, OptionTrait)}
    assert set(traits) == set(TABLE) == set(REFUSED) and set(OPTIONS) == {n for n, o in TABLE.items() if not o.look}
    shown = pydoc.render_doc(KlondikeWidget, renderer=pydoc.plaintext)  # type: ignore[attr-defined]
    doc = inspect.getdoc(KlondikeWidget)
    assert doc is not None and doc.startswith("Klondike in a notebook cell.") and options_doc() in doc
    for name, option in TABLE.items():
        trait = traits[name]
        assert trait.option is option and trait.default_value == option.default and trait.help == option.doc
        assert bool(trait.metadata.get("sync")) is option.look, name
        assert f"``{name}``: {option.doc.split()[0]}" in doc and option.doc.split(" (")[0].rstrip(".") in shown


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_trait_refuses_what_its_option_refuses_naming_it_and_changes_nothing(name: str) -> None:
    """On main the traits took 1 for True (traitlets' Bool) and raised a TraitError for 2.0, while the session
    refused both; a budget's error said ``max_states``, not the option."""
    widget = KlondikeWidget(seed=1, records=None)
    before, state = getattr(widget, name), widget.state
    for bad in REFUSED[name]:
        with pytest.raises(PatienceError, match=rf"^{name} is .*, not ") as refused:
            setattr(widget, name, bad)
        if name in OPTIONS:  # the session refuses it alike
            with pytest.raises(type(refused.value), match=f"^{re.escape(str(refused.value))}$"):
                BoardSession.check_option(name, bad)
        assert getattr(widget, name) == before and widget.state is state
    widget.close()


def test_custom_messages_are_answered_through_send(widget: KlondikeWidget, monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[Any] = []
    monkeypatch.setattr(widget, "send", sent.append)
    widget._on_custom_message(widget, {"type": "move", "version": 0, "card": "5D", "to": "t3"}, [])
    widget._on_custom_message(widget, {"type": "draw", "version": 1}, [])
    assert [m["type"] for m in sent] == ["rejected"]
    assert widget.game.moves == 1


# ------------------------------------------------------------------------------------------- one line each

#: The widget's own public members: the host's side of it (see ``session.Host``), its session, and closing (which
#: closes the widget too).
SHELL = {"show", "show_labels", "option_changed", "schedule", "session", "close"}


def delegations() -> dict[str, Any]:
    """The public methods and properties the widget defines beside :data:`SHELL`: the session's."""
    return {
        name: member
        for name, member in vars(KlondikeWidget).items()
        if not name.startswith("_")
        and name not in SHELL
        and (inspect.isfunction(member) or isinstance(member, property))
    }


def test_every_public_method_of_the_widget_is_one_line_calling_the_session() -> None:
    delegated = delegations()
    assert {"game", "lesson", "new_game", "handle_intent", "review", "autoplay"} <= set(delegated), "not vacuous"
    for name, member in delegated.items():
        for function in [member.fget, member.fset] if isinstance(member, property) else [member]:
            if function is None:
                continue
            body = ast.parse(textwrap.dedent(inspect.getsource(function))).body[0].body  # type: ignore[attr-defined]
            if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                body = body[1:]  # the docstring
            assert len(body) == 1 and f"self.session.{name}" in ast.unparse(body[0]), name


def test_the_widget_hands_every_call_to_its_session_and_returns_its_answer() -> None:
    widget = KlondikeWidget(seed=1, records=None)
    real, fake = widget.session, mock.create_autospec(BoardSession, instance=True)
    widget._session = fake
    try:
        for name, member in delegations().items():
            if isinstance(member, property):
                assert getattr(widget, name) is getattr(fake, name), name
                if member.fset is not None:
                    value = object()
                    setattr(widget, name, value)
                    assert getattr(fake, name) is value, name
                continue
            signature = inspect.signature(member)
            parameters = list(signature.parameters.values())[1:]
            args = [object() for p in parameters if p.kind is p.POSITIONAL_OR_KEYWORD]
            kwargs = {p.name: object() for p in parameters if p.kind is p.KEYWORD_ONLY}
            answer = getattr(widget, name)(*args, **kwargs)
            getattr(fake, name).assert_called_once_with(*args, **kwargs)
            returns = signature.return_annotation not in (None, "None")
            assert answer is (getattr(fake, name).return_value if returns else None), name
    finally:
        widget._session = real
        widget.close()


# ------------------------------------------------------------------------------------------- the output


def test_the_output_carries_a_picture_for_viewers_without_a_kernel(tmp_path: Any) -> None:
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.v4.new_notebook()  # type: ignore[no-untyped-call]
    code = "from patiencelab import KlondikeWidget\nKlondikeWidget(seed=7)"
    notebook.cells.append(nbformat.v4.new_code_cell(code))  # type: ignore[no-untyped-call]
    NotebookClient(notebook, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    data = notebook.cells[0].outputs[0]["data"]
    assert "application/vnd.jupyter.widget-view+json" in data
    assert 'data-card="5D"' in data["image/svg+xml"]
    assert data["image/svg+xml"].count("pl-back") == 21 + 3, "face-down cards (and the stock) are backs"
    assert "A picture of the board when this cell was shown (0 moves)" in data["image/svg+xml"]


def test_the_picture_says_which_position_it_shows_in_the_players_language() -> None:
    widget = KlondikeWidget(seed=7, records=None, lang="nl")
    for move in ("t1-t3", "d", "d"):
        widget.game.play(move)
    bundle = widget._repr_mimebundle_()
    assert bundle is not None
    picture = bundle[0]["image/svg+xml"]
    caption = re.sub(r"</tspan><tspan[^>]*>", " ", picture)  # the caption's lines, wrapped in the picture
    assert "toen deze cel werd getoond (3 zetten); voer het notebook uit om verder te spelen." in caption
    assert 'data-card="5D"' in picture


def test_size_sets_the_card_width_or_fits_by_default() -> None:
    widget = KlondikeWidget(seed=1, records=None)
    assert widget.size is None
    widget.size = 120
    assert widget.get_state()["size"] == 120
    for bad in (39, 241, 90.5, True, "big", [90]):
        with pytest.raises(PatienceError, match="size is a card width from 40 to 240"):
            widget.size = bad
        assert widget.size == 120
    assert KlondikeWidget(seed=1, records=None, size=60).size == 60
    widget.close()


def test_faces_show_the_languages_letters_by_default() -> None:
    widget = KlondikeWidget(seed=1, records=None, lang="nl")
    assert widget.get_state()["faces"] == "local", "the faces name the cards as the Dutch captions do"
    assert (widget.labels["face.11"], widget.labels["face.12"]) == ("B", "V"), "the letters the faces take"
    widget.faces = "standard"
    assert widget.get_state()["faces"] == "standard"
    assert KlondikeWidget(seed=1, records=None, faces="standard").faces == "standard"
    for bad in ("dutch", "", 1, ["local"]):
        with pytest.raises(PatienceError, match="faces is 'standard' or 'local'"):
            widget.faces = bad
        assert widget.faces == "standard"
    widget.close()


def test_a_board_that_fails_to_start_cleans_up_quietly() -> None:
    with pytest.raises(Exception, match="records must be"):
        KlondikeWidget(records="nowhere")  # type: ignore[arg-type]
    import gc

    gc.collect()  # __del__ of the half-made widget must not raise (pytest turns that into an error)


def test_in_a_kernel_verdicts_reach_the_board_through_the_kernels_event_loop() -> None:
    """Where an event loop runs (a kernel), a verdict computed in the pool's thread is shown by the loop's own
    thread: traitlets and comms are never touched from the pool's thread.
    """
    import asyncio

    pool = concurrent.futures.ThreadPoolExecutor(1)
    gate = threading.Event()

    class Late(concurrent.futures.Executor):
        def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
            return pool.submit(lambda: gate.wait(600) and "solved")

    async def main() -> tuple[int, list[int]]:
        widget = KlondikeWidget(seed=7, records=None, executor=Late)
        threads: list[int] = []
        widget.observe(lambda _change: threads.append(threading.get_ident()), "state")
        widget.indicator = True
        gate.set()
        while widget.state["indicator"]["verdict"] == "pending":
            await asyncio.sleep(0.01)
        return threading.get_ident(), threads

    # a thread of its own: the main thread may already run a loop (Playwright's, in the browser tests)
    result: list[tuple[int, list[int]]] = []
    runner = threading.Thread(target=lambda: result.append(asyncio.run(main())))
    runner.start()
    runner.join(600)
    pool.shutdown()
    assert result, "the loop did not finish"
    loop_thread, threads = result[0]
    assert threads and set(threads) == {loop_thread}


@pytest.mark.parametrize("rules", [Rules(), Rules(draw=3), Rules.preset("six-column")], ids=["d1", "d3", "six"])
def test_the_picture_in_the_output_shows_no_face_down_card(rules: Rules) -> None:
    """Twin positions (the same visible cards, the face-down ones in another order) give the same picture."""
    compared = 0
    for game, other in twin_positions(rules):
        a, b = KlondikeWidget(game, records=None), KlondikeWidget(other, records=None)
        bundle_a, bundle_b = a._repr_mimebundle_(), b._repr_mimebundle_()
        assert bundle_a is not None and bundle_b is not None
        assert bundle_a[0]["image/svg+xml"] == bundle_b[0]["image/svg+xml"]
        # the check can fail: with reveal on, the two differ
        a.reveal = b.reveal = True
        shown_a, shown_b = a._repr_mimebundle_(), b._repr_mimebundle_()
        assert shown_a is not None and shown_b is not None
        assert shown_a[0]["image/svg+xml"] != shown_b[0]["image/svg+xml"]
        compared += 1
    assert compared == 6
