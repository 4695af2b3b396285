// The time logs endpoint, declared once (lib/api/endpoint.ts): served by app/api/v1/time-logs, described by the
// OpenAPI document, offered as a tool by the MCP server.
import { endpoint } from "@/lib/api/endpoint";
import { listResponse } from "@/lib/api/pagination";
import { listAnswerSchema } from "@/lib/core/pagination";
import { listTimeLogs } from "./queries";
import { listTimeLogsQuery, timeLogObject } from "./schemas";

export const timeLogEndpoints = {
  list: endpoint({
    id: "listTimeLogs",
    tool: "list_time_logs",
    method: "get",
    path: "/time-logs",
    resource: "time_logs",
    tag: "Time logs",
    summary: "List time logs",
    description: "Newest first. Users without the time_logs.view_all permission see only their own.",
    query: listTimeLogsQuery,
    response: {
      status: 200,
      schema: listAnswerSchema(timeLogObject, "TimeLog"),
      description: "A page of time logs; with cursor=, a cursor page",
    },
    errors: [422],
    handler: async ({ request, caller, query }) => listResponse(request, await listTimeLogs(caller, query)),
  }),
};
