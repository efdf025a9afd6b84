# The README's commands. Everything runs inside .venv, made on first use.
# The first Python 3.11 found that can make a venv, the system's own first: distributions build it
# with profile-guided and link-time optimisation, which a plain source build (pyenv's default,
# often first on PATH) leaves out, and the server then spends about 5% more CPU a move (README,
# "Live play under load").
PYTHON ?= $(shell for p in /usr/bin/python3.11 python3.11 python3; do \
  command -v $$p >/dev/null 2>&1 && $$p -c "import ensurepip, venv" 2>/dev/null && \
  { command -v $$p; break; }; done)
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test check bench bench-load format messages clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

## run: install, migrate, load the demo club and serve on http://$(HOST):$(PORT)
run: export DEBUG ?= 1
run: $(VENV)/.installed
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py seed_demo
	@echo "Serving on http://$(HOST):$(PORT)/  (Ctrl-C to stop)"
	$(BIN)/daphne -b $(HOST) -p $(PORT) cribsite.asgi:application

## test: install with the test extras and run the whole suite, in TEST_WORKERS processes
## (pytest-xdist; TEST_WORKERS=0 runs it in this one)
TEST_WORKERS ?= 2
test: $(VENV)/.installed
	$(BIN)/python -m pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)

## check: lint, format check and Django's system checks
check: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	DEBUG=1 $(BIN)/python manage.py check

## bench: print the speed figures the issues ask for
bench: $(VENV)/.installed
	@for f in tests/bench/bench_*.py; do [ "$$f" = tests/bench/bench_load.py ] && continue; \
		echo "== $$f"; $(BIN)/python $$f || exit 1; done

## bench-load: live matches through real daphne processes (BENCH_ARGS="--profile scale ...")
bench-load: $(VENV)/.installed
	$(BIN)/python tests/bench/bench_load.py $(BENCH_ARGS)

## messages: gather the site's texts into the Spanish catalogue and compile it (needs gettext)
messages: export DEBUG ?= 1
messages: $(VENV)/.installed
	$(BIN)/python manage.py makemessages -l es --add-location=file --no-obsolete \
		--ignore='.venv/*' --ignore='var/*' --ignore='tests/*'
	$(BIN)/python manage.py compilemessages -l es --ignore='.venv/*'

format: $(VENV)/.installed
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) var/static var/test-db-*
