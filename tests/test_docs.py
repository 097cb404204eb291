"""The documentation site builds with ``mkdocs build --strict``: a broken link, a missing
anchor, a page left out of ``nav`` or a docstring mkdocstrings cannot read fails the suite
(the docs dependencies are in the ``test`` extra, so this never skips)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _build(config: Path, site: Path) -> subprocess.CompletedProcess:
    # never --quiet: it raises the log level above WARNING, so --strict counts no warnings
    # and a broken link passes (the second test caught that)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(config.parent)}
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict",
                           "-f", str(config), "-d", str(site)],
                          cwd=config.parent, capture_output=True, text=True, timeout=300,
                          check=False, env=env)


def test_site_builds_strictly_with_every_page_and_the_api_reference(tmp_path):
    done = _build(ROOT / "mkdocs.yml", tmp_path / "site")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    site = tmp_path / "site"
    for page in ("index.html", "pages/index.html", "cli/index.html", "methods/index.html",
                 "benchmarks/index.html", "deploying/index.html"):
        assert (site / page).is_file(), page
    # the reference is generated from the docstrings, not written by hand
    core = (site / "reference/core/index.html").read_text(encoding="utf-8")
    assert "copa_dash.core.criteria.copa_select" in core
    assert "Parameters" in core
    notebook = (site / "reference/notebook/index.html").read_text(encoding="utf-8")
    assert "copa_dash.notebook.select" in notebook


def test_a_broken_link_fails_the_strict_build(tmp_path):
    """The strict build above is a real check: the same site with one link to a page that
    does not exist is refused, naming the link."""
    copy = tmp_path / "repo"
    shutil.copytree(ROOT / "docs", copy / "docs")
    shutil.copy(ROOT / "mkdocs.yml", copy / "mkdocs.yml")
    (copy / "copa_dash").symlink_to(ROOT / "copa_dash", target_is_directory=True)
    index = copy / "docs" / "index.md"
    index.write_text(index.read_text(encoding="utf-8") + "\nSee [nowhere](no-such-page.md).\n",
                     encoding="utf-8")
    done = _build(copy / "mkdocs.yml", tmp_path / "site")
    assert done.returncode != 0
    assert "no-such-page.md" in done.stdout + done.stderr


def test_the_image_carries_the_pages_the_app_serves():
    """The Docker image serves /docs/<page> from /app/docs and /app/mkdocs.yml: the
    Dockerfile copies both and .dockerignore keeps them in the build context."""
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines()
    assert "COPY docs ./docs" in dockerfile
    assert "COPY mkdocs.yml ./" in dockerfile
    ignored = {line.strip() for line in
               (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()}
    assert not ignored & {"docs", "docs/", "mkdocs.yml", "*.yml", "*.md", "docs/*.md"}
