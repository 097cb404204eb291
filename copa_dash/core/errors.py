"""Errors raised by the analysis core."""


class CopaError(Exception):
    """Base class of every error copa-dash raises on purpose."""


class InvalidInputError(CopaError, ValueError):
    """Input a user can fix: the message names the argument and what to change."""


class MethodNotApplicableError(InvalidInputError):
    """A normalisation cannot run on these values; the attributes say where and why, so a
    caller can name the column and the row in its own words.

    Attributes
    ----------
    method : str
        The method that refused ("maxnorm", "ahp", "delta").
    reason : str
        ``"not_positive"`` (max-normalisation divides by every value) or ``"zero_ideal"``
        (Delta divides by the ideal, or by the reference row's value).
    column : int
        The first objective (column index) where it fails.
    row : int or None
        The first row with the failing value (``not_positive``); for ``zero_ideal``, the
        reference row (Delta against a row), or None when the ideal is the reference.
    value : float
        The failing value.
    n_rows : int
        How many rows of ``column`` fail (``not_positive``; 0 for ``zero_ideal``).
    columns : tuple of int
        Every objective where it fails.
    """

    def __init__(self, message: str, *, method: str, reason: str, column: int,
                 row: int | None, value: float, n_rows: int = 0, columns: tuple = ()):
        super().__init__(message)
        self.method = method
        self.reason = reason
        self.column = column
        self.row = row
        self.value = value
        self.n_rows = n_rows
        self.columns = tuple(columns) or (column,)
