"""The systems page's view and its readable link.

``/systems?dataset=fairness-adult-sex&obj=accuracy&obj=di_distance&norm=minmax&sigma=0.1
&show=SVM&show=Feldman-SVM&x=accuracy&y=di_distance&base=SVM&cand=Feldman-SVM&perms=5000
&seed=0`` reproduces the indicator table, radar, fronts and the test's settings (the test
itself runs when asked). Malformed values fall back to defaults, so a hand-edited link never
crashes the page.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar
from urllib.parse import urlencode

from ..systems import DEFAULT_PERMUTATIONS, REF_RULES
from .query import as_list, first, number, parsed
from .tabbed import TabbedView, opened_of

NORMALIZATIONS = ("minmax", "cdf")
DEFAULT_SHOWN = 5
MAX_PERMUTATIONS = 1_000_000


def _whole(text, default: int, low: int, high: int) -> int:
    return round(number(text, default, low, high))


def _choice(text: str, allowed, default: str) -> str:
    return text if text in allowed else default


@dataclass(frozen=True)
class SystemsView(TabbedView):
    """Everything the systems page shows is a function of this view (and the dataset):
    besides the dataset, tab and objectives (:class:`TabbedView`), the indicators' settings,
    the systems shown and the significance test's and power study's settings."""

    PAGE: ClassVar[str] = "systems"
    TABS: ClassVar[tuple[str, ...]] = ("indicators", "significance")
    normalize: str = "minmax"
    sigma: float = 0.1
    shown: tuple[str, ...] = ()            # systems on the radar and the front plot
    x: str = ""
    y: str = ""
    z: str = ""
    three_d: bool = False
    baseline: tuple[str, ...] = ()
    candidate: tuple[str, ...] = ()
    permutations: int = DEFAULT_PERMUTATIONS
    seed: int = 0
    ref_rule: str = "range"
    power_seeds: int = 5
    power_effect: float = 0.05
    power_noise: float = 0.05
    power_points: int = 1

    @classmethod
    def from_query(cls, query) -> SystemsView:
        """Read the view from a query string or a parsed query (``{key: str | list[str]}``)."""
        query = parsed(query)
        return cls(
            **TabbedView.shared_fields(query),
            normalize=_choice(first(query, "norm"), NORMALIZATIONS, "minmax"),
            sigma=number(first(query, "sigma"), 0.1, 1e-6, 10.0),
            shown=tuple(dict.fromkeys(as_list(query.get("show")))),
            x=first(query, "x"), y=first(query, "y"), z=first(query, "z"),
            three_d=first(query, "view") == "3d",
            baseline=tuple(dict.fromkeys(as_list(query.get("base")))),
            candidate=tuple(dict.fromkeys(as_list(query.get("cand")))),
            permutations=_whole(first(query, "perms"), DEFAULT_PERMUTATIONS, 1,
                                MAX_PERMUTATIONS),
            seed=_whole(first(query, "seed"), 0, 0, 2**32 - 1),
            ref_rule=_choice(first(query, "ref"), REF_RULES, "range"),
            power_seeds=_whole(first(query, "pseeds"), 5, 1, 200),
            power_effect=number(first(query, "peffect"), 0.05, 0.0, 10.0),
            power_noise=number(first(query, "pnoise"), 0.05, 0.0, 10.0),
            power_points=_whole(first(query, "ppoints"), 1, 1, 500),
        )

    def to_query(self) -> str:
        """The readable query string (without ``?``) that reproduces the view."""
        pairs = [("dataset", self.dataset), ("tab", self.tab)]
        pairs += [("obj", name) for name in self.objectives]
        pairs += [("norm", self.normalize), ("sigma", f"{self.sigma:g}")]
        pairs += [("show", name) for name in self.shown]
        pairs += [(key, value) for key, value in (("x", self.x), ("y", self.y), ("z", self.z))
                  if value]
        if self.three_d:
            pairs.append(("view", "3d"))
        pairs += [("base", name) for name in self.baseline]
        pairs += [("cand", name) for name in self.candidate]
        pairs += [("perms", str(self.permutations)), ("seed", str(self.seed)),
                  ("ref", self.ref_rule), ("pseeds", str(self.power_seeds)),
                  ("peffect", f"{self.power_effect:g}"), ("pnoise", f"{self.power_noise:g}"),
                  ("ppoints", str(self.power_points))]
        return urlencode(pairs, safe=":|,")

    def with_defaults(self, opened, systems: list[str]) -> SystemsView:
        """Fill what the link left out from the dataset's default view and its systems."""
        objectives = self.objectives_in(opened, at_least=2)
        shown = tuple(s for s in self.shown if s in systems) or tuple(systems[:DEFAULT_SHOWN])
        baseline = tuple(s for s in self.baseline if s in systems) or tuple(systems[:1])
        candidate = tuple(s for s in self.candidate if s in systems and s not in baseline) or \
            tuple(s for s in systems[1:2] if s not in baseline)
        x = self.x if self.x in objectives else (objectives[0] if objectives else "")
        y = self.y if self.y in objectives and self.y != x else next(
            (o for o in objectives if o != x), "")
        z = self.z if self.z in objectives and self.z not in (x, y) else next(
            (o for o in objectives if o not in (x, y)), "")
        return replace(self, dataset=opened.ref, objectives=objectives, shown=shown,
                       baseline=baseline, candidate=candidate, x=x, y=y, z=z,
                       three_d=self.three_d and bool(z))

    @classmethod
    def default_for(cls, table, systems: list[str], *, dataset: str = "",
                    default_view=None) -> SystemsView:
        """The view a link naming only the dataset opens, given the table's systems
        (``table``: an EvalTable or an opened dataset)."""
        return cls().with_defaults(opened_of(table, dataset, default_view), systems)
