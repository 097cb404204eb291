"""Session 22 (2): the share box writes its link in the answer's own render, and the header's
links follow Explore's context in the same pass as the context's write (assets/context.js),
not by a callback whose outputs Dash marks loading after the figures' draw."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import dash
import pytest
from dash import dcc

from copa_dash.ui.common.context import ContextIds, _config, register_context_callbacks
from copa_dash.ui.common.url_sync import share_box

CONTEXT_JS = Path(__file__).resolve().parents[2] / "assets" / "context.js"
PATHS = ["/explore", "/rankings", "/upload", "/posets"]

# assets/context.js run in node with the little of a page it uses: the header's links as the
# document has them (Dash's JSON of each dict id) and dash_clientside.set_props, recorded.
HARNESS = """
const input = JSON.parse(process.argv[1]);
const calls = [];
const links = input.shown.map(([path, href]) => ({
  id: JSON.stringify({path: path, type: 'nav-link'}),
  getAttribute: (name) => name === 'href' ? href : null,
}));
global.window = {
  dash_clientside: {no_update: {}, set_props: (id, props) => calls.push([id, props])},
  localStorage: {getItem: () => null},
  setTimeout: () => 0, clearTimeout: () => undefined,
  history: {replaceState: () => undefined}, dispatchEvent: () => undefined,
};
global.document = {querySelectorAll: (css) => css === 'a.nav-link[id]' ? links : []};
require(input.script);
const context = window.dash_clientside.copa_context;
if (input.action === 'capture') {
  context.follow('/explore', '?dataset=d', null, input.config);      // the page's first pass
  window.copaContext.capture(new URL(input.link));
} else {
  const ids = input.shown.map(([path]) => ({type: 'nav-link', path: path}));
  context.syncNav(input.stored, ids, input.shown.map(([, href]) => href), input.config);
}
console.log(JSON.stringify(calls));
"""

needs_node = pytest.mark.skipif(shutil.which("node") is None,
                                reason="needs node to run the clientside code")


def _run(**given) -> list:
    """The set_props calls assets/context.js made, as [id, props] pairs."""
    given = {"script": str(CONTEXT_JS), "config": _config(), **given}
    out = subprocess.run(["node", "-e", HARNESS, json.dumps(given)], capture_output=True,
                         text=True, check=True, timeout=60)
    return json.loads(out.stdout)


@needs_node
def test_a_new_context_sets_the_header_links_before_the_store():
    """Explore's new link (url_sync.js -> capture): the links that change are set at once,
    then the store; the links already right, and the pages without a dataset, are left."""
    link = "http://h/explore?dataset=d&obj=a:max&obj=b:min&alpha=0.5"
    calls = _run(action="capture", link=link,
                 shown=[["/explore", "/explore?dataset=d"], ["/rankings", "/rankings"],
                        ["/upload", "/upload"], ["/posets", "/posets?dataset=d&ctx_obj=a%3Amax&ctx_obj=b%3Amin"]])
    assert calls == [
        [{"type": "nav-link", "path": "/explore"},
         {"href": "/explore?dataset=d&obj=a:max&obj=b:min&alpha=0.5"}],
        [{"type": "nav-link", "path": "/rankings"},
         {"href": "/rankings?dataset=d&ctx_obj=a%3Amax&ctx_obj=b%3Amin"}],
        [ContextIds.LAST, {"data": {"dataset": "d", "query": "ctx_obj=a%3Amax&ctx_obj=b%3Amin",
                                    "explore": "dataset=d&obj=a:max&obj=b:min&alpha=0.5"}}],
    ]


@needs_node
def test_the_store_callback_sets_only_the_links_that_differ():
    stored = {"dataset": "d", "query": "ctx_obj=a%3Amax", "explore": "dataset=d&obj=a:max"}
    right = [["/explore", "/explore?dataset=d&obj=a:max"],
             ["/rankings", "/rankings?dataset=d&ctx_obj=a%3Amax"], ["/upload", "/upload"]]
    assert _run(action="sync", stored=stored, shown=right) == []
    stale = [right[0], ["/rankings", "/rankings?dataset=old"], right[2]]
    assert _run(action="sync", stored=stored, shown=stale) == [
        [{"type": "nav-link", "path": "/rankings"},
         {"href": "/rankings?dataset=d&ctx_obj=a%3Amax"}]]
    # the context forgotten (a deleted upload): the links drop it
    assert _run(action="sync", stored={}, shown=right) == [
        [{"type": "nav-link", "path": "/explore"}, {"href": "/explore"}],
        [{"type": "nav-link", "path": "/rankings"}, {"href": "/rankings"}]]


def test_the_header_links_are_no_callbacks_outputs():
    """A callback's outputs are marked loading (data-dash-is-loading set and removed) each
    time it runs: the store's callback sets the links itself, so it has none."""
    app = dash.Dash(__name__)
    register_context_callbacks(app)
    outputs = " ".join(app.callback_map)
    assert ContextIds.LAST in outputs          # the map names the callbacks' outputs
    assert ContextIds.NAV not in outputs


def test_the_share_box_renders_its_value():
    """A read-only one-row textarea (Dash 4's dcc.Input writes its value after the paint)
    that the copy button copies from and the label names."""
    label, box, copy = share_box("explore-share", "/explore", "dataset=d")
    assert isinstance(box, dcc.Textarea)
    assert (box.id, box.readOnly, box.rows, box.value) == ("explore-share", True, 1, "/explore?dataset=d")
    assert "share-link" in box.className.split()
    assert label.htmlFor == box.id and copy.target_id == box.id
