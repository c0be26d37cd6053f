# Two commands for a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
export DJANGO_SETTINGS_MODULE := companion.settings
# pip says nothing about its own version; its output goes to the log below anyway.
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: run demo dev prepare static test test-fast check lint typecheck pytest test-postgres messages css bench backup restore

# `make run` listens on every interface so the phones at the table can join;
# HOST=127.0.0.1 keeps it to this computer, PORT= picks another port.
HOST ?= 0.0.0.0
PORT ?= 8000

# The preparing steps are quiet: one line each here, their whole output in $(LOG)
# (and its last lines on the screen when a step fails).
LOG := .run.log
quiet = { $(1); } >>$(LOG) 2>&1 || { echo "Failed: $(2). The end of $(LOG):"; tail -n 30 $(LOG); exit 1; }

# The virtual environment gets uv (a fast installer, itself a package on PyPI) from the pip
# that comes with Python; uv then installs the project in seconds where pip took a minute
# (bench/first_start.sh). Where uv cannot be had, pip installs as before.
$(PY):
	@echo "First start: preparing Kartenrunde (details in $(LOG))."
	@$(call quiet,$(PYTHON) -m venv $(VENV),creating $(VENV) with $(PYTHON))
	@$(PY) -m pip install --quiet uv >>$(LOG) 2>&1 || echo "  (no uv: pip installs the packages, a minute or so)"

install = if [ -x $(VENV)/bin/uv ]; then $(VENV)/bin/uv pip install --quiet --python $(PY) $(1); \
	else $(PY) -m pip install --quiet $(1); fi

# Stamps: reinstall only when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml | $(PY)
	@$(call quiet,$(call install,-e .),installing the packages)
	@echo "  ✓ packages installed in $(VENV)"
	@touch $@

$(VENV)/.installed-dev: pyproject.toml | $(PY)
	@$(call quiet,$(call install,-e '.[dev]'),installing the packages for development)
	@echo "  ✓ packages for development installed in $(VENV)"
	@touch $(VENV)/.installed $@

# The database up to date (the cache table too). No account is made: sample data only
# on request (`make demo`).
# A later start skips both (two Django start-ups, seconds each) when the SQLite database of
# the last run is there and no migration is newer than that run's stamp; a database named
# by DATABASE_URL or SQLITE_PATH is always brought up to date.
MIGRATED := $(VENV)/.migrated
prepare: $(VENV)/.installed
	@echo "== $$(date '+%F %T') make $(MAKECMDGOALS)" >>$(LOG)
	@if [ -z "$$DATABASE_URL$$SQLITE_PATH" ] && [ -f db.sqlite3 ] && [ -f $(MIGRATED) ] \
	  && [ -z "$$(find companion/migrations -name '*.py' -newer $(MIGRATED) | head -n 1)" ] \
	  && [ ! $(VENV)/.installed -nt $(MIGRATED) ]; then \
	  echo "  ✓ database up to date (no new migrations)"; \
	else \
	  { $(PY) manage.py migrate --noinput && $(PY) manage.py createcachetable; } >>$(LOG) 2>&1 \
	    || { echo "Failed: preparing the database. The end of $(LOG):"; tail -n 30 $(LOG); exit 1; }; \
	  if [ -z "$$DATABASE_URL$$SQLITE_PATH" ]; then touch $(MIGRATED); fi; \
	  echo "  ✓ database up to date"; \
	fi

# The static files are collected (hashed names, Brotli and gzip) only when they changed:
# the stamp lives in the collected folder, so deleting that folder collects them again.
STATIC_ROOT := $(or $(DJANGO_STATIC_ROOT),staticfiles)
STATIC_STAMP := $(STATIC_ROOT)/.collected
static: $(STATIC_STAMP)
$(STATIC_STAMP): $(shell find static -type f) $(VENV)/.installed
	@$(call quiet,$(PY) manage.py collectstatic --noinput,collecting the static files)
	@echo "  ✓ static files collected"
	@touch $@

# The production stack: gunicorn, WhiteNoise, DEBUG off (manage.py serve prints URL + QR
# code, then becomes gunicorn: `exec` makes it the process make waits for, so Ctrl+C and
# ending make stop it, see companion/management/commands/serve.py).
run: prepare static
	@exec $(PY) manage.py serve --host "$(HOST)" --port "$(PORT)"

# `make run` with sample data to look around: the account "demo" gets a new one-time
# password, printed here (never a published one).
demo: prepare static
	@$(PY) manage.py seed_demo
	@exec $(PY) manage.py serve --host "$(HOST)" --port "$(PORT)"

# Development: runserver with DEBUG on and auto-reload, on this computer only by default.
dev: prepare
	DJANGO_DEBUG=1 $(PY) manage.py runserver "$(if $(filter file,$(origin HOST)),127.0.0.1,$(HOST)):$(PORT)"

# Backups of everything (accounts with their passwords, groups, matches, logs):
# `make backup` writes $(BACKUP_DIR)/kartenrunde-<date-time>.json.gz (or BACKUP=path);
# `make restore BACKUP=path` loads one into a new, empty database (docs/backups.md).
BACKUP_DIR ?= backups
backup: $(VENV)/.installed
	mkdir -p "$(dir $(or $(BACKUP),$(BACKUP_DIR)/))"
	$(PY) manage.py backup "$(or $(BACKUP),$(BACKUP_DIR)/kartenrunde-$(shell date +%Y-%m-%d-%H%M%S).json.gz)"

restore: $(VENV)/.installed
	$(if $(BACKUP),,$(error Name the backup to restore: make restore BACKUP=backups/....json.gz))
	$(PY) manage.py migrate --noinput
	$(PY) manage.py createcachetable
	$(PY) manage.py restore "$(BACKUP)"

# pytest in WORKERS processes (pytest-xdist), each with its own test database, live
# server and Chromium; a worker that runs out of tests takes some of the other's.
WORKERS ?= 2
XDIST := -n $(WORKERS) --dist worksteal

# The whole suite: checks, lint, types, engine, Django and browser tests (.ci/run calls it).
test: $(VENV)/.installed-dev
	$(PY) manage.py check --fail-level WARNING
	$(PY) manage.py makemigrations --check --dry-run
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy --strict scoring
	$(VENV)/bin/pytest $(XDIST)

# The inner loop (under 2 minutes): lint, types, the engine and the Django tests without
# the browser (no Chromium, no `make run` in a subprocess).
test-fast: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy --strict scoring
	$(VENV)/bin/pytest $(XDIST) -m "not browser and not deploy and not slow"

# The Django suite again against PostgreSQL (DATABASE_URL must point at a server).
test-postgres: $(VENV)/.installed-dev
	$(VENV)/bin/pytest $(XDIST) tests/companion

messages: $(VENV)/.installed-dev
	$(PY) -m companion.engine_templates
	$(PY) manage.py makemessages -l de -l en --ignore=.venv --ignore=tests --ignore=bench
	$(PY) manage.py compilemessages --ignore=.venv

# Bootstrap cut down to what the pages use (static/vendor/bootstrap/README.txt): run after
# changing templates, scripts or HTML-building Python, and commit bootstrap.app.css.
css: $(VENV)/.installed-dev
	$(PY) manage.py build_css

bench: $(VENV)/.installed-dev
	$(PY) bench/engine.py
	$(PY) bench/rules_search.py
	$(PY) bench/history.py
	$(PY) bench/ratings.py
	$(PY) bench/wire.py
	$(PY) bench/home.py
	$(PY) bench/load.py  # PostgreSQL with BENCH_DATABASE_URL=postgres://... (dropped and created)
