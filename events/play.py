"""Kept for the callers written before the split of issue 32: what pages read is
events/reading.py, what requests do is events/commands.py. The games app's round
(games/rounds.py, on main) reports a game's result through ``play.report``; once it imports
``events.commands.report`` this module goes."""

from events.commands import report

__all__ = ["report"]
