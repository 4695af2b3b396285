// A client's wire shape built by PostgreSQL (lib/db/json-rows.ts): what serializeClient gives, its custom fields
// (every field of the tenant, null when unset) first so that built-in keys win a name collision, as there.
import type { Caller } from "@/lib/auth/caller";
import { contactWire } from "@/lib/contacts/wire";
import { isoTime } from "@/lib/db/json-rows";
import { Prisma } from "@/lib/generated/prisma/client";
import { readsNested } from "@/lib/tokens/access";

const MONTHS = Prisma.raw(
  "ARRAY['January','February','March','April','May','June','July','August','September','October','November','December']",
);

export function clientWire(caller: Caller): Prisma.Sql {
  // A token without access to contacts gets each contact's uuid only.
  const contact = readsNested(caller.tokenAccess, "contacts")
    ? contactWire(caller, "k")
    : Prisma.sql`json_build_object('uuid', k.uuid)`;
  const builtIn = Prisma.sql`json_build_object(
    'uuid', t.uuid, 'name', t.name, 'client_id', t.client_ref, 'reg_number', t.reg_number, 'website', t.website,
    'country', (SELECT name FROM countries WHERE id = t.country_id),
    'state', t.state, 'city', t.city, 'street_address', t.street_address, 'postal_code', t.postal_code,
    'year_end', t.year_end,
    'year_end_text', split_part(t.year_end, '-', 2)::int || ' ' || (${MONTHS})[split_part(t.year_end, '-', 1)::int],
    'is_archived', t.is_archived, 'client_status', t.client_status,
    'created_at', ${isoTime("t.created_at")}, 'updated_at', ${isoTime("t.updated_at")},
    'contacts', COALESCE((
      SELECT json_agg(${contact} ORDER BY cc.is_primary DESC, k.lastname, k.firstname, k.uuid)
      FROM client_contacts cc JOIN contacts k ON (k.tenant_id, k.id) = (cc.tenant_id, cc.contact_id)
      WHERE cc.tenant_id = t.tenant_id AND cc.client_id = t.id
    ), '[]'))::text`;
  // The custom fields' object and the built-in one joined as text: `{custom…, built-in…}`. OFFSET 0 keeps the
  // planner from pulling the parts up into the CASE, which ran each part's subqueries once per mention.
  return Prisma.sql`(SELECT CASE WHEN custom IS NULL THEN built ELSE left(custom, -1) || ', ' || substr(built, 2) END
    FROM (SELECT ${builtIn} AS built, (
      SELECT json_object_agg(f.name, v.value ORDER BY f.position, f.id)::text
      FROM custom_fields f
      LEFT JOIN custom_field_values v ON (v.tenant_id, v.field_id, v.client_id) = (f.tenant_id, f.id, t.id)
      WHERE f.tenant_id = t.tenant_id) AS custom OFFSET 0) AS parts)::json`;
}
