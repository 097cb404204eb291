"""A short name column over a long id that spells it out (the upload proposal's row names).

A merged leaderboard often carries a composite id beside the model's name: Chatbot Arena's
merge with the Open LLM Leaderboard has ``id = 'microsoft/phi-4_float16_381727a5..._False'``
(repository, precision, commit, a flag) beside ``key = 'phi-4'``. Both are id-like text and
the id is the one different in every row, but a chart labelled by 98-character ids is
unreadable, and the name is what the reader knows the model by. The evidence used is in the
table: every row's id contains that row's name (case folded), so the id is the name plus
more; the name is then the row name, and the few repeats it has (the same model at two
precisions) are told apart as the proposal tells any repeated name apart.
"""

from __future__ import annotations

import pandas as pd

from .cell_parsing import id_values
from .role_guess import _is_id_name, _is_text_column


def readable_name(frame: pd.DataFrame, id_column: str | None, /, *,
                  max_repeated_share: float) -> str | None:
    """The id-like text column that ``id_column`` spells out, if there is one.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table as read.
    id_column : str or None
        The column :func:`~copa_dash.data.role_guess.guess_id` proposes (None: no answer).
    max_repeated_share : float
        A name whose repeated values cover this share of the rows or more names runs, not
        models: it is not offered (the id stays).

    Returns
    -------
    str or None
        The first column, in file order, with an id-like name (``key``, ``model``,
        ``model_name``), present in every row, shorter on average than ``id_column``, whose
        value is contained in ``id_column``'s value in every row; None if there is none.

    Examples
    --------
    >>> frame = pd.DataFrame({"key": ["phi-4", "phi-4", "gemma-2", "aya-8b", "olmo-7b"],
    ...                       "id": ["microsoft/phi-4_float16", "microsoft/phi-4_bfloat16",
    ...                              "google/gemma-2_bfloat16", "CohereForAI/aya-8b_float16",
    ...                              "allenai/OLMo-7B_bfloat16"]})
    >>> readable_name(frame, "id", max_repeated_share=0.5)
    'key'
    >>> readable_name(frame.assign(key=list("abcde")), "id", max_repeated_share=0.5) is None
    True
    """
    if id_column is None or not _is_text_column(frame[id_column]):
        return None
    ids = id_values(frame[id_column]).str.casefold()
    if ids.isna().any():
        return None
    for column in frame.columns:
        if column == id_column or not _is_id_name(column) or not _is_text_column(frame[column]):
            continue
        names = id_values(frame[column]).str.casefold()
        if names.isna().any() or (names == "").any() or names.str.len().mean() >= ids.str.len().mean():
            continue
        if not all(name in full for name, full in zip(names, ids)):
            continue
        if names.duplicated(keep=False).sum() < max_repeated_share * len(frame):
            return column
    return None
