"""The Help page links to the documentation pages, which the app serves itself at
``/docs/<page>`` (offline), and the links between those pages resolve."""

from __future__ import annotations

import html
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from copa_dash.app_factory import create_app
from copa_dash.config import Settings
from copa_dash.ui.features.help.docs_site import app_href, nav_pages
from copa_dash.ui.features.help.layout import layout
from tests.ui.dash_tree import find, walk

ROOT = Path(__file__).resolve().parents[2]


class _Page(HTMLParser):
    """The links, element ids and h1 text of a served page."""

    def __init__(self):
        super().__init__()
        self.links, self.ids, self.h1, self._in_h1 = [], set(), "", False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        self._in_h1 = self._in_h1 or tag == "h1"

    def handle_endtag(self, tag):
        self._in_h1 = self._in_h1 and tag != "h1"

    def handle_data(self, data):
        if self._in_h1:
            self.h1 += data


def _parse(body: bytes) -> _Page:
    page = _Page()
    page.feed(body.decode("utf-8"))
    return page


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("docs_site")
    app = create_app(Settings(data_dir=tmp / "data", cache_dir=tmp / "cache"))
    return app.server.test_client()


def _help_links() -> list[str]:
    docs = find(layout(), "help-docs-links")
    assert docs is not None, "the Help page has no documentation links"
    return [node.href for node in walk(docs) if getattr(node, "href", None)]


def test_help_links_every_page_of_the_site_menu_in_its_order():
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    files = re.findall(r"^\s*- [^:]+:\s*(\S+\.md)\s*$", config, re.MULTILINE)
    assert len(files) >= 9
    expected = ["/docs/" + ("" if f == "index.md" else f.removesuffix(".md")) for f in files]
    assert _help_links() == expected
    assert [page.href for page in nav_pages()] == expected


def test_each_help_link_answers_200_with_its_pages_own_text(client):
    for href in _help_links():
        answer = client.get(href)
        assert answer.status_code == 200, href
        name = href.removeprefix("/docs/") or "index"
        source = (ROOT / "docs" / f"{name}.md").read_text(encoding="utf-8")
        title = re.search(r"^# (.+)$", source, re.MULTILINE).group(1)
        assert _parse(answer.data).h1.strip().rstrip("¶").strip() == title, href
    methods = client.get("/docs/methods").data.decode("utf-8")
    assert "u_ik = (1/N) * #{ j : y'_jk &lt; y'_ik }" in methods  # docs/methods.md's formula


def test_links_between_pages_resolve_to_a_page_and_its_heading(client):
    """Every /docs link on every page answers 200, and its #anchor is an id on the target."""
    served = {}

    def get(path):
        if path not in served:
            answer = client.get(path)
            served[path] = (answer.status_code, _parse(answer.data))
        return served[path]

    checked = 0
    for href in _help_links():
        for link in get(href)[1].links:
            if not link.startswith("/docs/"):
                continue
            path, _, anchor = link.partition("#")
            status, target = get(path)
            assert status == 200, f"{href} links to {link}"
            if anchor:
                assert anchor in target.ids, f"{href} links to {link}"
            checked += 1
    assert checked > 20
    # a known one: the pages page links to the owner tokens section of deploying
    pages = _parse(client.get("/docs/pages").data)
    assert "/docs/deploying#owner-tokens-and-what-the-instance-protects" in pages.links


def test_unknown_pages_and_paths_outside_the_docs_are_not_found(client):
    for path in ("/docs/no-such-page", "/docs/../README", "/docs/..%2Fpyproject",
                 "/docs/examples/notebook_api.ipynb"):
        assert client.get(path).status_code == 404, path


def test_markdown_links_become_app_addresses():
    assert app_href("deploying.md#owner-tokens", "pages") == "/docs/deploying#owner-tokens"
    assert app_href("../methods.md", "reference/core") == "/docs/methods"
    assert app_href("#local", "cli") == "#local"
    assert app_href("https://example.org/x.md", "cli") == "https://example.org/x.md"


def test_the_served_api_reference_holds_each_functions_signature_and_docstring(client):
    """Offline, the reference pages show what ``inspect`` reads from the imported functions
    (the built site renders the same docstrings with mkdocstrings)."""
    import inspect

    import copa_dash.notebook
    from copa_dash.core import criteria

    for page, module, names in (("reference/core", criteria, ("copa_select", "copa_scores")),
                                ("reference/notebook", copa_dash.notebook, ("select", "front"))):
        answer = client.get(f"/docs/{page}")
        assert answer.status_code == 200
        served = _parse(answer.data)
        text = answer.data.decode("utf-8")
        for name in names:
            function = getattr(module, name)
            assert f"{module.__name__}.{name}" in served.ids, name
            first_line = inspect.getdoc(function).splitlines()[0]
            assert html.escape(first_line, quote=True) in text, name
            parameters = list(inspect.signature(function).parameters)
            assert f"def {name}({parameters[0]}" in text, name


def test_an_installed_wheels_copy_of_the_docs_is_served(tmp_path, monkeypatch):
    """A wheel carries the pages as ``copa_dash/_shipped/docs`` and the nav as
    ``copa_dash/_shipped/mkdocs.yml`` (as it carries datasets/ and assets/): found there."""
    from types import SimpleNamespace

    from copa_dash.ui.features.help import docs_site

    package = tmp_path / "site-packages" / "copa_dash"
    shutil.copytree(ROOT / "docs", package / "_shipped" / "docs")
    shutil.copy(ROOT / "mkdocs.yml", package / "_shipped" / "mkdocs.yml")
    (package / "_shipped" / "docs" / "cli.md").write_text("# The wheel's own CLI page\n",
                                                          encoding="utf-8")
    monkeypatch.setattr(docs_site, "resources", SimpleNamespace(files=lambda name: package))
    assert docs_site.docs_root() == (package / "_shipped" / "docs",
                                     package / "_shipped" / "mkdocs.yml")
    assert "The wheel's own CLI page" in docs_site.page_html("cli")
    assert [p.href for p in docs_site.nav_pages()][:4] == ["/docs/", "/docs/install", "/docs/pages",
                                                          "/docs/cli"]


def test_without_its_docs_the_help_page_says_so(tmp_path, monkeypatch):
    from copa_dash.ui.features.help import docs_site
    from copa_dash.ui.features.help import layout as help_layout

    monkeypatch.setattr(docs_site, "_CHECKOUT", tmp_path)
    monkeypatch.setattr(help_layout, "nav_pages", lambda: docs_site.nav_pages(tmp_path / "x"))
    section = help_layout.documentation()
    assert find(section, "help-docs-links") is None
    assert "not part of this installation" in " ".join(
        node.children for node in walk(section) if isinstance(node.children, str))
