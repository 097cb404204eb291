"""Write ``constraints.txt``: every dependency of copa-dash and of all its extras, pinned.

``make lock`` runs this. The lock is resolved by ``uv pip compile`` (about a second with a
warm uv cache; pip-tools' ``pip-compile`` gives the same file format but takes minutes on
this dependency tree) for CPython 3.11 on every platform (``--universal``: platform-only
packages carry their markers), from the package indexes pip itself is configured with
(``pip config list`` and the ``PIP_*`` variables), so that what the lock names is what
``pip install -c constraints.txt`` can find.

Reproducible: uv keeps every pin of the existing ``constraints.txt`` that still fits, so
re-running after a merge that adds an extra only adds that extra's packages; ``--upgrade``
(``make lock-upgrade``) resolves every package anew to its newest version.

The lock is used as pip constraints (``pip install -c constraints.txt -e ".[test]"``): it
pins versions and never adds packages, so one file serves the base install and every extra.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import install_locked  # a sibling script, not a package

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "constraints.txt"
PYTHON_VERSION = "3.11"


def pip_indexes() -> list[str]:
    """uv options for the index, extra indexes and find-links pip is configured with (read
    and translated as tools/install_locked.py does for the install itself)."""
    return install_locked.uv_index_options(install_locked.pip_settings(sys.executable))


def uv_bin() -> str:
    """The uv of the ``uv`` package installed with this Python (``make lock`` installs it),
    else the one on PATH."""
    try:
        import uv
    except ImportError:
        return "uv"
    return uv.find_uv_bin()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--upgrade", action="store_true",
                        help="resolve every package anew instead of keeping the current pins")
    args = parser.parse_args(argv)
    command = [
        uv_bin(), "pip", "compile", "pyproject.toml", "--all-extras", "--universal",
        "--python-version", PYTHON_VERSION, *pip_indexes(),
        "--no-emit-package", "setuptools", "--no-emit-package", "pip",
        "--custom-compile-command", "make lock", "--quiet", "-o", str(LOCK),
    ]
    if args.upgrade:
        command.append("--upgrade")
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, check=False)
    if done.returncode == 0:
        pins = sum(1 for line in LOCK.read_text().splitlines() if "==" in line)
        print(f"{LOCK.name}: {pins} packages pinned in {time.perf_counter() - start:.1f} s")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
