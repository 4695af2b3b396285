// Integrations generate their clients from /api/v1/openapi.json. This generates one as they would
// (openapi-typescript + openapi-fetch), from the document the built app serves, compiles e2e/sdk/integration.ts
// against it under `tsc --strict` (whose @ts-expect-error lines prove mistakes stay compile errors), then runs
// that integration against the app.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { expect, signIn, test } from "./support";

const ROOT = path.join(import.meta.dirname, "..");

test("a client generated from the served document compiles under tsc --strict and runs a whole integration", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const document = await (await request.get("/api/v1/openapi.json")).json();
  expect(document.servers).toEqual([{ url: `${baseURL}/api/v1` }]);

  mkdirSync(path.join(ROOT, ".data/sdk"), { recursive: true });
  writeFileSync(path.join(ROOT, ".data/sdk/api.ts"), astToString(await openapiTS(document)));
  try {
    execFileSync(path.join(ROOT, "node_modules/.bin/tsc"), ["-p", "e2e/sdk/tsconfig.json"], { cwd: ROOT });
  } catch (error) {
    throw new Error(`The integration does not compile:\n${(error as { stdout: Buffer }).stdout}`);
  }

  await page.goto("/signin?callbackUrl=%2Fsettings%2Fapi-tokens");
  await signIn(page, "owner@acme.test");
  await page.getByLabel("Name", { exact: true }).fill("Typed client");
  await page.getByRole("button", { name: "Create token" }).click();
  const token = await page.getByLabel("Token value").inputValue();

  const { runIntegration } = await import("./sdk/integration");
  const result = await runIntegration(document.servers[0].url, token);

  expect(result.me.email).toBe("owner@acme.test");
  expect(result.user?.id).toBe(result.me.id);
  expect(result.total).toBeGreaterThan(20); // more than one page
  expect(result.paged).toHaveLength(result.total);
  expect(new Set(result.synced)).toEqual(new Set(result.paged));
  expect(result.synced).toHaveLength(result.paged.length);
  // A nested contact is the whole contact, or only its uuid for a token without access to contacts.
  expect(result.created.contacts.map((c) => ("firstname" in c ? c.firstname : c.uuid))).toEqual(["Tia"]);
  expect(result.updated).toMatchObject({ uuid: result.created.uuid, client_status: "active", city: "Leeds" });
  expect(result.contact?.clients).toEqual([{ uuid: result.created.uuid, name: result.created.name }]);
  expect(result.changes.map((c) => c.uuid)).toContain(result.created.uuid);
  for (const change of result.changes) expect(change.updated_at >= result.since).toBe(true);
  expect(result.jobs.length).toBeGreaterThan(0);
  expect(result.timeLogs.length).toBeGreaterThan(0);
  expect(result.idempotent).toEqual({ sameJob: true, replayed: "true" });
  expect(result.job).toMatchObject({ estimated_hours: 3, users: [expect.objectContaining({ id: result.me.id })] });
  expect(result.jobCursorPage).toEqual([result.job?.uuid]);
  expect(result.webhook).toEqual({
    secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
    events: ["job.completed"],
    enabled: false,
    deliveries: 0,
    deleted: 204,
  });
  expect(result.notFound).toEqual({ status: 404, message: "Client not found." });
  expect(result.invalid).toEqual({ status: 422, fields: ["name"] });
});
