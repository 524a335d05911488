from django.apps import AppConfig


class JobsConfig(AppConfig):
    """Heavy work done by the task worker instead of a request: packs, event printouts,
    large setup sheets and lists, the account export. Each feature app says which kinds of
    job it has in its own ``jobs.py`` (found at start-up, as the admin finds ``admin.py``);
    this app keeps the rows their owners' pages poll, runs them, and serves what they made."""

    name = "jobs"
    verbose_name = "Background jobs"

    def ready(self) -> None:
        from importlib import import_module

        from django.utils.module_loading import autodiscover_modules

        autodiscover_modules("jobs")
        # This app's own kinds (the account's export and import): registered by their
        # modules, which a worker would otherwise import only through the URLs the system
        # checks load.
        import_module("jobs.exports")
        import_module("jobs.imports")
