import { apiRoute, endpoint } from "@/lib/api/route";
import { getUser } from "@/lib/users/queries";
import { pathUserId } from "@/lib/users/schemas";
import { serializeUser } from "@/lib/users/serialize";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute("users", {
  GET: endpoint({
    load: (caller, params) => getUser(caller, pathUserId(params.id)),
    handler: async ({ record }) => serializeUser(record),
  }),
});
