from django.apps import AppConfig


class SiteConfig(AppConfig):
    """The site itself: settings, URLs, middleware, and the deploy check that refuses an
    insecure production configuration. Installed last: it may import every app, none
    imports it."""

    name = "config"
    verbose_name = "Site"

    def ready(self) -> None:
        import config.security  # noqa: F401  (registers the deploy check)
