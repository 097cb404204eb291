"""tools/test_timeline.py: each worker's idle tail, gaps, clock waits and set-up, from the rows
tools/test_cpu.py writes."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[1] / "tools"


def _load():
    sys.path.insert(0, str(TOOLS))                     # test_timeline imports test_cpu
    try:
        spec = importlib.util.spec_from_file_location("test_timeline_tool",
                                                      TOOLS / "test_timeline.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(TOOLS))


timeline = _load()


def _row(node_id, start, wall, cpu, setup=(0.0, 0.0), teardown=(0.0, 0.0)):
    return {"id": node_id, "start": start, "wall": wall, "cpu": cpu, "load": 1.0,
            "setup_wall": setup[0], "setup_cpu": setup[1],
            "teardown_wall": teardown[0], "teardown_cpu": teardown[1]}


def _write(folder: Path, worker: str, rows) -> None:
    (folder / f"timeline-{worker}.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def test_the_idle_tail_gaps_units_clock_waits_and_setup_are_read_from_the_rows(tmp_path):
    # gw0: a 100 s browser group of two tests, then a 2 s test after a 1 s gap; ends at 103
    _write(tmp_path, "gw0", [
        _row("tests/e2e/test_a.py::t1@browser-test_a", 1000.0, 60.0, 50.0, setup=(5.0, 3.0)),
        _row("tests/e2e/test_a.py::t2@browser-test_a", 1060.0, 40.0, 30.0, teardown=(2.0, 1.0)),
        _row("tests/core/test_c.py::t", 1101.0, 2.0, 2.0)])
    # gw1: one test sleeping 20 s (wall 20, CPU 0.5) that ends at 1020: idle 83 s at the end
    _write(tmp_path, "gw1", [_row("tests/hosting/test_slow.py::t", 1000.0, 20.0, 0.5)])
    workers = timeline.read_timeline(tmp_path)
    assert sorted(workers) == ["gw0", "gw1"]
    text = timeline.report(workers)
    lines = text.splitlines()
    assert lines[0].startswith("4 tests on 2 workers: 103 s from the first test's start")
    assert "82 CPU s, so 41 s a worker" in lines[0]
    assert "gw0         3   102.0   82.0     1.0           0.0         0.0" in lines
    assert "gw1         1    20.0    0.5     0.0           0.0        83.0" in lines
    assert " 100.0   80.0      2      0.0  gw0     @browser-test_a" in lines
    clock = lines.index("wall-cpu s  wall s  cpu s  load  test")
    assert lines[clock + 1].split()[0] == "19.5" and lines[clock + 1].endswith("test_slow.py::t")
    assert "       5.0        3.0            2.0           1.0  tests/e2e/test_a.py" in lines


def test_units_are_runs_of_one_group_or_one_file():
    rows = [_row("a.py::x@g", 0, 1, 1), _row("a.py::y@g", 1, 1, 1), _row("b.py::z", 2, 1, 1),
            _row("b.py::w[p@q]", 3, 1, 1)]
    assert [(u["unit"], u["tests"]) for u in timeline.units(rows)] == [("@g", 2), ("b.py", 2)]


def test_an_empty_folder_is_exit_2_with_a_message(tmp_path, capsys):
    assert timeline.main([str(tmp_path)]) == 2
    assert "no timeline-*.jsonl" in capsys.readouterr().err
