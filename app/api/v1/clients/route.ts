import { apiRoute, created } from "@/lib/api/route";
import { parseInput, queryObject } from "@/lib/api/validation";
import { createClient } from "@/lib/clients/mutations";
import { listClients } from "@/lib/clients/queries";
import { createClientSchema, listClientsQuery } from "@/lib/clients/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  GET: async ({ caller, url }) => listClients(caller, parseInput(listClientsQuery, queryObject(url.searchParams)), url),
  POST: async ({ caller, body }) => created(await createClient(caller, parseInput(createClientSchema, body))),
});
