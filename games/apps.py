from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games and tables"

    def ready(self) -> None:
        """Connect, explicitly, what runs after each write commits: live play publishes it,
        and the timers schedule its deadline through the backend ``GAME_TIMERS`` names; and
        the end of a player's money play (a break taken) to the release of their seats."""
        from games import breaks, live, scheduler, services, tasks, timers
        from protection.signals import money_play_stopped

        money_play_stopped.connect(breaks.stop_money_play, dispatch_uid="games.breaks")

        for hook in (live.publish, timers.after_write):
            if hook not in services.after_commit:
                services.after_commit.append(hook)
        timers.backends.update(celery=tasks.CeleryTimers(), embedded=scheduler.EmbeddedTimers())
