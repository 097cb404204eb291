"""The ``copa-dash`` command: JSON on stdout with ``--json``, a readable table otherwise.

A user error prints one line on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import sys

from ..core.errors import InvalidInputError
from . import datasets, generalization, inspect, posets, rankings, report, selection, systems


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="copa-dash", description="Navigate Pareto fronts of model-evaluation tables.")
    subparsers = parser.add_subparsers(dest="command", required=True)
    for module in (selection, datasets, rankings, systems, generalization, posets, report,
                   inspect):
        module.register(subparsers)
    return parser


def main(argv=None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except InvalidInputError as exc:
        print(f"copa-dash {args.command}: {exc}", file=sys.stderr)
        return 2
    except FileNotFoundError as exc:
        print(f"copa-dash {args.command}: no such file: {exc.filename}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
