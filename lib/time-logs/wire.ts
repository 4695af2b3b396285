// A time log's wire shape built by PostgreSQL (lib/db/json-rows.ts), as serializeTimeLog gives it: time in whole
// minutes, shown as hours (two decimals) and HH:MM; the date also as people read it (`21 Nov 2026`).
import type { Caller } from "@/lib/auth/caller";
import { isoDate, isoTime } from "@/lib/db/json-rows";
import { Prisma } from "@/lib/generated/prisma/client";
import { readsNested, type TokenAccess } from "@/lib/tokens/access";
import { userNameWire } from "@/lib/users/wire";

/** The client or job of the time log, by uuid and name, or by uuid only for a token without access to it. */
const named = (access: TokenAccess, table: "clients" | "jobs", key: string) =>
  Prisma.raw(`(SELECT json_build_object('uuid', r.uuid${readsNested(access, table) ? ", 'name', r.name" : ""})
    FROM ${table} r WHERE (r.tenant_id, r.id) = (t.tenant_id, t.${key}))`);

const twoDigits = (value: string) => `CASE WHEN ${value} < 10 THEN '0' ELSE '' END || ${value}`;

export const timeLogWire = ({ tokenAccess }: Caller): Prisma.Sql => Prisma.sql`json_build_object(
  'uuid', t.uuid, 'client', ${named(tokenAccess, "clients", "client_id")}, 'task', ${named(tokenAccess, "jobs", "job_id")},
  'user', (SELECT ${readsNested(tokenAccess, "users") ? userNameWire("u") : Prisma.raw("json_build_object('id', u.id)")}
    FROM users u WHERE (u.tenant_id, u.id) = (t.tenant_id, t.user_id)),
  'note', t.note,
  'hours', round(t.minutes / 60.0, 2)::float8,
  'hours_time', ${Prisma.raw(twoDigits("t.minutes / 60"))} || ':' || ${Prisma.raw(twoDigits("t.minutes % 60"))},
  'date', ${isoDate("t.date")},
  'formatted_date', extract(day FROM t.date)::int || ' ' || to_char(t.date, 'Mon') || ' ' || extract(year FROM t.date)::int,
  'created_at', ${isoTime("t.created_at")}, 'updated_at', ${isoTime("t.updated_at")})`;
