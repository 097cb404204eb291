"""services/views: one frozen view per page. Every view reads back from its own link, old
links still open the view they opened before, and a link is written by one function."""

from __future__ import annotations

import ast
import math
import string
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import copa_dash
from copa_dash.services.posets import MISSING, TIES
from copa_dash.services.views import ExploreView, dataset_link, link
from copa_dash.services.views.generalization import GeneralizationView
from copa_dash.services.views.posets import PosetsView
from copa_dash.services.views.query import parsed
from copa_dash.services.views.rankings import RankingsView
from copa_dash.services.views.systems import SystemsView

# names as datasets write them: letters, digits and the punctuation of real column names,
# including what a query string must escape (& = % + / space)
NAME = st.text(alphabet=string.ascii_letters + string.digits + "_-. &=%+/()@",
               min_size=1, max_size=12)
WORD = st.text(alphabet=string.ascii_letters + string.digits + "_-.", min_size=1, max_size=8)
DIRECTION = st.sampled_from(["min", "max"])
EXACT = st.floats(min_value=-1e12, max_value=1e12, allow_nan=False, allow_infinity=False)
# numbers a link writes with "%g" (6 significant digits) read back only on such a grid
GRID = st.integers(min_value=1, max_value=999).map(lambda k: k / 1000)


def _names(strategy=NAME, max_size=4):
    return st.lists(strategy, max_size=max_size, unique=True).map(tuple)


@st.composite
def explore_views(draw):
    names = draw(_names())
    weights = draw(st.lists(st.tuples(NAME, st.floats(0, 1e6)), max_size=3).map(tuple))
    p = draw(st.one_of(st.just(math.inf), st.floats(1.0, 1e6)))
    return ExploreView(
        dataset=draw(WORD), objectives=tuple((n, draw(DIRECTION)) for n in names),
        # weights replace focus and alpha: the link writes neither (alpha reads back as 0.5)
        focus=() if weights else draw(_names()),
        alpha=0.5 if weights else draw(st.floats(0.0, 1.0)),
        weights=weights, p=p, population=draw(st.sampled_from(["all", "filtered"])),
        ranges=draw(st.lists(st.tuples(NAME, st.none() | EXACT, st.none() | EXACT),
                             max_size=3).map(tuple)),
        sets=draw(st.lists(st.tuples(WORD, _names(NAME.filter(lambda v: "|" not in v))),
                           max_size=3).map(tuple)),
        axes=draw(st.sampled_from(["raw", "cdf", "summary"])), x=draw(st.just("") | NAME),
        y=draw(st.just("") | NAME), log=draw(st.sampled_from([(), ("x",), ("y",), ("x", "y")])),
        compare=draw(st.booleans()), choose=draw(st.text(alphabet="ab=", max_size=40)))


@st.composite
def rankings_views(draw):
    focus = draw(_names(WORD))
    return RankingsView(
        dataset=draw(WORD), tab=draw(st.sampled_from(RankingsView.TABS)),
        objectives=draw(_names()), criteria=draw(_names(WORD)), focus=focus,
        alpha=draw(GRID) if focus else 0.5, ties=draw(st.sampled_from(["break", "keep"])),
        group=draw(st.sampled_from(["system", "rows"])), top=draw(st.integers(1, 200)),
        by=draw(st.just("") | NAME), pins=draw(_names()),
        sets=draw(st.lists(st.tuples(WORD, _names(WORD)), max_size=2).map(tuple)),
        metric=draw(st.just("") | NAME), reference=draw(st.just("") | NAME),
        time=draw(st.just("") | NAME), task_type=draw(st.just("") | WORD),
        significance=draw(st.sampled_from([0.05, 0.01, 0.001, 0.1, 0.5])))


@st.composite
def systems_views(draw):
    z = draw(st.just("") | NAME)
    return SystemsView(
        dataset=draw(WORD), tab=draw(st.sampled_from(SystemsView.TABS)), objectives=draw(_names()),
        normalize=draw(st.sampled_from(["minmax", "cdf"])), sigma=draw(GRID),
        shown=draw(_names()), x=draw(st.just("") | NAME), y=draw(st.just("") | NAME), z=z,
        three_d=draw(st.booleans()), baseline=draw(_names()), candidate=draw(_names()),
        permutations=draw(st.integers(1, 1_000_000)), seed=draw(st.integers(0, 2**32 - 1)),
        ref_rule=draw(st.sampled_from(["range", "worst-multiple"])),
        power_seeds=draw(st.integers(1, 200)), power_effect=draw(GRID),
        power_noise=draw(GRID), power_points=draw(st.integers(1, 500)))


