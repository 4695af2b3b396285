import { apiRoute, endpoint } from "@/lib/api/route";
import { serializeProfile } from "@/lib/users/serialize";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute("/me", {
  GET: endpoint({ handler: async ({ caller }) => serializeProfile(caller.user) }),
});
