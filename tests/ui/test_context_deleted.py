"""A deleted upload is forgotten by the header's links and named in words (finding F7): the
shell's memory of the last dataset is emptied when the list of own uploads changes and its
dataset is gone; a link that still names it says it was deleted, with the name this browser
saw it under, and offers the catalogue instead of "no dataset has the id '<hex>'"."""

from __future__ import annotations

import pytest
from dash import no_update

from copa_dash.config import Settings
from copa_dash.services.uploads import delete_upload, save_upload, stage_upload
from copa_dash.ui.common.context import dataset_name_and_memory, forget_if_gone
from copa_dash.ui.common.datasets import GONE_UPLOAD, open_or_explain
from tests.ui.dash_tree import text, walk

NAMED = b"model,accuracy,training_time\nm1,0.91,120\nm2,0.88,30\nm3,0.93,400\n"


@pytest.fixture
def settings(tmp_path):
    return Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")


def test_a_deleted_upload_leaves_the_links_and_is_named_in_words(settings):
    staged = stage_upload(settings, "arena.csv", NAMED)
    saved = save_upload(settings, staged.token, staged.filename, staged.proposed,
                        name="Chatbot Arena Elo vs price (upload)", shared=False)
    ref = saved.id
    last = {"dataset": ref, "query": "", "explore": ""}

    # while it exists: named by its name, remembered, and the links keep it
    name, memory, seen = dataset_name_and_memory(ref, settings, {})
    assert name == "Chatbot Arena Elo vs price (upload)" and memory is no_update
    assert seen == {ref: name}
    assert forget_if_gone(last, settings) is no_update
    assert forget_if_gone({"dataset": "decodingtrust"}, settings) is no_update

    delete_upload(settings, ref, saved.owner_token)

    # the delete changes the list of own uploads: the links' memory is emptied
    assert forget_if_gone(last, settings) == {}
    # a link that still names it: its name and "deleted", and the browser forgets it
    name, memory, _ = dataset_name_and_memory(ref, settings, seen)
    assert "'Chatbot Arena Elo vs price (upload)', which was deleted" in name
    assert memory == {} and ref not in name
    name, memory, _ = dataset_name_and_memory(ref, settings, {})
    assert name.startswith("a dataset that was deleted") and memory == {}

    # the page itself: plain words and the catalogue, never the store's hex id message
    opened, page = open_or_explain(ref, settings, "Explore")
    assert opened is None
    words = text(page)
    assert GONE_UPLOAD in words and ref not in words and "no dataset has the id" not in words
    assert any(getattr(c, "href", None) == "/" for c in walk(page))
