"""Who may react to the active trooper (seed 000, "Reactions"), as a pure predicate.

A reactive trooper may react when it is in a state that reacts (not downed) and it sees
the active trooper: the active trooper is in its line of fire, which lies within its front
180 degree arc. An attack from its rear arc therefore gets no reaction, unless something it
carries lets it react without line of fire (a ``reacts_unseen`` effect in the ruleset's
data, the Motion Sensor's, within that many hexes). The game page and the odds both ask
here, so they never disagree.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from onefinity.rules.ruleset import REACTS_UNSEEN, CatalogueEntry


@dataclass(frozen=True, slots=True)
class Watch:
    """What a reactive trooper knows of the active trooper at the moment it activates."""

    # Its state lets it react (the ruleset's [game.states] `reacts`).
    state_reacts: bool
    # The active trooper is in its line of fire (the exact line of fire, within its front
    # arc when its facing is known).
    sees: bool
    # The active trooper is in its rear 180 degree arc.
    in_rear_arc: bool = False
    # Hexes between the two, when both are on the map.
    distance: int | None = None
    # The farthest (in hexes) it may react without line of fire: 0 when it may not.
    unseen_reach: int = 0
    state_name: str = "downed"


def unseen_reach(gear: Iterable[CatalogueEntry]) -> int:
    """The farthest an effect of the gear lets its owner react without line of fire."""
    return max(
        (
            effect.amount
            for entry in gear
            for effect in entry.effects
            if effect.change == REACTS_UNSEEN
        ),
        default=0,
    )


def reaction_refusal(watch: Watch) -> str:
    """Why the trooper may not react ('' when it may)."""
    if not watch.state_reacts:
        return f"a {watch.state_name} trooper cannot react"
    if watch.sees and not watch.in_rear_arc:
        return ""
    if watch.unseen_reach and watch.distance is not None and watch.distance <= watch.unseen_reach:
        return ""
    if watch.in_rear_arc:
        return "the active trooper is in its rear arc: it has no line of fire to react"
    return "it does not see the active trooper"


def may_react(watch: Watch) -> bool:
    return not reaction_refusal(watch)
