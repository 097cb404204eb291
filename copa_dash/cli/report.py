"""``copa-dash report`` and ``copa-dash systems-report``: write a decision or systems report.

``copa-dash report --dataset NAME [the view options of select] -o FILE.html|FILE.pdf`` writes
the report of the view that ``copa-dash select`` with the same options answers; the report's
"reproduce" block holds that ``select`` command, this ``report`` command and the share link.
``copa-dash systems-report --dataset NAME [--baseline A --candidate B ...] -o FILE`` writes
the systems comparison (indicators, radar, fronts and the permutation test when both sides
are given). The format follows the file's extension; ``--timestamp`` fixes the stated time
(the only part of a report that changes between runs of the same view).
"""

from __future__ import annotations

import argparse
import os
import tempfile
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

from .. import reports
from ..core.errors import InvalidInputError
from ..core.significance import REF_RULES
from ..core.validate import check_p
from ..data.filters import filter_from_view, filter_from_where, value_sets_from_in
from ..reports import view as views
from ..services import systems as systems_service
from ..services.catalog import open_dataset
from ._common import load_table
from ._register import table_command
from .preferences import add_preference_arguments
from .sources import source_label
from .systems import _table


def _output(args) -> tuple[Path, str]:
    path = Path(args.output)
    suffix = path.suffix.lower().lstrip(".")
    fmt = {"htm": "html", "html": "html", "pdf": "pdf"}.get(suffix)
    if fmt is None:
        raise InvalidInputError(f"-o {args.output!r}: name a .html or .pdf file")
    if not path.parent.exists():
        raise InvalidInputError(f"-o {args.output!r}: the folder {path.parent} does not exist")
    return path, fmt


def _timestamp(text):
    if not text:
        return datetime.now(timezone.utc)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise InvalidInputError(f"--timestamp {text!r}: write ISO 8601, e.g. "
                                "2026-01-31T12:00:00") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def _write(path: Path, data: bytes) -> None:
    """Write atomically: a reader never sees half a report."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.chmod(temporary, 0o666 & ~umask)       # as open() would: mkstemp makes it 0600
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _opened(args, table, info):
    if info is not None:
        return replace(open_dataset(args.dataset), table=table)
    label = source_label(args)
    if label is not None:
        return reports.opened_table(table, name=label, source=label)
    return reports.opened_table(table, name=Path(args.table).name,
                                source=f"the file {Path(args.table).name}")


def _weights(texts) -> tuple:
    pairs = []
    for text in texts or ():
        for part in text.split(","):
            name, sep, value = part.rpartition("=")
            try:
                pairs.append((name, float(value)))
            except ValueError:
                raise InvalidInputError(f"--weights {part!r}: write COL=W with W a number") \
                    from None
            if not sep or not name:
                raise InvalidInputError(f"--weights {part!r}: write COL=W")
    return tuple(pairs)


def decision_view(args, table, info) -> views.DecisionView:
    """The view ``copa-dash select`` with the same arguments answers, as a DecisionView:
    the dataset's default filters (unless ``--all-rows``) AND the ``--where`` conditions,
    with ``--in`` replacing a column's value set."""
    if args.method != "copa":
        raise InvalidInputError("a report explains a COPA pick: leave out --method (it lists "
                                "the normalisations' picks beside COPA's anyway)")
    if args.weights and (args.focus or args.alpha is not None):
        raise InvalidInputError("give either --weights or --focus/--alpha, not both")
    columns = list(table.frame.columns)
    where = filter_from_where(args.where, columns).conditions
    ranges, sets, rest = views.conditions_from_where(where)
    default = info.default_view if info is not None else None
    if default is not None and default.filters and not args.all_rows:
        base = filter_from_view(default.filters)
        merged = dict(base.ranges)
        for column, low, high in ranges:
            old_low, old_high = merged.get(column, (None, None))
            merged[column] = (_tighter(old_low, low, max), _tighter(old_high, high, min))
        ranges = tuple((c, lo, hi) for c, (lo, hi) in merged.items())
        given = dict(sets)
        sets = tuple((c, tuple(v for v in map(views._text, values)
                               if c not in given or v in given[c]))
                     for c, values in base.sets.items())
        sets += tuple((c, v) for c, v in given.items() if c not in base.sets)
    in_sets = value_sets_from_in(args.in_sets, columns)
    sets = tuple((c, v) for c, v in sets if c not in in_sets) + \
        tuple((c, tuple(v)) for c, v in in_sets.items())
    named = bool(args.objective) or info is None
    objectives = tuple(zip(table.objective_names, table.directions)) if named else ()
    weights = _weights(args.weights)
    if named and not args.focus and not weights:
        # as select: objectives named without a focus weigh every objective the same
        weights = tuple((name, 1.0) for name, _ in objectives)
    alpha, p = args.alpha, check_p(args.p) if args.p is not None else None
    if default is not None:       # as select: the default view's alpha and p unless given
        alpha = default.alpha if alpha is None else alpha
        p = default.p if p is None else p
    return views.DecisionView(
        dataset=args.dataset or source_label(args) or Path(args.table).name,
        objectives=objectives,
        focus=tuple(args.focus), alpha=alpha, weights=weights, p=p,
        population=args.cdf_population, ranges=ranges, sets=sets, conditions=rest,
        use_default_filters=False)