@st.composite
def posets_views(draw):
    mode = draw(st.sampled_from(["auto", "exact", "approx"]))
    return PosetsView(
        dataset=draw(WORD), method=draw(st.just("") | NAME), task=draw(st.just("") | NAME),
        criteria=draw(_names(NAME.filter(lambda v: "|" not in v))),
        ties=draw(st.sampled_from(TIES)), missing=draw(st.sampled_from(MISSING)), mode=mode,
        tolerance=0.01 if mode == "exact" else draw(GRID.filter(lambda v: v <= 0.5)),
        k=draw(st.integers(1, 50)))


@st.composite
def generalization_views(draw):
    return GeneralizationView(
        dataset=draw(WORD),
        metrics=tuple((n, draw(DIRECTION)) for n in draw(_names())),
        ref=tuple(draw(st.lists(GRID, max_size=3))),
        **{k: draw(st.just("") | NAME) for k in ("system", "budget", "seed", "a", "b")})


@settings(max_examples=200, deadline=None)
@given(explore_views())
def test_an_explore_view_reads_back_from_its_link(view):
    assert ExploreView.from_query(view.to_query()) == view
    assert ExploreView.from_query(parsed(view.to_query())) == view      # as Dash hands it
    assert ExploreView.from_query(link(view).split("?", 1)[1]) == view


@settings(max_examples=100, deadline=None)
@given(st.one_of(rankings_views(), systems_views(), posets_views(), generalization_views()))
def test_every_other_page_view_reads_back_from_its_link(view):
    assert type(view).from_query(view.to_query()) == view
    assert link(view).startswith(f"/{view.PAGE}?")


# --- old links open the view they opened before --------------------------------------------
def test_old_explore_links_open_the_same_view():
    # the link of the explorer's docstring before the views moved (no log key: log axes are
    # the page's default), a report's link (no axes at all) and hand-written spellings of p
    old = ("dataset=open-llm-leaderboard-v2&obj=ifeval:max&obj=co2_cost:min&focus=co2_cost"
           "&alpha=0.5&p=inf&range=co2_cost:0:5&in=type:chat|base&axes=raw&x=co2_cost&y=ifeval")
    assert ExploreView.from_query(old) == ExploreView(
        dataset="open-llm-leaderboard-v2", objectives=(("ifeval", "max"), ("co2_cost", "min")),
        focus=("co2_cost",), alpha=0.5, p=math.inf, ranges=(("co2_cost", 0.0, 5.0),),
        sets=(("type", ("chat", "base")),), axes="raw", x="co2_cost", y="ifeval", log=())
    report = "dataset=d&obj=a:max&obj=b:min&w=a:0.25&w=b:0.75&p=2&pop=filtered&range=b::3"
    assert ExploreView.from_query(report) == ExploreView(
        dataset="d", objectives=(("a", "max"), ("b", "min")), weights=(("a", 0.25), ("b", 0.75)),
        p=2.0, population="filtered", ranges=(("b", None, 3.0),))
    for text, p in (("Infinity", math.inf), ("INF", math.inf), ("0.5", 1.0), ("x", math.inf)):
        assert ExploreView.from_query({"dataset": "d", "p": text}).p == p
    assert ExploreView.from_query("?dataset=d&alpha=7&axes=3d&pop=some&log=z").alpha == 1.0
    junk = ExploreView.from_query("dataset=d&axes=3d&pop=some&log=z")
    assert (junk.axes, junk.population, junk.log) == ("raw", "all", ())


