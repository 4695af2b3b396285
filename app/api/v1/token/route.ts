import { apiRoute, endpoint } from "@/lib/api/route";
import { describeToken } from "@/lib/tokens/introspect";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute("/token", {
  GET: endpoint({ handler: async ({ caller }) => describeToken(caller) }),
});
