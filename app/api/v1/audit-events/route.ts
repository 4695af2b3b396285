import { serializedListResponse } from "@/lib/api/pagination";
import { apiRoute, endpoint } from "@/lib/api/route";
import { listAuditEvents } from "@/lib/audit/queries";
import { listAuditEventsQuery } from "@/lib/audit/schemas";
import { serializeAuditEvent } from "@/lib/audit/serialize";

// No token resource of its own: the role's audit.read decides (a token-access resource for it is to be added).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(null, {
  GET: endpoint({
    permission: "audit.read",
    query: listAuditEventsQuery,
    handler: async ({ request, caller, query }) =>
      serializedListResponse(request, await listAuditEvents(caller, query), serializeAuditEvent),
  }),
});
