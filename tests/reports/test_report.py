"""The decision and systems reports: content checked against a brute-force COPA on the raw
CSV, the reproduce block run for real, determinism, escaping, and the PDF rendered."""

import datetime
import html
import json
import re
import shlex
import shutil
import subprocess
from pathlib import Path
from urllib.parse import parse_qs

import markupsafe
import numpy as np
import pandas as pd
import pytest

from copa_dash.cli import main
from copa_dash.data.bundled import datasets_dir
from copa_dash.data.io import build_eval_table
from copa_dash.data.schema import Objective, Roles
from copa_dash.reports import (
    DecisionView,
    decision_facts,
    decision_html,
    decision_report,
    opened_table,
    systems_report,
)
from copa_dash.reports import view as views
from copa_dash.services.catalog import open_dataset

STAMP = datetime.datetime(2026, 1, 31, 12, 0, 0, tzinfo=datetime.timezone.utc)
ARENA = "chatbot-arena-price"


def _text(page: str) -> str:
    """The visible text of a report (scripts dropped, tags removed, entities decoded)."""
    page = re.sub(r"<script.*?</script>", " ", page, flags=re.DOTALL)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def _brute_force_arena():
    """COPA on the raw CSV with nothing of copa_dash: u counts strictly better rows among all
    rows with every objective; p = inf, w = alpha on price, (1 - alpha)/3 on the others;
    candidates are the rows whose price is not a placeholder; ties by C at p = 8, then sum u."""
    frame = pd.read_csv(datasets_dir() / f"{ARENA}.csv")
    names, signs = ["overall", "hard", "coding", "price"], np.array([-1, -1, -1, 1])
    complete = frame[names].notna().all(axis=1).to_numpy()
    y = frame.loc[complete, names].to_numpy(float) * signs
    u = np.array([[np.sum(y[:, k] < y[i, k]) for k in range(4)] for i in range(len(y))]) / len(y)
    w = np.array([0.5 / 3] * 3 + [0.5])
    crit, c8 = (w * u).max(axis=1), ((w * u) ** 8).sum(axis=1) ** (1 / 8)
    placeholder = frame.loc[complete, "price_placeholder"].astype(str).str.lower() == "true"
    candidates = np.flatnonzero(~placeholder.to_numpy())
    order = candidates[np.lexsort((candidates, u[candidates].sum(axis=1), c8[candidates],
                                   crit[candidates]))]
    ids = frame.loc[complete, "model"].to_numpy()
    return ids[order[0]], y[order[0]] * signs, u[order[0]], int((~complete).sum()), len(y)


@pytest.fixture(scope="module")
def arena_page():
    opened = open_dataset(ARENA)
    facts = decision_facts(opened, DecisionView(ARENA))
    return facts, decision_html(facts, generated_at=STAMP, output_name="arena.html")


def test_the_report_holds_the_brute_force_pick_its_values_and_rows(arena_page):
    facts, page = arena_page
    pick, raw, u, n_missing, n_population = _brute_force_arena()
    text = _text(page)
    assert facts.pick_id == pick
    assert f"Decision report: {pick}" in text
    for value, share in zip(raw, u):
        assert f"{value:.4g}" in text
        assert f"top {100 * share:.1f}%" in text
        # Wilson's score interval (it replaced the clipped u +- 1.96 se on purpose: that one
        # leaves [0, 1] on small tables): the roots p of (u - p)^2 = z^2 p (1 - p) / N
        z2n = 1.959964 ** 2 / n_population
        low, high = sorted(np.roots([1 + z2n, -(2 * share + z2n), share * share]).real)
        assert f"{100 * low:.1f}% – {100 * high:.1f}%" in text
    assert re.search(rf"left out: a chosen objective is missing {n_missing} ", text)
    assert "price_placeholder is one of false" in text
    assert "licence" in text and "MIT" in text and "source commit df2017a08c48" in text
    assert "All 187 rows are kept" in text          # the cleaning notes of PROVENANCE.md


