"""copa-dash's exact hypervolume on moocore's public testsuite (data nobody here wrote)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np

from copa_dash.core.hypervolume import hypervolume

FIXTURE = Path(__file__).with_name("moocore_hv_testsuite.json.gz")


def _load():
    with gzip.open(FIXTURE, "rt", encoding="utf-8") as fh:
        return json.load(fh)


def _matches(value: float, expected: str, rtol: float = 1e-10) -> bool:
    """1e-10 relative; a value written as leading digits + "..." may also be off by one
    unit of its last digit (the testsuite's prefix match)."""
    target = float(expected.rstrip("."))
    slack = rtol * max(abs(target), abs(value))
    if expected.endswith("..."):
        digits = expected.rstrip(".")
        decimals = len(digits.split(".", 1)[1]) if "." in digits else 0
        slack = max(slack, 10.0 ** -decimals)
    return abs(value - target) <= slack


def test_fixture_covers_three_to_nine_objectives():
    data = _load()
    ks = {len(case["ref"]) for case in data["cases"]}
    assert len(data["cases"]) > 400 and ks >= {3, 4, 5, 6, 7, 8, 9}
    assert data["licence"] == "MPL-2.0" and len(data["commit"]) == 40


def test_every_expected_hypervolume_matches_to_1e10():
    data = _load()
    sets = [np.asarray(s, dtype=np.float64) for s in data["point_sets"]]
    wrong = []
    for case in data["cases"]:
        points = np.vstack([sets[i] for i in case["sets"]])
        value = hypervolume(points, case["ref"])
        if not _matches(value, case["expected"]):
            wrong.append(f"{case['name']}: {value!r} != {case['expected']}")
    assert not wrong, "\n".join(wrong[:20])


def test_matcher_refuses_a_wrong_value():
    assert _matches(1.0 + 5e-11, "1.0") and not _matches(1.0 + 1e-9, "1.0")
    assert _matches(0.97781937383069, "0.9778193738306...")
    assert not _matches(0.9778193, "0.9778193738306...")
