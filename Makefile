# Every target creates .venv and installs the project (with its test extras) when needed.
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: generate check test bench coverage lint demo clean

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

generate: $(STAMP)
	$(PY) -m codegen

check: $(STAMP)
	$(PY) -m codegen --check

test: $(STAMP)
	$(PY) -m codegen --check
	$(PY) -m pytest tests --ignore=tests/cuda
	NUMBA_ENABLE_CUDASIM=1 $(PY) -m pytest tests/cuda

bench: $(STAMP)
	$(PY) bench/run.py

coverage: $(STAMP)
	$(PY) bench/api_coverage.py

lint: $(STAMP)
	$(VENV)/bin/ruff check codegen runtime tests bench examples generated
	$(VENV)/bin/ruff format --check codegen runtime tests bench examples

demo: $(STAMP)
	$(PY) examples/train_digits.py

clean:
	rm -rf $(VENV) build *.egg-info
