// Wire shape of a client: the spec's fields, the linked contacts, and every custom field of the tenant.
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/api/caller";
import { contactInclude, serializeContact } from "@/lib/contacts/serialize";
import { customFieldKeys, type FieldDefinition } from "./custom-fields";
import type { z } from "zod";
import type { clientObject } from "./schemas";

export function clientInclude(caller: Caller) {
  return {
    country: { select: { name: true } },
    customValues: { select: { fieldId: true, value: true } },
    contacts: {
      include: { contact: { include: contactInclude(caller) } },
      orderBy: [{ isPrimary: "desc" }, { contact: { lastname: "asc" } }, { contact: { firstname: "asc" } }],
    },
  } satisfies Prisma.ClientInclude;
}

export type ClientRow = Prisma.ClientGetPayload<{ include: ReturnType<typeof clientInclude> }>;

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** `12-31` → `31 December`. */
export function yearEndText(yearEnd: string): string {
  const [month, day] = yearEnd.split("-").map(Number);
  return `${day} ${MONTHS[month - 1]}`;
}

export function serializeClient(client: ClientRow, fields: FieldDefinition[]): z.output<typeof clientObject> {
  return {
    // Custom fields first: built-in keys must win should a name ever collide.
    ...customFieldKeys(fields, client.customValues),
    uuid: client.uuid,
    name: client.name,
    client_id: client.clientRef,
    reg_number: client.regNumber,
    website: client.website,
    country: client.country?.name ?? null,
    state: client.state,
    city: client.city,
    street_address: client.streetAddress,
    postal_code: client.postalCode,
    year_end: client.yearEnd,
    year_end_text: yearEndText(client.yearEnd),
    is_archived: client.isArchived,
    client_status: client.clientStatus,
    created_at: client.createdAt.toISOString(),
    contacts: client.contacts.map(({ contact }) => serializeContact(contact)),
  };
}
