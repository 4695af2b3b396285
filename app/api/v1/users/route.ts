import { jsonText } from "@/lib/api/pagination";
import { apiRoute, endpoint } from "@/lib/api/route";
import { listUsersJson } from "@/lib/users/queries";
import { listUsersQuery } from "@/lib/users/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute("users", {
  GET: endpoint({
    query: listUsersQuery,
    handler: async ({ caller, query }) => jsonText(`{"data":${await listUsersJson(caller, query)}}`),
  }),
});
