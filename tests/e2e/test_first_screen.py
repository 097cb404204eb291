"""Most of each main figure on the first screen at 1024 x 768 and 1400 x 1000 (issue 33,
session 18), on the three bundled leaderboards visited one after the other as a newcomer does
(the working context's line grows on the way). At 1024 x 768 the notes above Systems' radar
and Explore's scatter on amlb-2022 left less than half of the figure on the first screen; the
notes are now drawn under the figure (an Explore error stays above it). Screenshots and the
measured places: tests/e2e/screenshots/first-screen-*.png and first-screen.json."""

from __future__ import annotations

import json

import pytest

from tests.e2e.app_under_test import (
    OVERFLOW,
    SCREENSHOTS,
    none_loading,
    screenshot,
    wait_until,
)

pytestmark = pytest.mark.browser

DATASETS = ("open-llm-leaderboard-v2", "decodingtrust", "amlb-2022")
# each page's main figure, on the datasets it can show (Systems needs a system column, Posets
# a long table: on the others they show their empty state, tests/ui/test_empty_states.py)
# Explore on amlb-2022 over two tasks: the "tasks pooled" note (its one-task default view
# has no note since rows of other tasks are no longer counted as left out)
TWO_TASKS = "amlb-2022&in=dataset:Australian|Amazon_employee_access"
FIGURES = (("explore", "#explore-front", (*DATASETS, TWO_TASKS)),
           ("rankings", "#rankings-bump", DATASETS),
           ("systems", "#systems-radar", ("amlb-2022",)),
           ("posets", "#posets-depth", ("amlb-2022",)))
PLACE = """
const figure = document.querySelector(arguments[0]);
const notes = [...document.querySelectorAll(arguments[1])].filter(n => n.offsetParent !== null);
return {top: figure.getBoundingClientRect().top, height: window.innerHeight,
        figure: figure.getBoundingClientRect().height,
        scrolled: window.scrollY,
        notes_above: notes.filter(n => n.getBoundingClientRect().top
                                        < figure.getBoundingClientRect().top).length,
        notes: notes.length};
"""


def _on_first_screen(place: dict) -> float:
    """How many pixels of the figure show without scrolling."""
    return max(0.0, min(place["height"] - place["top"], place["figure"]))


def _needed(place: dict) -> float:
    """Most of the figure on the first screen: half of it, or 40% of the window for a figure
    taller than the window (Rankings' bump chart of 55 entries is 1,160 px). Before the
    notes moved, Systems showed 212 px of its 470 px radar at 1024 x 768 and Explore 249 px
    of its 520 px scatter on amlb-2022; they now show 410 and 351 px."""
    if place["figure"] > place["height"]:
        return 0.4 * place["height"]
    return place["figure"] / 2


NOTES = {"explore": "#explore-alert .alert-info, #explore-alert .task-note",
         "systems": "#systems-notes .alert"}


def test_main_figures_are_mostly_on_the_first_screen_at_both_sizes(dash_duo, app):
    dash_duo.start_server(app, navigate=False)
    low, seen_notes, places, wide = {}, {}, {}, {}
    for page, figure, datasets in FIGURES:
        for dataset in datasets:
            for width, height in ((1024, 768), (1400, 1000)):
                dash_duo.driver.set_window_size(width, height)
                dash_duo.driver.get(f"{dash_duo.server_url}/{page}?dataset={dataset}")
                ready = f"{figure} .js-plotly-plot .main-svg"
                wait_until(lambda r=ready: dash_duo.driver.find_elements("css selector", r)
                           and none_loading(dash_duo), timeout=180)
                place = dash_duo.driver.execute_script(PLACE, figure, NOTES.get(page, "none"))
                screenshot(dash_duo, f"first-screen-{page}-{dataset.split('&')[0]}-{width}"
                           + ("-two-tasks" if "&" in dataset else ""))
                where = f"{page} {dataset} {width}x{height}"
                places[where] = place
                if place["scrolled"] or _on_first_screen(place) < _needed(place):
                    low[where] = place
                seen_notes[where] = (place["notes"], place["notes_above"])
                if width == 1024:     # the page never scrolls sideways (test_layout_widths)
                    seen = dash_duo.driver.execute_script(OVERFLOW)
                    if seen["scroll"] > seen["width"] or seen["past"]:
                        wide[where] = seen
    SCREENSHOTS.mkdir(exist_ok=True)
    (SCREENSHOTS / "first-screen.json").write_text(json.dumps(places, indent=1))
    assert low == {}, f"main figures below the first screen: {low}"
    assert wide == {}, f"pages wider than the 1024 px window: {wide}"
    # the notes that pushed the figures down are still shown, under the figure
    assert seen_notes[f"explore {TWO_TASKS} 1024x768"][0] >= 1, seen_notes
    assert seen_notes["systems amlb-2022 1024x768"][0] >= 2, seen_notes
    assert all(above == 0 for _, above in seen_notes.values()), seen_notes
