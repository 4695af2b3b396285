// The audit entries of contacts' creates and updates (see lib/clients/audit.ts).
import { changesBetween, type Fields } from "@/lib/audit/entries";
import type { AuditEntry } from "@/lib/audit/mutations";
import type { Tx } from "@/lib/webhooks/outbox";
import type { CreateContactBody, UpdateContactBody } from "./schemas";

const contactName = (c: { firstname: string; lastname: string }) => `${c.firstname} ${c.lastname}`.trim();

/** A contact created alone, or with a client (the client's nested `contact`). */
export function contactCreated(
  contact: { uuid: string; firstname: string; lastname: string },
  input: Fields & Pick<CreateContactBody, "firstname" | "preferred_name">,
): AuditEntry {
  return {
    action: "contact.created",
    target: { type: "contact", uuid: contact.uuid, name: contactName(contact) },
    changes: changesBetween({}, { ...input, preferred_name: input.preferred_name ?? input.firstname }),
  };
}

/**
 * Reads the contact as it is before the update and answers the update's entry. A sent client_uuid links the contact
 * to that client (or changes the link's title): `client_uuid` changes from null when the link is new.
 */
export async function contactUpdated(tx: Tx, id: number, input: UpdateContactBody, client: { id: number } | null) {
  const row = await tx.contact.findFirstOrThrow({
    where: { id },
    include: { clients: client ? { where: { clientId: client.id }, select: { title: true } } : false },
  });
  const link = row.clients?.[0];
  const before: Fields = {
    firstname: row.firstname,
    lastname: row.lastname,
    preferred_name: row.preferredName,
    email: row.email,
    phone_number: row.phoneNumber,
    portal_enabled: row.portalEnabled,
    client_uuid: link ? input.client_uuid : null,
    title: link?.title ?? null,
  };
  return {
    action: "contact.updated",
    target: { type: "contact", uuid: row.uuid, name: contactName({ ...row, ...withDefined(input) }) },
    changes: changesBetween(before, { ...input, title: client ? input.title : undefined }),
  } satisfies AuditEntry;
}

const withDefined = <T extends object>(fields: T) =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null)) as Partial<T>;
