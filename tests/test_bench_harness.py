"""The benchmarks' sampling rule (benchmarks/_harness.py): same rounds for every contender."""

import pytest

from benchmarks import _harness
from benchmarks._harness import Timing, interleaved, ratio_cell, round_ratios, same_layers


class _Clock:
    """The harness's clocks, advanced only by the burners: the rule is tested on exact CPU
    times. A real clock made this test depend on the machine: right after numpy is imported,
    an OpenBLAS thread spins for a moment and ``process_time`` counted it, so a 4 ms burner
    measured 8 ms and the rounds stopped early when the test ran alone."""

    def __init__(self):
        self.now = 0.0

    def process_time(self):
        return self.now

    def perf_counter(self):
        return self.now


@pytest.fixture(autouse=True)
def clock(monkeypatch):
    fake = _Clock()
    monkeypatch.setattr(_harness, "time", fake)
    return fake


def _burner(seconds, log, name, clock):
    """A contender that takes ``seconds`` of CPU (and wall) time and records when it ran."""
    def run():
        log.append(name)
        clock.now += seconds
        return name
    return run


def test_slow_contenders_get_rounds_until_each_has_the_cpu_time(clock):
    log = []
    timings, results = interleaved(
        {"ours": _burner(0.004, log, "ours", clock), "peer": _burner(0.008, log, "peer", clock)},
        repeats=3, min_cpu_seconds=0.06, max_rounds=100, max_wall_seconds=30)
    assert results == {"ours": "ours", "peer": "peer"}
    # ours needs ~15 rounds of 4 ms; the peer (8 ms a call) has its 60 ms after ~8: both run 15+
    assert timings["ours"].rounds == timings["peer"].rounds >= 15
    assert sum(timings["ours"].cpu) >= 0.06
    assert timings["ours"].rounds < 30                      # and stops once it has them
    rounds = log[2:]                                        # after the two warm-up calls
    assert rounds[:4] == ["ours", "peer", "peer", "ours"]   # the order rotates each round


def test_fast_rows_stop_at_the_round_cap_and_slow_rows_at_the_wall_cap(clock):
    timings, _ = interleaved({"a": lambda: 1, "b": lambda: 2}, repeats=7,
                             min_cpu_seconds=10.0, max_rounds=12)
    assert timings["a"].rounds == timings["b"].rounds == 12
    timings, _ = interleaved({"a": _burner(0.05, [], "a", clock)}, repeats=7, min_cpu_seconds=10.0,
                             max_wall_seconds=0.01)
    assert timings["a"].rounds == 5                         # the wall cap keeps 5 rounds


def test_without_a_cpu_target_the_older_rule_holds(clock):
    timings, _ = interleaved({"a": lambda: 1, "b": lambda: 2}, repeats=5)
    assert timings["a"].rounds == timings["b"].rounds == 5
    timings, _ = interleaved({"a": _burner(0.03, [], "a", clock)}, repeats=9, budget_seconds=0.1)
    assert timings["a"].rounds == 5                         # one round * 6 > the budget
    timings, _ = interleaved({"a": lambda: 1}, repeats=3)
    assert timings["a"].rounds == 5                         # never fewer than 5 rounds


def test_the_ratio_comes_with_its_spread_over_paired_rounds_and_the_wall_ratio():
    ours = Timing(wall=[2.0, 2.0, 4.0, 2.0, 2.0], cpu=[1.0, 2.0, 1.0, 1.0, 3.0])
    peer = Timing(wall=[4.0, 4.0, 4.0, 4.0, 4.0], cpu=[2.0, 2.0, 2.0, 4.0, 2.0])
    # per round: 0.5, 1.0, 0.5, 0.25, 1.5 -> sorted 0.25 0.5 0.5 1.0 1.5
    assert round_ratios(ours, peer) == [0.25, 0.5, 0.5, 1.0, 1.5]
    cell = ratio_cell({"ours": ours, "peer": peer}, "ours", {"peer": None})
    assert cell == ("0.50 (vs peer) [round ratios IQR 0.38-1.25, min-max 0.25-1.50, "
                    "5 rounds; wall 0.50]")


def test_no_ratio_when_the_results_differ():
    timings = {"ours": Timing([1.0] * 5, [1.0] * 5), "peer": Timing([2.0] * 5, [2.0] * 5)}
    why = same_layers([1, 2, 2], [1, 2, 3])
    assert why == "1 rows in other layers"
    assert ratio_cell(timings, "ours", {"peer": why}) == (
        "refused (peer: 1 rows in other layers)")
