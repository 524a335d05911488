"""The old name of ``accounts.part_registry`` (issue 34), kept only while
events/account_parts.py, which another branch is rewriting, still imports it: once that
import names accounts.part_registry, delete this module."""

from accounts.part_registry import AccountPart, Damaged, register

__all__ = ["AccountPart", "Damaged", "register"]
