"""copa-dash: navigate Pareto fronts of model-evaluation tables."""

__version__ = "0.1.0"
