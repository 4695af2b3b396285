// Getting back in (decisions.md, "Tokens and sign-in"): an Admin gives a member a one-time link on the team page;
// the member opens it in a browser of their own, sets a new password and signs in, while their older session ends;
// the link then says it was used; the audit log says who did what. "Forgot password?" mails a link through a local
// SMTP server (the config points the app at it) and answers an unknown email in the same words. The sign-in page
// says why a try waits after the third wrong password, and that someone signed out is.
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import { type SmtpCatcher, startSmtpCatcher } from "../tests/support/smtp-catcher";
import { clientAddress, DEMO_PASSWORD, expect, signIn, signInMessage, test, WRONG_CREDENTIALS } from "./support";

const SCREENSHOTS = path.join(import.meta.dirname, "screenshots");
const SMTP_PORT = Number(process.env.E2E_PORT || 3250) + 2;

/** A screenshot at 1280 px and at 390 px (then back to 1280), with nothing wider than the phone's screen. */
async function shoot(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-phone.png`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** A browser of its own (its own cookies), as another person at another address. */
async function ownBrowser(browser: Browser, baseURL: string | undefined, who: string) {
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: { "X-Forwarded-For": clientAddress(who) } });
  return context.newPage();
}

let smtp: SmtpCatcher;
test.beforeAll(async () => {
  smtp = await startSmtpCatcher(SMTP_PORT);
});
test.afterAll(() => smtp.close());

test("an Admin gives a member a reset link; the member sets a new password and signs in; old sessions end; logged", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000); // three browsers, several sign-ins, on a busy machine
  // Sam's own session, from before: it must end when the new password is set.
  const before = await ownBrowser(browser, baseURL, "sam's laptop");
  await before.goto("/signin?callbackUrl=%2Fsettings%2Fprofile");
  await signIn(before, "standard@acme.test");
  await expect(before.getByRole("heading", { name: "Profile", level: 1 })).toBeVisible();

  await page.goto("/signin?callbackUrl=%2Fsettings%2Fteam");
  await signIn(page, "admin@acme.test");
  const people = page.getByRole("list", { name: "People" });
  const sam = people.getByRole("listitem").filter({ hasText: "standard@acme.test" });
  // Not offered for the Owner (an Admin must not take over the Owner's sign-in) nor for oneself.
  const owner = people.getByRole("listitem").filter({ hasText: "owner@acme.test" });
  await expect(owner.getByRole("button", { name: /reset/i })).toHaveCount(0);
  await expect(
    people.getByRole("listitem").filter({ hasText: "(you)" }).getByRole("button", { name: /reset/i }),
  ).toHaveCount(0);
  await sam.getByRole("button", { name: "Link to reset the password of Sam Standard" }).click();
  const heading = page.getByRole("heading", { name: "Copy the link to set a new password for Sam Standard now" });
  await expect(heading).toBeFocused();
  const link = await page.getByRole("textbox", { name: "Link to set a new password for Sam Standard" }).inputValue();
  expect(link).toMatch(new RegExp(`^${baseURL}/reset/[A-Za-z0-9_-]{43}$`));
  // It works for 24 hours, until a time in the Admin's zone (New York), which the page names.
  const until = sam.locator("time");
  await expect(until).toHaveAttribute("title", "America/New_York");
  const expires = Date.parse((await until.getAttribute("datetime")) ?? "");
  expect(Math.abs(expires - Date.now() - 24 * 3600_000)).toBeLessThan(5 * 60_000);
  await expect(until).toHaveText(/ GMT-[45]$/);
  await shoot(page, "team-reset-link");

  // Sam, in a browser of his own, sets a new password with it.
  const theirs = await ownBrowser(browser, baseURL, "sam's phone");
  await theirs.goto(link);
  await expect(theirs.getByRole("heading", { name: "Set a new password" })).toBeVisible();
  await expect(theirs.getByText(/Sam Standard, choose a new password to sign in to Acme Accounting/)).toBeVisible();
  await shoot(theirs, "reset");
  await theirs.getByLabel("New password", { exact: true }).fill("sams-new-password");
  await theirs.getByLabel("New password again").fill("sams-new-password");
  await theirs.getByRole("button", { name: "Set password" }).click();
  await expect(theirs.getByRole("heading", { name: "Your password is set" })).toBeFocused();
  await theirs.getByRole("link", { name: "Go to sign in" }).click();
  await expect(theirs.getByRole("status")).toHaveText(
    "Your new password is set, and you were signed out everywhere. Sign in with it.",
  );
  await signIn(theirs, "standard@acme.test", DEMO_PASSWORD);
  await expect(signInMessage(theirs)).toHaveText(WRONG_CREDENTIALS);
  await signIn(theirs, "standard@acme.test", "sams-new-password");
  await expect(theirs.getByText("Signed in as standard@acme.test")).toBeVisible();

  // The link is used; the older session has ended.
  await theirs.goto(link);
  await expect(theirs.getByRole("heading", { name: "This link was already used" })).toBeVisible();
  await before.reload();
  await expect(before).toHaveURL(/\/signin\?callbackUrl=/);

  // The audit log says who did what, as the Admin reads it.
  await page.goto("/settings/audit?target_type=user");
  const entries = page.getByRole("list", { name: "Audit log entries" });
  await expect(entries).toContainText(
    "Sam Standard (standard@acme.test) set a new password with a one-time link, which signed them out everywhere",
  );
  await expect(entries).toContainText(
    "Adam Admin (admin@acme.test) made a one-time link for Sam Standard to set a new password",
  );

  // Back to the demo's password, with a second link, for the other specs that sign in as Sam.
  await page.goto("/settings/team");
  await sam.getByRole("button", { name: "Link to reset the password of Sam Standard" }).click();
  const again = await page.getByRole("textbox", { name: "Link to set a new password for Sam Standard" }).inputValue();
  await theirs.goto(again);
  await theirs.getByLabel("New password", { exact: true }).fill(DEMO_PASSWORD);
  await theirs.getByLabel("New password again").fill(DEMO_PASSWORD);
  await theirs.getByRole("button", { name: "Set password" }).click();
  await expect(theirs.getByRole("heading", { name: "Your password is set" })).toBeVisible();
  await theirs.goto(link); // the first link stays used
  await expect(theirs.getByRole("heading", { name: "This link was already used" })).toBeVisible();
  await theirs.context().close();
  await before.context().close();
});

test("Forgot password? mails a link for a known email and says the same words for an unknown one", async ({
  page,
  browser,
  baseURL,
}) => {
  await page.goto("/signin");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page.getByRole("heading", { name: "Forgot password" })).toBeVisible();
  await shoot(page, "forgot-password");
  await page.getByLabel("Email").fill("viewer@acme.test");
  await page.getByRole("button", { name: "Mail me a link" }).click();
  const answer = page.getByRole("main").getByRole("status");
  await expect(answer).toContainText("If an account has this email, a link to set a new password is on its way");
  const known = await answer.textContent();
  await shoot(page, "forgot-password-sent");

  const mail = await smtp.mailTo("viewer@acme.test", 30_000);
  expect(mail.text).toMatch(/^Subject: Set a new password for Client, Job and Time Tracking/m);
  const link = new RegExp(`${baseURL}/reset/[A-Za-z0-9_-]{43}`).exec(mail.text)?.[0];
  expect(link).toBeTruthy();
  // The link opens the page to set a new password for Val (not used here: Val keeps the demo's password).
  const theirs = await ownBrowser(browser, baseURL, "val");
  await theirs.goto(link!);
  await expect(theirs.getByText(/Val Viewer, choose a new password/)).toBeVisible();
  await theirs.context().close();

  await page.goto("/signin/forgot");
  await page.getByLabel("Email").fill("nobody.at.all@acme.test");
  await page.getByRole("button", { name: "Mail me a link" }).click();
  await expect(answer).toHaveText(known ?? "");
  // Nothing is mailed to it (the known email's mail came within a second or two of its answer).
  await page.waitForTimeout(3_000);
  expect(smtp.mails.filter((m) => m.to.includes("nobody.at.all@acme.test"))).toEqual([]);
});

test("after the third wrong password the page says the next try waits, and why", async ({ page }) => {
  await page.goto("/signin");
  const email = "wait.and.see@acme.test"; // an email without an account waits alike: nothing tells them apart
  await signIn(page, email, "wrong-1");
  await expect(signInMessage(page)).toHaveText(WRONG_CREDENTIALS);
  await signIn(page, email, "wrong-2");
  await expect(signInMessage(page)).toHaveText(WRONG_CREDENTIALS);
  await signIn(page, email, "wrong-3");
  await expect(signInMessage(page)).toHaveText(
    `${WRONG_CREDENTIALS} Several wrong passwords were typed for this email, so each try now waits before it is ` +
      "checked: the next one 1 second, and each wrong one doubles the wait, up to 30 seconds. Wrong passwords " +
      "count for 15 minutes.",
  );
  await shoot(page, "signin-wait");
  await signIn(page, email, "wrong-4");
  await expect(signInMessage(page)).toContainText("the next one 2 seconds");
});

test("signing out says so; the home and 404 pages say who is signed in and offer sign out", async ({ page }) => {
  await page.goto("/");
  const header = page.getByRole("banner");
  await expect(header.getByRole("link", { name: "Sign in" })).toBeVisible();
  await page.goto("/signin?callbackUrl=%2F");
  await signIn(page, "groups@acme.test");
  await expect(page).toHaveURL("/");
  await expect(header).toContainText("Signed in as groups@acme.test");
  await shoot(page, "home");
  expect((await page.goto("/no/such/page"))?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(header).toContainText("Signed in as groups@acme.test");
  await shoot(page, "not-found");
  await header.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText("You are signed out.");
  await expect(page.getByRole("link", { name: "Forgot password?" })).toBeVisible();
  await shoot(page, "signed-out");
});
