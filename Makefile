# PatienceLab: `make play` to play, `make test` for every check. Needs Python 3.10+, Node 20+ and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup play test lint types py-test bench clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else "PatienceLab needs Python 3.10 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $@

setup: $(STAMP)

test: setup lint types py-test

lint: setup
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

types: setup
	$(BIN)/mypy

py-test: setup
	$(BIN)/pytest -q

bench: setup
	$(BIN)/python benchmarks/bench_model.py

play: setup
	$(BIN)/python -m pip install --quiet jupyterlab
	$(BIN)/jupyter lab $(if $(DISPLAY)$(WAYLAND_DISPLAY),,--no-browser) examples/play.ipynb

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache
