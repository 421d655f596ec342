# `make run` and `make test` set everything up by themselves on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck unit bench bench-rl load clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/cardarena serve

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

# RL environment steps/s with encodings and masks, every game (docs/rl.md, "Speed").
bench-rl: $(STAMP)
	$(BIN)/cardarena bench --rl

# 200 concurrent games of scripted clients (2 s between a player's actions) against a server on loopback, for
# 2 minutes: actions/s and send->ack latency (docs/web.md, "Load and faults").
load: $(STAMP)
	$(BIN)/python -m cardarena.web.load --games 200 --think 2 --seconds 120

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
