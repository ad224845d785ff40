# One-command set-up: `make run` starts the bot, `make test` runs the whole suite.
# Both create .venv and install the pinned requirements when they changed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test bench example-image clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.run-installed: requirements.txt | $(BIN)/python
	$(BIN)/python -m pip install --disable-pip-version-check -q -r requirements.txt
	touch $@

$(VENV)/.dev-installed: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/python -m pip install --disable-pip-version-check -q -r requirements-dev.txt
	touch $@ $(VENV)/.run-installed

run: $(VENV)/.run-installed
	$(BIN)/python bot.py

test: $(VENV)/.dev-installed
	$(BIN)/python -m pytest

bench: $(VENV)/.dev-installed
	$(BIN)/python -m bench

# The example images shown in the README, from seeded self-play games.
example-image: $(VENV)/.run-installed
	$(BIN)/python -m metrobot selfplay --game metromania --players 4 --seed 7 --out docs/example
	$(BIN)/python -m metrobot render docs/example/log.json --out docs/example/board.png --final
	$(BIN)/python -m metrobot selfplay --game flipwrite --map paris --players 4 --seed 7 --out docs/example/flipwrite
	$(BIN)/python -m metrobot render docs/example/flipwrite/state.json --out docs/example/flipwrite/summary.png

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
