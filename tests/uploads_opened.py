"""An upload as a user makes it (staged, saved with the reader's roles) and the Explore
page's first state for it: shared by the tests of the first view (tests/ui, tests/services)."""

from __future__ import annotations

from pathlib import Path


def uploaded_first_state(settings, path: Path):
    """``(opened, state)``: the saved upload of ``path`` and Explore's state when it opens
    without a query."""
    from copa_dash.services.catalog import open_dataset
    from copa_dash.services.uploads import finalize_upload, stage_upload
    from copa_dash.ui.features.explore.state import with_defaults
    from copa_dash.ui.features.explore.view_memo import state_of

    staged = stage_upload(settings, path.name, path.read_bytes())
    dataset = finalize_upload(settings, staged.token, staged.filename,
                              staged.proposal.roles(skip_undecided=True), name=None,
                              shared=False)
    opened = open_dataset(dataset, settings)
    return opened, with_defaults(state_of(f"dataset={dataset}"), opened, ("dataset",))