def test_old_page_links_open_the_same_view():
    rankings = RankingsView.from_query(
        "dataset=decodingtrust&crit=mean,norm,copa:1,copa:inf&ties=break&top=25&pin=GPT-4")
    assert (rankings.criteria, rankings.top, rankings.pins, rankings.tab) == (
        ("mean", "norm", "copa:1", "copa:inf"), 25, ("GPT-4",), "ranks")
    # the systems report's link before the views (no power-study keys): the same view as now
    old = ("dataset=fairness-adult-sex&tab=significance&obj=accuracy&obj=di_distance&norm=minmax"
           "&sigma=0.1&show=SVM&base=SVM&cand=Feldman-SVM&perms=5000&seed=0&ref=range")
    systems = SystemsView.from_query(old)
    assert systems == SystemsView(
        dataset="fairness-adult-sex", tab="significance", objectives=("accuracy", "di_distance"),
        shown=("SVM",), baseline=("SVM",), candidate=("Feldman-SVM",), permutations=5000)
    assert SystemsView.from_query(systems.to_query()) == systems
    posets = PosetsView.from_query("dataset=dmop&crit=migd|migd_stage1&ties=drop&missing=drop"
                                   "&mode=exact&k=3")
    assert (posets.criteria, posets.mode, posets.k, posets.exact) == (
        ("migd", "migd_stage1"), "exact", 3, True)
    gap = GeneralizationView.from_query("dataset=b&metric=acc:max&metric=f1:max&ref=0,0.5"
                                        "&system=rf&budget=50")
    assert (gap.metrics, gap.ref, gap.system, gap.budget) == (
        (("acc", "max"), ("f1", "max")), (0.0, 0.5), "rf", "50")
    assert GeneralizationView.from_query("dataset=b&ref=a,b").ref == ()   # bad: the default


def test_a_link_naming_only_the_dataset():
    assert dataset_link("explore", "a b/c") == "/explore?dataset=a%20b/c"
    for name in ("a b/c", "a&b=c", "x+y%z", "é"):
        assert ExploreView.from_query(dataset_link("explore", name).split("?")[1]).dataset == name
    assert dataset_link("posets", "deepobs", base="http://h:1/") == "http://h:1/posets?dataset=deepobs"


# --- one function writes the links ------------------------------------------------------------
PAGE_LINK = ("/explore?", "/rankings?", "/systems?", "/posets?", "/generalization?")


def _docstrings(tree) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def test_no_module_writes_a_page_link_by_hand():
    """Outside docstrings, no string in the package spells ``/PAGE?``: links come from
    ``services.views.link`` / ``dataset_link``."""
    package = Path(copa_dash.__file__).parent
    found = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and id(node) not in skip and any(p in node.value for p in PAGE_LINK):
                found.append(f"{path.relative_to(package)}:{node.lineno}")
    assert found == []


def test_the_finder_would_see_a_hand_written_link():
    tree = ast.parse('"""Doc: /explore?dataset=x"""\nlink = f"/explore?dataset={ref}"\n')
    skip = _docstrings(tree)
    hits = [n for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and id(n) not in skip and "/explore?" in n.value]
    assert len(hits) == 1


@settings(max_examples=100, deadline=None)
@given(explore_views())
def test_the_reports_view_of_an_explore_view_gives_its_link_back(view):
    from dataclasses import replace

    from copa_dash.reports.view import explore_view, from_explore

    back, lost = explore_view(from_explore(view))
    assert lost == ()
    # the report keeps every setting of the view; "compare" and the answers are the page's
    assert back == replace(view, compare=False, choose="")


def test_the_query_keys_are_the_keys_a_link_writes():
    full = ExploreView("d", (("a", "max"),), focus=("a",), weights=(), population="filtered",
                       ranges=(("a", 0.0, 1.0),), sets=(("t", ("x",)),), x="a", y="a",
                       log=("x",), compare=True, choose="ab")
    weighted = ExploreView("d", (("a", "max"),), weights=(("a", 1.0),))
    written = {k for v in (full, weighted) for k in parsed(v.to_query())}
    assert written == ExploreView.QUERY_KEYS


def test_a_link_with_help_me_choose_answers_gets_no_note():
    from copa_dash.services.catalog import open_dataset
    from copa_dash.ui.features.explore.link_check import link_notes

    opened = open_dataset("copa-synthetic")
    query = parsed("dataset=copa-synthetic&choose=ab=&bogus=1")
    view = ExploreView.from_query(query).with_defaults(opened, given=tuple(query))
    assert view.choose == "ab="
    assert link_notes(query, view, opened.table.objective_names) == [
        "'bogus' is not a setting of this page; it was ignored."]
