"""The "Normalised:" line under the per-objective weights counts the chosen objectives only."""

from copa_dash.ui.features.explore.panels import weight_shares_text


def test_an_unticked_objective_takes_no_share():
    # eight boxes at 1, seven ticked: each chosen objective weighs 1/7 (14%), as the criterion
    columns = [f"o{k}" for k in range(8)]
    text = weight_shares_text(columns, [1] * 8, [columns[:4], columns[4:7]])
    assert text == "Normalised: " + ", ".join(f"o{k} 14%" for k in range(7))
    assert "o7" not in text


def test_shares_follow_the_weights_and_ignore_bad_boxes():
    text = weight_shares_text(["a", "b", "c"], [3, None, 1], [["a", "b", "c"]])
    assert text == "Normalised: a 75%, b 0%, c 25%"


def test_no_positive_weight_among_the_chosen_is_said():
    text = weight_shares_text(["a", "b"], [0, 5], [["a"]])
    assert text == "Give at least one chosen objective a positive weight."
