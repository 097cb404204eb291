"""The ``copa-dash`` command: JSON on stdout with ``--json``, a readable table otherwise.

A user error prints one line on stderr and exits with status 2.

Start-up time. Only the module of the command being run is imported (``--help`` imports
none: the command list below gives their one-line help), so ``select`` does not pay for
scipy and ``--help`` not even for numpy. Run from the command line (``main()`` without
arguments), kernels that are not compiled yet answer through their numpy twins and are
compiled afterwards in a detached process (:mod:`.kernel_compile`), with a line on stderr
saying so; kernels without a twin compile on the spot, with a progress line.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from ..core.errors import InvalidInputError

# command -> (module in this package, one-line help); the order is the order of --help.
# tests/cli/test_cli_startup.py checks that each module registers these with this help.
COMMANDS = {
    "select": ("selection", "the row COPA (or a baseline) selects"),
    "rank": ("selection", "all eligible rows, best first"),
    "sweep": ("selection", "the rows selected as alpha sweeps [0, 1], with their alpha ranges"),
    "front": ("selection", "ids of the non-dominated rows (among those passing --where)"),
    "hypervolume": ("selection", ("hypervolume of the rows: exact, or a Monte-Carlo estimate "
                                  "when exact is predicted to take longer than --budget")),
    "robustness": ("robustness", ("how sure the view's pick is: rank acceptability, what "
                                  "flips it, leave one objective out")),
    "datasets": ("datasets", "list the bundled datasets"),
    "benchmark": ("rankings", "compare the methods of a long table (method x task) on one metric"),
    "indicators": ("systems", ("per-system front indicators: hypervolume (HV), front size "
                               "(ONVG; ONVG^ against the largest; ONVGR, share of the system's "
                               "rows), evenness (UD_bar), spread (OS) and radar area")),
    "significance": ("systems", "permutation test of a Pareto improvement between systems"),
    "gap": ("generalization",
            "validation front, optimistic/pessimistic test fronts and the gap per system"),
    "depth": ("posets", ("ufg depth of each task's partial ranking of the methods: high for a "
                         "typical task, low for an outlying one (long table)")),
    "inspect": ("inspect", ("what the upload page would propose for a table: roles, directions, "
                            "units and what was adjusted")),
    "elicit": ("elicit",
               'learn weights and p from answers to "this model or that one?" (stdin/stdout)'),
    "report": ("report", "write the decision report of a view (HTML or PDF)"),
    "systems-report": ("report", "write the systems comparison and its significance test"),
    "serve": ("serve", "start the dashboard (http://127.0.0.1:8050 by default)"),
    "compile": ("kernel_compile",
                "compile every numba kernel into the cache now (at install or image build)"),
}

# other names a command answers to: the pages call what `select` gives "the COPA pick", and
# the Systems page shows what `indicators` prints (its radar and table of indicators)
ALIASES = {"pick": "select", "systems": "indicators"}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser; with ``command``, only that command's module is imported and
    registered in full (the others get their name and help line only). Without it, every
    module is registered."""
    parser = argparse.ArgumentParser(
        prog="copa-dash", description="Navigate Pareto fronts of model-evaluation tables.")
    subparsers = parser.add_subparsers(dest="command", required=True)
    command = ALIASES.get(command, command)
    wanted = ({COMMANDS[command][0]} if command in COMMANDS
              else {module for module, _ in COMMANDS.values()} if command is None else set())
    registered: set[str] = set()
    for name, (module_name, help_text) in COMMANDS.items():
        if module_name in wanted:
            wanted.discard(module_name)
            before = set(subparsers.choices)
            importlib.import_module(f"{__name__}.{module_name}").register(subparsers)
            registered |= set(subparsers.choices) - before
        if name not in registered and name not in subparsers.choices:
            subparsers.add_parser(name, help=help_text, aliases=aliases_of(name))
    return parser


def aliases_of(name: str) -> list[str]:
    """The other names of command ``name`` (:data:`ALIASES`)."""
    return [alias for alias, command in ALIASES.items() if command == name]


def _command_of(argv) -> str | None:
    """The subcommand named on the command line ('' when there is none, e.g. --help)."""
    return next((a for a in argv if not a.startswith("-")), "")


def main(argv=None) -> int:
    """Run the command line; returns the exit status.

    Called without ``argv`` (the ``copa-dash`` script), uncompiled kernels answer through
    their numpy twins and compile afterwards in the background; with ``argv`` (tests,
    embedding) the process's compile mode is left as it is.
    """
    from_shell = argv is None
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(_command_of(argv))
    args = parser.parse_args(argv)
    if from_shell:
        # here, not at the top: core.jit loads numpy and numba (~0.43 s CPU), which --help
        # must not pay (tests/cli/test_cli_startup.py)
        from ..core import jit

        jit.configure(mode=os.environ.get("COPA_JIT_MODE") or "deferred", progress=True)
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
    finally:
        if from_shell:
            # here, not at the top: kernel_compile imports core.jit (numpy, numba), which
            # --help must not load; --help never reaches this line
            from .kernel_compile import compile_pending_later

            compile_pending_later()


if __name__ == "__main__":
    sys.exit(main())
