// The audit log endpoint, declared once (lib/api/endpoint.ts): served by app/api/v1/audit-events, described by the
// OpenAPI document, offered as a tool by the MCP server.
import { endpoint } from "@/lib/api/endpoint";
import { serializedListResponse } from "@/lib/api/pagination";
import { cursorPaginatedSchema } from "@/lib/core/pagination";
import { listAuditEvents } from "./queries";
import { auditEventObject, listAuditEventsQuery } from "./schemas";
import { auditEventForToken, serializeAuditEvent } from "./serialize";

export const auditEndpoints = {
  list: endpoint({
    id: "listAuditEvents",
    tool: "list_audit_events",
    method: "get",
    path: "/audit-events",
    resource: "audit",
    tag: "Audit log",
    summary: "List the audit log",
    description:
      "Needs the audit.read permission (Owners and Admins). Every change and security-relevant action of the firm, " +
      "newest first, in cursor pages (cursor= empty or absent for the first). Entries are kept 400 days by default.",
    permission: "audit.read",
    query: listAuditEventsQuery,
    response: {
      status: 200,
      schema: cursorPaginatedSchema(auditEventObject, "AuditEventCursorPage"),
      description: "A cursor page of entries",
    },
    errors: [403, 422],
    handler: async ({ request, caller, query }) =>
      serializedListResponse(request, await listAuditEvents(caller, query), (row) =>
        auditEventForToken(serializeAuditEvent(row), caller.tokenAccess),
      ),
  }),
};
