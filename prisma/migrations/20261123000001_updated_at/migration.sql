-- updated_at on every record the API syncs (decisions.md, Integrations): it moves on every write of the record and
-- of its nested parts, whoever writes it (the API, scripts, other triggers), so the database keeps it with triggers.
-- now() is the transaction's start: every row one transaction touches gets the same time.

-- AlterTable: users had none; existing users count as last changed when they were created.
ALTER TABLE "users" ADD COLUMN     "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
UPDATE "users" SET "updated_at" = "created_at";

-- Every update of a record moves its updated_at.
CREATE FUNCTION set_updated_at() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := now();
  RETURN NEW;
END $$;

CREATE TRIGGER clients_updated_at BEFORE UPDATE ON "clients" FOR EACH ROW EXECUTE FUNCTION set_updated_at();
CREATE TRIGGER contacts_updated_at BEFORE UPDATE ON "contacts" FOR EACH ROW EXECUTE FUNCTION set_updated_at();
CREATE TRIGGER jobs_updated_at BEFORE UPDATE ON "jobs" FOR EACH ROW EXECUTE FUNCTION set_updated_at();
CREATE TRIGGER users_updated_at BEFORE UPDATE ON "users" FOR EACH ROW EXECUTE FUNCTION set_updated_at();
CREATE TRIGGER time_logs_updated_at BEFORE UPDATE ON "time_logs" FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- A nested part written: the record it belongs to moves. Arguments: the parent table and the column of this row
-- that holds the parent's id (same tenant). The parent's own update trigger sets the time.
CREATE FUNCTION touch_parent() RETURNS TRIGGER LANGUAGE plpgsql AS $$
DECLARE
  touch TEXT := format('UPDATE %I SET updated_at = now() WHERE tenant_id = $1 AND id = $2', TG_ARGV[0]);
BEGIN
  IF TG_OP <> 'DELETE' AND to_jsonb(NEW) ->> TG_ARGV[1] IS NOT NULL THEN
    EXECUTE touch USING NEW.tenant_id, (to_jsonb(NEW) ->> TG_ARGV[1])::INTEGER;
  END IF;
  IF TG_OP <> 'INSERT' AND to_jsonb(OLD) ->> TG_ARGV[1] IS NOT NULL THEN
    EXECUTE touch USING OLD.tenant_id, (to_jsonb(OLD) ->> TG_ARGV[1])::INTEGER;
  END IF;
  RETURN NULL;
END $$;

-- A client's contacts (the link, on both sides), tags, groups and custom field values.
CREATE TRIGGER client_contacts_touch_client AFTER INSERT OR UPDATE OR DELETE ON "client_contacts"
FOR EACH ROW EXECUTE FUNCTION touch_parent('clients', 'client_id');
CREATE TRIGGER client_contacts_touch_contact AFTER INSERT OR UPDATE OR DELETE ON "client_contacts"
FOR EACH ROW EXECUTE FUNCTION touch_parent('contacts', 'contact_id');
CREATE TRIGGER client_tags_touch_client AFTER INSERT OR UPDATE OR DELETE ON "client_tags"
FOR EACH ROW EXECUTE FUNCTION touch_parent('clients', 'client_id');
CREATE TRIGGER client_group_members_touch_client AFTER INSERT OR UPDATE OR DELETE ON "client_group_members"
FOR EACH ROW EXECUTE FUNCTION touch_parent('clients', 'client_id');
CREATE TRIGGER custom_field_values_touch_client AFTER INSERT OR UPDATE OR DELETE ON "custom_field_values"
FOR EACH ROW EXECUTE FUNCTION touch_parent('clients', 'client_id');

-- A job's assignees, followers, tags and subtasks (a subtask's write moves its parent, and so on up).
CREATE TRIGGER job_assignees_touch_job AFTER INSERT OR UPDATE OR DELETE ON "job_assignees"
FOR EACH ROW EXECUTE FUNCTION touch_parent('jobs', 'job_id');
CREATE TRIGGER job_followers_touch_job AFTER INSERT OR UPDATE OR DELETE ON "job_followers"
FOR EACH ROW EXECUTE FUNCTION touch_parent('jobs', 'job_id');
CREATE TRIGGER job_tags_touch_job AFTER INSERT OR UPDATE OR DELETE ON "job_tags"
FOR EACH ROW EXECUTE FUNCTION touch_parent('jobs', 'job_id');
CREATE TRIGGER jobs_touch_parent AFTER INSERT OR UPDATE OF parent_id, name, status_id, client_id, start_date, due_date,
  estimated_hours, is_completed, repeat_settings OR DELETE ON "jobs"
FOR EACH ROW EXECUTE FUNCTION touch_parent('jobs', 'parent_id');

-- A contact's own change shows in each client it is linked to, and a client's name in each of its contacts.
-- Arguments: the table to touch, the link column naming this row, the link column naming the rows to touch.
CREATE FUNCTION touch_linked() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format(
    'UPDATE %I SET updated_at = now() WHERE tenant_id = $1 AND id IN '
    '(SELECT %I FROM client_contacts WHERE tenant_id = $1 AND %I = $2)',
    TG_ARGV[0], TG_ARGV[2], TG_ARGV[1]
  ) USING NEW.tenant_id, NEW.id;
  RETURN NULL;
END $$;

CREATE TRIGGER contacts_touch_clients AFTER UPDATE OF firstname, lastname, preferred_name, email, phone_number, portal_enabled
ON "contacts" FOR EACH ROW EXECUTE FUNCTION touch_linked('clients', 'contact_id', 'client_id');
CREATE TRIGGER clients_touch_contacts AFTER UPDATE OF name ON "clients"
FOR EACH ROW EXECUTE FUNCTION touch_linked('contacts', 'client_id', 'contact_id');

-- CreateIndex
CREATE INDEX "clients_tenant_id_updated_at_id_idx" ON "clients"("tenant_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "contacts_tenant_id_updated_at_id_idx" ON "contacts"("tenant_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "jobs_tenant_id_updated_at_id_idx" ON "jobs"("tenant_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "time_logs_tenant_id_updated_at_id_idx" ON "time_logs"("tenant_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "users_tenant_id_updated_at_id_idx" ON "users"("tenant_id", "updated_at", "id");
