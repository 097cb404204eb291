"""Byte-compile what ``pip install --no-compile --report FILE`` installed, on every core.

pip compiles each installed file to ``.pyc`` one after the other: on a fresh venv that is about
26 s of ``make install-test``'s ~60 s (session 16, docs/testing.md). Skipping it is not an
option on machines that set ``PYTHONDONTWRITEBYTECODE=1`` (every interpreter the suite starts
would compile dash, pandas and plotly from source again), so ``make install-test`` asks pip not
to compile and this script compiles the environment's site-packages with ``compileall``'s
worker processes, one a core. When pip installed nothing but the editable checkout (a re-run on
an installed environment), there is nothing new to compile and the script does nothing.

Usage: ``python tools/compile_installed.py REPORT.json``. Like pip, a file that does not compile
(a package's test data in an old syntax) is no failure: the exit status is 0 unless the report
cannot be read.
"""

from __future__ import annotations

import compileall
import json
import sys
import sysconfig
from pathlib import Path


def installed_names(report: dict) -> list[str]:
    """The names of the distributions a pip installation report says were installed, leaving
    out the ones installed from a local directory (the editable checkout: pip reinstalls it on
    every run, and its sources are compiled when imported)."""
    names = []
    for item in report.get("install", []):
        url = item.get("download_info", {}).get("url", "")
        if item.get("is_direct") and url.startswith("file:") and "dir_info" in item.get(
                "download_info", {}):
            continue
        names.append(item["metadata"]["name"])
    return names


def site_directories() -> list[Path]:
    """This interpreter's site-packages directories (pure and platform, once each)."""
    paths = sysconfig.get_paths()
    return sorted({Path(paths["purelib"]), Path(paths["platlib"])})


def main(argv: list[str]) -> int:
    """Compile the site-packages if the report at ``argv[0]`` lists anything installed."""
    if len(argv) != 1:
        print("usage: python tools/compile_installed.py REPORT.json", file=sys.stderr)
        return 2
    try:
        report = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        print(f"compile_installed: cannot read pip's report {argv[0]}: {error}", file=sys.stderr)
        return 2
    if not installed_names(report):
        return 0
    for directory in site_directories():
        compileall.compile_dir(directory, quiet=2, workers=0)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
