-- Client access `assigned_clients` (decisions.md): a user sees the clients they are account manager of and those
-- with a job assigned to them. Derived from the jobs at every read, that filter scanned every job and every client
-- of the tenant: 530 ms for one page of clients of such a user on the bench data, 90-140 ms for a page of jobs
-- (bench/RESULTS.md). The table below holds it, kept exact by the triggers further down in the same transaction as
-- every write, so that visibility is one lookup by user or by client.

-- CreateTable
CREATE TABLE "assigned_clients" (
    "tenant_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "client_id" INTEGER NOT NULL,

    CONSTRAINT "assigned_clients_pkey" PRIMARY KEY ("tenant_id","client_id","user_id")
);

-- CreateIndex
CREATE INDEX "assigned_clients_user_id_tenant_id_client_id_idx" ON "assigned_clients"("user_id", "tenant_id", "client_id");

-- AddForeignKey
ALTER TABLE "assigned_clients" ADD CONSTRAINT "assigned_clients_tenant_id_user_id_fkey" FOREIGN KEY ("tenant_id", "user_id") REFERENCES "users"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assigned_clients" ADD CONSTRAINT "assigned_clients_tenant_id_client_id_fkey" FOREIGN KEY ("tenant_id", "client_id") REFERENCES "clients"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;



-- Whether the user is assigned the client, from the client's account manager and its jobs' assignees as they are
-- now. The client's row is locked first, so that two transactions changing the same client's assignments take turns
-- and the second sees what the first committed (each statement below reads afresh under READ COMMITTED).
CREATE FUNCTION refresh_assigned_client(p_tenant_id INTEGER, p_client_id INTEGER, p_user_id INTEGER) RETURNS VOID
LANGUAGE plpgsql AS $$
BEGIN
  IF p_client_id IS NULL OR p_user_id IS NULL THEN
    RETURN;
  END IF;
  PERFORM FROM clients WHERE tenant_id = p_tenant_id AND id = p_client_id FOR NO KEY UPDATE;
  IF EXISTS (SELECT FROM clients WHERE tenant_id = p_tenant_id AND id = p_client_id AND account_manager_id = p_user_id)
     OR EXISTS (SELECT FROM jobs j JOIN job_assignees a ON (a.tenant_id, a.job_id) = (j.tenant_id, j.id)
                WHERE j.tenant_id = p_tenant_id AND j.client_id = p_client_id AND a.user_id = p_user_id) THEN
    INSERT INTO assigned_clients (tenant_id, user_id, client_id) VALUES (p_tenant_id, p_user_id, p_client_id)
    ON CONFLICT DO NOTHING;
  ELSE
    DELETE FROM assigned_clients WHERE tenant_id = p_tenant_id AND client_id = p_client_id AND user_id = p_user_id;
  END IF;
END $$;

-- The whole table from scratch: the rows that exist when this migration runs, after a TRUNCATE, and after bulk
-- loads that switch the triggers off (bench/seed.ts).
CREATE FUNCTION rebuild_assigned_clients() RETURNS VOID LANGUAGE sql AS $$
  DELETE FROM assigned_clients;
  INSERT INTO assigned_clients (tenant_id, user_id, client_id)
  SELECT tenant_id, account_manager_id, id FROM clients WHERE account_manager_id IS NOT NULL
  UNION
  SELECT j.tenant_id, a.user_id, j.client_id
  FROM jobs j JOIN job_assignees a ON (a.tenant_id, a.job_id) = (j.tenant_id, j.id)
  WHERE j.client_id IS NOT NULL
  ON CONFLICT DO NOTHING;
$$;

-- A client created, or given another account manager.
CREATE FUNCTION clients_refresh_assigned() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM refresh_assigned_client(OLD.tenant_id, OLD.id, OLD.account_manager_id);
    -- Under the new key as well, should the same statement change it: the foreign key's cascade moved the row there.
    PERFORM refresh_assigned_client(NEW.tenant_id, NEW.id, OLD.account_manager_id);
  END IF;
  PERFORM refresh_assigned_client(NEW.tenant_id, NEW.id, NEW.account_manager_id);
  RETURN NULL;
END $$;

CREATE TRIGGER clients_assigned AFTER INSERT OR UPDATE OF account_manager_id ON "clients"
FOR EACH ROW EXECUTE FUNCTION clients_refresh_assigned();

-- The client of a job, read under a share lock: a move of the job to another client in progress (which locks the
-- job's row) is waited for and its client read afresh. No client when the job is being deleted: the trigger on jobs
-- below covers that case.
CREATE FUNCTION assigned_job_client(p_tenant_id INTEGER, p_job_id INTEGER) RETURNS INTEGER LANGUAGE plpgsql AS $$
DECLARE
  found_client INTEGER;
BEGIN
  SELECT client_id INTO found_client FROM jobs WHERE tenant_id = p_tenant_id AND id = p_job_id FOR SHARE;
  RETURN found_client;
END $$;

-- A user assigned to a job or taken off it.
CREATE FUNCTION job_assignees_refresh_assigned() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM refresh_assigned_client(OLD.tenant_id, assigned_job_client(OLD.tenant_id, OLD.job_id), OLD.user_id);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM refresh_assigned_client(NEW.tenant_id, assigned_job_client(NEW.tenant_id, NEW.job_id), NEW.user_id);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER job_assignees_assigned AFTER INSERT OR UPDATE OR DELETE ON "job_assignees"
FOR EACH ROW EXECUTE FUNCTION job_assignees_refresh_assigned();

-- A job moved to another client: its assignees leave the old client and join the new one. A job deleted: its
-- assignees are deleted by then (the foreign key's cascade runs first), so every user assigned its client is checked.
CREATE FUNCTION jobs_refresh_assigned() RETURNS TRIGGER LANGUAGE plpgsql AS $$
DECLARE
  affected INTEGER;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF OLD.client_id IS NOT DISTINCT FROM NEW.client_id THEN
      RETURN NULL;
    END IF;
    FOR affected IN SELECT user_id FROM job_assignees WHERE tenant_id = NEW.tenant_id AND job_id = NEW.id LOOP
      PERFORM refresh_assigned_client(OLD.tenant_id, OLD.client_id, affected);
      PERFORM refresh_assigned_client(NEW.tenant_id, NEW.client_id, affected);
    END LOOP;
  ELSE
    FOR affected IN SELECT user_id FROM assigned_clients WHERE tenant_id = OLD.tenant_id AND client_id = OLD.client_id LOOP
      PERFORM refresh_assigned_client(OLD.tenant_id, OLD.client_id, affected);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER jobs_assigned AFTER UPDATE OF client_id OR DELETE ON "jobs"
FOR EACH ROW EXECUTE FUNCTION jobs_refresh_assigned();

-- TRUNCATE skips row triggers (and truncating jobs truncates their assignees).
CREATE FUNCTION job_assignees_truncate_assigned() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  PERFORM rebuild_assigned_clients();
  RETURN NULL;
END $$;

CREATE TRIGGER job_assignees_truncate_assigned AFTER TRUNCATE ON "job_assignees"
FOR EACH STATEMENT EXECUTE FUNCTION job_assignees_truncate_assigned();

-- The clients and jobs that exist already.
SELECT rebuild_assigned_clients();
