// The first firm's Owner (docs/deploy.md's step 7) in Chromium on `vercel build`'s output served as Vercel runs it:
// signs in with the first password, opens every settings page, makes a token on the API tokens page and calls the
// API with it, then deletes it there, and the API instance that had it cached refuses it at once.
import { type Browser, chromium, type Page } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import browserTests from "../../e2e/playwright.config";
import { firstOwner, project, send, serveDeployment } from "./deployment";
import type { LocalVercel } from "./runtime";
import { describeMissing, unloadablePackages } from "./traced-packages";

let runtime: LocalVercel;
let browser: Browser;
let page: Page;
const owner = firstOwner();

beforeAll(async () => {
  runtime = await serveDeployment();
  // The browser tests' Chromium, as they launch it (Debian's, no sandbox, nothing fetched from the network).
  browser = await chromium.launch(browserTests.use?.launchOptions);
  page = await browser.newPage({ baseURL: runtime.url });
  page.setDefaultTimeout(30_000);
});
afterAll(async () => {
  await browser?.close();
  await runtime?.close();
});

/** What the page says when something went wrong: the sign-in form's alert, or an error page's heading. */
const shown = (page: Page) => page.locator("main").innerText();

describe("the first firm's Owner in Chromium", () => {
  it("signs in with the first password tenant:create printed, and sees every settings page", async () => {
    await page.goto("/signin?callbackUrl=%2Fsettings%2Fprofile");
    await page.getByLabel("Email").fill(owner.email);
    await page.getByLabel("Password").fill(owner.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page
      .getByRole("heading", { name: "Profile", level: 1 })
      .waitFor()
      .catch(async () => expect.fail(`Sign-in did not reach the profile page; the page shows:\n${await shown(page)}`));
    for (const [path, heading] of [
      ["/settings/team", "Team"],
      ["/settings/webhooks", "Webhooks"],
      ["/settings/audit", "Audit log"],
      ["/settings/api-tokens", "API tokens"],
    ]) {
      const answer = await page.goto(path);
      expect(answer?.status(), path).toBe(200);
      expect(await page.getByRole("heading", { name: heading, level: 1 }).isVisible(), path).toBe(true);
    }
  });

  it("makes a token on the API tokens page that works, and deleting it there ends it at once on the API", async () => {
    await page.goto("/settings/api-tokens");
    if (new URL(page.url()).pathname === "/signin") expect.fail("Not signed in: the sign-in above failed");
    await page.getByLabel("Name", { exact: true }).fill("Made on Vercel");
    await page.getByRole("button", { name: "Create token" }).click();
    const value = await page.getByLabel("Token value").inputValue();
    expect(value).toMatch(/^cjt_[0-9A-Za-z]{49}$/);

    const me = await send(runtime, "GET", "/api/v1/me", { token: value });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(owner.email);
    const [api] = runtime.instances("/api/v1/me");

    const row = page
      .getByRole("list", { name: "Your tokens" })
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: "Made on Vercel", exact: true }) });
    await row.getByRole("button", { name: "Delete Made on Vercel" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete token" }).click();
    await row.waitFor({ state: "detached" });
    // The pages' function revoked it; the API's instance, frozen since, had it cached.
    expect(runtime.instances("/settings/api-tokens").map((instance) => instance.id)).not.toContain(api.id);
    const refused = await send(runtime, "GET", "/api/v1/me", { token: value, instance: api.id });
    expect(refused.status).toBe(401);
  });

  it("loaded every package the pages needed from the functions' own files", async () => {
    expect(describeMissing(await unloadablePackages(project(), runtime.loadLog))).toBe("");
  });
});
