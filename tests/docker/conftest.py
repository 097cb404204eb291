"""The Docker tests are opt-in: they run only when ``-m`` names the ``docker`` marker
(``pytest -m docker tests/docker``, ``make docker-test``); otherwise they are skipped, so
neither ``make test`` nor a plain ``pytest`` builds images."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config, items):
    if "docker" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="opt-in: builds and runs the compose stack "
                                   "(pytest -m docker tests/docker, make docker-test)")
    for item in items:
        if item.get_closest_marker("docker"):
            item.add_marker(skip)
