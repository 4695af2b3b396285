import { listEnvelope } from "@/lib/api/pagination";
import { apiRoute, created, endpoint } from "@/lib/api/route";
import { todayIn } from "@/lib/core/dates";
import { createJob } from "@/lib/jobs/mutations";
import { listJobs } from "@/lib/jobs/queries";
import { createJobBody, listJobsQuery } from "@/lib/jobs/schemas";
import { serializeJob, serializeJobListItem } from "@/lib/jobs/serialize";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute("jobs", {
  GET: endpoint({
    query: listJobsQuery,
    handler: async ({ request, caller, query }) => {
      const today = todayIn(caller.tenant.timezone);
      return listEnvelope(request, await listJobs(caller, query), (job) => serializeJobListItem(job, today));
    },
  }),
  POST: endpoint({
    permission: "jobs.create",
    body: createJobBody,
    handler: async ({ caller, body }) =>
      created(serializeJob(await createJob(caller, body), todayIn(caller.tenant.timezone))),
  }),
});
