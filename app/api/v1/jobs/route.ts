import { jsonText, listResponse } from "@/lib/api/pagination";
import { apiRoute, endpoint } from "@/lib/api/route";
import { createJob } from "@/lib/jobs/mutations";
import { jobJsonById, listJobs } from "@/lib/jobs/queries";
import { createJobBody, listJobsQuery } from "@/lib/jobs/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute("jobs", {
  GET: endpoint({
    query: listJobsQuery,
    handler: async ({ request, caller, query }) => listResponse(request, await listJobs(caller, query)),
  }),
  POST: endpoint({
    permission: "jobs.create",
    body: createJobBody,
    handler: async ({ caller, body }) => jsonText(await jobJsonById(caller, await createJob(caller, body)), 201),
  }),
});
