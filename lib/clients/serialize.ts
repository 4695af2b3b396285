// Wire shape of a client: the spec's fields, the linked contacts, and every custom field of the tenant.
import type { z } from "zod";
import { serializeContact } from "@/lib/contacts/serialize";
import type { Prisma } from "@/lib/generated/prisma/client";
import { customFieldKeys, type FieldDefinition } from "./custom-fields";
import type { ClientRelations } from "./relations";
import { CLIENT_KEYS, type clientObject } from "./schemas";

/** A client's own columns; the rest of its wire shape comes from lib/clients/relations. */
export const clientSelect = {
  id: true,
  uuid: true,
  name: true,
  clientRef: true,
  regNumber: true,
  website: true,
  state: true,
  city: true,
  streetAddress: true,
  postalCode: true,
  yearEnd: true,
  isArchived: true,
  clientStatus: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.ClientSelect;

type ClientColumns = Prisma.ClientGetPayload<{ select: typeof clientSelect }>;

/** What serializing a client reads: its columns, its relations and the tenant's custom field definitions. */
export type ClientRecord = ClientColumns & { relations: ClientRelations; customFields: FieldDefinition[] };

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** `12-31` → `31 December`. */
function yearEndText(yearEnd: string): string {
  const [month, day] = yearEnd.split("-").map(Number);
  return `${day} ${MONTHS[month - 1]}`;
}

export function serializeClient(client: ClientRecord): z.output<typeof clientObject> {
  // The custom fields after the documented keys (lib/clients/wire.ts); one named like a built-in key is left out.
  const custom = client.customFields.filter((field) => !CLIENT_KEYS.includes(field.name));
  return {
    uuid: client.uuid,
    name: client.name,
    client_id: client.clientRef,
    reg_number: client.regNumber,
    website: client.website,
    country: client.relations.country,
    state: client.state,
    city: client.city,
    street_address: client.streetAddress,
    postal_code: client.postalCode,
    year_end: client.yearEnd,
    year_end_text: yearEndText(client.yearEnd),
    is_archived: client.isArchived,
    client_status: client.clientStatus,
    created_at: client.createdAt.toISOString(),
    updated_at: client.updatedAt.toISOString(),
    contacts: client.relations.contacts.map(serializeContact),
    ...customFieldKeys(custom, client.relations.customValues),
  };
}
