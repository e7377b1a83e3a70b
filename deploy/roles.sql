-- Least privilege in PostgreSQL (docs/DEPLOY.md, "Database roles").
--
-- Two roles: the OWNER owns the schema and runs the migrations (`manage.py migrate`); the
-- site (daphne, the Celery worker and beat) logs in as the APP role, which can read and write
-- rows but change no table: no DDL, no TRUNCATE, no trigger changes (only an owner may alter
-- a table), and on the wallet's ledger (journals, transfers, entries) only SELECT and INSERT,
-- so even a compromised site cannot rewrite money history.
--
-- Run as a superuser (or the database owner), in the site's database, after every
-- `migrate` (new tables get their grants here); it is safe to run again:
--
--   psql -h HOST -U postgres -d rummy -v ON_ERROR_STOP=1 \
--        -v owner=rummy_owner -v app=rummy_app -v app_password='...' -f deploy/roles.sql
--
-- The owner role is created without a password: give it one (ALTER ROLE) or run migrate
-- as a superuser with SET ROLE; the app's DATABASE_URL is postgresql://rummy_app:...@HOST/rummy.

\set ON_ERROR_STOP 1

SELECT format('CREATE ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE', :'owner')
WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'owner') \gexec

SELECT format('CREATE ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT', :'app')
WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'app') \gexec

SELECT format('ALTER ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOBYPASSRLS PASSWORD %L',
              :'app', :'app_password') \gexec

BEGIN;

-- The database: the app may connect; nobody else gets anything by default.
SELECT format('REVOKE ALL ON DATABASE %I FROM PUBLIC', current_database()) \gexec
SELECT format('GRANT CONNECT, TEMPORARY ON DATABASE %I TO %I', current_database(), :'app') \gexec
SELECT format('GRANT ALL ON DATABASE %I TO %I', current_database(), :'owner') \gexec

-- The schema: the owner creates tables; the app only uses them.
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
SELECT format('GRANT USAGE, CREATE ON SCHEMA public TO %I', :'owner') \gexec
SELECT format('REVOKE CREATE ON SCHEMA public FROM %I', :'app') \gexec
SELECT format('GRANT USAGE ON SCHEMA public TO %I', :'app') \gexec

-- Every table: rows only, never TRUNCATE, REFERENCES or TRIGGER.
SELECT format('REVOKE ALL ON ALL TABLES IN SCHEMA public FROM %I', :'app') \gexec
SELECT format('GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO %I', :'app') \gexec
SELECT format('GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO %I', :'app') \gexec

-- The ledger is append-only (its triggers refuse UPDATE and DELETE too): read and add only.
-- So are the records a regulator reads: the staff audit log, and each player's protection
-- history and breaks or self-exclusions (nobody may lift or shorten one).
SELECT format('REVOKE UPDATE, DELETE, TRUNCATE ON %I FROM %I', t, :'app')
FROM unnest(ARRAY['wallet_journal', 'wallet_transfer', 'wallet_entry', 'backoffice_auditlog',
                  'protection_protectionevent', 'protection_exclusion']) AS t
WHERE to_regclass(t) IS NOT NULL \gexec

COMMIT;
