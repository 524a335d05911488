from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Who you are and what you own: sign-up, login and its limits, the account page,
    everything you own in one file, and the ownership every feature app builds on."""

    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in
        from django.utils.module_loading import autodiscover_modules

        from accounts.ownership import move_browser_things_into_the_account

        user_logged_in.connect(move_browser_things_into_the_account, dispatch_uid="accounts")
        # Each feature app says what it adds to the account pages (accounts.part_registry).
        autodiscover_modules("account_parts")