def _tighter(old, new, pick):
    if old is None:
        return new
    if new is None:
        return old
    return pick(old, new)


def run_report(args) -> int:
    """Write the decision report of the view."""
    path, fmt = _output(args)
    moment = _timestamp(args.timestamp)
    table, info = load_table(args)
    view = decision_view(args, table, info)
    opened = _opened(args, table, info)
    data = reports.decision_report(opened, view, fmt=fmt, generated_at=moment,
                                   share_base=args.share_base, table_file=args.table,
                                   output_name=path.name)
    _write(path, data)
    print(f"wrote {path} ({len(data):,} bytes)")
    return 0


def run_systems_report(args) -> int:
    """Write the systems report."""
    path, fmt = _output(args)
    moment = _timestamp(args.timestamp)
    table, objectives = _table(args)
    info = object() if args.dataset else None
    opened = _opened(args, table, info)
    if args.baseline is None and args.candidate is not None or \
            args.candidate is None and args.baseline is not None:
        raise InvalidInputError("give both --baseline and --candidate for the test, or neither")
    data = reports.systems_report(
        opened, fmt=fmt, generated_at=moment, share_base=args.share_base,
        table_file=args.table, objectives=objectives, normalize=args.normalize,
        sigma=args.sigma, baseline=args.baseline or (), candidate=args.candidate or (),
        permutations=args.permutations, rng_seed=args.rng_seed, ref_rule=args.ref_rule)
    _write(path, data)
    print(f"wrote {path} ({len(data):,} bytes)")
    return 0


def _output_arguments(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("-o", "--output", required=True, metavar="FILE.html|FILE.pdf",
                     help="where to write the report; the extension picks HTML or PDF")
    sub.add_argument("--share-base", default="", metavar="URL",
                     help="the copa-dash instance the share link points at (e.g. "
                          "https://copa.example.org); default: a link relative to any instance")
    sub.add_argument("--timestamp", default=None, metavar="ISO",
                     help="the time the report states (default now, UTC)")


def register(subparsers) -> None:
    """Add ``report`` and ``systems-report`` to the CLI."""
    sub = table_command(subparsers, "report",
                        "write the decision report of a view (HTML or PDF)", run_report)
    add_preference_arguments(sub)
    _output_arguments(sub)

    sub = table_command(
        subparsers, "systems-report", "write the systems comparison and its significance test",
        run_systems_report,
        columns={"system": "the system column (default: the dataset's)",
                 "seed": "the seed (replicate) column (default: the dataset's)",
                 "config": "a config column shared across seeds"})
    sub.add_argument("--baseline", default=None, metavar="A[,A2]", help="baseline system(s)")
    sub.add_argument("--candidate", default=None, metavar="B[,B2]", help="candidate system(s)")
    sub.add_argument("--permutations", type=int, default=systems_service.DEFAULT_PERMUTATIONS,
                     help=f"permutations B (default {systems_service.DEFAULT_PERMUTATIONS})")
    sub.add_argument("--rng-seed", type=int, default=0, help="seed of the permutations (default 0)")
    sub.add_argument("--ref-rule", default="range", choices=REF_RULES,
                     help="reference point rule (default: nadir + 10%% of the range)")
    sub.add_argument("--normalize", default="minmax", choices=systems_service.NORMALIZATIONS,
                     help="scale of the objectives for the indicators (default minmax)")
    sub.add_argument("--sigma", type=float, default=0.1, help="UD niche radius (default 0.1)")
    _output_arguments(sub)
