"""What every copa-dash subcommand shares: loading the table, its roles, printing results."""

from __future__ import annotations

import argparse
import json
import math
import sys

import numpy as np

from ..core.errors import InvalidInputError
from .sources import add_source_arguments, source_given, table_from_source_args

# The table readers (copa_dash.data: pandas, pyarrow) are imported inside the functions that
# read a table: `copa-dash datasets --help` takes 0.22 s CPU so, 0.75 s with them at the
# top (python -c "...main()" with --help, resource.getrusage, median of 3).


def add_table_arguments(parser: argparse.ArgumentParser) -> None:
    """TABLE or --dataset NAME, --id COL and --objective COL:DIR (repeatable)."""
    parser.add_argument("table", nargs="?", help="CSV, TSV, Parquet, JSON or Excel file")
    parser.add_argument("--dataset", help="a bundled dataset by its manifest name (see 'copa-dash datasets')")
    parser.add_argument("--id", dest="id_column",
                        help="the id column (model name); default: guessed, or rows numbered "
                             "as on the upload page")
    parser.add_argument("--objective", action="append", default=[], metavar="COL:DIR",
                        help="an objective and its direction, min or max (repeat for each): "
                             "the objectives given are all that are used; default: the "
                             "guessed objectives ('copa-dash inspect TABLE')")
    parser.add_argument("--direction", action="append", default=[], metavar="COL:DIR",
                        help="decide or change the direction of one objective, min or max "
                             "(repeat for each), keeping the other guessed objectives; a "
                             "column not guessed as an objective becomes one")
    parser.add_argument("--ignore", action="append", default=[], metavar="COL",
                        help="leave a guessed objective out (repeat for each): needed for a "
                             "column whose direction nobody chose, unless --objective COL:DIR "
                             "names it")
    parser.add_argument("--keep-zeros", action="store_true",
                        help="keep a 0 in a time or amount column (duration, latency, "
                             "memory) as a value; by default it is read as missing and said")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    add_source_arguments(parser)


def parse_objective(text: str, flag: str = "--objective") -> tuple[str, str]:
    """``"COL:max"`` -> ``("COL", "max")``; the column may itself contain ':'."""
    column, sep, direction = text.rpartition(":")
    if not sep or not column or direction.lower() not in ("min", "max"):
        raise InvalidInputError(
            f"{flag} {text!r}: write COLUMN:min or COLUMN:max")
    return column, direction.lower()


#: What every command says when its table is given twice, or not at all.
TABLE_AND_DATASET = "give either a TABLE file or --dataset NAME, not both"
NO_TABLE = "give a TABLE file or --dataset NAME"


def open_named_dataset(args):
    """The dataset ``--dataset NAME`` names, opened as the pages and the notebook open one
    (:func:`copa_dash.services.catalog.open_dataset`), or None when a TABLE file (or a
    source) is given.

    Raises
    ------
    InvalidInputError
        If both a TABLE and ``--dataset`` are given, or neither (nor a source such as
        ``--from-optuna``), or no dataset has the name.
    """
    if args.dataset and args.table:
        raise InvalidInputError(TABLE_AND_DATASET)
    if args.dataset:
        from ..services.catalog import open_dataset  # lazy: see the note at the top

        return open_dataset(args.dataset)
    from .sources import source_given  # a tracker source stands for the TABLE

    if not args.table and not source_given(args):
        raise InvalidInputError(NO_TABLE)
    return None


def load_table(args):
    """Return ``(EvalTable, OpenedDataset or None)`` from TABLE/--dataset and the role options
    (the opened dataset's ``default_view`` and ``paired_metrics`` are the manifest's)."""
    from ..data import io  # lazy: see the note at the top
    from ..data.schema import Objective, Roles

    if source_given(args):  # --from-optuna / --from-mlflow / --from-lm-eval
        return table_from_source_args(args), None
    objectives = [parse_objective(o) for o in args.objective]
    directions = [parse_objective(o, flag="--direction")
                  for o in getattr(args, "direction", ()) or ()]
    info = open_named_dataset(args)
    if info is not None:
        table = info.table
        if directions and not objectives:
            objectives = _redirected(table, directions)
        if objectives:
            roles = table.roles
            known = {o.name: o for o in roles.objectives}
            chosen = tuple(Objective(name, direction, getattr(known.get(name), "unit", None))
                           for name, direction in objectives)
            roles = Roles(**{**_roles_fields(roles), "objectives": chosen})
            if args.id_column:
                roles = Roles(**{**_roles_fields(roles), "id": args.id_column})
            table = io.build_eval_table(table.frame, roles)
        return table, info
    single = {k: getattr(args, k, None) for k in ("system", "seed", "task", "split", "config",
                                                  "budget") if getattr(args, k, None)}
    return table_from_file(args.table, id_column=args.id_column, objectives=objectives,
                           single=single, command=getattr(args, "command", None),
                           ignore=tuple(getattr(args, "ignore", ()) or ()),
                           directions=directions,
                           keep_zeros=bool(getattr(args, "keep_zeros", False))), None


