-- The audit log is append-only in fact, not only by convention (decisions.md, Audit log; issue 36, item 8):
-- - the table, its sequence, its trigger function and the retention function belong to a role of their own,
--   cjt_audit_owner (NOLOGIN: nobody connects as it), instead of the app's role, which could drop the trigger;
-- - the app's role (the one that runs the migrations: CURRENT_USER) keeps SELECT and INSERT only: no UPDATE, DELETE
--   or TRUNCATE;
-- - retention runs through prune_audit_events(), SECURITY DEFINER: it deletes as the owner, and the trigger lets a
--   DELETE through only as the owner. The `audit.prune_before` setting that any connection could set is gone.
-- A superuser bypasses privileges (PGlite's only user, and postgres on a development machine): there the trigger still
-- refuses UPDATE, TRUNCATE and any DELETE but the owner's, but only running the app as an ordinary role makes the
-- split hold against someone who holds the app's credentials (README, Deployment).

DO $$
BEGIN
  -- Roles belong to the whole server: another database of it may have made this one already.
  CREATE ROLE cjt_audit_owner NOLOGIN;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
  NULL;
END $$;

-- A role that is not a superuser may give away what it owns only to a role it belongs to, which must be able to
-- create in the schema; the membership is dropped again below, so the app cannot act as the owner.
GRANT cjt_audit_owner TO CURRENT_USER;
GRANT USAGE, CREATE ON SCHEMA public TO cjt_audit_owner;

-- Refuses UPDATE and TRUNCATE always, and DELETE unless the owner deletes (only prune_audit_events runs as it).
CREATE OR REPLACE FUNCTION audit_events_append_only() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_user = 'cjt_audit_owner' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only: % is refused (entries leave only through prune_audit_events)', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END $$;

-- Retention: deletes the entries older than `retention_days` days, as the owner, and answers how many.
CREATE OR REPLACE FUNCTION prune_audit_events(retention_days INTEGER) RETURNS INTEGER
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  pruned INTEGER;
BEGIN
  IF retention_days IS NULL OR retention_days < 1 THEN
    RAISE EXCEPTION 'prune_audit_events: retention_days must be at least 1, not %', retention_days;
  END IF;
  DELETE FROM audit_events WHERE created_at < now() - make_interval(days => retention_days);
  GET DIAGNOSTICS pruned = ROW_COUNT;
  RETURN pruned;
END $$;

ALTER TABLE audit_events OWNER TO cjt_audit_owner;
ALTER FUNCTION audit_events_append_only() OWNER TO cjt_audit_owner;
ALTER FUNCTION prune_audit_events(INTEGER) OWNER TO cjt_audit_owner;

REVOKE ALL ON audit_events FROM PUBLIC;
GRANT SELECT, INSERT ON audit_events TO CURRENT_USER;
GRANT USAGE ON SEQUENCE audit_events_id_seq TO CURRENT_USER;
REVOKE ALL ON FUNCTION prune_audit_events(INTEGER) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION prune_audit_events(INTEGER) TO CURRENT_USER;

REVOKE cjt_audit_owner FROM CURRENT_USER;
