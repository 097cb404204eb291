"""The data layer: table schema, the one table reader, role guesses (pandas lives here).

``schema``: Objective, Roles, DefaultView, EvalTable. ``io``: read_table, build_eval_table,
Limits. ``role_guess``: guess_direction, guess_id, guess_roles, add_row_ids, row_id_name
(upload mapping form).
"""

from .io import Limits, build_eval_table, read_table
from .proposal import guess_roles
from .role_guess import add_row_ids, guess_direction, guess_id, row_id_name
from .schema import DefaultView, EvalTable, Objective, Roles

__all__ = ["DefaultView", "EvalTable", "Limits", "Objective", "Roles", "add_row_ids",
           "build_eval_table", "guess_direction", "guess_id", "guess_roles", "read_table",
           "row_id_name"]
