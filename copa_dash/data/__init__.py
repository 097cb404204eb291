"""The data layer: table schema, the one table reader, bundled datasets (pandas lives here)."""

from .schema import DefaultView, EvalTable, Objective, Roles

__all__ = ["DefaultView", "EvalTable", "Objective", "Roles"]
