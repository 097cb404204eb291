"""A Dash component that shows a block of HTML built on the server.

The explorer's pick card and ranked table change on every slider move. As Markdown
(``dcc.Markdown``) the browser parsed both texts and React reconciled the element trees they
made on each move; as one ``innerHTML`` assignment the browser does neither. Its script is
``assets/html_block.js``.

Only this package's fixed tags and escaped text may reach ``html``: every text from the data
(a model's id, a column's name) goes through ``html.escape`` (``panels.code_html``), so it
shows as typed and cannot add markup.
"""

from __future__ import annotations

from typing import ClassVar

from dash.development.base_component import Component


class HtmlBlock(Component):
    """A ``div`` whose content is the ``html`` string, set as ``innerHTML``.

    Parameters
    ----------
    id : str, optional
        The component's id, for callbacks.
    html : str, optional
        The markup to show; it must come from escaped text (see the module's docstring).
    className : str, optional
        The ``div``'s CSS classes.
    """

    _children_props: ClassVar[list[str]] = []
    _base_nodes: ClassVar[list[str]] = ["children"]
    _namespace = "copa_components"
    _type = "HtmlBlock"

    def __init__(self, id=None, html=None, className=None, **kwargs):   # Dash's prop names
        self._prop_names = ["id", "html", "className"]
        self._valid_wildcard_attributes = []
        self.available_properties = ["id", "html", "className"]
        self.available_wildcard_properties = []
        given = {"id": id, "html": html, "className": className}
        super().__init__(**{name: value for name, value in given.items() if value is not None},
                         **kwargs)
