"""Python's garbage collector, tuned for a server process.

The site's work makes and drops many small objects: a 1,600-hex table's document is about
5,000 lists and dicts, read and written on every edit. With Python's default thresholds the
collector runs its youngest generation every 700 new objects, and now and then walks every
object the process holds (150,000 after start-up: modules, Django, the ruleset), 100 ms and
more on this machine, in the middle of a request, holding every thread of the worker.

So, once the application is loaded (config/wsgi.py, and the task worker's run_jobs): what
start-up made is collected once and frozen (never walked again: it lives as long as the
process), and the youngest generation is collected every YOUNG_THRESHOLD new objects, the
older ones every MIDDLE_THRESHOLD and OLDEST_THRESHOLD collections of the one below.
Objects are still freed by reference counting the moment they are dropped; only cycles
wait a little longer. benchmarks/tables.py measures a hex edit under the same settings.

The thresholds were raised for the mixed load (issue 34, third pass: docs/performance.md):
in one process, the same requests round by round (`benchmarks/request_cpu.py --toggle`),
(7,000, 10, 10) -> (20,000, 50, 100) took the mix from 8.07 to 7.06 ms of CPU a request
(mean; generating a table 23.4 -> 18.9 ms), and (50,000, 20, 100) from there to 6.94.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 50_000
MIDDLE_THRESHOLD = 20
OLDEST_THRESHOLD = 100


def tune_garbage_collector() -> None:
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, MIDDLE_THRESHOLD, OLDEST_THRESHOLD)
