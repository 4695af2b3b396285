// Validation of contact input: the single source for the handlers and for the OpenAPI document.
import { z } from "zod";
import { updatedAtOutput } from "@/lib/core/dates";
import { component, requestBody } from "@/lib/core/openapi-registry";
import { cursorQuery, paginationQuery, updatedSinceQuery } from "@/lib/core/pagination";
import { orIdentifier } from "@/lib/core/references";
import { text } from "@/lib/core/validation";

const contactFields = {
  firstname: text(100).min(1),
  lastname: text(100).min(1),
  email: text(254).pipe(z.email()).describe("Unique among the firm's contacts, ignoring case"),
  preferred_name: text(100).min(1).optional().describe("Defaults to firstname"),
  phone_number: text(50).nullable().optional(),
  portal_enabled: z.boolean().optional().describe("Default true"),
  client_uuid: z.uuid({ error: "Must be a client uuid." }).optional().describe("Links the contact to this client"),
  title: text(100).nullable().optional().describe("The contact's role at the client given by client_uuid"),
};

export const createContactBody = requestBody(z.object(contactFields), "ContactCreate", {
  firstname: "Amelia",
  lastname: "Hart",
  email: "amelia@harbourbakery.example",
  phone_number: "+44 117 496 0123",
  client_uuid: "0f6c2d7e-6b1a-4c55-9d1e-3a7b2f9c8e41",
  title: "Director",
});

export const updateContactBody = requestBody(
  z.object({
    ...contactFields,
    firstname: contactFields.firstname.optional(),
    lastname: contactFields.lastname.optional(),
    email: contactFields.email.optional(),
  }),
  "ContactUpdate",
  { preferred_name: "Millie", phone_number: null },
);

export type CreateContactBody = z.output<typeof createContactBody>;
export type UpdateContactBody = z.output<typeof updateContactBody>;

export const listContactsQuery = z.object({
  search: text(200).optional().describe("Matches first, last or preferred name"),
  email: text(254).optional().describe("Exact email, ignoring case"),
  sort_by: z
    .enum(["name", "updated_at"])
    .default("name")
    .describe("name: last name, then first name; updated_at: oldest change first. Ties by uuid"),
  ...updatedSinceQuery,
  ...cursorQuery,
  ...paginationQuery,
});

export const contactExample = {
  uuid: "5d1f8a3c-2e47-4b9a-8c61-7f0e9b2d4a18",
  firstname: "Amelia",
  lastname: "Hart",
  preferred_name: "Amelia",
  email: "amelia@harbourbakery.example",
  phone_number: "+44 117 496 0123",
  portal_enabled: true,
  updated_at: "2026-11-20T16:41:27.503Z",
  clients: [{ uuid: "0f6c2d7e-6b1a-4c55-9d1e-3a7b2f9c8e41", name: "Harbour Bakery Ltd" }],
};

/** A contact as the API answers it. */
export const contactObject = component(
  z.object({
    uuid: z.uuid(),
    firstname: z.string(),
    lastname: z.string(),
    preferred_name: z.string(),
    email: z.string(),
    phone_number: z.string().nullable(),
    portal_enabled: z.boolean(),
    updated_at: updatedAtOutput(),
    clients: z
      .array(orIdentifier(z.object({ uuid: z.uuid(), name: z.string() }), "uuid", "clients"))
      .describe("Clients the contact is linked to (those the caller can see)"),
  }),
  "Contact",
  contactExample,
);

export type ListContactsQuery = z.output<typeof listContactsQuery>;
