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
});
