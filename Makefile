# Two commands for a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
export DJANGO_SETTINGS_MODULE := companion.settings

.PHONY: run test check lint typecheck pytest test-postgres messages bench

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

run: $(VENV)/.installed
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo --if-empty
	$(PY) manage.py runserver 127.0.0.1:8000

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

bench: $(VENV)/.installed-dev
	$(PY) bench/engine.py
	$(PY) bench/history.py
