"""The engine's commands, run as a user runs them: exit codes, JSON, one clear error line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "onefinity" / "data" / "examples"
CASES = ROOT / "tests" / "data" / "forces"


def manage(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    # No DEBUG, no SECRET_KEY: the engine's tools must work without configuration.
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "SECRET_KEY", "DJANGO_SETTINGS_MODULE"}
    }
    clean.update(env or {})
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=clean,
        timeout=60,
    )


def test_validate_force_exits_0_for_a_legal_list():
    result = manage("validate_force", str(EXAMPLES / "solar-concord-line.json"))
    assert result.returncode == 0, result.stderr
    assert "LEGAL" in result.stdout and "52/75 points" in result.stdout


def test_validate_force_exits_0_with_warnings_only():
    case = json.loads((CASES / "no-specialist-is-a-warning.json").read_text())
    path = ROOT / "test-artifacts" / "warning-only.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(case["document"]))
    result = manage("validate_force", str(path), "--json")
    assert result.returncode == 0
    report = json.loads(result.stdout)
    assert report["legal"] is True
    assert [i["code"] for i in report["issues"]] == ["force.specialists.none"]


def test_validate_force_json_lists_every_issue_and_exits_1():
    result = manage("validate_force", str(EXAMPLES / "iron-dominion-overreach.json"), "--json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["legal"] is False and report["points"] == 68
    assert {"code", "severity", "path", "message", "fix"} <= set(report["issues"][0])
    assert {i["code"] for i in report["issues"]} == {
        "force.tags.too-many",
        "force.specialists.none",
        "unit.points.over-limit",
        "trooper.abilities.too-many",
        "unit.troopers.too-few",
        "ref.not-allowed",
    }


def test_validate_force_text_output_shows_message_and_fix():
    result = manage("validate_force", str(EXAMPLES / "iron-dominion-overreach.json"))
    assert result.returncode == 1
    assert "This force has 2 TAGs; at most 1 is allowed." in result.stdout
    assert "Fix: Remove 1 TAG." in result.stdout


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (None, "no such file"),
        ("{not json", "not valid JSON"),
        ('{"format": "onefinity-table"}', "not a force document"),
        ("[1, 2, 3]", "not a force document"),
        (b"\xff\xfe\x00", "not UTF-8"),
    ],
)
def test_validate_force_exits_2_with_one_line_and_no_traceback(tmp_path, content, words):
    path = tmp_path / "force.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    result = manage("validate_force", str(path))
    assert result.returncode == 2
    assert words in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_card_odds_json():
    result = manage("card_odds", "--attacker", "1", "--defender", "1", "--json")
    assert result.returncode == 0
    odds = json.loads(result.stdout)
    assert odds["attacker_wins"] == odds["defender_wins"] == 0.5
    assert odds["exact"]["attacker_wins"] == "1/2"
    assert "fresh, full" in odds["assumption"]


def test_card_odds_text_and_the_ties_fail_variant():
    result = manage("card_odds", "--attacker", "3", "--defender", "2", "--ties-fail")
    assert result.returncode == 0
    assert "Both fail" in result.stdout


def test_card_odds_refuses_impossible_draws():
    result = manage("card_odds", "--attacker", "0", "--defender", "2")
    assert result.returncode == 2
    assert "from 1 to 54 cards" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize(("attacker", "defender"), [("53", "53"), ("54", "54"), ("53", "54")])
def test_card_odds_refuses_a_whole_deck_against_a_whole_deck(attacker, defender):
    result = manage("card_odds", "--attacker", attacker, "--defender", defender)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and result.stdout == ""
    assert result.stderr.strip().count("\n") == 0
    assert "joker against joker is re-drawn" in result.stderr


def test_export_ruleset_json_is_the_whole_ruleset():
    result = manage("export_ruleset", "--json")
    assert result.returncode == 0
    ruleset = json.loads(result.stdout)
    assert ruleset["version"] == "2026.11"
    assert ruleset["unit_types"]["tag"]["cost"] == 10
    assert ruleset["factions"]["exomorph-collective"]["discounts"] == [
        {"unit_type": "tag", "points": 2}
    ]
    assert ruleset["cards"]["deck_size"] == 54
    assert ruleset["weapons"]["combi-rifle"]["provisional"] is True


def test_export_ruleset_text_marks_provisional_entries():
    result = manage("export_ruleset")
    assert result.returncode == 0
    assert "Medium Infantry: move 2, armor 1, wounds 1" in result.stdout
    assert "* provisional" in result.stdout
