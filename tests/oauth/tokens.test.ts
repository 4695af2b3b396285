// The token endpoint and what its tokens may do (docs/oauth.md): single-use codes with PKCE, refresh rotation with
// its grace window, revocation, app tokens at their own resource only, and access = grant ∩ firm cap ∩ role, judged
// per request.
import { describe, expect, it } from "vitest";
import * as clientsRoute from "@/app/api/v1/clients/route";
import * as tokenRoute from "@/app/api/v1/token/route";
import * as webhooksRoute from "@/app/api/v1/webhooks/route";
import { authenticate } from "@/lib/api/authenticate";
import { database, prisma } from "@/lib/db/client";
import { deleteFirmClient } from "@/lib/oauth/clients";
import { resourceUrl } from "@/lib/oauth/settings";
import { FULL_ACCESS, NO_ACCESS, READ_ONLY } from "@/lib/tokens/access";
import { call, userByEmail } from "../support/api";
import { consent, exchange, firmApp, refresh, revoke, token } from "./support";

const grantRow = async (grantId: number) =>
  (await prisma()).apiToken.findFirst({ where: { id: grantId, kind: "app" } });

describe("the authorization code", () => {
  it("gives an access and a refresh token for the right verifier, which call the API as the person", async () => {
    const { app } = await firmApp("owner@acme.test");
    const connected = await consent("owner@acme.test", app);
    const answer = await exchange(connected);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.body).toEqual({
      access_token: expect.stringMatching(/^cjo_/),
      refresh_token: expect.stringMatching(/^cjr_/),
      token_type: "Bearer",
      expires_in: 3600,
      scope:
        "clients:write contacts:write jobs:write users:read time_logs:read webhooks:write audit:read offline_access",
    });
    const clients = await call(clientsRoute, "GET", "clients", { token: answer.body.access_token });
    expect(clients.status).toBe(200);
    const described = await call(tokenRoute, "GET", "token", { token: answer.body.access_token });
    expect(described.body).toMatchObject({
      name: "Ledger Sync",
      access: FULL_ACCESS,
      app: { client_id: app.id, name: "Ledger Sync", grant_expires_at: null },
    });
  });

  it("is refused without the verifier, with a wrong one, or a plain one", async () => {
    const { app } = await firmApp("owner@acme.test");
    const connected = await consent("owner@acme.test", app);
    for (const code_verifier of ["", "x".repeat(43), connected.verifier.slice(0, 42)]) {
      const answer = await exchange(connected, { code_verifier });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe("invalid_grant");
    }
  });

  it("works once: a second use is refused and revokes the tokens the first one got", async () => {
    const { app } = await firmApp("owner@acme.test");
    const connected = await consent("owner@acme.test", app);
    const first = await exchange(connected);
    expect(first.status).toBe(200);
    const second = await exchange(connected);
    expect(second.status).toBe(400);
    expect(second.body).toEqual({ error: "invalid_grant", error_description: expect.stringContaining("used already") });
    expect((await call(clientsRoute, "GET", "clients", { token: first.body.access_token })).status).toBe(401);
    expect((await refresh(app, first.body.refresh_token)).body.error).toBe("invalid_grant");
  });

  it("is refused for another redirect URI, another client, or a resource not the grant's", async () => {
    const { app } = await firmApp("owner@acme.test");
    const { app: other } = await firmApp("owner@acme.test", { name: "Other" });
    const connected = await consent("owner@acme.test", app);
    expect((await exchange(connected, { redirect_uri: "https://app.example.com/other" })).body.error).toBe(
      "invalid_grant",
    );
    expect((await exchange(connected, { client_id: other.id })).body.error).toBe("invalid_grant");
    expect((await exchange(connected, { resource: resourceUrl("mcp") })).body.error).toBe("invalid_target");
    // None of those used the code up.
    expect((await exchange(connected)).status).toBe(200);
  });

  it("answers RFC 6749 §5.2 errors as JSON", async () => {
    const { app } = await firmApp("owner@acme.test");
    expect((await token({ grant_type: "password", client_id: app.id })).body.error).toBe("unsupported_grant_type");
    expect((await token({ grant_type: "authorization_code", client_id: app.id })).body.error).toBe("invalid_request");
    const unknown = await token({ grant_type: "authorization_code", code: "x", client_id: "cjc_nobody" });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe("invalid_client");
  });
});

