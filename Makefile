# The README's two commands: `make run` and `make test`. Everything they need goes into .venv.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# What the app needs to run (make run), and on top of it what the tests and tools need (make test).
STAMP := $(VENV)/.installed-run-$(shell cksum requirements.txt | cut -d' ' -f1)
TEST_STAMP := $(VENV)/.installed-test-$(shell cat requirements.txt requirements-test.txt | cksum | cut -d' ' -f1)
HOST ?= 0.0.0.0
PORT ?= 8000
# One test worker more than the cores: a browser test spends part of its time waiting on its
# browser and on PostgreSQL, and the extra worker fills those waits.
TEST_WORKERS ?= $(shell $(PYTHON) -c 'import os; print((os.cpu_count() or 1) + 1)')

.PHONY: run test install install-test messages bench bench-stats lock clean

# Static files are collected (hashed names, gzip and brotli copies) again only when one of ours
# or the installed packages changed.
COLLECTED := staticfiles/.collected-$(shell cksum requirements.txt | cut -d' ' -f1)

run: $(STAMP) $(COLLECTED)
	$(BIN)/python manage.py messages --compile
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py lan --port $(PORT)
	@# The background worker (BG Stats imports) runs beside the server and stops with it.
	export TIME_ZONE="$${TIME_ZONE:-$$($(BIN)/python -m companion.machine_zone)}"; \
	bin/worker & worker=$$!; trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	bin/serve --host $(HOST) --port $(PORT) --workers $${WORKERS:-1}

test: $(TEST_STAMP)
	@bin/ensure-chromium || true
	$(BIN)/ruff check .
	@# Bytecode is written even where the machine says not to (PYTHONDONTWRITEBYTECODE): else
	@# each worker compiles every module again on every run.
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal $(PYTEST_ARGS)

# The live table's A/B (bench/RESULTS.md): make bench BENCH_ARGS="--a <commit> --b <commit>".
bench: $(TEST_STAMP)
	$(BIN)/python bench/ab.py $(BENCH_ARGS)

bench-stats: $(TEST_STAMP)
	$(BIN)/python bench/stats.py $(BENCH_ARGS)

# What a server needs (the production recipe), and what the tests add to it.
install: $(STAMP)

install-test: $(TEST_STAMP)

# After changing a sentence: every message of the code into its catalogue (new ones untranslated,
# listed), the catalogues compiled. AREA=games/<slug> or AREA=platform for one catalogue.
messages: $(STAMP)
	$(BIN)/python manage.py messages $(if $(AREA),--area $(AREA))

$(COLLECTED): $(STAMP) $(shell find static games/*/static -type f)
	$(BIN)/python manage.py collectstatic --noinput -v0
	rm -f staticfiles/.collected-* && touch $@

$(STAMP): requirements.txt
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Companion needs Python 3.11 or newer"'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet pip==26.3
	$(BIN)/python -m pip install --quiet -r requirements.txt
	rm -f $(VENV)/.installed-run-* && touch $@

$(TEST_STAMP): $(STAMP) requirements-test.txt
	$(BIN)/python -m pip install --quiet -r requirements-test.txt
	rm -f $(VENV)/.installed-test-* && touch $@

# Re-lock after editing requirements.in or requirements-test.in: resolves in a scratch venv and writes exact versions.
lock:
	rm -rf /tmp/companion-lock && $(PYTHON) -m venv /tmp/companion-lock
	/tmp/companion-lock/bin/pip install --quiet -r requirements.in
	(echo '# Locked by `make lock` from requirements.in: exact versions, so two installs a month apart match.'; \
	 /tmp/companion-lock/bin/pip freeze) > requirements.txt
	/tmp/companion-lock/bin/pip install --quiet -r requirements-test.in
	(echo '# Locked by `make lock` from requirements-test.in: the tests and tools, on top of requirements.txt.'; \
	 echo '-r requirements.txt'; \
	 /tmp/companion-lock/bin/pip freeze | grep -vxFf requirements.txt) > requirements-test.txt

clean:
	rm -rf $(VENV) staticfiles .pytest_cache
