// The jobs endpoints, each declared once (lib/api/endpoint.ts): served by the route files under app/api/v1/jobs,
// described by the OpenAPI document, offered as tools by the MCP server.
import { BODY_ERRORS, endpoint, uuidParam } from "@/lib/api/endpoint";
import { jsonText, listResponse } from "@/lib/api/pagination";
import { byUuid } from "@/lib/api/records";
import { listAnswerSchema } from "@/lib/core/pagination";
import { createJob, updateJob } from "./mutations";
import { findVisibleJob, jobJson, jobJsonById, listJobs } from "./queries";
import { createJobBody, jobListItemObject, jobObject, listJobsQuery, updateJobBody } from "./schemas";

// The job the path names, if the caller may have it: as wire JSON for a read, as its row for a write. (Declared
// apart: inside the declaration TypeScript would not infer the record's type through byUuid.)
const wireAtPath = byUuid("job", jobJson);
const visibleAtPath = byUuid("job", findVisibleJob);
const tag = "Jobs";

export const jobEndpoints = {
  list: endpoint({
    id: "listJobs",
    tool: "list_jobs",
    method: "get",
    path: "/jobs",
    resource: "jobs",
    tag,
    summary: "List jobs",
    description:
      "Completed jobs are left out unless include_completed=true. Ties in the sort order are broken by uuid, so pages never overlap.",
    query: listJobsQuery,
    response: {
      status: 200,
      schema: listAnswerSchema(jobListItemObject, "Job"),
      description: "A page of jobs, in the list shape; with cursor=, a cursor page",
    },
    errors: [422],
    handler: async ({ request, caller, query }) => listResponse(request, await listJobs(caller, query)),
  }),

  create: endpoint({
    id: "createJob",
    tool: "create_job",
    method: "post",
    path: "/jobs",
    resource: "jobs",
    tag,
    summary: "Create a job",
    description: "A status whose is_completed is true completes the job at once (completed_date is today).",
    permission: "jobs.create",
    body: createJobBody,
    response: { status: 201, schema: jobObject, description: "The created job" },
    errors: [403, ...BODY_ERRORS],
    handler: async ({ caller, body }) => jsonText(await jobJsonById(caller, await createJob(caller, body)), 201),
  }),

  get: endpoint({
    id: "getJob",
    tool: "get_job",
    method: "get",
    path: "/jobs/{uuid}",
    resource: "jobs",
    tag,
    summary: "Get a job",
    params: { uuid: uuidParam },
    load: wireAtPath,
    response: {
      status: 200,
      schema: jobObject,
      description: "The job with its client, assignees, followers, tags, parent and subtasks",
    },
    errors: [403, 404],
    handler: async ({ record }) => jsonText(record),
  }),

  update: endpoint({
    id: "updateJob",
    tool: "update_job",
    method: "put",
    path: "/jobs/{uuid}",
    resource: "jobs",
    tag,
    summary: "Update a job",
    description:
      "Only the fields sent change; null clears an optional field. `user_id` and `tags` replace the sets. Moving to a " +
      "completed status completes the job (completed_date is today); moving to an open status, or to none, reopens it. " +
      "start_date must be on or before due_date, the stored one when only one of them is sent.",
    params: { uuid: uuidParam },
    permission: "jobs.update",
    load: visibleAtPath,
    body: updateJobBody,
    response: { status: 200, schema: jobObject, description: "The updated job" },
    errors: [403, 404, ...BODY_ERRORS],
    handler: async ({ caller, record, body }) => {
      await updateJob(caller, record.id, body);
      return jsonText(await jobJsonById(caller, record.id));
    },
  }),
};
