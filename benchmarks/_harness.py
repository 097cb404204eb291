"""What every benchmark script shares: interleaved timing, result checks, machine load.

Rules (the ones a reviewer checks):

- ours and every peer run in one process, their repeats interleaved (round r runs every
  contender once, in an order rotated each round), so that a burst of load from other
  processes hits all of them alike instead of whichever ran during it;
- each contender is called once before timing (numba compilation and caches excluded);
- how many rounds: the same rule for ours and the peers (``interleaved``); the Pareto
  table asks for at least 7 rounds and 3 s of measured CPU time per contender (up to
  41 rounds and 40 s of wall time a row), so that a row of half-second calls gets more
  than three samples, and prints the number of rounds beside the spread;
- wall time (``perf_counter``) and CPU time of this process (``process_time``) are both
  recorded; tables show the median and the spread (interquartile range over the median);
- every case runs at least ``MIN_ROUNDS`` (5) interleaved rounds (a contender whose one
  call takes over 2 s of CPU excepted: it is timed once and says "1 call");
- the ratio ours / best peer is on median CPU time, and is printed only when the results
  agree: masks and layers exactly, volumes to 1e-12 relative. A differing result prints
  ``refused`` with the reason instead of a ratio. Beside it: the spread of the ratio (the
  interquartile range and the min-max of the per-round ratios, ours / peer within one
  round, so both saw the same load) and the ratio of median wall times;
- the machine load (1-minute load average over the number of CPUs) is printed before
  and after, so a reader can discount a run made on a busy machine.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

VOLUME_RTOL = 1e-12
MIN_ROUNDS = 5  # fewest interleaved rounds of a case (a contender timed once excepted)


@dataclass
class Timing:
    """Repeated wall and CPU seconds of one contender."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    @property
    def cpu_median(self) -> float:
        return statistics.median(self.cpu)

    @property
    def wall_median(self) -> float:
        return statistics.median(self.wall)

    def spread(self, values: list[float]) -> float:
        """Interquartile range over the median (0 for fewer than 4 repeats: min-max)."""
        med = statistics.median(values)
        if med <= 0:
            return 0.0
        if len(values) < 4:
            return (max(values) - min(values)) / med
        q1, _, q3 = statistics.quantiles(values, n=4)
        return (q3 - q1) / med

    @property
    def rounds(self) -> int:
        """Number of timed calls."""
        return len(self.cpu)

    @property
    def cpu_spread(self) -> float:
        """Interquartile range of the CPU times over their median."""
        return self.spread(self.cpu)

    def cell(self) -> str:
        """``cpu ms (±spread) / wall ms``, or ``cpu ms (1 call) / wall ms``."""
        spread = ("(1 call)" if len(self.cpu) == 1
                  else f"±{100 * self.spread(self.cpu):.0f}%")
        return f"{fmt_ms(self.cpu_median)} {spread} / {fmt_ms(self.wall_median)}"


def percentile(values, q: float) -> float:
    """The ``q``-th percentile of ``values`` by nearest rank (one definition for every
    benchmark's p90 / p95 / p99); NaN when there are none.

    >>> percentile([10, 20, 30, 40, 50], 90), percentile([7], 90)
    (50, 7)
    """
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def fmt_ms(seconds: float) -> str:
    ms = seconds * 1e3
    if ms < 0.1:
        return f"{ms:.4f}"
    if ms < 10:
        return f"{ms:.3f}"
    return f"{ms:.1f}"


def interleaved(contenders: dict[str, Callable[[], object]], *, repeats: int = 7,
                budget_seconds: float = 3.0, single_call_seconds: float = 2.0,
                min_cpu_seconds: float | None = None, max_rounds: int = 41,
                max_wall_seconds: float = 40.0,
                ) -> tuple[dict[str, Timing], dict[str, object]]:
    """Time every contender in interleaved rounds; return timings and results.

    Each contender is called once first (its result is kept for the checks). A
    contender whose first call took over ``single_call_seconds`` of CPU time is not
    repeated: that call is its time (a compiled peer's first call is warm; the table
    says "1 call"). Every other contender runs once per round, in an order rotated
    each round, so the same rule and the same load apply to ours and the peers.

    Two stopping rules:

    - ``min_cpu_seconds`` None (the default of the older scripts): ``repeats`` rounds,
      fewer (at least ``MIN_ROUNDS``) when one round would exceed ``budget_seconds`` of CPU
      time;
    - ``min_cpu_seconds`` given (the Pareto table): rounds go on until every repeated
      contender has at least ``repeats`` rounds AND ``min_cpu_seconds`` of measured
      CPU time, or ``max_rounds`` rounds were made (fast rows: a few milliseconds of
      calls, where more rounds only cost time), or ``max_wall_seconds`` of wall time
      passed (then at least ``MIN_ROUNDS`` rounds). Slow rows (hundreds of ms a call) get
      enough rounds for a median, which a 3-round sample did not give.
    """
    results, timings, names = {}, {}, []
    for name, func in contenders.items():
        cpu0 = time.process_time()
        wall0 = time.perf_counter()
        results[name] = func()
        if time.process_time() - cpu0 > single_call_seconds:  # compiling, or slow: once more
            cpu0 = time.process_time()
            wall0 = time.perf_counter()
            func()
        timings[name] = Timing([time.perf_counter() - wall0], [time.process_time() - cpu0])
        if timings[name].cpu[0] <= single_call_seconds:
            timings[name] = Timing()
            names.append(name)
    started = time.perf_counter()
    r = 0
    while names and not _enough(timings, names, r, started, repeats, budget_seconds,
                                min_cpu_seconds, max_rounds, max_wall_seconds):
        order = names[r % len(names):] + names[:r % len(names)]
        for name in order:
            cpu0 = time.process_time()
            wall0 = time.perf_counter()
            contenders[name]()
            timings[name].wall.append(time.perf_counter() - wall0)
            timings[name].cpu.append(time.process_time() - cpu0)
        r += 1
    return timings, results


