# `make run` and `make test` set everything up by themselves on a fresh machine.
PYTHON ?= python3
HOST ?= 127.0.0.1
PORT ?= 8000
VENV := .venv
BIN := $(VENV)/bin
# Two installs into one venv: `make run` needs only the server (the `web` extra); `make test` and the other
# targets install everything (`dev`: every extra and the test tools). The dev install includes the web one.
WEB := $(VENV)/.installed-web
DEV := $(VENV)/.installed-dev

.PHONY: run test lint typecheck unit unit-compiled compiled clones differential bench bench-rl load load-replays clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The editable installs build no extensions (CARDARENA_PURE_BUILD=1): `compiled` builds them in place, again after
# each edit, where a plain `pip install -e .` would leave them stale.
$(WEB): pyproject.toml setup.py | $(BIN)/python
	CARDARENA_PURE_BUILD=1 $(BIN)/python -m pip install --quiet -e '.[web]'
	touch $@

$(DEV): pyproject.toml setup.py | $(BIN)/python
	CARDARENA_PURE_BUILD=1 $(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(WEB)

# The compiled build (docs/speed.md): mypyc compiles the modules setup.py lists (the kernel's hot paths, the games'
# rules, states, views and encodings, the search) into C extensions beside their sources, where a C compiler is
# present; without one cardarena runs as pure Python. Rebuilt when a source changes (mypyc and the compiler redo
# only what changed); the build records its sources' hashes, so an edit not yet rebuilt runs pure, with a warning.
# `cardarena --version` says which build runs; CARDARENA_PURE=1 runs the pure one anyway.
COMPILED := $(VENV)/.compiled
PY_SOURCES := $(shell find src/cardarena -name '*.py' -not -path '*/migrations/*')
compiled: $(COMPILED)
$(COMPILED): setup.py $(PY_SOURCES) | $(WEB)
	@if $(BIN)/python setup.py --can-compile; then \
		echo "make: compiling cardarena with mypyc (docs/speed.md; a first build takes a few minutes)"; \
		$(BIN)/python -m pip install --quiet 'mypy>=1.10' 'setuptools>=77' && \
		$(BIN)/python setup.py --quiet build_ext --inplace --parallel 2 > $(VENV)/compile.log 2>&1 || \
			{ tail -30 $(VENV)/compile.log; echo "make: the compiled build failed (log: $(VENV)/compile.log)"; exit 1; }; \
	else \
		echo "make: no C compiler on PATH: cardarena runs as pure Python (docs/speed.md)"; \
	fi
	@$(BIN)/python -c 'import cardarena; print("make: cardarena runs", cardarena.BUILD)'
	touch $@

# Each game's clone, written out from its FIELDS (engine/fields.py): after changing a state's FIELDS.
clones: $(WEB)
	$(BIN)/python -c 'import sys; from cardarena.engine.clones import main; sys.exit(main(sys.argv[1:]))'

# The lobby on http://$(HOST):$(PORT)/ (`make run PORT=8080`; HOST=0.0.0.0 to let other machines in).
run: $(WEB) compiled
	$(BIN)/cardarena serve --host $(HOST) --port $(PORT)

lint: $(DEV)
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests
	$(BIN)/lint-imports --no-logo

typecheck: $(DEV)
	$(BIN)/mypy

# The whole suite on the pure build, then the rules, the search and the faces' own tests on the compiled one (both
# builds run the same source: the differential test compares them game by game).
unit: $(DEV) compiled
	CARDARENA_PURE=1 $(BIN)/pytest -q -n 2

unit-compiled: $(DEV) compiled
	@if $(BIN)/python -c 'import cardarena, sys; sys.exit(not cardarena.COMPILED)'; then \
		$(BIN)/pytest -q -n 2 -p no:cacheprovider tests/engine tests/games tests/agents tests/rl; \
	else echo "make: no compiled build here: its run is skipped (pure Python only)"; fi

# Both builds on 10,000 seeded games of every game and mode, decision by decision (docs/speed.md).
differential: $(DEV) compiled
	$(BIN)/python -m cardarena.arena.differential --games 10000 --jobs 2

# The browser tests drive Debian's chromium (Playwright cannot download its own browser here). Installing it needs
# root; apt may also upgrade installed packages that chromium's dependencies require newer versions of.
.PHONY: chromium
chromium:
	@test -x /usr/bin/chromium || { \
		if [ "$$(id -u)" != 0 ]; then \
			echo "make test: the browser tests need Debian's chromium: run 'sudo apt-get install chromium', or run make test as root"; \
			exit 1; \
		fi; \
		echo "make test: installing Debian's chromium for the browser tests (apt-get install chromium)"; \
		apt-get update -qq && apt-get install -y -qq chromium; }

# The balance report's plots draw Japanese card names with a CJK font (matplotlib falls back to it after DejaVu Sans;
# docs/report.md): Debian's fonts-noto-cjk. Without it a plot shows such a card by its card file's name.
CJK_FONT := /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
.PHONY: cjk-font
cjk-font:
	@test -e $(CJK_FONT) || { \
		if [ "$$(id -u)" != 0 ]; then \
			echo "make test: the report's plots need a CJK font: run 'sudo apt-get install fonts-noto-cjk', or run make test as root"; \
			exit 1; \
		fi; \
		echo "make test: installing Debian's fonts-noto-cjk for Japanese card names in the report's plots"; \
		apt-get update -qq && apt-get install -y -qq fonts-noto-cjk; }

test: lint typecheck chromium cjk-font unit unit-compiled

bench: $(DEV)
	$(BIN)/cardarena bench

# RL environment steps/s with encodings and masks, every game (docs/rl.md, "Speed").
bench-rl: $(DEV)
	$(BIN)/cardarena bench --rl

# 200 concurrent games of scripted clients (2 s between a player's actions) against a server on loopback, for
# 2 minutes: actions/s and send->ack latency (docs/web.md, "Load and faults").
load: $(DEV)
	$(BIN)/python -m cardarena.web.load --games 200 --think 2 --seconds 120

# 20 live games (1 s between a player's actions) beside one client asking 18 replay steps a second of 48 finished
# games not in the server's memory, for a minute: the live games' act->ack latency (docs/web.md, "Replays under load").
load-replays: $(DEV)
	$(BIN)/python -m cardarena.web.load_replays --games 20 --think 1 --replay-clients 1 --replay-rate 18 --seconds 60

# The trained baseline (examples/train_maskable_ppo.py; docs/interop.md, "Training stack"). `train-smoke` is a
# few hundred steps and a few evaluation games (`make test` runs a smaller one: tests/interop/test_training_stack.py);
# `train` the runs whose numbers and plots docs/interop.md ("Trained baseline") reports, about 30 minutes on 2 cores.
.PHONY: train train-smoke
train-smoke: $(DEV)
	$(BIN)/python examples/train_maskable_ppo.py dicebattle --steps 512 --num-envs 2 --eval-games 4
	$(BIN)/python examples/train_maskable_ppo.py laplaplace --steps 512 --num-envs 2 --eval-games 4

train: $(DEV)
	$(BIN)/python examples/train_maskable_ppo.py laplaplace --steps 120000 --num-envs 8 --rollout 64 \
		--learning-rate 5e-4 --opponent random --eval-games 250 --reference heuristic \
		--out out/training/laplaplace --plot docs/rl-curves-laplaplace.png
	$(BIN)/python examples/train_maskable_ppo.py dicebattle --steps 600000 --num-envs 16 --rollout 128 \
		--learning-rate 1e-3 --anneal-lr --hidden 256,256 --opponent random --eval-games 250 --reference heuristic \
		--out out/training/dicebattle --plot docs/rl-curves-dicebattle.png
	$(BIN)/python examples/train_maskable_ppo.py laplaplace --steps 150000 --num-envs 8 --rollout 64 \
		--learning-rate 5e-4 --opponent heuristic --eval-games 250 --reference heuristic \
		--out out/training/laplaplace-vs-heuristic --plot docs/rl-curves-laplaplace-vs-heuristic.png

# The expert's shipped value networks (src/cardarena/agents/models/KEY.npz) and their learning curves
# (docs/curves/): `cardarena train` per configuration, seed 0, the defaults of arena/training.py except where a
# configuration's positions would not fit in memory. Same seed, same weights on this machine. Times: docs/agents.md.
.PHONY: models
models: $(DEV) compiled
	$(BIN)/cardarena train torabato -j 2 --plot docs/curves/expert-torabato.png
	$(BIN)/cardarena train lyabi -j 2 --plot docs/curves/expert-lyabi.png
	$(BIN)/cardarena train dicebattle -j 2 --plot docs/curves/expert-dicebattle.png
	$(BIN)/cardarena train laplaplace -j 2 --plot docs/curves/expert-laplaplace.png
	$(BIN)/cardarena train tashkalar --positions 4 -j 2 --plot docs/curves/expert-tashkalar-deathmatch.png
	$(BIN)/cardarena train tashkalar -o mode=highform --positions 4 -j 2 \
		--plot docs/curves/expert-tashkalar-highform.png
	$(BIN)/cardarena train tashkalar -o mode=melee -o players=4 --games 10000 --positions 3 -j 2 \
		--plot docs/curves/expert-tashkalar-melee4.png

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache build
	find src/cardarena -name '*.so' -delete
