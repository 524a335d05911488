"""The engine's commands, run as a user runs them: exit codes, JSON, one clear error line."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "onefinity" / "data" / "examples"
CASES = ROOT / "tests" / "data" / "forces"


def manage(
    *args: str, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
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
        timeout=timeout,
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


def odds(*args: str) -> str:
    """card_odds in this process (the commands above run as a user runs them: exit codes
    and one line on stderr; a subprocess each costs about 2 s, so the many cases of the
    whole exchange run here). CommandError when it refuses."""
    out = io.StringIO()
    call_command("card_odds", *args, stdout=out)
    return out.getvalue()


def refused(*args: str) -> str:
    with pytest.raises(CommandError) as caught:
        odds(*args)
    assert caught.value.returncode == 2
    return str(caught.value)


def test_card_odds_by_counts_gives_the_whole_exchange_with_a_reaction():
    # One card each way, both shots at once: each hits half the time, and the attacker
    # ends downed exactly half the time.
    exchange = json.loads(odds("--attacker", "1", "--defender", "1", "--reaction", "--json"))[
        "exchange"
    ]
    assert exchange["reaction"] is True and len(exchange["comparisons"]) == 2
    outcome = {k: Fraction(v["exact"]) for k, v in exchange["outcome"].items()}
    assert sum(outcome.values()) == 1
    assert Fraction(exchange["attacker_ends"]["downed"]["exact"]) == Fraction(1, 2)


def test_card_odds_by_counts_shoots_a_burst_at_the_same_target():
    document = json.loads(odds("--attacker", "1", "--defender", "1", "--burst", "2", "--json"))
    # Two shots of even chance while the first misses: downed 3/4.
    assert document["exchange"]["target_ends"]["downed"]["exact"] == "3/4"


FORCE = {
    "format": "onefinity-force",
    "version": 1,
    "name": "Long watch",
    "faction": "solar-concord",
    "units": [
        {
            "type": "light-infantry",
            "troopers": [
                {"id": "s1", "weapons": ["sniper-rifle"], "equipment": ["multispectral-visor"]},
                {},
            ],
        }
    ],
}
GHOSTS = {
    "format": "onefinity-force",
    "version": 1,
    "name": "Ghosts",
    "faction": "nomad-syndicate",
    "units": [
        {
            "type": "medium-infantry",
            "skills": ["mimetism"],
            "troopers": [{"abilities": ["agile"], "equipment": ["light-armor-plate"]}, {}, {}],
        }
    ],
}


def test_card_odds_by_troopers_applies_every_effect_as_the_panel_does(tmp_path):
    mine, theirs = tmp_path / "mine.json", tmp_path / "theirs.json"
    mine.write_text(json.dumps(FORCE), encoding="utf-8")
    theirs.write_text(json.dumps(GHOSTS), encoding="utf-8")
    args = ["--force", str(mine), "--trooper", "s1", "--target-force", str(theirs)]
    args += ["--target-trooper", "1.1", "--band", "extreme", "--defense", "cover"]
    exchange = json.loads(odds(*args, "--json"))["exchange"]
    (shot,) = exchange["comparisons"]
    assert (shot["attack"]["cards"], shot["against"]["cards"]) == (2, 4)
    applied = {e["entry"] for e in exchange["effects"] if e["applied"]}
    assert applied == {"multispectral-visor", "mimetism", "agile", "light-armor-plate"}
    assert "Cover: cancelled by Multispectral Visor" in odds(*args)
    # Both troopers named by their place, 1.1 in each file: still two sides, each with its
    # own effects (they were one name, and their effects merged).
    alike = ["--force", str(mine), "--trooper", "1.1", *args[4:]]
    same = json.loads(odds(*alike, "--json"))["exchange"]
    named = json.dumps(same).replace("1.1 (attacker)", "s1").replace("1.1 (target)", "1.1")
    assert json.loads(named) == exchange
    assert {e["side"] for e in same["effects"]} == {"1.1 (attacker)", "1.1 (target)"}


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--attacker", "1"), "--attacker needs --defender"),
        (("--attacker", "1", "--defender", "1", "--force", "x.json"), "not both"),
        (("--attacker", "1", "--defender", "1", "--burst", "0"), "a burst is from 1"),
        (
            ("--attacker", "30", "--defender", "1", "--reaction"),
            "",
        ),
        (
            ("--attacker", "30", "--defender", "1", "--reaction", "--attacker-defense-cards", "30"),
            "more than a deck",
        ),
        (("--force", "/nonexistent.json", "--trooper", "x"), "no such file"),
    ],
)
def test_card_odds_refuses_bad_options_with_a_reason(args, words):
    if not words:  # within a deck: answered
        assert "Over the whole action" in odds(*args)
        return
    assert words in refused(*args)


def test_card_odds_by_troopers_names_what_it_cannot_find(tmp_path):
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps(FORCE), encoding="utf-8")
    for args, words in (
        (("--trooper", "nobody", "--target-type", "tag"), "no trooper 'nobody'"),
        (
            ("--trooper", "s1", "--target-type", "tag", "--combat", "charging", "--band", "short"),
            "does not apply in shooting",
        ),
        (("--trooper", "s1"), "give the target"),
        (
            # Seed 001: a target attacked from its rear arc does not see its attacker.
            ("--trooper", "s1", "--target-type", "medium-infantry", "--combat", "rear"),
            "cannot react: it does not see the attacker",
        ),
    ):
        extra = ("--band", "short", "--reaction") if "rear" in args else ()
        assert words in refused("--force", str(mine), *args, *extra)


def test_the_readme_documents_every_key_of_the_card_odds_json():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[
        readme.index("### The card_odds JSON") : readme.index("### The force document")
    ]
    document = json.loads(odds("--attacker", "2", "--defender", "1", "--reaction", "--json"))
    exchange = document["exchange"]
    keys = set(document) | set(exchange) | set(exchange["comparisons"][0])
    keys |= set(exchange["comparisons"][0]["attack"]) | set(exchange["attacker"])
    keys |= set(exchange["target_ends"]) | set(exchange["outcome"])
    missing = sorted(k for k in keys if f"`{k}`" not in section and f'"{k}"' not in section)
    assert not missing


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
