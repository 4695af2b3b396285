// Every operation of the API, described once, from the same zod schemas the handlers validate with and the
// serializers answer in. lib/openapi/document.ts turns this list into the OpenAPI document; a test checks that
// every route file under app/api/v1 appears here.
import { z } from "zod";
import { auditEventObject, listAuditEventsQuery } from "@/lib/audit/schemas";
import {
  clientObject,
  clientSearchResults,
  createClientBody,
  listClientsQuery,
  searchClientsQuery,
  updateClientBody,
} from "@/lib/clients/schemas";
import { contactObject, createContactBody, listContactsQuery, updateContactBody } from "@/lib/contacts/schemas";
import { cursorPaginatedSchema, listAnswerSchema, paginatedSchema } from "@/lib/core/pagination";
import { recordId, uuidString } from "@/lib/core/references";
import { createJobBody, jobListItemObject, jobObject, listJobsQuery, updateJobBody } from "@/lib/jobs/schemas";
import { listTokenRequestsQuery, tokenRequestObject } from "@/lib/request-log/schemas";
import { listTimeLogsQuery, timeLogObject } from "@/lib/time-logs/schemas";
import type { TokenResource } from "@/lib/tokens/access";
import { tokenObject } from "@/lib/tokens/introspect";
import { listUsersQuery, profileObject, userByEmailObject, userListObject, userObject } from "@/lib/users/schemas";
import {
  createWebhookBody,
  deliveryListObject,
  deliveryObject,
  listDeliveriesQuery,
  updateWebhookBody,
  webhookListObject,
  webhookObject,
  webhookWithSecretObject,
} from "@/lib/webhooks/schemas";

export interface Operation {
  /** The operationId: a verb and a noun (`listClients`), which generated clients name their functions after. */
  id: string;
  method: "get" | "post" | "put" | "delete";
  /** OpenAPI path template under /api/v1, e.g. `/clients/{uuid}`. */
  path: string;
  /** The resource whose token access it needs (read for GET, write otherwise); null: none (the caller's own). */
  resource: TokenResource | null;
  tag: string;
  summary: string;
  description?: string;
  /** Path parameters and their schemas. */
  params?: Record<string, z.ZodType>;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The answer, without a schema when it has no body (204); its example defaults to the schema's `.meta({ examples })`. */
  response: { status: 200 | 201 | 202 | 204; schema?: z.ZodType; description: string; example?: unknown };
  /**
   * Error statuses this operation can answer with, beyond the ones every operation can (401, 406, 414, 429, 503) and
   * those every operation with path parameters can (404, 405).
   */
  errors: (400 | 403 | 404 | 413 | 415 | 422)[];
}

const uuidParam = uuidString().describe("The record's uuid (either case)");
const BODY_ERRORS = [400, 413, 415, 422] as const;

