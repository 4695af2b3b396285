import { DEMO_PASSWORD, expect, signIn, signOut, test } from "./support";

test("a copy of the session cookie stops working once its person signs out", async ({ page, browser, baseURL }) => {
  await page.goto("/signin");
  await signIn(page, "groups@acme.test");
  await expect(page.getByRole("heading", { name: "API tokens" })).toBeVisible();
  const copied = await page.context().cookies();
  expect((await (await page.request.get("/api/auth/session")).json()).user.email).toBe("groups@acme.test");

  await signOut(page);

  const thief = await browser.newContext({ baseURL });
  await thief.addCookies(copied);
  const stolen = await thief.newPage();
  await stolen.goto("/settings/api-tokens");
  await expect(stolen).toHaveURL(/\/signin\?callbackUrl=/);
  // next-auth's own session endpoint agrees: no session.
  expect(await (await thief.request.get("/api/auth/session")).json()).toEqual({});
  await thief.close();
});

test("the profile page changes the name, time zone and password; a new password ends the other sessions", async ({
  page,
  browser,
  baseURL,
}) => {
  await page.goto("/signin?callbackUrl=%2Fsettings%2Fprofile");
  await signIn(page, "standard@acme.test");
  await expect(page.getByRole("heading", { name: "Profile", exact: true })).toBeVisible();

  await page.getByLabel("First name").fill("Samira");
  await page.getByLabel("Time zone", { exact: true }).fill("Mars/Olympus");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Choose a time zone from the list, such as Europe/London.")).toBeVisible();
  await expect(page.getByLabel("First name")).toHaveValue("Samira");
  await page.getByLabel("Time zone", { exact: true }).fill("Asia/Tokyo");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Your profile is saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Time zone", { exact: true })).toHaveValue("Asia/Tokyo");
  await page.screenshot({ path: "e2e/screenshots/profile.png", fullPage: true });

  // Another browser signed in as the same person.
  const other = await browser.newContext({ baseURL });
  const otherPage = await other.newPage();
  await otherPage.goto("/signin");
  await signIn(otherPage, "standard@acme.test");
  await expect(otherPage.getByRole("heading", { name: "API tokens" })).toBeVisible();

  await page.getByLabel("Current password").fill(DEMO_PASSWORD);
  await page.getByLabel("New password", { exact: true }).fill("a much better password");
  await page.getByLabel("New password again").fill("a much better password");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Your password is changed. You were signed out everywhere else.")).toBeVisible();
  await page.screenshot({ path: "e2e/screenshots/profile-password-changed.png", fullPage: true });

  // This browser stays signed in; the other one is signed out.
  await page.goto("/settings/api-tokens");
  await expect(page.getByRole("heading", { name: "API tokens" })).toBeVisible();
  await otherPage.goto("/settings/api-tokens");
  await expect(otherPage).toHaveURL(/\/signin\?callbackUrl=/);
  await signIn(otherPage, "standard@acme.test", "a much better password");
  await expect(otherPage.getByRole("heading", { name: "API tokens" })).toBeVisible();
  await other.close();
});
