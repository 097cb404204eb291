"""Why the Systems radar says nothing with many objectives, and what to choose instead.

With K objectives scaled to the box [0, 1]^K (ideal 0, reference point 1), a system's HV is
the volume its front dominates: a product of K shares. A row half way to the ideal on every
objective dominates 0.5^K of the box (0.0002 with K = 12), so every system's HV is near 0.
OS multiplies K ratios of extents (the system front's extent over that of all systems' front,
per objective): one objective on which a system's front is narrow makes it near 0. And with
many objectives almost every row is on its own system's front, so ONVG^ and ONVGR are near 1
for every system. The radar of such a view is the same flat shape for every system
(issue 33, F2: the fairness Adult/sex upload, 12 objectives). :func:`flat_radar_note` says
so in words and names a smaller choice: the pair of the table's first view
(:func:`~copa_dash.services.default_view.first_view`: a quality against a cost or a fairness
measure), which are on the radar apart.
"""

from __future__ import annotations

import numpy as np

from ..data.schema import EvalTable
from .default_view import first_view
from .systems import SystemsView

#: below this, an HV or OS reads as 0 on the radar (its axis runs 0 to 1)
FLAT = 0.01
#: from this many objectives on, a flat radar is put down to their number
MANY = 4
#: the median ONVGR from which "almost every row is on its system's front" is said
ON_FRONT = 0.9


def flat_radar_note(view: SystemsView, table: EvalTable) -> str | None:
    """A plain sentence when every system's HV and OS are below :data:`FLAT` with at least
    :data:`MANY` objectives (the radar cannot tell the systems apart), else None.

    Parameters
    ----------
    view : SystemsView
        From :func:`~copa_dash.services.systems.systems_view`.
    table : EvalTable
        The table of the view (its first view names the smaller choice).

    Returns
    -------
    str or None
        Why HV and OS are near 0, and which objectives to choose instead.

    Notes
    -----
    HV of a front in [0, 1]^K with reference point 1 is at most the product of the shares
    (1 - x_k) of its best row per objective, so with K = 12 and shares of 1/2 it is
    0.5^12 = 0.000244; OS is a product of K extent ratios in [0, 1] (METHODS.md,
    "Per-system indicators").
    """
    k = len(view.objectives)
    hv = np.nan_to_num(np.asarray(view.indicators.hv, dtype=float), nan=0.0)
    os_ = np.nan_to_num(np.asarray(view.indicators.os, dtype=float), nan=0.0)
    if k < MANY or not hv.size or hv.max() >= FLAT or os_.max() >= FLAT:
        return None
    pair = _smaller_choice(view, table)
    onvgr = np.asarray(view.indicators.onvgr, dtype=float)
    # said only when the computed ONVGR shows it: most rows of most systems on their front
    on_front = (", and almost every row is on its system's front (ONVGR near 1)"
                if onvgr.size and np.nanmedian(onvgr) >= ON_FRONT else "")
    return (f"The radar looks the same for every system because of the {k} objectives, not "
            f"the systems: every HV is below {FLAT:g} (largest {hv.max():.4f}) and every OS "
            f"below {FLAT:g}. HV multiplies {k} shares of the box (a row half way to the best "
            f"on every objective covers 0.5^{k} = {0.5 ** k:.2g} of it), OS multiplies {k} "
            f"ratios of extents{on_front}. Choose fewer objectives under Objectives, e.g. "
            f"{' and '.join(pair)}: HV and OS then tell the systems apart.")


def _smaller_choice(view: SystemsView, table: EvalTable) -> tuple[str, str]:
    """The first view's pair when both are chosen here, else the first two chosen."""
    first = first_view(table)
    if first.x in view.objectives and first.y in view.objectives and first.x != first.y:
        return first.x, first.y
    return view.objectives[0], view.objectives[1]


def constant_objective_note(view: SystemsView) -> str | None:
    """A plain sentence naming the objectives that take one value within every system (of
    two rows or more), which make every such system's OS 0, else None.

    OS multiplies, per objective, the extent of the system's front over that of the front
    of all systems: an objective that is a property of the system (the llm-perf export's
    "Open LLM Score", one number per model, its quantisation configs the rows) has no
    extent within a system, so OS is 0 whatever the other objectives do (tester s14 G5).

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> v = NS(objectives=("score", "speed"), systems=("a", "b"),
    ...        system_of_row=np.array([0, 0, 1, 1]),
    ...        raw=np.array([[70., 1.], [70., 2.], [60., 5.], [60., 3.]]),
    ...        indicators=NS(os=np.array([0.0, 0.0])))
    >>> print(constant_objective_note(v))    # doctest: +ELLIPSIS
    OS is 0 for 2 of 2 systems because 'score' takes one value within each ...
    """
    raw = np.asarray(view.raw, dtype=float)
    of_row = np.asarray(view.system_of_row)
    several = [s for s in range(len(view.systems)) if np.count_nonzero(of_row == s) >= 2]
    if len(several) < 2:
        return None
    constant = [name for k, name in enumerate(view.objectives)
                if all(_one_value(raw[of_row == s, k]) for s in several)]
    # the count is read from the computed OS, not inferred from the constant objective
    zero_os = int(np.count_nonzero(np.asarray(view.indicators.os, dtype=float)[several] == 0))
    if not constant or not zero_os:
        return None
    names = " and ".join(repr(n) for n in constant)
    verb = "takes" if len(constant) == 1 else "take"
    return (f"OS is 0 for {zero_os} of {len(view.systems)} systems because {names} "
            f"{verb} one value within each of them (a property of the system, not of its "
            "rows): OS multiplies the extents of a system's front on every objective. Leave "
            f"{names} out under Objectives to compare how the systems spread.")


def _one_value(values: np.ndarray) -> bool:
    """At most one distinct value among the non-missing ``values``."""
    values = values[~np.isnan(values)]
    return values.size == 0 or bool(values.min() == values.max())
