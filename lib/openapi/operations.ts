// Every operation of the API, described once, from the same zod schemas the handlers validate with and the
// serializers answer in. lib/openapi/document.ts turns this list into the OpenAPI document; a test checks that
// every route file under app/api/v1 appears here.
import { z } from "zod";
import {
  clientObject,
  clientSearchResults,
  createClientBody,
  listClientsQuery,
  searchClientsQuery,
  updateClientBody,
} from "@/lib/clients/schemas";
import { contactObject, createContactBody, listContactsQuery, updateContactBody } from "@/lib/contacts/schemas";
import { listAnswerSchema } from "@/lib/core/pagination";
import { recordId } from "@/lib/core/references";
import { createJobBody, jobListItemObject, jobObject, listJobsQuery, updateJobBody } from "@/lib/jobs/schemas";
import { listTimeLogsQuery, timeLogObject } from "@/lib/time-logs/schemas";
import { listUsersQuery, profileObject, userByEmailObject, userListObject, userObject } from "@/lib/users/schemas";

export interface Operation {
  /** The operationId: a verb and a noun (`listClients`), which generated clients name their functions after. */
  id: string;
  method: "get" | "post" | "put";
  /** OpenAPI path template under /api/v1, e.g. `/clients/{uuid}`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** Path parameters and their schemas. */
  params?: Record<string, z.ZodType>;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The answer; its example defaults to the schema's first `.meta({ examples })`. */
  response: { status: 200 | 201; schema: z.ZodType; description: string; example?: unknown };
  /** Error statuses this operation can answer with, beyond the ones every operation can (401, 406, 429). */
  errors: (400 | 403 | 404 | 413 | 415 | 422)[];
}

const uuidParam = z.uuid().describe("The record's uuid");
const BODY_ERRORS = [400, 413, 415, 422] as const;

