// Input of the jobs endpoints: the single source of their validation.
import { z } from "zod";
import { queryDateRange } from "@/lib/core/date-ranges";
import { calendarDate, dateOutput, updatedAtOutput } from "@/lib/core/dates";
import { component, requestBody } from "@/lib/core/openapi-registry";
import { cursorQuery, paginationQuery, updatedSinceQuery } from "@/lib/core/pagination";
import { orIdentifier, queryId, recordId, uuidString } from "@/lib/core/references";
import { queryBoolean, queryList, SORT_DIRECTIONS, text } from "@/lib/core/validation";
import { userSummaryObject } from "@/lib/users/schemas";

const JOB_SORTS = ["name", "start_date", "due_date", "created_at", "updated_at", "status", "estimated_hours"] as const;
export type JobSort = (typeof JOB_SORTS)[number];

// Ids, slugs and uuids in filters that name nothing of the tenant (e.g. another tenant's tag id) simply match
// nothing, as a search for a word nobody uses would: a list filter never reveals what exists elsewhere.
export const listJobsQuery = z.object({
  search: text(200).optional().describe("Case-insensitive substring of the job name"),
  client_uuid: uuidString().optional().describe("Only jobs of this client"),
  users: queryList(queryId()).optional().describe("Only jobs assigned to one of these user ids"),
  tags: queryList(queryId()).optional().describe("Only jobs with one of these tag ids"),
  statuses: queryList(text(100)).optional().describe("Only jobs in one of these status slugs"),
  start_date_range: queryDateRange().optional(),
  due_date_range: queryDateRange().optional(),
  include_completed: queryBoolean()
    .default(false)
    .describe(
      "Include completed jobs (default false); applies together with statuses[], so a completed status needs it too",
    ),
  exclude_subtasks: queryBoolean().default(false),
  exclude_client_requests: queryBoolean().default(false),
  sort_by: z.enum(JOB_SORTS).default("due_date").describe("Sort key; nulls last, ties broken by uuid"),
  sort_direction: z.enum(SORT_DIRECTIONS).default("asc"),
  ...updatedSinceQuery,
  ...cursorQuery,
  ...paginationQuery,
});

export type ListJobsQuery = z.output<typeof listJobsQuery>;

/** Hours are stored with two decimals: more precision would be lost silently, so it is refused. */
const hours = z
  .number()
  .min(0)
  .max(1000)
  .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, "Must have at most two decimal places.");

const jobFields = {
  name: text(150).min(1).describe("Job name"),
  description: text(30_000).nullish(),
  client_uuid: uuidString().nullish().describe("Client to link; must be visible to the caller"),
  user_id: recordId().nullish().describe("Assignee (user id)"),
  status: text(100).min(1).nullish().describe("A status slug of the tenant"),
  tags: z.array(recordId()).max(100).nullish().describe("Tag ids"),
  start_date: calendarDate().nullish(),
  due_date: calendarDate().nullish(),
  internal_due_date: calendarDate().nullish(),
  extended_due_date: calendarDate().nullish(),
  estimated_hours: hours.nullish().describe("0 to 1000, at most two decimals"),
};

const startNotAfterDue = {
  check: (job: { start_date?: string | null; due_date?: string | null }) =>
    !job.start_date || !job.due_date || job.start_date <= job.due_date,
  params: { path: ["start_date"], message: "Must be on or before due_date." },
};

export const createJobBody = requestBody(
  z.object(jobFields).refine(startNotAfterDue.check, startNotAfterDue.params),
  "JobCreate",
  {
    name: "Year-end accounts 2026",
    client_uuid: "0f6c2d7e-6b1a-4c55-9d1e-3a7b2f9c8e41",
    user_id: 3,
    status: "in_progress",
    tags: [2],
    start_date: "2026-12-01",
    due_date: "2027-01-31",
    estimated_hours: 12.5,
  },
);

// Only the fields sent change; null clears an optional one. Dates sent alone are checked against the stored other
// date by updateJob, which alone knows it.
export const updateJobBody = requestBody(
  z
    .object({
      ...jobFields,
      name: jobFields.name.optional(),
      user_id: jobFields.user_id.describe("Assignee (user id): replaces the assignees; null removes them"),
      tags: jobFields.tags.describe("Tag ids: replace the job's tags; null removes them"),
    })
    .refine(startNotAfterDue.check, startNotAfterDue.params),
  "JobUpdate",
  { status: "completed", estimated_hours: 14 },
);

export type CreateJobBody = z.output<typeof createJobBody>;
export type UpdateJobBody = z.output<typeof updateJobBody>;

const named = (id: z.ZodType) => z.object({ id, name: z.string() });

/** A job in lists (and a single job's subtasks). */
export const jobListItemObject = component(
  z.object({
    uuid: z.uuid(),
    name: z.string(),
    status: z.string().nullable().describe("The status slug"),
    client_uuid: z.uuid().nullable(),
    estimated_hours: z.number().nullable(),
    start_date: dateOutput().nullable(),
    due_date: dateOutput().nullable(),
    is_overdue: z.boolean().describe("Not completed and due before today, in the firm's time zone"),
    is_completed: z.boolean(),
    is_repeating: z.boolean(),
    updated_at: updatedAtOutput(),
  }),
  "JobListItem",
  {
    uuid: "9b7e4c21-3f58-4d0a-a6e2-1c8d5f7b9e30",
    name: "Year-end accounts 2026",
    status: "in_progress",
    client_uuid: "0f6c2d7e-6b1a-4c55-9d1e-3a7b2f9c8e41",
    estimated_hours: 12.5,
    start_date: "2026-12-01",
    due_date: "2027-01-31",
    is_overdue: false,
    is_completed: false,
    is_repeating: false,
    updated_at: "2026-11-21T10:02:44.018Z",
  },
);

/** One job with everything about it. */
export const jobObject = component(
  jobListItemObject.extend({
    description: z.string(),
    status_name: z.string().nullable(),
    client: orIdentifier(z.object({ uuid: z.uuid(), name: z.string() }), "uuid", "clients").nullable(),
    users: z.array(orIdentifier(userSummaryObject, "id", "users")).describe("Assignees"),
    followers: z.array(orIdentifier(userSummaryObject, "id", "users")),
    tags: z.array(named(z.number().int())),
    internal_due_date: dateOutput().nullable(),
    extended_due_date: dateOutput().nullable(),
    completed_date: dateOutput().nullable(),
    is_subtask: z.boolean(),
    parent_uuid: z.uuid().nullable(),
    parent: z.object({ uuid: z.uuid(), name: z.string() }).nullable(),
    sub_tasks: z.array(jobListItemObject),
  }),
  "Job",
);
