import { jsonText } from "@/lib/api/pagination";
import { apiRoute, endpoint } from "@/lib/api/route";
import { userJson } from "@/lib/users/queries";
import { pathUserId } from "@/lib/users/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute("users", {
  GET: endpoint({
    load: (caller, params) => userJson(caller, pathUserId(params.id)),
    handler: async ({ record }) => jsonText(record),
  }),
});
