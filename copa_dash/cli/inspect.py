"""``copa-dash inspect TABLE [--json]``: what the upload page would propose for a table.

JSON: ``{"rows": N, "id": COLUMN or null, "runs": bool, "configurations": [COLUMN, ...]
(settings that vary within a repeated name: the rows are configurations, never averaged),
"columns": [{"name", "role",
"direction", "unit", "label", "reason", "confidence"}], "notes": [...], "uncertainty":
{metric: [kind, column]}, "families": {prefix: [columns]}}`` - role is one of id,
objective, system, seed, task, split, config, budget, metadata; direction min, max or null
(an objective whose direction must be chosen: analysis commands refuse the table until
``--objective COL:DIR`` or ``--ignore COL`` decides it); confidence sure, likely or unsure.
A derived objective (``|1 - DI|``) has ``source`` and ``transform``; a wide table's column
left out of the short set has ``"more": true``. The notes say what the reader adjusted and
what was guessed, as the "What we read" panel does.
"""

from __future__ import annotations

import argparse

from ..core.errors import InvalidInputError
from ..data import io
from ..data.proposal import propose
from ._common import emit, format_table, keep_zeros_hint
from .sources import add_source_arguments, source_from_args, source_given


def run(args) -> int:
    """Read TABLE with the shared reader and print the proposal."""
    if source_given(args):  # what the upload page proposes for a tracker's table
        proposal = source_from_args(args).proposal()
        notes = list(proposal.notes)
    elif not args.table:
        raise InvalidInputError("give a TABLE file, --from-optuna, --from-mlflow or "
                                "--from-lm-eval")
    else:
        read = io.read_table_report(args.table, filename=args.table,
                                    keep_zeros=bool(getattr(args, "keep_zeros", False)))
        proposal = propose(read.frame, units=read.units, labels=read.labels)
        notes = list(read.notes) + list(proposal.notes)
        if read.zeros_missing:
            notes.append(keep_zeros_hint(read.zeros_missing))
    result = proposal.to_dict()
    result["notes"] = notes
    if args.json:
        emit(result, args)
        return 0
    rows = [{"column": g.name, "role": g.role + (" (more)" if g.more else ""),
             "direction": g.direction or ("CHOOSE" if g.role == "objective" else ""),
             "sure": g.confidence, "unit": g.unit or "", "why": g.reason}
            for g in proposal.columns]
    print(f"{proposal.rows} rows; named by "
          + (repr(proposal.id) if proposal.id else "the row names the upload page makes"))
    print(format_table(rows, ["column", "role", "direction", "sure", "unit", "why"]))
    if proposal.undecided:
        print("\nAnalysis commands refuse this table until each direction is chosen: "
              + " ".join(f"--direction '{c}:max'" for c in proposal.undecided[:3])
              + (" ..." if len(proposal.undecided) > 3 else "")
              + " (or :min), keeping the other guesses; or --ignore COLUMN.")
    print("\nWhat we read:")
    for note in result["notes"]:
        print(f"- {note}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``inspect`` to the command line."""
    sub = subparsers.add_parser(
        "inspect", help="what the upload page would propose for a table: roles, directions, "
                        "units and what was adjusted",
        description="Read TABLE as the upload page does and print the proposed role, "
                    "direction and unit of every column, and the notes.")
    sub.add_argument("table", nargs="?",
                     help="CSV, TSV, TXT, Markdown, LaTeX, JSON, Parquet or Excel file")
    sub.add_argument("--keep-zeros", action="store_true",
                     help="keep a 0 in a time or amount column (duration, latency, memory) "
                          "as a value; by default it is read as missing and said")
    sub.add_argument("--json", action="store_true", help="print JSON instead of a table")
    add_source_arguments(sub)
    sub.set_defaults(run=run)
