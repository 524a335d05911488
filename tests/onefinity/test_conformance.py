"""The conformance suite: force documents kept as data, each with the issues it must produce.

Add a case by dropping a JSON file in tests/data/forces/:
{"description": ..., "document": {...force document...},
 "expect": {"legal": bool, "points": int, "issues": [{"code": ..., "path": ...}, ...]}}
The issues must match exactly (as a set of code and path pairs).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from onefinity.examples import EXAMPLES_DIR
from onefinity.rules import check_force_document, library

CASES = sorted((Path(__file__).resolve().parents[1] / "data" / "forces").glob("*.json"))


def test_there_are_conformance_cases():
    assert len(CASES) >= 10


@pytest.mark.parametrize("case_path", CASES, ids=[p.stem for p in CASES])
def test_conformance_case(case_path: Path):
    case = json.loads(case_path.read_text(encoding="utf-8"))
    report = check_force_document(case["document"], library())
    expect = case["expect"]
    found = sorted((i.code, i.path) for i in report.issues)
    wanted = sorted((i["code"], i["path"]) for i in expect["issues"])
    assert found == wanted, case["description"]
    assert report.legal == expect["legal"], case["description"]
    if "points" in expect:
        assert report.points == expect["points"], case["description"]


@pytest.mark.parametrize("example", sorted(EXAMPLES_DIR.glob("*.json")), ids=lambda p: p.stem)
def test_shipped_examples_are_valid_documents(example: Path):
    report = check_force_document(json.loads(example.read_text(encoding="utf-8")), library())
    assert "document.invalid" not in {i.code for i in report.issues}
    assert report.legal == ("illegal" not in example.stem and "overreach" not in example.stem)
