"""What the subcommands' ``register`` and ``run`` functions share, written once: a subcommand on
a TABLE or a bundled dataset, the options that name a column of a long table, the notes after
a result."""

from __future__ import annotations

import argparse

from ._common import add_table_arguments


def table_command(subparsers, name: str, help_text: str, run, *,
                  columns: dict[str, str] | None = None) -> argparse.ArgumentParser:
    """Add the subcommand ``name`` that reads TABLE or ``--dataset NAME``
    (:func:`~copa_dash.cli._common.add_table_arguments`), runs ``run``, and takes one
    ``--KEY`` column option per entry of ``columns`` (:func:`add_column_options`)."""
    sub = subparsers.add_parser(name, help=help_text)
    add_table_arguments(sub)
    add_column_options(sub, columns or {})
    sub.set_defaults(run=run)
    return sub


def add_column_options(parser: argparse.ArgumentParser, columns: dict[str, str]) -> None:
    """One ``--KEY`` option per ``{key: help}``: the column of a long table that plays that part
    (system, task, seed, ...); ``_`` in a key is ``-`` in the option."""
    for key, help_text in columns.items():
        parser.add_argument(f"--{key.replace('_', '-')}", help=help_text)


def print_notes(notes, prefix: str = "") -> int:
    """Print each note of a result on its own line; 0, the exit status of a command that ran."""
    for note in notes:
        print(f"{prefix}{note}")
    return 0
