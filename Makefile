# Nile Highlands Tea: `make run` starts the whole shop, `make test` runs every test.
SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
PORT ?= 8000
CHROMIUM ?= /usr/bin/chromium
PYTEST_ARGS ?= -n 2
export PORT

.PHONY: run install test deps dev-deps frontend messages pdf-libs pdf-tools chromium migrate seed check clean bench lighthouse po lint screenshots

run: install migrate seed  ## start web, worker and beat in the foreground (Ctrl-C stops all)
	$(VENV)/bin/honcho start -f Procfile -p $(PORT)

install: deps pdf-libs frontend messages  ## venv, Python and npm packages, front-end build, translations
	$(PY) manage.py collectstatic --noinput -v 0

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip

deps: $(VENV)/bin/python
	$(PIP) install -q -r requirements.txt

dev-deps: $(VENV)/bin/python
	$(PIP) install -q -r requirements-dev.txt

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund

frontend: node_modules/.package-lock.json
	npm run build --silent

messages: $(VENV)/bin/python
	@command -v msgfmt >/dev/null || { [ "$$(id -u)" = 0 ] && apt-get update -qq && apt-get install -y -qq gettext >/dev/null; }
	$(PY) manage.py compilemessages -v 0 --ignore=.venv --ignore=node_modules

migrate:
	$(PY) manage.py migrate --noinput

seed:  ## the demo catalogue, only into a new shop (not after it was loaded once, nor with products or orders)
	$(PY) manage.py seed_demo --if-empty

pdf-libs:  ## Debian's Pango (WeasyPrint lays out the invoices with it) and Noto fonts (Arabic glyphs)
	@{ ldconfig -p | grep -q libpango-1.0 && ldconfig -p | grep -q libpangoft2-1.0 && fc-list | grep -q "Noto Sans Arabic"; } || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-noto-core >/dev/null; \
	  else echo "Pango or the Noto fonts are missing: run 'sudo apt-get install libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-noto-core'"; exit 1; fi; }

pdf-tools:  ## poppler-utils: the tests render invoice pages to PNG (pdftoppm) to look at them
	@command -v pdftoppm >/dev/null || { [ "$$(id -u)" = 0 ] && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils >/dev/null; } || echo "poppler-utils missing: the invoice picture tests are skipped"

chromium:  ## Debian's Chromium for the browser tests
	@test -x $(CHROMIUM) || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-core >/dev/null; \
	  else echo "Chromium is missing: run 'sudo apt-get install chromium'"; exit 1; fi; }

test: dev-deps pdf-libs pdf-tools frontend messages chromium  ## lint, then the whole suite; non-zero on any failure
	$(MAKE) --no-print-directory lint
	$(VENV)/bin/pytest $(PYTEST_ARGS)

lint: dev-deps  ## ruff (pyflakes, pycodestyle, isort, no function-level imports) and mypy
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

screenshots: dev-deps frontend messages chromium  ## the storefront screenshot set in test-artifacts/screenshots/
	$(VENV)/bin/pytest -q tests/browser/test_screenshot_set.py

check:
	$(PY) manage.py check
	$(PY) manage.py makemigrations --check --dry-run

bench: dev-deps frontend messages
	$(PY) bench/run.py

lighthouse: deps frontend messages chromium  ## Lighthouse (mobile) over the storefront in EN and AR, 5 runs a page
	CHROME_PATH=$(CHROMIUM) $(PY) bench/lighthouse.py $(LIGHTHOUSE_ARGS)

clean:
	rm -rf static/dist node_modules $(VENV)

APPS := catalog orders accounts backoffice importer
po:  ## refresh the Arabic .po catalogues: the project's (shop/, templates/) and each app's
	$(PY) manage.py makemessages -l ar --ignore=.venv --ignore=node_modules --ignore=static --ignore=var $(APPS:%=--ignore=%)
	for app in $(APPS); do mkdir -p $$app/locale && (cd $$app && ../$(PY) ../manage.py makemessages -l ar); done
