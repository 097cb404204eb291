"""The benchmarks' sampling rule (benchmarks/_harness.py): same rounds for every contender."""

import time

from benchmarks._harness import Timing, interleaved, ratio_cell, round_ratios, same_layers


def _burner(seconds, log, name):
    """A contender that burns ``seconds`` of CPU time and records when it ran."""
    def run():
        log.append(name)
        start = time.process_time()
        while time.process_time() - start < seconds:
            pass
        return name
    return run


def test_slow_contenders_get_rounds_until_each_has_the_cpu_time():
    log = []
    timings, results = interleaved(
        {"ours": _burner(0.004, log, "ours"), "peer": _burner(0.008, log, "peer")},
        repeats=3, min_cpu_seconds=0.06, max_rounds=100, max_wall_seconds=30)
    assert results == {"ours": "ours", "peer": "peer"}
    # ours needs ~15 rounds of 4 ms; the peer (8 ms a call) has its 60 ms after ~8: both run 15+
    assert timings["ours"].rounds == timings["peer"].rounds >= 15
    assert sum(timings["ours"].cpu) >= 0.06
    assert timings["ours"].rounds < 30                      # and stops once it has them
    rounds = log[2:]                                        # after the two warm-up calls
    assert rounds[:4] == ["ours", "peer", "peer", "ours"]   # the order rotates each round


def test_fast_rows_stop_at_the_round_cap_and_slow_rows_at_the_wall_cap():
    timings, _ = interleaved({"a": lambda: 1, "b": lambda: 2}, repeats=7,
                             min_cpu_seconds=10.0, max_rounds=12)
    assert timings["a"].rounds == timings["b"].rounds == 12
    timings, _ = interleaved({"a": _burner(0.05, [], "a")}, repeats=7, min_cpu_seconds=10.0,
                             max_wall_seconds=0.01)
    assert timings["a"].rounds == 5                         # the wall cap keeps 5 rounds


def test_without_a_cpu_target_the_older_rule_holds():
    timings, _ = interleaved({"a": lambda: 1, "b": lambda: 2}, repeats=5)
    assert timings["a"].rounds == timings["b"].rounds == 5
    timings, _ = interleaved({"a": _burner(0.03, [], "a")}, repeats=9, budget_seconds=0.1)
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
