"""The role form built from the reader's proposal: id, runs, a role and direction per column.

An objective whose direction could not be guessed is shown with no direction chosen and a
"choose" mark, and Save stays off until the user sets it (or makes the column metadata) - it
is never silently dropped. Each guess says how sure it is (sure / likely / unsure). A wide
table's columns past the short set sit under "More columns", with one control for all of
them and one per column family (``race-*``). Both tables show a page of rows at a time over
one store of every column's role and direction (:mod:`.role_table`).
"""

from __future__ import annotations

from dash import dcc, html

from copa_dash.services.task_span import column_span
from copa_dash.ui.features.upload.ids import UploadIds as ID
from copa_dash.ui.features.upload.ids import UploadMoreIds as MID
from copa_dash.ui.features.upload.ids import UploadReadIds as RID
from copa_dash.ui.features.upload.ids import UploadTableIds as TID
from copa_dash.ui.features.upload.mapping_check import check_and_lock
from copa_dash.ui.features.upload.role_table import (
    initial_mapping,
    mapping_lists,
    role_table,
    row_notes,
)

RUNS_OPTIONS = [{"label": "one row per run (analyse systems)", "value": "runs"},
                {"label": "average the runs per model (one row each)", "value": "average"}]
# the id picker's choice of names the reader makes ("row 1, row 2, ..." or "system and run",
# or "system and configuration" for the table at hand: it offered "row 1, row 2, ... or
# system and run" right above a note saying the rows are configurations, not runs)
ROW_NAMES_LABEL = "names made from the rows ({})"
ROLE_HELP = (
    "An objective is a number to compare models on: say whether lower or higher is better. "
    "A system is the model (or method) several rows are runs of; the seed tells its runs apart. "
    "Metadata columns stay available as filters. At least two objectives: a Pareto front needs "
    "something to trade off.")


def _more_columns(proposal, id_column: str, mapping: dict, notes: dict) -> html.Details:
    """A wide table's columns left out of the short set, with one control for all of them
    and one per column family (``race-*``): taken as objectives or left as metadata."""
    more = [g for g in proposal.columns if g.more]
    families = [{"label": f"{family}-* ({len(columns)} columns)", "value": family}
                for family, columns in proposal.families.items()]
    return html.Details(id=MID.MORE, className="more-columns", hidden=not more, children=[
        html.Summary(more_summary([g.name for g in more], mapping["roles"]), id=MID.MORE_SUMMARY),
        html.Label("All of them:"),
        dcc.RadioItems(id=MID.MORE_ROLE, inline=True, value="metadata", options=[
            {"label": "metadata (filter on them)", "value": "metadata"},
            {"label": "objectives", "value": "objective"}]),
        html.Div(hidden=not families, children=[
            html.Label("Column families to take as objectives (the others stay metadata):"),
            dcc.Checklist(id=MID.FAMILIES, options=families, value=[], inline=True)]),
        role_table("more", mapping, notes, id_column),
    ])


def more_summary(more: list, roles: dict) -> str:
    """The heading of "More columns": how many there are and what they are taken as now
    (it follows the roles, so "All of them: objectives" or a ticked family never leaves it
    saying "left as metadata").

    Examples
    --------
    >>> more_summary(["a", "b"], {"a": "metadata", "b": "metadata"})
    'More columns (2): left as metadata - a short set of objectives is proposed above'
    >>> more_summary(["a", "b"], {"a": "objective", "b": "objective"})
    'More columns (2): all taken as objectives'
    >>> more_summary(["a", "b", "c"], {"a": "objective", "b": "metadata", "c": "ignore"})
    'More columns (3): 1 taken as objective, the other 2 not'
    """
    taken = sum(roles.get(c) == "objective" for c in more)
    head = f"More columns ({len(more)}): "
    if taken == 0:
        return head + "left as metadata - a short set of objectives is proposed above"
    if taken == len(more):
        return head + "all taken as objectives"
    return (head + f"{taken} taken as objective{'s' if taken > 1 else ''}, "
            f"the other {len(more) - taken} not")


def _runs_choice(proposal, frame) -> html.Div:
    system = next((g.name for g in proposal.columns if g.role == "system"), "")
    task = next((g.name for g in proposal.columns if g.role == "task"), None)
    span = column_span(frame[task], task) if task in frame.columns else None
    options = RUNS_OPTIONS if span is None else [RUNS_OPTIONS[0], {
        "label": f"average the runs per model over the table's {span.n} tasks ({span.names()})",
        "value": "average"}]
    return html.Div(className="runs-choice", hidden=not proposal.runs, children=[
        html.Label(f"Several rows share a name in {system!r}: they read as runs of one model."),
        dcc.RadioItems(id=RID.RUNS, options=options, value="runs"),
        *([] if span is None else [html.P(
            [span.sentence("runs"), " After saving, Posets compares the models task by task."],
            className="alert alert-warning task-note")]),
    ])


