// What a newcomer meets on the settings pages: forms that keep what was typed when the server refuses it, webhook
// deletion and secret rotation that ask first, a 404 page with a way back (also for a page the role may not use),
// /docs with a link back, and the tokens and webhooks pages at 390 px (screenshots in e2e/screenshots/).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, signIn, test } from "./support";

const SCREENSHOTS = path.join(import.meta.dirname, "screenshots");
let receiver: Server;
let url = "";

test.beforeAll(async () => {
  receiver = createServer((request, response) => {
    request.resume().on("end", () => response.writeHead(503).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/first-day`;
});
test.afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

/** The page is no wider than the screen: nothing is cut off or needs the whole page scrolled sideways. */
async function fitsWidth(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

test("the webhook form keeps what was typed when refused; delete and rotate ask first", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto("/signin?callbackUrl=%2Fsettings%2Fwebhooks");
  await signIn(page, "admin@acme.test");
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();

  // A URL the browser accepts and the server refuses (not http or https).
  await page.getByLabel("URL").fill("ftp://files.example/hooks");
  await page.getByLabel("Description").fill("Billing sync");
  await page.getByLabel("client.created").check();
  await page.getByLabel("job.updated").check();
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByTestId("webhook-form-error")).toBeVisible();
  await expect(page.getByLabel("URL")).toHaveValue("ftp://files.example/hooks");
  await expect(page.getByLabel("Description")).toHaveValue("Billing sync");
  await expect(page.getByLabel("client.created")).toBeChecked();
  await expect(page.getByLabel("job.updated")).toBeChecked();
  await expect(page.getByLabel("contact.created")).not.toBeChecked();

  await page.getByLabel("URL").fill(url);
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByRole("heading", { name: `Copy the signing secret of ${url} now` })).toBeVisible();
  // Added: the form is empty again, ready for the next endpoint.
  await expect(page.getByLabel("URL")).toHaveValue("");
  await expect(page.getByLabel("client.created")).not.toBeChecked();
  const endpoint = page.getByRole("list", { name: "Webhook endpoints" }).getByRole("listitem").filter({ hasText: url });

  // Rotate asks; Cancel changes nothing, confirming shows the new secret.
  await endpoint.getByRole("button", { name: `Rotate the signing secret of ${url}` }).click();
  const rotate = page.getByRole("dialog", { name: `Rotate the signing secret of ${url}?` });
  await expect(rotate).toBeVisible();
  await expect(rotate.getByRole("button", { name: "Cancel" })).toBeFocused();
  await rotate.getByRole("button", { name: "Cancel" }).click();
  await expect(rotate).toBeHidden();
  await expect(page.getByRole("heading", { name: /Copy the new signing secret/ })).toHaveCount(0);
  await endpoint.getByRole("button", { name: `Rotate the signing secret of ${url}` }).click();
  await rotate.getByRole("button", { name: "Rotate secret" }).click();
  await expect(page.getByRole("heading", { name: `Copy the new signing secret of ${url} now` })).toBeVisible();

  // A failing delivery, to see the deliveries table's words and its width at 390 px.
  await endpoint.getByRole("button", { name: "Send test" }).click();
  const deliveries = endpoint.getByRole("table", { name: `Recent deliveries to ${url}` });
  // Listed at once; attempted after the page's answer (decisions.md, Capacity), so its outcome shows on a refresh.
  await expect(deliveries.getByRole("row").filter({ hasText: "webhook.test" })).toBeVisible();
  await expect(async () => {
    await page.reload();
    await expect(deliveries.getByRole("row").filter({ hasText: "webhook.test" })).toContainText("HTTP 503", {
      timeout: 1_000,
    });
  }).toPass({ timeout: 30_000 });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(SCREENSHOTS, "first-day-webhooks-phone.png"), fullPage: true });
  await fitsWidth(page, 390);
  // The table's last column is reached by scrolling the table itself.
  const region = endpoint.getByRole("region", { name: /^Deliveries/ });
  await region.scrollIntoViewIfNeeded();
  await expect(deliveries.getByRole("columnheader", { name: "Next retry" })).not.toBeInViewport();
  await region.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
  await expect(deliveries.getByRole("columnheader", { name: "Next retry" })).toBeInViewport();
  await page.screenshot({ path: path.join(SCREENSHOTS, "first-day-webhooks-phone-scrolled.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // Delete asks; Cancel keeps the endpoint.
  await endpoint.getByRole("button", { name: `Delete the endpoint ${url}` }).click();
  const remove = page.getByRole("dialog", { name: `Delete the endpoint ${url}?` });
  await remove.getByRole("button", { name: "Cancel" }).click();
  await expect(endpoint).toHaveCount(1);
  await endpoint.getByRole("button", { name: `Delete the endpoint ${url}` }).click();
  await remove.getByRole("button", { name: "Delete endpoint" }).click();
  await expect(endpoint).toHaveCount(0);
});

test("the token form keeps the name, expiry and access when refused; the list at 390 px", async ({ page }) => {
  await page.goto("/signin?callbackUrl=%2Fsettings%2Fapi-tokens");
  await signIn(page, "groups@acme.test");
  await page.getByLabel("Name", { exact: true }).fill("Nothing at all");
  await page.getByLabel("Expires").selectOption("30");
  await page.getByRole("radio", { name: /^Custom/ }).check();
  await page.getByLabel("Jobs").selectOption("none");
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(
    "Give the token access to at least one resource: with none, it can do nothing.",
  );
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Nothing at all");
  await expect(page.getByLabel("Expires")).toHaveValue("30");
  await expect(page.getByRole("radio", { name: /^Custom/ })).toBeChecked();

  await page.getByLabel("Jobs").selectOption("read");
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByLabel("Token value")).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill("A second, with a much longer name than the first one has");
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByRole("heading", { name: /Copy your new token/ })).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(SCREENSHOTS, "first-day-tokens-phone.png"), fullPage: true });
  await fitsWidth(page, 390);
  // Every row's Delete button sits at the same distance from the right edge.
  const buttons = page.getByRole("list", { name: "Your tokens" }).getByRole("button", { name: /^Delete / });
  const rights = await buttons.evaluateAll((all) => all.map((b) => Math.round(b.getBoundingClientRect().right)));
  expect(rights.length).toBeGreaterThanOrEqual(2);
  expect(new Set(rights).size).toBe(1);
});

test("a token in both Your tokens and Firm tokens: no id twice, each dialog labelled by its own heading", async ({
  page,
}) => {
  await page.goto("/signin?callbackUrl=%2Fsettings%2Fapi-tokens");
  await signIn(page, "admin@acme.test");
  await page.getByLabel("Name", { exact: true }).fill("In both lists");
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByLabel("Token value")).toBeVisible();
  const firm = page
    .getByRole("list", { name: "Firm tokens" })
    .getByRole("listitem")
    .filter({ hasText: "In both lists" });
  await expect(firm).toHaveCount(1);
  const repeated = await page.evaluate(() => {
    const ids = [...document.querySelectorAll("[id]")].map((element) => element.id);
    return ids.filter((id, i) => ids.indexOf(id) !== i);
  });
  expect(repeated).toEqual([]);
  await firm.getByRole("button", { name: /^Revoke / }).click();
  await expect(page.getByRole("dialog", { name: /^Revoke .*'s token “In both lists”\?$/ })).toBeVisible();
  await page.keyboard.press("Escape");
  const own = page
    .getByRole("list", { name: "Your tokens" })
    .getByRole("listitem")
    .filter({ hasText: "In both lists" });
  await own.getByRole("button", { name: "Delete In both lists" }).click();
  await expect(page.getByRole("dialog", { name: "Delete the token “In both lists”?" })).toBeVisible();
});

test("the audit filters keep a refused uuid", async ({ page }) => {
  await page.goto("/signin?callbackUrl=%2Fsettings%2Faudit");
  await signIn(page, "owner@acme.test");
  await page.getByLabel("Record uuid").fill("not-a-uuid");
  await page.getByLabel("Action").selectOption("client.updated");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("Correct the filters above.")).toBeVisible();
  await expect(page.getByLabel("Record uuid")).toHaveValue("not-a-uuid");
  await expect(page.getByLabel("Record uuid")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Action")).toHaveValue("client.updated");
});

test("a page that is not there, or not for the role, leads back; so does /docs", async ({ page }) => {
  await page.goto("/signin?callbackUrl=%2Fsettings%2Fprofile");
  await signIn(page, "viewer@acme.test");
  await expect(page.getByRole("heading", { name: "Profile", level: 1 })).toBeVisible();
  for (const address of ["/settings/nope", "/settings/webhooks"]) {
    expect((await page.goto(address))?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found", level: 1 })).toBeVisible();
  }
  await page.getByRole("navigation", { name: "Ways back" }).getByRole("link", { name: "Account settings" }).click();
  await expect(page.getByRole("heading", { name: "API tokens", level: 1 })).toBeVisible();

  await page.goto("/docs");
  await page.getByRole("navigation", { name: "Back to the app" }).getByRole("link", { name: "API tokens" }).click();
  await expect(page).toHaveURL(/\/settings\/api-tokens$/);
});