def _redirected(table, directions) -> list[tuple[str, str]]:
    """A bundled table's objectives with ``--direction`` applied (new columns appended)."""
    decided = dict(directions)
    unknown = [n for n in decided if n not in table.frame.columns]
    if unknown:
        raise InvalidInputError(f"--direction {unknown[0]!r}: the dataset has no such column")
    chosen = [(o.name, decided.pop(o.name, o.direction)) for o in table.roles.objectives]
    return chosen + list(decided.items())


def table_from_file(path: str, *, id_column: str | None = None, objectives=(),
                    single: dict | None = None, command: str | None = None, ignore=(),
                    directions=(), keep_zeros: bool = False):
    """Read ``path`` with the shared reader and fill what the options leave open with the guesses.

    Every analysis command's TABLE goes through here: without ``--id`` the rows are named
    as the upload page would name them; without ``--objective`` the proposed objectives are
    used, and when one has no direction the command refuses (exit 2) naming the columns and
    the flags that decide them (``--objective COL:max`` or ``--ignore COL``), as the upload
    page keeps Save off until they are set. What was guessed, and what the reader adjusted,
    is said on stderr; explicit options are never second-guessed.
    """
    from ..data import io  # lazy: see the note at the top
    from ..data.guessed_table import guessed_table

    read = io.read_table_report(path, filename=path, keep_zeros=keep_zeros)
    guessed = guessed_table(read, id_column=id_column, objectives=objectives, single=single,
                            ignore=ignore, how="cli", directions=directions)
    if guessed.said:
        say(command, f"guessed from {path}: " + "; ".join(guessed.said) + " (give --id, "
            "--direction or --objective to choose)")
        for note in read.notes + guessed.proposal.notes:
            decided = objectives or [d for d in directions if repr(d[0]) in note]
            if not (decided and note.startswith("No direction guessed")):
                say(command, note)
        if read.zeros_missing:
            say(command, keep_zeros_hint(read.zeros_missing))
    return guessed.table


def keep_zeros_hint(columns) -> str:
    """How the command line keeps a real 0 that the reader read as missing (the Upload page
    has its box under the notes instead)."""
    names = ", ".join(map(repr, columns))
    return f"If a 0 in {names} was really measured, give --keep-zeros to keep it as a value."


def guessed_frame(path: str, *, id_column: str | None = None, name_rows: bool = True,
                  command: str | None = None):
    """``(frame, id column, proposal)`` of a TABLE for commands that take their own roles.

    The frame is read by the shared reader; without ``id_column`` (and with ``name_rows``)
    the rows are named as the upload page names them (said on stderr).
    """
    from ..data import io  # lazy: see the note at the top
    from ..data.proposal import prepare_frame, propose

    read = io.read_table_report(path, filename=path)
    proposal = propose(read.frame, units=read.units, labels=read.labels)
    if id_column is not None or not name_rows:
        return read.frame, id_column, proposal
    roles = proposal.roles(directions={n: "max" for n in proposal.undecided}) \
        if proposal.of_role("objective") else None
    id_column = proposal.id if proposal.id is not None else proposal.row_ids
    frame = prepare_frame(read.frame, proposal, roles) if roles is not None else read.frame
    say(command, f"guessed from {path}: rows named by {id_column!r} (give --id to choose)")
    return frame, id_column, proposal


def say(command: str | None, text: str) -> None:
    """One line on stderr, prefixed like the command's errors."""
    print(f"copa-dash{' ' + command if command else ''}: {text}", file=sys.stderr)


def say_task_span(args, table, rows=None, what: str = "pick", *, with_in: bool = True,
                  pooled_by: str | None = None) -> None:
    """Say on stderr when the rows a command picks, ranks or averages come from several tasks
    (:func:`copa_dash.services.task_span.task_span` decides and words it; ``pooled_by``: the
    column whose groups the command pools, e.g. the system)."""
    from ..services.task_span import task_span

    span = task_span(table, rows, pooled_by=pooled_by)
    if span is not None:
        say(getattr(args, "command", None), span.cli_line(what, with_in=with_in))


def _roles_fields(roles) -> dict:
    return {f: getattr(roles, f) for f in roles.__dataclass_fields__}


def jsonable(value):
    """Numbers and arrays as JSON values; NaN and infinities become null."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [jsonable(v) for v in value]
    if isinstance(value, (np.bool_, bool)):
        return bool(value)
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        value = float(value)
        return value if math.isfinite(value) else None
    return value


def emit(result: dict, args, table_rows=None, columns=None) -> None:
    """Print ``result`` as JSON (``--json``) or as a readable table."""
    if getattr(args, "json", False):
        json.dump(jsonable(result), sys.stdout, allow_nan=False)
        sys.stdout.write("\n")
        return
    if table_rows is None:
        for key, value in jsonable(result).items():
            print(f"{key}: {value}")
        return
    print(format_table(table_rows, columns))


def format_table(rows, columns) -> str:
    """A plain fixed-width text table."""
    cells = [[_cell(r.get(c)) for c in columns] for r in rows]
    widths = [max([len(c)] + [len(row[i]) for row in cells]) for i, c in enumerate(columns)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths)),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(v.ljust(w) for v, w in zip(row, widths)) for row in cells]
    return "\n".join(lines)


def _cell(value) -> str:
    if isinstance(value, (float, np.floating)):
        return "-" if not math.isfinite(value) else f"{value:.6g}"
    return "" if value is None else str(value)
