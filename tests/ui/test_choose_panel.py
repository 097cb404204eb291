"""The "Help me choose" panel's pieces: answers in the URL, cards, progress and applied text."""

from __future__ import annotations

import math
from urllib.parse import parse_qs

from copa_dash.ui.features.explore import choose_panel
from copa_dash.ui.features.explore.state import parse_query, to_query


def test_answers_round_trip_through_the_query_and_junk_is_dropped():
    state = parse_query({"dataset": "helm-classic", "choose": "ab=a"})
    assert state.choose == "ab=a"
    query = parse_qs(to_query(state))
    assert query["choose"] == ["ab=a"]
    assert parse_query({k: v[0] for k, v in query.items()}) == state
    assert parse_query({"choose": "a<script>b"}).choose == "ab"
    assert "choose" not in to_query(parse_query({"dataset": "x"}))


def test_cards_bold_the_better_value_of_each_row():
    rows = [{"objective": "acc", "direction": "max", "a": 0.9, "b": 0.8, "top_a": 1.0,
             "top_b": 20.0, "gap": 0.19},
            {"objective": "cost", "direction": "min", "a": 3.0, "b": 1.0, "top_a": 50.0,
             "top_b": 10.0, "gap": 0.4}]
    left, right = choose_panel.cards(rows, "model <a>", "model b")
    assert left.children[1].children == "model <a>"   # a text child: Dash escapes it
    left_rows = left.children[2].children.children
    right_rows = right.children[2].children.children
    assert type(left_rows[0].children[2].children).__name__ == "Strong"
    assert type(right_rows[0].children[2].children).__name__ == "Span"
    assert type(right_rows[1].children[3].children).__name__ == "Strong"


def test_progress_and_applied_text_say_it_in_plain_words():
    text = choose_panel.progress_text(3, 0.78, "X", 4, False, math.inf)
    assert text.startswith("question 4 - 78% sure it is X")
    assert "one of 4 models" in text and "p = inf" in text
    assert choose_panel.progress_text(9, 0.92, "X", 1, True, 2.0).startswith(
        "Done after 9 answers: 92% sure it is X")
    one = choose_panel.progress_text(1, 0.91, "Claude", 1, True, 1.0)
    assert one.startswith("Done after 1 answer: 91% sure it is Claude (no other model is")
    assert "1 models" not in one and "1 answers" not in one
    applied = choose_panel.applied_text({"use_alpha": True, "focus": ["acc"], "alpha": 0.7,
                                         "weights": {}, "p": 2.0, "how": "mean"})
    assert "focus acc with alpha 0.7 and p = 2" in applied
