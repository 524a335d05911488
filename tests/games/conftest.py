"""The event personas and records (tests/events/conftest.py), for the games of a round."""

from tests.events.conftest import (  # noqa: F401
    alice_list,
    bob_list,
    event,
    joined,
    organizer,
    other_client,
    other_player,
    player,
    player_client,
    stranger,
    stranger_client,
    submitted,
)
