// Reads answered by PostgreSQL as wire JSON (issue 29): the rows of a page, or one record, built in one statement and
// handed on as text, which the app sends as the body without parsing it (PostgREST's way). The text is what
// JSON.stringify would write (docs/architecture.md, "The JSON style"): jsonObject and jsonArray below, never
// json_build_object or json_agg, which space their output (`{"id" : 2, "name" : …}`, `[{…}, {…}]`).
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

/** A wire object's keys, each with its value's SQL, in the order the OpenAPI document gives its properties. */
export type WireFields = readonly (readonly [key: string, value: Prisma.Sql])[];

/**
 * The compact JSON object of these fields, keys in their order: row_to_json of a one-row subselect whose columns
 * are the fields (jsonb would reorder the keys, by length).
 */
export function jsonObject(fields: WireFields): Prisma.Sql {
  const columns = fields.map(([key, value]) => {
    // A key is spliced in as a column name: only plain names get there.
    if (!/^[a-z_]+$/.test(key)) throw new Error(`Not a plain key: ${key}`);
    return Prisma.sql`${value} AS "${Prisma.raw(key)}"`;
  });
  return Prisma.sql`(SELECT row_to_json(o) FROM (SELECT ${Prisma.join(columns, ", ")}) o)`;
}

/** The compact JSON array of `element` over the rows aggregated, in `order`; null when there are none. */
export const jsonArray = (element: Prisma.Sql, order: Prisma.Sql) =>
  Prisma.sql`array_to_json(array_agg(${element} ORDER BY ${order}))`;

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
    SELECT COALESCE(${jsonArray(object, Prisma.sql`p.ord`)}, '[]')::text AS json
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
