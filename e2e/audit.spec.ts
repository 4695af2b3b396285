// /settings/audit in the browser: an Owner makes a token named "Invoicing", changes a client's city through the API
// with it, finds that change on the audit page filtered by the client (the sentence, before and after, the token's
// name) and downloads the filtered entries as CSV. A Standard user has no link to the page and gets a 404.
import { readFile } from "node:fs/promises";
import { expect, signIn, signOut, test } from "./support";

test("find an API change on the audit page, filtered by its client, and download it as CSV", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000); // two sign-ins and several pages on a busy machine
  await page.goto("/signin?callbackUrl=%2Fsettings%2Fapi-tokens");
  await signIn(page, "owner@acme.test");
  await page.getByLabel("Name", { exact: true }).fill("Invoicing");
  await page.getByRole("button", { name: "Create token" }).click();
  const token = await page.getByLabel("Token value").inputValue();
  const headers = { Authorization: `Bearer ${token}` };

  const created = await request.post("/api/v1/clients", { headers, data: { name: "Audit Probe Ltd", city: "Leeds" } });
  expect(created.status()).toBe(201);
  const { uuid } = await created.json();
  const updated = await request.put(`/api/v1/clients/${uuid}`, { headers, data: { city: "York" } });
  expect(updated.status()).toBe(200);

  await page.getByRole("navigation", { name: "Account settings" }).getByRole("link", { name: "Audit log" }).click();
  await expect(page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
  await page.getByLabel("Record uuid").fill(uuid);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(new RegExp(`target_uuid=${uuid}`));

  const entries = page.getByRole("list", { name: "Audit log entries" }).getByRole("listitem");
  await expect(entries).toHaveCount(2);
  const change = entries.first();
  await expect(change).toContainText(
    "Olivia Owner (owner@acme.test) changed the city of Audit Probe Ltd from Leeds to York, with token 'Invoicing'",
  );
  const row = change.getByRole("table", { name: "Changes" }).getByRole("row").filter({ hasText: "city" });
  await expect(row.getByRole("cell")).toHaveText(["city", "Leeds", "York"]);
  await expect(entries.nth(1)).toContainText(
    "Olivia Owner (owner@acme.test) created the client Audit Probe Ltd, with token 'Invoicing'",
  );

  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = (await readFile(await download.path(), "utf8")).trimEnd().split("\r\n");
  expect(lines).toHaveLength(3);
  expect(lines[1]).toContain('"client.updated"');
  expect(lines[1]).toContain('"Invoicing"');
  expect(lines[1]).toContain(`"${uuid}"`);
  expect(lines[1]).toContain('"{""city"":[""Leeds"",""York""]}"');
  expect(lines[2]).toContain('"client.created"');

  await signOut(page);
  await page.goto("/signin?callbackUrl=%2Fsettings%2Fprofile");
  await signIn(page, "standard@acme.test");
  await expect(page.getByRole("heading", { name: "Profile", level: 1 })).toBeVisible();
  const navigation = page.getByRole("navigation", { name: "Account settings" });
  await expect(navigation.getByRole("link", { name: "Profile" })).toBeVisible();
  await expect(navigation.getByRole("link", { name: "Audit log" })).toHaveCount(0);
  expect((await page.goto("/settings/audit"))?.status()).toBe(404);
  expect((await page.request.get("/settings/audit/download")).status()).toBe(404);
});
