import { todayIn } from "@/lib/api/dates";
import { paginated } from "@/lib/api/pagination";
import { apiRoute, created } from "@/lib/api/route";
import { parseInput, queryObject } from "@/lib/api/validation";
import { requirePermission } from "@/lib/auth/permissions";
import { createJob, listJobs } from "@/lib/jobs/queries";
import { jobCreateBody, jobListQuery } from "@/lib/jobs/schemas";
import { serializeJob, serializeJobListItem } from "@/lib/jobs/serialize";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  GET: async ({ url, caller }) => {
    const query = parseInput(jobListQuery, queryObject(url.searchParams));
    const { page, total, rows } = await listJobs(caller, query);
    const today = todayIn(caller.tenant.timezone);
    return paginated(
      url,
      page,
      total,
      rows.map((job) => serializeJobListItem(job, today)),
    );
  },
  POST: async ({ caller, body }) => {
    // The permission first: a role that may not create jobs learns nothing from validation messages.
    requirePermission(caller, "jobs.create");
    const job = await createJob(caller, parseInput(jobCreateBody, body));
    return created(serializeJob(job, todayIn(caller.tenant.timezone)));
  },
});
