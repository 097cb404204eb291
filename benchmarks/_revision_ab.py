"""What the benchmarks that time this checkout against an earlier git revision share: the
earlier revision's files in a temporary folder (the two sides), their common command line,
one running app and one headless Chromium a side (stopped whatever happens), the alternating
order of the sides in each round, and the untimed warm-up round after which every server
is left to go idle."""

from __future__ import annotations

import argparse
import io
import subprocess
import tarfile
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FAIRNESS = ROOT / "tests" / "data" / "messy" / "fairness_adult_sex.csv"


def revision_files(rev: str, *paths: str) -> Path:
    """The files of git revision ``rev`` (all, or only ``paths``) in a new temporary folder:
    an app directory, or with ``"copa_dash"`` a package folder for ``PYTHONPATH``."""
    folder = Path(tempfile.mkdtemp(prefix="copa-peer-"))
    data = subprocess.run(["git", "archive", rev, *paths], cwd=ROOT, check=True,
                          capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        archive.extractall(folder, filter="data")
    return folder


def peer_sides(peer_rev: str) -> dict[str, Path]:
    """The two sides, this checkout first: ``{"this checkout": ROOT, "peer REV": a folder
    with the files of ``peer_rev``}``."""
    return {"this checkout": ROOT, f"peer {peer_rev}": revision_files(peer_rev)}


def revision_ab_arguments(description: str, *, rounds: int) -> argparse.ArgumentParser:
    """``[FILE] [--peer-rev REV] [--rounds N]``: the table (the 172-column fairness export
    by default), the revision to compare with (``HEAD~1``) and the interleaved rounds."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("file", nargs="?", type=Path, default=FAIRNESS)
    parser.add_argument("--peer-rev", default="HEAD~1")
    parser.add_argument("--rounds", type=int, default=rounds)
    return parser


@contextmanager
def sides_running(sides: dict[str, Path], prefix: str, prepare=None):
    """``(apps, benches)``: for each side (``{name: app folder}``) a running app on a free
    port with its own state folder, and a headless Chromium at 1400 x 1000 driving it; both
    stopped on leaving, whatever happens. ``prepare(name, port, state, folder)``, when given,
    runs before a side's app starts (to save an upload into its state)."""
    from benchmarks._app import RunningApp, free_port, headless_chromium
    from benchmarks.bench_every_control import Bench

    apps, benches = {}, {}
    try:
        for name, folder in sides.items():
            port, state = free_port(), Path(tempfile.mkdtemp(prefix=prefix))
            if prepare is not None:
                prepare(name, port, state, folder)
            apps[name] = RunningApp(port, state=state, app_dir=folder)
            benches[name] = Bench(apps[name], headless_chromium(1400, 1000), 1, 1)
        yield apps, benches
    finally:
        for bench in benches.values():
            bench.driver.quit()
        for app in apps.values():
            app.stop()


def round_order(sides, n: int) -> list[str]:
    """The sides in round ``n``'s order: the first side first in even rounds, last in odd
    ones, so neither always runs on a machine the other just warmed.

    >>> round_order({"a": 1, "b": 2}, 0), round_order({"a": 1, "b": 2}, 1)
    (['a', 'b'], ['b', 'a'])
    """
    return list(sides) if n % 2 == 0 else list(sides)[::-1]


def settle(app, *, window: float = 3.0, limit: float = 900.0) -> None:
    """Wait until ``app`` (a ``RunningApp``) uses under 5% of a CPU over ``window`` seconds:
    a new tree's kernels compile in the server's background thread after the first use, and
    would be timed."""
    started = time.perf_counter()
    while time.perf_counter() - started < limit:
        cpu = app.cpu_seconds()
        time.sleep(window)
        if app.cpu_seconds() - cpu < 0.05 * window:
            return


def warm_rounds(sides, rounds: int, apps) -> Iterator[tuple[int, list[str]]]:
    """``(n, order)`` for round -1, an untimed warm-up, then rounds 0 to ``rounds - 1``;
    ``order`` is the sides' order in that round (:func:`round_order`). Once the warm-up
    round's work is done, every app of ``apps`` (``{side: RunningApp}``) is left to
    :func:`settle` before round 0 starts."""
    for n in range(-1, rounds):
        yield n, round_order(sides, n)
        if n < 0:
            for app in apps.values():
                settle(app)
