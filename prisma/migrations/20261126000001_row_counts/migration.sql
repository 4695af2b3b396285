-- Exact totals stay exact, cheaply (issue #20). The total (meta.total) of an unfiltered list was a count(*) over
-- every index entry of the tenant's rows: half of a first page of clients on the bench data (~92k entries), more for
-- time logs. `row_counts` holds those totals per tenant, table and the flag the lists filter on by default
-- (clients.is_archived, jobs.is_completed; false for contacts and time logs), kept exact by the statement-level
-- triggers further down in the same transaction as every write: one row answers the total of an unfiltered list
-- (lib/db/row-counts.ts).
--
-- Deep pages (`page=1000`) cost what their OFFSET costs: the lists find a page's ids first (lib/db/offset-page.ts).
-- The indexes below hold each list's default order and the columns those ids need, so that the OFFSET walks one
-- index alone (an index-only scan) rather than fetching every skipped row.

-- DropIndex
DROP INDEX "clients_tenant_id_name_idx";

-- DropIndex
DROP INDEX "contacts_tenant_id_lastname_firstname_idx";

-- DropIndex
DROP INDEX "jobs_tenant_id_due_date_idx";

-- DropIndex
DROP INDEX "time_logs_tenant_id_date_idx";

-- CreateTable
CREATE TABLE "row_counts" (
    "tenant_id" INTEGER NOT NULL,
    "table_name" TEXT NOT NULL,
    "flag" BOOLEAN NOT NULL,
    "n" BIGINT NOT NULL,

    CONSTRAINT "row_counts_pkey" PRIMARY KEY ("tenant_id","table_name","flag")
);

-- CreateIndex
CREATE INDEX "clients_tenant_id_name_uuid_is_archived_id_idx" ON "clients"("tenant_id", "name", "uuid", "is_archived", "id");

-- CreateIndex
CREATE INDEX "contacts_tenant_id_lastname_firstname_uuid_id_idx" ON "contacts"("tenant_id", "lastname", "firstname", "uuid", "id");

-- CreateIndex
CREATE INDEX "jobs_tenant_id_due_date_uuid_is_completed_id_idx" ON "jobs"("tenant_id", "due_date", "uuid", "is_completed", "id");

-- CreateIndex
CREATE INDEX "time_logs_tenant_id_date_created_at_uuid_id_idx" ON "time_logs"("tenant_id", "date" DESC, "created_at" DESC, "uuid", "id");

-- AddForeignKey
ALTER TABLE "row_counts" ADD CONSTRAINT "row_counts_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Each table's triggers see the statement's rows at once (transition tables), so a bulk insert of a million time logs
-- adds to its tenant's count once, not a million times. The counts move through one INSERT … ON CONFLICT that takes
-- the counts' rows in key order: two writers that move the same counts lock them in the same order, so they wait for
-- each other and never deadlock, and the second adds to what the first committed (exact under concurrency). A
-- tenant that is gone (its rows deleted by the cascade of its own deletion) is skipped: its counts are gone too.

-- Adds the changes (per tenant and flag) to the counts of table p_table.
CREATE FUNCTION add_row_counts(p_table TEXT, p_tenant_ids INTEGER[], p_flags BOOLEAN[], p_changes BIGINT[])
RETURNS VOID LANGUAGE sql AS $$
  INSERT INTO row_counts AS counts (tenant_id, table_name, flag, n)
  SELECT d.tenant_id, p_table, d.flag, sum(d.change)
  FROM unnest(p_tenant_ids, p_flags, p_changes) AS d(tenant_id, flag, change)
  JOIN tenants ON tenants.id = d.tenant_id
  GROUP BY d.tenant_id, d.flag
  HAVING sum(d.change) <> 0
  ORDER BY d.tenant_id, d.flag
  ON CONFLICT (tenant_id, table_name, flag) DO UPDATE SET n = counts.n + excluded.n;
$$;

-- Rows inserted count +1, rows deleted -1, rows updated -1 under their old flag and +1 under their new one (a flag
-- that did not change adds nothing). Contacts and time logs have no flag: their updates change no count (the
-- tenant of a row cannot change: lib/db/tenant.ts), so they have no update trigger.
CREATE FUNCTION clients_count_rows() RETURNS TRIGGER LANGUAGE plpgsql AS $$
DECLARE
  tenant_ids INTEGER[];
  flags BOOLEAN[];
  changes BIGINT[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(tenant_id), array_agg(flag), array_agg(change) INTO tenant_ids, flags, changes
    FROM (SELECT tenant_id, is_archived AS flag, count(*) AS change FROM new_rows GROUP BY 1, 2) AS d;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(tenant_id), array_agg(flag), array_agg(change) INTO tenant_ids, flags, changes
    FROM (SELECT tenant_id, is_archived AS flag, -count(*) AS change FROM old_rows GROUP BY 1, 2) AS d;
  ELSE
    SELECT array_agg(tenant_id), array_agg(flag), array_agg(change) INTO tenant_ids, flags, changes
    FROM (SELECT tenant_id, flag, sum(change) AS change
          FROM (SELECT tenant_id, is_archived AS flag, 1 AS change FROM new_rows
                UNION ALL
                SELECT tenant_id, is_archived, -1 FROM old_rows) AS moved
          GROUP BY 1, 2 HAVING sum(change) <> 0) AS d;
  END IF;
  IF tenant_ids IS NOT NULL THEN
    PERFORM add_row_counts('clients', tenant_ids, flags, changes);
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION jobs_count_rows() RETURNS TRIGGER LANGUAGE plpgsql AS $$
DECLARE
  tenant_ids INTEGER[];
  flags BOOLEAN[];
  changes BIGINT[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(tenant_id), array_agg(flag), array_agg(change) INTO tenant_ids, flags, changes
    FROM (SELECT tenant_id, is_completed AS flag, count(*) AS change FROM new_rows GROUP BY 1, 2) AS d;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(tenant_id), array_agg(flag), array_agg(change) INTO tenant_ids, flags, changes
    FROM (SELECT tenant_id, is_completed AS flag, -count(*) AS change FROM old_rows GROUP BY 1, 2) AS d;
  ELSE
    SELECT array_agg(tenant_id), array_agg(flag), array_agg(change) INTO tenant_ids, flags, changes
    FROM (SELECT tenant_id, flag, sum(change) AS change
          FROM (SELECT tenant_id, is_completed AS flag, 1 AS change FROM new_rows
                UNION ALL
                SELECT tenant_id, is_completed, -1 FROM old_rows) AS moved
          GROUP BY 1, 2 HAVING sum(change) <> 0) AS d;
  END IF;
  IF tenant_ids IS NOT NULL THEN
    PERFORM add_row_counts('jobs', tenant_ids, flags, changes);
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION contacts_count_rows() RETURNS TRIGGER LANGUAGE plpgsql AS $$
DECLARE
  tenant_ids INTEGER[];
  changes BIGINT[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(tenant_id), array_agg(change) INTO tenant_ids, changes
    FROM (SELECT tenant_id, count(*) AS change FROM new_rows GROUP BY 1) AS d;
  ELSE
    SELECT array_agg(tenant_id), array_agg(change) INTO tenant_ids, changes
    FROM (SELECT tenant_id, -count(*) AS change FROM old_rows GROUP BY 1) AS d;
  END IF;
  IF tenant_ids IS NOT NULL THEN
    PERFORM add_row_counts('contacts', tenant_ids, array_fill(false, ARRAY[cardinality(tenant_ids)]), changes);
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION time_logs_count_rows() RETURNS TRIGGER LANGUAGE plpgsql AS $$
DECLARE
  tenant_ids INTEGER[];
  changes BIGINT[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(tenant_id), array_agg(change) INTO tenant_ids, changes
    FROM (SELECT tenant_id, count(*) AS change FROM new_rows GROUP BY 1) AS d;
  ELSE
    SELECT array_agg(tenant_id), array_agg(change) INTO tenant_ids, changes
    FROM (SELECT tenant_id, -count(*) AS change FROM old_rows GROUP BY 1) AS d;
  END IF;
  IF tenant_ids IS NOT NULL THEN
    PERFORM add_row_counts('time_logs', tenant_ids, array_fill(false, ARRAY[cardinality(tenant_ids)]), changes);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER clients_count_inserts AFTER INSERT ON "clients" REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION clients_count_rows();
CREATE TRIGGER clients_count_deletes AFTER DELETE ON "clients" REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION clients_count_rows();
-- Transition tables allow no column list (UPDATE OF is_archived): every update statement runs it, and a statement
-- that changes no flag ends at the aggregate above.
CREATE TRIGGER clients_count_updates AFTER UPDATE ON "clients" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION clients_count_rows();

CREATE TRIGGER jobs_count_inserts AFTER INSERT ON "jobs" REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION jobs_count_rows();
CREATE TRIGGER jobs_count_deletes AFTER DELETE ON "jobs" REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION jobs_count_rows();
CREATE TRIGGER jobs_count_updates AFTER UPDATE ON "jobs" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION jobs_count_rows();

CREATE TRIGGER contacts_count_inserts AFTER INSERT ON "contacts" REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION contacts_count_rows();
CREATE TRIGGER contacts_count_deletes AFTER DELETE ON "contacts" REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION contacts_count_rows();

CREATE TRIGGER time_logs_count_inserts AFTER INSERT ON "time_logs" REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION time_logs_count_rows();
CREATE TRIGGER time_logs_count_deletes AFTER DELETE ON "time_logs" REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION time_logs_count_rows();

-- TRUNCATE skips the triggers above: it empties the table's counts too (TRUNCATE … CASCADE runs this for each table).
CREATE FUNCTION truncate_row_counts() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM row_counts WHERE table_name = TG_TABLE_NAME;
  RETURN NULL;
END $$;

CREATE TRIGGER clients_truncate_row_counts AFTER TRUNCATE ON "clients"
FOR EACH STATEMENT EXECUTE FUNCTION truncate_row_counts();
CREATE TRIGGER contacts_truncate_row_counts AFTER TRUNCATE ON "contacts"
FOR EACH STATEMENT EXECUTE FUNCTION truncate_row_counts();
CREATE TRIGGER jobs_truncate_row_counts AFTER TRUNCATE ON "jobs"
FOR EACH STATEMENT EXECUTE FUNCTION truncate_row_counts();
CREATE TRIGGER time_logs_truncate_row_counts AFTER TRUNCATE ON "time_logs"
FOR EACH STATEMENT EXECUTE FUNCTION truncate_row_counts();

-- The rows that exist already. The triggers above exist by now and hold their tables' locks until this migration
-- commits, so no write falls between this count and them.
INSERT INTO row_counts (tenant_id, table_name, flag, n)
SELECT tenant_id, 'clients', is_archived, count(*) FROM clients GROUP BY tenant_id, is_archived
UNION ALL
SELECT tenant_id, 'contacts', false, count(*) FROM contacts GROUP BY tenant_id
UNION ALL
SELECT tenant_id, 'jobs', is_completed, count(*) FROM jobs GROUP BY tenant_id, is_completed
UNION ALL
SELECT tenant_id, 'time_logs', false, count(*) FROM time_logs GROUP BY tenant_id;
