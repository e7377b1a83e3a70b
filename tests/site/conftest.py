"""Mail in the site tests: the mail thread's jobs run in the test's own thread, once the
request's transaction commits; what they send lands in ``mailoutbox`` (Django's test back end)."""

from __future__ import annotations

import pytest

from accounts import mail


class Delivery:
    """``deliver(client.post, url, data)``: the request, then the mails it handed over sent;
    ``jobs`` holds every job handed to the mail thread."""

    def __init__(self, capture) -> None:
        self.capture = capture
        self.jobs: list = []

    def submit(self, job) -> None:
        self.jobs.append(job)
        job()

    def __call__(self, call, *args, **kwargs):
        with self.capture(execute=True):
            return call(*args, **kwargs)


@pytest.fixture
def deliver(monkeypatch, django_capture_on_commit_callbacks):
    delivery = Delivery(django_capture_on_commit_callbacks)
    monkeypatch.setattr(mail, "submit", delivery.submit)
    return delivery
