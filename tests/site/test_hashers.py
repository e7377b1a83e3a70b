"""The password hashers: Argon2id at OWASP's parameters for new passwords, Django's PBKDF2 for
the ones stored before (upgraded at the next log-in), and both hand the pooled database
connection back while they hash, so a crowd signing up at once does not hold every connection
of the pool through its hashing; and, with ``PASSWORD_HASH_PROCESSES``, Argon2's work runs in
processes of its own below the tables' priority."""

from __future__ import annotations

import os
import signal

import pytest
from django.contrib.auth import hashers
from django.db import connection, transaction
from django.test import override_settings

from accounts import password_work
from accounts.hashers import Argon2PasswordHasher, PBKDF2PasswordHasher
from accounts.models import User

PASSWORD = "green-felt-table-42"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("hasher", [Argon2PasswordHasher, PBKDF2PasswordHasher])
def test_hashing_hands_the_pooled_connection_back_and_the_next_query_takes_one_again(hasher):
    connection.ensure_connection()
    assert connection.connection is not None
    encoded = hasher().encode(PASSWORD, hasher().salt())
    assert connection.connection is None, "handed back to the pool while hashing"
    assert hasher().verify(PASSWORD, encoded)
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_inside_a_transaction_the_connection_is_kept():
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        Argon2PasswordHasher().encode(PASSWORD, Argon2PasswordHasher().salt())
        assert connection.connection is not None
        assert connection.in_atomic_block


def test_new_passwords_are_argon2id_at_owasps_parameters(settings):
    assert settings.PASSWORD_HASHERS[0] == "accounts.hashers.Argon2PasswordHasher"
    encoded = hashers.make_password(PASSWORD)
    assert encoded.startswith("argon2$argon2id$v=19$m=19456,t=2,p=1$"), encoded
    assert hashers.check_password(PASSWORD, encoded)


@pytest.mark.django_db
def test_a_password_stored_with_pbkdf2_still_logs_in_and_is_upgraded_to_argon2id():
    stored = hashers.PBKDF2PasswordHasher().encode(PASSWORD, "somesalt", iterations=1000)
    assert hashers.identify_hasher(stored).__class__ is PBKDF2PasswordHasher
    user = User.objects.create_user(username="older")
    User.objects.filter(pk=user.pk).update(password=stored)
    user.refresh_from_db()
    assert user.check_password(PASSWORD)
    user.refresh_from_db()
    assert user.password.startswith("argon2$argon2id$"), "upgraded at the log-in"


@pytest.fixture
def hashing_processes(settings):
    """Argon2's work in one process of its own, lowered by 7, as ``make run-prod`` runs it."""
    settings.PASSWORD_HASH_PROCESSES = 1
    settings.PASSWORD_HASH_NICE = 7
    yield
    password_work.shutdown()


def test_with_hashing_processes_the_hash_is_made_in_another_process_below_this_ones_priority(
    hashing_processes,
):
    pid, nice = password_work.run(1, 7, password_work.worker_pid)
    assert pid != os.getpid()
    assert nice == os.nice(0) + 7
    encoded = hashers.make_password(PASSWORD)
    assert encoded.startswith("argon2$argon2id$v=19$m=19456,t=2,p=1$"), encoded
    assert hashers.check_password(PASSWORD, encoded)
    assert not hashers.check_password("green-felt-table-43", encoded)
    # The same hash as this thread makes from the same salt: where it runs changes nothing.
    salt = Argon2PasswordHasher().salt()
    made_apart = Argon2PasswordHasher().encode(PASSWORD, salt)
    password_work.shutdown()
    with override_settings(PASSWORD_HASH_PROCESSES=0):
        assert Argon2PasswordHasher().encode(PASSWORD, salt) == made_apart


def test_a_hashing_process_that_dies_is_replaced_and_the_log_in_still_answers(hashing_processes):
    pid, _ = password_work.run(1, 7, password_work.worker_pid)
    os.kill(pid, signal.SIGKILL)
    encoded = hashers.make_password(PASSWORD)
    assert hashers.check_password(PASSWORD, encoded)
    replaced, _ = password_work.run(1, 7, password_work.worker_pid)
    assert replaced != pid


def test_a_hash_of_another_algorithm_is_refused_not_raised():
    assert not Argon2PasswordHasher().verify(PASSWORD, "bcrypt$2b$12$abcdefghijklmnopqrstuv")
