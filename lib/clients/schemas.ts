// Validation of client input: the single source for the handlers and for the OpenAPI document.
import { z } from "zod";
import { contactExample, contactObject } from "@/lib/contacts/schemas";
import { updatedAtOutput } from "@/lib/core/dates";
import { component, requestBody } from "@/lib/core/openapi-registry";
import { cursorQuery, paginationQuery, updatedSinceQuery } from "@/lib/core/pagination";
import { orIdentifier, queryId, recordId } from "@/lib/core/references";
import { queryBoolean, queryList, SORT_DIRECTIONS, text } from "@/lib/core/validation";
import { customFieldsInput } from "./custom-fields";

const CLIENT_STATUSES = ["prospect", "active"] as const;

const idList = () => z.array(recordId()).max(100);
const optionalText = (max: number) => text(max).nullable().optional();

/** `MM-DD` of a real day of the year; 02-29 is allowed (leap years have it). */
const yearEnd = z
  .string()
  .regex(/^\d{2}-\d{2}$/, "Must be a month and day as MM-DD.")
  .refine((s) => {
    const [m, d] = s.split("-").map(Number);
    return m >= 1 && m <= 12 && d >= 1 && d <= new Date(Date.UTC(2024, m, 0)).getUTCDate();
  }, "Must be a real day of the year.");

const nestedContact = z.object({
  firstname: text(100).min(1),
  lastname: text(100).min(1),
  email: text(254).pipe(z.email()),
  title: optionalText(100),
  phone_number: optionalText(50),
  include_for_client_requests: z.boolean().optional(),
});

const clientFields = {
  name: text(100).min(1).describe("The client's name"),
  client_status: z.enum(CLIENT_STATUSES).optional(),
  client_id: optionalText(100).describe("The firm's own reference; unique in the firm, ignoring case"),
  reg_number: optionalText(100).describe("Business registration number; unique in the firm, ignoring case"),
  website: text(255)
    .pipe(z.url({ protocol: /^https?$/, error: "Must be a valid http(s) URL." }))
    .nullable()
    .optional(),
  country_id: recordId().nullable().optional().describe("Id from the countries reference (ISO 3166 numeric code)"),
  user_id: recordId().nullable().optional().describe("Account manager: a user of the firm"),
  state: optionalText(100),
  city: optionalText(100),
  street_address: optionalText(255),
  postal_code: optionalText(20),
  client_groups: idList().optional().describe("Client group ids; replaces the client's groups"),
  tags: idList().optional().describe("Tag ids; replaces the client's tags"),
  year_end: yearEnd.optional(),
  custom_fields: customFieldsInput.optional(),
};

export const createClientBody = requestBody(
  z.object({ ...clientFields, contact: nestedContact.optional() }),
  "ClientCreate",
  {
    name: "Harbour Bakery Ltd",
    client_status: "active",
    client_id: "HB-0042",
    reg_number: "09876543",
    website: "https://harbourbakery.example",
    country_id: 826,
    city: "Bristol",
    year_end: "03-31",
    custom_fields: { "VAT number": "GB123456789" },
    contact: { firstname: "Amelia", lastname: "Hart", email: "amelia@harbourbakery.example", title: "Director" },
  },
);

export const updateClientBody = requestBody(
  z.object({
    ...clientFields,
    name: clientFields.name.optional(),
    is_archived: z.boolean().optional(),
  }),
  "ClientUpdate",
  { client_status: "active", website: null, tags: [3, 7] },
);

export type CreateClientBody = z.output<typeof createClientBody>;
export type UpdateClientBody = z.output<typeof updateClientBody>;

export const listClientsQuery = z.object({
  // One line: the fields it matches are stored one per line (lib/clients/queries.ts), and no field is searched
  // across a line break.
  search: text(200)
    .refine((s) => !s.includes("\n"), "Must be a single line.")
    .optional(),
  tags: queryList(queryId()).optional(),
  country_id: queryId().optional(),
  contact_email: text(254).optional(),
  client_status: z.enum(CLIENT_STATUSES).optional(),
  include_archived: queryBoolean().optional(),
  sort_by: z.enum(["name", "created_at", "updated_at"]).optional().describe("Sort key (default name); ties by uuid"),
  sort_direction: z.enum(SORT_DIRECTIONS).optional(),
  ...updatedSinceQuery,
  ...cursorQuery,
  ...paginationQuery,
});

export const searchClientsQuery = z.object({ q: text(200).min(1) });

/** A client as the API answers it. Each custom field of the firm is one more top-level key. */
export const clientObject = component(
  z
    .object({
      uuid: z.uuid(),
      name: z.string(),
      client_id: z.string().nullable().describe("The firm's own reference"),
      reg_number: z.string().nullable(),
      website: z.string().nullable(),
      country: z.string().nullable().describe("Country name"),
      state: z.string().nullable(),
      city: z.string().nullable(),
      street_address: z.string().nullable(),
      postal_code: z.string().nullable(),
      year_end: z
        .string()
        .regex(/^\d{2}-\d{2}$/)
        .describe("Financial year end, MM-DD"),
      year_end_text: z.string().describe("e.g. 31 December"),
      is_archived: z.boolean(),
      client_status: z.enum(CLIENT_STATUSES),
      created_at: z.iso.datetime(),
      updated_at: updatedAtOutput(),
      contacts: z.array(orIdentifier(contactObject, "uuid", "contacts")),
    })
    .catchall(z.unknown().describe("A custom field of the firm, null when unset"))
    .describe(
      "A client. Each custom field of the firm is one more top-level key, named after the field (null when " +
        "unset); they are not typed here, so read them by name, e.g. client['VAT number'].",
    ),
  "Client",
  {
    uuid: "0f6c2d7e-6b1a-4c55-9d1e-3a7b2f9c8e41",
    name: "Harbour Bakery Ltd",
    client_id: "HB-0042",
    reg_number: "09876543",
    website: "https://harbourbakery.example",
    country: "United Kingdom",
    state: null,
    city: "Bristol",
    street_address: null,
    postal_code: null,
    year_end: "03-31",
    year_end_text: "31 March",
    is_archived: false,
    client_status: "active",
    created_at: "2026-11-02T09:14:05.120Z",
    updated_at: "2026-11-20T16:41:27.503Z",
    contacts: [contactExample],
  },
);

/** The built-in keys of a client, in the document's order; a custom field of the same name is left out of answers. */
export const CLIENT_KEYS = Object.keys(clientObject.shape);

export const clientSearchResults = component(
  z.object({ clients: z.array(z.object({ id: z.number().int(), uuid: z.uuid(), name: z.string() })).max(10) }),
  "ClientSearchResults",
);

export type ListClientsQuery = z.output<typeof listClientsQuery>;
export type SearchClientsQuery = z.output<typeof searchClientsQuery>;
