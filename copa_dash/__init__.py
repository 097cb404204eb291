"""copa-dash: navigate Pareto fronts of model-evaluation tables."""

from .version import __version__ as __version__

_NOTEBOOK = ("explore", "front", "hypervolume", "indicators", "rank", "report", "robustness",
             "select", "significance", "sweep")
_SOURCES = ("from_lm_eval", "from_mlflow", "from_optuna")  # tables the functions above take


def __getattr__(name):
    """The notebook API (:mod:`copa_dash.notebook`), imported on first use so that
    ``import copa_dash`` stays fast."""
    if name in _NOTEBOOK:
        # PEP 562 lazy attribute: copa_dash.notebook loads numba, pandas and plotly (~3.6 s
        # CPU), which `import copa_dash` (every CLI start) must not pay
        if name == "robustness":
            from .notebook_robustness import robustness

            return robustness
        from . import notebook

        return getattr(notebook, name)
    if name in _SOURCES:
        from . import notebook_sources

        return getattr(notebook_sources, name)
    raise AttributeError(f"module 'copa_dash' has no attribute {name!r}")


def __dir__():
    return sorted([*globals(), *_NOTEBOOK, *_SOURCES])
