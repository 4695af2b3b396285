import { apiRoute } from "@/lib/api/route";
import { getUser } from "@/lib/users/queries";
import { pathUserId } from "@/lib/users/schemas";
import { serializeUser } from "@/lib/users/serialize";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute<{ id: string }>({
  GET: async ({ params, caller }) => serializeUser(await getUser(caller.db, pathUserId(params.id))),
});
