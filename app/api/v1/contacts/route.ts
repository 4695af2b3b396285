import { apiRoute, created } from "@/lib/api/route";
import { parseInput, queryObject } from "@/lib/api/validation";
import { createContact } from "@/lib/contacts/mutations";
import { listContacts } from "@/lib/contacts/queries";
import { createContactSchema, listContactsQuery } from "@/lib/contacts/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  GET: async ({ caller, url }) =>
    listContacts(caller, parseInput(listContactsQuery, queryObject(url.searchParams)), url),
  POST: async ({ caller, body }) => created(await createContact(caller, parseInput(createContactSchema, body))),
});
