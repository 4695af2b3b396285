// A client's wire shape built by PostgreSQL (lib/db/json-rows.ts): what serializeClient gives, its custom fields
// (every field of the tenant, null when unset, none named like a built-in key) after the documented keys.
import type { Caller } from "@/lib/auth/caller";
import { contactWire } from "@/lib/contacts/wire";
import { isoTime, jsonArray, jsonObject } from "@/lib/db/json-rows";
import { Prisma } from "@/lib/generated/prisma/client";
import { readsNested } from "@/lib/tokens/access";
import { CLIENT_KEYS } from "./schemas";

const MONTHS = Prisma.raw(
  "ARRAY['January','February','March','April','May','June','July','August','September','October','November','December']",
);

const BUILT_IN = Prisma.raw(`ARRAY[${CLIENT_KEYS.map((key) => `'${key}'`).join(", ")}]`);

export function clientWire(caller: Caller): Prisma.Sql {
  // A token without access to contacts gets each contact's uuid only.
  const contact = readsNested(caller.tokenAccess, "contacts")
    ? contactWire(caller, "k")
    : jsonObject([["uuid", Prisma.sql`k.uuid`]]);
  const builtIn = jsonObject([
    ["uuid", Prisma.sql`t.uuid`],
    ["name", Prisma.sql`t.name`],
    ["client_id", Prisma.sql`t.client_ref`],
    ["reg_number", Prisma.sql`t.reg_number`],
    ["website", Prisma.sql`t.website`],
    ["country", Prisma.sql`(SELECT name FROM countries WHERE id = t.country_id)`],
    ["state", Prisma.sql`t.state`],
    ["city", Prisma.sql`t.city`],
    ["street_address", Prisma.sql`t.street_address`],
    ["postal_code", Prisma.sql`t.postal_code`],
    ["year_end", Prisma.sql`t.year_end`],
    [
      "year_end_text",
      Prisma.sql`split_part(t.year_end, '-', 2)::int || ' ' || (${MONTHS})[split_part(t.year_end, '-', 1)::int]`,
    ],
    ["is_archived", Prisma.sql`t.is_archived`],
    ["client_status", Prisma.sql`t.client_status`],
    ["created_at", isoTime("t.created_at")],
    ["updated_at", isoTime("t.updated_at")],
    [
      "contacts",
      Prisma.sql`COALESCE((
      SELECT ${jsonArray(contact, Prisma.sql`cc.is_primary DESC, k.lastname, k.firstname, k.uuid`)}
      FROM client_contacts cc JOIN contacts k ON (k.tenant_id, k.id) = (cc.tenant_id, cc.contact_id)
      WHERE cc.tenant_id = t.tenant_id AND cc.client_id = t.id
    ), '[]')`,
    ],
  ]);
  // The custom fields' members (`"name":value,…`, compact) joined as text into the built-in object, after its keys:
  // their names are the tenant's, so no row_to_json. OFFSET 0 keeps the planner from pulling the parts up into the
  // CASE, which ran each part's subqueries once per mention.
  return Prisma.sql`(SELECT CASE WHEN custom IS NULL THEN built ELSE left(built, -1) || ',' || custom || '}' END
    FROM (SELECT ${builtIn}::text AS built, (
      SELECT string_agg(to_json(f.name)::text || ':' || COALESCE(v.value::text, 'null'), ',' ORDER BY f.position, f.id)
      FROM custom_fields f
      LEFT JOIN custom_field_values v ON (v.tenant_id, v.field_id, v.client_id) = (f.tenant_id, f.id, t.id)
      WHERE f.tenant_id = t.tenant_id AND f.name <> ALL (${BUILT_IN})) AS custom OFFSET 0) AS parts)::json`;
}
