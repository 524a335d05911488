"""What a process remembers between requests (onefinity.rules.bounded_cache): the most recently
used values, bounded by a count or a weight, the newest always kept."""

from __future__ import annotations

import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from onefinity.rules.bounded_cache import Recent


def test_it_keeps_the_most_recent_values_up_to_a_count():
    kept: Recent[str, int] = Recent(most=2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.get("a") == 1  # "a" is now the most recently used
    kept.put("c", 3)
    assert kept.get("b") is None
    assert dict(kept.items()) == {"a": 1, "c": 3}
    assert len(kept) == 2


def test_it_keeps_the_newest_value_whatever_it_weighs():
    kept: Recent[str, bytes] = Recent(most=10, weight=len)
    kept.put("small", b"1234")
    kept.put("also", b"12345")
    kept.put("large", b"x" * 50)
    assert kept.items() == [("large", b"x" * 50)]
    kept.put("next", b"1")  # the heavy one is the least recently used now
    assert kept.items() == [("next", b"1")]


def test_a_value_put_again_is_the_most_recent_and_weighs_only_once():
    kept: Recent[str, bytes] = Recent(most=10, weight=len)
    kept.put("a", b"12345")
    kept.put("b", b"1234")
    kept.put("a", b"123456")
    assert dict(kept.items()) == {"b": b"1234", "a": b"123456"}
    kept.put("c", b"12")  # "b" is the least recently used: it goes first
    assert dict(kept.items()) == {"a": b"123456", "c": b"12"}


def test_a_key_not_kept_is_none_or_a_key_error_and_clear_forgets_all():
    kept: Recent[str, int] = Recent(most=3)
    kept.put("a", 1)
    assert kept["a"] == 1
    kept.clear()
    assert kept.get("a") is None and len(kept) == 0
    with pytest.raises(KeyError):
        kept["a"]


steps = st.lists(
    st.tuples(st.booleans(), st.integers(0, 6), st.integers(1, 5)), min_size=1, max_size=40
)


@settings(max_examples=100)
@given(st.integers(1, 12), steps)
def test_it_keeps_exactly_the_most_recently_used_that_fit(most, actions):
    kept: Recent[int, int] = Recent(most=most, weight=lambda weight: weight)
    order: list[int] = []  # the keys by last use, newest last: the model
    values: dict[int, int] = {}
    for is_put, key, weight in actions:
        if is_put:
            kept.put(key, weight)
            values[key] = weight
        elif kept.get(key) is None:
            continue
        order = [k for k in order if k != key] + [key]
        while sum(values[k] for k in order) > most and len(order) > 1:
            values.pop(order.pop(0))
    assert dict(kept.items()) == {k: values[k] for k in order}


def test_threads_sharing_it_never_pass_its_bound():
    kept: Recent[tuple[int, int], int] = Recent(most=8)
    seen: list[int] = []

    def use(thread: int) -> None:
        for step in range(300):
            kept.put((thread, step), step)
            kept.get((thread, step - 1))
            seen.append(len(kept))

    threads = [threading.Thread(target=use, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert max(seen) <= 8 and len(kept) == 8
