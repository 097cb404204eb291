"""What every copa-dash subcommand shares: loading the table, its roles, printing results."""

from __future__ import annotations

import argparse
import json
import math
import sys

import numpy as np

from ..core.errors import InvalidInputError


def add_table_arguments(parser: argparse.ArgumentParser) -> None:
    """TABLE or --dataset NAME, --id COL and --objective COL:DIR (repeatable)."""
    parser.add_argument("table", nargs="?", help="CSV, TSV, Parquet, JSON or Excel file")
    parser.add_argument("--dataset", help="a bundled dataset by its manifest name (see 'copa-dash datasets')")
    parser.add_argument("--id", dest="id_column", help="the id column (model name)")
    parser.add_argument("--objective", action="append", default=[], metavar="COL:DIR",
                        help="an objective and its direction, min or max (repeat for each)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")


def parse_objective(text: str) -> tuple[str, str]:
    """``"COL:max"`` -> ``("COL", "max")``; the column may itself contain ':'."""
    column, sep, direction = text.rpartition(":")
    if not sep or not column or direction.lower() not in ("min", "max"):
        raise InvalidInputError(
            f"--objective {text!r}: write COLUMN:min or COLUMN:max")
    return column, direction.lower()


def load_table(args):
    """Return ``(EvalTable, DatasetInfo or None)`` from TABLE/--dataset and the role options."""
    from ..data import io
    from ..data.schema import Objective, Roles

    objectives = [parse_objective(o) for o in args.objective]
    if args.dataset and args.table:
        raise InvalidInputError("give either a TABLE file or --dataset NAME, not both")
    if args.dataset:
        from ..data.bundled import load_bundled

        table, info = load_bundled(args.dataset)
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
    if not args.table:
        raise InvalidInputError("give a TABLE file or --dataset NAME")
    if not args.id_column:
        raise InvalidInputError("--id COL is required with a TABLE file: which column names the rows?")
    if not objectives:
        raise InvalidInputError("give at least one --objective COL:min or COL:max")
    frame = io.read_table(args.table, filename=args.table)
    roles = Roles(id=args.id_column,
                  objectives=tuple(Objective(n, d) for n, d in objectives),
                  **{k: getattr(args, k, None) for k in ("system", "seed", "task", "split", "config", "budget")
                     if getattr(args, k, None)})
    return io.build_eval_table(frame, roles), None


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
