"""``copa-dash robustness``: how sure the view's pick is (rank acceptability, flips, leave one out).

The view options are ``select``'s (:func:`.preferences.add_preference_arguments` and
:func:`.preferences.build`, shared, not copied); the answer is
:func:`copa_dash.services.robustness.robustness`, as on the Explore page and in the notebook.
"""

from __future__ import annotations

from ..core.errors import InvalidInputError
from ..services import robustness as service
from ._common import add_table_arguments, emit
from .preferences import add_preference_arguments, build

HELP = "how sure the view's pick is: rank acceptability, what flips it, leave one objective out"


def _uncertainty(texts) -> dict | None:
    """``METRIC=KIND:COLUMN`` (``ci95:LOW,HIGH`` for two bounds) -> ``{metric: (kind, column)}``."""
    if not texts:
        return None
    out = {}
    for text in texts:
        metric, sep, rest = text.partition("=")
        kind, sep2, column = rest.partition(":")
        if not sep or not sep2 or not metric or not column:
            raise InvalidInputError(f"--uncertainty {text!r}: write METRIC=KIND:COLUMN, KIND "
                                    f"one of {', '.join(service.UNCERTAINTY_KINDS)}")
        parts = column.split(",")
        out[metric] = (kind, tuple(parts) if len(parts) == 2 else column)
    return out


def run_robustness(args) -> int:
    table, prefs, row_filter = build(args)
    result = service.robustness(table, prefs, row_filter, samples=args.samples, seed=args.draw_seed,
                                radius=args.radius, uncertainty=_uncertainty(args.uncertainty))
    if args.json:
        emit(result.to_json(), args)
        return 0
    print(result.verdict())
    print(f"rank acceptability over {result.samples:,} random weightings (seed {result.seed}; "
          "share first, share in the top 3, each +- one standard error):")
    for row in result.acceptability[:10]:
        print(f"  {row['id']}: first {100 * row['rank1']:.1f}% (+-{100 * row['rank1_se']:.1f}), "
              f"top 3 {100 * row['top3']:.1f}%")
    print("what flips it: " + service.flip_sentence(result))
    print("leave one objective out: " + "; ".join(
        f"without {name}: {pick}" for name, pick in result.leave_one_out.items()))
    if result.membership:
        print(f"under noise ({result.membership['method']}):")
        for row in result.membership["rows"][:10]:
            print(f"  {row['id']}: on the front {100 * row['front']:.0f}%, "
                  f"picked {100 * row['pick']:.0f}%")
    if result.missing:
        m = result.missing
        print(f"{m['rows']} rows miss a score: {m['always_dominated']} dominated whatever the "
              f"missing values, {m['maybe_dominated']} only for some, {m['never_dominated']} never")
    return 0


def register(subparsers) -> None:
    """Add ``robustness`` to the CLI."""
    sub = subparsers.add_parser("robustness", help=HELP)
    add_table_arguments(sub)
    add_preference_arguments(sub)
    sub.add_argument("--samples", type=int, default=10_000,
                     help="random weightings drawn (Dirichlet(1) over the objectives; default 10,000)")
    # dest: args.seed is the table's seed column (load_table)
    sub.add_argument("--seed", dest="draw_seed", type=int, default=0,
                     help="seed of the draws (default 0)")
    sub.add_argument("--radius", type=float, default=service.LOCAL_RADIUS,
                     help="local check: weightings (1 - R) yours + R a random one, so no weight "
                          "moves by more than R (default 0.1)")
    sub.add_argument("--uncertainty", action="append", default=[], metavar="METRIC=KIND:COLUMN",
                     help="pair a metric with its uncertainty column (KIND stderr, std or ci95; "
                          "ci95:LOW,HIGH for two bounds); repeatable")
    sub.set_defaults(run=run_robustness)
