"""``copa-dash datasets``: the bundled datasets and their descriptions."""

from __future__ import annotations

from ._common import emit


def run_datasets(args) -> int:
    # here, not at the top: pandas would make `copa-dash datasets --help` 0.75 s CPU, not 0.22
    from ..data.bundled import list_datasets

    rows = [{"name": d.name, "title": d.title, "rows": d.n_rows, "licence": d.licence}
            for d in list_datasets()]
    emit({"datasets": rows}, args, rows, ["name", "rows", "title", "licence"])
    return 0


def register(subparsers) -> None:
    """Add ``datasets`` to the CLI."""
    sub = subparsers.add_parser("datasets", help="list the bundled datasets")
    sub.add_argument("--json", action="store_true")
    sub.set_defaults(run=run_datasets)
