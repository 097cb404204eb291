"""``copa-dash indicators`` and ``copa-dash significance``: compare whole systems.

``copa-dash indicators TABLE --id COL --system COL --objective COL:DIR ... [--normalize
minmax|cdf] [--sigma S] --json`` prints ``{"systems": [{"system", "hv", "onvg", "onvg_hat",
"onvgr", "ud_bar", "os", "area"}, ...]}`` with null where a value is undefined (the readable
form says why).

``copa-dash significance TABLE --id COL --system COL --seed COL --baseline A[,A2]
--candidate B[,B2] --objective COL:DIR ... --permutations N --rng-seed S --json`` prints
``{"delta", "delta_relative", "p_value", "permutations", "ref": [...]}`` and, beside them,
``rng_seed``, ``ref_rule``, ``hv_baseline``, ``hv_candidate``, ``run_hv_mean``,
``run_hv_sd`` (baseline, candidate) and ``n_runs``. Runs are (system, seed) pairs. The
readable form ends with the verdict in words (significant when p <= 0.05).

Both read a bundled table with ``--dataset NAME`` (its roles; ``--system``, ``--seed`` and
``--config`` override them) and default to its view's objectives.
"""

from __future__ import annotations

import math
from dataclasses import replace

from ..core.errors import InvalidInputError
from ..core.significance import REF_RULES
from ..data.io import build_eval_table
from ..services import systems
from ..services.significance_verdict import verdict
from . import COMMANDS, aliases_of
from ._common import add_table_arguments, emit, format_table, load_table, say_task_span

INDICATOR_COLUMNS = ("system", "hv", "onvg", "onvg_hat", "onvgr", "ud_bar", "os", "area")


def _table(args):
    """The table with the role options applied, and the objectives to use."""
    table, info = load_table(args)
    overrides = {k: getattr(args, k) for k in ("system", "seed", "config")
                 if getattr(args, k, None) and getattr(args, k) != getattr(table.roles, k)}
    if overrides:
        table = build_eval_table(table.frame, replace(table.roles, **overrides))
    objectives = None
    if not args.objective and info is not None and info.default_view is not None:
        names = [n for n in info.default_view.objectives if n in table.objective_names]
        if len(names) >= 2:
            objectives = names
    return table, objectives


def run_indicators(args) -> int:
    """Print every system's indicators."""
    if args.normalize not in systems.NORMALIZATIONS:
        raise InvalidInputError(f"--normalize must be minmax or cdf, not {args.normalize!r}")
    table, objectives = _table(args)
    budget = None if args.exact_hv else args.hv_budget
    if budget is not None and not (math.isfinite(budget) and budget >= 0):
        raise InvalidInputError(f"--hv-budget {budget}: give a number of seconds >= 0")
    view = systems.systems_view(table, objectives=objectives, normalize=args.normalize,
                                sigma=args.sigma, hv_budget_seconds=budget)
    records = view.records()
    say_task_span(args, table, None, "systems", with_in=False,
                  pooled_by=table.roles.system)
    if args.json:
        # the estimated HVs apart and only when there are some, so an all-exact output
        # and each system's record keep their documented shape
        result = {"systems": [{k: r[k] for k in INDICATOR_COLUMNS} for r in records]}
        estimates = [{"system": r["system"], "hv": r["hv"], "ci95": r["hv_ci95"],
                      "n_samples": r["hv_samples"]} for r in records if not r["hv_exact"]]
        if estimates:
            result.update(hv_estimates=estimates, hv_budget_seconds=budget)
        emit(result, args)
        return 0
    print(f"{len(records)} systems on {', '.join(view.objectives)} "
          f"({'min-max' if args.normalize == 'minmax' else 'CDF (u)'} scale, r = 1, "
          f"sigma = {view.indicators.sigma:g}); '-' = undefined")
    print(format_table(records, list(INDICATOR_COLUMNS)))
    for record in records:
        for name, reason in record["reasons"].items():
            print(f"  {record['system']}: {name} undefined: {reason}")
    for note in view.notes:
        print(note)
    estimated = view.hv_estimate_note(budget, interval_where="is below")
    if estimated:
        print(estimated)
        for r in records:
            if not r["hv_exact"]:
                low, high = r["hv_ci95"]
                print(f"  {r['system']}: HV {r['hv']:.6g}, 95% interval [{low:.6g}, {high:.6g}] "
                      f"from {r['hv_samples']:,} samples")
        print("(--exact-hv computes every HV exactly, --hv-budget SECONDS raises the limit)")
    return 0


