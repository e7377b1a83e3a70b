from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        """Connect, explicitly: a round's table whose game is over is recorded after its write
        commits (``games.services.after_commit``), and the tournaments' sweep runs in every tick
        of the game timers, Celery beat's or the embedded scheduler's (``games.timers.each_tick``);
        each tournament's change reaches its pages' sockets (``tournaments.live.publish``);
        a round's table page leads back to its tournament (``games.homes``); and ``manage.py
        simulate --tournaments N`` plays whole tournaments (``games.simulate.runs``)."""
        from games import homes, simulate, timers
        from games import services as tables
        from tournaments import live, services, views
        from tournaments import simulate as tournaments_simulate

        if services.on_table_written not in tables.after_commit:
            tables.after_commit.append(services.on_table_written)
        if live.publish not in services.after_commit:
            services.after_commit.append(live.publish)
        timers.each_tick["tournaments"] = services.sweep
        homes.register(views.table_home)
        simulate.runs["tournaments"] = tournaments_simulate.run_for_command