def column_groups(proposal) -> dict:
    """What the "more columns" controls act on: ``{"more": [...], "families": {...}}``."""
    return {"more": [g.name for g in proposal.columns if g.more],
            "families": {f: list(c) for f, c in proposal.families.items()},
            "proposed": {g.name: g.role for c in proposal.families.values() for g in
                         proposal.columns if g.name in c}}


def grouped_roles(columns, roles, groups, *, more_role=None, families=None) -> list:
    """The role of each column after the "more columns" controls.

    ``more_role`` (when given) goes to every column under "more columns"; with ``families``
    (the families ticked) every column of a ticked family becomes an objective and every
    column of an unticked family goes back to its proposed role. Other columns keep
    ``roles``.

    Examples
    --------
    >>> groups = {"more": ["b"], "families": {"race": ["r1", "r2"]},
    ...           "proposed": {"r1": "objective", "r2": "metadata"}}
    >>> grouped_roles(["a", "b", "r1", "r2"], ["objective", "metadata", "objective", "metadata"],
    ...               groups, families=["race"])
    ['objective', 'metadata', 'objective', 'objective']
    >>> grouped_roles(["a", "b", "r1", "r2"], ["objective", "metadata", "objective", "objective"],
    ...               groups, families=[])
    ['objective', 'metadata', 'objective', 'metadata']
    >>> grouped_roles(["a", "b"], ["objective", "metadata"], groups, more_role="objective")
    ['objective', 'objective']
    """
    out = list(roles)
    more = set(groups.get("more", ()))
    taken = {c for f in (families or ()) for c in groups.get("families", {}).get(f, ())}
    grouped = {c for cs in groups.get("families", {}).values() for c in cs}
    for i, column in enumerate(columns):
        if more_role is not None and column in more:
            out[i] = more_role
        elif families is not None and column in taken:
            out[i] = "objective"
        elif families is not None and column in grouped:
            out[i] = groups.get("proposed", {}).get(column, "metadata")
    return out


def id_note(proposal) -> str:
    """The reader's note on how rows are named, shown under the Id picker (where the user
    can change it) when the proposal named the rows itself; "What we read" leaves it out,
    so the long sentence is said once (a newcomer read it twice on the llm-perf export)."""
    return proposal.notes[0] if proposal.notes and (proposal.id is None or proposal.renamed) \
        else ""


def proposal_controls(staged) -> html.Div:
    """The form for a staged upload: its proposal pre-filled, every term explained."""
    proposal = staged.proposal
    id_column = proposal.id if proposal.id is not None else proposal.row_ids
    id_options = [{"label": str(c), "value": str(c)} for c in staged.frame.columns]
    id_options.append({"label": ROW_NAMES_LABEL.format(proposal.row_naming),
                       "value": proposal.row_ids})
    mapping, notes = initial_mapping(proposal), row_notes(proposal)
    check, locked = check_and_lock(id_column, *mapping_lists(mapping))
    return html.Div([
        html.H3("Roles"),
        html.P(ROLE_HELP, className="help"),
        html.Label("Id: the column that names each row in the figures and tables"),
        dcc.Dropdown(id=ID.ID_COLUMN, value=id_column, clearable=False, options=id_options),
        html.P(id_note(proposal), id=ID.ID_NOTE, className="help"),
        _runs_choice(proposal, staged.frame),
        role_table("short", mapping, notes, id_column),
        _more_columns(proposal, id_column, mapping, notes),
        dcc.Store(id=MID.GROUPS, data=column_groups(proposal)),
        dcc.Store(id=TID.MAPPING, data=mapping),
        dcc.Store(id=TID.NOTES, data=notes),
        html.Label("Name of the dataset"),
        dcc.Input(id=ID.NAME, type="text", maxLength=200, value=staged.suggested_name),
        dcc.Checklist(id=ID.SHARED, value=[], options=[
            {"label": "list it on this instance's landing page (otherwise only its link opens it)",
             "value": "shared"}]),
        html.Div(id=ID.CHECK, children=check),
        html.Button("Save and explore", id=ID.SAVE, className="button", disabled=locked),
    ])
