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


def test_no_two_modules_import_each_other():
    pairs = sorted({tuple(sorted((a, b))) for a in GRAPH for b in GRAPH[a]
                    if b in GRAPH and b != a and a in GRAPH[b]})
    assert pairs == []


def test_outside_the_core_only_its_public_modules_are_imported():
    def private(target):
        parts = target.split(".")
        return _inside(target, "copa_dash.core") and any(p.startswith("_") for p in parts[2:])
    wrong = sorted(f"{m} imports {t}" for m in GRAPH if not _inside(m, "copa_dash.core")
                   for t in GRAPH[m] if private(t))
    assert wrong == []
