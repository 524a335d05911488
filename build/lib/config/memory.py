"""Python's garbage collector, tuned for a server process.

The site's work makes and drops many small objects: a 1,600-hex table's document is about
5,000 lists and dicts, read and written on every edit. With Python's default thresholds the
collector runs its youngest generation every 700 new objects, and now and then walks every
object the process holds (150,000 after start-up: modules, Django, the ruleset), 100 ms and
more on this machine, in the middle of a request, holding every thread of the worker.

So, once the application is loaded (config/wsgi.py): what start-up made is collected once
and frozen (never walked again: it lives as long as the process), and the youngest
generation is collected every YOUNG_THRESHOLD new objects. Objects are still freed by
reference counting the moment they are dropped; only cycles wait a little longer.
benchmarks/tables.py measures a hex edit under the same settings.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 7_000


def tune_garbage_collector() -> None:
    gc.collect()
    gc.freeze()
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, oldest)
