// A property over scopes × role × firm cap × endpoint (decisions.md, "Apps and assistants"): an app's call is allowed
// exactly when what the person granted ∩ the firm's cap for the app ∩ the person's role allows it. Allowed calls send
// a body that fails validation (or read), so they answer 200 or 422 and change nothing; refused ones answer 403.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as auditRoute from "@/app/api/v1/audit-events/route";
import * as clientsRoute from "@/app/api/v1/clients/route";
import * as contactsRoute from "@/app/api/v1/contacts/route";
import * as jobsRoute from "@/app/api/v1/jobs/route";
import * as timeLogsRoute from "@/app/api/v1/time-logs/route";
import * as usersRoute from "@/app/api/v1/users/route";
import * as webhooksRoute from "@/app/api/v1/webhooks/route";
import { BUILT_IN_ROLES, type Permission } from "@/lib/auth/permissions";
import { prisma } from "@/lib/db/client";
import { ACCESS_LEVELS, levelsOf, TOKEN_RESOURCES, type TokenAccess, type TokenResource } from "@/lib/tokens/access";
import { call, type RouteModule, userByEmail } from "../support/api";
import { consent, exchange, firmApp } from "./support";

interface Endpoint {
  name: string;
  route: RouteModule;
  method: "GET" | "POST";
  path: string;
  resource: TokenResource;
  permission: Permission | null;
}
const endpoints: Endpoint[] = [
  { name: "GET /clients", route: clientsRoute, method: "GET", path: "clients", resource: "clients", permission: null },
  {
    name: "POST /clients",
    route: clientsRoute,
    method: "POST",
    path: "clients",
    resource: "clients",
    permission: "clients.create",
  },
  {
    name: "GET /contacts",
    route: contactsRoute,
    method: "GET",
    path: "contacts",
    resource: "contacts",
    permission: null,
  },
  {
    name: "POST /contacts",
    route: contactsRoute,
    method: "POST",
    path: "contacts",
    resource: "contacts",
    permission: "contacts.create",
  },
  { name: "GET /jobs", route: jobsRoute, method: "GET", path: "jobs", resource: "jobs", permission: null },
  { name: "POST /jobs", route: jobsRoute, method: "POST", path: "jobs", resource: "jobs", permission: "jobs.create" },
  { name: "GET /users", route: usersRoute, method: "GET", path: "users", resource: "users", permission: null },
  {
    name: "GET /time-logs",
    route: timeLogsRoute,
    method: "GET",
    path: "time-logs",
    resource: "time_logs",
    permission: null,
  },
  {
    name: "GET /webhooks",
    route: webhooksRoute,
    method: "GET",
    path: "webhooks",
    resource: "webhooks",
    permission: "webhooks.manage",
  },
  {
    name: "POST /webhooks",
    route: webhooksRoute,
    method: "POST",
    path: "webhooks",
    resource: "webhooks",
    permission: "webhooks.manage",
  },
  {
    name: "GET /audit-events",
    route: auditRoute,
    method: "GET",
    path: "audit-events",
    resource: "audit",
    permission: "audit.read",
  },
];

/** The built-in roles as the spec defines them (not as the code computes them). */
const PEOPLE: Record<string, readonly Permission[]> = {
  "owner@acme.test": BUILT_IN_ROLES.Owner,
  "admin@acme.test": BUILT_IN_ROLES.Admin,
  "standard@acme.test": BUILT_IN_ROLES.Standard,
  "viewer@acme.test": [],
};

const RANK = Object.fromEntries(ACCESS_LEVELS.map((level, i) => [level, i]));
const accessArbitrary = fc.record(
  Object.fromEntries(TOKEN_RESOURCES.map((r) => [r, fc.constantFrom(...levelsOf(r))])) as {
    [R in TokenResource]: fc.Arbitrary<TokenAccess[R]>;
  },
);

describe("an app's access", () => {
  it("is exactly the grant ∩ the firm's cap ∩ the role, for every endpoint", async () => {
    const { app } = await firmApp("owner@acme.test");
    const tenantId = (await userByEmail("owner@acme.test")).tenantId;
    const client = await prisma();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(PEOPLE)),
        accessArbitrary,
        fc.option(accessArbitrary, { nil: null }),
        fc.constantFrom(...endpoints),
        async (email, granted, cap, endpoint) => {
          if (cap) {
            const data = { tenantId, clientId: app.id, accessCap: cap };
            await client.oAuthFirmApp.upsert({
              where: { tenantId_clientId: { tenantId, clientId: app.id } },
              create: data,
              update: { accessCap: cap },
            });
          } else await client.oAuthFirmApp.deleteMany({ where: { clientId: app.id } });
          const { access_token } = (await exchange(await consent(email, app, { access: granted, offline: false })))
            .body;
          const answer = await call(endpoint.route, endpoint.method, endpoint.path, {
            token: access_token,
            body: endpoint.method === "POST" ? { name: 42, url: 42 } : undefined,
          });
          const needed = endpoint.method === "GET" ? RANK.read : RANK.write;
          const level = Math.min(RANK[granted[endpoint.resource]], RANK[cap ? cap[endpoint.resource] : "write"]);
          const allowed =
            level >= needed && (endpoint.permission === null || PEOPLE[email].includes(endpoint.permission));
          expect(answer.status === 403, `${email} ${endpoint.name}: ${answer.status} ${answer.body?.message}`).toBe(
            !allowed,
          );
          if (!allowed) expect(answer.body.message).toMatch(/^(This token |Your role does not allow this action\.)/);
        },
      ),
      { numRuns: 80 },
    );
  });
});
