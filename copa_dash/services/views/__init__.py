"""One frozen view per page, below the UI: what a page shows, its link and its default.

Each page's view (:class:`~.explore.ExploreView`, :class:`~.rankings.RankingsView`,
:class:`~.systems.SystemsView`, :class:`~.generalization.GeneralizationView`,
:class:`~.posets.PosetsView`) has ``from_query(query_string_or_dict)``, ``to_query()``,
``default_for(...)`` and what the services need from it; :func:`~.links.link` writes every
link. The pages' ``state.py`` (controls <-> view), the reports, the CLI, the notebook and the
upload's first view all use these, so a change to what a page remembers is made once.

Only Explore's view and the links are imported here (the CLI imports this at every start);
import the other pages' views from their modules.
"""

from .explore import ExploreView
from .links import PAGES, dataset_link, link

__all__ = ["PAGES", "ExploreView", "dataset_link", "link"]
