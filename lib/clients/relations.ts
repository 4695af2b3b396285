// What a client shows besides its own columns (country, custom values, contacts with their clients), for a whole
// page in one statement (a chain of seven Prisma queries cost most of a page: bench/RESULTS.md, "Relations in one
// statement"). Raw SQL is outside caller.db's tenant scope, so the statement names the tenant itself.
import type { Caller } from "@/lib/auth/caller";
import { visibleClients } from "@/lib/auth/visibility";
import type { ContactShape } from "@/lib/contacts/serialize";
import { Prisma } from "@/lib/generated/prisma/client";

export interface ClientRelations {
  country: string | null;
  customValues: { fieldId: number; value: unknown }[];
  contacts: ContactShape[];
}

/** For a client deleted between reading its row and its relations. */
export const NO_RELATIONS: ClientRelations = { country: null, customValues: [], contacts: [] };

type LinkedClient = { id: number; uuid: string; name: string };
type ClientRelationsRow = Omit<ClientRelations, "contacts"> & {
  id: number;
  contacts: (Omit<ContactShape, "clients"> & { clients: LinkedClient[] })[];
};

function clientRelationsSql(tenantId: number, clientIds: number[]) {
  return Prisma.sql`
    SELECT c.id,
      (SELECT name FROM countries WHERE id = c.country_id) AS country,
      COALESCE((
        SELECT json_agg(json_build_object('fieldId', v.field_id, 'value', v.value))
        FROM custom_field_values v WHERE v.tenant_id = c.tenant_id AND v.client_id = c.id
      ), '[]') AS "customValues",
      COALESCE((
        SELECT json_agg(json_build_object(
          'uuid', k.uuid, 'firstname', k.firstname, 'lastname', k.lastname, 'preferredName', k.preferred_name,
          'email', k.email, 'phoneNumber', k.phone_number, 'portalEnabled', k.portal_enabled, 'updatedAt', k.updated_at,
          'clients', COALESCE((
            SELECT json_agg(json_build_object('id', linked.id, 'uuid', linked.uuid, 'name', linked.name) ORDER BY linked.name, linked.uuid)
            FROM client_contacts link JOIN clients linked ON (linked.tenant_id, linked.id) = (link.tenant_id, link.client_id)
            WHERE link.tenant_id = k.tenant_id AND link.contact_id = k.id
          ), '[]')
        ) ORDER BY cc.is_primary DESC, k.lastname, k.firstname, k.uuid)
        FROM client_contacts cc JOIN contacts k ON (k.tenant_id, k.id) = (cc.tenant_id, cc.contact_id)
        WHERE cc.tenant_id = c.tenant_id AND cc.client_id = c.id
      ), '[]') AS contacts
    FROM clients c
    WHERE c.tenant_id = ${tenantId} AND c.id = ANY(${clientIds}::int[])`;
}

/** The relations of these clients of the caller's tenant, by client id. */
export async function loadClientRelations(caller: Caller, clientIds: number[]): Promise<Map<number, ClientRelations>> {
  if (clientIds.length === 0) return new Map();
  const rows = await caller.db.$queryRaw<ClientRelationsRow[]>(clientRelationsSql(caller.tenant.id, clientIds));
  return relationsById(rows, await linkedClientVisibility(caller, rows));
}

/** The statement's rows by client id, each contact listing the linked clients that pass `isVisible`. */
function relationsById(
  rows: ClientRelationsRow[],
  isVisible: (clientId: number) => boolean,
): Map<number, ClientRelations> {
  return new Map(
    rows.map(({ id, contacts, ...rest }) => [
      id,
      {
        ...rest,
        contacts: contacts.map((contact) => ({
          ...contact,
          clients: contact.clients
            .filter((linked) => isVisible(linked.id))
            .map(({ uuid, name }) => ({ client: { uuid, name } })),
        })),
      },
    ]),
  );
}

/**
 * A contact lists only the clients the caller may see. The rule is the Prisma filter of lib/auth/visibility, so
 * for a caller who does not see every client it is asked of the linked clients in one more query.
 */
async function linkedClientVisibility(
  caller: Caller,
  rows: ClientRelationsRow[],
): Promise<(clientId: number) => boolean> {
  const filter = visibleClients(caller);
  if (!filter) return () => true;
  const linkedIds = [
    ...new Set(rows.flatMap((row) => row.contacts.flatMap((contact) => contact.clients.map((linked) => linked.id)))),
  ];
  const visible = await caller.db.client.findMany({
    where: { AND: [{ id: { in: linkedIds } }, filter] },
    select: { id: true },
  });
  const ids = new Set(visible.map((client) => client.id));
  return (clientId) => ids.has(clientId);
}
