// Times name their zone (decisions.md, "Tokens and sign-in"): on the tokens, team, webhooks and audit pages every
// time is in the signed-in person's zone and says which, for the Admin in New York and the Owner in London; the audit
// filter reads what is typed in that same zone, so typing the minute an entry shows finds that entry. The deliveries
// table says when columns are hidden to its right, also at 1280 px.
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, signIn, signOut, test } from "./support";

const SCREENSHOTS = path.join(import.meta.dirname, "screenshots");
/** A clock time followed by its zone's short name: "04:41 GMT", "23:41:07 GMT-5", "13:00 BST". */
const ZONED = /\d{2}:\d{2}(:\d{2})? (GMT([+-]\d{1,2}(:\d{2})?)?|BST|UTC)$/;

/** Every <time> of the page's main part names the person's zone, and no clock time stands there without one. */
async function everyTimeNamesItsZone(page: Page, zone: string) {
  const main = page.getByRole("main");
  const times = await main
    .locator("time")
    .evaluateAll((elements) => elements.map((e) => ({ text: e.textContent ?? "", title: e.getAttribute("title") })));
  expect(times.length).toBeGreaterThan(0);
  for (const time of times) expect(time).toEqual({ text: expect.stringMatching(ZONED), title: zone });
  const text = await main.innerText();
  const bare = [...text.matchAll(/\b\d{1,2}:\d{2}(?::\d{2})?(?![:\d])(?! (?:GMT|BST|UTC))/g)].map((m) => m[0]);
  expect(bare).toEqual([]);
}

/** The wall-clock minute an entry shows ("29 Nov 2026, 04:41:12 GMT"), as a datetime-local box takes it. */
function typedMinute(shown: string) {
  const [, day, month, year, hour, minute] = /^(\d{1,2}) (\w{3}) (\d{4}), (\d{2}):(\d{2})/.exec(shown) ?? [];
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  return `${year}-${String(months.indexOf(month) + 1).padStart(2, "0")}-${day.padStart(2, "0")}T${hour}:${minute}`;
}

const nextMinute = (minute: string) => {
  const [date, time] = minute.split("T");
  const [hour, min] = time.split(":").map(Number);
  // The entries of this run are not made at 23:59: a test that would need a date's roll-over says so.
  expect(hour * 60 + min).toBeLessThan(23 * 60 + 59);
  const next = hour * 60 + min + 1;
  return `${date}T${String(Math.floor(next / 60)).padStart(2, "0")}:${String(next % 60).padStart(2, "0")}`;
};

/** Typing the minute the newest entry shows finds it; the minute after does not; every entry found is in that minute. */
async function filterAgreesWithList(page: Page, zone: string) {
  await page.goto("/settings/audit");
  const entries = page.getByRole("list", { name: "Audit log entries" }).getByRole("listitem");
  const newest = entries.first().locator("time").first();
  const id = await newest.getAttribute("datetime");
  const minute = typedMinute((await newest.textContent()) ?? "");
  await page.getByLabel(`From (${zone})`).fill(minute);
  await page.getByLabel(`Before (${zone})`).fill(nextMinute(minute));
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/since=/);
  await expect(entries.first()).toBeVisible();
  const found = await entries.evaluateAll((items) => items.map((i) => i.querySelector("time")?.textContent ?? ""));
  expect(found.length).toBeGreaterThan(0);
  for (const shown of found) expect(typedMinute(shown)).toBe(minute);
  expect(await entries.locator(`time[datetime="${id}"]`).count()).toBe(1);
  // The boxes show again what was typed, in the same zone.
  await expect(page.getByLabel(`From (${zone})`)).toHaveValue(minute);
  await page.getByLabel(`From (${zone})`).fill(nextMinute(minute));
  await page.getByLabel(`Before (${zone})`).fill("");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.locator(`time[datetime="${id}"]`)).toHaveCount(0);
}

