"""Cached orchestration between the data layer and the UI; no dash here.

``store`` keeps uploaded tables under content-hash ids, ``cache`` memoises analysis
results per dataset (diskcache or Redis), ``jobs`` builds the background-callback
manager, ``export`` writes spreadsheet-safe CSV.
"""
