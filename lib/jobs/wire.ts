// Jobs' wire shapes built by PostgreSQL (lib/db/json-rows.ts): the list item and the single job, as
// serializeJobListItem and serializeJob give them. `today` is the tenant's date, for is_overdue.
import type { Caller } from "@/lib/auth/caller";
import { visibleJobsSql } from "@/lib/auth/visibility";
import { isoDate, isoTime, jsonArray, jsonObject, type WireFields } from "@/lib/db/json-rows";
import { Prisma } from "@/lib/generated/prisma/client";
import { readsNested } from "@/lib/tokens/access";
import { userSummaryWire } from "@/lib/users/wire";

/** The list item's fields of the job row `alias`: the single job's first keys too. */
function listItemFields(today: string, alias: string): WireFields {
  const j = (column: string) => Prisma.raw(`${alias}.${column}`);
  return [
    ["uuid", j("uuid")],
    ["name", j("name")],
    [
      "status",
      Prisma.sql`(SELECT slug FROM job_statuses s WHERE (s.tenant_id, s.id) = (${j("tenant_id")}, ${j("status_id")}))`,
    ],
    [
      "client_uuid",
      Prisma.sql`(SELECT uuid FROM clients c WHERE (c.tenant_id, c.id) = (${j("tenant_id")}, ${j("client_id")}))`,
    ],
    ["estimated_hours", Prisma.sql`${j("estimated_hours")}::float8`],
    ["start_date", isoDate(`${alias}.start_date`)],
    ["due_date", isoDate(`${alias}.due_date`)],
    [
      "is_overdue",
      Prisma.sql`NOT ${j("is_completed")} AND ${j("due_date")} IS NOT NULL AND ${j("due_date")} < ${today}::date`,
    ],
    ["is_completed", j("is_completed")],
    ["is_repeating", Prisma.sql`COALESCE(jsonb_typeof(${j("repeat_settings")}::jsonb) <> 'null', false)`],
    ["updated_at", isoTime(`${alias}.updated_at`)],
  ];
}

/** The list item of the job row `alias`. */
export const jobListItemWire = (today: string, alias = "t"): Prisma.Sql => jsonObject(listItemFields(today, alias));

/**
 * Everything of the job row `t` the caller may see: subtasks and the parent only when visible to it; its client and
 * people by identifier only for a token without access to clients or users.
 */
export function jobWire(caller: Caller, today: string): Prisma.Sql {
  const person = readsNested(caller.tokenAccess, "users")
    ? userSummaryWire("u")
    : jsonObject([["id", Prisma.sql`u.id`]]);
  const client = jsonObject([
    ["uuid", Prisma.sql`c.uuid`],
    ...(readsNested(caller.tokenAccess, "clients") ? ([["name", Prisma.sql`c.name`]] as const) : []),
  ]);
  const people = (table: string) => Prisma.sql`COALESCE((
      SELECT ${jsonArray(person, Prisma.sql`u.id`)}
      FROM ${Prisma.raw(table)} p JOIN users u ON (u.tenant_id, u.id) = (p.tenant_id, p.user_id)
      WHERE (p.tenant_id, p.job_id) = (t.tenant_id, t.id)), '[]')`;
  const parent = Prisma.sql`(SELECT ${jsonObject([
    ["uuid", Prisma.sql`pj.uuid`],
    ["name", Prisma.sql`pj.name`],
  ])}
      FROM jobs pj WHERE (pj.tenant_id, pj.id) = (t.tenant_id, t.parent_id) AND ${visibleJobsSql(caller, "pj")})`;
  const tag = jsonObject([
    ["id", Prisma.sql`g.id`],
    ["name", Prisma.sql`g.name`],
  ]);
  return jsonObject([
    ...listItemFields(today, "t"),
    ["description", Prisma.sql`t.description`],
    [
      "status_name",
      Prisma.sql`(SELECT name FROM job_statuses s WHERE (s.tenant_id, s.id) = (t.tenant_id, t.status_id))`,
    ],
    ["client", Prisma.sql`(SELECT ${client} FROM clients c WHERE (c.tenant_id, c.id) = (t.tenant_id, t.client_id))`],
    ["users", people("job_assignees")],
    ["followers", people("job_followers")],
    [
      "tags",
      Prisma.sql`COALESCE((SELECT ${jsonArray(tag, Prisma.sql`g.id`)}
      FROM job_tags jt JOIN tags g ON (g.tenant_id, g.id) = (jt.tenant_id, jt.tag_id)
      WHERE (jt.tenant_id, jt.job_id) = (t.tenant_id, t.id)), '[]')`,
    ],
    ["internal_due_date", isoDate("t.internal_due_date")],
    ["extended_due_date", isoDate("t.extended_due_date")],
    ["completed_date", isoDate("t.completed_date")],
    ["is_subtask", Prisma.sql`t.parent_id IS NOT NULL`],
    ["parent_uuid", Prisma.sql`(${parent}) ->> 'uuid'`],
    ["parent", parent],
    [
      "sub_tasks",
      Prisma.sql`COALESCE((SELECT ${jsonArray(jobListItemWire(today, "sj"), Prisma.sql`sj.due_date ASC NULLS LAST, sj.uuid`)}
      FROM jobs sj WHERE (sj.tenant_id, sj.parent_id) = (t.tenant_id, t.id) AND ${visibleJobsSql(caller, "sj")}), '[]')`,
    ],
  ]);
}
