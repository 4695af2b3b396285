// GET /token/requests, declared once (lib/api/endpoint.ts): the calling token's own requests of the last 7 days.
// About the caller's own token, so it needs no token resource, like /token.
import { endpoint } from "@/lib/api/endpoint";
import { serializedListResponse } from "@/lib/api/pagination";
import { paginatedSchema } from "@/lib/core/pagination";
import { listTokenRequests, serializeTokenRequest } from "./queries";
import { listTokenRequestsQuery, tokenRequestObject } from "./schemas";

export const requestLogEndpoints = {
  list: endpoint({
    id: "listTokenRequests",
    method: "get",
    path: "/token/requests",
    resource: null,
    tag: "Tokens",
    summary: "The calling token's recent requests",
    description:
      "Its requests of the last 7 days, newest first: time, method, path, status, duration and request id, and for a " +
      "4xx the message and field errors it was answered with. Written in batches: a request shows within a few seconds.",
    query: listTokenRequestsQuery,
    response: {
      status: 200,
      schema: paginatedSchema(tokenRequestObject, "TokenRequestPage"),
      description: "A page of the token's requests",
    },
    errors: [422],
    handler: async ({ request, caller, query }) =>
      serializedListResponse(request, await listTokenRequests(caller, caller.tokenId, query), serializeTokenRequest),
  }),
};
