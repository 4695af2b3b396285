// GET /token, declared once (lib/api/endpoint.ts): the calling token describes itself. About the caller's own token,
// so it needs no token resource.
import { endpoint } from "@/lib/api/endpoint";
import { describeToken, tokenObject } from "./introspect";

export const tokenEndpoints = {
  get: endpoint({
    id: "getToken",
    method: "get",
    path: "/token",
    resource: null,
    tag: "Tokens",
    summary: "The calling token",
    description:
      "Its name, per-resource access, expiry, creation and last use, so that an integration can check what it " +
      "holds. What it may do is this access intersected with its user's role.",
    response: { status: 200, schema: tokenObject, description: "The token that made the request" },
    errors: [],
    handler: async ({ caller }) => describeToken(caller),
  }),
};
