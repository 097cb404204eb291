"""Pattern-matching outputs send only the values that changed (ui/common/changed_only.py): an
unchanged element is ``no_update``, which Dash leaves out of the response."""

from __future__ import annotations

from dash import no_update

from copa_dash.ui.common.changed_only import changed_only


def test_only_the_changed_values_are_kept_and_new_elements_are_sent():
    sent = changed_only(["objective", "metadata", "ignore", "metadata"],
                        ["objective", "objective", "ignore"])
    assert sent[0] is no_update and sent[2] is no_update
    assert sent[1] == "metadata" and sent[3] == "metadata"      # past the old list: sent
    assert changed_only([True, False], None) == [True, False]   # no state yet: all sent
