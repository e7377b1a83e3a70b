"""Mail to players (a password reset, an address confirmation), sent off the request.

:func:`send_later` hands a job to this process's mail thread once the caller's transaction
commits. The job finds the account (if any), builds the mail and sends it; the request that
asked for it does none of that, so its answer and its time are the same whether the address
has an account or not, and a slow mail server never holds a page. A mail that cannot be sent
is logged (never its link) and dropped: the player asks again. The back end is the console's
on the embedded default and SMTP in production (``EMAIL_HOST``, README "Configuration").
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

from django.conf import settings
from django.core.checks import CheckMessage
from django.core.checks import Warning as CheckWarning
from django.core.mail import EmailMultiAlternatives
from django.db import connections, transaction
from django.template import loader

log = logging.getLogger(__name__)

Job = Callable[[], None]

_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mail")


def _run(job: Job) -> None:
    try:
        job()
    except Exception:
        log.exception("a mail could not be sent")
    finally:
        connections.close_all()  # this thread's own connection: not kept between jobs


def submit(job: Job) -> Future[None]:
    """Run ``job`` on the mail thread."""
    return _thread.submit(_run, job)


def send_later(job: Job) -> None:
    """Run ``job`` on the mail thread once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: submit(job))


def send(to: str, template: str, context: dict[str, object]) -> None:
    """Send the mail ``accounts/mail/<template>_subject.txt`` / ``<template>.txt`` to ``to``."""
    subject = "".join(loader.render_to_string(f"accounts/mail/{template}_subject.txt", context).splitlines())
    body = loader.render_to_string(f"accounts/mail/{template}.txt", context)
    EmailMultiAlternatives(subject, body, to=[to]).send()


def check_server(app_configs: object = None, **kwargs: object) -> list[CheckMessage]:
    """``manage.py check --deploy``: production without a mail server sends no link at all."""
    if settings.DEBUG or str(getattr(settings, "EMAIL_HOST", "") or ""):
        return []
    return [
        CheckWarning(
            "EMAIL_HOST is not set: no mail is sent, so no player can confirm an address or set a "
            "new password.",
            hint="Set EMAIL_HOST (and EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, "
            "DEFAULT_FROM_EMAIL): docs/DEPLOY.md, E-mail.",
            id="accounts.W001",
        )
    ]
