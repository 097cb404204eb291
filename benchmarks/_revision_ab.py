"""What the benchmarks that time this checkout against an earlier git revision share: the
earlier revision's files in a temporary folder, and their common command line."""

from __future__ import annotations

import argparse
import io
import subprocess
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FAIRNESS = ROOT / "tests" / "data" / "messy" / "fairness_adult_sex.csv"


def revision_files(rev: str, *paths: str) -> Path:
    """The files of git revision ``rev`` (all, or only ``paths``) in a new temporary folder:
    an app directory, or with ``"copa_dash"`` a package folder for ``PYTHONPATH``."""
    folder = Path(tempfile.mkdtemp(prefix="copa-peer-"))
    data = subprocess.run(["git", "archive", rev, *paths], cwd=ROOT, check=True,
                          capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        archive.extractall(folder, filter="data")
    return folder


def revision_ab_arguments(description: str, *, rounds: int) -> argparse.ArgumentParser:
    """``[FILE] [--peer-rev REV] [--rounds N]``: the table (the 172-column fairness export
    by default), the revision to compare with (``HEAD~1``) and the interleaved rounds."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("file", nargs="?", type=Path, default=FAIRNESS)
    parser.add_argument("--peer-rev", default="HEAD~1")
    parser.add_argument("--rounds", type=int, default=rounds)
    return parser
