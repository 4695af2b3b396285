// /settings/webhooks in the browser: an Owner adds an endpoint (a real receiver on loopback; the server runs with
// WEBHOOKS_ALLOW_PRIVATE=true), sees the secret once, sends a test and sees the delivery listed with its status code.
// A Standard user has no Webhooks link and is told the page is not for them.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, signIn, signOut, test } from "./support";

let server: Server;
let url = "";
const received: { id: string; body: string }[] = [];

test.beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      received.push({ id: String(request.headers["webhook-id"]), body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});
test.afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test("add an endpoint, see its secret once, send a test and see the delivery", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/signin?callbackUrl=%2Fsettings%2Fwebhooks");
  await signIn(page, "owner@birch.test");
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
  await expect(
    page.getByRole("navigation", { name: "Account settings" }).getByRole("link", { name: "Webhooks" }),
  ).toHaveAttribute("aria-current", "page");
  await expect(page.getByText("No webhook endpoints yet.")).toBeVisible();

  await page.getByLabel("URL").fill(url);
  await page.getByLabel("client.created").check();
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByRole("heading", { name: `Copy the signing secret of ${url} now` })).toBeFocused();
  const secret = await page.getByLabel("Signing secret", { exact: true }).inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  await page.getByRole("button", { name: "Copy" }).click();
  await expect(page.getByText("Copied to the clipboard.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

  const endpoint = page.getByRole("list", { name: "Webhook endpoints" }).getByRole("listitem").filter({ hasText: url });
  await expect(endpoint).toContainText("Enabled");
  await expect(endpoint.getByText("Nothing sent yet.")).toBeVisible();

  await endpoint.getByRole("button", { name: "Send test" }).click();
  const deliveries = endpoint.getByRole("table", { name: `Recent deliveries to ${url}` });
  // Listed at once; attempted after the page's answer (decisions.md, Capacity), so its outcome shows on a refresh.
  await expect(deliveries.getByRole("row").filter({ hasText: "webhook.test" })).toBeVisible();
  await expect(async () => {
    await page.reload();
    await expect(deliveries.getByRole("row").filter({ hasText: "webhook.test" })).toContainText("Delivered", {
      timeout: 1_000,
    });
  }).toPass({ timeout: 15_000 });
  await expect(deliveries).toContainText("HTTP 204");
  expect(received).toHaveLength(1);
  expect(JSON.parse(received[0].body)).toMatchObject({ type: "webhook.test" });

  // Shown once: a reload no longer has it.
  await page.reload();
  await expect(page.getByLabel("Signing secret", { exact: true })).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);

  await endpoint.getByRole("button", { name: "Disable" }).click();
  await expect(endpoint).toContainText("Disabled");
  await endpoint.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete endpoint" }).click();
  await expect(page.getByText("No webhook endpoints yet.")).toBeVisible();
  await signOut(page);
});

test("a Standard user has no Webhooks link, and the page answers 404 as the team page does", async ({ page }) => {
  await page.goto("/signin?callbackUrl=%2Fsettings%2Fprofile");
  await signIn(page, "standard@birch.test");
  const nav = page.getByRole("navigation", { name: "Account settings" });
  await expect(nav.getByRole("link", { name: "Profile" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Webhooks" })).toHaveCount(0);
  expect((await page.goto("/settings/webhooks"))?.status()).toBe(404);
  await expect(page.getByLabel("URL")).toHaveCount(0);
  expect((await page.goto("/settings/team"))?.status()).toBe(404);
});
