"""The documentation pages (``docs/*.md``) served by the app itself at ``/docs/<page>``, so
the Help page's links work offline and on an instance without internet access.

The pages are the ones the mkdocs site builds (``mkdocs.yml`` at the top of the checkout),
rendered with python-markdown and the same heading ids (``toc``'s slugs), so a link
``methods.md#copa`` in a page becomes ``/docs/methods#copa`` here and ``methods/#copa`` in the
built site. Their order and titles come from ``mkdocs.yml``'s ``nav``: a page added there
appears in the app's side menu and on the Help page with no change here.

The mkdocstrings blocks of the API reference (``::: copa_dash.notebook``) become the
modules' signatures and docstrings, read from the source (:mod:`.docs_reference`).
"""

from __future__ import annotations

import html
import posixpath
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from urllib.parse import urlsplit

import markdown
from flask import Flask, Response, abort
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

from copa_dash.ui.features.help.docs_reference import expand_reference_blocks

#: Where the app serves the pages: ``/docs/`` is the getting-started page, ``/docs/methods``
#: renders ``docs/methods.md``, ``/docs/reference/core`` ``docs/reference/core.md``.
DOCS_PATH = "/docs"

_CHECKOUT = Path(__file__).resolve().parents[4]
_PAGE_NAME = re.compile(r"^[a-z0-9_-]+(/[a-z0-9_-]+)*$")
_NAV_LINE = re.compile(r"^(?P<indent>\s*)- (?P<title>[^:]+):\s*(?P<file>\S+\.md)?\s*$")


@dataclass(frozen=True)
class DocPage:
    """One page of the side menu: its title, its page name (``reference/core``; ``""``
    for the getting-started page) and the nav section it sits in (``""`` at the top)."""

    title: str
    name: str
    section: str = ""

    @property
    def href(self) -> str:
        """The page's address on the app."""
        return f"{DOCS_PATH}/{self.name}"


def docs_root() -> tuple[Path, Path]:
    """The folder of the Markdown pages and the ``mkdocs.yml`` that orders them.

    A checkout (or an editable install) has ``docs/`` and ``mkdocs.yml`` at its top. A built
    wheel carries copies inside the package, as it does ``datasets/`` and ``assets/``:
    ``copa_dash/_shipped/docs/`` and ``copa_dash/_shipped/mkdocs.yml`` (``setup.py``'s build
    hook copies them), found here with :mod:`importlib.resources`.
    """
    shipped = resources.files("copa_dash") / "_shipped"
    if (shipped / "docs" / "index.md").is_file():
        folder = Path(str(shipped))
        return folder / "docs", folder / "mkdocs.yml"
    return _CHECKOUT / "docs", _CHECKOUT / "mkdocs.yml"


def nav_pages(config: Path | None = None) -> list[DocPage]:
    """The pages of ``mkdocs.yml``'s ``nav``, in its order.

    Reads the two line shapes the file uses (``- Title: page.md`` and a section
    ``- Section:`` above indented pages) without a YAML library, which the app does not
    depend on.
    """
    config = config or docs_root()[1]
    if not config.is_file():
        return []  # an installation without its docs: the Help page says so
    pages: list[DocPage] = []
    in_nav, section, section_indent = False, "", -1
    for line in config.read_text(encoding="utf-8").splitlines():
        if not in_nav:
            in_nav = line.rstrip() == "nav:"
            continue
        if line and not line[0].isspace():
            break  # the next top-level key ends the nav
        match = _NAV_LINE.match(line)
        if match is None:
            continue
        indent = len(match["indent"])
        if indent <= section_indent:
            section, section_indent = "", -1
        if match["file"] is None:
            section, section_indent = match["title"].strip(), indent
            continue
        name = match["file"].removesuffix(".md")
        pages.append(DocPage(match["title"].strip(), "" if name == "index" else name, section))
    return pages


class _LinksToApp(Treeprocessor):
    """Point links between the pages (``methods.md#copa``, ``../cli.md``) at the app's
    ``/docs/...`` addresses; other links are left alone."""

    def __init__(self, md, page: str):
        super().__init__(md)
        self.page = page

    def run(self, root):
        for link in root.iter("a"):
            link.set("href", app_href(link.get("href", ""), self.page))


class _LinksExtension(Extension):
    def __init__(self, page: str):
        super().__init__()
        self.page = page

    def extendMarkdown(self, md):  # python-markdown's name
        md.treeprocessors.register(_LinksToApp(md, self.page), "copa_links", 0)


