import { apiRoute } from "@/lib/api/route";
import { parseInput, queryObject } from "@/lib/api/validation";
import { listUsers } from "@/lib/users/queries";
import { userListQuery } from "@/lib/users/schemas";
import { serializeUser } from "@/lib/users/serialize";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  GET: async ({ url, caller }) => {
    const query = parseInput(userListQuery, queryObject(url.searchParams));
    return { data: (await listUsers(caller.db, query.search)).map(serializeUser) };
  },
});
