"""Callbacks of the source form: read the tracker, then show it as a staged upload."""

from __future__ import annotations

from dash import Input, Output, State
from dash.exceptions import PreventUpdate

from copa_dash.core.errors import InvalidInputError
from copa_dash.services.source_uploads import available_kinds, stage_source
from copa_dash.ui.common.alerts import alert
from copa_dash.ui.common.settings_access import current_settings
from copa_dash.ui.features.upload.ids import UploadSourceIds as SID
from copa_dash.ui.features.upload.source_form import placeholders


def register_source_callbacks(app, staged_outputs, shown) -> None:
    """Attach the form's callbacks; ``staged_outputs`` and ``shown`` are the page's, so a
    source opens the same preview and mapping step as a file."""

    @app.callback(Output(SID.SOURCE_LOCATION, "placeholder"),
                  Output(SID.SOURCE_NAME, "placeholder"), Output(SID.SOURCE_NAME, "disabled"),
                  Input(SID.SOURCE_KIND, "value"), prevent_initial_call=True)
    def kind_chosen(kind):
        kinds = available_kinds(current_settings())
        if not kinds:
            raise PreventUpdate
        return placeholders(kinds, kind)

    @app.callback(*staged_outputs, Input(SID.SOURCE_READ, "n_clicks"),
                  State(SID.SOURCE_KIND, "value"), State(SID.SOURCE_LOCATION, "value"),
                  State(SID.SOURCE_NAME, "value"), prevent_initial_call=True)
    def stage_from_source(n_clicks, kind, location, name):
        if not n_clicks:
            raise PreventUpdate
        try:
            return shown(stage_source(current_settings(), kind, location, name))
        except InvalidInputError as exc:
            return alert(str(exc)), None, None, None, None, None
