"""The "How sure" panel says so when its computation fails, instead of "working out..." for
ever (the tester's F0: a TypeError on an upload with system, config and seed columns left the
panel and the line above the figure on their waiting words)."""

from __future__ import annotations

import logging

from copa_dash.ui.features.explore import robustness_panel


def test_an_unexpected_error_gives_words_in_the_panel_and_the_line(monkeypatch, caplog):
    def broken(query):
        raise TypeError("can only concatenate str (not 'float') to str")

    monkeypatch.setattr(robustness_panel, "result_of", broken)
    with caplog.at_level(logging.ERROR):
        body, verdict = robustness_panel.fill("?dataset=x")
    assert robustness_panel.WAITING_WORDS not in body + verdict
    assert "could not be worked out" in body and "could not be worked out" in verdict
    assert "concatenate" not in body + verdict           # no internals in the page
    assert any("concatenate" in r.getMessage() or r.exc_info for r in caplog.records)
