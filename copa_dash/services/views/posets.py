"""The posets page's view and its readable link.

``/posets?dataset=dmop&crit=migd|migd_stage1&ties=drop&missing=drop&mode=exact&k=3``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar
from urllib.parse import urlencode

from ..posets import MISSING, MODES, TIES, default_criteria
from .query import first, number, parsed
from .tabbed import opened_of

# what the page's mode asks of the service's ``exact`` (None: exact when its predicted work is
# within the instance's budget, else approximate)
EXACT_OF_MODE = {"auto": None, "exact": True, "approx": False}


@dataclass(frozen=True)
class PosetsView:
    """Everything the page shows is a function of this view (and the dataset)."""

    PAGE: ClassVar[str] = "posets"
    dataset: str = ""
    method: str = ""
    task: str = ""
    criteria: tuple[str, ...] = ()
    ties: str = "drop"
    missing: str = "drop"
    mode: str = "auto"
    tolerance: float = 0.01
    k: int = 3

    @classmethod
    def from_query(cls, query) -> PosetsView:
        """Read the view from a query string or a parsed query; malformed values fall back
        to defaults."""
        query = parsed(query)
        ties, missing, mode = (first(query, "ties", "drop"), first(query, "missing", "drop"),
                               first(query, "mode", "auto"))
        return cls(
            dataset=first(query, "dataset"), method=first(query, "method"),
            task=first(query, "task"),
            criteria=tuple(dict.fromkeys(c for c in first(query, "crit").split("|") if c)),
            ties=ties if ties in TIES else "drop",
            missing=missing if missing in MISSING else "drop",
            mode=mode if mode in MODES else "auto",
            tolerance=min(0.5, max(0.001, number(first(query, "tol"), 0.01))),
            k=int(min(50, max(1, number(first(query, "k"), 3)))))

    def to_query(self) -> str:
        """The readable query string (without ``?``) that reproduces the view; a method,
        task or criteria left unchosen is left out (``method=&task=`` said nothing, and read
        as a broken link; issue 33).

        >>> PosetsView(dataset="open-llm-leaderboard-v2").to_query()
        'dataset=open-llm-leaderboard-v2&ties=drop&missing=drop&mode=auto&tol=0.01&k=3'
        """
        chosen = [("method", self.method), ("task", self.task),
                  ("crit", "|".join(self.criteria))]
        pairs = [("dataset", self.dataset), *((k, v) for k, v in chosen if v),
                 ("ties", self.ties), ("missing", self.missing), ("mode", self.mode)]
        if self.mode != "exact":
            pairs.append(("tol", f"{self.tolerance:g}"))
        pairs.append(("k", str(self.k)))
        return urlencode(pairs, safe="|")

    @property
    def exact(self) -> bool | None:
        """What the mode asks of the posets service's ``exact``."""
        return EXACT_OF_MODE[self.mode]

    def with_defaults(self, opened) -> PosetsView:
        """Fill what the link left out from the dataset's roles and default view."""
        table = opened.table
        names = list(table.objective_names)
        criteria = tuple(c for c in self.criteria if c in names) or tuple(
            c for c, _ in default_criteria(table, opened.default_view))
        columns = list(table.frame.columns)
        method = self.method if self.method in columns else (table.roles.system or "")
        task = self.task if self.task in columns else (table.roles.task or "")
        return replace(self, dataset=opened.ref, criteria=criteria, method=method, task=task)

    @classmethod
    def default_for(cls, table, *, dataset: str = "", default_view=None) -> PosetsView:
        """The view a link naming only the dataset opens (``table``: an EvalTable or an
        opened dataset)."""
        return cls().with_defaults(opened_of(table, dataset, default_view))
