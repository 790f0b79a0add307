# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint bench install clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

## Play the example solitaire game through the real CLI; reports go to out/.
run: $(STAMP)
	$(BIN)/python tools/play_example.py --out out

## The full test suite (ruff, then pytest).
test: $(STAMP)
	$(BIN)/ruff check adjudicator exporters tests tools
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check adjudicator exporters tests tools

## Timings of one adjudicated turn, a full verification and one report (no assertions).
bench: $(STAMP)
	$(BIN)/python tools/bench.py

clean:
	rm -rf $(VENV) out .pytest_cache
