from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games and tables"

    def ready(self) -> None:
        """Connect, explicitly, what runs after each write commits: live play publishes it,
        and the timers schedule its deadline through the backend ``GAME_TIMERS`` names."""
        from games import live, scheduler, services, tasks, timers

        for hook in (live.publish, timers.after_write):
            if hook not in services.after_commit:
                services.after_commit.append(hook)
        timers.backends.update(celery=tasks.CeleryTimers(), embedded=scheduler.EmbeddedTimers())
