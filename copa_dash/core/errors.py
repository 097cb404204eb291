"""Errors raised by the analysis core."""


class CopaError(Exception):
    """Base class of every error copa-dash raises on purpose."""


class InvalidInputError(CopaError, ValueError):
    """Input a user can fix: the message names the argument and what to change."""
