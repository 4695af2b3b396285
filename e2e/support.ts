import { createHash } from "node:crypto";
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
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

/**
 * An app on loopback for the OAuth specs: its client metadata document at `/client.json` (named `name`, redirecting
 * to `/callback`) and a page for every other path, the redirect target. Over https when given a key and certificate.
 */
export async function startApp(name: string, tls?: { key: Buffer; cert: Buffer }) {
  let origin = "";
  let documentFetches = 0;
  const listener = (request: IncomingMessage, response: ServerResponse) => {
    if (request.url === "/client.json") {
      documentFetches += 1;
      response.setHeader("Content-Type", "application/json");
      response.setHeader("Cache-Control", "max-age=600");
      response.end(
        JSON.stringify({
          client_id: `${origin}/client.json`,
          client_name: name,
          redirect_uris: [`${origin}/callback`],
          token_endpoint_auth_method: "none",
        }),
      );
      return;
    }
    response.setHeader("Content-Type", "text/html");
    response.end("<!doctype html><title>Back at the app</title><p>Back at the app</p>");
  };
  const server: Server = tls ? createHttpsServer(tls, listener) : createHttpServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `${tls ? "https" : "http"}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    /** How often the document was fetched. */
    documentFetches: () => documentFetches,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
