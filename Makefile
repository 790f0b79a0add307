# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run example test lint bench fuzz examples install bytecode clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	$(MAKE) --no-print-directory bytecode
	touch $(STAMP)

## The project's own bytecode, written once: an editable install compiles nothing, and
## where PYTHONDONTWRITEBYTECODE is set every command would compile every module it
## imports again (half the time of a `pbem adjudicate`). Python still reads what is here.
bytecode:
	$(BIN)/python -m compileall -q adjudicator exporters tools >/dev/null

install: $(STAMP)

## The service on the embedded default: SQLite in var/, web on 127.0.0.1:8000, SMTP
## intake on 127.0.0.1:2525, outgoing mail into the Maildir var/outbox/, with the
## example games preloaded.
run: $(STAMP)
	$(BIN)/pbem serve --examples examples

## Play the example solitaire game through the real CLI; reports go to out/.
example: $(STAMP)
	$(BIN)/python tools/play_example.py solitaire --out out

## The full test suite: ruff, mypy --strict on the engine, the map kit and the exporters,
## then pytest.
test: $(STAMP)
	$(BIN)/ruff check adjudicator exporters tests tools
	$(BIN)/mypy --strict --follow-imports=silent adjudicator/engine adjudicator/mapgen exporters
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check adjudicator exporters tests tools

## Every figure of issue 13 side by side, as ratios to its floor or its goal, for every
## game (a few minutes; no assertions). `make bench ARGS=--quick`: a tiny budget. Then
## the order builder's click-to-highlight latency in Chromium, per game.
bench: $(STAMP) bytecode
	$(BIN)/python tools/bench.py $(ARGS)
	$(BIN)/python tools/bench_builder.py

## Long runs of the untrusted-input properties (not part of `make test`).
fuzz: $(STAMP)
	$(BIN)/python tools/fuzz.py

## Regenerate the example games in examples/ (after a rules change).
examples: $(STAMP)
	$(BIN)/python tools/play_example.py solitaire --out out/example --update-examples
	$(BIN)/python tools/play_example.py barbarossa --out out/barbarossa --update-examples
	$(BIN)/python -m adjudicator.games.moscow.tools.play_example --out out/moscow --update-examples

clean:
	rm -rf $(VENV) out .pytest_cache
