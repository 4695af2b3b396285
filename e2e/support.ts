import { createHash } from "node:crypto";
import { test as base, expect, type Page } from "@playwright/test";

export const DEMO_PASSWORD = "demo-password";
export const WRONG_CREDENTIALS = "That email and password do not match an account. Check both and try again.";
export const RATE_LIMITED = "Too many failed sign-in attempts from your network. Wait 15 minutes, then try again.";

/** A private-range address derived from a string, standing in for one visitor's address. */
export function clientAddress(seed: string) {
  const [a, b, c] = createHash("sha256").update(seed).digest();
  return `10.${a}.${b}.${c}`;
}

export const test = base.extend({
  // Each test is a visitor from its own address (as a proxy would report it), so the per-address sign-in limit
  // counts each test's attempts separately instead of all of them together.
  extraHTTPHeaders: async ({}, provide, testInfo) => {
    await provide({ "X-Forwarded-For": clientAddress(testInfo.testId) });
  },
});

export { expect };

/** The sign-in form's own alert; Next's route announcer, outside <main>, is another role="alert" on every page. */
export const signInMessage = (page: Page) => page.getByRole("main").getByRole("alert");

/** Fills in and sends the sign-in form; returns once the server has answered the attempt. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  const answered = page.waitForResponse((response) => response.url().includes("/api/auth/callback/credentials"));
  await page.getByRole("button", { name: "Sign in" }).click();
  await answered;
}

export async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
}