def app_href(href: str, page: str) -> str:
    """The app's address for a link written in the Markdown page ``page``.

    Examples
    --------
    >>> app_href("methods.md#copa", "index")
    '/docs/methods#copa'
    >>> app_href("../methods.md", "reference/core")
    '/docs/methods'
    >>> app_href("index.md", "cli")
    '/docs/'
    >>> app_href("https://example.org/a.md", "cli")
    'https://example.org/a.md'
    """
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or not parts.path.endswith(".md") or href.startswith("/"):
        return href
    target = posixpath.normpath(posixpath.join(posixpath.dirname(page), parts.path))
    name = target.removesuffix(".md")
    name = "" if name == "index" else name.removesuffix("/index")
    return f"{DOCS_PATH}/{name}" + (f"#{parts.fragment}" if parts.fragment else "")


def render_page(name: str, folder: Path | None = None) -> tuple[str, str]:
    """The title and the HTML body of the page ``name`` (``""`` for the index).

    Raises
    ------
    FileNotFoundError
        When no such page exists under the docs folder.
    """
    folder = folder or docs_root()[0]
    if name and not _PAGE_NAME.match(name):
        raise FileNotFoundError(name)
    path = folder / f"{name or 'index'}.md"
    if not path.is_file():
        raise FileNotFoundError(name)
    text = expand_reference_blocks(path.read_text(encoding="utf-8"))
    md = markdown.Markdown(extensions=[
        "tables", "fenced_code", "attr_list", "admonition", "toc",
        _LinksExtension(name or "index")])
    body = md.convert(text)
    title_match = re.search(r"<h1[^>]*>(.*?)</h1>", body, re.DOTALL)
    title = re.sub(r"<[^>]+>", "", title_match.group(1)) if title_match else "copa-dash"
    return html.unescape(title), body


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 0; color: #222; line-height: 1.5; }
.docs { display: flex; gap: 2rem; max-width: 75rem; margin: 0 auto; padding: 1rem; }
nav.docs-nav { flex: 0 0 14rem; font-size: 0.95rem; position: sticky; top: 0; align-self: flex-start;
                max-height: 100vh; overflow-y: auto; }
nav.docs-nav ul { list-style: none; padding-left: 0.8rem; margin: 0.2rem 0; }
nav.docs-nav .current { font-weight: bold; }
main { flex: 1; min-width: 0; }
pre { background: #f5f5f5; padding: 0.6rem; overflow-x: auto; }
code { background: #f5f5f5; }
table { border-collapse: collapse; display: block; overflow-x: auto; }
td, th { border: 1px solid #ccc; padding: 0.2rem 0.5rem; }
.admonition { border-left: 4px solid #4a7ebb; background: #eef3fa; padding: 0.3rem 0.8rem; }
"""


def page_html(name: str, folder: Path | None = None, config: Path | None = None) -> str:
    """The whole HTML document of a page: the side menu from the nav, then the page."""
    root_folder, root_config = docs_root()
    title, body = render_page(name, folder or root_folder)
    items, section = [], None
    for page in nav_pages(config or root_config):
        if page.section != section and page.section:
            items.append(f"<li>{html.escape(page.section)}</li>")
        section = page.section
        current = ' class="current"' if page.name == name else ""
        indent = ' style="margin-left: 0.8rem"' if page.section else ""
        items.append(f'<li{indent}><a{current} href="{page.href}">{html.escape(page.title)}'
                     "</a></li>")
    menu = ('<nav class="docs-nav"><p><a href="/">copa-dash</a> · <a href="/help">Help</a></p>'
            f"<ul>{''.join(items)}</ul></nav>")
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{html.escape(title)} - copa-dash docs</title><style>{_STYLE}</style>"
            f'</head><body><div class="docs">{menu}<main>{body}</main></div></body></html>')


def register_docs(server: Flask) -> None:
    """Serve the documentation pages at ``/docs/`` and ``/docs/<page>``."""

    def serve(name: str = "") -> Response:
        name = name.strip("/").removesuffix(".md")
        try:
            return Response(page_html(name), mimetype="text/html")
        except FileNotFoundError:
            abort(404)

    server.add_url_rule(f"{DOCS_PATH}/", "copa_docs_index", serve)
    server.add_url_rule(f"{DOCS_PATH}/<path:name>", "copa_docs_page", serve)
