# Croupier: every job a developer or CI runs. `make help` lists them.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
MUTATION_STAMP := $(VENV)/.mutation-stamp
BENCH_STAMP := $(VENV)/.bench-stamp
EXAMPLES_STAMP := $(VENV)/.examples-stamp
# Each example is explored this long (minutes); its findings go to EXAMPLES_OUT.
EXAMPLES_MINUTES ?= 1
EXAMPLES_OUT := .examples
BUF := node_modules/.bin/buf
# The browser tests (tests/browser) open the HTML reports in Debian's headless Chromium.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SOURCES := oracle conformance clients bench examples tests proto/croupier
# proto/croupier/conformance is a symlink to conformance/ (pyproject.toml: one installed name),
# whose v1/ holds croupier.conformance.v1: find follows it (-L).
PROTOS = $(shell find -L proto/croupier -name '*.proto' | sort)
# The generator's plugins (protoc-gen-mypy, protoc-gen-mypy_grpc) live in the venv.
PROTOC = PATH="$(abspath $(VENV))/bin:$$PATH" $(PY) -m grpc_tools.protoc -Iproto
# The descriptor set the wheel ships (croupier proto descriptor-set): every .proto of the
# contract with its comments, its imports (google/protobuf) and the google/rpc messages that
# carry its errors, so that another language's stubs and a client's error decoding need
# nothing else.
DESCRIPTOR_SET = -Ithird_party/googleapis --include_imports --include_source_info \
	$(PROTOS) google/rpc/status.proto google/rpc/error_details.proto

.PHONY: help venv browser lint fmt generate checkgenerate test test-fast compiled compiled-check bench mutation fuzz soak memory corpus figures demo examples screenshots mutants clean

help: ## List the jobs.
	@grep -E '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*## "} {printf "  make %-14s %s\n", $$1, $$2}'

# oracle/__init__.py holds the package's version (pyproject's is dynamic).
$(STAMP): pyproject.toml oracle/__init__.py
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e . --group dev
	@touch $@

$(BUF): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

venv: $(STAMP) ## Create .venv and install the project with its dev tools.

browser: ## Install Debian's chromium package when absent (the browser tests need it).
	@command -v chromium >/dev/null || { \
	  command -v apt-get >/dev/null || { echo "no chromium and no apt-get: install Chromium so that 'chromium' is on PATH"; exit 1; }; \
	  echo "installing Debian's chromium package for the browser tests"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends chromium >/dev/null; }

generate: $(STAMP) ## Regenerate the Python code of the .proto files and their descriptor set (committed beside them).
	find proto/croupier/v1 conformance/v1 -name '*_pb2*.py*' -delete
	$(PROTOC) --python_out=proto --mypy_out=proto --grpc_python_out=proto --mypy_grpc_out=proto $(PROTOS) 2> >(grep -v "^Writing mypy" >&2 || true)
	$(PROTOC) --descriptor_set_out=proto/croupier/croupier.binpb $(DESCRIPTOR_SET)

checkgenerate: $(STAMP) ## Fail if regenerating would change the committed generated code.
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	$(PROTOC) --python_out="$$tmp" --mypy_out="$$tmp" --grpc_python_out="$$tmp" --mypy_grpc_out="$$tmp" $(PROTOS) 2> >(grep -v "^Writing mypy" >&2 || true); \
	$(PROTOC) --descriptor_set_out="$$tmp/croupier/croupier.binpb" $(DESCRIPTOR_SET); \
	for v1 in v1 conformance/v1; do \
	  diff -r -q -x '*.proto' -x '__init__.py' -x '__pycache__' "$$tmp/croupier/$$v1" "proto/croupier/$$v1" || stale=1; \
	done; \
	{ [ -z "$${stale:-}" ] && cmp "$$tmp/croupier/croupier.binpb" proto/croupier/croupier.binpb; } \
	  || { echo "generated code is stale: run 'make generate' and commit"; exit 1; }

lint: $(STAMP) $(BUF) checkgenerate ## Ruff, mypy --strict, import contracts, buf lint and format, generated code freshness.
	$(PY) -m ruff check $(SOURCES)
	$(PY) -m ruff format --check $(SOURCES)
	$(PY) -m mypy proto/croupier/oracle proto/croupier/conformance proto/croupier/clients bench examples
	$(VENV)/bin/lint-imports --no-cache
	$(BUF) lint
	$(BUF) format --diff --exit-code

fmt: $(STAMP) $(BUF) ## Apply ruff's fixes and formatting, and buf format.
	$(PY) -m ruff check --fix $(SOURCES)
	$(PY) -m ruff format $(SOURCES)
	$(BUF) format --write

# The pure Python modules are the tested reference: the whole suite runs them (CROUPIER_BUILD,
# oracle/build.py). The compiled build's check (its build takes minutes) is a target of its
# own, compiled-check, so that make test stays inside its 15 minutes on 2 cores.
test: lint browser ## Lint, the whole test suite on the pure Python reference, then the compiled build checked against it (what CI runs).
	CROUPIER_BUILD=pure $(PY) -m pytest --durations=15
	$(MAKE) compiled-check

