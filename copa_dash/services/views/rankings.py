"""The rankings page's view and its readable link.

``/rankings?dataset=decodingtrust&crit=mean,norm,copa:1,copa:inf&ties=break&top=25&pin=GPT-4``
reproduces the bump chart; ``tab=benchmark&metric=metric_error&ref=RandomForest`` the
benchmark view. Malformed values fall back to defaults, so a hand-edited link never crashes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar
from urllib.parse import urlencode

from ..rankings import DEFAULT_CRITERIA
from .explore import value_text
from .query import as_list, first, number, parsed
from .tabbed import TabbedView, opened_of

DEFAULT_TOP = 25
MAX_TOP = 200


@dataclass(frozen=True)
class RankingsView(TabbedView):
    """Everything the rankings page shows is a function of this view (and the dataset):
    besides the dataset, tab and objectives (:class:`TabbedView`), the criteria ranked by, the
    pins and sets, and the benchmark tab's metric, reference and time."""

    PAGE: ClassVar[str] = "rankings"
    TABS: ClassVar[tuple[str, ...]] = ("ranks", "benchmark")
    criteria: tuple[str, ...] = ()
    focus: tuple[str, ...] = ()              # empty: equal weights
    alpha: float = 0.5
    ties: str = "break"
    group: str = "system"
    top: int = DEFAULT_TOP
    by: str = ""
    pins: tuple[str, ...] = ()
    sets: tuple[tuple[str, tuple[str, ...]], ...] = ()
    metric: str = ""
    reference: str = ""
    time: str = ""
    task_type: str = ""
    significance: float = 0.05

    @classmethod
    def from_query(cls, query) -> RankingsView:
        """Read the view from a query string or a parsed query (``{key: str | list[str]}``)."""
        query = parsed(query)
        criteria = [c.strip() for item in as_list(query.get("crit")) for c in item.split(",")
                    if c.strip()]
        sets = []
        for item in as_list(query.get("in")):
            name, sep, values = item.partition(":")
            if sep and name:
                sets.append((name, tuple(v for v in values.split("|") if v != "")))
        ties = first(query, "ties", "break")
        group = first(query, "group", "system")
        return cls(
            **TabbedView.shared_fields(query),
            criteria=tuple(dict.fromkeys(criteria)),
            focus=tuple(as_list(query.get("focus"))),
            alpha=min(1.0, max(0.0, number(first(query, "alpha", "0.5"), 0.5))),
            ties=ties if ties in ("break", "keep") else "break",
            group=group if group in ("system", "rows") else "system",
            top=int(min(MAX_TOP, max(1, number(first(query, "top", str(DEFAULT_TOP)),
                                               DEFAULT_TOP)))),
            by=first(query, "by"),
            pins=tuple(as_list(query.get("pin"))),
            sets=tuple(sets),
            metric=first(query, "metric"),
            reference=first(query, "ref"),
            time=first(query, "time"),
            task_type=first(query, "type"),
            significance=min(0.5, max(0.001, number(first(query, "sig", "0.05"), 0.05))),
        )

    def to_query(self) -> str:
        """The readable query string (without ``?``) that reproduces the view."""
        pairs = [("dataset", self.dataset), ("tab", self.tab), ("crit", ",".join(self.criteria))]
        pairs += [("obj", name) for name in self.objectives]
        if self.focus:
            pairs += [("focus", f) for f in self.focus] + [("alpha", f"{self.alpha:g}")]
        pairs += [("ties", self.ties), ("group", self.group), ("top", str(self.top))]
        if self.by:
            pairs.append(("by", self.by))
        pairs += [("pin", p) for p in self.pins]
        pairs += [("in", f"{name}:{'|'.join(values)}") for name, values in self.sets]
        for key, value in (("metric", self.metric), ("ref", self.reference),
                           ("time", self.time), ("type", self.task_type)):
            if value:
                pairs.append((key, value))
        if self.significance != 0.05:
            pairs.append(("sig", f"{self.significance:g}"))
        return urlencode(pairs, safe=":|,")

    def with_defaults(self, opened) -> RankingsView:
        """Fill what the link left out from the dataset's default view and roles."""
        table = opened.table
        view = opened.default_view
        names = list(table.objective_names)
        objectives = self.objectives_in(opened)
        criteria = self.criteria or DEFAULT_CRITERIA
        sets = self.sets
        if not sets and view is not None and view.filters:
            sets = tuple((column, tuple(value_text(v) for v in spec))
                         for column, spec in view.filters.items() if not isinstance(spec, dict))
        metric = self.metric if self.metric in names else (
            next((f for f in (view.focus if view is not None else ()) if f in names), names[0]))
        others = [n for n in names if n != metric]
        timed = sorted((n for n in others if "time" in n.lower()),
                       key=lambda n: "infer" not in n.lower())   # AMLB plots inference time
        time = self.time if self.time in others else next(iter(timed + others), "")
        return replace(self, dataset=opened.ref, objectives=objectives,
                       criteria=tuple(criteria),
                       focus=tuple(f for f in self.focus if f in objectives), sets=sets,
                       metric=metric, time=time)

    @classmethod
    def default_for(cls, table, *, dataset: str = "", default_view=None) -> RankingsView:
        """The view a link naming only the dataset opens (``table``: an EvalTable or an
        opened dataset)."""
        return cls().with_defaults(opened_of(table, dataset, default_view))
