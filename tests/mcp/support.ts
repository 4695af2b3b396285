// Helpers of the MCP tests: the official client (@modelcontextprotocol/client) over Streamable HTTP, its requests
// answered in-process by the /api/mcp route, and tokens of demo users with a given access.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import * as mcpRoute from "@/app/api/mcp/route";
import { prisma } from "@/lib/db/client";
import { issuer } from "@/lib/oauth/settings";
import { FULL_ACCESS, type TokenAccess } from "@/lib/tokens/access";
import { tokenWithAccess, userByEmail } from "../support/api";

export const mcpUrl = () => `${issuer()}/api/mcp`;

/** Fetch as the route answers it, in-process: what Next would do with the request. */
export const routeFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const request = input instanceof Request ? input : new Request(input, init);
  const handler = mcpRoute[request.method as "POST" | "GET" | "DELETE"];
  if (!handler) return new Response(null, { status: 405 });
  return handler(request);
};

/** A raw JSON-RPC POST to the route (for what the client would not send): a message, or its text as sent. */
export function post(token: string | null, body: unknown, headers: Record<string, string> = {}) {
  return routeFetch(mcpUrl(), {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** A personal token of a demo user with exactly this access (named "mcp", as the audit tests expect). */
export const tokenWith = (email: string, access: TokenAccess = FULL_ACCESS) => tokenWithAccess(email, access, "mcp");

/**
 * The official client connected with a bearer token: by default the 2025 handshake at the client's latest revision
 * (2025-11-25); `{ pin: "2026-07-28" }` for the modern revision, or a list of 2025 revisions to offer.
 */
export async function connect(
  token: string,
  version?: { pin: string } | { versions: string[] },
  onResponse?: (response: Response) => void,
) {
  const client = new Client(
    { name: "cjt-tests", version: "1.0.0" },
    {
      ...(version && "pin" in version ? { versionNegotiation: { mode: version } } : {}),
      ...(version && "versions" in version ? { supportedProtocolVersions: version.versions } : {}),
    },
  );
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl()), {
    fetch: async (input, init) => {
      const response = await routeFetch(input, init);
      onResponse?.(response);
      return response;
    },
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

/** Acme's first client, contact and job (by uuid) and a Standard user's id: records the tools' calls name. */
export async function acmeRecords() {
  const db = await prisma();
  const { tenantId } = await userByEmail("owner@acme.test");
  const first = { where: { tenantId }, orderBy: { id: "asc" as const } };
  return {
    clients: (await db.client.findFirstOrThrow(first)).uuid,
    contacts: (await db.contact.findFirstOrThrow(first)).uuid,
    jobs: (await db.job.findFirstOrThrow(first)).uuid,
    user: String((await userByEmail("standard@acme.test")).id),
  };
}
