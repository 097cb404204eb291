"""HTML to PDF with Debian's Chromium: figures as SVG through Kaleido, the page printed by
Chromium's own ``--print-to-pdf``, so text and figures stay vector graphics.

Nothing is downloaded: Kaleido (via choreographer) and the print step both use the Chromium
found on ``PATH`` (``chromium`` on Debian), or the one ``COPA_CHROMIUM`` / ``BROWSER_PATH``
names; MathJax (which Kaleido would fetch from a CDN) is switched off.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ..core.errors import InvalidInputError

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
PRINT_TIMEOUT_S = 120


def chromium_path() -> str:
    """The Chromium to use.

    Raises
    ------
    InvalidInputError
        If none is installed (the message says how to install Debian's).
    """
    for name in (os.environ.get("COPA_CHROMIUM"), os.environ.get("BROWSER_PATH"), *CANDIDATES):
        if name and (path := shutil.which(name)):
            return path
    raise InvalidInputError("a PDF report needs Chromium: install Debian's chromium "
                            "(apt-get install chromium), or write the report as .html")


def figure_svgs(figures, *, width: int, height: int) -> list[str]:
    """Each Plotly figure as SVG text, from one Kaleido browser session.

    Kaleido's API is asynchronous; it runs on a fresh event loop in a worker thread so that
    this works inside Jupyter (whose loop is already running) as well as in the CLI.
    """
    # here, not at the top: kaleido costs 0.18 s CPU (after plotly) on every report
    # command, and only PDF output uses it
    import kaleido

    os.environ.setdefault("BROWSER_PATH", chromium_path())

    async def render() -> list[str]:
        out = []
        async with kaleido.Kaleido(n=1, mathjax=False) as session:
            for figure in figures:
                data = await session.calc_fig(
                    figure.to_plotly_json(),
                    opts={"format": "svg", "width": width, "height": height})
                out.append(_bare_svg(data.decode("utf-8")))
        return out

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, render()).result()


def _bare_svg(text: str) -> str:
    """SVG text without an XML declaration (it is embedded in HTML)."""
    start = text.find("<svg")
    return text[start:] if start > 0 else text


def html_to_pdf(html: str) -> bytes:
    """Print an HTML document (no external resources) to PDF with headless Chromium.

    Raises
    ------
    InvalidInputError
        If Chromium is missing.
    RuntimeError
        If Chromium fails or writes no PDF.
    """
    browser = chromium_path()
    with tempfile.TemporaryDirectory(prefix="copa-report-") as folder:
        page = Path(folder) / "report.html"
        out = Path(folder) / "report.pdf"
        page.write_text(html, encoding="utf-8")
        command = [browser, "--headless", "--no-sandbox", "--disable-gpu",
                   "--disable-dev-shm-usage", "--no-first-run", "--disable-extensions",
                   f"--user-data-dir={folder}/profile", "--no-pdf-header-footer",
                   f"--print-to-pdf={out}", page.as_uri()]
        done = subprocess.run(command, capture_output=True, timeout=PRINT_TIMEOUT_S, check=False)
        if not out.is_file() or out.stat().st_size == 0:
            raise RuntimeError(f"Chromium wrote no PDF (exit {done.returncode}): "
                               f"{done.stderr.decode(errors='replace')[-500:]}")
        return out.read_bytes()
