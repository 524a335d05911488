from django.apps import AppConfig


class EventsConfig(AppConfig):
    name = "events"
    verbose_name = "Events"

    def ready(self) -> None:
        from accounts.arrivals import register_arrival
        from accounts.attempts import register_signup_route
        from events.destinations import events_waiting_for_a_list
        from events.signups import join_arrival, join_route
        from forcebuilder.destinations import register_destination

        register_signup_route(join_route)
        # Signing up or logging in through a join link joins the event (its button says so).
        register_arrival(join_arrival)
        # A list started, copied or imported leads back to the events waiting for one.
        register_destination(events_waiting_for_a_list)
