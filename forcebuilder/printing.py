"""Printouts of a list: plain text for chat, PDF roster and trooper cards (WeasyPrint), QR."""

from __future__ import annotations

import functools

import segno
from django.http import HttpRequest
from django.template.loader import render_to_string

from forcebuilder.models import Force
from forcebuilder.sheets import ForceSheet
from onefinity import downloads
from onefinity.http import HtmxHttpRequest


# The same link makes the same picture: drawing it (segno's mask search) was half of a shared
# list's page and of the roster print view under load (docs/performance.md, issue 34).
@functools.lru_cache(maxsize=512)
def qr_svg(url: str) -> str:
    return segno.make(url, error="m").svg_inline(
        scale=3, dark="#000", light="#fff", title="Share link QR code"
    )


def share_context(request: HtmxHttpRequest, force: Force) -> dict[str, str]:
    """The share link and its QR code, while the list is shared (a printout of a list whose
    sharing is off carries no dead link)."""
    if not force.sharing:
        return {"share_url": "", "qr": ""}
    share_url = request.build_absolute_uri(force.get_share_url())
    return {"share_url": share_url, "qr": qr_svg(share_url)}


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
