"""The password hasher hands the pooled database connection back while it hashes (half a second
of CPU a sign-up or log-in), so a crowd signing up at once does not hold every connection of the
pool through its hashing; the stored hashes are Django's own."""

from __future__ import annotations

import pytest
from django.contrib.auth import hashers
from django.db import connection, transaction

from accounts.hashers import PBKDF2PasswordHasher

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_hashing_hands_the_pooled_connection_back_and_the_next_query_takes_one_again():
    connection.ensure_connection()
    assert connection.connection is not None
    encoded = PBKDF2PasswordHasher().encode("green-felt-table-42", "somesalt", iterations=1000)
    assert connection.connection is None, "handed back to the pool while hashing"
    assert PBKDF2PasswordHasher().verify("green-felt-table-42", encoded)
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def test_inside_a_transaction_the_connection_is_kept():
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        PBKDF2PasswordHasher().encode("green-felt-table-42", "somesalt", iterations=1000)
        assert connection.connection is not None
        assert connection.in_atomic_block


def test_hashes_are_djangos_own_both_ways(settings):
    assert settings.PASSWORD_HASHERS[0] == "accounts.hashers.PBKDF2PasswordHasher"
    theirs = hashers.PBKDF2PasswordHasher().encode("green-felt-table-42", "somesalt", iterations=1000)
    ours = PBKDF2PasswordHasher().encode("green-felt-table-42", "somesalt", iterations=1000)
    assert ours == theirs
    assert hashers.check_password("green-felt-table-42", theirs)
    assert hashers.identify_hasher(theirs).__class__ is PBKDF2PasswordHasher
