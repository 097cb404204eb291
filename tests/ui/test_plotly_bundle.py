"""The partial plotly.js bundle in assets/ (built by tools/plotly_bundle): one file, the
plotly.js version the installed Python plotly is made for (the one dcc.Graph would otherwise
load), and every trace type the pages draw registered in it. The browser side (the page uses
it, and never fetches the full bundle) is in tests/e2e/test_page_scripts.py."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import plotly.graph_objs as go
from plotly.basedatatypes import BaseTraceType
from plotly.offline import get_plotlyjs_version

ROOT = Path(__file__).resolve().parents[2]
ENTRY = ROOT / "tools" / "plotly_bundle" / "entry.js"


def bundled_trace_types() -> set[str]:
    """The trace modules entry.js registers, and scatter (plotly.js's core always has it)."""
    registered = re.search(r"Plotly\.register\(\[(.*?)\]\);", ENTRY.read_text(), re.DOTALL).group(1)
    return {"scatter", *re.findall(r"require\('plotly\.js/lib/(\w+)'\)", registered)}


def _named_kinds(node):
    """The trace types ``node`` names: the value of a ``"type"`` key or keyword, a string a ``return``
    gives (also from either side of an ``if``/``else``), or ``go.<Trace>``. Any other string
    is not a trace's type: a pattern id's key ``"table"`` is not a table trace."""
    if isinstance(node, ast.Dict):
        return [(v.value, v.lineno) for k, v in zip(node.keys, node.values)
                if isinstance(k, ast.Constant) and k.value == "type"
                and isinstance(v, ast.Constant) and isinstance(v.value, str)]
    if isinstance(node, ast.keyword) and node.arg == "type" \
            and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
        return [(node.value.value, node.value.lineno)]                   # update(type="...")
    if isinstance(node, ast.Return) and node.value is not None:
        return [(c.value, c.lineno) for c in ast.walk(node.value)
                if isinstance(c, ast.Constant) and isinstance(c.value, str)
                and not isinstance(node.value, (ast.Dict, ast.Call))]
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
            and node.value.id == "go":
        return [(node.attr.lower(), node.lineno)]
    return []


def drawn_trace_types() -> dict[str, list[str]]:
    """Every plotly trace type named in copa_dash/ui, as a string (``"type": "box"``, a
    returned ``"scattergl"``) or a graph-objects class (``go.Scatter``), with where."""
    names = {name.lower() for name in dir(go)
             if isinstance(getattr(go, name), type) and issubclass(getattr(go, name), BaseTraceType)}
    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / "copa_dash" / "ui").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            for kind, line in _named_kinds(node):
                if kind in names:
                    found.setdefault(kind, []).append(f"{path.relative_to(ROOT)}:{line}")
    return found


def test_assets_hold_one_bundle_of_the_plotly_js_version_python_plotly_is_made_for():
    bundles = sorted((ROOT / "assets").glob("plotly-*-copa.min.js"))
    assert [b.name for b in bundles] == [f"plotly-{get_plotlyjs_version()}-copa.min.js"], (
        "rebuild the bundle for the installed plotly: cd tools/plotly_bundle && npm ci && "
        "(set plotly.js's version in package.json) node build.js")
    head = bundles[0].read_text()[:200]
    assert f"plotly.js v{get_plotlyjs_version()}" in head


def test_every_trace_type_the_pages_draw_is_in_the_bundle():
    drawn = drawn_trace_types()
    missing = {kind: where for kind, where in drawn.items() if kind not in bundled_trace_types()}
    assert not missing, f"add these to tools/plotly_bundle/entry.js and rebuild: {missing}"
    # the scan sees the pages' figures: the explorer's scatter and WebGL switch, the radar,
    # the parallel coordinates of the generalization page
    assert {"scatter", "scattergl", "scatterpolar", "parcoords", "box"} <= set(drawn)


def test_the_bundle_registers_nothing_the_pages_never_draw():
    assert bundled_trace_types() == set(drawn_trace_types())
