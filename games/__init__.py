"""Rummy games: the rules engine (``games.engine``) and the table lifecycle around it: every write
through ``services`` (one transaction, events after commit), live play (``consumers``, ``live``),
timers (``timers`` with the Celery and embedded backends), bots and the simulator.

Layer: above the wallet. May import the engine, accounts and wallet; never the back office or
the API. This module must import nothing from Django, so that ``games.engine`` can be used (and
tested, and benchmarked) without any Django setup.
"""
