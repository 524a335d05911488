"""The exchange's conformance suite: whole exchanges kept as data, each with the piles and
the exact odds it must produce, one or more for every mode (shooting, bursts, reactive
fire, close combat both ways and after a reaction, armor piercing, wounds, the ties-fail
variant) and for what the engine must refuse.

Add a case by dropping a JSON file in tests/data/exchanges/:
{"description": ...,
 "attacker": {"type": unit type, "skills": [...], "weapons": [...], "equipment": [...],
              "abilities": [...], "weapon": the one it uses, "combat": [...], "defense": [...]},
 "target": {... the same, "weapon": the one it reacts with},
 "situation": {"mode": "shooting" | "close-combat", "band": ..., "reaction": bool},
 "ties_fail": bool,
 "expect": {"cards": {"shot" | "reaction" | "melee": [attack, against]}, "burst": n,
            "outcome": {...}, "target_ends": {...}, "attacker_ends": {...} (exact, "p/q"),
            "applied": [entry ids], "left_out": [entry ids]}
           or {"refused": words of the refusal}}
The odds must match exactly; the numbers were checked by the independent enumeration of
tests/onefinity/exchange_reference.py where it can reach them, and by hand where small.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from onefinity.rules import current_ruleset
from onefinity.rules.combat import Situation, plan_exchange, resolve
from onefinity.rules.effects import CombatError, Fighter, fighter, wounds_of
from onefinity.rules.force import TrooperSpec, UnitSpec
from tests.onefinity import exchange_reference as reference

CASES = sorted((Path(__file__).resolve().parents[1] / "data" / "exchanges").glob("*.json"))
RULESET = current_ruleset()


def side(raw: dict[str, Any], name: str) -> Fighter:
    trooper = TrooperSpec(
        weapons=tuple(raw.get("weapons", ())),
        equipment=tuple(raw.get("equipment", ())),
        abilities=tuple(raw.get("abilities", ())),
    )
    unit = UnitSpec(type=raw["type"], troopers=(trooper,), skills=tuple(raw.get("skills", ())))
    found = fighter(trooper, unit, RULESET, name, raw.get("weapon"))
    assert found is not None
    return found.with_situation(raw.get("combat", ()), raw.get("defense", ()))


def figures(result) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    document = result.as_dict()
    return {
        group: {name: value["exact"] for name, value in document[group].items()}
        for group in ("outcome", "target_ends", "attacker_ends")
    }


def test_there_are_cases_for_every_mode():
    situations = [json.loads(p.read_text(encoding="utf-8"))["situation"] for p in CASES]
    modes = {(s["mode"], s.get("reaction", False)) for s in situations}
    assert modes == {
        ("shooting", False),
        ("shooting", True),
        ("close-combat", False),
        ("close-combat", True),
    }
    assert len(CASES) >= 10


@pytest.mark.parametrize("case_path", CASES, ids=[p.stem for p in CASES])
def test_exchange_case(case_path: Path):
    case = json.loads(case_path.read_text(encoding="utf-8"))
    expect = case["expect"]
    raw = case["situation"]
    situation = Situation(raw["mode"], raw.get("band", ""), raw.get("reaction", False))
    attacker, target = side(case["attacker"], "Attacker"), side(case["target"], "Target")
    if "refused" in expect:
        with pytest.raises(CombatError, match=expect["refused"]):
            plan_exchange(attacker, target, situation, RULESET)
        return
    plan = plan_exchange(attacker, target, situation, RULESET)
    piles = {"shot": plan.shot, "reaction": plan.reaction, "melee": plan.melee}
    cards = {
        name: [matchup[0].cards, matchup[1].cards]
        for name, matchup in piles.items()
        if matchup is not None
    }
    assert cards == expect["cards"], case["description"]
    assert plan.burst == expect.get("burst", 1)
    result = resolve(plan, RULESET, ties_fail=case.get("ties_fail", False))
    found = figures(result)
    for group in ("outcome", "target_ends", "attacker_ends"):
        assert found[group] == expect[group], (case["description"], group)
    applied = sorted({u.entry.id for u in plan.effects if u.applied})
    left_out = sorted({u.entry.id for u in plan.effects if not u.applied})
    assert applied == sorted(expect.get("applied", [])), case["description"]
    assert left_out == sorted(expect.get("left_out", [])), case["description"]


def _small_enough(case: dict[str, Any]) -> bool:
    """Cases the enumeration reaches on the full deck in well under a second: single
    comparisons of up to 3 cards a pile, or a reaction of one card a pile under the
    ties-fail variant (14 ranks rather than 53)."""
    piles = case["expect"].get("cards")
    if piles is None:
        return False
    if "reaction" in piles:
        return case.get("ties_fail", False) and all(max(p) == 1 for p in piles.values())
    return all(max(pair) <= 3 for pair in piles.values())


@pytest.mark.parametrize(
    "case_path",
    [p for p in CASES if _small_enough(json.loads(p.read_text(encoding="utf-8")))],
    ids=lambda p: p.stem,
)
def test_a_small_case_agrees_with_the_enumeration_on_the_full_deck(case_path: Path):
    case = json.loads(case_path.read_text(encoding="utf-8"))
    expect, raw = case["expect"], case["situation"]
    cards = {name: tuple(pair) for name, pair in expect["cards"].items()}
    attacker, target = side(case["attacker"], "A"), side(case["target"], "T")
    exchange = reference.Exchange(
        raw["mode"],
        attacker.wounds,
        wounds_of(target),
        target_downed=any(
            RULESET.combat_modifiers[m].target_downed for m in attacker.combat_modifiers
        ),
        shot=cards.get("shot", (0, 0)),
        burst=expect.get("burst", 1),
        reaction=cards.get("reaction"),
        melee=cards.get("melee", (0, 0)),
    )
    played = reference.summary(
        reference.play(exchange, RULESET.cards, case.get("ties_fail", False), RULESET.exchange)
    )
    pinned = {
        f"{prefix}{name}": Fraction(value)
        for group, prefix in (
            ("outcome", ""),
            ("target_ends", "target_"),
            ("attacker_ends", "attacker_"),
        )
        for name, value in expect[group].items()
    }
    assert {k: v for k, v in pinned.items() if v} == {k: v for k, v in played.items() if v}
