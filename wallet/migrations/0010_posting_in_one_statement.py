"""PostgreSQL's posting in one statement: ``wallet_post()``, the fast path's body for a posting
whose legs are known before the lock (docs/WALLET.md, "The one write path").

The function does in one call, in one round trip with the ``BEGIN`` and the ``COMMIT``, what
the two-round-trip fast path does in two: it locks the accounts in id order (creating missing
ones, locking again), reads the idempotency key, checks the legs (a closed account takes no
money, no account but the cashier goes below zero) and the posting's own conditions (accounts
that must be open, a pool's players under its lock: its capacity, a player among them), and
writes the journal, its transfers, their entries and the balances with the same statement as
``wallet.sql``'s write. Every query in it takes its own snapshot (a volatile function): what it
reads after the lock sees everything committed before the lock was granted.

When it writes nothing (the key is taken, or a check refuses) it changes nothing: an account it
created is deleted again, and the ``COMMIT`` of the posting's own transaction does not wait for
a flush of the log (it has nothing to keep). It returns the locked accounts as they were, the players and the
key's journal, so the ledger answers the refusal or the retry from them as the other paths do.

With the caller's statements to follow it (``wallet.ledger.Then``), writing nothing is an
error (SQLSTATE ``WL001``), so that they do not run; its detail holds what the ledger answers
from, as JSON.

Its queries are planned with sequential scans off (its ``SET``): a handful of rows read by key,
whose plans are kept for the connection even if made while the tables are a few pages.
SQLite has no such function: it runs the portable path.
"""

from typing import Any

from django.db import migrations

