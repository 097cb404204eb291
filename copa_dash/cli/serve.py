"""``copa-dash serve``: the dashboard on this machine, optionally opened on a table.

``copa-dash serve`` (or ``python -m copa_dash``) serves the app with Flask's threaded server
on 127.0.0.1:8050, as ``optuna-dashboard`` and ``mlflow ui`` do for one person; a team
deploys ``gunicorn app:server`` (the Dockerfile). Given a TABLE, the table is stored in the
instance's store as the upload page would store it (roles guessed) and its explorer link is
printed (and opened with ``--open``).
"""

from __future__ import annotations

import dataclasses
import socket
import sys
import threading
import webbrowser

from ..core.errors import InvalidInputError
from ..services.views.links import dataset_link
from .sources import add_source_arguments, source_location


def settings_from(args):
    """The instance's settings: the environment's (``COPA_*``), then the options."""
    from ..config import Settings  # lazy: `copa-dash --help` imports no command module

    settings = Settings.from_env()
    changes = {"host": args.host or settings.host,
               "port": settings.port if args.port is None else args.port}
    if args.data_dir:
        changes["data_dir"] = args.data_dir
    if args.cache_dir:
        changes["cache_dir"] = args.cache_dir
    # the upload page's tracker form reads paths and URLs on this machine: on by itself only
    # for a dashboard that listens on loopback (COPA_READ_SOURCES turns it on elsewhere)
    from ..config import LOOPBACK

    changes["read_sources"] = settings.read_sources or changes["host"] in LOOPBACK
    return dataclasses.replace(settings, **changes)


def check_port_free(host: str, port: int) -> None:
    """Raise InvalidInputError when ``host:port`` cannot be bound (in use, or no such address)."""
    if not 0 < port < 65536:
        raise InvalidInputError(f"--port must be between 1 and 65535, not {port}")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise InvalidInputError(f"--host {host!r} is not an address of this machine ({exc})") \
            from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise InvalidInputError(
                f"cannot listen on {host}:{port} ({exc.strerror}): another program (another "
                "copa-dash?) uses it; give another --port") from None


def base_url(host: str, port: int) -> str:
    """The address a browser on this machine opens (a wildcard host is reached as 127.0.0.1)."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "", "::") else host
    shown = f"[{shown}]" if ":" in shown else shown
    return f"http://{shown}:{port}"


def run_serve(args) -> int:
    settings = settings_from(args)
    check_port_free(settings.host, settings.port)
    url = base_url(settings.host, settings.port) + "/"
    source = source_location(args)
    if args.table and source:
        raise InvalidInputError("give either a TABLE or a source (--from-optuna, --from-mlflow, "
                                "--from-lm-eval), not both")
    if args.table:
        from ..services.opened_tables import store_table_file

        url = base_url(settings.host, settings.port) + store_table_file(settings, args.table)
    elif source:
        from ..services.source_uploads import save_source

        saved = save_source(settings, *source)
        url = dataset_link("explore", saved.id, base=base_url(settings.host, settings.port))
    from ..app_factory import create_app  # lazy: dash, pandas, numba (~2 s CPU)

    app = create_app(settings)
    print(f"copa-dash: serving on {base_url(settings.host, settings.port)}/ "
          "(Ctrl+C to stop)", file=sys.stderr)
    if args.table or source:
        shown = args.table or f"{source[0]} {source[1]}"
        print(f"copa-dash: {shown} opens at {url}", file=sys.stderr)
    print(url, flush=True)
    if args.open:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    app.run(host=settings.host, port=settings.port, debug=settings.debug)
    return 0


def register(subparsers) -> None:
    """Add ``serve`` to the CLI."""
    sub = subparsers.add_parser(
        "serve", help="start the dashboard (http://127.0.0.1:8050 by default)",
        description="Start the dashboard on this machine. Settings not given here come from "
                    "the COPA_* environment variables (see the deployment docs).")
    sub.add_argument("table", nargs="?",
                     help="a table (CSV, TSV, Parquet, JSON or Excel) to store and open in the "
                          "explorer; its roles are guessed as on the upload page")
    sub.add_argument("--host", help="address to listen on (default 127.0.0.1, or $COPA_HOST); "
                                    "0.0.0.0 lets other machines in")
    sub.add_argument("--port", type=int, help="port (default 8050, or $COPA_PORT)")
    sub.add_argument("--open", action="store_true", help="open the page in a web browser")
    sub.add_argument("--data-dir", help="where uploaded tables are kept (default .copa_data, "
                                        "or $COPA_DATA_DIR)")
    sub.add_argument("--cache-dir", help="where results are cached (default .copa_cache, or "
                                         "$COPA_CACHE_DIR)")
    add_source_arguments(sub)
    sub.set_defaults(run=run_serve)
