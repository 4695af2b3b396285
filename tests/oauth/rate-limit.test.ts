// Rate limits per grant (decisions.md, "Apps and assistants"): every access token of one grant, before and after a
// refresh, counts against the grant's one per-token limit, whatever address it comes from; the person's own tokens
// and other grants keep theirs.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { call, tokenFor } from "../support/api";
import { startAppInstance } from "../support/app-instance";
import { consent, exchange, firmApp, refresh } from "./support";

beforeEach(() => {
  // Just after a minute begins, so that the window does not release part of the count mid-test.
  vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true, now: Math.ceil(Date.now() / 60_000) * 60_000 + 1_000 });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

describe("an app's rate limit", () => {
  it("is its grant's: the access tokens before and after a refresh share it, other tokens do not", async () => {
    const app = await startAppInstance({ RATE_LIMIT_PER_MINUTE: "3" });
    const { app: client } = await firmApp("owner@acme.test");
    const first = (await exchange(await consent("owner@acme.test", client))).body;
    const second = (await refresh(client, first.refresh_token)).body;
    const other = (
      await exchange(await consent("owner@acme.test", (await firmApp("owner@acme.test", { name: "Other" })).app))
    ).body;
    const me = (token: string, address: string) =>
      call(app.me, "GET", "me", { token, headers: { "X-Forwarded-For": address } });
    expect((await me(first.access_token, "198.51.100.1")).status).toBe(200);
    expect((await me(first.access_token, "198.51.100.2")).status).toBe(200);
    const last = await me(second.access_token, "198.51.100.3");
    expect(last.status).toBe(200);
    expect(last.headers.get("x-ratelimit-remaining")).toBe("0");
    const refused = await me(second.access_token, "198.51.100.4");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await me(other.access_token, "198.51.100.1")).status).toBe(200);
    expect((await me(await tokenFor("owner@acme.test"), "198.51.100.1")).status).toBe(200);
  });
});
