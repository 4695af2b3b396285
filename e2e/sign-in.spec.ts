import {
  clientAddress,
  expect,
  RATE_LIMITED,
  signIn,
  signInMessage,
  signOut,
  test,
  WRONG_CREDENTIALS,
} from "./support";

test("a signed-out visitor is sent to sign in, then brought back to the page they asked for", async ({ page }) => {
  await page.goto("/settings/api-tokens");
  await expect(page).toHaveURL("/signin?callbackUrl=%2Fsettings%2Fapi-tokens");
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();

  await signIn(page, "admin@acme.test");
  await expect(page).toHaveURL("/settings/api-tokens");
  await expect(page.getByRole("heading", { name: "API tokens" })).toBeVisible();
  await expect(page.getByText("Signed in as admin@acme.test")).toBeVisible();

  await signOut(page);
  await page.goto("/settings/api-tokens");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
});

test("wrong credentials get one message that does not say which part was wrong; then the right ones sign in", async ({
  page,
}) => {
  await page.goto("/signin");
  await signIn(page, "groups@acme.test", "not-the-password");
  await expect(signInMessage(page)).toHaveText(WRONG_CREDENTIALS);
  await expect(page).toHaveURL("/signin");

  await signIn(page, "nobody@acme.test");
  await expect(signInMessage(page)).toHaveText(WRONG_CREDENTIALS);

  await signIn(page, "groups@acme.test");
  await expect(page).toHaveURL("/settings/api-tokens");
  await expect(page.getByText("Signed in as groups@acme.test")).toBeVisible();
});

test("an archived user cannot sign in", async ({ page }) => {
  await page.goto("/signin");
  await signIn(page, "archived@acme.test");
  await expect(signInMessage(page)).toHaveText(WRONG_CREDENTIALS);
  await page.goto("/settings/api-tokens");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
});

test("a callbackUrl naming another site is ignored: sign-in never leaves this site", async ({ page, baseURL }) => {
  await page.goto("/signin?callbackUrl=https%3A%2F%2Fevil.example%2Fsteal");
  await signIn(page, "standard@birch.test");
  await expect(page).toHaveURL(`${baseURL}/settings/api-tokens`);
});

test("a callbackUrl whose dot segments resolve to //host is ignored: sign-in ends on this site", async ({
  page,
  baseURL,
}) => {
  await page.goto("/signin?callbackUrl=/.//evil.example");
  await signIn(page, "owner@birch.test");
  await expect(page).toHaveURL(`${baseURL}/settings/api-tokens`);
  await expect(page.getByRole("heading", { name: "API tokens" })).toBeVisible();
});

test("an address that guessed at many accounts is refused; the right password from elsewhere still signs in", async ({
  page,
}) => {
  test.setTimeout(90_000); // 32 sign-ins, each a bcrypt check, on a busy machine
  await page.goto("/signin");
  const guesser = clientAddress("guessing accounts");
  await page.setExtraHTTPHeaders({ "X-Forwarded-For": guesser });
  for (let attempt = 1; attempt <= 30; attempt++) {
    await signIn(page, `guess${attempt}@acme.test`, `wrong-${attempt}`);
    await expect(signInMessage(page)).toHaveText(WRONG_CREDENTIALS);
  }
  // The right password from the address that failed. The sliding window may forgive one failure when a window
  // boundary passes mid-test, so one more guess may still be judged.
  await signIn(page, "guess31@acme.test", "wrong-31");
  await signIn(page, "viewer@acme.test");
  await expect(signInMessage(page)).toHaveText(RATE_LIMITED);
  await expect(page).toHaveURL("/signin");

  await page.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress("the viewer at home") });
  await signIn(page, "viewer@acme.test");
  await expect(page).toHaveURL("/settings/api-tokens");
});
