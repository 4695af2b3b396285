import { expect, signIn, test } from "./support";

/** The script-src directive of a CSP. */
const scriptSrc = (csp: string) => csp.split(";").find((directive) => directive.trim().startsWith("script-src")) ?? "";

test("the signed-in token page cannot be framed and runs only scripts with this answer's nonce", async ({ page }) => {
  await page.goto("/signin?callbackUrl=%2Fsettings%2Fapi-tokens");
  await signIn(page, "viewer@acme.test");
  await expect(page.getByRole("heading", { name: "API tokens" })).toBeVisible();

  const response = await page.request.get("/settings/api-tokens");
  expect(response.status()).toBe(200);
  const headers = response.headers();
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(scriptSrc(headers["content-security-policy"])).toMatch(/'nonce-[A-Za-z0-9+/=]{16,}'/);
  expect(scriptSrc(headers["content-security-policy"])).not.toContain("unsafe-inline");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("no-referrer");
  // The nonce is fresh on every answer.
  const again = (await page.request.get("/settings/api-tokens")).headers()["content-security-policy"];
  expect(again).not.toBe(headers["content-security-policy"]);
});

test("a page on another site that frames the token page shows nothing of it", async ({ page, baseURL }) => {
  await page.goto("/signin");
  await signIn(page, "viewer@acme.test");
  // A page of another origin (about:blank, in a tab of its own so that no navigation of the sign-in is still under
  // way) framing the token page with the signed-in cookie: the browser refuses to render it.
  const other = await page.context().newPage();
  await other.setContent(`<iframe src="${baseURL}/settings/api-tokens" width="600" height="400"></iframe>`);
  const frame = other.frameLocator("iframe");
  await other.waitForTimeout(1_000);
  // Nothing of the app renders: neither the token page nor (were the cookie not sent) the sign-in page.
  await expect(frame.getByRole("heading", { name: /^(API tokens|Sign in)$/ })).toHaveCount(0);
});

test("the pages and the API reference work under the policy: no violations reported", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto("/signin");
  await signIn(page, "assigned@acme.test");
  await expect(page.getByRole("heading", { name: "API tokens" })).toBeVisible();
  await page.getByRole("link", { name: "Profile" }).click();
  await expect(page.getByRole("heading", { name: "Profile", exact: true })).toBeVisible();
  await page.goto("/docs");
  await expect(page.getByRole("heading", { name: /Client, Job and Time Tracking API/ })).toBeVisible({
    timeout: 30_000,
  });
  expect(violations).toEqual([]);
});

test("API answers are not stored by caches and carry nosniff and no-referrer; the OpenAPI document may be cached", async ({
  request,
}) => {
  const me = await request.get("/api/v1/me", { headers: { Accept: "application/json" } });
  expect(me.status()).toBe(401);
  expect(me.headers()["cache-control"]).toBe("no-store");
  expect(me.headers()["x-content-type-options"]).toBe("nosniff");
  expect(me.headers()["referrer-policy"]).toBe("no-referrer");

  const unknown = await request.get("/api/v1/nope", { headers: { Accept: "application/json" } });
  expect(unknown.headers()["cache-control"]).toBe("no-store");

  const document = await request.get("/api/v1/openapi.json");
  expect(document.status()).toBe(200);
  expect(document.headers()["cache-control"]).toMatch(/max-age=\d+/);
  expect(document.headers()["x-content-type-options"]).toBe("nosniff");
});

/** Whether an answer carries the page headers: a CSP with a nonce and no framing. */
function expectPageHeaders(headers: Record<string, string>) {
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(scriptSrc(headers["content-security-policy"])).toMatch(/'nonce-[A-Za-z0-9+/=]{16,}'/);
}

test("prefetches of a page carry the page headers too", async ({ request }) => {
  const prefetches: Record<string, string>[] = [{ Purpose: "prefetch" }, { "Next-Router-Prefetch": "1" }];
  for (const prefetch of prefetches) {
    const response = await request.get("/signin", { headers: prefetch });
    expect(response.status(), JSON.stringify(prefetch)).toBe(200);
    expectPageHeaders(response.headers());
  }
});

test("next-auth's own pages carry the page headers; a GET of the credentials callback goes back to sign in", async ({
  request,
}) => {
  for (const path of ["/api/auth/signout", "/api/auth/verify-request", "/api/auth/error"]) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBeLessThan(500);
    expectPageHeaders(response.headers());
  }
  const callback = await request.get("/api/auth/callback/credentials", { maxRedirects: 0 });
  expect(callback.status()).toBe(303);
  expect(callback.headers().location).toMatch(/\/signin\?error=SignInFailed$/);
});

test("a POST to a page that claims multipart form data but sends none is a 400, not a 500", async ({ request }) => {
  for (const path of ["/", "/signin", "/settings/profile"]) {
    const response = await request.post(path, {
      headers: { "Content-Type": "multipart/form-data; boundary=x" },
      data: "not multipart at all",
      maxRedirects: 0,
    });
    expect(response.status(), path).toBe(400);
    expectPageHeaders(response.headers());
  }
});
