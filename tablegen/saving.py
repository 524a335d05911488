"""A table the requester makes (generated, an empty board, a copy of a shared table or of a
pack's), saved as theirs once, however often its form was sent: a double tap, or a phone
resending on bad Wi-Fi, leads both answers to the one table (onefinity.once). The table is
made and checked before: only its save is inside the claim's transaction."""

from __future__ import annotations

from django.http import HttpRequest

from accounts.ownership import owned, owner_fields
from onefinity.once import made_once
from tablegen.models import Table


def kept_once(request: HttpRequest, table: Table) -> Table:
    """``table`` (set, not saved, no owner yet) saved as the requester's; or, when the same
    form was sent already, the table that made."""

    def save() -> Table:
        for field, value in owner_fields(request, Table).items():
            setattr(table, field, value)
        table.save()
        return table

    return made_once(request, owned(request, Table), save)[0]
