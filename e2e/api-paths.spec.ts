// What the framework would answer before any route runs (a malformed %-escape, a trailing slash, an over-long URL)
// is JSON under /api/v1, with the API's headers, and never a redirect (decisions.md, Wire format). Checked against
// the built server, since these answers come from the proxy and Node's HTTP server, not from a route.
import { expect, test } from "@playwright/test";

const jsonAnswer = async (path: string, status: number, message: RegExp) => {
  test(`${path.slice(0, 60)} → ${status} JSON`, async ({ request }) => {
    for (const token of [undefined, "cjt_not-a-real-token"]) {
      const res = await request.get(path, {
        headers: { Accept: "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        maxRedirects: 0,
      });
      expect(res.status()).toBe(status);
      expect(res.headers()["content-type"]).toMatch(/^application\/json/);
      expect(res.headers()["cache-control"]).toBe("no-store");
      expect(res.headers()["x-content-type-options"]).toBe("nosniff");
      const body = await res.json();
      expect(body.message).toMatch(message);
      // The id the answer carries, also in its body (decisions.md, Wire format), whoever answered.
      expect(body.request_id).toBeTruthy();
      expect(body.request_id).toBe(res.headers()["x-request-id"]);
    }
  });
};

for (const path of [
  "/api/v1/clients/%FF",
  "/api/v1/clients/%ZZ",
  "/api/v1/users/email/%ED%A0%80",
  "/api/v1/nope/%FF",
]) {
  jsonAnswer(path, 404, /malformed %-escape/);
}
jsonAnswer("/api/v1/clients/", 404, /no trailing slash: \/api\/v1\/clients$/);
// Next redirects these before the proxy runs: answered ahead of it (lib/http/before-next.ts).
jsonAnswer("/api/v1//me", 404, /empty segments/);
jsonAnswer("/api/v1/webhooks//test", 404, /empty segments/);
jsonAnswer(`/api/v1/clients?search=${"a".repeat(20_000)}`, 414, /longer than 16384/);

test("pages keep their trailing-slash redirect", async ({ request }) => {
  const res = await request.get("/signin/", { maxRedirects: 0 });
  expect(res.status()).toBe(308);
  expect(res.headers().location).toBe("/signin");
});
