"""Fair play: linked accounts kept apart, collusion and bots found, and the risk desk's cases.

A layer above the games and the wallet (beside the tournaments): it reads what the tables
record and answers their one question, "which of these players must be kept apart?"
(``games.seating``), from its ``AppConfig.ready``. It never changes a table; staff act on its
cases through the back office. docs/FAIRPLAY.md says what it catches and what it misses.

Its hooks, each registered here and nowhere else: the seating answer (strong links), the
money-play check (a self-excluded person's other accounts, whose seats a self-exclusion also
releases), and the signals (log-ins, seats,
deposits' instruments, identity documents).
"""

from django.apps import AppConfig


class FairPlayConfig(AppConfig):
    name = "fairplay"
    verbose_name = "Fair play"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from fairplay import cheat_shared_device, links, signals, stopped
        from games import arrivals, seating, simulate
        from protection import kyc, money_play
        from protection.signals import money_play_stopped
        from wallet import cashier

        seating.register(links.keep_apart)
        money_play.register(links.SELF_EXCLUSION_CHECK)
        arrivals.register(signals.sat_down)
        if signals.deposited not in cashier.deposit_started:
            cashier.deposit_started.append(signals.deposited)
        if signals.identity_sent not in kyc.submitted:
            kyc.submitted.append(signals.identity_sent)
        if cheat_shared_device.CHEAT not in simulate.CHEATS:
            simulate.CHEATS.append(cheat_shared_device.CHEAT)
        money_play_stopped.connect(stopped.stop_linked_money_play, dispatch_uid="fairplay.stopped")
        user_logged_in.connect(signals.on_user_logged_in, dispatch_uid="fairplay.signals.logged_in")
