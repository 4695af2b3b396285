-- CreateTable
CREATE TABLE "audit_events" (
    "tenant_id" INTEGER NOT NULL,
    "id" SERIAL NOT NULL,
    "action" TEXT NOT NULL,
    "via" TEXT NOT NULL,
    "actor_id" INTEGER,
    "actor_name" TEXT,
    "actor_email" TEXT,
    "token_id" INTEGER,
    "token_name" TEXT,
    "target_type" TEXT NOT NULL,
    "target_uuid" UUID,
    "target_id" INTEGER,
    "target_name" TEXT NOT NULL DEFAULT '',
    "changes" JSONB NOT NULL DEFAULT '{}',
    "address" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateIndex
CREATE INDEX "audit_events_tenant_id_created_at_id_idx" ON "audit_events"("tenant_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "audit_events_tenant_id_target_uuid_created_at_id_idx" ON "audit_events"("tenant_id", "target_uuid", "created_at", "id");

-- CreateIndex
CREATE INDEX "audit_events_created_at_idx" ON "audit_events"("created_at");

-- AddForeignKey
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- Append-only. UPDATE and TRUNCATE are always refused; DELETE only of entries older than the cut-off that
-- prune_audit_events() sets for its own statement (a transaction-local setting), so the app has no path that changes
-- or removes an entry, and retention removes nothing younger than the retention it was given.
CREATE FUNCTION audit_events_append_only() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE'
     AND OLD.created_at < NULLIF(current_setting('audit.prune_before', true), '')::timestamptz THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only: % is refused (entries leave only through prune_audit_events)', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END $$;

CREATE TRIGGER audit_events_no_update_or_delete BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only();

-- Retention: deletes the entries older than `retention_days` days and answers how many.
CREATE FUNCTION prune_audit_events(retention_days INTEGER) RETURNS INTEGER LANGUAGE plpgsql AS $$
DECLARE
  cutoff TIMESTAMPTZ;
  pruned INTEGER;
BEGIN
  IF retention_days IS NULL OR retention_days < 1 THEN
    RAISE EXCEPTION 'prune_audit_events: retention_days must be at least 1, not %', retention_days;
  END IF;
  cutoff := now() - make_interval(days => retention_days);
  PERFORM set_config('audit.prune_before', cutoff::text, true);
  DELETE FROM "audit_events" WHERE "created_at" < cutoff;
  GET DIAGNOSTICS pruned = ROW_COUNT;
  PERFORM set_config('audit.prune_before', '', true);
  RETURN pruned;
END $$;

-- Owners and Admins of existing tenants may read the audit log (lib/auth/permissions.ts BUILT_IN_ROLES); new
-- tenants get the permission at creation.
UPDATE "roles"
SET "permissions" = "permissions" || ARRAY['audit.read']
WHERE "name" IN ('Owner', 'Admin') AND NOT ('audit.read' = ANY ("permissions"));
