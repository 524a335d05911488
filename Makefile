# Two commands on a fresh machine: `make run` and `make test` (each sets itself up).
SHELL := /bin/bash
# This machine's environment sets PYTHONDONTWRITEBYTECODE=1: no process kept the bytecode it
# compiled, so every one compiled Django, WeasyPrint and the site again, 1.9 s a start
# instead of 0.65 s (the tests start about 150: servers, workers, manage.py), and pytest
# rewrote every test module in each worker. Python's default is restored for what make runs.
unexport PYTHONDONTWRITEBYTECODE
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
CHROMIUM := /usr/bin/chromium
DEV_ENV := DEBUG=1
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: setup system checkers run serve check-deploy test lint pytest soak bench load load-games fuzz clean

## setup: create .venv and install the pinned dependencies (again when pyproject.toml changes)
setup: $(VENV)/.installed

# uv installs exactly what uv.lock pins, every indirect dependency too (`--locked`: a lock
# older than pyproject.toml stops the setup; `uv lock` writes it anew), in a third of pip's
# time (9 s instead of 22 s on a fresh machine); pip installs pyproject.toml's pins when uv
# cannot (a registry only pip's configuration names).
$(VENV)/.installed: pyproject.toml uv.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check --upgrade pip==26.3 uv==0.13.9
	VIRTUAL_ENV=$(VENV) $(BIN)/uv sync --quiet --locked --extra dev --compile-bytecode \
	  --python $(BIN)/python --inexact \
	  || $(BIN)/pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $@

## checkers: the Nu HTML checker (npm vnu-jar, run with Java) for the browser tests' markup
## checks; axe-core is vendored in tests/browser/vendor
VNU := node_modules/vnu-jar/build/dist/vnu.jar
checkers: $(VNU)

$(VNU): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	test -f $@ && touch $@