export const operations: Operation[] = [
  {
    id: "getCurrentUser",
    method: "get",
    path: "/me",
    tag: "Users",
    summary: "The authenticated user's profile",
    response: { status: 200, schema: profileObject, description: "The profile of the token's user" },
    errors: [],
  },
  {
    id: "listClients",
    method: "get",
    path: "/clients",
    tag: "Clients",
    summary: "List clients",
    description: "Archived clients are left out unless include_archived=true. Restricted users see only their clients.",
    query: listClientsQuery,
    response: {
      status: 200,
      schema: listAnswerSchema(clientObject, "Client"),
      description: "A page of clients; with cursor=, a cursor page",
    },
    errors: [422],
  },
  {
    id: "createClient",
    method: "post",
    path: "/clients",
    tag: "Clients",
    summary: "Create a client",
    description: "With `contact`, also creates that contact and links it as the primary contact, in one transaction.",
    body: createClientBody,
    response: { status: 201, schema: clientObject, description: "The created client" },
    errors: [403, ...BODY_ERRORS],
  },
  {
    id: "searchClients",
    method: "get",
    path: "/clients/search",
    tag: "Clients",
    summary: "Quick search of clients by name",
    description: "At most 10 results, names that start with q first; archived clients are left out.",
    query: searchClientsQuery,
    response: { status: 200, schema: clientSearchResults, description: "Matching clients" },
    errors: [422],
  },
  {
    id: "getClient",
    method: "get",
    path: "/clients/{uuid}",
    tag: "Clients",
    summary: "Get a client",
    params: { uuid: uuidParam },
    response: { status: 200, schema: clientObject, description: "The client" },
    errors: [403, 404],
  },
  {
    id: "updateClient",
    method: "put",
    path: "/clients/{uuid}",
    tag: "Clients",
    summary: "Update a client",
    description:
      "Only the fields sent change; null clears an optional field. `tags` and `client_groups` replace the sets.",
    params: { uuid: uuidParam },
    body: updateClientBody,
    response: { status: 200, schema: clientObject, description: "The updated client" },
    errors: [403, 404, ...BODY_ERRORS],
  },
  {
    id: "listContacts",
    method: "get",
    path: "/contacts",
    tag: "Contacts",
    summary: "List contacts",
    query: listContactsQuery,
    response: {
      status: 200,
      schema: listAnswerSchema(contactObject, "Contact"),
      description: "A page of contacts; with cursor=, a cursor page",
    },
    errors: [422],
  },
  {
    id: "createContact",
    method: "post",
    path: "/contacts",
    tag: "Contacts",
    summary: "Create a contact",
    body: createContactBody,
    response: { status: 201, schema: contactObject, description: "The created contact" },
    errors: [403, ...BODY_ERRORS],
  },
  {
    id: "getContact",
    method: "get",
    path: "/contacts/{uuid}",
    tag: "Contacts",
    summary: "Get a contact",
    params: { uuid: uuidParam },
    response: { status: 200, schema: contactObject, description: "The contact" },
    errors: [403, 404],
  },
  {
    id: "updateContact",
    method: "put",
    path: "/contacts/{uuid}",
    tag: "Contacts",
    summary: "Update a contact",
    description:
      "Only the fields sent change. With client_uuid, links the contact to that client (title sets the link's title).",
    params: { uuid: uuidParam },
    body: updateContactBody,
    response: { status: 200, schema: contactObject, description: "The updated contact" },
    errors: [403, 404, ...BODY_ERRORS],
  },
  {
    id: "listJobs",
    method: "get",
    path: "/jobs",
    tag: "Jobs",
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
  },
  {
    id: "createJob",
    method: "post",
    path: "/jobs",
    tag: "Jobs",
    summary: "Create a job",
    description: "A status whose is_completed is true completes the job at once (completed_date is today).",
    body: createJobBody,
    response: { status: 201, schema: jobObject, description: "The created job" },
    errors: [403, ...BODY_ERRORS],
  },
  {
    id: "getJob",
    method: "get",
    path: "/jobs/{uuid}",
    tag: "Jobs",
    summary: "Get a job",
    params: { uuid: uuidParam },
    response: {
      status: 200,
      schema: jobObject,
      description: "The job with its client, assignees, followers, tags, parent and subtasks",
    },
    errors: [403, 404],
  },
  {
    id: "updateJob",
    method: "put",
    path: "/jobs/{uuid}",
    tag: "Jobs",
    summary: "Update a job",
    description:
      "Only the fields sent change; null clears an optional field. `user_id` and `tags` replace the sets. Moving to a " +
      "completed status completes the job (completed_date is today); moving to an open status, or to none, reopens it. " +
      "start_date must be on or before due_date, the stored one when only one of them is sent.",
    params: { uuid: uuidParam },
    body: updateJobBody,
    response: { status: 200, schema: jobObject, description: "The updated job" },
    errors: [403, 404, ...BODY_ERRORS],
  },
  {
    id: "listUsers",
    method: "get",
    path: "/users",
    tag: "Users",
    summary: "List the workspace's users",
    description: "Not paginated: a workspace has few users.",
    query: listUsersQuery,
    response: { status: 200, schema: userListObject, description: "The users" },
    errors: [422],
  },
  {
    id: "getUser",
    method: "get",
    path: "/users/{id}",
    tag: "Users",
    summary: "Get a user",
    params: { id: recordId().describe("The user's integer id") },
    response: { status: 200, schema: userObject, description: "The user" },
    errors: [403, 404],
  },
  {
    id: "findUserByEmail",
    method: "get",
    path: "/users/email/{email}",
    tag: "Users",
    summary: "Find a user by email",
    description: 'Ignores case. No match is not an error: the answer is {"data": null}.',
    params: { email: z.string().describe("The email address") },
    response: { status: 200, schema: userByEmailObject, description: "The user, or null" },
    errors: [],
  },
  {
    id: "listTimeLogs",
    method: "get",
    path: "/time-logs",
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
  },
];
