// Wire shape of a contact.

import type { z } from "zod";
import type { Caller } from "@/lib/auth/caller";
import { visibleClients } from "@/lib/auth/visibility";
import type { Contact, Prisma } from "@/lib/generated/prisma/client";
import type { contactObject } from "./schemas";

/** What a contact needs loaded to be serialized: its links to the clients the caller may see. */
export function contactInclude(caller: Caller) {
  const clients = visibleClients(caller);
  return {
    clients: {
      where: clients ? { client: clients } : undefined,
      select: { client: { select: { uuid: true, name: true } } },
      orderBy: { client: { name: "asc" } },
    },
  } satisfies Prisma.ContactInclude;
}

export type ContactRow = Prisma.ContactGetPayload<{ include: ReturnType<typeof contactInclude> }>;

/** What serializing a contact reads: a row loaded with contactInclude, or a client's contact (lib/clients/relations). */
export type ContactShape = Pick<
  Contact,
  "uuid" | "firstname" | "lastname" | "preferredName" | "email" | "phoneNumber" | "portalEnabled" | "updatedAt"
> & {
  clients: { client: { uuid: string; name: string } }[];
};

export function serializeContact(contact: ContactShape): z.output<typeof contactObject> {
  return {
    uuid: contact.uuid,
    firstname: contact.firstname,
    lastname: contact.lastname,
    preferred_name: contact.preferredName,
    email: contact.email,
    phone_number: contact.phoneNumber,
    portal_enabled: contact.portalEnabled,
    // A client's contacts come from JSON (lib/clients/relations), where the time is a string.
    updated_at: new Date(contact.updatedAt).toISOString(),
    clients: contact.clients.map(({ client }) => ({ uuid: client.uuid, name: client.name })),
  };
}
