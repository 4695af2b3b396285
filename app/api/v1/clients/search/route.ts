import { apiRoute, endpoint } from "@/lib/api/route";
import { searchClients } from "@/lib/clients/queries";
import { searchClientsQuery } from "@/lib/clients/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(
  "clients",
  { GET: endpoint({ query: searchClientsQuery, handler: async ({ caller, query }) => searchClients(caller, query) }) },
  // Type-ahead search is cheap to call and costly to answer: a lower limit than the API-wide one.
  { rateLimit: "search" },
);
