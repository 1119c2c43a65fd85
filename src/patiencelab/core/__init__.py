"""The model's core: values (cards, rules, moves, positions, errors, limits, words), the table that holds the
rules, and the game on top of it. Nothing here imports a service (solver, narration, SVG, records, surveys)
except lazily inside a convenience method, and nothing imports the widget.
"""
