# PatienceLab: `make play` to play, `make test` for every check. Needs Python 3.10+, Node 20+ and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NODE_STAMP := js/node_modules/.installed
BUNDLE := src/patiencelab/static/widget.js
# `make play` opens copies of the example notebooks here (git-ignored), so playing leaves the repository clean.
PLAY_DIR := build/play
JS_SOURCES := $(wildcard js/*.ts js/*.css js/build.mjs)

# The JupyterLite classroom site (`make lite`): its own build environment and the Pyodide runtime, both from the
# registries; downloads are kept under build/lite/cache.
LITE_VENV := .venv-lite
LITE_STAMP := $(LITE_VENV)/.installed
LITE_NODE := lite/node_modules/.installed
LITE_SITE := build/lite/site

.PHONY: setup play test lint types js-test py-test lite lite-test bench clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else "PatienceLab needs Python 3.10 or newer")'
	@node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)' || { echo "PatienceLab needs Node 20 or newer"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(NODE_STAMP): js/package.json js/package-lock.json
	cd js && npm ci --no-audit --no-fund
	touch $@

$(BUNDLE): $(NODE_STAMP) $(JS_SOURCES)
	cd js && npm run build

$(STAMP): pyproject.toml $(BUNDLE) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $@

setup: $(STAMP) $(BUNDLE)

test: setup lint types js-test py-test lite-test

lint: setup
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/lint-imports

types: setup
	$(BIN)/mypy
	cd js && npm run typecheck

js-test: setup
	cd js && npm test

py-test: setup
	$(BIN)/pytest -q

$(LITE_STAMP): lite/requirements.txt
	$(PYTHON) -m venv $(LITE_VENV)
	$(LITE_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(LITE_VENV)/bin/python -m pip install --quiet -r lite/requirements.txt
	touch $@

$(LITE_NODE): lite/package.json lite/package-lock.json
	cd lite && npm ci --no-audit --no-fund
	touch $@

# The site: Pyodide, the kernel's start-up wheels, the widget stack and the wheel of this checkout, the notebooks
# and lessons. Copy $(LITE_SITE) to any static web host to publish it.
lite: $(LITE_STAMP) $(LITE_NODE) $(BUNDLE)
	rm -rf build/lite/dist
	$(LITE_VENV)/bin/python -m build --wheel --no-isolation --outdir build/lite/dist .
	$(LITE_VENV)/bin/python lite/build.py --wheel "$$(ls build/lite/dist/*.whl)" --out $(LITE_SITE) --cache build/lite/cache

# Serves the site on 127.0.0.1 and plays it in Chromium with every other request blocked.
lite-test: setup lite
	$(BIN)/pytest -q -p no:cacheprovider tests/lite

bench: setup
	$(BIN)/python benchmarks/bench_model.py

# JupyterLab opens (or, with no screen, prints the URL of) the play notebook itself, not the Launcher; as root
# (containers) it needs --allow-root. The notebooks are copied once (a copy you changed is kept; delete
# $(PLAY_DIR) to start afresh).
play: setup
	@mkdir -p $(PLAY_DIR)
	@for nb in examples/*.ipynb; do [ -e "$(PLAY_DIR)/$${nb##*/}" ] || cp "$$nb" $(PLAY_DIR)/; done
	@echo "PatienceLab: open the address below that ends in /lab/tree/play.ipynb?token=..., then run its cells (Shift+Enter on each, or Run > Run All Cells) to play."
	@cd $(PLAY_DIR) && $(CURDIR)/$(BIN)/jupyter lab $(if $(DISPLAY)$(WAYLAND_DISPLAY),,--no-browser) $(if $(filter 0,$(shell id -u)),--allow-root) --LabApp.default_url=/lab/tree/play.ipynb

clean:
	rm -rf $(VENV) $(LITE_VENV) lite/node_modules build dist .pytest_cache .mypy_cache .ruff_cache js/node_modules src/patiencelab/static
