// Reads answered by PostgreSQL as wire JSON (issue 29): the rows of a page, or one record, built by json_build_object
// in one statement and handed on as text, which the app sends as the body without parsing it (PostgREST's way).
// Each resource gives the expression of its wire object for a row of its table (alias `t`); this builder puts that
// row in the caller's tenant in every statement, so no resource can leave the condition out. Raw SQL is outside
// caller.db's tenant scope (lib/db/tenant.ts): this is where it is named instead.

import { forbidden, notFound } from "@/lib/core/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { readRows } from "./client";
import { missingRecord, type UuidModel } from "./records";
import type { TenantScope } from "./tenant";

/** The tables whose rows have a wire shape built here. */
export type WireTable = "clients" | "contacts" | "jobs" | "time_logs" | "users";

/** The wire object of one row `t` of the table; nested reads correlate on `t.tenant_id`. */
export type WireObject = Prisma.Sql;

/** A timestamp as the API writes it: ISO 8601 in UTC with milliseconds (`2026-11-21T21:48:21.000Z`). */
export const isoTime = (column: string) =>
  Prisma.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** A date as the API writes it: `YYYY-MM-DD`. */
export const isoDate = (column: string) => Prisma.raw(`to_char(${column}, 'YYYY-MM-DD')`);

/** The JSON text of the array of these rows' wire objects, in their order (rows gone since are left out). */
export async function wireRows(scope: TenantScope, table: WireTable, rows: { id: number }[], object: WireObject) {
  if (rows.length === 0) return "[]";
  const ids = rows.map((row) => row.id);
  const [row] = await readRows<{ json: string }>(Prisma.sql`
    SELECT COALESCE(json_agg(${object} ORDER BY p.ord), '[]')::text AS json
    FROM unnest(${ids}::int[]) WITH ORDINALITY AS p(id, ord)
    JOIN ${Prisma.raw(table)} t ON t.tenant_id = ${scope.tenant.id} AND t.id = p.id`);
  return row.json;
}

/** The JSON text of the wire object of the row meeting `condition` (on `t`, one row at most), or null when none does. */
export async function findWireRecord(scope: TenantScope, table: WireTable, condition: Prisma.Sql, object: WireObject) {
  const [row] = await readRows<{ json: string }>(Prisma.sql`
    SELECT (${object})::text AS json FROM ${Prisma.raw(table)} t WHERE t.tenant_id = ${scope.tenant.id} AND ${condition}`);
  return row ? row.json : null;
}

/** The JSON text of the wire object of the row with this id (a record just written); a 404 naming `what` if gone. */
export async function wireRecord(scope: TenantScope, table: WireTable, id: number, object: WireObject, what: string) {
  const json = await findWireRecord(scope, table, Prisma.sql`t.id = ${id}`, object);
  if (json === null) throw notFound(what);
  return json;
}

/**
 * The JSON text of the wire object of the record with this uuid, found, checked against the caller's visibility
 * (`visible`, a condition on `t`) and written in one statement; when the caller cannot have it, the 404 or 403 that
 * findVisible gives (lib/db/records.ts).
 */
export async function visibleWireRecord(
  scope: TenantScope,
  model: UuidModel,
  table: WireTable,
  uuid: string,
  visible: Prisma.Sql,
  object: WireObject,
) {
  const [row] = await readRows<{ json: string | null }>(Prisma.sql`
    SELECT CASE WHEN ${visible} THEN (${object})::text END AS json
    FROM ${Prisma.raw(table)} t WHERE t.tenant_id = ${scope.tenant.id} AND t.uuid = ${uuid}::uuid`);
  if (!row) throw await missingRecord(model, uuid);
  if (row.json === null) throw forbidden();
  return row.json;
}
