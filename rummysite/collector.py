"""Python's garbage collector, set for a server that keeps a table's players waiting on it.

A full collection walks every object the process holds and stops everything meanwhile: in
daphne at 200 tables, 210,000 to 280,000 objects, 130 to 250 ms a pass, once or twice every
ten seconds; that pause was the tail of the moves' latency (docs/PERFORMANCE.md, "A move").
Two settings shorten it and make it rare:

- **Freeze what starting made**: Django, the apps and their modules (130,000 objects, which
  live as long as the process) leave the collector's passes for good (:func:`gc.freeze`).
- **A larger youngest generation** (``GC_YOUNG_THRESHOLD``, 10,000 allocations; Python's default
  700): a move's short-lived objects die before a pass looks at them, so fewer survive to the
  older generations, whose passes are the long ones.

Cycles are still collected, only less often: the resident memory over a soak is in
docs/PERFORMANCE.md.
"""

from __future__ import annotations

import gc

from django.conf import settings


def settle_after_startup() -> None:
    """Once the server has loaded everything it starts with: collect, freeze what is left, and
    set the youngest generation's threshold (``GC_YOUNG_THRESHOLD``; 0 leaves Python's)."""
    gc.collect()
    gc.freeze()
    if settings.GC_YOUNG_THRESHOLD:
        _, middle, oldest = gc.get_threshold()
        gc.set_threshold(settings.GC_YOUNG_THRESHOLD, middle, oldest)
