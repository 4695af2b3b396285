// GET /api/v1/token/requests: the calling token's own requests of the last 7 days (lib/request-log). About the
// caller's own token, so it needs no token resource, like /token.
import { serializedListResponse } from "@/lib/api/pagination";
import { apiRoute, endpoint } from "@/lib/api/route";
import { listTokenRequests, serializeTokenRequest } from "@/lib/request-log/queries";
import { listTokenRequestsQuery } from "@/lib/request-log/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute("/token/requests", {
  GET: endpoint({
    query: listTokenRequestsQuery,
    handler: async ({ request, caller, query }) =>
      serializedListResponse(request, await listTokenRequests(caller, caller.tokenId, query), serializeTokenRequest),
  }),
});
