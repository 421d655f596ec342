# `make run` and `make test` set everything up by themselves on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck unit bench bench-rl load load-replays clean

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

# 20 live games (1 s between a player's actions) beside one client asking 18 replay steps a second of 48 finished
# games not in the server's memory, for a minute: the live games' act->ack latency (docs/web.md, "Replays under load").
load-replays: $(STAMP)
	$(BIN)/python -m cardarena.web.load_replays --games 20 --think 1 --replay-clients 1 --replay-rate 18 --seconds 60

# The trained baseline (examples/train_maskable_ppo.py; docs/interop.md, "Training stack"). `train-smoke` is a
# few hundred steps and a few evaluation games (`make test` runs a smaller one: tests/interop/test_training_stack.py);
# `train` the runs whose numbers and plots docs/interop.md ("Trained baseline") reports, about 30 minutes on 2 cores.
.PHONY: train train-smoke
train-smoke: $(STAMP)
	$(BIN)/python examples/train_maskable_ppo.py dicebattle --steps 512 --num-envs 2 --eval-games 4
	$(BIN)/python examples/train_maskable_ppo.py laplaplace --steps 512 --num-envs 2 --eval-games 4

train: $(STAMP)
	$(BIN)/python examples/train_maskable_ppo.py laplaplace --steps 120000 --num-envs 8 --rollout 64 \
		--learning-rate 5e-4 --opponent random --eval-games 250 --reference heuristic \
		--out out/training/laplaplace --plot docs/rl-curves-laplaplace.png
	$(BIN)/python examples/train_maskable_ppo.py dicebattle --steps 600000 --num-envs 16 --rollout 128 \
		--learning-rate 1e-3 --anneal-lr --hidden 256,256 --opponent random --eval-games 250 --reference heuristic \
		--out out/training/dicebattle --plot docs/rl-curves-dicebattle.png
	$(BIN)/python examples/train_maskable_ppo.py laplaplace --steps 150000 --num-envs 8 --rollout 64 \
		--learning-rate 5e-4 --opponent heuristic --eval-games 250 --reference heuristic \
		--out out/training/laplaplace-vs-heuristic --plot docs/rl-curves-laplaplace-vs-heuristic.png

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