def test_the_reproduce_command_gives_the_same_pick(arena_page, capsys):
    facts, page = arena_page
    commands = re.findall(r"<pre>(copa-dash select .*?)</pre>", page, flags=re.DOTALL)
    assert len(commands) == 1
    argv = shlex.split(html.unescape(commands[0]))
    assert main(argv[1:]) == 0
    assert json.loads(capsys.readouterr().out)["id"] == facts.pick_id


def test_the_share_link_reads_back_as_the_same_view(arena_page):
    from copa_dash.ui.features.explore.state import parse_query

    facts, page = arena_page
    link = html.unescape(re.search(r"<pre>(/explore\?.*?)</pre>", page).group(1))
    state = parse_query(parse_qs(link.split("?", 1)[1]))
    view = facts.view
    assert state.objectives == view.objectives and state.focus == view.focus
    assert state.alpha == view.alpha and state.p == view.p and state.sets == view.sets


def test_the_alpha_range_and_takeovers_match_the_sweep(arena_page):
    facts, _ = arena_page
    sweep = facts.exploration.sweep
    ids = facts.exploration.problem.ids
    winners = [str(ids[s]) for s in sweep.selected]
    inside = [a for a, w in zip(sweep.alphas, winners) if w == facts.pick_id]
    assert (facts.alpha_range.low, facts.alpha_range.high) == (min(inside), max(inside))
    before = [w for a, w in zip(sweep.alphas, winners) if a < facts.alpha_range.low]
    assert facts.alpha_range.below == (before[-1] if before else None)


def test_same_view_same_bytes_apart_from_the_stamp():
    opened = open_dataset("copa-synthetic")
    one = decision_report(opened, DecisionView("copa-synthetic"), generated_at=STAMP)
    two = decision_report(opened, DecisionView("copa-synthetic"), generated_at=STAMP)
    later = decision_report(opened, DecisionView("copa-synthetic"),
                            generated_at=STAMP + datetime.timedelta(hours=1))
    assert one == two
    differ = [(a, b) for a, b in zip(one.decode().splitlines(), later.decode().splitlines())
              if a != b]
    assert differ and all("2026-01-31 12:00:00" in a and "2026-01-31 13:00:00" in b
                          for a, b in differ)


def test_a_model_name_with_markup_stays_text():
    evil = '</script><script>alert(1)</script><b onmouseover="x()">big</b> & co'
    frame = pd.DataFrame({"model": [evil, "b", "c", "d"], "acc": [0.95, 0.8, 0.7, 0.6],
                          "co2": [0.1, 1.0, 2.0, 3.0]})
    table = build_eval_table(frame, Roles(id="model", objectives=(Objective("acc", "max"),
                                                                   Objective("co2", "min"))))
    page = decision_report(opened_table(table, name="t"), DecisionView("t", focus=("co2",)),
                           generated_at=STAMP).decode()
    assert "<script>alert" not in page and "<b onmouseover" not in page
    assert str(markupsafe.escape(evil)) in page            # shown as typed, in the text
    assert evil in _text(page)
    assert "alert(1)&lt;\\u002fscript&gt;" in page         # and escaped inside the figure


def test_cli_writes_the_report_and_rejects_a_bad_extension(tmp_path, capsys):
    out = tmp_path / "synthetic.html"
    assert main(["report", "--dataset", "copa-synthetic", "--alpha", "0.3", "-o", str(out),
                 "--timestamp", "2026-01-31T12:00:00"]) == 0
    page = out.read_text()
    assert "--alpha 0.3" in page and "-o synthetic.html" in page
    assert page == decision_report(open_dataset("copa-synthetic"),
                                   DecisionView("copa-synthetic", alpha=0.3),
                                   generated_at=STAMP, output_name="synthetic.html").decode()
    capsys.readouterr()
    assert main(["report", "--dataset", "copa-synthetic", "-o", str(tmp_path / "x.docx")]) == 2
    assert capsys.readouterr().err.strip() == \
        f"copa-dash report: -o '{tmp_path / 'x.docx'}': name a .html or .pdf file"


