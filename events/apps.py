from django.apps import AppConfig


class EventsConfig(AppConfig):
    name = "events"
    verbose_name = "Events"

    def ready(self) -> None:
        from accounts.attempts import register_signup_route
        from events.destinations import events_waiting_for_a_list
        from events.signups import join_route
        from forcebuilder.destinations import register_destination

        register_signup_route(join_route)
        # A list started, copied or imported leads back to the events waiting for one.
        register_destination(events_waiting_for_a_list)
