"""Which rows the explorer's scatter draws on a big table, and how to say so.

A browser draws a few thousand SVG points in about a second; a million points (each with its
hover data) make the page take tens of seconds to open and every slider move sluggish. The
rows that matter for the choice are few: the front (non-dominated rows passing the
constraints), the pick and the rows the page marks (baseline picks, the alpha sweep's
picks). Those are always drawn. The other rows (dominated rows, rows failing a constraint)
are background: up to :data:`BACKGROUND_ROWS` of them every one is drawn; above it a fixed
random sample of :data:`SAMPLE_ROWS` is drawn and the figure states the share.

The sample is deterministic (a generator seeded with :data:`SEED`, drawn over the rows'
positions): the same table and view always show the same points, so a reload or a shared
link looks the same, and the points do not jump between slider moves.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

BACKGROUND_ROWS = 5_000   # up to this many background rows, every row is drawn
# Above it, a sample of this many. Drawn as SVG (no WebGL below figures.WEBGL_ROWS, nor in
# headless Chromium), every point is a DOM node: on the 100,000 x 8 table of
# bench_explore_browser.py (front 2,787 rows), Plotly.newPlot of the front figure alone in
# headless Chromium took 1.5-2.0 s of browser CPU with 5,000 background rows and 1.0 s with
# 2,000 (two repeats each, alternated, load 12).
SAMPLE_ROWS = 2_000
SEED = 20_231


@dataclass(frozen=True)
class ScatterRows:
    """The positions the scatter draws, per trace, and what was left out.

    Attributes
    ----------
    failing, passing, front
        Sorted row positions drawn as "fails a constraint", "passes the constraints"
        (dominated) and "on the front".
    background_total
        How many background rows (failing or dominated, not kept) the view has.
    background_shown
        How many of them are drawn.
    """

    failing: np.ndarray
    passing: np.ndarray
    front: np.ndarray
    background_total: int
    background_shown: int

    @property
    def sampled(self) -> bool:
        return self.background_shown < self.background_total

    @property
    def drawn(self) -> int:
        return len(self.failing) + len(self.passing) + len(self.front)

    def note(self) -> str:
        """The sentence the figure shows when it samples, else ``""``."""
        if not self.sampled:
            return ""
        share = self.background_shown / self.background_total
        return (f"showing {self.background_shown:,} of {self.background_total:,} dominated or "
                f"failing rows ({share:.1%}, a fixed random sample); the front and the pick "
                "are always drawn")


def scatter_rows(front, eligible, keep=(), *, budget: int = BACKGROUND_ROWS) -> ScatterRows:
    """Split the rows into the scatter's traces, sampling the background above ``budget``.

    Parameters
    ----------
    front, eligible
        Boolean masks over the rows: non-dominated, passing the constraints.
    keep
        Positions always drawn (the pick, the baselines' and the sweep's picks), in the
        trace their masks put them in.
    budget
        Most background rows drawn whole; above it a sample of ``min(budget, SAMPLE_ROWS)``.

    Returns
    -------
    ScatterRows
    """
    front = np.asarray(front, dtype=bool)
    eligible = np.asarray(eligible, dtype=bool)
    kept = np.zeros(front.shape[0], dtype=bool)
    kept[np.asarray(list(keep), dtype=np.int64)] = True
    on_front = eligible & front
    background = np.flatnonzero(~on_front & ~kept)
    total = int(background.size)
    shown = total
    if total > budget:
        shown = min(budget, SAMPLE_ROWS)
        chosen = np.random.default_rng(SEED).choice(total, size=shown, replace=False)
        background = background[chosen]
    drawn = kept & ~on_front
    drawn[background] = True
    return ScatterRows(failing=np.flatnonzero(drawn & ~eligible),
                       passing=np.flatnonzero(drawn & eligible),
                       front=np.flatnonzero(on_front), background_total=total,
                       background_shown=int(shown))
