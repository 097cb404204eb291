# The two commands the README opens with. Both do all set-up on a fresh machine.
PYTHON ?= python3
PIP ?= $(PYTHON) -m pip

.PHONY: run test install install-test browser bench

install:
	$(PIP) install -q -e .

run: install
	$(PYTHON) app.py

# Debian's chromium + chromium-driver for the browser tests and PDF reports, poppler-utils to
# look at the PDFs in the tests, redis-server for the scale-out tests (a real Redis beside a
# real Celery worker) and nginx to check deploy/nginx.conf (nginx -t); root on CI and dev
# machines. apt waits up to 10 minutes for another apt/dpkg process to release its lock.
APT_INSTALL = DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq
BROWSER_PACKAGES = chromium chromium-driver poppler-utils redis-server nginx-light
browser:
	@if ! command -v chromedriver >/dev/null 2>&1 || ! command -v pdftoppm >/dev/null 2>&1 \
			|| ! command -v redis-server >/dev/null 2>&1 || ! command -v nginx >/dev/null 2>&1; then \
		if [ "$$(id -u)" = "0" ]; then apt-get -o DPkg::Lock::Timeout=600 update -qq && $(APT_INSTALL) $(BROWSER_PACKAGES) >/dev/null; \
		else sudo apt-get -o DPkg::Lock::Timeout=600 update -qq && sudo $(APT_INSTALL) $(BROWSER_PACKAGES) >/dev/null; fi; \
	fi

install-test: browser
	$(PIP) install -q -e ".[test]"

test: install-test
	$(PYTHON) -m pytest

bench:
	$(PIP) install -q -e ".[test,bench]"
	$(PYTHON) benchmarks/run_all.py
