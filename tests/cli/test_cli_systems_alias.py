"""Tester 18 (finding 19): a newcomer typed `copa-dash systems` (the page is called Systems)
and argparse said "invalid choice". It is another name for `indicators`, what the page
shows, with the same answer; and the help lists it beside `indicators`."""

from __future__ import annotations

from copa_dash.cli import build_parser, main


def test_systems_is_another_name_for_indicators_with_the_same_answer(capsys):
    assert main(["indicators", "--dataset", "fairness-compas-race", "--json"]) == 0
    indicators = capsys.readouterr().out
    assert main(["systems", "--dataset", "fairness-compas-race", "--json"]) == 0
    assert capsys.readouterr().out == indicators
    assert main(["systems", "--dataset", "no-such-dataset"]) == 2
    assert "copa-dash systems: unknown bundled dataset" in capsys.readouterr().err


def test_the_help_names_systems_beside_indicators():
    for parser in (build_parser(), build_parser("systems"), build_parser("select")):
        sub = next(a for a in parser._actions if a.dest == "command")
        assert sub.choices["systems"] is sub.choices["indicators"]
    assert "indicators (systems)" in build_parser().format_help()
