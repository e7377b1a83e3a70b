"""The load harness (``python -m loadtest``, ``make loadtest``): bots as websocket clients
against a running server, and a bare Channels echo server to compare with
(docs/PERFORMANCE.md). A tool beside the project: only its seating step imports the project.
"""
