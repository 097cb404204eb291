"""No function of the package runs over 100 lines outside the compiled kernels (core/_kernels,
where a kernel is one loop nest on purpose), read from the source with ast: a longer one is
split into helpers that each do one thing (STYLE.md, "Modules 100-400 lines")."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "copa_dash"
MAX_LINES = 100


def long_functions(root: Path, max_lines: int = MAX_LINES) -> list[str]:
    """``path:line name (n lines)`` of every function or method longer than ``max_lines``,
    its docstring and decorators' body included, in the ``.py`` files below ``root``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        if "_kernels" in path.relative_to(root).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > max_lines:
                    found.append(f"{path.relative_to(root)}:{node.lineno} {node.name} "
                                 f"({lines} lines)")
    return found


def test_the_reader_sees_long_functions_and_skips_kernels(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_LINES))
    (tmp_path / "long.py").write_text(f"def too_long():\n{body}\n")
    (tmp_path / "short.py").write_text("def fine():\n    return 1\n")
    (tmp_path / "_kernels").mkdir()
    (tmp_path / "_kernels" / "loop.py").write_text(f"def kernel():\n{body}\n")
    assert long_functions(tmp_path) == ["long.py:1 too_long (101 lines)"]


def test_no_function_is_over_100_lines_outside_the_kernels():
    assert long_functions(PACKAGE) == []
