// A contact's wire shape built by PostgreSQL (lib/db/json-rows.ts): the fields serializeContact gives, for a
// contact row of any alias, with the clients it is linked to that the caller may see, by name (by uuid only for a
// token without access to clients).
import type { Caller } from "@/lib/auth/caller";
import { visibleClientsSql } from "@/lib/auth/visibility";
import { isoTime, jsonArray, jsonObject } from "@/lib/db/json-rows";
import { Prisma } from "@/lib/generated/prisma/client";
import { readsNested } from "@/lib/tokens/access";

export function contactWire(caller: Caller, alias = "t"): Prisma.Sql {
  const k = (column: string) => Prisma.raw(`${alias}.${column}`);
  const client = jsonObject([
    ["uuid", Prisma.sql`linked.uuid`],
    ...(readsNested(caller.tokenAccess, "clients") ? ([["name", Prisma.sql`linked.name`]] as const) : []),
  ]);
  return jsonObject([
    ["uuid", k("uuid")],
    ["firstname", k("firstname")],
    ["lastname", k("lastname")],
    ["preferred_name", k("preferred_name")],
    ["email", k("email")],
    ["phone_number", k("phone_number")],
    ["portal_enabled", k("portal_enabled")],
    ["updated_at", isoTime(`${alias}.updated_at`)],
    [
      "clients",
      Prisma.sql`COALESCE((
      SELECT ${jsonArray(client, Prisma.sql`linked.name, linked.uuid`)}
      FROM client_contacts link JOIN clients linked ON (linked.tenant_id, linked.id) = (link.tenant_id, link.client_id)
      WHERE link.tenant_id = ${k("tenant_id")} AND link.contact_id = ${k("id")} AND ${visibleClientsSql(caller, "linked")}
    ), '[]')`,
    ],
  ]);
}
