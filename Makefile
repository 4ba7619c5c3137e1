# The README's two commands: `make demo` (the main job) and `make test`. Both set up .venv on a fresh machine.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
SIM := $(VENV)/bin/sim

.PHONY: demo test bench bench-check golden examples clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[dev,interop]"
	touch $@

demo: $(VENV)/.installed
	$(SIM) run bang_dice --preset full --players 4-8 --games 200000 --seed 1 --out results/demo_bang_dice --overwrite
	$(SIM) run bang_dice --preset base --players 4-8 --games 50000 --seed 2 --out results/demo_bang_dice/compare/base --overwrite
	$(SIM) readings bang_dice --preset full --players 5 --games 5000 --max-games 20000 --seed 3 --out results/demo_bang_dice/readings --overwrite
	$(SIM) run bang_dice --preset full --players 4-8 --games 20000 --seed 1 --standings --out results/demo_bang_dice/arc --overwrite
	$(SIM) ladder results/demo_bang_dice --players 5 --rungs 'tuned;search' --search-games 100 --max-batches 2 --effect-games 0 --no-progress
	$(SIM) report results/demo_bang_dice -o reports/demo_bang_dice.html

test: $(VENV)/.installed
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m pytest -q

GAMES := bang_dice cold_comfort gunny_town raccoon_tycoon saloon_tycoon

# the example designer reports in reports/: 20,000 traced games per game; BANG's default line-up is one strategy,
# so its example mixes three (rotated) to show skill against luck; --mirror: line-ups go round the table both ways,
# so a strategy's share does not depend on who always sits after it; then the skill ladder (tuned presets, then
# `search` in every seat, 100 games: 1-5 CPU s a game)
# Raccoon Tycoon's search rung rolls out with balanced_tuned in every seat: town_builder_tuned stalls as a rollout
# policy (sim ladder refuses it)
RACCOON_SEARCH_RUNG = search@balanced_tuned,search@balanced_tuned,search@balanced_tuned,search@balanced_tuned
examples: $(VENV)/.installed
	for g in $(GAMES); do \
	  extra=""; [ $$g = bang_dice ] && extra="--lineup belief,aggressive,cautious --all-rotations"; \
	  search=search; [ $$g = raccoon_tycoon ] && search=$(RACCOON_SEARCH_RUNG); \
	  $(SIM) run $$g --games 20000 --seed 1 --standings --mirror $$extra --out results/report_examples/$$g --overwrite \
	    --no-progress && \
	  $(SIM) ladder results/report_examples/$$g --rungs "tuned;$$search" --search-games 100 --max-batches 1 \
	    --effect-games 400 --no-progress && \
	  $(SIM) report results/report_examples/$$g -o reports/$$g.html || exit 1; \
	done

bench: $(VENV)/.installed
	$(SIM) bench bang_dice --games 1000000 --json bench/bang_dice.json

# the regression check: each game's benchmark beside its recorded figure and the machine reference (a command, not
# a test: it exits 0 whatever the speed and prints which game fell by more than 10%)
bench-check: $(VENV)/.installed
	$(SIM) bench --compare $(foreach g,$(GAMES),bench/$(g).json)

clean:
	rm -rf results .pytest_cache

# Record the golden fingerprints again (tests/golden): only after a change that is meant to move results.
golden: $(VENV)/.installed
	$(PY) -m tests.fingerprints --write
