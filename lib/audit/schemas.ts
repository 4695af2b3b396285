// The audit log's vocabulary (actions, target types, channels), its list query and its wire shape: the single source
// for the API, the settings page and the OpenAPI document.
import { z } from "zod";
import { component } from "@/lib/core/openapi-registry";
import { cursorQuery, paginationQuery, updatedSinceQuery } from "@/lib/core/pagination";
import { queryId, uuidString } from "@/lib/core/references";
import { AUDIT_ACTIONS } from "./actions";

export { AUDIT_ACTIONS, type AuditAction } from "./actions";

export const TARGET_TYPES = [
  "client",
  "contact",
  "job",
  "webhook",
  "token",
  "user",
  "tenant",
  "oauth_app",
  "oauth_client",
] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

/**
 * How the actor acted: through the API with a token, through the API by an app the person connected (OAuth), by an
 * assistant through an MCP tool (lib/mcp: personal token or app), on the
 * web pages, from the operator's command line, or the app itself (the webhook delivery runner disabling an endpoint).
 */
export const VIAS = ["api", "oauth", "mcp", "web", "cli", "system"] as const;
export type Via = (typeof VIAS)[number];

/** What an entry says changed: `[before, after]` per field (API field names); a secret's field says only "changed". */
export type Changes = Record<string, [unknown, unknown] | "changed">;

/** The record an action was done to: records the API addresses by uuid, the others (people, tokens) by id. */
export interface AuditTarget {
  type: TargetType;
  uuid?: string;
  id?: number;
  name: string;
}

/** The list's filters; the same on the settings page and in its CSV download. */
export const auditFilters = {
  action: z.enum(AUDIT_ACTIONS).optional(),
  actor_id: queryId().optional().describe("Only what this user did"),
  target_type: z.enum(TARGET_TYPES).optional(),
  target_uuid: uuidString().optional().describe("Only entries about the record with this uuid"),
  // The same date and time rules as updated_since.
  since: updatedSinceQuery.updated_since.describe(
    "Only entries at or after this ISO 8601 date and time (with Z or an offset)",
  ),
  until: updatedSinceQuery.updated_since.describe(
    "Only entries before this ISO 8601 date and time (with Z or an offset)",
  ),
};

// Cursor pages only (no page numbers): a log is read from its newest end.
export const listAuditEventsQuery = z.object({
  ...auditFilters,
  ...cursorQuery,
  limit: paginationQuery.limit,
  per_page: paginationQuery.per_page,
});
export type ListAuditEventsQuery = z.output<typeof listAuditEventsQuery>;
export type AuditFilters = Pick<ListAuditEventsQuery, keyof typeof auditFilters>;

export const auditEventExample = {
  id: 4182,
  action: "client.updated",
  actor: { type: "user", id: 1, name: "Olivia Owner", email: "olivia@harper.example" },
  via: "api",
  token: { id: 12, name: "Invoicing" },
  target: { type: "client", uuid: "0f6c2d7e-6b1a-4c55-9d1e-3a7b2f9c8e41", name: "Acme Ltd" },
  changes: { city: ["Leeds", "York"] },
  address: "203.0.113.7",
  created_at: "2026-11-21T14:02:11.210Z",
};

/** An entry of the audit log as the API answers it. */
export const auditEventObject = component(
  z.object({
    id: z.number().int(),
    action: z.enum(AUDIT_ACTIONS),
    actor: z
      .union([
        z.object({ type: z.literal("user"), id: z.number().int(), name: z.string(), email: z.string() }),
        z
          .strictObject({ type: z.literal("user"), id: z.number().int() })
          .describe("A user by id only: the token has no access to users"),
        z.object({ type: z.literal("cli") }),
        z.object({ type: z.literal("system") }),
      ])
      .describe(
        "Who acted: a user of the firm (as named when they acted), the operator's command line, or the app itself (the webhook delivery runner)",
      ),
    via: z.enum(VIAS),
    tool: z.string().optional().describe("The MCP tool that acted (`create_client`), when via is mcp"),
    token: z
      .object({ id: z.number().int(), name: z.string() })
      .nullable()
      .describe("The API token that acted (as named then); null on the web pages and the command line"),
    target: z
      .object({
        type: z.enum(TARGET_TYPES),
        uuid: z.uuid().optional(),
        id: z.number().int().optional(),
        name: z.string().optional().describe("Left out when the token has no access to what was acted on"),
      })
      .describe("What was acted on: clients, contacts, jobs and webhooks by uuid; people, tokens and firms by id"),
    changes: z
      .record(z.string(), z.union([z.tuple([z.unknown(), z.unknown()]), z.literal("changed")]))
      .describe(
        '{field: [before, after]} in the API\'s field names; a secret or password only as "changed", and every ' +
          'field only as "changed" when the token has no access to what was acted on (a client for a token without ' +
          "access to clients, a member without access to users)",
      ),
    address: z.string().nullable().describe("The client's IP address, where a trusted proxy tells it"),
    created_at: z.iso.datetime(),
  }),
  "AuditEvent",
  auditEventExample,
);
