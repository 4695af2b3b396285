import { apiRoute, endpoint } from "@/lib/api/route";
import { listUsers } from "@/lib/users/queries";
import { listUsersQuery } from "@/lib/users/schemas";
import { serializeUser } from "@/lib/users/serialize";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute("users", {
  GET: endpoint({
    query: listUsersQuery,
    handler: async ({ caller, query }) => ({ data: (await listUsers(caller, query)).map(serializeUser) }),
  }),
});
