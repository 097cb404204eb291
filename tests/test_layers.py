"""The package's layers hold: ``ui -> services -> data -> core``, read from the source with ast.

Every import is counted, at the top of a module or inside a function, so a lazy import cannot
hide a wrong arrow. Nothing is imported: the test reads files and runs in well under a second.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "copa_dash"
PLOTTING = ("dash", "plotly", "dash_table", "dash_bootstrap_components")
# the UI may show core's error types (they are the services' error vocabulary too)
UI_MAY_IMPORT = ("copa_dash.core.errors",)


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_package(name: str) -> bool:
    return MODULES.get(name, Path()).name == "__init__.py"


def _imports(name: str) -> set[str]:
    """Absolute names of everything ``name`` imports; ``from pkg import mod`` counts as ``pkg.mod``."""
    path = MODULES[name]
    found = set()
    package = name if _is_package(name) else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            for alias in node.names:
                full = f"{target}.{alias.name}"
                found.add(full if full in MODULES else target)
    return found


GRAPH = {name: _imports(name) for name in MODULES}


def _inside(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _violations(layer: str, bad) -> list[str]:
    return sorted(f"{m} imports {t}" for m in GRAPH if _inside(m, layer)
                  for t in GRAPH[m] if bad(t))


def _page(name: str) -> str | None:
    parts = name.split(".")
    return parts[3] if len(parts) > 3 and parts[:3] == ["copa_dash", "ui", "features"] else None


def test_the_import_reader_sees_relative_nested_and_module_imports():
    # a known edge of each kind, so that an empty graph cannot pass the rules below
    assert "copa_dash.core.errors" in GRAPH["copa_dash.services.explorer"]        # relative
    assert "copa_dash.services.selection" in GRAPH["copa_dash.services.explorer"]  # from . import
    assert "copa_dash.ui.app_shell" in GRAPH["copa_dash.app_factory"]             # in a function
    assert "dash" in GRAPH["copa_dash.ui.app_shell"]


def test_core_imports_nothing_of_copa_dash_outside_core():
    assert _violations("copa_dash.core", lambda t: _inside(t, "copa_dash")
                       and not _inside(t, "copa_dash.core")) == []


@pytest.mark.parametrize("layer", ["copa_dash.core", "copa_dash.data", "copa_dash.services"])
def test_below_the_ui_nothing_imports_dash_or_plotly(layer):
    assert _violations(layer, lambda t: t.split(".")[0] in PLOTTING) == []


def test_data_does_not_import_services_or_ui():
    assert _violations("copa_dash.data", lambda t: _inside(t, "copa_dash.services")
                       or _inside(t, "copa_dash.ui")) == []


def test_services_do_not_import_the_ui():
    assert _violations("copa_dash.services", lambda t: _inside(t, "copa_dash.ui")) == []


def test_the_ui_reaches_data_and_core_only_through_services():
    def bad(target):
        return ((_inside(target, "copa_dash.core") or _inside(target, "copa_dash.data"))
                and target not in UI_MAY_IMPORT)
    assert _violations("copa_dash.ui", bad) == []


def test_no_page_imports_another_page():
    wrong = sorted(f"{m} imports {t}" for m in GRAPH if _page(m)
                   for t in GRAPH[m] if _page(t) and _page(t) != _page(m))
    assert wrong == []


def test_common_imports_no_page():
    assert _violations("copa_dash.ui.common", lambda t: _page(t) is not None) == []


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph`` (module -> imported names), of any length: its strongly
    connected components with more than one module, or one that imports itself (Tarjan's
    algorithm, iterative so that a deep chain cannot hit Python's recursion limit)."""
    edges = {m: sorted(t for t in targets if t in graph) for m, targets in graph.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            if i < len(edges[node]):
                work.append((node, i + 1))
                target = edges[node][i]
                if target not in index:
                    work.append((target, 0))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in edges[node]:
                    cycles.append(sorted(component))
            if work:                                  # back in the importer: pass low up
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return sorted(cycles)


def test_the_cycle_finder_finds_cycles_of_any_length():
    chain = {"a": {"b"}, "b": {"c"}, "c": {"d", "numpy"}, "d": set()}
    assert import_cycles(chain) == []
    assert import_cycles({**chain, "d": {"a"}}) == [["a", "b", "c", "d"]]       # 4 long
    assert import_cycles({**chain, "c": {"b"}, "e": {"e"}}) == [["b", "c"], ["e"]]
    long = {f"m{i}": {f"m{i + 1}"} for i in range(5000)} | {"m5000": {"m0"}}
    assert len(import_cycles(long)[0]) == 5001


def test_no_modules_import_each_other_round_a_cycle():
    """No chain of imports, lazy ones included, leads back to where it started."""
    assert import_cycles(GRAPH) == []


def test_outside_the_core_only_its_public_modules_are_imported():
    def private(target):
        parts = target.split(".")
        return _inside(target, "copa_dash.core") and any(p.startswith("_") for p in parts[2:])
    wrong = sorted(f"{m} imports {t}" for m in GRAPH if not _inside(m, "copa_dash.core")
                   for t in GRAPH[m] if private(t))
    assert wrong == []


#: What each top-level module of the package may import of the others ("" is the package
#: itself). Every top-level module must be here, so a new one has to take its place. The finer
#: rules above hold inside these (the UI reaches core only for its errors, ...).
MAY_IMPORT = {
    "core": set(),
    "version": set(),
    "config": {"core"},
    "data": {"core"},
    "services": {"core", "data", "config", "version"},
    "reports": {"core", "data", "services", "config", "version"},
    "api": {"core", "data", "services", "config", "version", "client_identity"},
    "web_security": {"core", "config"},
    # the hosted instance's request guards (Flask/WSGI level): they import nothing of ours
    "client_identity": set(),
    "host_check": set(),
    "callback_guard": set(),
    "web_transport": set(),
    "slow_bodies": set(),
    # `copa-dash serve` assembles the app and starts it
    "cli": {"core", "data", "services", "reports", "config", "version", "app_factory"},
    "ui": {"core", "services", "reports", "config", "version", "client_identity"},
    # the notebook shows the app inline, and assembling the app is app_factory's job
    "notebook": {"core", "data", "services", "reports", "config", "version", "app_factory",
                 "notebook_compile"},
    # data: the shipped assets' folder (data/package_files.py)
    "app_factory": {"core", "data", "services", "config", "version", "api", "web_security",
                    "ui", "client_identity", "host_check", "callback_guard", "web_transport",
                    "slow_bodies"},
    # the notebook API's other modules: robustness, tracker sources, the kernels' hand-over
    "notebook_robustness": {"core", "data", "services", "notebook"},
    "notebook_sources": {"core", "data"},
    "notebook_compile": {"core", "services"},
    # `python -m copa_dash`: the command line's entry point, the one importer of cli
    "__main__": {"cli"},
    "": {"notebook", "notebook_robustness", "notebook_sources", "version"},
}
FRONT_ENDS_WITHOUT_PAGES = ("cli", "api", "reports", "notebook")


def _top(name: str) -> str:
    return name.split(".")[1] if name.count(".") else ""


def test_every_top_level_module_has_its_place():
    assert {_top(m) for m in MODULES} == set(MAY_IMPORT)


def test_top_level_modules_import_only_what_their_place_allows():
    wrong = sorted(f"{m} imports {t}" for m in GRAPH for t in GRAPH[m]
                   if _inside(t, "copa_dash") and _top(t) != _top(m)
                   and _top(t) not in MAY_IMPORT[_top(m)])
    assert wrong == []


@pytest.mark.parametrize("front_end", FRONT_ENDS_WITHOUT_PAGES)
def test_front_ends_other_than_the_pages_never_import_the_ui(front_end):
    assert _violations(f"copa_dash.{front_end}", lambda t: _inside(t, "copa_dash.ui")) == []


def test_nothing_imports_the_command_line():
    wrong = sorted(f"{m} imports {t}" for m in GRAPH if not _inside(m, "copa_dash.cli")
                   and m != "copa_dash.__main__"      # python -m copa_dash runs the CLI
                   for t in GRAPH[m] if _inside(t, "copa_dash.cli"))
    assert wrong == []


# services/views: one frozen view per page, below the UI. It reads the services that define
# a page's vocabulary (criteria, ties, permutations), and nothing that runs an analysis
# except the view memo (services/views/memo.py: the explorer's computation, kept by view).
VIEWS_MAY_IMPORT = {
    "copa_dash.services.default_view", "copa_dash.services.selection",
    "copa_dash.services.rankings", "copa_dash.services.systems", "copa_dash.services.posets",
    "copa_dash.services.generalization",
    # the memo only
    "copa_dash.services.catalog", "copa_dash.services.explorer", "copa_dash.services.recent",
}


def test_the_views_import_only_their_vocabulary_below_the_ui():
    wrong = sorted(f"{m} imports {t}" for m in GRAPH if _inside(m, "copa_dash.services.views")
                   for t in GRAPH[m] if _inside(t, "copa_dash.services")
                   and not _inside(t, "copa_dash.services.views") and t not in VIEWS_MAY_IMPORT)
    assert wrong == []
    memo_only = {"copa_dash.services.catalog", "copa_dash.services.explorer"}
    assert sorted(f"{m} imports {t}" for m in GRAPH if _inside(m, "copa_dash.services.views")
                  and m != "copa_dash.services.views.memo" for t in GRAPH[m] if t in memo_only) == []


def test_the_pages_state_has_no_url_code_of_its_own():
    """A page's state.py names its view from services/views; the link format lives there."""
    states = [m for m in GRAPH if _page(m) and m.endswith(".state")]
    assert len(states) == 5
    assert sorted(f"{m} imports {t}" for m in states for t in GRAPH[m]
                  if t.startswith("urllib")) == []
    assert all(any(_inside(t, "copa_dash.services.views") for t in GRAPH[m]) for m in states)
