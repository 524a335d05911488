"""Whether a change would break a rule, judged by the engine itself.

A choice the editor offers (add a unit, make a trooper a Hacker, tick an ability) is
applied to a copy of the force and validated; the errors the copy has that the force
did not are what the choice would break. Nothing here restates a rule: validation stays
the only judge, so a choice is refused exactly when taking it would add an error.
"""

from __future__ import annotations

from collections import Counter

from onefinity.rules.validation import Issue, Report


def added_errors(before: Report, after: Report) -> tuple[Issue, ...]:
    """The errors of ``after`` that ``before`` does not have.

    Errors are compared by code and message, not by path: a change may move troopers
    (their paths change, their problems do not), and a limit broken further (5
    specialists instead of 4) has a new message, so it counts as added. Each error of
    ``before`` accounts for one equal error of ``after``, so a second trooper with the
    same problem is an added error.
    """
    remaining = Counter((issue.code, issue.message) for issue in before.errors)
    added = []
    for issue in after.errors:
        key = (issue.code, issue.message)
        if remaining[key]:
            remaining[key] -= 1
        else:
            added.append(issue)
    return tuple(added)
