import { apiRoute } from "@/lib/api/route";
import { parseInput, queryObject } from "@/lib/api/validation";
import { searchClients } from "@/lib/clients/queries";
import { searchClientsQuery } from "@/lib/clients/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(
  {
    GET: async ({ caller, url }) =>
      searchClients(caller, parseInput(searchClientsQuery, queryObject(url.searchParams))),
  },
  // Type-ahead search is cheap to call and costly to answer: a lower limit than the API-wide one.
  { rateLimit: "search" },
);
