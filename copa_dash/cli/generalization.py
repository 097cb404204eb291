"""``copa-dash gap``: validation -> test generalisation of every search in a table.

``copa-dash gap TABLE --id COL [--system COL] [--budget COL] [--seed COL]
--objective METRIC:DIR ... [--ref V,V,...] [--split COL] --json`` prints
``{"systems": [{"system", "budget", "hv_val", "hv_opt", "hv_pess", "gap", "n_seeds", "sd",
"seeds": [...]}, ...], "comparisons": [{"budget", "seed", "a", "b", "verdicts": [...]}],
"metrics", "directions", "ref", "notes"}``. METRIC names the pair of columns
``val_METRIC`` / ``test_METRIC``; with ``--split COL`` the table has one row per id and
split instead, and METRIC is the column itself. ``--dataset NAME`` reads a bundled table
with its roles, and its ``paired_metrics`` (with the manifest's directions) when no
``--objective`` is given. With seeds, a (system, budget) row holds the means over seeds
and ``seeds`` the value of each; verdicts are per (budget, seed).
"""

from __future__ import annotations

from dataclasses import replace

from ..core.errors import InvalidInputError
from ..core.numbers import read_numbers
from ..services import generalization as gap_service
from ._common import (
    emit,
    format_table,
    guessed_frame,
    open_named_dataset,
    parse_objective,
)
from ._register import print_notes, table_command
from .sources import source_from_args, source_given

ROLE_OPTIONS = ("system", "budget", "seed", "split")


# the column options of `gap`: the parts a column of a long table plays
_COLUMNS = {"system": "the system column (one search per system, budget and seed)",
           "budget": "the budget column",
           "seed": "the seed column (numbers are averaged over seeds)",
           "split": "long layout: the split column (values val/validation and test)"}


def _ref(text):
    if not text:
        return None
    return read_numbers(text, what="--ref")


def _compare(text):
    if not text:
        return None
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2 or not all(parts) or parts[0] == parts[1]:
        raise InvalidInputError(f"--compare {text!r}: write two different systems as A,B")
    return parts


def build_spec(args):
    """``(frame, GapSpec)`` from TABLE or --dataset and the role options."""

    metrics = [parse_objective(o) for o in args.objective]
    overrides = {k: getattr(args, k) for k in ROLE_OPTIONS if getattr(args, k, None)}
    opened = open_named_dataset(args)
    if opened is not None:
        table = opened.table
        spec = gap_service.spec_from_roles(table.roles, list(table.frame.columns),
                                           paired_metrics=opened.paired_metrics,
                                           metrics=metrics or None, ref=_ref(args.ref))
        if args.id_column:
            overrides["id"] = args.id_column
        return table.frame, replace(spec, **overrides)
    if not metrics:
        raise InvalidInputError("give at least one --objective METRIC:min or METRIC:max "
                                "(METRIC names the columns val_METRIC and test_METRIC)")
    if source_given(args):  # --from-optuna / --from-mlflow / --from-lm-eval
        source = source_from_args(args)
        frame, id_column = source.frame, args.id_column or source.id
    else:
        frame, id_column, _ = guessed_frame(args.table, id_column=args.id_column,
                                            command=args.command)
    spec = gap_service.GapSpec(id=id_column, metrics=tuple(m for m, _ in metrics),
                               directions=tuple(d for _, d in metrics), ref=_ref(args.ref),
                               **overrides)
    return frame, spec


def run_gap(args) -> int:
    frame, spec = build_spec(args)
    pair = _compare(args.compare)
    report = gap_service.build_report(frame, spec)
    comparisons = report.comparisons
    if pair is not None:
        comparisons = gap_service.pair_comparisons(report, *pair)
    seeds = gap_service.search_rows(report)
    systems = gap_service.summary_rows(report)
    for row in systems:
        row["seeds"] = [{k: v for k, v in s.items() if k not in ("system", "budget")}
                        for s in seeds if (s["system"], s["budget"]) == (row["system"], row["budget"])]
    result = {"metrics": list(spec.metrics), "directions": list(spec.directions),
              "ref": [float(r) for r in report.ref], "systems": systems,
              "comparisons": gap_service.comparison_rows(comparisons), "notes": list(report.notes)}
    if args.json:
        emit(result, args)
        return 0
    print(f"metrics: {', '.join(f'{m} ({d})' for m, d in zip(spec.metrics, spec.directions))}; "
          f"reference point {', '.join(f'{r:g}' for r in report.ref)}")
    print(format_table(systems, ["system", "budget", "n_seeds", "hv_val", "hv_opt", "hv_pess", "gap"]))
    for row in result["comparisons"]:
        where = ", ".join(f"{k} {row[k]}" for k in ("budget", "seed") if row[k] is not None)
        print(f"\n{row['a']} vs {row['b']}{' (' + where + ')' if where else ''}:")
        for verdict in row["verdicts"]:
            print(f"  {verdict['criterion']}: {verdict['sentence']}")
    return print_notes(report.notes, "note: ")


def register(subparsers) -> None:
    """Add ``gap`` to the CLI."""
    sub = table_command(
        subparsers, "gap",
        "validation front, optimistic/pessimistic test fronts and the gap per system", run_gap,
        columns=_COLUMNS)
    sub.add_argument("--ref", help="reference point V,V,... in the metrics' own units and order "
                                   "(default: nadir + 10%% of the range over all val and test values)")
    sub.add_argument("--compare", metavar="A,B",
                     help="compare only these two systems (default: every pair, up to "
                          f"{gap_service.MAX_PAIRWISE_SYSTEMS} systems)")
