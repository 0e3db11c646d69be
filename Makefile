# Croupier: every job a developer or CI runs. `make help` lists them.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
SOURCES := oracle tests

.PHONY: help venv lint fmt test test-fast clean

help: ## List the jobs.
	@grep -E '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*## "} {printf "  make %-12s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e . --group dev
	@touch $@

venv: $(STAMP) ## Create .venv and install the project with its dev tools.

lint: $(STAMP) ## Ruff (lint and format check) and mypy --strict.
	$(PY) -m ruff check $(SOURCES)
	$(PY) -m ruff format --check $(SOURCES)
	$(PY) -m mypy oracle

fmt: $(STAMP) ## Apply ruff's fixes and formatting.
	$(PY) -m ruff check --fix $(SOURCES)
	$(PY) -m ruff format $(SOURCES)

test: lint ## Lint, then the whole test suite (what CI runs).
	$(PY) -m pytest

test-fast: $(STAMP) ## The test suite without lint, with Hypothesis' quick profile.
	HYPOTHESIS_PROFILE=dev $(PY) -m pytest -x -q

clean: ## Remove the virtualenv and caches.
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
