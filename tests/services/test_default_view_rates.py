"""Tester G7: a maximised throughput (tokens/s, queries/s) is a quality, never called a cost
by the first view; a time per token (minimised) still is."""

import pytest

from copa_dash.data.schema import Objective
from copa_dash.services.default_view import is_cost


@pytest.mark.parametrize("name, direction, unit, cost", [
    ("Decode (tokens/s)", "max", "tokens/s", False),
    ("Prefill (tokens/s)", "max", "tokens/s", False),
    ("qps", "max", "queries/s", False),
    ("Decode latency (s/token)", "min", "s/token", True),
    ("Prefill (s)", "min", "s", True),
    ("Memory (MB)", "min", "MB", True)])
def test_a_maximised_rate_is_not_a_cost(name, direction, unit, cost):
    assert is_cost(Objective(name, direction, unit)) is cost
