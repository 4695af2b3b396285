// Wire shape of a contact.
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/api/caller";
import { visibleClients } from "@/lib/auth/visibility";
import type { z } from "zod";
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

export function serializeContact(contact: ContactRow): z.output<typeof contactObject> {
  return {
    uuid: contact.uuid,
    firstname: contact.firstname,
    lastname: contact.lastname,
    preferred_name: contact.preferredName,
    email: contact.email,
    phone_number: contact.phoneNumber,
    portal_enabled: contact.portalEnabled,
    clients: contact.clients.map(({ client }) => ({ uuid: client.uuid, name: client.name })),
  };
}