def _enough(timings: dict[str, Timing], names: list[str], rounds: int, started: float,
            repeats: int, budget_seconds: float, min_cpu_seconds: float | None,
            max_rounds: int, max_wall_seconds: float) -> bool:
    """Whether ``interleaved`` has made enough rounds (its docstring states the rules)."""
    if min_cpu_seconds is None:
        if rounds >= max(repeats, MIN_ROUNDS):
            return True
        round_seconds = sum(timings[n].cpu[-1] for n in names) if rounds else 0.0
        return rounds >= MIN_ROUNDS and round_seconds * (rounds + 1) > budget_seconds
    if rounds >= max(max_rounds, MIN_ROUNDS):
        return True
    if rounds >= MIN_ROUNDS and time.perf_counter() - started >= max_wall_seconds:
        return True
    return rounds >= repeats and all(sum(timings[n].cpu) >= min_cpu_seconds for n in names)


def same_mask(a, b) -> str | None:
    """None when the boolean masks are equal, else the reason."""
    a, b = np.asarray(a, dtype=bool), np.asarray(b, dtype=bool)
    if a.shape != b.shape:
        return f"shapes {a.shape} and {b.shape}"
    diff = int((a != b).sum())
    return None if diff == 0 else f"{diff} rows differ"


def same_layers(a, b) -> str | None:
    """None when the layer numbers are equal (both 1-based), else the reason."""
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return f"shapes {a.shape} and {b.shape}"
    diff = int((a != b).sum())
    return None if diff == 0 else f"{diff} rows in other layers"


def same_volume(a: float, b: float, rtol: float = VOLUME_RTOL) -> str | None:
    """None when ``|a - b| <= rtol * max(|a|, |b|)``, else the reason."""
    a, b = float(a), float(b)
    scale = max(abs(a), abs(b))
    if abs(a - b) <= rtol * scale or a == b:
        return None
    return f"volumes differ by {abs(a - b) / scale:.1e} relative"


def ratio_cell(timings: dict[str, Timing], ours: str, checks: dict[str, str | None]) -> str:
    """``ours / best agreeing peer`` on median CPU time, or why there is no ratio."""
    refused = {name: why for name, why in checks.items() if why is not None}
    agreeing = [name for name, why in checks.items() if why is None]
    if not agreeing:
        reasons = "; ".join(f"{n}: {w}" for n, w in refused.items()) or "no peer"
        return f"refused ({reasons})"
    best = min(agreeing, key=lambda name: timings[name].cpu_median)
    ratio = timings[ours].cpu_median / timings[best].cpu_median
    note = "".join(f"; {n} refused: {w}" for n, w in refused.items())
    return f"{ratio:.2f} (vs {best}) [{ratio_spread(timings[ours], timings[best])}]{note}"


def round_ratios(ours: Timing, peer: Timing) -> list[float]:
    """Per-round CPU ratios ours / peer (the two timed in the same round), sorted; empty
    when either was timed once."""
    if ours.rounds < 2 or ours.rounds != peer.rounds:
        return []
    return sorted(a / b for a, b in zip(ours.cpu, peer.cpu) if b > 0)


def ratio_spread(ours: Timing, peer: Timing) -> str:
    """The spread of the ratio and the wall-time ratio, e.g.
    ``round ratios IQR 0.52-0.60, min-max 0.45-0.70, 9 rounds; wall 0.55``."""
    wall = ours.wall_median / peer.wall_median if peer.wall_median > 0 else float("nan")
    ratios = round_ratios(ours, peer)
    if not ratios:
        return f"one call, no spread; wall {wall:.2f}"
    q1, q3 = ((ratios[0], ratios[-1]) if len(ratios) < 4
              else statistics.quantiles(ratios, n=4)[::2])
    return (f"round ratios IQR {q1:.2f}-{q3:.2f}, min-max {ratios[0]:.2f}-{ratios[-1]:.2f}, "
            f"{len(ratios)} rounds; wall {wall:.2f}")


def load_line() -> str:
    """One line on the machine: CPUs and the 1-, 5- and 15-minute load averages."""
    one, five, fifteen = os.getloadavg()
    cpus = os.cpu_count() or 1
    return (f"machine: {cpus} CPUs, load average {one:.2f} / {five:.2f} / {fifteen:.2f} "
            f"(1 / 5 / 15 min; {one / cpus:.1f} runnable per CPU)")


def markdown(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def median_p90(values, *, scale: float = 1.0, digits: int = 0) -> str:
    """``"median / p90"`` of ``values`` times ``scale``, with ``digits`` decimals: the cell
    the A/B benchmarks print for each side's samples.

    >>> median_p90([0.10, 0.12, 0.30], scale=1e3)
    '120 / 300'
    """
    values = list(values)
    median, p90 = statistics.median(values) * scale, percentile(values, 90) * scale
    return f"{median:.{digits}f} / {p90:.{digits}f}"


def print_result(title: str, head: list[str], rows: list[list[str]], agreed: str) -> None:
    """The end of an A/B benchmark's output: its title, its table, and what the two sides
    were checked to agree on, with the machine's load after the run."""
    print(f"\n{title}")
    print(markdown(head, rows))
    print(f"{agreed}; {load_line()}")
