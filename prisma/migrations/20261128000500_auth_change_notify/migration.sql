-- Authentication caches token lookups per app instance (lib/auth/token-cache.ts). Every change that can end or
-- narrow a token's use tells every instance, in the transaction that makes it: NOTIFY is delivered only if that
-- transaction commits, and on commit. The payload is the tenant's id; an instance drops what it cached of that tenant.
-- Triggers rather than calls in the code, so that no path that changes these rows (the API, the settings pages,
-- the operator commands, a person at psql) can forget it.
CREATE FUNCTION notify_auth_change() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  -- TG_ARGV[0]: the column holding the tenant's id.
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('auth_change', to_jsonb(OLD) ->> TG_ARGV[0]);
  ELSE
    PERFORM pg_notify('auth_change', to_jsonb(NEW) ->> TG_ARGV[0]);
  END IF;
  RETURN NULL;
END $$;

-- A token's revocation (delete), expiry, access or name; not the record of its last use, written once a minute.
CREATE TRIGGER api_tokens_auth_change AFTER UPDATE ON "api_tokens"
FOR EACH ROW WHEN (
  (to_jsonb(OLD) - 'last_used_at' - 'last_used_address' - 'last_used_user_agent')
    IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at' - 'last_used_address' - 'last_used_user_agent')
) EXECUTE FUNCTION notify_auth_change('tenant_id');
CREATE TRIGGER api_tokens_auth_delete AFTER DELETE ON "api_tokens"
FOR EACH ROW EXECUTE FUNCTION notify_auth_change('tenant_id');

-- A user's archive, role, client access, owner flag or own fields (the caller carries them).
CREATE TRIGGER users_auth_change AFTER UPDATE OR DELETE ON "users"
FOR EACH ROW EXECUTE FUNCTION notify_auth_change('tenant_id');

-- A role's permissions.
CREATE TRIGGER roles_auth_change AFTER UPDATE OR DELETE ON "roles"
FOR EACH ROW EXECUTE FUNCTION notify_auth_change('tenant_id');

-- A tenant's name or time zone (the caller carries them), or its removal.
CREATE TRIGGER tenants_auth_change AFTER UPDATE OR DELETE ON "tenants"
FOR EACH ROW EXECUTE FUNCTION notify_auth_change('id');
