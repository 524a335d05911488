"""The load client's --mix: the kinds it sends and their weights (loadtest/run.py)."""

from __future__ import annotations

import argparse
import importlib.util
import random
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def client():
    spec = importlib.util.spec_from_file_location("loadtest_run", ROOT / "loadtest" / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_mix_names_kinds_of_the_load_with_whole_weights():
    run = client()
    assert run.mix("editor change=35, roster pdf=30") == {"editor change": 35, "roster pdf": 30}
    for bad in ("nope=1", "editor change=x", "editor change=-1", "editor change=0", ""):
        with pytest.raises(argparse.ArgumentTypeError):
            run.mix(bad)


def test_a_user_sends_only_the_kinds_of_its_mix():
    run = client()
    user = run.User("http://127.0.0.1:9", random.Random(1))
    sent: list[str] = []
    user.request = lambda kind, path, **_: sent.append(path)
    for _ in range(200):
        user.act(["abc"], ["xyz"], weights={"roster pdf": 1, "view shared list": 3})
    assert {path.rsplit("/", 2)[-2] if path.endswith("/") else "pdf" for path in sent} == {
        "abc",
        "pdf",
    }
    assert 100 < sum(path == "/s/abc/" for path in sent) < 190


def test_the_load_client_targets_only_this_machine():
    run = client()
    for base in (
        "http://127.0.0.1:8000",
        "http://127.5.6.7",
        "http://localhost:9",
        "http://[::1]:80",
    ):
        assert run.loopback(base), base
    for base in (
        "http://127.0.0.1.nip.io:8041",
        "http://127.attacker.example",
        "http://example.com",
        "http://0.0.0.0",
        "http://[::ffff:8.8.8.8]",
        "http://localhost.evil.com",
        "http://evil.com#@127.0.0.1",
        "http://2130706433",
    ):
        assert not run.loopback(base), base
