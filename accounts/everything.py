"""The old name of ``accounts.account_views`` (issue 34), kept only while jobs/exports.py,
which another branch is changing, still imports it: once that import names
accounts.account_views, delete this module."""

from accounts.account_views import everything_document

__all__ = ["everything_document"]
