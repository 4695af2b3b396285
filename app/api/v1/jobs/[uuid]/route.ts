import { byUuid } from "@/lib/api/records";
import { apiRoute, endpoint } from "@/lib/api/route";
import { todayIn } from "@/lib/core/dates";
import { findVisibleJob, loadJob } from "@/lib/jobs/queries";
import { serializeJob } from "@/lib/jobs/serialize";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  GET: endpoint({
    load: byUuid("job", findVisibleJob),
    handler: async ({ caller, record }) =>
      serializeJob(await loadJob(caller, record.id), todayIn(caller.tenant.timezone)),
  }),
});