compiled: $(STAMP) ## Compile the rules modules with mypyc into oracle/_compiled (git ignores it) when a C compiler is present; skipped otherwise.
	$(PY) -m bench.compiled build

compiled-check: compiled ## The corpus and tests/oracle on the compiled build, byte for byte against the pure reference.
	$(PY) -m bench.compiled check

test-fast: $(STAMP) browser ## The test suite without lint, with Hypothesis' quick profile.
	CROUPIER_BUILD=pure HYPOTHESIS_PROFILE=dev $(PY) -m pytest -x -q

$(BENCH_STAMP): $(STAMP)
	$(PY) -m pip install --quiet --group bench
	@touch $@

bench: $(BENCH_STAMP) ## Each figure beside its anchor (Gymnasium blackjack, gRPC echo, 1 worker, local pool): ratio, goal, pass/short. BENCH_ARGS=--quick: a smoke run.
	$(PY) -m bench.run $(BENCH_ARGS)

fuzz: $(STAMP) ## ~110,000 bad, out-of-order and concurrent requests to croupier serve and a kit-served engine (~10 min); counts per status code.
	HYPOTHESIS_PROFILE=fuzz $(PY) -m pytest -p no:cacheprovider -q \
		tests/service/test_fuzz.py tests/service/test_hostile_server.py -k "fuzz or not_the_message or malformed"

soak: $(STAMP) ## 256 rounds in flight against croupier serve (10 min), then SIGTERM under load; fails on a missed goal.
	$(PY) -m bench.soak $(SOAK_ARGS)

memory: $(STAMP) ## explore, then certify --explore, an hour each against croupier serve; fails unless each client's RSS is flat (MEMORY_ARGS="--minutes 10").
	$(PY) -m bench.memory $(MEMORY_ARGS)

$(MUTATION_STAMP): $(STAMP)
	$(PY) -m pip install --quiet --group mutation
	@touch $@

mutation: $(MUTATION_STAMP) ## Sampled mutation testing of oracle/ against tests/oracle (~15 min): each game, money and settlement must kill 95%.
	CROUPIER_BUILD=pure $(PY) -m bench.mutation $(MUTATION_ARGS)

corpus: $(STAMP) ## Rebuild the shipped conformance corpus from the current oracle.
	CROUPIER_BUILD=pure $(PY) -m croupier.conformance.cli vectors build-corpus

figures: $(STAMP) ## Rewrite oracle/basic_strategy.toml: each shipped blackjack profile's basic-strategy return, analysed (about 10 s).
	CROUPIER_BUILD=pure $(PY) -c "import sys; from croupier.oracle.basic_strategy import figures_text; sys.stdout.write(figures_text())" > oracle/basic_strategy.toml.new && mv oracle/basic_strategy.toml.new oracle/basic_strategy.toml

demo: $(STAMP) ## The demo: the demo engine served, certified conformant, then one of its mutants caught.
	$(PY) -m croupier.clients.demo

$(EXAMPLES_STAMP): $(STAMP) pyproject.toml
	$(PY) -m pip install --quiet --group examples
	@touch $@

examples: $(EXAMPLES_STAMP) ## The PyPI engines of examples/: certify each, then explore each EXAMPLES_MINUTES (each exit 0 with its known failures).
	@mkdir -p $(EXAMPLES_OUT)
	@for game in blackjack baccarat roulette; do \
	  echo "== examples/$$game: certify"; \
	  $(VENV)/bin/croupier certify --profile-file examples/$$game/profile.toml \
	    --launch "$(PY) examples/$$game/engine.py" \
	    --known-failures examples/$$game/known-failures.txt --show 3 || exit 1; \
	done
	@# Explore waives what each known-failures file classifies: a finding it cannot waive is new
	@# (exit 1, its vector in EXAMPLES_OUT) and fails the target, to be classified.
	@for game in blackjack baccarat roulette; do \
	  echo "== examples/$$game: explore for $(EXAMPLES_MINUTES) minute(s)"; \
	  $(VENV)/bin/croupier explore --profile examples/$$game/profile.toml \
	    --launch "$(PY) examples/$$game/engine.py" \
	    --known-failures examples/$$game/known-failures.txt --minutes $(EXAMPLES_MINUTES) \
	    --max-findings 20 --out $(EXAMPLES_OUT)/$$game-findings.jsonl || exit $$?; \
	done

screenshots: $(STAMP) browser ## Pictures of both HTML reports for docs/ (run make demo first).
	$(PY) -m tests.browser.screenshots

mutants: $(STAMP) ## The mutant zoo: every mutant, every vector; each must fail with its clause, by a hand-written vector and 3+ in all.
	$(PY) -m croupier.conformance.zoo

clean: ## Remove the virtualenv, the compiled build, node_modules and caches.
	rm -rf $(VENV) oracle/_compiled node_modules .pytest_cache .mypy_cache .ruff_cache .hypothesis .mutation $(EXAMPLES_OUT)
