"""Tournament packs on the site: many tables made alike, compared, printed together.

- ``steps``: a pack's work as bounded steps (generate, measure, print, put together), each a
  compare-and-swap on the pack, run by the worker or by the page that polls it;
- ``comparison``: what a pack's page shows of its tables (their figures side by side, how
  far apart they are) and whether an edited table may take one's place;
- ``views``: the pack's pages.

The choice of the tables themselves (distinct, valid, within tolerance of each other) is
the pure table engine's: ``tablegen.engine.tournament``.
"""
