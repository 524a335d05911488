"""Printouts of a list: plain text for chat, PDF roster and trooper cards (WeasyPrint), QR."""

from __future__ import annotations

import segno
from django.http import HttpRequest
from django.template.loader import render_to_string

from forcebuilder.sheets import ForceSheet
from onefinity import downloads


def qr_svg(url: str) -> str:
    return segno.make(url, error="m").svg_inline(
        scale=3, dark="#000", light="#fff", title="Share link QR code"
    )


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
        for trooper in unit.troopers:
            profile = trooper.profile
            weapons = ", ".join(w.name for w in profile.weapons) if profile else ""
            extras = [e.name for e in trooper.equipment + trooper.abilities if e is not None]
            stats = (
                f"MOV {profile.movement} ARM {profile.armor} W {profile.wounds}" if profile else ""
            )
            line = f"  - {trooper.label}"
            if trooper.trooper_class and trooper.trooper_class.specialist and trooper.name:
                line += f" ({trooper.trooper_class.name})"
            line += f": {weapons}"
            if extras:
                line += f"; {', '.join(extras)}"
            line += f" [{stats}] {trooper.points} pts"
            lines.append(line)
        skills = [s.name for s in unit.skills if s is not None]
        if skills:
            lines.append(f"  Unit skills: {', '.join(skills)}")
        lines.append("")
    for issue in report.issues:
        lines.append(f"! {issue.severity}: {issue.message}")
    if share_url:
        lines.append(f"Shared list: {share_url}")
    return "\n".join(lines) + "\n"


def render_pdf(template: str, context: dict[str, object], request: HttpRequest) -> bytes:
    return downloads.render_pdf(render_to_string(template, context, request=request))
