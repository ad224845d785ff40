# One-command set-up: `make run` starts the bot, `make test` runs the whole suite.
# Both create .venv and install the pinned requirements when they changed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run version test test-repeat reliability bench bench-ai example-image rules-pages browser discord-sdk web-screenshots docs clean

# Debian and Ubuntu ship `venv` without pip (ensurepip) until their python3.X-venv package is
# installed: the venv half made is removed and the line to type is said, not a traceback.
$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || \
	  { v=$$($(PYTHON) --version 2>/dev/null); echo "metrobot needs Python 3.11 or newer as $(PYTHON)" \
	  "(found: $${v:-none}); name another with make PYTHON=python3.11 ..." >&2; exit 1; }
	@$(PYTHON) -m venv $(VENV) >/dev/null 2>&1 || { rm -rf $(VENV); \
	  echo "could not create .venv: '$(PYTHON) -m venv' failed. On Debian or Ubuntu install its venv package:" >&2; \
	  echo "  sudo apt install $$($(PYTHON) -c 'import sys; print("python%d.%d-venv" % sys.version_info[:2])')" >&2; \
	  echo "then run make again." >&2; exit 1; }

$(VENV)/.run-installed: requirements.txt | $(BIN)/python
	$(BIN)/python -m pip install --disable-pip-version-check -q -r requirements.txt
	touch $@

# The suite's set-up installs with uv (pinned in requirements-dev.txt): about 5 s where pip took
# 25-30 s of a fresh clone's `make test`; if uv cannot be had or fails, pip does it. (Neither
# compiles every module first: the suite compiles what it imports as it goes; compiling every
# module of every package, most of which no test imports, took pip a third of the install.)
# uv trusts the system's certificates, as pip does: with only its own, uv failed behind a proxy
# that re-signs TLS (a company's, or the reference machine's) and pip took over, 26 s.
$(VENV)/.dev-installed: requirements.txt requirements-dev.txt requirements-docs.txt | $(BIN)/python
	($(BIN)/python -m pip install --disable-pip-version-check -q "$$(grep '^uv==' requirements-dev.txt)" && \
	  $(BIN)/uv pip install -q --system-certs --python $(BIN)/python -r requirements-dev.txt) || \
	  $(BIN)/python -m pip install --disable-pip-version-check --no-compile -q -r requirements-dev.txt
	touch $@ $(VENV)/.run-installed

# Restarts the bot if it dies (exit status 2 means a setting is wrong: stop and say so).
run: $(VENV)/.run-installed
	@until $(BIN)/python bot.py; do code=$$?; [ $$code -eq 2 ] && exit 2; \
	  echo "metrobot exited with status $$code; restarting in 5 s (Ctrl-C to stop)" >&2; sleep 5; done

# The version this checkout is and the database schema it creates (docs/operators/upgrading.md).
version: $(VENV)/.run-installed
	@$(BIN)/python -m metrobot --version

# One worker more than the cores (pytest-xdist): many tests wait on another process (a bot,
# PostgreSQL, the browser), and with one worker a core the cores were busy 1.46 of 2 on average
# (issue 43's measurements, docs/developers/testing.md). The slow files are shared out as they go.
WORKERS := $(shell $(PYTHON) -c 'import os; print((os.cpu_count() or 1) + 1)')
PARALLEL := -n $(WORKERS) --dist worksteal
# The suite starts a few hundred Python processes (`python bot.py`, the command line, drawing
# workers): with PYTHONDONTWRITEBYTECODE set (as on some machines, CI's among them) each of
# them compiled every module it imports from source, and pytest rewrote every test module in
# each worker: about a tenth of the suite's CPU. The tests write bytecode whatever the shell says.
TESTENV := PYTHONDONTWRITEBYTECODE=

test: $(VENV)/.dev-installed browser
	$(TESTENV) $(BIN)/python -m pytest $(PARALLEL)

# The documentation site (docs/, Sphinx + MyST + furo) in docs/_build/html. Strict: a warning,
# a broken link to a page, a heading or an image fails it (-W -n). `make test` builds it too
# (tests/test_docs.py, with these options), so CI fails on a broken reference.
SPHINXOPTS := -W -n --keep-going -q -b html

docs: $(VENV)/.dev-installed
	$(BIN)/python -m sphinx $(SPHINXOPTS) docs docs/_build/html

# Debian's headless Chromium for the web pages' browser tests (tests/web), when it is missing
# and we may install it (root); otherwise those tests say how to install it and skip.
browser:
	@[ -x /usr/lib/chromium/chromium-headless-shell ] || [ -n "$$CHROMIUM_PATH" ] || [ "$$(id -u)" -ne 0 ] || \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	   chromium-headless-shell >/dev/null) || echo "could not install chromium-headless-shell: the browser tests will skip"

