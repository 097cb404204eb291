"""The command line's ``--from-optuna``, ``--from-mlflow`` and ``--from-lm-eval`` options.

The readers are in :mod:`copa_dash.data.sources`; this module only parses the options.

Every analysis command takes them in place of ``TABLE`` (``copa-dash select --from-optuna
sqlite:///study.db --study mo``); ``copa-dash serve`` can open the same table::

    from copa_dash.cli.sources import add_source_arguments, table_from_source_args
    add_source_arguments(parser)          # once, beside TABLE
    table = table_from_source_args(args)  # EvalTable, or None when no --from-* was given
"""

from __future__ import annotations

import argparse
import sys

from ..core.errors import InvalidInputError

# The readers (copa_dash.data.sources: pandas, and optuna or mlflow) are imported inside the
# functions that read: the options are added to every command's parser, and `--help` stays
# free of numeric libraries (tests/cli/test_cli_startup.py).

OPTIONS = ("from_optuna", "from_mlflow", "from_lm_eval")


def add_source_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--from-optuna URL --study NAME``, ``--from-mlflow URI --experiment NAME`` and
    ``--from-lm-eval DIR`` to ``parser``."""
    group = parser.add_argument_group(
        "sources (instead of TABLE)",
        "read the table where the results live; Optuna and MLflow need the extras "
        "copa-dash[optuna] and copa-dash[mlflow]")
    group.add_argument("--from-optuna", metavar="STORAGE_URL",
                       help="an Optuna storage (sqlite:///study.db): the completed trials")
    group.add_argument("--study", metavar="NAME",
                       help="the Optuna study (may be left out when the storage holds one)")
    group.add_argument("--from-mlflow", metavar="TRACKING_URI",
                       help="an MLflow tracking URI (sqlite:///mlflow.db, ./mlruns, "
                            "http://host:5000): the finished runs")
    group.add_argument("--experiment", metavar="NAME", help="the MLflow experiment")
    group.add_argument("--from-lm-eval", metavar="DIR",
                       help="an lm-evaluation-harness --output_path folder (results_*.json)")


def source_given(args) -> bool:
    """Whether ``args`` names a source (or a source's --study / --experiment)."""
    return any(getattr(args, option, None) for option in (*OPTIONS, "study", "experiment"))


def source_label(args) -> str | None:
    """A short name of the source ``args`` names (a report's or dataset's name), else None."""
    if getattr(args, "from_optuna", None):
        return f"optuna {getattr(args, 'study', None) or args.from_optuna}"
    if getattr(args, "from_mlflow", None):
        return f"mlflow {getattr(args, 'experiment', None) or args.from_mlflow}"
    if getattr(args, "from_lm_eval", None):
        return f"lm-eval {args.from_lm_eval.rstrip('/').rpartition('/')[2]}"
    return None


def source_location(args) -> tuple[str, str, str | None] | None:
    """``(kind, location, name)`` of the source ``args`` names, as
    :func:`copa_dash.services.source_uploads.save_source` takes them; None without one."""
    if getattr(args, "from_optuna", None):
        return "optuna", args.from_optuna, getattr(args, "study", None)
    if getattr(args, "from_mlflow", None):
        return "mlflow", args.from_mlflow, getattr(args, "experiment", None)
    if getattr(args, "from_lm_eval", None):
        return "lm-eval", args.from_lm_eval, None
    return None


def source_from_args(args):
    """The :class:`~copa_dash.data.sources.SourceTable` the options name (the upload page
    and ``serve`` stage it with its proposal; the commands take :func:`table_from_source_args`).

    Raises
    ------
    InvalidInputError
        Two sources (or a source and a TABLE / --dataset), --from-mlflow without
        --experiment, --study or --experiment without their source, or what the reader says.
    """
    chosen = [o for o in OPTIONS if getattr(args, o, None)]
    other = [f"'{getattr(args, 'table', None)}'" if getattr(args, "table", None) else None,
             "--dataset" if getattr(args, "dataset", None) else None]
    if len(chosen) + sum(o is not None for o in other) > 1:
        raise InvalidInputError("give one table: a TABLE file, --dataset, --from-optuna, "
                                "--from-mlflow or --from-lm-eval")
    if getattr(args, "study", None) and chosen != ["from_optuna"]:
        raise InvalidInputError("--study names an Optuna study: give --from-optuna URL too")
    if getattr(args, "experiment", None) and chosen != ["from_mlflow"]:
        raise InvalidInputError("--experiment names an MLflow experiment: give --from-mlflow "
                                "URI too")
    if not chosen:
        raise InvalidInputError("give --from-optuna, --from-mlflow or --from-lm-eval")
    if chosen == ["from_optuna"]:
        from ..data.sources.optuna import read_optuna

        return read_optuna(args.from_optuna, getattr(args, "study", None))
    if chosen == ["from_mlflow"]:
        if not getattr(args, "experiment", None):
            raise InvalidInputError("--from-mlflow needs --experiment NAME")
        from ..data.sources.mlflow import read_mlflow

        return read_mlflow(args.from_mlflow, args.experiment)
    from ..data.sources.lm_eval import read_lm_eval

    return read_lm_eval(args.from_lm_eval)


def table_from_source_args(args, *, say=None):
    """The :class:`~copa_dash.data.schema.EvalTable` a command analyses when ``args`` names a
    source, else None.

    ``--id`` and ``--objective COL:DIR`` (when the parser has them) choose as for a TABLE;
    without ``--objective`` the source's objectives with a known or guessed direction are
    used and what was left out is said (on stderr, or to ``say``).
    """
    if not source_given(args):
        return None
    source = source_from_args(args)
    objectives = []
    for text in getattr(args, "objective", None) or ():
        column, sep, direction = text.rpartition(":")
        if not sep or not column or direction.lower() not in ("min", "max"):
            raise InvalidInputError(f"--objective {text!r}: write COLUMN:min or COLUMN:max")
        objectives.append((column, direction.lower()))
    single = {k: getattr(args, k, None) for k in ("system", "seed", "task", "split", "config",
                                                  "budget") if getattr(args, k, None)}
    command = getattr(args, "command", None)
    if say is None:
        def say(text):
            print(f"copa-dash{' ' + command if command else ''}: {text}", file=sys.stderr)
    return source.eval_table(id_column=getattr(args, "id_column", None),
                             objectives=objectives, single=single, say=say)
