"""Longest work first for ``--dist loadgroup``: the order in which the two workers of
``make test`` take their work.

pytest-xdist's loadgroup scheduler hands out its work units (an ``xdist_group``, or a single
test) largest first by *number of tests*, then in collection order. A group of 15 quick tests
then goes before a single test of 50 s, and a long test collected late (the wheel build, a
gunicorn restart) starts when the other worker has almost nothing left: the run ends with one
worker idle. Here the units go out longest first by *measured time* (tests/durations.json,
written by ``tools/test_durations.py`` from a run's ``--durations=0`` report), the classic
longest-processing-time rule, so the short tests fill the gaps at the end and both workers end
together. A test missing from the file (new, or under the file's threshold) counts
:data:`UNKNOWN_SECONDS`; a stale file changes only the order, never which tests run or where a
group's tests go together.
"""

from __future__ import annotations

import json
from pathlib import Path

from xdist.scheduler import LoadGroupScheduling

DURATIONS = Path(__file__).with_name("durations.json")
#: What a test missing from DURATIONS is taken to cost (most tests take a few milliseconds).
UNKNOWN_SECONDS = 0.05


def load_durations(path: Path = DURATIONS) -> dict[str, float]:
    """``{node id: seconds}`` from ``path``; empty when the file is missing or unreadable (the
    order then falls back to xdist's own)."""
    try:
        return {str(k): float(v) for k, v in json.loads(path.read_text())["seconds"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def plain_id(nodeid: str) -> str:
    """The node id without the ``@group`` suffix xdist adds under ``--dist loadgroup``."""
    scope = LoadGroupScheduling._split_scope(None, nodeid)
    return nodeid[:-len(scope) - 1] if scope != nodeid else nodeid


def unit_seconds(nodeids, durations: dict[str, float]) -> float:
    """The expected time of one work unit: the sum over its tests."""
    return sum(durations.get(plain_id(n), UNKNOWN_SECONDS) for n in nodeids)


class LongestFirstGroupScheduling(LoadGroupScheduling):
    """:class:`xdist.scheduler.LoadGroupScheduling` whose queue is sorted longest first by
    measured time before the first unit goes out (the grouping itself is xdist's)."""

    def __init__(self, config, log=None, durations: dict[str, float] | None = None):
        super().__init__(config, log)
        self.durations = load_durations() if durations is None else durations
        self._ordered = False

    def _assign_work_unit(self, node) -> None:
        if not self._ordered:
            self._ordered = True
            units = sorted(self.workqueue.items(),
                           key=lambda unit: -unit_seconds(unit[1], self.durations))
            self.workqueue.clear()
            self.workqueue.update(units)
        super()._assign_work_unit(node)
