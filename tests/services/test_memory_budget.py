"""Every in-process cache is bounded by its share of COPA_MEMORY_CACHE_MB."""

from __future__ import annotations

import pytest

from copa_dash.config import Settings
from copa_dash.services import catalog, elicitation, explorer, recent, selection, store
from copa_dash.services.views import memo


def test_the_env_var_sets_the_worker_budget():
    assert Settings.from_env({"COPA_MEMORY_CACHE_MB": "64"}).memory_cache_bytes == 64 * 2**20
    assert Settings.from_env({}).memory_cache_bytes == 512 * 2**20


def test_the_shares_add_up_to_at_most_the_budget_and_follow_it():
    caches = [store._recently_loaded, selection._recent_bases, selection._recent_masks,
              catalog._recent_bundled, elicitation._recent_states, memo._recent_views,
              explorer._recent_summaries]
    assert all(c in recent._SHARED for c in caches)
    try:
        bounds = recent.set_memory_budget(100 * 2**20)
        assert sum(bounds.values()) <= 100 * 2**20
        assert store._recently_loaded.max_bytes == int(0.4 * 100 * 2**20)
        # the help-me-choose sessions too (they held a fixed 300 MiB outside the budget)
        assert elicitation._recent_states.max_bytes == int(0.1 * 100 * 2**20)
    finally:
        recent.set_memory_budget(Settings().memory_cache_bytes)


def test_a_smaller_budget_drops_the_oldest_values_at_once():
    kept = recent.RecentValues(entries=8, max_bytes=100)
    kept.put("a", 1, nbytes=40)
    kept.put("b", 2, nbytes=40)
    kept.resize(50)
    assert kept.get("a") is None and kept.get("b") == 2


def test_shares_over_one_are_refused():
    extra = recent.RecentValues(entries=1, share=0.9, name="too much")
    try:
        with pytest.raises(ValueError, match="more than 1"):
            recent.set_memory_budget(2**20)
    finally:
        recent._SHARED.remove(extra)
