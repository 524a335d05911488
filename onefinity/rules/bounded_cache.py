"""The most recently used values, up to a bound: what a process remembers between requests.

Why pure code keeps state at all. The engines (``onefinity.rules``, ``tablegen.engine``)
are functions of their inputs: no Django, no database, no clock. What they keep is only a
memory of answers already worked out, so that the next request costs less: the line-of-fire
state of a table, so that an edit recomputes only the pairs its hexes touch
(``tablegen.engine.metrics``); above the engines, a table's reading (``tablegen.models``)
and the map the editor drew last (``tablegen.maps``). Each answer is the same with or
without the memory (tests compare the two), so a process that has forgotten, or another
worker that never saw the table, answers the same, only slower. Memory is per process,
bounded (by a count, or by bytes), and locked, since the server answers in several threads.

``functools.lru_cache`` remembers the pure functions of hashable values (a board's
geometry); :class:`Recent` is for what needs more: keys it cannot hash (a table's
terrain), values compared before use (a document and the rules it was read with), a bound
in bytes, or a look over what is kept (the state nearest to a new terrain).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from cachetools import Cache, LRUCache

K = TypeVar("K")
V = TypeVar("V")


def _one(_: object) -> int:
    return 1


class Recent(Generic[K, V]):
    """Values by key, the least recently used dropped first once their total weight
    passes ``most`` (each weighs 1 unless ``weight`` says otherwise); the newest is kept
    whatever it weighs. Safe to share between threads.

    cachetools' LRUCache keeps the order of use and the total weight as it goes; the lock
    is ours, since it has none. A value heavier than ``most`` counts as weighing ``most``
    (LRUCache refuses it otherwise): it is kept alone, until the next value comes."""

    def __init__(self, most: int, weight: Callable[[V], int] = _one) -> None:
        self.most = most
        self._kept: LRUCache[K, V] = LRUCache(most, getsizeof=lambda v: min(weight(v), most))
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The value kept under ``key`` (now the most recently used), or None."""
        with self._lock:
            return self._kept.get(key)

    def __getitem__(self, key: K) -> V:
        value = self.get(key)
        if value is None:
            raise KeyError(key)
        return value

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` as the most recently used; drop the least recently used ones
        while the rest weigh more than ``most``."""
        with self._lock:
            self._kept[key] = value

    def items(self) -> list[tuple[K, V]]:
        """What is kept, in no set order (a copy: it may change meanwhile). Looking does
        not count as a use: LRUCache's own items() would make each value the most recent."""
        with self._lock:
            return [(key, Cache.__getitem__(self._kept, key)) for key in self._kept]

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._kept)
