"""``copa_dash.robustness(df, ...)``: the notebook's "How sure is this pick?".

The same options and defaults as :func:`copa_dash.select` (the view), and the same answer as
``copa-dash robustness`` and the Explore page's panel: one call of
:func:`copa_dash.services.robustness.robustness`. Kept apart from :mod:`.notebook`, which is
long; it reuses that module's readers of the table and the view.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

import pandas as pd

from .notebook import _preferences, _row_filter, _table
from .services import robustness as service


@dataclass(frozen=True)
class Robustness:
    """How sure the pick is: ``.pick``, ``.acceptability`` (a DataFrame: rank1, top3 and their
    standard errors, index the ids), ``.leave_one_out`` ({objective: id}), ``.flips`` (in
    words), ``.local_stays``, ``.membership`` / ``.missing`` (dicts or None) and ``.result``
    (the service's frozen result; ``.result.to_json()`` is the CLI's ``--json``)."""

    result: service.Robustness

    @property
    def pick(self) -> str:
        return self.result.pick

    @property
    def acceptability(self) -> pd.DataFrame:
        rows = self.result.acceptability
        return pd.DataFrame({k: [r[k] for r in rows] for k in ("rank1", "top3", "rank1_se",
                                                               "top3_se")},
                            index=pd.Index([r["id"] for r in rows], name="id"))

    @property
    def leave_one_out(self) -> dict:
        return dict(self.result.leave_one_out)

    @property
    def flips(self) -> list[str]:
        return [f["text"] for f in self.result.flips]

    @property
    def local_stays(self) -> float:
        return float(self.result.local["stays"])

    @property
    def membership(self) -> dict | None:
        return self.result.membership

    @property
    def missing(self) -> dict | None:
        return self.result.missing

    def _repr_html_(self) -> str:
        lines = [self.result.verdict(), "What flips it: " + service.flip_sentence(self.result),
                 "Leave one objective out: " + "; ".join(
                     f"without {k}: {v}" for k, v in self.leave_one_out.items())]
        body = "".join(f"<div>{escape(line)}</div>" for line in lines)
        table = self.acceptability.head(10).to_html(escape=True,
                                                    float_format=lambda v: f"{v:.3f}")
        return f"<div><strong>How sure is this pick? {escape(self.pick)}</strong>{body}{table}</div>"


def robustness(data, objectives=None, *, id=None, focus=None, alpha=None, weights=None, p=None,
               where=(), isin=None, all_rows=False, population="all", samples=10_000, seed=0,
               radius=service.LOCAL_RADIUS, uncertainty=None) -> Robustness:
    """How sure the view's pick is, as ``copa-dash robustness``.

    Parameters
    ----------
    data, objectives, id, focus, alpha, weights, p, where, isin, all_rows, population
        The view, as for :func:`copa_dash.select`.
    samples, seed : int
        Random weightings (Dirichlet(1)) and their seed.
    radius : float
        The local check: no weight moves by more than this.
    uncertainty : dict, optional
        ``{metric: (kind, column)}``, kind ``"stderr"``, ``"std"`` or ``"ci95"``.

    Raises
    ------
    InvalidInputError
        With the message the command line prints.
    """
    table, info, _ = _table(data, objectives, id)
    prefs = _preferences(table, info, explicit=bool(objectives), focus=focus, alpha=alpha,
                         weights=weights, p=p, method="copa", population=population)
    row_filter = _row_filter(table, info, where, isin, all_rows)
    return Robustness(service.robustness(table, prefs, row_filter, samples=samples, seed=seed,
                                         radius=radius, uncertainty=uncertainty))
