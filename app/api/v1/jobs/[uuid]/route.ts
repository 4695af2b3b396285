import { jsonText } from "@/lib/api/pagination";
import { byUuid } from "@/lib/api/records";
import { apiRoute, endpoint } from "@/lib/api/route";
import { updateJob } from "@/lib/jobs/mutations";
import { findVisibleJob, jobJson, jobJsonById } from "@/lib/jobs/queries";
import { updateJobBody } from "@/lib/jobs/schemas";

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
    handler: async ({ caller, record, body }) => {
      await updateJob(caller, record.id, body);
      return jsonText(await jobJsonById(caller, record.id));
    },
  }),
});
