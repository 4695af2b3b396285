// The client, job and user a page of time logs names, in one statement (bench/RESULTS.md, "Relations in one
// statement"). Raw SQL is outside caller.db's tenant scope, so the statement names the tenant itself.
import type { Caller } from "@/lib/auth/caller";
import { Prisma } from "@/lib/generated/prisma/client";
import type { TimeLogColumns, TimeLogRow } from "./serialize";

type Named = { id: number; uuid: string; name: string };
type Person = { id: number; firstname: string; lastname: string };
type TimeLogRelationsRow = { clients: Named[]; jobs: Named[]; users: Person[] };

function timeLogRelationsSql(tenantId: number, logs: TimeLogColumns[]) {
  const ids = (key: "clientId" | "jobId" | "userId") => [
    ...new Set(logs.flatMap((log) => (log[key] === null ? [] : [log[key]]))),
  ];
  return Prisma.sql`
    SELECT
      (SELECT COALESCE(json_agg(json_build_object('id', id, 'uuid', uuid, 'name', name)), '[]')
       FROM clients WHERE tenant_id = ${tenantId} AND id = ANY(${ids("clientId")}::int[])) AS clients,
      (SELECT COALESCE(json_agg(json_build_object('id', id, 'uuid', uuid, 'name', name)), '[]')
       FROM jobs WHERE tenant_id = ${tenantId} AND id = ANY(${ids("jobId")}::int[])) AS jobs,
      (SELECT COALESCE(json_agg(json_build_object('id', id, 'firstname', firstname, 'lastname', lastname)), '[]')
       FROM users WHERE tenant_id = ${tenantId} AND id = ANY(${ids("userId")}::int[])) AS users`;
}

/** The page's rows with the records they name attached. */
function withRelations(logs: TimeLogColumns[], { clients, jobs, users }: TimeLogRelationsRow): TimeLogRow[] {
  const byId = <T extends { id: number }>(rows: T[]) => new Map(rows.map((row) => [row.id, row]));
  const [clientById, jobById, userById] = [byId(clients), byId(jobs), byId(users)];
  const named = (row: Named | undefined) => (row ? { uuid: row.uuid, name: row.name } : null);
  return logs.map(({ clientId, jobId, userId, ...log }) => ({
    ...log,
    client: clientId === null ? null : named(clientById.get(clientId)),
    job: jobId === null ? null : named(jobById.get(jobId)),
    // A time log's user is required (foreign key), so it is always found.
    user: userById.get(userId)!,
  }));
}

export async function loadTimeLogRelations(caller: Caller, logs: TimeLogColumns[]): Promise<TimeLogRow[]> {
  if (logs.length === 0) return [];
  const [relations] = await caller.db.$queryRaw<TimeLogRelationsRow[]>(timeLogRelationsSql(caller.tenant.id, logs));
  return withRelations(logs, relations);
}