def run_significance(args) -> int:
    """Run the permutation test and print its result."""
    table, objectives = _table(args)
    view = systems.significance_test(
        table, baseline=args.baseline, candidate=args.candidate, objectives=objectives,
        n_permutations=args.permutations, rng_seed=args.rng_seed, ref_rule=args.ref_rule)
    test = view.test
    say_task_span(args, table, None, "systems", with_in=False,
                  pooled_by=table.roles.system)
    result = {"delta": test.delta, "delta_relative": test.delta_relative,
              "p_value": test.p_value, "permutations": test.n_permutations,
              "ref": test.ref.tolist(), "rng_seed": test.seed, "ref_rule": test.ref_rule,
              "hv_baseline": test.hv_baseline, "hv_candidate": test.hv_candidate,
              "run_hv_mean": test.run_hv_mean.tolist(), "run_hv_sd": test.run_hv_sd.tolist(),
              "n_runs": list(test.n_runs)}
    if args.json:
        emit(result, args)
        return 0
    rel = "undefined" if math.isnan(test.delta_relative) else f"{test.delta_relative:+.2%}"
    print(f"baseline {', '.join(view.baseline)} ({test.n_runs[0]} runs) vs candidate "
          f"{', '.join(view.candidate)} ({test.n_runs[1]} runs) on "
          f"{', '.join(f'{o} ({d})' for o, d in zip(view.objectives, view.directions))}")
    print(f"reference point ({test.ref_rule}): "
          + ", ".join(f"{v:.6g}" for v in test.ref))
    print(f"HV baseline {test.hv_baseline:.6g}, candidate {test.hv_candidate:.6g}: "
          f"Delta = {test.delta:+.6g} ({rel} of the baseline)")
    print(f"p = {test.p_value:.4g} from {test.n_permutations} permutations (rng seed "
          f"{test.seed}; {test.n_partitions} distinct splits exist)")
    for side, name in enumerate(("baseline", "candidate")):
        print(f"per-run HV, {name}: mean {test.run_hv_mean[side]:.6g}, "
              f"s.d. {test.run_hv_sd[side]:.3g}")
    print(f"verdict: {verdict(test, view.baseline, view.candidate)}")
    for note in view.notes:
        print(note)
    return 0


def _role_arguments(sub) -> None:
    sub.add_argument("--system", help="the system column (default: the dataset's)")
    sub.add_argument("--seed", help="the seed (replicate) column (default: the dataset's)")
    sub.add_argument("--config", help="a config column shared across seeds: each side's front "
                                      "is then the front of its per-config means")


def register(subparsers) -> None:
    """Add ``indicators`` and ``significance`` to the CLI."""
    sub = subparsers.add_parser("indicators", help=COMMANDS["indicators"][1],
                                aliases=aliases_of("indicators"))   # `systems`, as the page
    add_table_arguments(sub)
    _role_arguments(sub)
    sub.add_argument("--normalize", default="minmax", choices=systems.NORMALIZATIONS,
                     help="scale of the objectives over all rows (default minmax)")
    sub.add_argument("--sigma", type=float, default=0.1,
                     help="niche radius of UD in normalised units (default 0.1)")
    sub.add_argument("--hv-budget", type=float, default=0.5, metavar="SECONDS",
                     help="a system's HV is exact when a measured cost model predicts at most "
                          "this many seconds, else a seeded Monte-Carlo estimate with its 95%% "
                          "interval, said in the output (--json: an \"hv_estimates\" list "
                          "beside \"systems\", only when some HV is estimated; default 0.5)")
    sub.add_argument("--exact-hv", action="store_true",
                     help="every system's HV exact, however long it takes")
    sub.set_defaults(run=run_indicators)

    sub = subparsers.add_parser(
        "significance", help="permutation test of a Pareto improvement between systems")
    add_table_arguments(sub)
    _role_arguments(sub)
    sub.add_argument("--baseline", required=True, metavar="A[,A2]",
                     help="baseline system(s), comma-separated")
    sub.add_argument("--candidate", required=True, metavar="B[,B2]",
                     help="candidate system(s), comma-separated")
    sub.add_argument("--permutations", type=int, default=systems.DEFAULT_PERMUTATIONS,
                     help=f"number of permutations B (default {systems.DEFAULT_PERMUTATIONS})")
    sub.add_argument("--rng-seed", type=int, default=0,
                     help="seed of the permutations (default 0): same seed, same p-value")
    sub.add_argument("--ref-rule", default="range", choices=REF_RULES,
                     help="reference point: nadir + 10%% of the range (default) or the "
                          "paper's 1.1 x the worst value")
    sub.set_defaults(run=run_significance)
