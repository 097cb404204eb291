"""The package's version, in a module that imports nothing.

The modules that print or store it (the API's health check, reports, the analysis cache's
key) import it from here rather than from the package: ``copa_dash/__init__`` loads the
notebook API on first use, which imports those modules, and importing the package back from
them closed an import cycle through every layer.
"""

__version__ = "0.1.0"