test("every time on the tokens, team, webhooks and audit pages names its zone; the audit filter agrees with its list", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  // The Admin, in New York: a token that expires and has been used, an invite, a webhook endpoint with a delivery.
  await page.goto("/signin?callbackUrl=%2Fsettings%2Fapi-tokens");
  await signIn(page, "admin@acme.test");
  await page.getByLabel("Name", { exact: true }).fill("Zone probe");
  await page.getByLabel("Expires").selectOption("30");
  await page.getByRole("button", { name: "Create token" }).click();
  const token = await page.getByLabel("Token value").inputValue();
  expect((await request.get("/api/v1/me", { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(200);
  const probe = page.getByRole("list", { name: "Your tokens" }).getByRole("listitem").filter({ hasText: "Zone probe" });
  // The token request log writes its batch within REQUEST_LOG_FLUSH_MS (2 s) of the answer: reloaded until it shows.
  await expect(async () => {
    await page.reload();
    await expect(probe).toContainText(/Last used\s*\d/, { timeout: 1000 });
    await probe.getByText("Recent requests").click();
    await expect(probe.getByRole("table")).toContainText("/api/v1/me", { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await everyTimeNamesItsZone(page, "America/New_York");
  await expect(probe.locator("time").first()).toHaveText(/ GMT-[45]$/);
  await page.screenshot({ path: path.join(SCREENSHOTS, "tokens-zones.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(SCREENSHOTS, "tokens-zones-phone.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.goto("/settings/team");
  const invite = page.getByRole("region", { name: "Invite a person" });
  await invite.getByLabel("Full name").fill("Zoe Zone");
  await invite.getByLabel("Email").fill("zoe.zone@acme.test");
  await invite.getByLabel("Role").selectOption({ label: "Viewer" });
  await invite.getByRole("button", { name: "Invite" }).click();
  await expect(page.getByRole("heading", { name: "Copy the invite link for Zoe Zone now" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("listitem").filter({ hasText: "zoe.zone@acme.test" })).toContainText(
    /link expires in 7 days \(.* GMT-[45]\)/,
  );
  await everyTimeNamesItsZone(page, "America/New_York");

  await page.goto("/settings/webhooks");
  // The demo and these tests allow local receivers, and the page says so; nothing listens on port 9.
  await expect(page.getByText(/also http and local addresses such as http:\/\/localhost:4000\/hook/)).toBeVisible();
  const url = "http://127.0.0.1:9/zones";
  await page.getByLabel("URL").fill(url);
  await page.getByRole("checkbox", { name: "client.updated" }).check();
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const endpoint = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: url }) });
  await endpoint.getByRole("button", { name: "Send test" }).click();
  await expect(async () => {
    await page.reload();
    await expect(endpoint.getByRole("row").filter({ hasText: "webhook.test" })).toContainText("Will retry", {
      timeout: 1_000,
    });
  }).toPass({ timeout: 30_000 });
  await everyTimeNamesItsZone(page, "America/New_York");
  // At 1280 px the table is wider than its card: the page says so above it until it is scrolled to its end.
  const region = endpoint.getByRole("region", { name: /^Deliveries/ });
  const cue = endpoint.getByText("More columns to the right: scroll the table sideways →");
  const overflows = await region.evaluate((e) => e.scrollWidth > e.clientWidth);
  if (overflows) {
    await expect(cue).toBeVisible();
    await region.evaluate((e) => e.scrollTo({ left: e.scrollWidth }));
    await expect(cue).toHaveCount(0);
    await expect(endpoint.getByRole("columnheader", { name: "Next retry" })).toBeInViewport();
  } else await expect(cue).toHaveCount(0);
  await page.screenshot({ path: path.join(SCREENSHOTS, "webhooks-zones.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(cue).toBeVisible(); // a phone shows fewer columns still
  await page.screenshot({ path: path.join(SCREENSHOTS, "webhooks-zones-phone.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await endpoint.getByRole("button", { name: `Delete the endpoint ${url}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete endpoint" }).click();

  await page.goto("/settings/audit");
  await everyTimeNamesItsZone(page, "America/New_York");
  await expect(page.getByLabel("From (America/New_York)")).toBeVisible();
  await page.screenshot({ path: path.join(SCREENSHOTS, "audit-zones.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: path.join(SCREENSHOTS, "audit-zones-phone.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await filterAgreesWithList(page, "America/New_York");
  await signOut(page);

  // The Owner, in London: the same pages, the same moments, in London's time and named so.
  await page.goto("/signin?callbackUrl=%2Fsettings%2Fapi-tokens");
  await signIn(page, "owner@acme.test");
  await expect(
    page.getByRole("list", { name: "Firm tokens" }).getByRole("listitem").filter({ hasText: "Zone probe" }),
  ).toContainText(/(GMT|BST)\b/);
  await everyTimeNamesItsZone(page, "Europe/London");
  await page.goto("/settings/team");
  await everyTimeNamesItsZone(page, "Europe/London");
  await page.goto("/settings/audit");
  await everyTimeNamesItsZone(page, "Europe/London");
  await filterAgreesWithList(page, "Europe/London");
});
