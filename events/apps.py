from django.apps import AppConfig


class EventsConfig(AppConfig):
    name = "events"
    verbose_name = "Events"

    def ready(self) -> None:
        from accounts.attempts import register_signup_route
        from events.signups import join_route

        register_signup_route(join_route)
