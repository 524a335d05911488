"""The owner's jobs: their list, each job's page (its progress, its download, why it
failed and starting it again), a tiny status for pages that poll, and the download."""

from __future__ import annotations

from typing import TypeVar

from django.contrib import messages
from django.http import Http404, HttpResponse, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRefresh

from accounts.ownership import get_owned_or_404, owned
from jobs import running
from jobs.models import Job, JobFile
from onefinity.downloads import attachment
from onefinity.http import HtmxHttpRequest

_Response = TypeVar("_Response", bound=HttpResponseBase)

# Jobs shown on the list; the rest expire on their own.
LISTED = 50


@require_GET
def job_list(request: HtmxHttpRequest) -> HttpResponse:
    running.forget_expired(owned(request, Job))
    jobs = list(owned(request, Job)[:LISTED])
    context = {"jobs": jobs, "polling": any(job.active for job in jobs)}
    template = "jobs/list.html#jobs" if request.htmx else "jobs/list.html"
    return render(request, template, context)


@require_GET
def job_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The job's page; polled by htmx, its progress. A page that shows what the job makes
    (a generated table) polls with ``refresh=1``: once the job is finished, that page is
    loaded again whole, with the result."""
    job = get_owned_or_404(request, Job, pk)
    if request.htmx:
        if request.GET.get("refresh") and not job.active:
            return HttpResponseClientRefresh()
        return render(
            request, "jobs/progress.html", {"job": job, "refresh": bool(request.GET.get("refresh"))}
        )
    return render(request, "jobs/job.html", {"job": job})


@require_GET
def status(request: HtmxHttpRequest, pk: int) -> JsonResponse:
    """One indexed query: what a polling page needs (see Job.status)."""
    job = get_owned_or_404(request, Job, pk)
    return JsonResponse(job.status())


@require_GET
def download(request: HtmxHttpRequest, pk: int) -> HttpResponseBase:
    job = get_owned_or_404(request, Job, pk)
    if not job.has_file:
        if job.active:
            messages.info(request, f"{job.label} is not ready yet: {job.percent}% done.")
            return redirect(job)
        raise Http404("No such file")
    return stream_job_file(job)


def download_job_file(job: Job) -> HttpResponse:
    """The file a finished job made, as a download (Http404 once it is gone): whole, for the
    printouts a page sends (a few megabytes); see ``stream_job_file`` for any size."""
    content = JobFile.read(job)
    if content is None:
        raise Http404("No such file")
    return _named(HttpResponse(content, content_type=job.content_type), job)


def stream_job_file(job: Job) -> StreamingHttpResponse:
    """The file a finished job made, sent a part at a time: a large export is never held
    whole by the web server. Http404 once it is gone."""
    if not JobFile.objects.filter(job=job).exists():
        raise Http404("No such file")
    response = StreamingHttpResponse(JobFile.parts_of(job), content_type=job.content_type)
    response["Content-Length"] = str(job.file_bytes)
    return _named(response, job)


def _named(response: _Response, job: Job) -> _Response:
    stem, dot, extension = job.file_name.rpartition(".")
    return attachment(response, stem or extension, dot + extension if stem else "", "download")


@require_POST
def restart(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    job = get_owned_or_404(request, Job, pk)
    if job.ask_again:
        messages.info(request, f"{job.label}: ask for it again here.")
        return redirect(job.ask_again)
    try:
        started = running.restart(request, job)
    except running.JobsBusy as busy:
        return running.busy_page(request, busy)
    if started:
        messages.success(request, f"{job.label}: started again.")
    else:
        messages.info(request, f"{job.label} is {job.get_state_display()}: nothing to start again.")
    return redirect(job)


@require_POST
def cancel(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Stop a waiting or running job (a run stops at its next step); its file, if it had
    begun one, is not kept."""
    job = get_owned_or_404(request, Job, pk)
    if running.cancel(job):
        again = "ask for it again" if job.ask_again else "start it again"
        messages.success(request, f"{job.label}: stopped. You can {again}.")
    else:
        messages.info(request, f"{job.label} is {job.get_state_display()}: nothing to stop.")
    return redirect(job)
