"""Whether the COPA pick is tied with other rows, and which rule of METHODS.md chose it.

COPA's selection breaks a tie on the criterion C silently (smaller C at p = 8, then smaller
sum of u, then table order; values equal to a relative ``TIE_RTOL`` count as tied). The
pick card and the decision report say so: "tied with X (and N others)" and the rule. The
core decides the tie (:func:`copa_dash.core.criteria.copa_tie`); this module only narrows
the rows it looks at and words the rule.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.criteria import TIE_RTOL, TIEBREAK_P, copa_tie

#: a looser band than the core's, so that the rows handed to the core hold every tied row
_PREFILTER_RTOL = 1e-9

RULE_WORDS = {
    "p8": (f"the smaller criterion at p = {TIEBREAK_P:g}, which weighs the other objectives "
           "as well as the worst one"),
    "sum": (f"the smaller sum of top-x% (u) over the objectives, as the tied rows are equal "
            f"at p = {TIEBREAK_P:g} too"),
    "order": (f"table order (the row that comes first in the table), as the tied rows are "
              f"equal at p = {TIEBREAK_P:g} and in their sum of top-x% too"),
}


@dataclass(frozen=True)
class PickTie:
    """The rows tied with the pick (table order, the pick left out) and the rule that chose
    the pick (a key of :data:`RULE_WORDS`)."""

    others: tuple[str, ...]
    positions: tuple[int, ...]
    rule: str

    @property
    def rule_words(self) -> str:
        return RULE_WORDS[self.rule]


def pick_tie(problem, scores, pick: int) -> PickTie | None:
    """The tie of ``pick`` on a COPA view, or None when it has none (or the view is not
    scored by COPA).

    Parameters
    ----------
    problem : SelectionProblem
        The view (u, eligible rows, weights, p, ids).
    scores : ndarray, shape (N,)
        C of every row (the explorer's scores), used to narrow the rows the core examines.
    pick : int
        The selected row.

    Notes
    -----
    Tied means C equal to the pick's within a relative ``TIE_RTOL`` (1e-12), the selection's
    own tolerance (``core/_kernels/criteria.py``). O(N) plus the core on the narrowed rows.
    """
    prefs = problem.preferences
    if getattr(prefs, "method", "copa") != "copa":
        return None
    scores = np.asarray(scores, dtype=float)
    best = scores[pick]
    near = np.flatnonzero(problem.eligible & (scores <= best * (1.0 + _PREFILTER_RTOL)))
    if near.size < 2:
        return None
    tie = copa_tie(np.ascontiguousarray(problem.u[near]), prefs.weight_vector(), p=prefs.p)
    if tie.rule == "none":
        return None
    rows = near[tie.tied]
    others = [int(r) for r in rows if r != pick]
    return PickTie(others=tuple(str(problem.ids[r]) for r in others),
                   positions=tuple(others), rule=tie.rule)


__all__ = ["RULE_WORDS", "TIE_RTOL", "PickTie", "pick_tie"]
