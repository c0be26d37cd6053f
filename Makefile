# Two commands for a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
export DJANGO_SETTINGS_MODULE := companion.settings

.PHONY: run dev prepare test check lint typecheck pytest test-postgres messages css bench backup restore

# `make run` listens on every interface so the phones at the table can join;
# HOST=127.0.0.1 keeps it to this computer, PORT= picks another port.
HOST ?= 0.0.0.0
PORT ?= 8000

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# Stamps: reinstall only when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(VENV)/.installed $@

# The database up to date (the cache table too), demo data in an empty one.
prepare: $(VENV)/.installed
	$(PY) manage.py migrate --noinput
	$(PY) manage.py createcachetable
	$(PY) manage.py seed_demo --if-empty

# The production stack: gunicorn, WhiteNoise, DEBUG off (manage.py serve prints URL + QR code).
run: prepare
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) manage.py serve --host "$(HOST)" --port "$(PORT)"

# Development: runserver with DEBUG on and auto-reload, on this computer only by default.
dev: prepare
	DJANGO_DEBUG=1 $(PY) manage.py runserver "$(if $(filter file,$(origin HOST)),127.0.0.1,$(HOST)):$(PORT)"

# Backups of everything (accounts with their passwords, groups, matches, logs):
# `make backup` writes backups/kartenrunde-<date-time>.json.gz (or BACKUP=path);
# `make restore BACKUP=path` loads one into a new, empty database (README "Backups").
backup: $(VENV)/.installed
	mkdir -p "$(dir $(or $(BACKUP),backups/))"
	$(PY) manage.py backup "$(or $(BACKUP),backups/kartenrunde-$(shell date +%Y-%m-%d-%H%M%S).json.gz)"

restore: $(VENV)/.installed
	$(if $(BACKUP),,$(error Name the backup to restore: make restore BACKUP=backups/....json.gz))
	$(PY) manage.py migrate --noinput
	$(PY) manage.py createcachetable
	$(PY) manage.py restore "$(BACKUP)"

test: $(VENV)/.installed-dev
	$(PY) manage.py check --fail-level WARNING
	$(PY) manage.py makemigrations --check --dry-run
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy --strict scoring
	$(VENV)/bin/pytest

# The Django suite again against PostgreSQL (DATABASE_URL must point at a server).
test-postgres: $(VENV)/.installed-dev
	$(VENV)/bin/pytest tests/companion

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
	$(PY) bench/web.py
	$(PY) bench/wire.py
	$(PY) bench/home.py
	$(PY) bench/load.py  # PostgreSQL with BENCH_DATABASE_URL=postgres://... (dropped and created)
