-- The total of a time log list (meta.total) counted up to a million rows per request: 40-60 ms of every
-- `range=this_year` page on the bench data (bench/RESULTS.md). These per-user, per-day counts, kept exact by the
-- trigger below in the same transaction as every write, let a list filtered by no more than dates and users sum at
-- most one row per user and day instead (lib/time-logs/queries.ts).

-- CreateTable
CREATE TABLE "time_log_day_counts" (
    "tenant_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "date" DATE NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "time_log_day_counts_pkey" PRIMARY KEY ("tenant_id","user_id","date")
);

-- CreateIndex
CREATE INDEX "time_log_day_counts_tenant_id_date_count_idx" ON "time_log_day_counts"("tenant_id", "date", "count");

-- AddForeignKey
ALTER TABLE "time_log_day_counts" ADD CONSTRAINT "time_log_day_counts_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "time_log_day_counts" ADD CONSTRAINT "time_log_day_counts_tenant_id_user_id_fkey" FOREIGN KEY ("tenant_id", "user_id") REFERENCES "users"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Every insert, delete, and change of a time log's tenant, user or date moves its count.
CREATE FUNCTION time_logs_count_days() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE time_log_day_counts SET count = count - 1
    WHERE tenant_id = OLD.tenant_id AND user_id = OLD.user_id AND date = OLD.date;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO time_log_day_counts AS day (tenant_id, user_id, date, count) VALUES (NEW.tenant_id, NEW.user_id, NEW.date, 1)
    ON CONFLICT (tenant_id, user_id, date) DO UPDATE SET count = day.count + 1;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER time_logs_day_counts AFTER INSERT OR DELETE OR UPDATE OF tenant_id, user_id, date ON "time_logs"
FOR EACH ROW EXECUTE FUNCTION time_logs_count_days();

-- TRUNCATE skips row triggers: it empties the counts too.
CREATE FUNCTION time_logs_truncate_counts() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE time_log_day_counts;
  RETURN NULL;
END $$;

CREATE TRIGGER time_logs_truncate_day_counts AFTER TRUNCATE ON "time_logs"
FOR EACH STATEMENT EXECUTE FUNCTION time_logs_truncate_counts();

-- The time logs that exist already.
INSERT INTO time_log_day_counts (tenant_id, user_id, date, count)
SELECT tenant_id, user_id, date, count(*) FROM time_logs GROUP BY tenant_id, user_id, date;
