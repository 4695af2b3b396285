import { jsonText } from "@/lib/api/pagination";
import { byUuid } from "@/lib/api/records";
import { apiRoute, endpoint } from "@/lib/api/route";
import { todayIn } from "@/lib/core/dates";
import { updateJob } from "@/lib/jobs/mutations";
import { findVisibleJob, jobJson } from "@/lib/jobs/queries";
import { updateJobBody } from "@/lib/jobs/schemas";
import { serializeJob } from "@/lib/jobs/serialize";

const load = byUuid("job", findVisibleJob);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute("jobs", {
  GET: endpoint({
    load: byUuid("job", jobJson),
    handler: async ({ record }) => jsonText(record),
  }),
  PUT: endpoint({
    permission: "jobs.update",
    load,
    body: updateJobBody,
    handler: async ({ caller, record, body }) =>
      serializeJob(await updateJob(caller, record.id, body), todayIn(caller.tenant.timezone)),
  }),
});
