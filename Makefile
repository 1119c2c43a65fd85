# PatienceLab: `make play` to play, `make check` for the quick checks, `make test` for every check. Needs Python 3.10+,
# Node 20+ and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NODE_STAMP := js/node_modules/.installed
BUNDLE := src/patiencelab/static/widget.js
# `make play` opens copies of the example notebooks here (git-ignored), so playing leaves the repository clean.
PLAY_DIR := build/play
JS_SOURCES := $(wildcard js/*.ts js/*.css js/build.mjs)
CORE_SOURCES := $(wildcard src/patiencelab/core/*.py src/patiencelab/solver/*.py)

# The JupyterLite classroom site (`make lite`): its own build environment and the Pyodide runtime, both from the
# registries; downloads are kept under build/lite/cache.
LITE_VENV := .venv-lite
LITE_STAMP := $(LITE_VENV)/.installed
LITE_NODE := lite/node_modules/.installed
LITE_SITE := build/lite/site

# The documentation site (`make docs`): built from the repository alone into build/docs/, strictly (a warning, a
# broken reference or a failing notebook fails it); the Lite site joins it as build/docs/lite/ when built.
DOCS_OUT := build/docs

.PHONY: setup play check test lint types js-test py-test lite lite-test bench bench-before soak clean docs docs-serve dist dist-check

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

# The editable install compiles the rules kernel, table, game engine and solver core in place with mypyc (hatch_build.py; Debian's
# gcc; without a compiler it stays pure Python). An edited core module runs pure, with a notice, until this reruns.
# The bundle is built above, so the install skips its own npm step: that step runs `npm install`, which rewrites
# js/package-lock.json, and every later make (make test after make setup) would install everything again.
$(STAMP): pyproject.toml hatch_build.py $(CORE_SOURCES) $(BUNDLE) | $(BIN)/python
	HATCH_JUPYTER_BUILDER_SKIP_NPM=1 $(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $@

setup: $(STAMP) $(BUNDLE)

# The quick tier, for every change: lint, types (mypy and tsc) and the front end's tests, two at a time, then the
# Python tests that need no browser, no Lite site, no docs build and no package registry, each once: on the compiled
# modules, then the tests marked pure on the pure ones. `make test` runs all of it and the rest (CHECK_SKIPS: the
# browser tests, the notebooks run in a kernel, the wheels built and installed; the tests marked `site`, which read
# the docs build; the solver's sweeps again pure).
CHECK_SKIPS := --ignore=tests/browser --ignore=tests/test_examples.py
check: setup
	$(MAKE) --no-print-directory -j2 --output-sync=target lint types js-test
	$(BIN)/pytest -q -p no:cacheprovider $(PYTEST_PARALLEL) -m "not pure and not site" $(CHECK_SKIPS) tests
	PATIENCELAB_PURE=1 $(BIN)/pytest -q -p no:cacheprovider $(PYTEST_PARALLEL) -m "pure and not site" $(CHECK_SKIPS) tests

# First the checks that run no test suite, two at a time (each is mostly one process: the Lite site's build, mypy
# and tsc, the docs build, ruff and the import contracts, vitest; each one's output comes whole when it ends), then
# the Python suite with the Lite site's tests among its files, then the pure pass.
test: setup
	$(MAKE) --no-print-directory -j2 --output-sync=target lite types docs lint js-test
	$(MAKE) --no-print-directory py-test PY_TEST_PATHS="tests/lite tests README.md docs"

lint: setup
	$(BIN)/ruff check src tests benchmarks docs tools
	$(BIN)/ruff format --check src tests benchmarks docs tools
	$(BIN)/lint-imports

types: setup
	$(BIN)/mypy
	cd js && npm run typecheck

js-test: setup
	cd js && npm test

# The whole suite on the compiled modules (less the tests marked pure, which need the pure modules: deselected, so
# that a skip here always means something), then the solver, rules and hints again on the pure ones, with the tests
# marked pure (tests/conftest.py). pytest-xdist runs the test files on one process a core (at most 4; a third
# process on two cores was tried, and was no faster: the tests' CPU fills both cores;
# PYTEST_WORKERS=0 runs them in this one), each file whole in one process, so a file's browser fixture stays its
# own (the Jupyter servers are one a worker, lent to one test at a time: tests/browser/jupyter_harness.py). The files go out in the order they are collected, the browser tests (the longest) first:
# xdist's own order (most tests first) left them to the end, one worker finishing them while the other waited.
# build/pytest-compiled.xml keeps each test's time: `python benchmarks/bench_tests.py` sums them by file.
# PY_TEST_PATHS: what the first pass collects (make test adds the Lite site's tests, tests/lite).
PYTEST_WORKERS ?= $(shell $(PYTHON) -c 'import os; print(min(4, os.cpu_count() or 1))')
PYTEST_PARALLEL := -n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder
PY_TEST_PATHS ?=
py-test: setup
	$(BIN)/pytest -q --durations=15 $(PYTEST_PARALLEL) -m "not pure" --junitxml=build/pytest-compiled.xml $(PY_TEST_PATHS)
	PATIENCELAB_PURE=1 $(BIN)/pytest -q -p no:cacheprovider $(PYTEST_PARALLEL) -m pure_pass

# The distributions in dist/: the sdist, the pure wheel (py3-none-any, JupyterLite's) and the compiled wheel of this
# platform (mypyc; on Linux repaired by auditwheel to a manylinux tag), each with the built front end, the lessons
# and the catalogues; twine checks their metadata. Built in isolation by `python -m build` (its backend from the
# package index), with SOURCE_DATE_EPOCH set (the last commit's time): the same checkout gives the same sdist and
# pure wheel, byte for byte (make dist-check builds them again and compares).
DIST := dist
DIST_EPOCH := $(or $(SOURCE_DATE_EPOCH),$(shell git log -1 --format=%ct 2>/dev/null),315532800)
dist: setup
	rm -rf $(DIST) build/dist-compiled
	SOURCE_DATE_EPOCH=$(DIST_EPOCH) $(BIN)/python -m build --sdist --outdir $(DIST) .
	SOURCE_DATE_EPOCH=$(DIST_EPOCH) PATIENCELAB_PURE_BUILD=1 $(BIN)/python -m build --wheel --outdir $(DIST) .
	SOURCE_DATE_EPOCH=$(DIST_EPOCH) $(BIN)/python -m build --wheel --outdir build/dist-compiled .
	@if [ "$$(uname -s)" = Linux ]; then \
		PATH="$(abspath $(BIN)):$$PATH" $(BIN)/auditwheel repair --wheel-dir $(DIST) build/dist-compiled/*.whl; \
	else cp build/dist-compiled/*.whl $(DIST)/; fi
	$(BIN)/twine check --strict $(DIST)/*
	@ls -l $(DIST)

# The built distributions where users are: each wheel installed into a clean virtual environment (no Node, no
# compiler, no checkout on the path), imported, its help() and the README's snippets run, the board played by drag
# in real JupyterLab and Notebook 7; the sdist installed with no compiler; the sdist and pure wheel built again and
# compared byte for byte (tests/browser/test_wheel.py). make test runs the pure wheel's part of it.
dist-check: dist
	SOURCE_DATE_EPOCH=$(DIST_EPOCH) PATIENCELAB_DIST=$(DIST) $(BIN)/pytest -q -p no:cacheprovider tests/browser/test_wheel.py

$(LITE_STAMP): lite/requirements.txt
	$(PYTHON) -m venv $(LITE_VENV)
	$(LITE_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(LITE_VENV)/bin/python -m pip install --quiet -r lite/requirements.txt
	touch $@

$(LITE_NODE): lite/package.json lite/package-lock.json
	cd lite && npm ci --no-audit --no-fund
	touch $@

# The site: Pyodide, the kernel's start-up wheels, the widget stack and the pure wheel of this checkout, the
# notebooks and lessons. Copy $(LITE_SITE) to any static web host to publish it.
lite: $(LITE_STAMP) $(LITE_NODE) $(BUNDLE)
	rm -rf build/lite/dist
	PATIENCELAB_PURE_BUILD=1 $(LITE_VENV)/bin/python -m build --wheel --no-isolation --outdir build/lite/dist .
	$(LITE_VENV)/bin/python lite/build.py --wheel "$$(ls build/lite/dist/*.whl)" --out $(LITE_SITE) --cache build/lite/cache

# Serves the site on 127.0.0.1 and plays it in Chromium with every other request blocked.
lite-test: setup lite
	$(BIN)/pytest -q -p no:cacheprovider tests/lite

# The site documents the source: it is built on the pure modules (inspect reads no compiled module's source).
docs: setup
	PATIENCELAB_PURE=1 $(BIN)/python -m sphinx -b html -E -n -W --keep-going -q docs $(DOCS_OUT)
	@if [ -d $(LITE_SITE) ]; then ln -sfn ../lite/site $(DOCS_OUT)/lite; echo "the Lite site is at $(DOCS_OUT)/lite"; fi

# Serves the site (and the Lite site, when built) on http://127.0.0.1:8000/.
docs-serve: docs
	$(BIN)/python -m http.server --bind 127.0.0.1 --directory $(DOCS_OUT) 8000

bench: setup
	$(BIN)/python benchmarks/bench_model.py
	$(BIN)/python benchmarks/bench_solver.py --compare-pure
	rm -f build/bench-players.jsonl
	$(BIN)/python benchmarks/bench_players.py --deals 4 --players greedy nopeek --workers 2 --out build/bench-players.jsonl
	$(BIN)/python benchmarks/bench_losses.py --deals 3 --states 200000
	$(BIN)/python benchmarks/bench_decisions.py collect --draw 1 --deals 4 --workers 2 --out build/bench-critical.jsonl
	$(BIN)/python benchmarks/bench_decisions.py judge build/bench-critical.jsonl --workers 2 --out build/bench-judged.jsonl

# The model's and the solver's benchmarks, this checkout against a "before" side by side in one run (fresh
# processes taking turns, CPU time, both compiled): `make bench-before BEFORE=<commit>` unpacks that commit into
# build/before and builds it there with its own `make setup`; BEFORE=<folder> takes a checkout already built so.
# Each table ends in the ratio before / after (docs/performance.md, "Before and after").
BEFORE ?= main
BEFORE_DIR = $(if $(wildcard $(BEFORE)/src/patiencelab),$(BEFORE),build/before)
bench-before: setup
	@if [ ! -d "$(BEFORE)/src/patiencelab" ]; then \
		rm -rf build/before && mkdir -p build/before && git archive "$(BEFORE)" | tar -x -C build/before && \
		$(MAKE) --no-print-directory -C build/before setup; fi
	$(BIN)/python benchmarks/bench_model.py --cpu --seconds 3 --repeat 3 --no-peer --compare-with $(BEFORE_DIR)/src
	$(BIN)/python benchmarks/bench_solver.py --compare-with $(BEFORE_DIR)/src --repeat 3

# The sweeps whole, where make test runs a fixed sample of each, through one switch: `pytest --soak` (its sizes in
# one table, tests/sweeps.py; SOAK_SEED picks another set of the seeded ones). The soundness soak, 100,000 positions
# checked against the reference search (make test: 5,000, its pure pass 1,000); the verdicts on seeds 0-199 within
# 200,000 positions against the old solver's (make test: 20,000); the review's sweep over 160 lost games, the 60 of
# issue 25 among them (make test: 8 of those 60, two of each rule set), and issue 62's seed 66 at the board's budgets
# (make test: seed 15); 20,000 random bad arguments through both
# builds (make test: 300); 2,000 schedules of the board's background work against the player's hands (make test:
# 300); the layout walks, every lesson step at every size in every language, in a plain page and in real JupyterLab
# and Notebook 7 (make test: each lesson once a test, at one size in one language, the sizes and languages turning,
# and the taller laptop screen left out, tests/browser/layout.py `walked`); the real-Jupyter tests in every language
# and host they name (make test: one of each, `sampled`); the compiled wheel's build and install (make test: the
# sdist and the pure wheel); the three fuzzes of the board's intents, 10,000 intents each (make test: 2,500 each,
# hypothesis derandomized under CI).
SOAK_SEED ?= 1
soak: setup
	$(BIN)/pytest -q -p no:cacheprovider --soak --soak-seed $(SOAK_SEED) -s tests/solver/test_soundness.py
	$(BIN)/pytest -q -p no:cacheprovider --soak --soak-seed $(SOAK_SEED) tests/solver/test_verdicts.py
	$(BIN)/pytest -q -p no:cacheprovider --soak --soak-seed $(SOAK_SEED) tests/test_review.py -k sweep
	$(BIN)/pytest -q -p no:cacheprovider --soak --soak-seed $(SOAK_SEED) tests/test_coach.py -k issue_s_games
	$(BIN)/pytest -q -p no:cacheprovider --soak --soak-seed $(SOAK_SEED) tests/test_arguments.py
	$(BIN)/pytest -q -p no:cacheprovider --soak --soak-seed $(SOAK_SEED) tests/test_session_schedules.py
	$(BIN)/pytest -q -p no:cacheprovider --soak --soak-seed $(SOAK_SEED) $(PYTEST_PARALLEL) tests/browser/test_page_layout.py tests/browser/test_jupyter_layout.py
	$(BIN)/pytest -q -p no:cacheprovider --soak --soak-seed $(SOAK_SEED) $(PYTEST_PARALLEL) tests/browser/test_jupyter.py tests/browser/test_jupyter_review.py tests/browser/test_jupyter_reload.py tests/browser/test_voila.py
	$(MAKE) --no-print-directory dist-check
	$(BIN)/pytest -q -p no:cacheprovider --soak --soak-seed $(SOAK_SEED) $(PYTEST_PARALLEL) tests/test_session_intents.py tests/test_indicator.py tests/test_intent_fuzz.py

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
	find src -name '*.so' -delete
	rm -f src/patiencelab/_compiled.json
