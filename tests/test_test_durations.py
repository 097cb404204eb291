"""tools/test_durations.py: the times tests/xdist_schedule.py orders the work by."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

import test_durations


def test_a_cpu_plugin_folder_gives_each_tests_whole_wall_without_its_group(tmp_path):
    rows = [{"id": "tests/e2e/test_a.py::test_x@browser-test_a", "wall": 12.34, "cpu": 3.0},
            {"id": "tests/test_b.py::test_y[1]", "wall": 0.2, "cpu": 0.2}]
    (tmp_path / "timeline-gw0.jsonl").write_text("\n".join(json.dumps(r) for r in rows[:1]))
    (tmp_path / "timeline-gw1.jsonl").write_text(json.dumps(rows[1]) + "\n")
    assert test_durations.timeline_durations(tmp_path) == {
        "tests/e2e/test_a.py::test_x": 12.34, "tests/test_b.py::test_y[1]": 0.2}
    out = tmp_path / "durations.json"
    assert test_durations.main([str(tmp_path), "--out", str(out)]) == 0
    assert json.loads(out.read_text())["seconds"] == {"tests/e2e/test_a.py::test_x": 12.3}


def test_a_folder_without_timelines_is_refused(tmp_path):
    assert test_durations.main([str(tmp_path), "--out", str(tmp_path / "d.json")]) == 2
    assert not (tmp_path / "d.json").exists()
