"""The validation -> test page's view and its readable link.

``/generalization?dataset=NAME&metric=M:DIR&ref=V,V&system=S&budget=B&seed=S&a=S&b=S``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import ClassVar
from urllib.parse import urlencode

from ...core.errors import InvalidInputError
from ...core.numbers import read_numbers
from ..generalization import label_text
from .query import first, parsed


def parse_ref(text) -> tuple[float, ...]:
    """``"0,0"`` -> ``(0.0, 0.0)``; empty text -> ``()`` (the default point).

    Raises
    ------
    InvalidInputError
        If a part is not a finite number.
    """
    text = "" if text is None else str(text).strip()
    if not text:
        return ()
    values = read_numbers(text, what="reference point")
    if not all(math.isfinite(v) for v in values):
        raise InvalidInputError(f"reference point {text!r}: every number must be finite")
    return values


def format_ref(ref) -> str:
    return ",".join(f"{float(v):g}" for v in ref)


@dataclass(frozen=True)
class GeneralizationView:
    """Everything the page shows is a function of this view and the dataset."""

    PAGE: ClassVar[str] = "generalization"
    dataset: str = ""
    metrics: tuple[tuple[str, str], ...] = ()   # (metric, "min" | "max")
    ref: tuple[float, ...] = ()                 # empty: the default reference point
    system: str = ""
    budget: str = ""
    seed: str = ""
    a: str = ""
    b: str = ""

    @classmethod
    def from_query(cls, query) -> GeneralizationView:
        """The view from a query string or a parsed query; malformed parts fall back to
        defaults."""
        query = parsed(query)
        metrics = []
        raw = query.get("metric") or []
        for item in [raw] if isinstance(raw, str) else raw:
            name, sep, direction = str(item).rpartition(":")
            if sep and name and direction in ("min", "max"):
                metrics.append((name, direction))
        try:
            ref = parse_ref(first(query, "ref"))
        except InvalidInputError:
            ref = ()
        return cls(dataset=first(query, "dataset"), metrics=tuple(metrics), ref=ref,
                   **{k: first(query, k) for k in ("system", "budget", "seed", "a", "b")})

    def to_query(self) -> str:
        """The readable query string (without ``?``) that reproduces the view."""
        pairs = [("dataset", self.dataset)] + [("metric", f"{m}:{d}") for m, d in self.metrics]
        if self.ref:
            pairs.append(("ref", format_ref(self.ref)))
        pairs += [(k, getattr(self, k)) for k in ("system", "budget", "seed", "a", "b")
                  if getattr(self, k)]
        return urlencode(pairs, safe=":|,")

    def with_defaults(self, report) -> GeneralizationView:
        """Fill the search and the compared systems from the report when the link left them
        out (or named ones the report does not have): the first system, the largest budget."""
        systems = [label_text(v) for v in report.systems]
        budgets = [label_text(v) for v in report.budgets]
        seeds = [label_text(v) for v in report.seeds]
        system = self.system if self.system in systems else systems[0]
        budget = self.budget if self.budget in budgets else budgets[-1]
        seed = self.seed if self.seed in seeds else seeds[0]
        a = self.a if self.a in systems else systems[0]
        b = self.b if self.b in systems and self.b != a else next(
            (s for s in systems if s != a), a)
        metrics = tuple(zip(report.spec.metrics, report.spec.directions))
        return replace(self, metrics=metrics, system=system, budget=budget, seed=seed, a=a, b=b)

    @classmethod
    def default_for(cls, report, *, dataset: str = "") -> GeneralizationView:
        """The view a link naming only the dataset opens, given the dataset's
        validation -> test report (:func:`~copa_dash.services.generalization`'s)."""
        return cls(dataset=dataset).with_defaults(report)
