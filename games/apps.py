from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games and tables"

    def ready(self) -> None:
        # Connect live play (the channel layer) and the timers to the service layer's publishers.
        from games import live  # noqa: F401
