// Onboarding a firm without the demo seed (npm run tenant:create): roles, job statuses, an Owner who can sign in
// and use the API, and clear refusals.
import { describe, expect, it } from "vitest";
import * as jobs from "@/app/api/v1/jobs/route";
import * as me from "@/app/api/v1/me/route";
import { verifyCredentials } from "@/lib/auth/sign-in";
import { prisma } from "@/lib/db/client";
import { createTenant } from "@/lib/tenants/create";
import { createApiTokenForEmail } from "@/lib/tokens";
import { call } from "../support/api";
import { refusal } from "../support/operator";

const harper = {
  name: "Harper & Co",
  ownerEmail: "jane@harper.test",
  ownerName: "Jane Q Harper",
  timezone: "Europe/Paris",
};

describe("creating a firm", () => {
  it("makes the firm with its roles, job statuses and an Owner who signs in once and works through the API", async () => {
    const client = await prisma();
    const { tenant, owner, password } = await createTenant(client, harper);

    expect(tenant).toMatchObject({ name: "Harper & Co", timezone: "Europe/Paris" });
    const roles = await client.role.findMany({ where: { tenantId: tenant.id }, orderBy: { id: "asc" } });
    expect(roles.map((r) => r.name)).toEqual(["Owner", "Admin", "Standard", "Viewer"]);
    expect(roles.find((r) => r.name === "Standard")!.permissions).not.toContain("time_logs.view_all");
    expect(roles.find((r) => r.name === "Viewer")!.permissions).toEqual([]);
    const statuses = await client.jobStatus.findMany({ where: { tenantId: tenant.id }, orderBy: { position: "asc" } });
    expect(statuses.map((s) => [s.slug, s.isCompleted])).toEqual([
      ["not-started", false],
      ["in-progress", false],
      ["awaiting-client", false],
      ["in-review", false],
      ["completed", true],
    ]);
    expect(owner).toMatchObject({ firstname: "Jane", lastname: "Q Harper", isOwner: true, timezone: "Europe/Paris" });

    // The password is random, long, and stored only as a bcrypt hash.
    expect(password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    const stored = await client.user.findFirstOrThrow({ where: { tenantId: tenant.id } });
    expect(stored.passwordHash).toMatch(/^\$2[aby]\$10\$/);
    expect(stored.passwordHash).not.toContain(password);
    expect(await verifyCredentials(client, "jane@harper.test", password)).toMatchObject({ tenantId: tenant.id });
    expect(await verifyCredentials(client, "jane@harper.test", "demo-password")).toBeNull();

    const { token } = await createApiTokenForEmail(client, "jane@harper.test", "first", tenant.id);
    expect((await call(me, "GET", "me", { token })).body).toMatchObject({ email: "jane@harper.test" });
    const created = await call(jobs, "POST", "jobs", { token, body: { name: "Onboarding", status: "in-progress" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Onboarding", status: "in-progress", status_name: "In progress" });
  });

  it("gives two firms different passwords, and defaults the time zone to UTC", async () => {
    const client = await prisma();
    const a = await createTenant(client, { name: "Alder LLP", ownerEmail: "a@alder.test", ownerName: "Al" });
    const b = await createTenant(client, { name: "Beech LLP", ownerEmail: "b@beech.test", ownerName: "Bo" });
    expect(a.password).not.toBe(b.password);
    expect(a.tenant.timezone).toBe("UTC");
    expect(a.owner).toMatchObject({ firstname: "Al", lastname: "", timezone: "UTC" });
  });

  it("refuses a firm name that exists (any case), and changes nothing", async () => {
    const client = await prisma();
    const before = await client.tenant.count();
    const fields = await refusal(createTenant(client, { ...harper, name: "  acme ACCOUNTING " }));
    expect(fields.name[0]).toMatch(/A firm named "Acme Accounting" already exists \(id \d+\)/);
    expect(await client.tenant.count()).toBe(before);
  });

  it("refuses bad input, naming each field, and changes nothing", async () => {
    const client = await prisma();
    const before = await client.tenant.count();
    const fields = await refusal(
      createTenant(client, { name: " ", ownerEmail: "not-an-email", ownerName: "", timezone: "Mars/Olympus" }),
    );
    expect(fields).toEqual({
      name: ["Give the firm a name."],
      ownerEmail: ["Must be a valid email address."],
      ownerName: ["Give the person's full name."],
      timezone: ["Must be an IANA time zone name, such as Europe/London."],
    });
    expect(await client.tenant.count()).toBe(before);
  });
});