export const operations: Operation[] = [
  {
    id: "getCurrentUser",
    method: "get",
    path: "/me",
    resource: null,
    tag: "Users",
    summary: "The authenticated user's profile",
    response: { status: 200, schema: profileObject, description: "The profile of the token's user" },
    errors: [],
  },
  {
    id: "getToken",
    method: "get",
    path: "/token",
    resource: null,
    tag: "Tokens",
    summary: "The calling token",
    description:
      "Its name, per-resource access, expiry, creation and last use, so that an integration can check what it " +
      "holds. What it may do is this access intersected with its user's role.",
    response: { status: 200, schema: tokenObject, description: "The token that made the request" },
    errors: [],
  },
  {
    id: "listTokenRequests",
    method: "get",
    path: "/token/requests",
    resource: null,
    tag: "Tokens",
    summary: "The calling token's recent requests",
    description:
      "Its requests of the last 7 days, newest first: time, method, path, status, duration and request id, and for a " +
      "4xx the message and field errors it was answered with. Written in batches: a request shows within a few seconds.",
    query: listTokenRequestsQuery,
    response: {
      status: 200,
      schema: paginatedSchema(tokenRequestObject, "TokenRequestPage"),
      description: "A page of the token's requests",
    },
    errors: [422],
  },
  {
    id: "listClients",
    method: "get",
    path: "/clients",
    resource: "clients",
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
    resource: "clients",
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
    resource: "clients",
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
    resource: "clients",
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
    resource: "clients",
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
    resource: "contacts",
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
    resource: "contacts",
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
    resource: "contacts",
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
    resource: "contacts",
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
    resource: "jobs",
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
    resource: "jobs",
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
    resource: "jobs",
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
    resource: "jobs",
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
    resource: "users",
    tag: "Users",
    summary: "List the firm's users",
    description: "Not paginated: a firm has few users.",
    query: listUsersQuery,
    response: { status: 200, schema: userListObject, description: "The users" },
    errors: [422],
  },
  {
    id: "getUser",
    method: "get",
    path: "/users/{id}",
    resource: "users",
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
    resource: "users",
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
    resource: "time_logs",
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
  ...webhookOperations(),
  {
    id: "listAuditEvents",
    method: "get",
    path: "/audit-events",
    tag: "Audit log",
    resource: "audit",
    summary: "List the audit log",
    description:
      "Needs the audit.read permission (Owners and Admins). Every change and security-relevant action of the firm, " +
      "newest first, in cursor pages (cursor= empty or absent for the first). Entries are kept 400 days by default.",
    query: listAuditEventsQuery,
    response: {
      status: 200,
      schema: cursorPaginatedSchema(auditEventObject, "AuditEventCursorPage"),
      description: "A cursor page of entries",
    },
    errors: [403, 422],
  },
];

/** /webhooks: Owners and Admins (webhooks.manage) manage the firm's endpoints. */
function webhookOperations(): Operation[] {
  const params = { uuid: uuidString().describe("The webhook endpoint's uuid (either case)") };
  const tag = "Webhooks";
  return [
    {
      id: "listWebhooks",
      method: "get",
      path: "/webhooks",
      resource: "webhooks",
      tag,
      summary: "List webhook endpoints",
      description: "Needs the webhooks.manage permission (Owners and Admins). Secrets are never listed.",
      response: { status: 200, schema: webhookListObject, description: "The firm's endpoints" },
      errors: [403],
    },
    {
      id: "createWebhook",
      method: "post",
      path: "/webhooks",
      resource: "webhooks",
      tag,
      summary: "Create a webhook endpoint",
      description:
        "Answers the signing secret (whsec_…) once. Events are POSTed as {type, timestamp, data} (data: the record " +
        "as its GET answers), signed by the Standard Webhooks scheme (webhook-id, webhook-timestamp, " +
        "webhook-signature), retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h until a 2xx arrives within 15 s. " +
        "A 410 answer, or five days of failures, disables the endpoint. At most 20 endpoints per firm.",
      body: createWebhookBody,
      response: { status: 201, schema: webhookWithSecretObject, description: "The endpoint, with its secret" },
      errors: [403, ...BODY_ERRORS],
    },
    {
      id: "getWebhook",
      method: "get",
      path: "/webhooks/{uuid}",
      resource: "webhooks",
      tag,
      summary: "Get a webhook endpoint",
      params,
      response: { status: 200, schema: webhookObject, description: "The endpoint (without its secret)" },
      errors: [403, 404],
    },
    {
      id: "updateWebhook",
      method: "put",
      path: "/webhooks/{uuid}",
      resource: "webhooks",
      tag,
      summary: "Update a webhook endpoint",
      description:
        "Only the fields sent change. enabled=false stops deliveries (pending ones are given up); enabled=true " +
        "re-enables an endpoint, also one disabled by a 410 or by five days of failures.",
      params,
      body: updateWebhookBody,
      response: { status: 200, schema: webhookObject, description: "The updated endpoint" },
      errors: [403, 404, ...BODY_ERRORS],
    },
    {
      id: "deleteWebhook",
      method: "delete",
      path: "/webhooks/{uuid}",
      resource: "webhooks",
      tag,
      summary: "Delete a webhook endpoint",
      description: "Deletes the endpoint and its deliveries; nothing more is sent to it.",
      params,
      response: { status: 204, description: "Deleted" },
      errors: [403, 404],
    },
    {
      id: "rotateWebhookSecret",
      method: "post",
      path: "/webhooks/{uuid}/rotate-secret",
      resource: "webhooks",
      tag,
      summary: "Rotate a webhook endpoint's secret",
      description:
        "Answers the new secret once. For 24 hours the old secret signs too: webhook-signature then carries both " +
        "signatures, separated by a space.",
      params,
      response: { status: 200, schema: webhookWithSecretObject, description: "The endpoint, with its new secret" },
      errors: [403, 404],
    },
    {
      id: "sendWebhookTest",
      method: "post",
      path: "/webhooks/{uuid}/test",
      resource: "webhooks",
      tag,
      summary: "Send a test event",
      description:
        "Records a webhook.test event for the endpoint, whatever it subscribes to, and answers its delivery at once, " +
        "before the first attempt (status pending, no attempts yet): the attempt follows within moments and shows " +
        "in GET /webhooks/{uuid}/deliveries under the same uuid. A failed test is retried like any delivery.",
      params,
      response: {
        status: 202,
        schema: deliveryObject,
        description: "The test delivery, recorded and not yet attempted",
      },
      errors: [403, 404],
    },
    {
      id: "listWebhookDeliveries",
      method: "get",
      path: "/webhooks/{uuid}/deliveries",
      resource: "webhooks",
      tag,
      summary: "List an endpoint's recent deliveries",
      description:
        "Newest first, each with its attempts (attempt_history, newest first: time, status or error, duration). " +
        "Deliveries are kept 30 days.",
      params,
      query: listDeliveriesQuery,
      response: { status: 200, schema: deliveryListObject, description: "The most recent deliveries" },
      errors: [403, 404, 422],
    },
  ];
}
