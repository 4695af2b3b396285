// REQUEST_LOG=off (the bench's comparison of the token request log's cost, issue 40): answered requests leave no
// entry; with the setting unset they do.
import { afterEach, expect, it, vi } from "vitest";
import * as me from "@/app/api/v1/me/route";
import { prisma } from "@/lib/db/client";
import { flushTokenRequests } from "@/lib/request-log/buffer";
import { createApiToken } from "@/lib/tokens";
import { call, userByEmail } from "../support/api";

afterEach(() => vi.unstubAllEnvs());

it("keeps no entry with REQUEST_LOG=off, and one per request without it", async () => {
  const user = await userByEmail("owner@acme.test");
  const db = await prisma();
  const { token, summary } = await createApiToken(db, { tenantId: user.tenantId, userId: user.id }, "request log off");
  const where = { tenantId: user.tenantId, tokenId: summary.id };

  vi.stubEnv("REQUEST_LOG", "off");
  expect((await call(me, "GET", "me", { token })).status).toBe(200);
  await flushTokenRequests();
  expect(await db.tokenRequest.count({ where })).toBe(0);

  vi.unstubAllEnvs();
  expect((await call(me, "GET", "me", { token })).status).toBe(200);
  await flushTokenRequests();
  expect(await db.tokenRequest.count({ where })).toBe(1);
});