# Discord's Embedded App SDK for the Activity's page, vendored from the npm registry at the version
# pinned in tools/discord_sdk.py (npm pack, checked against the registry's sha512, modules copied
# with their licence and a SHA256SUMS that a test compares). Only when changing that version.
discord-sdk: $(VENV)/.dev-installed
	$(BIN)/python -m tools.discord_sdk refresh

# The screenshots of the web pages in the docs (docs/web), taken by the browser tests. The
# Korean and Japanese pages need Debian's fonts-noto-cjk and fonts-noto-color-emoji (else: boxes).
web-screenshots: $(VENV)/.dev-installed browser
	METROBOT_WEB_SHOTS=docs/web $(BIN)/python -m pytest -q -n 0 tests/web/test_pages_in_browser.py tests/web/test_play_page.py tests/web/test_play_page_truth.py

# The whole suite ten times in a row, each run in another order (pytest-randomly, seeds 1
# to 10, shown as "Using --randomly-seed=N"): it must pass every time — no test depends on
# chance or on another test. `make test` itself does not shuffle.
test-repeat: $(VENV)/.dev-installed
	for i in 1 2 3 4 5 6 7 8 9 10; do echo "== run $$i (order: --randomly-seed=$$i)"; \
	  $(TESTENV) $(BIN)/python -m pytest $(PARALLEL) -p randomly -p no:cacheprovider --randomly-seed=$$i || exit 1; done

# The crash, race, bad-input and secrecy suites at full size (hours), and the tournament pairing
# properties over many more tournaments; figures to reliability.txt, then the table made from them.
# Also the suites that `make test` runs small (FULL_SIZE; docs/developers/testing.md lists them).
# In as many processes as `make test` (the suites already run side by side there at everyday size):
# one process took longer than a working session on the 2-core reference machine.
FULL_SIZE := tests/render/test_fits.py tests/test_rules_cli.py tests/conformance/test_conformance.py tests/underground/test_properties.py \
  tests/service/test_matching.py tests/e2e/test_tutorial.py tests/e2e/test_new_languages.py tests/test_translations.py \
  tests/test_typed_words.py tests/metromania/test_ai_simulate.py
reliability: $(VENV)/.dev-installed
	rm -f reliability.txt
	$(TESTENV) METROBOT_RELIABILITY=full METROBOT_RELIABILITY_REPORT=$(CURDIR)/reliability.txt $(BIN)/python -m pytest -q -s $(PARALLEL) tests/reliability tests/tournaments $(FULL_SIZE) -o timeout=3600
	$(BIN)/python -m tests.reliability.figures reliability.txt

bench: $(VENV)/.dev-installed
	$(BIN)/python -m bench

# The automatic players' win rates over hundreds of seeded games: nine settings of 200 games (a
# third a game since issue 75: one strong among three greedy); the first six measured 20 minutes
# with --jobs 2 on the shared 2-core reference machine (about 30 minutes of CPU).
bench-ai: $(VENV)/.dev-installed
	nice $(BIN)/python -m bench ai_metromania ai_flipwrite ai_underground --jobs 2

# The example images shown in the README and the docs, from seeded self-play games.
example-image: $(VENV)/.run-installed
	$(BIN)/python -m metrobot selfplay --game metromania --players 4 --seed 7 --out docs/example
	$(BIN)/python -m metrobot render docs/example/log.json --out docs/example/board.png --final
	$(BIN)/python -m metrobot render docs/example/log.json --out docs/example/ko/board.png --final --language ko \
	  --name p1=김민준 --name p2=Zoë --name p3=Ђорђе --name "p4=🚇 Metro"
	$(BIN)/python -m metrobot selfplay --game flipwrite --map paris --players 4 --seed 7 --out docs/example/flipwrite
	$(BIN)/python -m metrobot render docs/example/flipwrite/state.json --out docs/example/flipwrite/summary.png
	$(BIN)/python -m metrobot selfplay --game underground --players 4 --seed 7 --out docs/example/underground
	$(BIN)/python -m metrobot.render.underground.example docs/example/underground/log.json --out docs/example/underground
	$(BIN)/python -m metrobot.tournaments.example --game underground --out docs/example/tournament
	$(BIN)/python -m metrobot selfplay --game underground --map berlin --players 4 --seed 7 \
	  --out docs/example/underground/berlin
	$(BIN)/python -m metrobot.render.underground.example docs/example/underground/berlin/log.json \
	  --out docs/example/underground/berlin

# The illustrated rules of every game, in English, as /game rules shows them (docs/rules/GAME).
rules-pages: $(VENV)/.run-installed
	for game in $$($(BIN)/python -c "from metrobot.games import all_plugins; print(*(p.name for p in all_plugins()))"); do \
	  rm -rf docs/rules/$$game; $(BIN)/python -m metrobot rules --game $$game --out docs/rules/$$game || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis docs/_build
