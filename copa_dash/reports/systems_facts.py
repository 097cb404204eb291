"""Everything a systems report states: per-system indicators, the radar, each system's front
and (when two sides are given) the permutation test of a Pareto improvement with its verdict,
p-value, permutations and seed, from :mod:`copa_dash.services.systems`."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..services import systems
from ..services.significance_verdict import verdict
from ..services.views.systems import SystemsView
from .provenance import Provenance, provenance
from .view import _number

MAX_SHOWN = 8


@dataclass(frozen=True)
class SystemsFacts:
    """The content of a systems report (plain values; ``view``/``significance`` keep the
    service results for the figures)."""

    provenance: Provenance
    objectives: tuple          # ((name, direction), ...)
    normalize: str
    sigma: float
    records: tuple             # dicts: system, rows, hv, ..., area, reasons
    shown: tuple
    n_rows: int
    n_systems: int
    baseline: tuple
    candidate: tuple
    test: object | None        # ParetoImprovementTest
    verdict: str
    delta_relative: str
    ref: str
    notes: tuple
    view: systems.SystemsView
    settings: dict             # what reproduces the report: permutations, seed, ref rule


def systems_facts(opened, *, objectives=None, normalize: str = "minmax", sigma: float = 0.1,
                  baseline=(), candidate=(), permutations: int = systems.DEFAULT_PERMUTATIONS, rng_seed: int = 0,
                  ref_rule: str = "range", shown=(), hv_budget_seconds: float | None = None,
                  cache=None) -> SystemsFacts:
    """Compute the systems report's content (the test only when both sides are given).

    ``hv_budget_seconds`` as in :func:`copa_dash.services.systems.systems_view` (None: every
    HV exact); the Systems page passes its own, so its report shows the page's numbers, and
    a note names the systems whose HV is a Monte-Carlo estimate.

    Raises
    ------
    InvalidInputError
        What the systems service raises: no system (or seed) column, an unknown system or
        objective, a system on both sides, bad permutations or seed.
    """
    table = opened.table
    if objectives is None and opened.default_view is not None:
        names = [n for n in opened.default_view.objectives if n in table.objective_names]
        objectives = names if len(names) >= 2 else None
    view = systems.systems_view(table, objectives=objectives, normalize=normalize, sigma=sigma,
                                hv_budget_seconds=hv_budget_seconds,
                                dataset_id=opened.cache_id, cache=cache)
    records = []
    for record, rows in zip(view.records(), view.n_rows):
        records.append({**record, "rows": int(rows)})
    base, cand = systems.parse_sides(baseline), systems.parse_sides(candidate)
    test = None
    text = relative = ref = ""
    notes = list(view.notes)
    intervals = "; ".join(f"{r['system']} [{r['hv_ci95'][0]:.4g}, {r['hv_ci95'][1]:.4g}]"
                          for r in records if not r["hv_exact"])
    estimated = view.hv_estimate_note(hv_budget_seconds, interval_where=f"is: {intervals}")
    if estimated:
        notes.append(estimated)
    if base or cand:
        significance = systems.significance_test(
            table, baseline=base, candidate=cand, objectives=list(view.objectives),
            n_permutations=permutations, rng_seed=rng_seed, ref_rule=ref_rule,
            dataset_id=opened.cache_id, cache=cache)
        test = significance.test
        text = verdict(test, significance.baseline, significance.candidate)
        relative = ("undefined (the baseline's HV is 0)" if math.isnan(test.delta_relative)
                    else f"{test.delta_relative:+.2%}")
        ref = "(" + ", ".join(f"{v:.6g}" for v in test.ref) + ")"
        notes += [n for n in significance.notes if n not in notes]
    chosen = tuple(s for s in shown if s in view.systems) or \
        tuple(dict.fromkeys([*base, *cand, *view.systems]))[:MAX_SHOWN]
    return SystemsFacts(
        provenance=provenance(opened), objectives=tuple(zip(view.objectives, view.directions)),
        normalize=normalize, sigma=float(view.indicators.sigma), records=tuple(records),
        shown=chosen, n_rows=int(view.raw.shape[0]), n_systems=len(view.systems),
        baseline=base, candidate=cand, test=test, verdict=text, delta_relative=relative,
        ref=ref, notes=tuple(notes), view=view,
        settings={"permutations": int(permutations), "rng_seed": int(rng_seed),
                  "ref_rule": ref_rule, "hv_budget_seconds": hv_budget_seconds})


def systems_cli(facts: SystemsFacts, source: list[str]) -> list[list[str]]:
    """The ``copa-dash indicators`` (and ``significance``) arguments of the report."""
    objectives = []
    for name, direction in facts.objectives:
        objectives += ["--objective", f"{name}:{direction}"]
    budget = facts.settings.get("hv_budget_seconds")
    hv_option = ["--exact-hv"] if budget is None else ["--hv-budget", _number(budget)]
    commands = [["copa-dash", "indicators", *source, *objectives, "--normalize", facts.normalize,
                 "--sigma", _number(facts.sigma), *hv_option]]
    if facts.test is not None:
        commands.append(["copa-dash", "significance", *source, *objectives,
                         "--baseline", ",".join(facts.baseline),
                         "--candidate", ",".join(facts.candidate),
                         "--permutations", str(facts.settings["permutations"]),
                         "--rng-seed", str(facts.settings["rng_seed"]),
                         "--ref-rule", facts.settings["ref_rule"]])
    return commands


def systems_view(facts: SystemsFacts) -> SystemsView:
    """The systems page's view of the report's settings (its link: ``services.views.link``)."""
    return SystemsView(
        dataset=facts.provenance.name,
        tab="significance" if facts.test is not None else "indicators",
        objectives=tuple(name for name, _ in facts.objectives), normalize=facts.normalize,
        sigma=facts.sigma, shown=tuple(facts.shown), baseline=tuple(facts.baseline),
        candidate=tuple(facts.candidate), permutations=int(facts.settings["permutations"]),
        seed=int(facts.settings["rng_seed"]), ref_rule=facts.settings["ref_rule"])
