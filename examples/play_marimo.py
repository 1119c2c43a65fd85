"""Klondike in marimo: `marimo run examples/play_marimo.py` (or `marimo edit` to change it)."""

import marimo

app = marimo.App(width="medium")


@app.cell
def _():
    import marimo as mo

    from patiencelab import KlondikeWidget

    return KlondikeWidget, mo


@app.cell
def _(KlondikeWidget, mo):
    board = KlondikeWidget(seed=7)
    # The board's state changes in Python (a move from the board comes back as a new state); a marimo state
    # that follows its version makes every cell that reads it run again after each change.
    get_version, set_version = mo.state(board.version)
    board.observe(lambda change: set_version(change["new"]["version"]), names="state")
    view = mo.ui.anywidget(board)
    view
    return board, get_version


@app.cell
def _(board, get_version, mo):
    get_version()  # re-run after every move
    game = board.game
    mo.md(f"**Score** <span class='score'>{game.score}</span> · **moves** <span class='moves'>{game.moves}</span>")
    return


@app.cell
def _(KlondikeWidget, mo):
    from patiencelab.lessons import Lesson

    # A lesson on a board of its own: step through it with the controls above the cards.
    teacher = KlondikeWidget(records=None)
    teacher.lesson = Lesson.builtin("traditional")
    mo.ui.anywidget(teacher)
    return


if __name__ == "__main__":
    app.run()
