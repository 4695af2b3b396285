-- The audit log is append-only also against the app's own login (decisions.md, Deployment; issue 55 item 6):
-- - the role that runs the app is not the role that migrates: it owns nothing, cannot create or drop in schema
--   public, and is given only what it uses by cjt_grant_app_role(), which `npm run db:migrate` calls for
--   DATABASE_APP_ROLE (docs/deploy.md). The migrating role keeps the audit log's SELECT and INSERT with grant option,
--   to pass them on;
-- - pruning has a floor the app cannot lower: audit_retention_floor_days(), a function of cjt_audit_owner (30 days;
--   an administrator may replace it), read by prune_audit_events(), which refuses a shorter retention;
-- - created_at of an entry is the database's now() (the insert's transaction), set by a trigger: an insert naming a
--   time more than a minute away is refused. A superuser, whom privileges and triggers do not bind anyway (PGlite's
--   only user; tests that back-date entries), is left its own value.

GRANT cjt_audit_owner TO CURRENT_USER;

CREATE OR REPLACE FUNCTION audit_retention_floor_days() RETURNS INTEGER LANGUAGE sql IMMUTABLE AS $$ SELECT 30 $$;

CREATE OR REPLACE FUNCTION prune_audit_events(retention_days INTEGER) RETURNS INTEGER
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  pruned INTEGER;
  floor_days INTEGER := audit_retention_floor_days();
BEGIN
  IF retention_days IS NULL OR retention_days < floor_days THEN
    RAISE EXCEPTION 'prune_audit_events: retention_days must be at least % (audit_retention_floor_days()), not %',
      floor_days, retention_days USING ERRCODE = 'insufficient_privilege';
  END IF;
  DELETE FROM audit_events WHERE created_at < now() - make_interval(days => retention_days);
  GET DIAGNOSTICS pruned = ROW_COUNT;
  RETURN pruned;
END $$;

CREATE OR REPLACE FUNCTION audit_events_stamp() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    RETURN NEW;
  END IF;
  IF NEW.created_at IS NOT NULL AND abs(extract(epoch FROM NEW.created_at - now())) > 60 THEN
    RAISE EXCEPTION 'audit_events.created_at is set by the database: % is refused', NEW.created_at
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  NEW.created_at := now();
  RETURN NEW;
END $$;

DROP TRIGGER IF EXISTS audit_events_stamp ON audit_events;
CREATE TRIGGER audit_events_stamp BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION audit_events_stamp();

ALTER FUNCTION audit_retention_floor_days() OWNER TO cjt_audit_owner;
ALTER FUNCTION prune_audit_events(INTEGER) OWNER TO cjt_audit_owner;
ALTER FUNCTION audit_events_stamp() OWNER TO cjt_audit_owner;
REVOKE ALL ON FUNCTION audit_retention_floor_days() FROM PUBLIC;
REVOKE ALL ON FUNCTION prune_audit_events(INTEGER) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION prune_audit_events(INTEGER) TO CURRENT_USER WITH GRANT OPTION;
GRANT SELECT, INSERT ON audit_events TO CURRENT_USER WITH GRANT OPTION;
GRANT USAGE ON SEQUENCE audit_events_id_seq TO CURRENT_USER WITH GRANT OPTION;

-- What the running role may do: read and write the app's tables (the audit log: read and add), use their sequences,
-- prune through the one function; read the migrations' record (the health check); nothing else.
CREATE OR REPLACE FUNCTION cjt_grant_app_role(app_role NAME) RETURNS VOID LANGUAGE plpgsql AS $$
BEGIN
  IF app_role = current_user THEN
    RAISE EXCEPTION 'The app''s role must not be the migrating role %', app_role;
  END IF;
  EXECUTE format('GRANT USAGE ON SCHEMA public TO %I', app_role);
  EXECUTE format('REVOKE CREATE ON SCHEMA public FROM %I', app_role);
  EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO %I', app_role);
  EXECUTE format('REVOKE INSERT, UPDATE, DELETE ON _prisma_migrations FROM %I', app_role);
  EXECUTE format('GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO %I', app_role);
  EXECUTE format('GRANT EXECUTE ON FUNCTION prune_audit_events(INTEGER) TO %I', app_role);
END $$;
REVOKE ALL ON FUNCTION cjt_grant_app_role(NAME) FROM PUBLIC;

REVOKE cjt_audit_owner FROM CURRENT_USER;
