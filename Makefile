# `make run` and `make test` set everything up by themselves on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck unit bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/cardarena play torabato --vs ismcts

lint: $(STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests
	$(BIN)/lint-imports --no-logo

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -q -n 2

# The browser tests drive Debian's chromium (Playwright cannot download its own browser here).
.PHONY: chromium
chromium:
	@test -x /usr/bin/chromium || (apt-get update -qq && apt-get install -y -qq chromium)

test: lint typecheck chromium unit

bench: $(STAMP)
	$(BIN)/cardarena bench

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
