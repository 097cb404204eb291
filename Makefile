# The two commands the README opens with. Both do all set-up on a fresh machine.
PYTHON ?= python3
PIP ?= $(PYTHON) -m pip

.PHONY: run test install install-test browser bench lock lock-upgrade test-latest

# Every install goes through the lock: constraints.txt pins each dependency of the package and
# of all its extras (made by `make lock`); pyproject.toml keeps the library's loose ranges.
CONSTRAINTS = -c constraints.txt

# Through the lock as install-test is (tools/install_locked.py: uv configured as pip is, pip
# where uv cannot). Not silent: on a new machine ~150 MB of wheels come down (about a minute
# with uv, two with pip), so the recipe says so first; uv prints what it resolved, fetched and
# installed, and pip (--progress) its downloads and "Successfully installed".
install:
	@echo "make: installing copa-dash and its dependencies (about 1-2 minutes on a new machine, a few seconds once installed)..."
	$(PYTHON) tools/install_locked.py --installer $(INSTALLER) --progress $(CONSTRAINTS) -e .

run: install
	$(PYTHON) -m copa_dash serve

# Re-resolve the lock after a change of dependencies (keeps the pins that still fit: ~1-4 s
# with uv's cache warm); lock-upgrade moves every pin to the newest version.
UV_PACKAGE = $(PYTHON) -c "import uv" 2>/dev/null || $(PIP) install -q "uv>=0.5"
lock:
	@$(UV_PACKAGE)
	$(PYTHON) tools/lock.py

lock-upgrade:
	@$(UV_PACKAGE)
	$(PYTHON) tools/lock.py --upgrade

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

# tools/install_locked.py installs through the lock with uv, given pip's indexes, find-links,
# constraints and certificate (`pip config list`), and falls back to pip (then
# tools/compile_installed.py's .pyc compilation on every core) wherever uv is missing, fails
# or a pip setting has no uv twin. Fresh venv, empty caches: ~50 CPU s instead of pip's ~80,
# resolving and fetching in seconds instead of minutes; the .pyc compilation (~30 CPU s) is
# most of what is left (docs/testing.md, session 21). INSTALLER=pip skips uv.
INSTALLER ?= auto
install-test: browser
	$(PYTHON) tools/install_locked.py --installer $(INSTALLER) $(CONSTRAINTS) -e ".[test]"

# One worker per core (pytest-xdist); the scale-out tests and each module of browser tests stay
# on one worker with their servers (xdist_group marks, tests/conftest.py), the rest go to
# whichever worker is free. The slowest tests are listed at the end to keep the split honest.
PYTEST_WORKERS ?= auto
test: install-test
	$(PYTHON) -m pytest -n $(PYTEST_WORKERS) --dist loadgroup --durations=15

# The newest release of every dependency, in a venv of its own (.venv-latest), without the
# lock: drift shows here before it reaches `make test`.
LATEST_VENV ?= .venv-latest
test-latest: browser
	$(PYTHON) -m venv $(LATEST_VENV)
	$(LATEST_VENV)/bin/python -m pip install -q --upgrade pip
	$(LATEST_VENV)/bin/python -m pip install -q --upgrade --upgrade-strategy eager -e ".[test]"
	$(LATEST_VENV)/bin/python -m pytest

bench:
	$(PIP) install -q $(CONSTRAINTS) -e ".[test,bench]"
	$(PYTHON) benchmarks/run_all.py

# compose.yaml's stack built and run for real (tests/docker, opt-in; docs/hosting.md has the
# times): the base image from Debian packages (deploy/base-image.sh, if missing), the images,
# proxy + 2 replicas + worker + Redis on loopback ports, a replica killed under load. Needs
# root with docker.io, docker-compose (or the compose plugin) and mmdebstrap installed, and an
# engine running (`dockerd --storage-driver vfs &` where overlayfs is not available).
.PHONY: docker-base docker-test docker-ci
docker-base:
	bash deploy/base-image.sh

docker-test: install-test
	$(PYTHON) -m pytest -m docker -s -p no:cacheprovider tests/docker

# CI's last step (.ci/run, after `make test`): an engine started for it, then docker-test.
docker-ci:
	bash deploy/docker-engine.sh $(MAKE) docker-test
