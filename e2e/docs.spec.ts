import { expect, test } from "./support";

test("the API reference renders the OpenAPI document from this server, with no outside requests", async ({ page }) => {
  const outside: string[] = [];
  page.on("request", (request) => {
    if (!request.url().startsWith("http://localhost:") && !request.url().startsWith("data:"))
      outside.push(request.url());
  });
  await page.goto("/");
  await page.getByRole("link", { name: "API reference" }).click();
  await expect(page).toHaveURL("/docs");
  // Swagger UI is a 1.5 MB script: on a busy machine it takes a while to draw.
  await expect(page.getByRole("heading", { name: /Client, Job and Time Tracking API/ })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByText("/clients/{uuid}").first()).toBeVisible();
  await expect(page.getByRole("button", { name: /Authorize/ })).toBeVisible();
  await page.screenshot({ path: "e2e/screenshots/docs.png", fullPage: false });
  expect(outside).toEqual([]);
  // The reference speaks of firms, as the rest of the product does (decisions.md: a tenant is one firm).
  const document = await (await page.request.get("/api/v1/openapi.json")).text();
  expect(document).toContain("the firm's");
  expect(document).not.toMatch(/workspace/i);
});

test("the site has an icon: a first visit loads it and logs no console error", async ({ page }) => {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  const icon = await page.request.get("/favicon.ico");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toMatch(/^image\//);
  await page.goto("/signin");
  await expect(page.locator('link[rel="icon"]').first()).toHaveAttribute("href", /favicon\.ico|icon/);
  // The browser asks for /favicon.ico on its own; a 404 there is the console error a newcomer met.
  await page.waitForLoadState("networkidle");
  expect(errors).toEqual([]);
});
