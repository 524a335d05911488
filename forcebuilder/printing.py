"""Printouts of a list: plain text for chat, PDF roster and trooper cards (WeasyPrint), QR."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import threading
from dataclasses import dataclass

import cachetools
import segno
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from forcebuilder.models import Force
from forcebuilder.sheets import ForceSheet, sheet_of
from onefinity import downloads
from onefinity.http import HtmxHttpRequest


# The same link makes the same picture: drawing it (segno's mask search) was half of a shared
# list's page and of the roster print view under load (docs/performance.md, issue 34).
@functools.lru_cache(maxsize=512)
def qr_svg(url: str) -> str:
    return segno.make(url, error="m").svg_inline(
        scale=3, dark="#000", light="#fff", title="Share link QR code"
    )


def share_url_of(request: HttpRequest, force: Force) -> str:
    """The list's share link, while it is shared ("" otherwise: a printout of a list whose
    sharing is off carries no dead link)."""
    return request.build_absolute_uri(force.get_share_url()) if force.sharing else ""


def share_context(request: HtmxHttpRequest, force: Force) -> dict[str, str]:
    """The share link and its QR code, while the list is shared."""
    share_url = share_url_of(request, force)
    return {"share_url": share_url, "qr": qr_svg(share_url) if share_url else ""}


@dataclass(frozen=True)
class Roster:
    """A list's roster as its pages show it, drawn: the roster itself
    (forcebuilder/roster_body.html) and the link preview a shared list's page carries."""

    body: SafeString
    preview: SafeString


# A roster is drawn from what the list holds, its share link and its heading alone, so each
# process keeps the latest it drew (up to ROSTER_BYTES of them) for the next view of the same
# version of the list: drawing it (the rules engine's reading and verdict, then the
# template) was most of a shared list's page and of the print view under load
# (docs/performance.md, issue 34, third pass). Kept by version and by content: a version is
# one state of the list, and a write that skipped the version would still draw anew. (By
# content alone an undo would find its roster kept too, but so would the load client's
# lists, which go round between 3 and 6 troopers: a flattering benchmark, not a real site.)
ROSTER_BYTES = 24 * 1024 * 1024
_ROSTERS: cachetools.LRUCache[bytes, Roster] = cachetools.LRUCache(
    maxsize=ROSTER_BYTES, getsizeof=lambda roster: len(roster.body) + len(roster.preview)
)
_ROSTERS_LOCK = threading.Lock()


def roster_key(force: Force, share_url: str, heading: bool) -> bytes:
    """The list's version and everything a drawn roster shows comes from (the ruleset's
    data is the version's, shipped with the code)."""
    drawn_from = [
        force.pk,
        force.version,
        force.name,
        force.faction,
        force.ruleset_version,
        force.points_limit,
        force.units,
        share_url,
        heading,
    ]
    text = json.dumps(drawn_from, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).digest()


def roster_of(force: Force, share_url: str, heading: bool = False) -> Roster:
    """The list's drawn roster (``heading``: its name as the page's h1), kept by what it is
    drawn from; DamagedRecord if the list no longer reads."""
    key = roster_key(force, share_url, heading)
    with _ROSTERS_LOCK:
        kept = _ROSTERS.get(key)
    if kept is not None:
        return kept
    sheet = sheet_of(force)
    qr = qr_svg(share_url) if share_url else ""
    context = {"force": force, "sheet": sheet, "share_url": share_url, "qr": qr}
    roster = Roster(
        body=mark_safe(
            render_to_string("forcebuilder/roster_body.html", context | {"roster_h1": heading})
        ),
        preview=mark_safe(
            render_to_string(
                "forcebuilder/opengraph.html", context | {"title": force.name, "url": share_url}
            )
        ),
    )
    with _ROSTERS_LOCK, contextlib.suppress(ValueError):  # larger than all kept: not kept
        _ROSTERS[key] = roster
    return roster


def roster_text(sheet: ForceSheet, share_url: str) -> str:
    report = sheet.report
    lines = [
        f"{sheet.spec.name} — {sheet.faction_name}",
        f"{report.points}/{report.tally.points_limit if report.tally else '?'} points · ruleset {sheet.ruleset.version} · "
        + ("legal" if report.legal else f"NOT LEGAL ({len(report.errors)} problem(s))"),
        "",
    ]
    for unit in sheet.units:
        lines.append(f"{unit.label} — {unit.points} pts")
        # Troopers alike in everything read as one line: a chat message stays short.
        for group in unit.groups:
            trooper = group.first
            profile = trooper.profile
            label = trooper.label
            if trooper.trooper_class and trooper.trooper_class.specialist and trooper.name:
                label += f" ({trooper.trooper_class.name})"
            count = f"{group.count}\N{MULTIPLICATION SIGN} " if group.count > 1 else ""
            stats = (
                f"MOV {profile.movement} ARM {profile.armor} W {profile.wounds}" if profile else ""
            )
            each = " each" if group.count > 1 else ""
            lines.append(
                f"  - {count}{label}: {trooper.summary} [{stats}] {trooper.points} pts{each}"
            )
        skills = [s.name for s in unit.skills if s is not None]
        if skills:
            lines.append(f"  Unit skills: {', '.join(skills)}")
        lines.append("")
    for issue in report.errors + report.warnings:
        lines.append(
            f"! {'Problem' if issue.severity == 'error' else 'Suggestion'}: {issue.message}"
        )
    if share_url:
        lines.append(f"Shared list: {share_url}")
    return "\n".join(lines) + "\n"


def render_pdf(template: str, context: dict[str, object], request: HttpRequest | None) -> bytes:
    return downloads.render_pdf(render_to_string(template, context, request=request))
