"""The force builder's kind of job (jobs.kinds): a large list's roster or trooper cards.

A list of up to WORKER_TROOPERS troopers and WORKER_ITEMS items prints inside the request
(benchmarks/render_sizes.py: a 12-trooper list's roster in about 0.5 s, its cards in about
1.3 s on a loaded 2-core machine); a larger one goes to the worker (the largest list the
reader takes: 3.5 s for its roster, 4.7 s for its cards).
"""

from __future__ import annotations

from django.http import HttpRequest

from accounts.ownership import DamagedRecord
from forcebuilder.models import Force
from forcebuilder.printing import qr_svg, render_pdf
from forcebuilder.sheets import force_sheet
from jobs.kinds import JobKind, JobOutput, JobRefused, Progress, register
from jobs.models import Job
from jobs.running import start_job
from onefinity.downloads import file_stem
from onefinity.rules import ForceSpec

WORKER_TROOPERS = 12
WORKER_ITEMS = 36
PRINTOUTS = {"roster": "forcebuilder/roster.html", "cards": "forcebuilder/cards.html"}


def worker_prints(spec: ForceSpec) -> bool:
    """Whether the list's printouts are made by the worker (see the module's docstring)."""
    troopers = [trooper for unit in spec.units for trooper in unit.troopers]
    items = sum(len(t.weapons) + len(t.equipment) + len(t.abilities) for t in troopers)
    return len(troopers) > WORKER_TROOPERS or items > WORKER_ITEMS


def printout_context(force: Force, share_url: str) -> dict[str, object]:
    """What the roster and the cards templates print of a list (DamagedRecord if it no
    longer reads)."""
    spec, report = force.checked()
    return {
        "force": force,
        "sheet": force_sheet(spec, report),
        "share_url": share_url,
        "qr": qr_svg(share_url) if share_url else "",
        "pdf": True,
    }


def printout(force: Force, which: str, share_url: str) -> bytes:
    """The list's roster or cards as a PDF (DamagedRecord if it no longer reads)."""
    return render_pdf(PRINTOUTS[which], printout_context(force, share_url), None)


def print_list(job: Job, progress: Progress) -> JobOutput:
    force = Force.objects.filter(pk=job.params["force"]).first()
    if force is None:
        raise JobRefused("The list was deleted.")
    progress(0, 1)
    try:
        pdf = printout(force, job.params["which"], job.params["share"])
    except DamagedRecord as damaged:
        raise JobRefused(f"The list no longer reads: {damaged.problem}.") from None
    name = f"{file_stem(force.name, 'force')}-{job.params['which']}.pdf"
    return JobOutput(pdf, name, "application/pdf")


register(JobKind("list-print", print_list, time_limit=5 * 60, keep_days=2, priority=5))


def list_print_job(request: HttpRequest, force: Force, which: str, share_url: str) -> Job:
    return start_job(
        request,
        "list-print",
        key=f"list:{force.pk}:{force.version}:{which}:{share_url}",
        label=f"{'Roster' if which == 'roster' else 'Trooper cards'} of {force.name}",
        params={"force": force.pk, "which": which, "share": share_url},
        back=request.get_full_path().rsplit("/", 1)[0] + "/",
    )
