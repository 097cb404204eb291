# The two commands the README opens with. Both do all set-up on a fresh machine.
PYTHON ?= python3
PIP ?= $(PYTHON) -m pip

.PHONY: run test install install-test browser bench

install:
	$(PIP) install -q -e .

run: install
	$(PYTHON) app.py

# Debian's chromium + chromium-driver for the browser tests and PDF reports, poppler-utils to
# look at the PDFs in the tests (root on CI and dev machines).
browser:
	@if ! command -v chromedriver >/dev/null 2>&1 || ! command -v pdftoppm >/dev/null 2>&1; then \
		if [ "$$(id -u)" = "0" ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver poppler-utils >/dev/null; \
		else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver poppler-utils >/dev/null; fi; \
	fi

install-test: browser
	$(PIP) install -q -e ".[test]"

test: install-test
	$(PYTHON) -m pytest

bench:
	$(PIP) install -q -e ".[test,bench]"
	$(PYTHON) benchmarks/run_all.py
