// Each token's recent requests on the API tokens page (issue 40): an integrator sees their token's calls (200, 422,
// 404) with the 422's field error, and filters to failures; the firm's Owner sees them under Firm tokens; another
// firm's Owner never sees them.
import { expect, signIn, signOut, test } from "./support";

test("a token's recent requests, with a 422's field errors, filtered to failures, seen by its firm only", async ({
  page,
  request,
}) => {
  await page.goto("/signin?callbackUrl=%2Fsettings%2Fapi-tokens");
  await signIn(page, "assigned@acme.test");
  await page.getByLabel("Name", { exact: true }).fill("Request log sync");
  await page.getByRole("button", { name: "Create token" }).click();
  const value = await page.getByLabel("Token value").inputValue();

  const headers = { Authorization: `Bearer ${value}`, Accept: "application/json" };
  const ok = await request.get("/api/v1/me", { headers });
  const invalid = await request.get("/api/v1/clients?limit=0", { headers });
  const missing = await request.get("/api/v1/no-such-endpoint", { headers });
  expect([ok.status(), invalid.status(), missing.status()]).toEqual([200, 422, 404]);
  const ids = [ok, invalid, missing].map((r) => r.headers()["x-request-id"]);
  expect((await invalid.json()).request_id).toBe(ids[1]);

  const ownRow = page
    .getByRole("list", { name: "Your tokens" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: "Request log sync", exact: true }) });
  const table = page.getByRole("table", { name: "Recent requests of Request log sync" });
  // The log is written in batches every few seconds: reload until the three are there.
  await expect(async () => {
    await page.reload();
    await ownRow.getByText("Recent requests").click();
    await expect(table.getByRole("row")).toHaveCount(4, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  const rows = table.getByRole("row");
  await expect(rows.nth(1)).toContainText("GET /api/v1/no-such-endpoint");
  await expect(rows.nth(1)).toContainText("404");
  await expect(rows.nth(2)).toContainText("GET /api/v1/clients");
  await expect(rows.nth(2)).toContainText("422");
  await expect(rows.nth(2).locator("li")).toContainText("limit:");
  await expect(rows.nth(2)).toContainText(ids[1]);
  await expect(rows.nth(3)).toContainText("GET /api/v1/me");
  await expect(rows.nth(3)).toContainText("200");

  await ownRow.getByLabel("Show").selectOption({ label: "Failures (4xx and 5xx)" });
  await expect(rows).toHaveCount(3);
  await expect(table).not.toContainText("/api/v1/me");
  await signOut(page);

  // The firm's Owner sees the token's requests in Firm tokens.
  await page.goto("/signin?callbackUrl=%2Fsettings%2Fapi-tokens");
  await signIn(page, "owner@acme.test");
  const firmRow = page
    .getByRole("list", { name: "Firm tokens" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: "Request log sync", exact: true }) });
  await firmRow.getByText("Recent requests").click();
  await expect(firmRow.getByRole("table")).toContainText(ids[1]);
  await signOut(page);

  // Another firm's Owner: neither the token nor any of its requests.
  await page.goto("/signin?callbackUrl=%2Fsettings%2Fapi-tokens");
  await signIn(page, "owner@birch.test");
  await expect(page.getByRole("heading", { name: "API tokens" })).toBeVisible();
  for (const details of await page.locator("details").all()) await details.locator("summary").click();
  await page.waitForLoadState("networkidle");
  const content = await page.content();
  expect(content).not.toContain("Request log sync");
  for (const id of ids) expect(content).not.toContain(id);
});
