"""The API reference pages as the app serves them: each mkdocstrings block
(``::: copa_dash.core.ranks``, with an optional ``members:`` list) becomes the module's and
its public functions' signatures and docstrings, read from the source with :mod:`ast`.

The built site renders the same docstrings with mkdocstrings (numpy style, parameters as
tables); here they are shown as written, so the reference works offline without the docs
dependencies and without importing (running) the documented modules.
"""

from __future__ import annotations

import ast
import re
from importlib import resources

_BLOCK = re.compile(r"^::: (?P<module>[\w.]+)\n(?P<options>(?:(?:    .*)?\n)*)", re.MULTILINE)
_MEMBER = re.compile(r"^\s+- (\w+)\s*$", re.MULTILINE)


def expand_reference_blocks(text: str) -> str:
    """``text`` with every ``::: module`` block replaced by its Markdown reference."""
    return _BLOCK.sub(_block_markdown, text)


def _block_markdown(match: re.Match) -> str:
    module = match["module"]
    members = _MEMBER.findall(match["options"])
    try:
        source = _module_source(module)
    except FileNotFoundError:
        return f"\n`{module}`: its source is not part of this installation.\n\n"
    return module_markdown(module, source, members or None) + "\n"


def _module_source(module: str) -> str:
    parts = module.split(".")
    if parts[0] != "copa_dash":
        raise FileNotFoundError(module)
    package = resources.files("copa_dash")
    candidates = [package.joinpath(*parts[1:], "__init__.py")]
    if parts[1:]:
        candidates.insert(0, package.joinpath(*parts[1:-1], parts[-1] + ".py"))
    for candidate in candidates:
        if candidate.is_file():
            return candidate.read_text(encoding="utf-8")
    raise FileNotFoundError(module)


def module_markdown(module: str, source: str, members: list[str] | None = None) -> str:
    """The Markdown reference of one module: its docstring, then each member's signature and
    docstring (``members`` in that order, else ``__all__``, else every public top-level
    function and class in source order).

    Examples
    --------
    >>> print(module_markdown("m", 'def f(x, /, *, p=2):\\n    "Half of x."\\n'))
    ## `m` {#m}
    <BLANKLINE>
    ### `f` {#m.f}
    <BLANKLINE>
    ```python
    def f(x, /, *, p=2)
    ```
    <BLANKLINE>
    ```text
    Half of x.
    ```
    <BLANKLINE>
    """
    tree = ast.parse(source)
    defined = {node.name: node for node in tree.body
               if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    names = members or _all_names(tree) or [n for n in defined if not n.startswith("_")]
    out = [f"## `{module}` {{#{module}}}", ""]
    doc = ast.get_docstring(tree)
    if doc:
        out += ["```text", doc, "```", ""]
    for name in names:
        node = defined.get(name)
        if node is None:
            continue  # re-exported from another module: documented there
        out += [f"### `{name}` {{#{module}.{name}}}", "", "```python", _signature(node), "```",
                ""]
        doc = ast.get_docstring(node)
        if doc:
            out += ["```text", doc, "```", ""]
    return "\n".join(out)


def _all_names(tree: ast.Module) -> list[str]:
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id == "__all__"):
            try:
                return list(ast.literal_eval(node.value))
            except ValueError:
                return []
    return []


def _signature(node: ast.FunctionDef | ast.ClassDef) -> str:
    if isinstance(node, ast.ClassDef):
        bases = ", ".join(ast.unparse(base) for base in node.bases)
        return f"class {node.name}({bases})" if bases else f"class {node.name}"
    returns = f" -> {ast.unparse(node.returns)}" if node.returns else ""
    return f"def {node.name}({ast.unparse(node.args)}){returns}"
