from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from accounts.sessions import on_logged_out

        user_logged_out.connect(on_logged_out, dispatch_uid="accounts.close_session_sockets")
