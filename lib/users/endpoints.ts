// The users endpoints and the caller's own profile, each declared once (lib/api/endpoint.ts): served by the route
// files under app/api/v1/users and app/api/v1/me, described by the OpenAPI document, offered as tools by the MCP server.
import { z } from "zod";
import { endpoint } from "@/lib/api/endpoint";
import { jsonText } from "@/lib/api/pagination";
import { recordId } from "@/lib/core/references";
import { listUsersJson, userByEmailJson, userJson } from "./queries";
import {
  listUsersQuery,
  pathEmail,
  pathUserId,
  profileObject,
  userByEmailObject,
  userListObject,
  userObject,
} from "./schemas";
import { serializeProfile } from "./serialize";

const tag = "Users";

export const userEndpoints = {
  me: endpoint({
    id: "getCurrentUser",
    tool: "get_me",
    method: "get",
    path: "/me",
    resource: null,
    tag,
    summary: "The authenticated user's profile",
    response: { status: 200, schema: profileObject, description: "The profile of the token's user" },
    errors: [],
    handler: async ({ caller }) => serializeProfile(caller.user),
  }),

  list: endpoint({
    id: "listUsers",
    tool: "list_users",
    method: "get",
    path: "/users",
    resource: "users",
    tag,
    summary: "List the firm's users",
    description: "Not paginated: a firm has few users.",
    query: listUsersQuery,
    response: { status: 200, schema: userListObject, description: "The users" },
    errors: [422],
    handler: async ({ caller, query }) => jsonText(`{"data":${await listUsersJson(caller, query)}}`),
  }),

  get: endpoint({
    id: "getUser",
    tool: "get_user",
    method: "get",
    path: "/users/{id}",
    resource: "users",
    tag,
    summary: "Get a user",
    params: { id: recordId().describe("The user's integer id") },
    load: (caller, params) => userJson(caller, pathUserId(params.id)),
    response: { status: 200, schema: userObject, description: "The user" },
    errors: [403, 404],
    handler: async ({ record }) => jsonText(record),
  }),

  byEmail: endpoint({
    id: "findUserByEmail",
    method: "get",
    path: "/users/email/{email}",
    resource: "users",
    tag,
    summary: "Find a user by email",
    description: 'Ignores case. No match is not an error: the answer is {"data": null}.',
    params: { email: z.string().describe("The email address") },
    response: { status: 200, schema: userByEmailObject, description: "The user, or null" },
    errors: [],
    // No match is not an error (spec): `{"data": null}`, also when only another tenant has the email.
    handler: async ({ caller, params }) =>
      jsonText(`{"data":${(await userByEmailJson(caller, pathEmail(params.email))) ?? "null"}}`),
  }),
};
