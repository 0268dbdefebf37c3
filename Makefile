# The two commands a newcomer needs: `make run` and `make test`. Both build .venv when missing.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
TESTS  := $(VENV)/.installed-test
DATA   ?= data
# 0.0.0.0: phones on the same network can reach `make run`; changing the game needs the join code.
HOST   ?= 0.0.0.0
PORT   ?= 8000

.PHONY: run test bench venv clean pi-check train-vision

venv: $(TESTS)

# Reinstall when the packaging or the set of packages changes (an editable install maps packages).
# `make run` installs what the service runs on; the test tools (Playwright, Hypothesis) come with
# `make test` alone.
$(STAMP): pyproject.toml $(wildcard */__init__.py)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $(STAMP)

$(TESTS): $(STAMP)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(TESTS)

run: $(STAMP)
	$(VENV)/bin/companion serve --simulate --host $(HOST) --port $(PORT) --data $(DATA)

test: $(TESTS)
	$(PY) -m pytest -q $(PYTEST_ARGS)

bench: $(TESTS)
	$(PY) tests/bench/run.py $(BENCH)

# deploy/install.sh and the smoke commands on an arm64 Debian Bookworm root under qemu emulation.
# Needs root; needs no .venv. See "Checking the install without a Pi" in docs/hardware.md.
pi-check:
	tests/pi/pi_check.sh

# Retrain the dice detector and face network from a seed, two stages, their thresholds and the fused
# choice (vision/models/, or TRAIN_ARGS="--out DIR"; about 45 min on 2 cores, measured). Needs the
# training extra (PyTorch, CPU) and ../shared/data/dice-real.
SEED ?= 0
train-vision: $(STAMP)
	$(PY) -m pip install --quiet -e '.[train]'
	OMP_WAIT_POLICY=PASSIVE nice -n 10 $(PY) -m vision.training --seed $(SEED) $(TRAIN_ARGS)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
