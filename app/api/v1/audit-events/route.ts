import { serializedListResponse } from "@/lib/api/pagination";
import { apiRoute, endpoint } from "@/lib/api/route";
import { listAuditEvents } from "@/lib/audit/queries";
import { listAuditEventsQuery } from "@/lib/audit/schemas";
import { auditEventForToken, serializeAuditEvent } from "@/lib/audit/serialize";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute("audit", {
  GET: endpoint({
    permission: "audit.read",
    query: listAuditEventsQuery,
    handler: async ({ request, caller, query }) =>
      serializedListResponse(request, await listAuditEvents(caller, query), (row) =>
        auditEventForToken(serializeAuditEvent(row), caller.tokenAccess),
      ),
  }),
});
