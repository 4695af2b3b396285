// The team page (/settings/team) and the invite page (/invite/<token>): an Owner invites a person, who sets a password
// from the link and signs in; the Owner archives them, and their session and API token stop at once.
import path from "node:path";
import { clientAddress, expect, signIn, test } from "./support";

const SCREENSHOTS = path.join(import.meta.dirname, "screenshots");

async function noHorizontalScroll(page: import("@playwright/test").Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}

/** Per row with an Archive or Unarchive button: whether the button sits under the row's details (else beside them). */
async function buttonsUnderDetails(page: import("@playwright/test").Page) {
  return page
    .getByRole("list", { name: "People" })
    .getByRole("listitem")
    .evaluateAll((rows) =>
      rows.flatMap((row) => {
        const button = row.querySelector('button[aria-label^="Archive "], button[aria-label^="Unarchive "]');
        const details = row.querySelector("dl");
        if (!button || !details) return [];
        return [button.getBoundingClientRect().top >= details.getBoundingClientRect().bottom];
      }),
    );
}

test("invite, copy the link, set a password, sign in; archived, the person's session and token stop", async ({
  page,
  browser,
  baseURL,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/signin?callbackUrl=%2Fsettings%2Fteam");
  await signIn(page, "owner@acme.test");
  await expect(page.getByRole("heading", { name: "Team", level: 1 })).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Account settings" });
  await expect(nav.getByRole("link", { name: "Team" })).toHaveAttribute("aria-current", "page");

  const inviteForm = page.getByRole("region", { name: "Invite a person" });
  await inviteForm.getByLabel("Full name").fill("Iris Invited");
  await inviteForm.getByLabel("Email").fill("iris@acme.test");
  await inviteForm.getByLabel("Role").selectOption({ label: "Standard" });
  await inviteForm.getByRole("radio", { name: /Clients in their groups/ }).check();
  await inviteForm.getByRole("button", { name: "Invite" }).click();
  // Access by groups needs a group: said next to the groups, and nothing is lost.
  await expect(inviteForm.getByText(/^Choose at least one client group/)).toBeVisible();
  await expect(inviteForm.getByLabel("Full name")).toHaveValue("Iris Invited");
  await inviteForm.getByRole("group", { name: "Client groups" }).getByRole("checkbox").first().check();
  await inviteForm.getByRole("button", { name: "Invite" }).click();

  await expect(page.getByRole("heading", { name: "Copy the invite link for Iris Invited now" })).toBeFocused();
  await expect(page.getByTestId("team-announcement")).toHaveText("Iris Invited is invited. Copy their link now.");
  const link = await page.getByRole("textbox", { name: "Invite link for Iris Invited" }).inputValue();
  expect(link).toMatch(new RegExp(`^${baseURL}/invite/[A-Za-z0-9_-]{43}$`));
  await page.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByText("Copied to the clipboard.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

  const people = page.getByRole("list", { name: "People" });
  const row = people.getByRole("listitem").filter({ has: page.getByRole("heading", { name: /^Iris Invited/ }) });
  await expect(row).toContainText("Invited: link expires in 7 days");
  await expect(row).toContainText("Clients in their groups");
  await page.screenshot({ path: path.join(SCREENSHOTS, "team.png"), fullPage: true });
  // The Archive (or Unarchive) button has one place on every row: beside the details on a wide screen, under them
  // on a phone, whatever the length of each row's text.
  const wide = await buttonsUnderDetails(page);
  expect(wide.length).toBeGreaterThan(3);
  expect(wide.every((under) => !under)).toBe(true);
  await page.setViewportSize({ width: 390, height: 844 });
  await noHorizontalScroll(page);
  expect((await buttonsUnderDetails(page)).every((under) => under)).toBe(true);
  // The link wraps inside its box: nothing hidden or scrolled away.
  const linkBox = page.getByRole("textbox", { name: "Invite link for Iris Invited" });
  expect(await linkBox.evaluate((el) => el.scrollHeight <= el.clientHeight && el.scrollWidth <= el.clientWidth)).toBe(
    true,
  );
  await page.screenshot({ path: path.join(SCREENSHOTS, "team-phone.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // The invited person, in a browser of their own.
  const theirs = await browser.newContext({
    baseURL,
    extraHTTPHeaders: { "X-Forwarded-For": clientAddress("iris") },
  });
  const iris = await theirs.newPage();
  await iris.goto(link);
  await expect(iris.getByRole("heading", { name: "Set your password" })).toBeVisible();
  await expect(iris.getByText("Welcome to Acme Accounting, Iris Invited.")).toBeVisible();
  await iris.screenshot({ path: path.join(SCREENSHOTS, "invite.png"), fullPage: true });
  await iris.setViewportSize({ width: 390, height: 844 });
  await noHorizontalScroll(iris);
  await iris.screenshot({ path: path.join(SCREENSHOTS, "invite-phone.png"), fullPage: true });

  await iris.getByLabel("New password", { exact: true }).fill("iris-password-1");
  await iris.getByLabel("New password again").fill("iris-password-2");
  await iris.getByRole("button", { name: "Set password" }).click();
  const differ = "The two passwords differ. Type the same one twice.";
  await expect(iris.locator("#field-confirmation-error")).toHaveText(differ);
  await expect(iris.getByRole("main").getByRole("alert")).toHaveText(differ); // said to screen readers too
  await expect(iris.getByLabel("New password again")).toHaveAttribute("aria-invalid", "true");
  await iris.getByLabel("New password", { exact: true }).fill("iris-password-1");
  await iris.getByLabel("New password again").fill("iris-password-1");
  await iris.getByRole("button", { name: "Set password" }).click();
  await expect(iris.getByRole("heading", { name: "Your password is set" })).toBeFocused();
  await iris.getByRole("link", { name: "Go to sign in" }).click();
  await expect(iris.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await signIn(iris, "iris@acme.test", "iris-password-1");
  await expect(iris.getByRole("heading", { name: "API tokens" })).toBeVisible();

  // A Standard user: no Team link, no Team page (their own apps, yes).
  await expect(iris.getByRole("navigation", { name: "Account settings" }).getByRole("link")).toHaveText([
    "Profile",
    "API tokens",
    "Connected apps",
  ]);
  expect((await iris.goto("/settings/team"))?.status()).toBe(404);
  await expect(iris.getByRole("heading", { name: "Team" })).toHaveCount(0);

  await iris.goto("/settings/api-tokens");
  await iris.getByLabel("Name").fill("Iris's script");
  await iris.getByRole("button", { name: "Create token" }).click();
  const token = await iris.getByLabel("Token value").inputValue();
  const headers = { Authorization: `Bearer ${token}`, Accept: "application/json" };
  const api = theirs.request;
  const me = await api.get("/api/v1/me", { headers });
  expect(me.status()).toBe(200);
  expect(await me.json()).toMatchObject({ email: "iris@acme.test", fullname: "Iris Invited" });

  // The link worked once.
  await iris.goto(link);
  await expect(iris.getByRole("heading", { name: "This invite link was already used" })).toBeVisible();

  // The Owner archives her: a confirmation first (Escape and Cancel keep her), then her session and token stop.
  await page.reload();
  await expect(row).toContainText("Active");
  await row.getByRole("button", { name: "Archive Iris Invited" }).click();
  const confirmation = page.getByRole("dialog", { name: "Archive Iris Invited?" });
  await expect(confirmation.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(confirmation).toBeHidden();
  await row.getByRole("button", { name: "Archive Iris Invited" }).click();
  await confirmation.getByRole("button", { name: "Cancel" }).click();
  await expect(confirmation).toBeHidden();
  expect((await api.get("/api/v1/me", { headers })).status()).toBe(200);

  await row.getByRole("button", { name: "Archive Iris Invited" }).click();
  await confirmation.getByRole("button", { name: "Archive" }).click();
  await expect(page.getByTestId("team-announcement")).toHaveText(
    "Iris Invited is archived: signed out everywhere, 1 API token revoked.",
  );
  await expect(page.getByRole("heading", { name: "People" })).toBeFocused();
  await expect(row).toContainText("Archived on");

  expect((await api.get("/api/v1/me", { headers })).status()).toBe(401);
  await iris.goto("/settings/api-tokens");
  await expect(iris).toHaveURL(/\/signin\?callbackUrl=/);

  // Unarchived, she may sign in again; the old session and token stay dead.
  await row.getByRole("button", { name: "Unarchive Iris Invited" }).click();
  await expect(page.getByTestId("team-announcement")).toHaveText("Iris Invited is back and can sign in again.");
  await expect(row).toContainText("Active");
  expect((await api.get("/api/v1/me", { headers })).status()).toBe(401);
  await theirs.close();
});

test("an Admin changes a person's role and client access from the keyboard; the Owner's row has no controls", async ({
  page,
}) => {
  await page.goto("/signin?callbackUrl=%2Fsettings%2Fteam");
  await signIn(page, "admin@acme.test");
  const people = page.getByRole("list", { name: "People" });
  const owner = people.getByRole("listitem").filter({ hasText: "owner@acme.test" });
  await expect(owner).toContainText("cannot be archived");
  await expect(owner.getByRole("button")).toHaveCount(0);
  await expect(owner.getByText("Change role or access")).toHaveCount(0);

  const viewer = people.getByRole("listitem").filter({ hasText: "viewer@acme.test" });
  const summary = viewer.getByText("Change role or access");
  await summary.focus();
  await page.keyboard.press("Enter");
  await viewer.getByLabel("Role").selectOption({ label: "Standard" });
  await viewer.getByRole("radio", { name: /Assigned clients only/ }).check();
  await viewer.getByRole("button", { name: "Save changes" }).press("Enter");
  await expect(page.getByTestId("team-announcement")).toHaveText("Val Viewer is saved: Standard.");
  await expect(viewer.getByRole("definition").nth(1)).toHaveText("Standard");
  await expect(viewer).toContainText("Assigned clients only");
  await expect(viewer.locator("summary")).toBeFocused();
});

test("Standard users see neither the Team link nor the page; a bad invite link says so", async ({ page }) => {
  await page.goto("/signin?callbackUrl=%2Fsettings%2Fprofile");
  await signIn(page, "standard@birch.test");
  await expect(page.getByRole("heading", { name: "Profile", exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Team" })).toHaveCount(0);
  expect((await page.goto("/settings/team"))?.status()).toBe(404);

  await page.goto(`/invite/${"x".repeat(43)}`);
  await expect(page.getByRole("heading", { name: "This invite link does not work" })).toBeVisible();
  await page.goto("/invite/not-even-the-right-shape");
  await expect(page.getByRole("heading", { name: "This invite link does not work" })).toBeVisible();
});
