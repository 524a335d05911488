"""A list as an event reads it: under the event's ruleset and points limit, whatever the
list itself says. Nothing here touches the database; models and views call it."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from onefinity.rules import (
    ForceDocumentError,
    ForceSpec,
    Issue,
    Report,
    force_document,
    library,
    read_force_document,
    validate_force,
)
from onefinity.rules.ruleset import Ruleset
from onefinity.rules.validation import ERROR, WARNING

OVER_LIMIT = "force.points.over-limit"
# The event plays a ruleset this site no longer ships: nothing can be checked for it.
NOT_SHIPPED = "event.ruleset.not-shipped"


@dataclass(frozen=True)
class Checked:
    """A list checked for an event: the document as the event keeps it, and the verdict."""

    spec: ForceSpec
    document: dict[str, Any]
    report: Report
    issues: tuple[Issue, ...]

    @property
    def legal(self) -> bool:
        return not any(issue.severity == "error" for issue in self.issues)

    @property
    def points(self) -> int:
        return self.report.points

    @property
    def over_limit(self) -> bool:
        return any(issue.code == OVER_LIMIT for issue in self.issues)

    @property
    def refused(self) -> bool:
        """Not checked at all: the event's ruleset is not one this site ships."""
        return any(issue.code == NOT_SHIPPED for issue in self.issues)

    def issue_dicts(self) -> list[dict[str, Any]]:
        return [issue.as_dict() for issue in self.issues]


def event_ruleset(version: str) -> Ruleset:
    return library().get_or_current(version)


def ruleset_shipped(version: str) -> bool:
    """Whether the site still ships the event's ruleset (lists can be checked under it)."""
    return library().get(version) is not None


def shipped_rulesets() -> list[str]:
    return sorted(library().rulesets, reverse=True)


def check_for_event(spec: ForceSpec, ruleset_version: str, points_limit: int) -> Checked:
    """``spec`` as played at an event: the event's ruleset and points limit override the
    list's own (a 75-point list is checked at 60 when the event plays 60).

    The document is written only after the reader accepts it (ForceDocumentError when it
    would not read back), so a stored snapshot always reads.

    An event pinned to a ruleset the site no longer ships is never checked under another
    one: the verdict is one error saying so (``refused``), and nothing else."""
    ruleset = library().get(ruleset_version)
    if ruleset is None:
        return _not_shipped(spec, ruleset_version, points_limit)
    as_played = replace(spec, ruleset=ruleset.version, points_limit=points_limit)
    document = force_document(as_played)
    read_force_document(document)
    report = validate_force(as_played, ruleset)
    issues = list(report.issues)
    if spec.ruleset is not None and spec.ruleset != ruleset.version:
        issues.insert(
            0,
            Issue(
                "event.ruleset.other",
                WARNING,
                "ruleset",
                f"This list was built for ruleset {spec.ruleset}; the event plays "
                f"{ruleset.version}, so it is checked under {ruleset.version}.",
                "Open the list and move it to the event's ruleset.",
            ),
        )
    return Checked(as_played, document, report, tuple(issues))


def _not_shipped(spec: ForceSpec, ruleset_version: str, points_limit: int) -> Checked:
    as_played = replace(spec, ruleset=ruleset_version, points_limit=points_limit)
    document = force_document(as_played)
    read_force_document(document)
    shipped = ", ".join(sorted(library().rulesets, reverse=True))
    issue = Issue(
        NOT_SHIPPED,
        ERROR,
        "ruleset",
        f"This event plays ruleset {ruleset_version}, which this site no longer ships, so "
        "no list can be checked for it: nothing was checked under another ruleset.",
        f"The organizer can move the event to a ruleset the site ships ({shipped}).",
    )
    return Checked(as_played, document, Report(None, (issue,)), (issue,))


__all__ = [
    "Checked",
    "ForceDocumentError",
    "check_for_event",
    "event_ruleset",
    "ruleset_shipped",
    "shipped_rulesets",
]
