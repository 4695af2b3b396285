import { listEnvelope } from "@/lib/api/pagination";
import { apiRoute, endpoint } from "@/lib/api/route";
import { listTimeLogs } from "@/lib/time-logs/queries";
import { listTimeLogsQuery } from "@/lib/time-logs/schemas";
import { serializeTimeLog } from "@/lib/time-logs/serialize";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute("time_logs", {
  GET: endpoint({
    query: listTimeLogsQuery,
    handler: async ({ request, caller, query }) =>
      listEnvelope(request, await listTimeLogs(caller, query), serializeTimeLog),
  }),
});