## system: Debian packages the site and its tests use: Chromium for the browser tests
## (never a downloaded browser), Pango, HarfBuzz and a font for WeasyPrint's PDFs, nginx
## in front of gunicorn for `make serve`.
## EXTRA_PACKAGES adds more in the same apt run (.ci/run: postgresql for its second pass).
SYSTEM_PACKAGES := chromium libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core nginx
EXTRA_PACKAGES ?=
system:
	@missing=$$(for p in $(SYSTEM_PACKAGES) $(EXTRA_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	command -v java >/dev/null 2>&1 || missing="$$missing default-jre-headless"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  echo "Installing Debian packages:" $$missing; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

## run: migrate, load demo data and serve on http://$(HOST):$(PORT) (SQLite, DEBUG on), with
## the task worker beside the server (deploy/serve.py --dev starts and stops both, and starts
## the worker again within a second if it dies; TASK_WORKERS=N runs N of them)
run: setup system
	$(DEV_ENV) $(BIN)/python manage.py migrate --noinput
	$(DEV_ENV) $(BIN)/python manage.py load_demo
	$(DEV_ENV) $(BIN)/python deploy/serve.py --dev --host $(HOST) --port $(PORT)

## serve: the site as in production: gunicorn, WhiteNoise, DEBUG off, settings from the
## environment (SQLite unless DATABASE_URL). TLS is the reverse proxy's job: behind HTTPS set
## SECURE_COOKIES=1 SECURE_SSL_REDIRECT=1 SECURE_HSTS_SECONDS=31536000 SECURE_PROXY_SSL_HEADER=1
## TRUSTED_PROXIES=1, EMAIL_HOST (SMTP) and SILENCED_SYSTEM_CHECKS= (empty); the defaults
## below serve plain HTTP on loopback.
# gunicorn's worker processes: one a core (each runs 8 threads). On 2 cores, 2 workers cost
# 25-31 % less processor time a request than 4 under the mixed load (docs/performance.md,
# "Twice the load").
WORKERS ?= $(shell nproc 2>/dev/null || echo 2)
# deploy/serve.py starts Debian's nginx on HOST:PORT in front of gunicorn (on a Unix
# socket) and stops them together: nginx reads each request whole (headers within 10 s),
# so clients sending headers or bodies slowly wait in nginx, not in gunicorn's threads
# (120 of them kept a normal request waiting 18 s against bare gunicorn;
# tests/site/test_serve_stack.py). gunicorn itself runs threaded workers
# (config/gunicorn.conf.py) with a deadline on request headers (config/serving.py), and a
# second pool at a lower priority serves PDFs and tables generated (HEAVY_WORKERS, default
# 2; deploy/serve.py).
# Without EMAIL_HOST password-reset mails are printed to this terminal: fine on your own
# machine, so allowed here (ALLOW_CONSOLE_EMAIL=1) and its deploy warning onefinity.W001
# silenced with the HTTPS ones. With SILENCED_SYSTEM_CHECKS= (production) the deploy check
# fails the start until EMAIL_HOST is set.
SERVE_ENV = DEBUG=0 STATIC_MANIFEST=1 \
	SECRET_KEY="$${SECRET_KEY:-$$(cat .secret_key)}" \
	ALLOWED_HOSTS="$${ALLOWED_HOSTS:-127.0.0.1,localhost}" \
	SECURE_COOKIES="$${SECURE_COOKIES:-0}" \
	ALLOW_CONSOLE_EMAIL="$${ALLOW_CONSOLE_EMAIL:-1}" \
	SILENCED_SYSTEM_CHECKS="$${SILENCED_SYSTEM_CHECKS-security.W004,security.W008,security.W012,security.W016,onefinity.W001}"
serve: setup system .secret_key check-deploy
	$(SERVE_ENV) $(BIN)/python manage.py migrate --noinput
	$(SERVE_ENV) $(BIN)/python manage.py collectstatic --noinput -v0
	$(SERVE_ENV) $(BIN)/python deploy/serve.py --host $(HOST) --port $(PORT) --workers $(WORKERS)

## check-deploy: Django's deploy check with the environment `make serve` runs with; any
## warning stops the start
check-deploy: setup .secret_key
	$(SERVE_ENV) $(BIN)/python manage.py check --deploy --fail-level WARNING

# A secret key for this checkout, made once; production sets SECRET_KEY instead.
.secret_key:
	@umask 077 && $(PYTHON) -c "import secrets; print(secrets.token_urlsafe(50))" > $@

## lint: ruff (lint and format) and strict mypy on the pure rules engine
lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

## test: every check and every test
test: setup system checkers lint pytest

# On every core (pytest-xdist; each worker has its own test database). A module that starts
# its own server (a stack of nginx, gunicorn and workers) runs on one worker (loadgroup and
# xdist_group marks): split over two, each started it. PYTEST_WORKERS=0 runs in one
# process, e.g. to debug a test with -s.
pytest: setup
	$(BIN)/pytest -n $${PYTEST_WORKERS:-auto} --dist loadgroup $(PYTEST_ARGS)

## load: 100 users for 60 s against a running `make serve` (see docs/performance.md)
load: setup
	$(BIN)/python loadtest/run.py --base http://$(HOST):$(PORT) --users 100 --seconds 60

## load-games: 200 games played at once, both phones of each polling and stepping, against
## a stack of `make serve`'s own started on a free port (see docs/performance.md)
load-games: setup system
	$(BIN)/python benchmarks/games_load.py --games $${GAMES:-200} --seconds $${SECONDS_MAX:-120}

## fuzz: hostile and careless input against a running `make serve`, then every page of every
## owner read back; fails on any answer of 500 or above (see docs/security.md)
fuzz: setup
	$(BIN)/python loadtest/fuzz.py --base http://$(HOST):$(PORT) --cases $${CASES:-5000} --seconds $${SECONDS_MAX:-900}

## soak: the generator's property tests over SEEDS seeds per symmetry (1,000 by default:
## 3,000 tables, each checked again by the second exact method), and a thirtieth of them
## per terrain box and symmetry (tests/data/boxes); `make test` runs 150 (5 per box)
soak: setup
	HYPOTHESIS_PROFILE=soak GENERATOR_SEEDS=$${SEEDS:-1000} $(BIN)/pytest -n $${PYTEST_WORKERS:-auto} -p no:randomly tests/tablegen/test_generator_properties.py tests/tablegen/test_box_tables.py -k "many_seeds or realistic_box or any_coverage"

## bench: the benchmarks whose figures go into docs/performance.md
bench: setup
	$(BIN)/python benchmarks/engine.py
	$(BIN)/python benchmarks/forcebuilder.py
	$(BIN)/python benchmarks/tables.py
	$(BIN)/python benchmarks/boxes.py --budget 4 --advise
	$(BIN)/python benchmarks/events.py
	$(BIN)/python benchmarks/swiss.py
	$(BIN)/python benchmarks/games.py

clean:
	rm -rf $(VENV) node_modules .pytest_cache .mypy_cache .ruff_cache *.egg-info test-artifacts
