"""The database access of the hot paths: a move at a table, a posting, a deposit.

Three small modules that the apps call when building a query through the ORM each time would
cost more than the database takes to run it (docs/PERFORMANCE.md):

- :mod:`hotpath.statements` builds each statement once (a queryset compiled the first time, an
  insert or update made from a model's fields) and runs a step's statements together, with the
  transaction a posting or a deposit owns by hand. It imports Django only.
- :mod:`hotpath.pgpipe` sends them to PostgreSQL in one round trip, through libpq's pipeline,
  as server-side prepared statements. It imports psycopg only.
- :mod:`hotpath.jsontext` writes and reads the JSON text of a table's state, frames and
  snapshots, with orjson. It imports nothing of the project.
- :mod:`hotpath.busy` tells a request that waited too long for a pooled connection (the site
  is busy: 503, try again) from a bug, and closes the pools before a process forks. It
  imports Django's connections and psycopg_pool only.

It sits under every app (docs/ARCHITECTURE.md, "Layers"): any app may import it, and it
imports no app. ``tests/site/test_layers.py`` holds it to that.
"""
