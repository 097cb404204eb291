"""What the views of the rankings and systems pages share, declared once.

Both pages show one dataset, in one of their tabs, for the objective columns chosen by name;
their URLs write these as ``dataset``, ``tab`` and one ``obj`` per objective, and both fall
back the same way when the link names none the dataset has.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import ClassVar

from ..default_view import mostly_missing
from .query import as_list, first


@dataclass(frozen=True)
class TabbedView:
    """The dataset shown, the tab open and the objectives chosen.

    A page's state subclasses this (a frozen dataclass too) and names its tabs in ``TABS``; a
    ``tab`` that is not one of them (a hand-edited link, an old one) opens the first.

    Attributes
    ----------
    dataset : str
        The dataset's reference ("" before the page has filled it in).
    tab : str
        The open tab, one of ``TABS``.
    objectives : tuple of str
        The objective columns chosen, by name, each once.
    """

    TABS: ClassVar[tuple[str, ...]] = ("",)
    dataset: str = ""
    tab: str = ""
    objectives: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.tab not in self.TABS:
            object.__setattr__(self, "tab", self.TABS[0])   # frozen: set once, as it is made

    @staticmethod
    def shared_fields(query: dict) -> dict:
        """The shared fields read from a parsed query (``{key: str | list[str]}``)."""
        return {"dataset": first(query, "dataset"), "tab": first(query, "tab"),
                "objectives": tuple(dict.fromkeys(as_list(query.get("obj"))))}

    def objectives_in(self, opened, at_least: int = 1) -> tuple[str, ...]:
        """The chosen objectives the opened dataset has, in its order; when fewer than
        ``at_least`` are, those of the dataset's default view, else (an upload) all of its
        objectives but those missing in most rows, else all of them."""
        names = list(opened.table.objective_names)
        objectives = tuple(o for o in self.objectives if o in names)
        if len(objectives) >= at_least:
            return objectives
        view = opened.default_view
        if view is not None and view.objectives:
            chosen = list(view.objectives)
        else:       # an upload: as its first view on Explore, without the objectives missing
            # in most rows (AMLB's auc and logloss, each for one kind of task, emptied every
            # row together)
            left_out = {name for name, _ in mostly_missing(opened.table, names)}
            chosen = [n for n in names if n not in left_out]
        objectives = tuple(n for n in names if n in chosen)
        return objectives if len(objectives) >= at_least else tuple(names)


def opened_of(table, dataset: str = "", default_view=None):
    """``table`` as an opened dataset (``.table``, ``.default_view``, ``.ref``): an opened
    dataset as it is, an :class:`~copa_dash.data.schema.EvalTable` with ``dataset`` as its
    reference and ``default_view`` as its stated view."""
    if hasattr(table, "table") and hasattr(table, "default_view"):
        return table
    return SimpleNamespace(table=table, default_view=default_view, ref=dataset)