FORWARD = r"""
CREATE OR REPLACE FUNCTION wallet_post(
    p_currency text,
    p_refs text[],  -- the accounts the posting names
    p_kinds text[],  -- what each must be
    p_owners bigint[],  -- whose (NULL: anyone's)
    p_held boolean[],  -- must exist already (a seat named by its ref)
    p_negative boolean[],  -- may go below zero (created so)
    p_key text,
    p_kind text,
    p_meta jsonb,
    p_hash text,
    p_at timestamptz,
    p_by bigint,
    p_debits integer[],  -- each leg's debit account: its place in p_refs (from 1)
    p_credits integer[],
    p_amounts bigint[],
    p_open integer[],  -- accounts that must be open (places in p_refs)
    p_pool integer,  -- the account whose players are read (NULL: none)
    p_capacity integer,  -- refused with this many players in already (NULL: no limit)
    p_member integer,  -- refused unless this account is among the players (NULL: no check)
    p_own boolean,  -- the transaction is the posting's own (its COMMIT follows)
    p_strict boolean  -- the caller's statements follow: writing nothing is an error (WL001)
) RETURNS TABLE (
    journal_id bigint,  -- the journal written, NULL when nothing was
    ids bigint[], kinds text[], refs text[], owners bigint[], balances bigint[], versions bigint[],
    negatives boolean[], closed boolean[],  -- the locked accounts, as they were, by id
    players bigint[],
    taken_id bigint, taken_key text, taken_kind text, taken_currency text, taken_meta jsonb,
    taken_hash text, taken_at timestamptz, taken_by bigint, taken_reverses bigint
)
LANGUAGE plpgsql VOLATILE SET enable_seqscan = off AS $$
DECLARE
    n integer := cardinality(p_refs);
    created bigint[] := '{}';
    missing integer[];
    place integer[];
    bal bigint[];
    ver bigint[];
    touched boolean[];
    refused boolean := false;
    d integer;
    c integer;
    a bigint;
    e_account bigint[] := '{}';
    e_leg bigint[] := '{}';
    e_amount bigint[] := '{}';
    e_balance bigint[] := '{}';
    e_version bigint[] := '{}';
    u_id bigint[] := '{}';
    u_balance bigint[] := '{}';
    u_version bigint[] := '{}';
    moved bigint;
    r record;
BEGIN
    FOR attempt IN 1..2 LOOP
        ids := '{}'; kinds := '{}'; refs := '{}'; owners := '{}'; balances := '{}'; versions := '{}';
        negatives := '{}'; closed := '{}';
        FOR r IN
            SELECT w.id, w.kind, w.ref, w.owner_id, w.balance, w.version, w.allow_negative,
                w.closed_at IS NOT NULL AS is_closed
            FROM wallet_account w WHERE w.currency = p_currency AND w.ref = ANY(p_refs)
            ORDER BY w.id FOR UPDATE
        LOOP
            ids := ids || r.id;
            kinds := kinds || r.kind::text;
            refs := refs || r.ref::text;
            owners := owners || r.owner_id;
            balances := balances || r.balance;
            versions := versions || r.version;
            negatives := negatives || r.allow_negative;
            closed := closed || r.is_closed;
        END LOOP;
        missing := '{}';
        FOR i IN 1..n LOOP
            IF array_position(refs, p_refs[i]) IS NULL THEN
                missing := missing || i;
                IF p_held[i] THEN
                    refused := true;  -- a seat never held: not_found
                END IF;
            END IF;
        END LOOP;
        EXIT WHEN cardinality(missing) = 0 OR attempt = 2 OR refused;
        WITH made AS (
            INSERT INTO wallet_account
                (kind, currency, ref, owner_id, allow_negative, balance, version, created_at)
            SELECT p_kinds[i], p_currency, p_refs[i], p_owners[i], p_negative[i], 0, 0, p_at
            FROM unnest(missing) i
            ON CONFLICT (ref, currency) DO NOTHING RETURNING id
        )
        SELECT coalesce(array_agg(made.id), '{}') INTO created FROM made;
    END LOOP;

    -- The key, read once the locks are granted.
    SELECT jr.id, jr."key", jr.kind, jr.currency, jr.meta, jr.content_hash, jr.created_at,
        jr.created_by_id, jr.reverses_id
    INTO taken_id, taken_key, taken_kind, taken_currency, taken_meta, taken_hash, taken_at,
        taken_by, taken_reverses
    FROM wallet_journal jr WHERE jr."key" = p_key;

    IF NOT refused THEN
        place := '{}';
        FOR i IN 1..n LOOP
            d := array_position(refs, p_refs[i]);
            place := place || d;
            IF d IS NULL OR kinds[d] <> p_kinds[i]
                OR (p_owners[i] IS NOT NULL AND owners[d] IS DISTINCT FROM p_owners[i]) THEN
                refused := true;  -- wrong_account
            END IF;
        END LOOP;
    END IF;
    IF NOT refused AND taken_id IS NULL THEN
        IF p_pool IS NOT NULL THEN
            a := ids[place[p_pool]];
            players := ARRAY(
                SELECT t.debit_id FROM wallet_transfer t JOIN wallet_journal jr ON jr.id = t.journal_id
                WHERE t.credit_id = a AND jr.kind = 'entry_fee'
                EXCEPT
                SELECT t.credit_id FROM wallet_transfer t JOIN wallet_journal jr ON jr.id = t.journal_id
                WHERE t.debit_id = a AND jr.kind = 'refund'
            );
            refused := (p_capacity IS NOT NULL AND cardinality(players) >= p_capacity)
                OR (p_member IS NOT NULL AND NOT ids[place[p_member]] = ANY(players));
        END IF;
        refused := refused OR cardinality(p_amounts) = 0;
        FOREACH d IN ARRAY p_open LOOP
            refused := refused OR closed[place[d]];
        END LOOP;
        bal := balances;
        ver := versions;
        touched := array_fill(false, ARRAY[cardinality(ids)]);
        FOR leg IN 1..cardinality(p_amounts) LOOP
            EXIT WHEN refused;
            d := place[p_debits[leg]];
            c := place[p_credits[leg]];
            a := p_amounts[leg];
            IF a IS NULL OR a <= 0 OR a > 1000000000000000 OR d = c OR closed[c]
                OR (bal[d] - a < 0 AND NOT negatives[d]) THEN
                refused := true;
            ELSE
                bal[d] := bal[d] - a;
                ver[d] := ver[d] + 1;
                bal[c] := bal[c] + a;
                ver[c] := ver[c] + 1;
                touched[d] := true;
                touched[c] := true;
                e_account := e_account || ids[d] || ids[c];
                e_leg := e_leg || leg::bigint || leg::bigint;
                e_amount := e_amount || -a || a;
                e_balance := e_balance || bal[d] || bal[c];
                e_version := e_version || ver[d] || ver[c];
            END IF;
        END LOOP;
    END IF;

    IF NOT refused AND taken_id IS NULL THEN
        FOR i IN 1..cardinality(ids) LOOP
            IF touched[i] THEN
                u_id := u_id || ids[i];
                u_balance := u_balance || bal[i];
                u_version := u_version || ver[i];
            END IF;
        END LOOP;
        WITH j AS (
            INSERT INTO wallet_journal
                ("key", kind, currency, meta, content_hash, created_at, created_by_id, reverses_id)
            VALUES (p_key, p_kind, p_currency, p_meta, p_hash, p_at, p_by, NULL)
            ON CONFLICT ("key") DO NOTHING
            RETURNING id
        ), t AS (
            INSERT INTO wallet_transfer (journal_id, debit_id, credit_id, amount, currency)
            SELECT j.id, ids[place[p_debits[leg.n]]], ids[place[p_credits[leg.n]]], leg.amount, p_currency
            FROM j, unnest(p_amounts) WITH ORDINALITY AS leg(amount, n)
            ORDER BY leg.n
            RETURNING id
        ), numbered AS (
            SELECT t.id, row_number() OVER (ORDER BY t.id) AS n FROM t
        ), e AS (
            INSERT INTO wallet_entry (account_id, journal_id, transfer_id, amount, balance_after, version)
            SELECT side.account, (SELECT j.id FROM j), numbered.id, side.amount, side.balance, side.version
            FROM unnest(e_account, e_leg, e_amount, e_balance, e_version) WITH ORDINALITY
                AS side(account, leg, amount, balance, version, n)
            JOIN numbered ON numbered.n = side.leg
            ORDER BY side.n
        ), u AS (
            UPDATE wallet_account AS w SET balance = acc.balance, version = acc.version
            FROM j, unnest(u_id, u_balance, u_version) AS acc(id, balance, version)
            WHERE w.id = acc.id
            RETURNING w.id
        )
        SELECT j.id, (SELECT count(*) FROM u) INTO journal_id, moved FROM (SELECT 1) one LEFT JOIN j ON true;
        IF journal_id IS NOT NULL THEN
            IF moved <> cardinality(u_id) THEN
                RAISE EXCEPTION 'ledger bug: % of % accounts updated', moved, cardinality(u_id);
            END IF;
            RETURN NEXT;
            RETURN;
        END IF;
        -- Taken a moment ago, by a posting that locked other accounts: answer from it.
        SELECT jr.id, jr."key", jr.kind, jr.currency, jr.meta, jr.content_hash, jr.created_at,
            jr.created_by_id, jr.reverses_id
        INTO taken_id, taken_key, taken_kind, taken_currency, taken_meta, taken_hash, taken_at,
            taken_by, taken_reverses
        FROM wallet_journal jr WHERE jr."key" = p_key;
    END IF;

    -- Nothing written: nothing to keep (and, in the posting's own transaction, its COMMIT
    -- waits for no flush of the log; a caller's transaction keeps its own setting).
    IF cardinality(created) > 0 THEN
        DELETE FROM wallet_account WHERE id = ANY(created);
    END IF;
    IF p_strict THEN
        -- What follows must not run: fail, with what the ledger answers from.
        RAISE EXCEPTION 'wallet_post: nothing written for %', p_key USING ERRCODE = 'WL001',
            DETAIL = json_build_object('locked', json_build_array(ids, kinds, refs, owners, balances,
                versions, negatives, closed), 'players', players, 'taken', taken_id IS NOT NULL)::text;
    END IF;
    IF p_own THEN
        PERFORM set_config('synchronous_commit', 'off', true);
    END IF;
    RETURN NEXT;
END
$$
"""

BACKWARD = (
    "DROP FUNCTION IF EXISTS wallet_post(text, text[], text[], bigint[], boolean[], boolean[], text, text, "
    "jsonb, text, timestamptz, bigint, integer[], integer[], bigint[], integer[], integer, integer, integer, "
    "boolean, boolean)"
)


def forward(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FORWARD, params=None)


def backward(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(BACKWARD, params=None)


class Migration(migrations.Migration):
    dependencies = [("wallet", "0009_deal_settlement_words")]

    operations = [migrations.RunPython(forward, backward, elidable=False)]
