"""Events' kind of job (jobs.kinds): an organizer's printouts and downloads, made by the
worker. Rosters of 24 large lists took 38.5 s inside a request, a round's sheets for eight
painted 40 x 40 tables 32 s.

Each file is one job, named by a key of everything it is made from (the event's, entries'
and rounds' versions, the part, the ruleset, the site's address for the QR codes): asking
again for an unchanged file finds the job that made it and its file; a change makes a new one.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest

from events import printing
from events.loaders import get_round
from events.models import Event
from jobs.kinds import JobKind, JobOutput, JobRefused, Progress, register
from jobs.models import Job
from jobs.running import start_job
from onefinity.downloads import file_stem, render_pdf
from onefinity.rules import current_ruleset


@dataclass(frozen=True)
class PrintAsked:
    """One of an event's files: ``file`` is "rosters", "round", "everything", "lists-zip" or
    "standings";
    ``first`` the first roster or sheet of a part (from 1); ``round`` for a round's sheets."""

    file: str
    first: int = 1
    round: int = 0

    def suffix(self) -> str:
        if self.file == "rosters":
            return "-rosters.pdf" if self.first == 1 else f"-rosters-from-{self.first}.pdf"
        if self.file == "round":
            part = "" if self.first == 1 else f"-from-{self.first}"
            return f"-round-{self.round}-tables{part}.pdf"
        if self.file == "everything":
            return "-everything.pdf"
        if self.file == "standings":
            return "-standings.pdf"
        return "-lists.zip"

    def label(self, event: Event) -> str:
        what = {
            "rosters": "Locked rosters" + ("" if self.first == 1 else f" from {self.first}"),
            "round": f"Round {self.round}'s table sheets"
            + ("" if self.first == 1 else f" from {self.first}"),
            "everything": "Everything in one PDF",
            "standings": "Standings PDF",
            "lists-zip": "Locked lists (zip)",
        }[self.file]
        return f"{what}: {event.name}"


def print_file(job: Job, progress: Progress) -> JobOutput:
    params: dict[str, Any] = job.params
    event = Event.objects.filter(pk=params["event"]).first()
    if event is None:
        raise JobRefused("The event was deleted.")
    asked = PrintAsked(params["file"], params.get("first", 1), params.get("round", 0))
    entries = printing.locked_entries(event)
    name = file_stem(event.name, "event") + asked.suffix()
    if asked.file == "lists-zip":
        progress(0, 1)
        return JobOutput(printing.lists_zip(event, entries), name, "application/zip")
    if asked.file == "standings":
        progress(0, 1)
        return JobOutput(render_pdf(printing.standings_html(event)), name, "application/pdf")
    if asked.file == "rosters":
        # No locked roster yet: a page that says so (as before the worker).
        part = entries[asked.first - 1 : asked.first - 1 + printing.ROSTERS_PER_FILE]
        rounds: list[Any] = []
    elif asked.file == "round":
        round_ = event.rounds.filter(number=asked.round).first()
        if round_ is None:
            raise JobRefused(f"The event has no round {asked.round}.")
        part, rounds = (
            [],
            [(round_, printing.round_pairings(round_, asked.first, printing.SHEETS_PER_FILE))],
        )
    else:
        part = entries
        rounds = [(r, printing.round_pairings(r)) for r in event.rounds.all()]
    pdf = printing.event_pdf(event, part, rounds, params["site"], progress)
    return JobOutput(pdf, name, "application/pdf")


register(JobKind("event-print", print_file, time_limit=10 * 60, keep_days=7))


def _fingerprint(event: Event, asked: PrintAsked, site: str) -> str:
    """A digest of the versions of everything the file is made from (of the standings,
    what they show: working them out takes milliseconds, printing them seconds)."""
    if asked.file == "standings":
        return hashlib.sha256(printing.standings_html(event).encode()).hexdigest()[:32]
    entries = list(event.entries.order_by("pk").values_list("pk", "version"))
    rounds = list(event.rounds.order_by("number").values_list("number", "version"))
    pairings = list(
        event.rounds.order_by("number").values_list("number", "pairings__pk", "pairings__table")
    )
    parts = [event.pk, event.version, entries, rounds, pairings, asked, site]
    parts.append(current_ruleset().version)
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


def print_job(request: HttpRequest, event: Event, asked: PrintAsked) -> Job:
    """The job making one of the event's files (see the module's docstring)."""
    if asked.file == "round":
        get_round(event, asked.round)  # Http404 for a round the event does not have
    site = request.build_absolute_uri("/")
    return start_job(
        request,
        "event-print",
        key=f"event:{event.pk}:{asked.file}:{_fingerprint(event, asked, site)}",
        label=asked.label(event),
        params={
            "event": event.pk,
            "file": asked.file,
            "first": asked.first,
            "round": asked.round,
            "site": site,
        },
        back=event.get_absolute_url() + "#print",
    )