def test_value_sets_round_trip_through_the_command(capsys):
    view = views.resolve(DecisionView(ARENA, sets=(("price_placeholder", ("false", "true")),)),
                         open_dataset(ARENA).table, open_dataset(ARENA).default_view)
    argv = views.cli_arguments(view) + ["--json"]
    assert "--in" in argv
    assert main(argv[1:]) == 0
    expected = decision_facts(open_dataset(ARENA), view).pick_id
    assert json.loads(capsys.readouterr().out)["id"] == expected


def test_systems_report_states_the_test_as_the_cli_does(capsys):
    page = systems_report(open_dataset("fairness-adult-sex"), generated_at=STAMP,
                          baseline="SVM", candidate="Feldman-SVM", permutations=300,
                          rng_seed=7).decode()
    assert main(["significance", "--dataset", "fairness-adult-sex", "--baseline", "SVM",
                 "--candidate", "Feldman-SVM", "--permutations", "300", "--rng-seed", "7",
                 "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    text = _text(page)
    assert f"p-value {cli['p_value']:.4g}" in text
    assert "permutations B 300" in text and "RNG seed 7" in text
    assert "The difference is within seed noise" in text or "significantly better" in text
    assert "radar area" in text and "Feldman-SVM" in text
    command = html.unescape(re.search(r"<pre>(copa-dash significance .*?)</pre>", page).group(1))
    assert main(shlex.split(command)[1:] + ["--json"]) == 0
    assert json.loads(capsys.readouterr().out)["p_value"] == cli["p_value"]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("pdftoppm") is None or shutil.which("chromium") is None,
                    reason="needs poppler-utils and Debian's chromium")
def test_the_pdf_renders_with_a_vector_figure(tmp_path):
    out = tmp_path / "report.pdf"
    assert main(["report", "--dataset", "copa-synthetic", "-o", str(out)]) == 0
    assert out.read_bytes().startswith(b"%PDF")
    subprocess.run(["pdftoppm", "-r", "50", "-png", str(out), str(tmp_path / "page")],
                   check=True)
    pages = sorted(tmp_path.glob("page-*.png"))
    assert len(pages) >= 2
    shots = Path(__file__).parents[1] / "e2e" / "screenshots"
    if shots.is_dir():
        shutil.copy(pages[-2], shots / "report_pdf_figure_page.png")
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert "Where the pick sits" in text and "COPA pick" in text   # the figure's text is text
    images = subprocess.run(["pdfimages", "-list", str(out)], capture_output=True, text=True,
                            check=True).stdout.splitlines()
    assert len(images) <= 2                                          # header only: no raster


def test_a_file_report_reproduces_with_where_and_in(tmp_path, capsys):
    table = tmp_path / "t.csv"
    table.write_text("model,acc,co2,fam\na,0.9,3,x\nb,0.8,1,y\nc,0.7,0.5,x\nd,0.6,2,z\n")
    out = tmp_path / "t.html"
    assert main(["report", str(table), "--id", "model", "--objective", "acc:max",
                 "--objective", "co2:min", "--focus", "co2", "--alpha", "0.2",
                 "--where", "co2<3", "--in", "fam=x|y", "-o", str(out)]) == 0
    page = out.read_text()
    command = html.unescape(re.search(r"<pre>(copa-dash select .*?)</pre>", page).group(1))
    capsys.readouterr()
    assert main(shlex.split(command)[1:]) == 0
    picked = json.loads(capsys.readouterr().out)["id"]
    assert picked == "b"                      # a fails co2 < 3, d is not in {x, y}; b beats c
    assert f"Decision report: <code>{picked}</code>" in page
    assert "a file on your machine" in page and "co2 &lt; 3" in page


def test_help_me_choose_answers_are_stated_as_given():
    answers = (("Which do you prefer: <p001> or p120?", "p120"), ("Equal?", "no"))
    page = decision_report(open_dataset("copa-synthetic"),
                           DecisionView("copa-synthetic", answers=answers),
                           generated_at=STAMP).decode()
    text = _text(page)
    assert 'Answers given in "Help me choose"' in text
    assert "Which do you prefer: <p001> or p120? p120" in text and "<p001>" not in page
