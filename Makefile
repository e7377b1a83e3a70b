# The two commands: `make run` serves the site on the embedded default (SQLite, in-memory
# layers, demo users); `make test` runs every test. `make lint` runs ruff and mypy.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test test-js lint format bench clean lock loadtest

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.runtime: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet --require-hashes -r requirements.txt
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install --quiet --require-hashes -r requirements-dev.txt
	touch $(VENV)/.runtime $@

run: $(VENV)/.runtime
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py migrate --noinput
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py seed_demo
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py seed_tables
	@echo "Serving on http://$(HOST):$(PORT)/"
	DEBUG=$${DEBUG:-1} $(BIN)/daphne -b $(HOST) -p $(PORT) rummysite.asgi:application

test: $(VENV)/.dev test-js
	@scripts/ensure-chromium || echo "Chromium could not be installed: the browser tests will skip (or fail in CI)"
	$(BIN)/python -m pytest -n 2 -q $(PYTEST_ARGS)

# The browser's ES modules (static/table/), unit-tested with Node's own runner: no npm, no bundler.
test-js:
	node --test tests/js/

lint: $(VENV)/.dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: $(VENV)/.dev
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(VENV)/.dev
	$(BIN)/python -m games.engine.bench

# Bots as websocket clients against a running server (make run or make run-prod, started with the
# same DATABASE_URL / SQLITE_PATH in the environment): make loadtest ARGS="--baseline".
# See docs/PERFORMANCE.md.
loadtest: $(VENV)/.dev
	$(BIN)/python -m loadtest $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis

# Production serving on PostgreSQL and Redis, DEBUG off: migrate, collect the static files
# (WhiteNoise serves them), then daphne, a Celery worker and Celery beat (the game timers; see
# docs/PROTOCOL.md, "Timers"). Needs SECRET_KEY, ALLOWED_HOSTS and REDIS_URL (and usually
# DATABASE_URL); README, "Production", and docs/DEPLOY.md. Ctrl-C stops them all, and so
# does a TERM sent to the recipe's shell (it waits on the daphnes in the background, so its
# trap runs at once). The Procfile runs the same three processes under a process manager.
# Daphne runs as one process a core (WEB_PROCESSES, at most 4 by default) on one port
# (rummysite/daphnes.py: one Python interpreter uses one core), and the daphnes hash passwords
# in one process a core between them, below the tables' priority (accounts/password_work.py).
# The Celery processes run one task at a time each: a pool of two connections per process is
# plenty (docs/DEPLOY.md, "Database connections": daphnes x DB_POOL_SIZE + the worker's
# processes x 2 + beat's 2 stay under PostgreSQL's max_connections).
TIMER_DB_POOL ?= 2
.PHONY: run-prod
run-prod: export DEBUG ?= 0
run-prod: $(VENV)/.runtime
	@test -n "$$REDIS_URL" || { echo "run-prod needs REDIS_URL=redis://... (make run serves without it)"; exit 1; }
	@test -n "$$SECRET_KEY" || { echo "run-prod needs SECRET_KEY: export SECRET_KEY=\$$(python3 -c 'import secrets; print(secrets.token_urlsafe(50))') (README, Production)"; exit 1; }
	@test -n "$$ALLOWED_HOSTS" || { echo "run-prod needs ALLOWED_HOSTS, e.g. ALLOWED_HOSTS=rummy.example.com (or 127.0.0.1 to try it here: README, Production)"; exit 1; }
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	mkdir -p var
	@echo "Serving on http://$(HOST):$(PORT)/ with a Celery worker and beat (DEBUG=$$DEBUG)"
	trap 'trap - INT TERM HUP EXIT; kill 0' INT TERM HUP EXIT; \
	GAME_TIMERS=celery DB_POOL_SIZE=$(TIMER_DB_POOL) DB_POOL_MIN=1 DB_APPLICATION_NAME=rummy-worker $(BIN)/celery -A rummysite worker --loglevel=INFO --concurrency=2 & \
	GAME_TIMERS=celery DB_POOL_SIZE=$(TIMER_DB_POOL) DB_POOL_MIN=1 DB_APPLICATION_NAME=rummy-beat $(BIN)/celery -A rummysite beat --loglevel=INFO --schedule var/celerybeat-schedule & \
	GAME_TIMERS=celery DB_APPLICATION_NAME=rummy-web $(BIN)/python -m rummysite.daphnes -b $(HOST) -p $(PORT) & \
	wait $$!

# Re-lock every dependency, transitive ones included, with hashes, from the top-level lists
# requirements.in and requirements-dev.in (README, "Dependencies"). Add UPGRADE=1 to move
# every pin to the newest release the top-level lists allow.
lock: | $(BIN)/python
	$(BIN)/pip install --quiet pip-tools==7.6.2
	$(BIN)/pip-compile --quiet --generate-hashes --allow-unsafe --strip-extras $(if $(UPGRADE),--upgrade) \
		-o requirements.txt requirements.in
	$(BIN)/pip-compile --quiet --generate-hashes --allow-unsafe --strip-extras $(if $(UPGRADE),--upgrade) \
		-o requirements-dev.txt requirements-dev.in
