// Each tool call counts against its token's rate limit, as a REST request does (it runs through the same wrapper),
// and the two share one count: an assistant cannot go around a token's limit through MCP, nor the other way round.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { call } from "../support/api";
import { startAppInstance } from "../support/app-instance";
import { mcpUrl, tokenWith } from "./support";

beforeEach(() => {
  // Just after a minute begins, as in tests/ratelimit: a window boundary mid-test would release part of the count.
  vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true, now: Math.ceil(Date.now() / 60_000) * 60_000 + 1_000 });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

it("refuses a token's tool call over its per-minute limit with the REST 429, on one count with its REST requests", async () => {
  const app = await startAppInstance({
    RATE_LIMIT_KEY_PREFIX: `mcp-test:${Date.now().toString(36)}`,
    RATE_LIMIT_PER_MINUTE: "3",
  });
  // The MCP route of the same fresh instance (startAppInstance reset the modules): its limiter is the one above.
  const mcpRoute = await import("@/app/api/mcp/route");
  const token = await tokenWith("standard@acme.test");
  const client = new Client({ name: "rate-limit-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl()), {
      fetch: (input, init) => mcpRoute.POST(new Request(input, init)),
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );

  for (let i = 0; i < 2; i++)
    expect((await client.callTool({ name: "get_me", arguments: {} }))._meta?.["cjt/status"]).toBe(200);
  // The third request of the minute, through REST: the same token's count.
  expect((await call(app.me, "GET", "me", { token })).status).toBe(200);

  const refused = await client.callTool({ name: "get_me", arguments: {} });
  expect(refused.isError).toBe(true);
  expect(refused._meta?.["cjt/status"]).toBe(429);
  expect(JSON.parse((refused.content as { text: string }[])[0].text).message).toMatch(/^Too many requests/);
  await client.close();
});
