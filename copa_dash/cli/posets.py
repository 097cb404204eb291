"""``copa-dash depth``: the ufg depth of every task's partial ranking of the methods.

``copa-dash depth TABLE --method COL --task COL --criterion COL:DIR ... [--ties drop|incomparable]
--json`` prints ``{"tasks": [{"task", "depth"}, ...], "ufg_sets": N, ...}``: per task the
dominance poset of the methods on the criteria, and its union-free generic depth among the
observed posets (papers/partial-rankings-of-optimizers-ufg-depth.txt, App. B). With
``--dataset NAME`` the method and task columns are the manifest's system and task roles
and the criteria its default view's objectives, unless given.
"""

from __future__ import annotations

from ..config import Settings
from ..core.errors import InvalidInputError
from ..data.guessed_roles import refuse_undecided
from ..services import posets
from . import COMMANDS
from ._common import emit, format_table, guessed_frame, open_named_dataset, parse_objective, say
from ._register import add_column_options, print_notes
from .sources import add_source_arguments, source_from_args, source_given, source_label

#: the longest a depth runs without --exact or --max-seconds: the answer then comes with its
#: error bound (the notes say so)
DEFAULT_SECONDS = 30.0


def _parse_criterion(text: str) -> tuple[str, str]:
    try:
        return parse_objective(text)
    except InvalidInputError:
        raise InvalidInputError(f"--criterion {text!r}: write COLUMN:min or COLUMN:max") from None


def _load(args):
    """(frame, method, task, criteria) from TABLE or --dataset and the options."""
    criteria = [_parse_criterion(c) for c in args.criterion]
    opened = open_named_dataset(args)
    if opened is not None:
        table = opened.table
        method, task = posets.long_columns(table, method=args.method, task=args.task)
        return (table.frame, method, task,
                criteria or posets.default_criteria(table, opened.default_view))
    if source_given(args):  # --from-optuna / --from-mlflow / --from-lm-eval
        source = source_from_args(args)
        frame, proposal = source.frame, source.proposal()
    else:
        frame, _, proposal = guessed_frame(args.table, name_rows=False, command=args.command)
    method = args.method or next((g.name for g in proposal.of_role("system")), None)
    task = args.task or next((g.name for g in proposal.of_role("task")), None)
    if not method or not task:
        raise InvalidInputError("--method COL and --task COL are needed with this TABLE: no "
                                "column reads as the method (system) or the task")
    if not criteria:
        refuse_undecided(proposal, how="criteria", frame=frame)
        criteria = [(g.name, g.direction) for g in proposal.of_role("objective") if g.direction]
        if not criteria:
            raise InvalidInputError("give at least one --criterion COL:min or COL:max")
    if (method, task) != (args.method, args.task) or not args.criterion:
        say(args.command, f"guessed from {args.table or source_label(args)}: method {method!r}, task {task!r}, "
            f"criteria {', '.join(f'{c}:{d}' for c, d in criteria)} (give --method / --task / "
            "--criterion to choose)")
    return frame, method, task, criteria


def run_depth(args) -> int:
    """Print the depth of every task's poset and the number of ufg sets."""
    frame, method, task, criteria = _load(args)
    if args.tolerance is not None and not 0 < args.tolerance < 1:
        raise InvalidInputError("--tolerance must be in (0, 1)")
    if args.exact and args.tolerance is not None:
        raise InvalidInputError("give either --exact or --tolerance, not both")
    data = posets.poset_table(frame, method=method, task=task, criteria=criteria)
    # default: exact when its predicted work is within the budget, else approximate, and at
    # most DEFAULT_SECONDS either way; --exact insists (no time limit unless --max-seconds)
    exact = True if args.exact else (False if args.tolerance is not None else None)
    max_seconds = args.max_seconds
    if max_seconds is None and not args.exact:
        max_seconds = DEFAULT_SECONDS
    view = posets.compute_depth_view(
        data, ties=args.ties, missing=args.missing, exact=exact,
        tolerance=args.tolerance or 0.01, max_seconds=max_seconds,
        exact_budget=Settings.from_env().depth_exact_budget, how="cli")
    central, outlying = posets.extreme_tasks(view)
    near_central, near_outlying = posets.within_bound_of_extremes(view)
    result = {
        "tasks": posets.depth_records(view), "ufg_sets": view.n_ufg_sets,
        "methods": list(view.methods),
        "criteria": [f"{c}:{d}" for c, d in zip(view.criteria, view.directions)],
        "ties": view.ties, "exact": view.exact, "error_bound": view.error_bound,
        "most_central": list(central), "most_outlying": list(outlying),
        # tasks the approximate depth cannot tell from those (within twice the bound)
        "within_bound_of_most_central": list(near_central),
        "within_bound_of_most_outlying": list(near_outlying),
        "flagged_ties": [{"task": t, "methods": [a, b]} for t, a, b in view.tied_pairs],
        "dropped": [{"task": t, "reason": r} for t, r in view.dropped],
        "seconds": view.seconds,
    }
    if args.json:
        emit(result, args)
        return 0
    order = posets.depth_order(view)
    print(format_table([{"task": view.tasks[i], "depth": float(view.depths[i])} for i in order],
                       ["task", "depth"]))
    print(f"{len(view.tasks)} tasks, {len(view.methods)} methods, {view.n_ufg_sets} ufg sets; "
          f"most central: {', '.join(central)}; most outlying: {', '.join(outlying)}")
    unsure = posets.unsure_extremes_sentence(view)
    if unsure:
        print(unsure)
    return print_notes(view.notes)


def register(subparsers) -> None:
    """Add ``depth`` to the CLI."""
    sub = subparsers.add_parser("depth", help=COMMANDS["depth"][1])
    sub.add_argument("table", nargs="?", help="CSV, TSV, Parquet, JSON or Excel file")
    sub.add_argument("--dataset", help="a bundled dataset by its manifest name")
    add_source_arguments(sub)
    add_column_options(sub, {"method": "the method column (default with --dataset: its system)",
                             "task": "the task column (default with --dataset: its task)"})
    sub.add_argument("--criterion", action="append", default=[], metavar="COL:DIR",
                     help="a criterion and its direction, min or max (repeat for each)")
    sub.add_argument("--ties", choices=posets.TIES, default="drop",
                     help="tasks with methods equal on every criterion: drop them (default) or "
                          "keep them with those methods incomparable")
    sub.add_argument("--missing", choices=posets.MISSING, default="drop",
                     help="a missing criterion value: drop the task (default) or count it as "
                          "worse than every observed value")
    sub.add_argument("--exact", action="store_true",
                     help="the exact depth whatever its cost (default: exact when its predicted "
                          "work is within COPA_DEPTH_EXACT_BUDGET sets, else approximate "
                          "within 0.01)")
    sub.add_argument("--tolerance", type=float, default=None,
                     help="approximate: stop when every depth is within this of the exact one")
    sub.add_argument("--max-seconds", type=float, default=None,
                     help="stop after about this long and report the error bound (default "
                          f"{DEFAULT_SECONDS:g} s unless --exact)")
    sub.add_argument("--json", action="store_true", help="print JSON instead of a table")
    sub.set_defaults(run=run_depth)
