"""The site's address space: each app's addresses start with path segments of its own, so
the order config/urls.py includes the apps in (the most asked for first) decides only how
soon Django finds a view, never which one."""

from __future__ import annotations

from django.urls import get_resolver


def first_segments() -> dict[str, set[str]]:
    found = {}
    for included in get_resolver().url_patterns:
        patterns = getattr(included, "url_patterns", None)
        if patterns is not None:
            found[included.urlconf_name.__name__] = {str(p.pattern).split("/")[0] for p in patterns}
    return found


def test_each_app_has_the_first_path_segments_of_its_own():
    segments = first_segments()
    assert len(segments) == 7
    for app, own in segments.items():
        others = set().union(*(s for a, s in segments.items() if a != app))
        assert not own & others, f"{app} shares {own & others} with another app"
    # The home page ("") is the only pattern without a first segment, and is the home only.
    assert "" in segments["onefinity.urls"]


def test_the_most_asked_for_apps_are_tried_first():
    assert list(first_segments())[:3] == ["games.urls", "forcebuilder.urls", "tablegen.urls"]