describe("refresh tokens", () => {
  it("rotate on every use: the old one then works only within the grace window, for the same pair", async () => {
    const { app } = await firmApp("owner@acme.test");
    const tokens = (await exchange(await consent("owner@acme.test", app))).body;
    const next = await refresh(app, tokens.refresh_token);
    expect(next.status).toBe(200);
    expect(next.body.refresh_token).not.toBe(tokens.refresh_token);
    expect(next.body.access_token).not.toBe(tokens.access_token);
    // Within 30 s, a replay (a refresh that raced this one) gets the same successor pair.
    const again = await refresh(app, tokens.refresh_token);
    expect(again.body).toEqual(next.body);
    expect((await call(clientsRoute, "GET", "clients", { token: next.body.access_token })).status).toBe(200);
  });

  it("racing each other within the window, both get one and the same successor", async () => {
    const { app } = await firmApp("owner@acme.test");
    const tokens = (await exchange(await consent("owner@acme.test", app))).body;
    const answers = await Promise.all([refresh(app, tokens.refresh_token), refresh(app, tokens.refresh_token)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers[0].body.refresh_token).toBe(answers[1].body.refresh_token);
    expect(answers[0].body.access_token).toBe(answers[1].body.access_token);
    const client = await prisma();
    expect(
      await client.oAuthRefreshToken.count({
        where: { grantId: (await client.oAuthGrant.findFirstOrThrow({ where: { clientId: app.id } })).tokenId },
      }),
    ).toBe(2);
  });

  it("replayed after the window, end the grant and say so in the audit log", async () => {
    const { app } = await firmApp("owner@acme.test");
    const connected = await consent("owner@acme.test", app);
    const tokens = (await exchange(connected)).body;
    const next = (await refresh(app, tokens.refresh_token)).body;
    const client = await prisma();
    await client.oAuthRefreshToken.updateMany({
      where: { usedAt: { not: null }, grantId: connected.grantId },
      data: { usedAt: new Date(Date.now() - 31_000) },
    });
    const replay = await refresh(app, tokens.refresh_token);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe("invalid_grant");
    expect(await grantRow(connected.grantId)).toBeNull();
    expect((await call(clientsRoute, "GET", "clients", { token: next.access_token })).status).toBe(401);
    expect((await refresh(app, next.refresh_token)).body.error).toBe("invalid_grant");
    const entry = await client.auditEvent.findFirst({
      where: { action: "oauth_app.revoked", targetId: connected.grantId },
    });
    expect(entry).toMatchObject({ via: "oauth", targetName: "Ledger Sync" });
    expect(entry?.changes).toEqual({ reason: [null, "a refresh token was used again after it had been replaced"] });
  });

  it("are not issued without offline_access", async () => {
    const { app } = await firmApp("owner@acme.test");
    const answer = await exchange(await consent("owner@acme.test", app, { offline: false }));
    expect(answer.body.refresh_token).toBeUndefined();
    expect(answer.body.scope).not.toContain("offline_access");
  });
});

describe("an app's access token", () => {
  it("works only at its own resource: an MCP token is a 401 at /api/v1, and the reverse", async () => {
    const { app } = await firmApp("owner@acme.test");
    const mcp = await consent("owner@acme.test", app, { audience: "mcp" });
    const mcpTokens = (
      await token({
        grant_type: "authorization_code",
        code: mcp.code,
        code_verifier: mcp.verifier,
        redirect_uri: "https://app.example.com/callback",
        client_id: app.id,
        resource: resourceUrl("mcp"),
      })
    ).body;
    const refused = await call(clientsRoute, "GET", "clients", { token: mcpTokens.access_token });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    expect(refused.body.message).toContain("issued for the MCP endpoint");
    const db = await database();
    await expect(authenticate(db, mcpTokens.access_token, undefined, "mcp")).resolves.toMatchObject({
      app: { clientId: app.id },
    });
    const { app: other } = await firmApp("owner@acme.test", { name: "Other" });
    const apiTokens = (await exchange(await consent("owner@acme.test", other))).body;
    await expect(authenticate(db, apiTokens.access_token, undefined, "mcp")).rejects.toMatchObject({ status: 401 });
  });

  it("is a 401 with WWW-Authenticate once expired; no token is a bare Bearer challenge", async () => {
    const { app } = await firmApp("owner@acme.test");
    const connected = await consent("owner@acme.test", app);
    const tokens = (await exchange(connected)).body;
    await (await prisma()).oAuthAccessToken.updateMany({
      where: { grantId: connected.grantId },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const expired = await call(clientsRoute, "GET", "clients", { token: tokens.access_token });
    expect(expired.status).toBe(401);
    expect(expired.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    expect(expired.body.message).toContain("expired");
    const none = await call(clientsRoute, "GET", "clients");
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe("Bearer");
  });

  it("stops at once when its person is archived or changes password", async () => {
    const { app } = await firmApp("owner@acme.test");
    const viewer = await userByEmail("viewer@acme.test");
    const standard = await userByEmail("standard@acme.test");
    const archived = await consent("viewer@acme.test", app, { access: READ_ONLY });
    const changed = await consent("standard@acme.test", app, { access: READ_ONLY });
    const [a, b] = [(await exchange(archived)).body, (await exchange(changed)).body];
    expect((await call(clientsRoute, "GET", "clients", { token: a.access_token })).status).toBe(200);
    const client = await prisma();
    await client.user.update({
      where: { tenantId_id: { tenantId: viewer.tenantId, id: viewer.id } },
      data: { archivedDate: new Date() },
    });
    await client.user.update({
      where: { tenantId_id: { tenantId: standard.tenantId, id: standard.id } },
      data: { passwordHash: "changed" },
    });
    for (const t of [a, b]) {
      expect((await call(clientsRoute, "GET", "clients", { token: t.access_token })).status).toBe(401);
      expect((await refresh(app, t.refresh_token)).body.error).toBe("invalid_grant");
    }
    expect(await grantRow(archived.grantId)).toBeNull();
  });

  it("follows a lowered role at once (403 with the role's sentence)", async () => {
    const { app } = await firmApp("owner@acme.test");
    const tokens = (await exchange(await consent("admin@acme.test", app))).body;
    expect((await call(webhooksRoute, "GET", "webhooks", { token: tokens.access_token })).status).toBe(200);
    const admin = await userByEmail("admin@acme.test");
    const client = await prisma();
    const standard = await client.role.findFirstOrThrow({ where: { tenantId: admin.tenantId, name: "Standard" } });
    await client.user.update({
      where: { tenantId_id: { tenantId: admin.tenantId, id: admin.id } },
      data: { roleId: standard.id },
    });
    const refused = await call(webhooksRoute, "GET", "webhooks", { token: tokens.access_token });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("Your role does not allow this action.");
  });

  it("follows the firm's allow-list and cap on every request", async () => {
    const { app } = await firmApp("owner@birch.test");
    const tokens = (await exchange(await consent("owner@birch.test", app))).body;
    const owner = await userByEmail("owner@birch.test");
    const client = await prisma();
    await client.tenant.update({ where: { id: owner.tenantId }, data: { onlyListedApps: true } });
    const unlisted = await call(clientsRoute, "GET", "clients", { token: tokens.access_token });
    expect(unlisted.status).toBe(401);
    expect(unlisted.body.message).toContain("allows only the apps it listed");
    await client.oAuthFirmApp.create({
      data: { tenantId: owner.tenantId, clientId: app.id, accessCap: { ...NO_ACCESS, clients: "read" } },
    });
    expect((await call(clientsRoute, "GET", "clients", { token: tokens.access_token })).status).toBe(200);
    const write = await call(clientsRoute, "POST", "clients", { token: tokens.access_token, body: { name: "X" } });
    expect(write.status).toBe(403);
    expect(write.body.message).toBe("This token can only read clients.");
    const described = await call(tokenRoute, "GET", "token", { token: tokens.access_token });
    expect(described.body.access).toEqual({ ...NO_ACCESS, clients: "read" });
  });

  it("names the app in the audit log of the writes it makes", async () => {
    const { app } = await firmApp("owner@acme.test");
    const tokens = (await exchange(await consent("owner@acme.test", app))).body;
    const created = await call(clientsRoute, "POST", "clients", {
      token: tokens.access_token,
      body: { name: "Made by an app" },
    });
    expect(created.status).toBe(201);
    const entry = await (await prisma()).auditEvent.findFirst({
      where: { action: "client.created", targetUuid: created.body.uuid },
    });
    expect(entry).toMatchObject({ via: "oauth", tokenName: "Ledger Sync" });
  });

  it("of a deleted app stops, and the app is an invalid_client at the token endpoint", async () => {
    const { app } = await firmApp("owner@acme.test");
    const tokens = (await exchange(await consent("owner@acme.test", app))).body;
    await deleteFirmClient(await prisma(), app.tenantId!, app.id);
    expect((await call(clientsRoute, "GET", "clients", { token: tokens.access_token })).status).toBe(401);
    const answer = await refresh(app, tokens.refresh_token);
    expect(answer.status).toBe(401);
    expect(answer.body.error).toBe("invalid_client");
  });
});

describe("revocation (RFC 7009)", () => {
  it("of an access token ends that token; of a refresh token the grant; unknown tokens are a 200 too", async () => {
    const { app } = await firmApp("owner@acme.test");
    const connected = await consent("owner@acme.test", app);
    const tokens = (await exchange(connected)).body;
    expect((await revoke({ token: tokens.access_token, client_id: app.id })).status).toBe(200);
    expect((await call(clientsRoute, "GET", "clients", { token: tokens.access_token })).status).toBe(401);
    expect((await refresh(app, tokens.refresh_token)).status).toBe(200);
    expect((await revoke({ token: tokens.refresh_token, client_id: app.id })).status).toBe(200);
    expect(await grantRow(connected.grantId)).toBeNull();
    expect((await revoke({ token: "cjr_unknown", client_id: app.id })).status).toBe(200);
  });

  it("by another app changes nothing", async () => {
    const { app } = await firmApp("owner@acme.test");
    const { app: other } = await firmApp("owner@acme.test", { name: "Other" });
    const tokens = (await exchange(await consent("owner@acme.test", app))).body;
    expect((await revoke({ token: tokens.access_token, client_id: other.id })).status).toBe(200);
    expect((await call(clientsRoute, "GET", "clients", { token: tokens.access_token })).status).toBe(200);
  });
});

describe("a confidential app", () => {
  it("authenticates with HTTP Basic; a wrong secret or none is a 401 invalid_client", async () => {
    const { app, secret } = await firmApp("owner@acme.test", { confidential: true });
    const connected = await consent("owner@acme.test", app);
    const basic = (s: string) => ({ Authorization: `Basic ${Buffer.from(`${app.id}:${s}`).toString("base64")}` });
    const form = {
      grant_type: "authorization_code",
      code: connected.code,
      code_verifier: connected.verifier,
      redirect_uri: "https://app.example.com/callback",
      resource: resourceUrl("api"),
    };
    const wrong = await token(form, basic("cjs_wrong"));
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe("invalid_client");
    expect(wrong.headers.get("www-authenticate")).toContain("Basic");
    expect((await token({ ...form, client_id: app.id })).status).toBe(401);
    expect((await token(form, basic(secret!))).status).toBe(200);
  });
});
