// GET /api/v1/token: the calling token described, so that an integration can check what it holds. Needs no access.
// An app's access token is described with its app and grant: the access is what it may do now (the grant's within
// the firm's cap), the expiry the access token's.
import { z } from "zod";
import type { Caller } from "@/lib/auth/caller";
import { component } from "@/lib/core/openapi-registry";
import { TOKEN_RESOURCES, type TokenAccess, tokenAccessSchema } from "./access";

const timestamp = () => z.iso.datetime().describe("ISO 8601 UTC");

const tokenAccessObject = component(tokenAccessSchema, "TokenAccess");

export const tokenObject = component(
  z.object({
    name: z.string(),
    access: tokenAccessObject.describe(
      "What the token may do per resource (write includes read). The token's user's role can allow less.",
    ),
    expires_at: timestamp().nullable().describe("Null: the token does not expire"),
    created_at: timestamp(),
    last_used_at: timestamp().nullable().describe("Kept at most once a minute"),
    app: z
      .object({
        client_id: z.string(),
        name: z.string(),
        grant_expires_at: timestamp()
          .nullable()
          .describe("When the person's grant to the app ends; null: when revoked"),
      })
      .nullable()
      .describe("For an app's access token (OAuth): the app and its grant; null for a personal token"),
  }),
  "Token",
  {
    name: "Monthly report",
    access: {
      clients: "read",
      contacts: "none",
      jobs: "write",
      users: "none",
      time_logs: "read",
      webhooks: "none",
      audit: "none",
    },
    expires_at: null,
    created_at: "2026-11-20T09:00:00.000Z",
    last_used_at: "2026-11-21T08:12:00.000Z",
    app: null,
  },
);

export async function describeToken(caller: Caller): Promise<z.infer<typeof tokenObject>> {
  const token = await caller.db.apiToken.findFirstOrThrow({
    where: { id: caller.tokenId },
    select: { name: true, expiresAt: true, createdAt: true, lastUsedAt: true },
  });
  const { app } = caller;
  return {
    name: token.name,
    // In the document's order: the stored access is jsonb, whose keys come back ordered by length.
    access: Object.fromEntries(TOKEN_RESOURCES.map((r) => [r, caller.tokenAccess[r]])) as TokenAccess,
    expires_at: (app ? app.accessExpiresAt : token.expiresAt)?.toISOString() ?? null,
    created_at: token.createdAt.toISOString(),
    last_used_at: token.lastUsedAt?.toISOString() ?? null,
    app: app
      ? { client_id: app.clientId, name: app.name, grant_expires_at: token.expiresAt?.toISOString() ?? null }
      : null,
  };
}
