// A time log's wire shape built by PostgreSQL (lib/db/json-rows.ts), as serializeTimeLog gives it: time in whole
// minutes, shown as hours (two decimals) and HH:MM; the date also as people read it (`21 Nov 2026`).
import type { Caller } from "@/lib/auth/caller";
import { isoDate, isoTime, jsonObject } from "@/lib/db/json-rows";
import { Prisma } from "@/lib/generated/prisma/client";
import { readsNested, type TokenAccess } from "@/lib/tokens/access";
import { userNameWire } from "@/lib/users/wire";

/** The client or job of the time log, by uuid and name, or by uuid only for a token without access to it. */
function named(access: TokenAccess, table: "clients" | "jobs", key: string) {
  const object = jsonObject([
    ["uuid", Prisma.sql`r.uuid`],
    ...(readsNested(access, table) ? ([["name", Prisma.sql`r.name`]] as const) : []),
  ]);
  return Prisma.sql`(SELECT ${object} FROM ${Prisma.raw(table)} r WHERE (r.tenant_id, r.id) = (t.tenant_id, t.${Prisma.raw(key)}))`;
}

const twoDigits = (value: string) => `CASE WHEN ${value} < 10 THEN '0' ELSE '' END || ${value}`;

export function timeLogWire({ tokenAccess }: Caller): Prisma.Sql {
  const user = readsNested(tokenAccess, "users") ? userNameWire("u") : jsonObject([["id", Prisma.sql`u.id`]]);
  return jsonObject([
    ["uuid", Prisma.sql`t.uuid`],
    ["client", named(tokenAccess, "clients", "client_id")],
    ["task", named(tokenAccess, "jobs", "job_id")],
    ["user", Prisma.sql`(SELECT ${user} FROM users u WHERE (u.tenant_id, u.id) = (t.tenant_id, t.user_id))`],
    ["note", Prisma.sql`t.note`],
    ["hours", Prisma.sql`round(t.minutes / 60.0, 2)::float8`],
    ["hours_time", Prisma.raw(`${twoDigits("t.minutes / 60")} || ':' || ${twoDigits("t.minutes % 60")}`)],
    ["date", isoDate("t.date")],
    [
      "formatted_date",
      Prisma.sql`extract(day FROM t.date)::int || ' ' || to_char(t.date, 'Mon') || ' ' || extract(year FROM t.date)::int`,
    ],
    ["created_at", isoTime("t.created_at")],
    ["updated_at", isoTime("t.updated_at")],
  ]);
}
