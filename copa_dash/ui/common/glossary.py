"""Plain words for every term the pages use, and the "(i)" that shows them beside a term.

:data:`TERMS` gives each term one sentence (the hover text of its "(i)") and the Help page
(``/help``, features/help) lists them all as a glossary, each with an anchor the "(i)" links
to. Sentences follow METHODS.md.
"""

from __future__ import annotations

from html import escape

from dash import html

HELP_PATH = "/help"

# key -> (term as the pages write it, one plain sentence)
TERMS: dict[str, tuple[str, str]] = {
    "u": ("u", (
        "u of a model on an objective is the share of models that are strictly better"
        " on it: u = 0.18 means 'top 18%'; 0 is the best."
    )),
    "criterion": ("criterion C", (
        "COPA's score of a model: the p-norm of its weighted u values, C = (sum of (w"
        " u)^p)^(1/p); the model with the smallest C is picked."
    )),
    "alpha": ("alpha", (
        "how much of the weight goes to the focus objectives (shared equally); the "
        "other objectives share 1 - alpha."
    )),
    "p": ("p", (
        "how C combines the objectives: p = 1 adds them up (a weak objective can be "
        "made up elsewhere), p = inf only looks at the worst weighted one."
    )),
    "front": ("front (non-dominated)", (
        "the models that no other model beats on every chosen objective at once; "
        "every sensible pick is one of them."
    )),
    "dkw": ("DKW band", (
        "a 95% margin around every u: with this many models the estimated share is "
        "within +/- eps of the true one (eps = sqrt(ln(2/0.05)/(2N)), Dvoretzky-"
        "Kiefer-Wolfowitz)."
    )),
    "cdf_population": ("CDF population", (
        "the models u is counted over: all models of the dataset (default) or only "
        "those that pass the constraints."
    )),
    "summary_y": ("CDF of the p-norm of the other objectives' u", (
        "the summary view's y axis: each model's u values on the objectives other "
        "than the x axis, combined by the p-norm and ranked again (0 = best)."
    )),
    "nadir": ("nadir", (
        "the worst value of each objective among the front's models; the "
        "hypervolume's reference point sits a little beyond it."
    )),
    "hv": ("HV", (
        "hypervolume: the area (volume) the system's own front covers up to the "
        "reference point, in normalised units; larger is better."
    )),
    "onvg": ("ONVG", (
        "the number of the system's runs on its own front."
    )),
    "onvg_hat": ("ONVG^", (
        "ONVG divided by the largest ONVG of any system (0 to 1)."
    )),
    "onvgr": ("ONVGR", (
        "the share of the system's runs that are on its own front."
    )),
    "ud_bar": ("UD_bar", (
        "how evenly the system's front points are spread (1 - uniformity of their "
        "neighbour counts); needs two points."
    )),
    "os": ("OS", (
        "overall spread: how much of the global front's extent, objective by "
        "objective, the system's front covers (the product of the ratios; 1 = as wide as "
        "the global front, above 1 when the system's front reaches past its ends)."
    )),
    "radar_area": ("radar area", (
        "the area of the system's pentagon of HV, ONVG^, ONVGR, UD_bar and OS, with 1"
        " for the ideal system."
    )),
    "ufg_depth": ("ufg depth", (
        "how central a task's partial ranking of the methods is among all tasks' "
        "rankings: near 1 typical, near 0 an outlier."
    )),
    "ufg": ("union-free generic", (
        "a set of observed rankings whose 'closure' (everything between their common "
        "part and their union) is not built from smaller such sets; ufg depth counts "
        "these sets."
    )),
    "saw_ahp": ("SAW / AHP", (
        "naive normalisations that divide by each objective's largest value or "
        "compare ratios, so they need every value positive and cannot run otherwise."
    )),
}


def info(key: str) -> html.A:
    """The "(i)" beside a term: its sentence on hover, a link to its Help entry."""
    term, sentence = TERMS[key]
    return html.A("(i)", href=f"{HELP_PATH}#term-{key}", title=f"{term}: {sentence}",
                  className="term-info", **{"aria-label": f"What is {term}?"})


def term(key: str, text: str | None = None) -> html.Span:
    """A term followed by its "(i)"."""
    return html.Span([text or TERMS[key][0], " ", info(key)], className="term")


def info_html(key: str) -> str:
    """The "(i)" as escaped HTML, for the server-built HTML blocks (pick card)."""
    term_, sentence = TERMS[key]
    title = escape(f"{term_}: {sentence}", quote=True)
    return (f'<a class="term-info" href="{HELP_PATH}#term-{key}" title="{title}" '
            f'aria-label="{escape(f"What is {term_}?", quote=True)}">(i)</a>')


def indicator_terms() -> html.P:
    """The Systems page's indicator names, each with its "(i)"."""
    keys = ("hv", "onvg", "onvg_hat", "onvgr", "ud_bar", "os", "radar_area", "nadir")
    return html.P(["In plain words: "] + [item for key in keys for item in (term(key), "  ")],
                  className="help terms")
