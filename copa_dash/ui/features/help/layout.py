"""The Help page: a glossary of every term the pages use (the "(i)" marks link here) and one
worked example per page on a bundled dataset."""

from __future__ import annotations

import dash
from dash import dcc, html

from copa_dash.services.proposal_words import proposal_in_words
from copa_dash.services.views.links import dataset_link
from copa_dash.ui.common.glossary import HELP_PATH, TERMS
from copa_dash.ui.features.help.docs_site import DOCS_PATH, nav_pages

# the table the Upload example pastes (tests/ui/test_help_upload_example.py reads it as the
# page does and checks what the example's steps say of it)
UPLOAD_TABLE = """| model | accuracy | latency_ms | params |
|---|---|---|---|
| llama-7b | 61.1% | 42 | 7B |
| llama-13b | 66.4% | 75 | 13B |
| mistral-7b | 64.2% | 38 | 7.2B |
| phi-2 | 56.3% | 21 | 2.7B |"""

# (page, link to open it on a bundled dataset, the steps of the example; a step given as a
# function is written when the page is drawn: the Upload example's proposal comes from the
# reader itself, so it says what the Upload page and `copa-dash inspect` say of that table)
EXAMPLES = (
    ("Upload", "/upload", (
        [("Your own table: one row per model, a column per measure. Paste this Markdown table "
          "into the box on the right of the Upload page and press \"Read the pasted table\":"),
         html.Pre(UPLOAD_TABLE, className="example-table")],
        lambda: ("\"What we read\" says what was adjusted: the percent signs were read as "
                 "numbers, 7B as 7 with the unit B. " + proposal_in_words(UPLOAD_TABLE)
                 + " Each guess says how sure it is, as here."),
        ("A column nobody could guess a direction for is highlighted and Save stays off until "
         "you choose min, max or \"metadata\": the tool never picks from a guess."),
        ("Name it and press \"Save and explore\": the explorer opens on your table, its link "
         "is yours to share, and Your uploads (on the Upload and Datasets pages) lets you "
         "rename or delete it."))),
    ("Explore", dataset_link("explore", "open-llm-leaderboard-v2"), (
        ("The Open LLM Leaderboard lists about 2,900 language models with six benchmark scores "
         "(higher is better) and their CO2 cost (lower is better)."),
        ("The default view puts the focus on co2_cost with alpha = 0.5: CO2 gets half the "
         "weight, the six benchmarks share the other half. With p = inf, COPA picks the model "
         "whose worst weighted u is smallest: no objective is allowed to be bad."),
        ("The card names the pick and its u per objective: u = 0.08 on co2_cost means only 8% of "
         "the models emit less. The scatter shows CO2 on a log axis (it spans several decades); "
         "the hollow markers are the front, the coloured dots the picks as alpha moves."),
        ("Move alpha towards 1 to care only about CO2, towards 0 to care only about the scores; "
         "set p = 1 to let a strong benchmark make up for a weak one."))),
    ("Rankings", dataset_link("rankings", "decodingtrust"), (
        "DecodingTrust scores 55 language models on eight trustworthiness tests.",
        ("Each column ranks the models under one criterion: the mean, the norm, and COPA for p in "
         "1, 2, 4, 8 and inf. The bump chart draws how a model's rank moves between criteria: a "
         "model that is good on average but poor on one test falls as p grows."))),
    ("Systems", dataset_link("systems", "fairness-adult-sex"), (
        ("Fairness algorithms on the UCI Adult data, each run several times, trade accuracy "
         "against a disparate-impact distance."),
        ("Per algorithm, the table gives HV, ONVG, ONVG^, ONVGR, UD_bar and OS of its own front, "
         "and the radar draws the five normalised ones (HV, ONVG^, ONVGR, UD_bar, OS): a larger "
         "pentagon is a better system."),
        ("The permutation test asks whether one algorithm's front is better than another's by "
         "more than chance: it shuffles which runs belong to which algorithm."))),
    ("Val -> test", dataset_link("generalization", "breast-cancer-val-test"), (
        "Random search on a breast-cancer classifier, measured on validation and on test data.",
        ("The models on the validation front are re-drawn with their test values: the optimistic "
         "front is their best case, the pessimistic front their worst. The gap between the two "
         "hypervolumes says how much the validation front can disappoint on test data."))),
    ("Posets", dataset_link("posets", "deepobs"), (
        "DeepOBS compares SGD, Momentum and Adam on eight deep-learning test problems.",
        ("Each problem (task) ranks the optimisers partially: one is above another only when it "
         "is no worse on every criterion. The ufg depth says how typical each problem's ranking "
         "is among all problems; the Hasse diagrams draw the most central and the most outlying "
         "ones."))),
)


def layout(**_query):
    """Glossary, then the worked examples."""
    glossary = html.Dl(className="glossary", children=[
        item for key, (term, sentence) in TERMS.items()
        for item in (html.Dt(term, id=f"term-{key}"), html.Dd(sentence))])
    examples = [html.Section(className="example", children=[
        html.H3(page), html.P(dcc.Link(f"Open this example: {href}", href=href)),
        html.Ol([html.Li(step() if callable(step) else step) for step in steps])])
        for page, href, steps in EXAMPLES]
    return html.Div(className="page help-page", children=[
        html.H2("Help: the words the pages use"),
        html.P(["Every (i) on a page links to its entry here. The maths is in ",
                html.A("Methods", href=f"{DOCS_PATH}/methods"),
                ("; the full documentation, from getting started to deploying, is linked at "
                 "the end of this page.")]),
        glossary,
        html.H2("One worked example per page"),
        *examples,
        documentation(),
    ])


def documentation() -> html.Section:
    """Links to the documentation pages, served by this instance (they work offline), in
    the order of the documentation site's menu."""
    links = [html.Li(html.A(f"{page.section}: {page.title}" if page.section else page.title,
                            href=page.href)) for page in nav_pages()]
    if not links:
        return html.Section(className="documentation", children=[
            html.H2("Documentation"),
            html.P("The documentation pages are not part of this installation (a package "
                   "built without them); reinstall copa-dash to read them here.")])
    return html.Section(className="documentation", children=[
        html.H2("Documentation"),
        html.P("The full documentation, served by this instance: what each page does, the "
               "command line, the notebook API, the methods, deploying, and the benchmarks."),
        html.Ul(links, id="help-docs-links")])


def register_page() -> None:
    """Register the Help page; it has no callbacks."""
    dash.register_page("help", path=HELP_PATH, name="Help", title="copa-dash: help",
                       layout=layout, nav=True)
